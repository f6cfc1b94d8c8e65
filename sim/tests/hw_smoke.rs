//! Quick check of the rtl engine on a few programs (development aid; the full cross-check is
//! `hw_cross.rs`).
use microcode::compile::compile;
use microcode::core::CoreConfig;
use microcode::tgsi::text;
use sim::hardware::{rtl::RtlCore, run_image};
use sim::run_io::RunInputs;

fn check(src: &str) {
    let p = text::parse(src).expect("parses");
    let img = compile(&p, &CoreConfig::default()).expect("compiles").image;
    let mut inputs = RunInputs::default();
    for l in 0..4 {
        inputs.set_input_lane(
            0,
            l,
            [
                1.5f32.to_bits(),
                (-2.0f32 + l as f32).to_bits(),
                0,
                0x7FC0_0000,
            ],
        );
        inputs.set_input_lane(
            1,
            l,
            [3.0f32.to_bits(), 0.25f32.to_bits(), (l as f32).to_bits(), 1],
        );
    }
    let model = sim::core_model::run(&img, &inputs).expect("model runs");
    let mut core = RtlCore::new(&img.config).expect("builds");
    let hw = run_image(&mut core, &img, &inputs).unwrap_or_else(|e| panic!("{e}\n{src}"));
    for l in 0..4 {
        assert_eq!(
            hw.lanes[l].killed, model.lanes[l].killed,
            "lane {l} kill\n{src}"
        );
        assert_eq!(
            hw.lanes[l].outputs, model.lanes[l].outputs,
            "lane {l}\n{src}"
        );
    }
    assert_eq!(hw.cycles, model.cycles, "{src}");
    eprintln!(
        "cycles {:?} clocks {} out {:?}",
        hw.cycles,
        sim::hardware::HostPort::clocks(&core),
        hw.lanes[1].outputs
    );
}

#[test]
fn smoke() {
    let h = "FRAG\nDCL IN[0..1]\nDCL OUT[0..1]\nDCL TEMP[0..3]\nIMM FLT32 { 0.0, 1.0, 3.0, 0.5 }\n";
    check(&format!("{h}MOV OUT[0], IN[0]\nEND\n"));
    check(&format!(
        "{h}ADD OUT[0], IN[0], IN[1]\nMUL OUT[1], IN[0], -IN[1].yxzw\nEND\n"
    ));
    check(&format!(
        "{h}MAD_SAT OUT[0], IN[0], IN[1], IMM[0]\nMIN OUT[1], IN[0], IN[1]\nEND\n"
    ));
    check(&format!(
        "{h}SLT OUT[0], IN[0], IN[1]\nFLR OUT[1], IN[1]\nEND\n"
    ));
    check(&format!(
        "{h}IF IN[1].zzzz\nMOV OUT[0], IN[1]\nELSE\nMOV OUT[0], -IN[1]\nENDIF\nEND\n"
    ));
    check(&format!("{h}KIL IN[0].yyyy\nMOV OUT[0], IN[1]\nEND\n"));
    check(&format!("{h}DDX OUT[0], IN[0]\nDDY OUT[1], IN[1]\nEND\n"));
}

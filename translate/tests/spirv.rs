//! SPIR-V input: test shaders written as SPIR-V by naga's own back end, translated from the
//! binary and rendered on the reference model like their WGSL sources.

use microcode::tgsi::Program;
use sim::run_io::RunInputs;
use std::collections::BTreeMap;
use std::path::Path;

fn spirv_of(wgsl: &str) -> Vec<u8> {
    let module = naga::front::wgsl::parse_str(wgsl).expect("WGSL parses");
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default(),
    )
    .validate(&module)
    .expect("valid");
    let words = naga::back::spv::write_vec(&module, &info, &Default::default(), None)
        .expect("SPIR-V written");
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn pixels(p: &Program) -> Vec<[u8; 4]> {
    let mut inputs = RunInputs::default();
    sim::render::render(
        p,
        16,
        16,
        &BTreeMap::new(),
        &mut inputs,
        &mut |i| sim::reference::run(p, i).map_err(|e| e.to_string()),
        &mut |_, _| {},
    )
    .expect("renders")
    .pixels
}

#[test]
fn spirv_modules_render_like_their_wgsl_sources() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/shaders");
    for name in [
        "glow",
        "sphere",
        "steps",
        "tri",
        "quadrants",
        "rotate",
        "slopes",
        "int_hash",
        "int_xorshift",
        "int_counter",
        "int_divide",
        "int_convert",
        "int_compare",
    ] {
        let path = dir.join(format!("{name}.wgsl"));
        let src = std::fs::read_to_string(&path).unwrap();
        let from_wgsl = translate::translate_file(&path, None).unwrap().program;
        let spv = spirv_of(&src);
        let from_spv = translate::translate(&spv, translate::Language::SpirV, name, None)
            .unwrap_or_else(|e| panic!("{name}.spv: {e}"))
            .program;
        let (a, b) = (pixels(&from_wgsl), pixels(&from_spv));
        for (i, (x, y)) in a.iter().zip(&b).enumerate() {
            for c in 0..4 {
                assert!(
                    (x[c] as i32 - y[c] as i32).abs() <= 1,
                    "{name}: pixel {i} channel {c}: WGSL {} SPIR-V {}",
                    x[c],
                    y[c]
                );
            }
        }
    }
}

#[test]
fn broken_spirv_is_an_error_naming_the_file() {
    let mut spv =
        spirv_of("@fragment fn main() -> @location(0) vec4<f32> { return vec4<f32>(1.0); }");
    spv.truncate(spv.len() - 8);
    let e = translate::translate(&spv, translate::Language::SpirV, "cut.spv", None).unwrap_err();
    assert!(e.to_string().starts_with("cut.spv"), "{e}");
    let e =
        translate::translate(&spv[..6], translate::Language::SpirV, "odd.spv", None).unwrap_err();
    assert!(e.to_string().contains("32-bit words"), "{e}");
}

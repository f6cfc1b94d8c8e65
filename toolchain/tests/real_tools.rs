//! The real tools found by `find`: a small design through verilator, yosys, nextpnr and icepack,
//! and through yosys, nextpnr-ecp5 and ecppack.
//! Skipped, with a note, when the toolchain is not installed (`cargo xtask setup`).

mod common;

use std::fs;

use common::scratch;
use toolchain::{find, run_logged, Tool, ToolPath};

const DESIGN: &str = "\
module blink (input wire clk, input wire rst_n, output reg [3:0] led);
    reg [23:0] count;
    always @(posedge clk) begin
        if (!rst_n) begin
            count <= 24'd0;
            led <= 4'd0;
        end else begin
            count <= count + 24'd1;
            if (count == 24'd0) led <= led + 4'd1;
        end
    end
endmodule
";

fn tool_or_skip(tool: Tool) -> Option<ToolPath> {
    match find(tool) {
        Ok(found) => Some(found),
        Err(error) => {
            eprintln!("SKIPPED: {error}");
            None
        }
    }
}

#[test]
fn verilator_lints_a_module_and_rejects_a_broken_one() {
    let Some(verilator) = tool_or_skip(Tool::Verilator) else {
        return;
    };
    let dir = scratch("real_verilator");
    fs::write(dir.join("blink.v"), DESIGN).expect("write design");
    run_logged(
        verilator
            .command()
            .args(["--lint-only", "-Wall", "blink.v"])
            .current_dir(&dir),
        &dir.join("lint.log"),
    )
    .expect("blink.v lints clean");

    fs::write(
        dir.join("broken.v"),
        "module broken (input a); assign b = a; endmodule\n",
    )
    .expect("write design");
    let err = run_logged(
        verilator
            .command()
            .args(["--lint-only", "broken.v"])
            .current_dir(&dir),
        &dir.join("broken.log"),
    )
    .expect_err("undeclared signal must fail");
    assert!(err.to_string().contains("broken.log"), "{err}");
}

#[test]
fn yosys_nextpnr_icepack_build_a_bitstream() {
    let (Some(yosys), Some(nextpnr), Some(icepack)) = (
        tool_or_skip(Tool::Yosys),
        tool_or_skip(Tool::NextpnrIce40),
        tool_or_skip(Tool::Icepack),
    ) else {
        return;
    };
    let dir = scratch("real_flow");
    fs::write(dir.join("blink.v"), DESIGN).expect("write design");
    fs::write(
        dir.join("blink.pcf"),
        "set_io clk P7\nset_io rst_n P8\nset_io led[0] J11\nset_io led[1] K11\n\
         set_io led[2] K12\nset_io led[3] K14\n",
    )
    .expect("write pins");
    // Relative paths: the yowasp tools' sandbox does not see the host's /tmp.
    let synth = run_logged(
        yosys
            .command()
            .args([
                "-p",
                "synth_ice40 -top blink -json blink.json; stat",
                "blink.v",
            ])
            .current_dir(&dir),
        &dir.join("yosys.log"),
    )
    .expect("synthesis");
    let report = String::from_utf8_lossy(&synth.stdout);
    assert!(
        report.contains("SB_CARRY"),
        "a counter needs a carry chain:\n{report}"
    );
    assert!(report.contains("SB_DFF"), "and flip-flops:\n{report}");

    run_logged(
        nextpnr
            .command()
            .args(["--hx8k", "--package", "cb132", "--pcf", "blink.pcf"])
            .args([
                "--json",
                "blink.json",
                "--asc",
                "blink.asc",
                "--freq",
                "100",
            ])
            .args(["--report", "report.json"])
            .current_dir(&dir),
        &dir.join("nextpnr.log"),
    )
    .expect("place and route");
    let report = fs::read_to_string(dir.join("report.json")).expect("nextpnr report");
    assert!(report.contains("\"fmax\""), "{report}");

    run_logged(
        icepack
            .command()
            .args(["blink.asc", "blink.bin"])
            .current_dir(&dir),
        &dir.join("icepack.log"),
    )
    .expect("icepack");
    // The HX8K's bitstream is 135,100 bytes whatever the design (all of the configuration memory).
    let size = fs::metadata(dir.join("blink.bin"))
        .expect("bitstream")
        .len();
    assert_eq!(size, 135_100);
}

#[test]
fn yosys_nextpnr_ecp5_ecppack_build_a_bitstream() {
    let (Some(yosys), Some(nextpnr), Some(ecppack)) = (
        tool_or_skip(Tool::Yosys),
        tool_or_skip(Tool::NextpnrEcp5),
        tool_or_skip(Tool::Ecppack),
    ) else {
        return;
    };
    let dir = scratch("real_flow_ecp5");
    fs::write(dir.join("blink.v"), DESIGN).expect("write design");
    // The ULX3S's oscillator, power button and first LEDs.
    fs::write(
        dir.join("blink.lpf"),
        "LOCATE COMP \"clk\" SITE \"G2\";\nLOCATE COMP \"rst_n\" SITE \"D6\";\n\
         LOCATE COMP \"led[0]\" SITE \"B2\";\nLOCATE COMP \"led[1]\" SITE \"C2\";\n\
         LOCATE COMP \"led[2]\" SITE \"C1\";\nLOCATE COMP \"led[3]\" SITE \"D2\";\n",
    )
    .expect("write pins");
    let synth = run_logged(
        yosys
            .command()
            .args([
                "-p",
                "synth_ecp5 -top blink -json blink.json; stat",
                "blink.v",
            ])
            .current_dir(&dir),
        &dir.join("yosys.log"),
    )
    .expect("synthesis");
    let report = String::from_utf8_lossy(&synth.stdout);
    assert!(report.contains("TRELLIS_FF"), "flip-flops:\n{report}");
    assert!(report.contains("CCU2C"), "a carry chain:\n{report}");
    run_logged(
        nextpnr
            .command()
            .args(["--12k", "--package", "CABGA381", "--lpf", "blink.lpf"])
            .args(["--json", "blink.json", "--textcfg", "blink.config"])
            .args(["--freq", "25", "--report", "report.json"])
            .current_dir(&dir),
        &dir.join("nextpnr.log"),
    )
    .expect("place and route");
    let report = fs::read_to_string(dir.join("report.json")).expect("nextpnr report");
    assert!(report.contains("TRELLIS_COMB"), "{report}");
    run_logged(
        ecppack
            .command()
            .args(["blink.config", "blink.bit"])
            .current_dir(&dir),
        &dir.join("ecppack.log"),
    )
    .expect("ecppack");
    let bit = fs::read(dir.join("blink.bit")).expect("bitstream");
    assert!(bit.len() > 100_000, "{} bytes", bit.len());
}

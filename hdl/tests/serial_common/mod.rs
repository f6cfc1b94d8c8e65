//! Helpers of the serial-link block tests: a seeded random source, direct-drive clocking, and the
//! checks of the emitted Verilog with the project's toolchain.

#![allow(dead_code)]

use std::fs;
use std::path::PathBuf;

use rust_hdl::prelude::*;
use toolchain::{find, run_logged, Tool};

/// The settle budget of one `simulate` call (passes of `update_all`).
const SETTLE: usize = 100;

/// Lets the combinational logic settle after inputs changed (clock unchanged).
pub fn settle<B: Block>(uut: &mut B) {
    assert!(simulate(uut, SETTLE), "logic did not settle");
}

/// One clock cycle of direct drive: settle the inputs, rising edge, falling edge.
pub fn cycle<B: Block>(uut: &mut B, clock: fn(&mut B) -> &mut Signal<In, Clock>) {
    settle(uut);
    clock(uut).next = Clock::from(true);
    settle(uut);
    clock(uut).next = Clock::from(false);
    settle(uut);
}

/// Checks emitted Verilog with `verilator --lint-only -Wno-WIDTH` and yosys
/// `read -vlog95; hierarchy -check -top top; proc; check -assert`. Skips, with a printed note,
/// when the tools are not installed (fails under `TGSI_REQUIRE_TOOLS=1`).
pub fn check_verilog(name: &str, verilog: &str) {
    let (verilator, yosys) = match (find(Tool::Verilator), find(Tool::Yosys)) {
        (Ok(verilator), Ok(yosys)) => (verilator, yosys),
        (Err(error), _) | (_, Err(error)) => {
            toolchain::missing(format!("Verilog check of {name}: {error}"));
            return;
        }
    };
    // Under target/ rather than /tmp: the yowasp tools cannot see the host's /tmp.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("serial-verilog")
        .join(name);
    fs::create_dir_all(&dir).expect("create the Verilog directory");
    fs::write(dir.join("top.v"), verilog).expect("write the Verilog");
    if let Err(error) = run_logged(
        verilator
            .command()
            .args(["--lint-only", "-Wno-WIDTH", "top.v"])
            .current_dir(&dir),
        &dir.join("verilator.log"),
    ) {
        panic!("{name}: {error}");
    }
    if let Err(error) = run_logged(
        yosys
            .command()
            .args([
                "-q",
                "-p",
                "read -vlog95 top.v; hierarchy -check -top top; proc; check -assert",
            ])
            .current_dir(&dir),
        &dir.join("yosys.log"),
    ) {
        panic!("{name}: {error}");
    }
}

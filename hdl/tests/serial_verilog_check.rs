//! The Verilog check used by the serial-link tests rejects broken Verilog (when the tools exist),
//! so its passing on the blocks means something.

mod serial_common;

use std::panic;

use toolchain::{find, Tool};

#[test]
fn check_rejects_an_undeclared_signal() {
    if find(Tool::Verilator).is_err() || find(Tool::Yosys).is_err() {
        eprintln!("SKIPPED: toolchain not installed (cargo xtask setup)");
        return;
    }
    let broken = "module top(input wire a, output wire y);\n  assign y = a & missing;\nendmodule\n";
    let outcome = panic::catch_unwind(|| serial_common::check_verilog("broken", broken));
    assert!(
        outcome.is_err(),
        "the check accepted Verilog with an undeclared signal"
    );
}

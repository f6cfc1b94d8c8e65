//! The shader core's emitted Verilog: rust-hdl's own checks, `verilator --lint-only -Wno-WIDTH`
//! (WIDTH: rust-hdl writes every literal as `32'hN`; UNSIGNED: see below) and yosys
//! `hierarchy -check; proc; check -assert`. (Its behaviour is cross-checked against the core
//! model on both engines in `sim/tests/hw_cross.rs`.)

mod common;

use common::tools::{verilator_lint_with, yosys_check};
use hdl::shader_core::ShaderCore;
use microcode::core::CoreConfig;
use rust_hdl::core::check_error::check_all;
use rust_hdl::prelude::*;

fn verilog() -> String {
    let mut uut = ShaderCore::new(&CoreConfig::default());
    uut.connect_all();
    check_all(&uut).expect("the core passes rust-hdl's checks");
    generate_verilog(&uut)
}

#[test]
fn emitted_verilog_lints_and_passes_yosys_checks() {
    let v = verilog();
    // Every block is in the Verilog (nothing got lost on the way).
    for block in [
        "seq$stack",
        "opa$mem",
        "fmad$mul",
        "fmad$add",
        "misc$fcmp",
        "misc$trans",
        "misc$tex",
        "misc$tex$mem",
        "kmem",
        "ast",
        "slots$ram",
        "dec$rom_issue",
        "imem$0",
    ] {
        assert!(
            v.contains(&format!("module top${block}")),
            "no module for {block}"
        );
    }
    // -Wno-UNSIGNED: the mask stack's per-frame loops unroll `i > inner` into `0 > inner` for
    // frame 0, a comparison that is constant by construction (frame 0 is never above anything).
    let Some(_) = verilator_lint_with("shader_core", &v, &["-Wno-UNSIGNED"]) else {
        return;
    };
    yosys_check("shader_core", &v);
}

/// The ECP5's core (`ShaderCore::for_family`: the multiplier's product on `Mul24`, the slot
/// controls' ring of 16 words) likewise; its behaviour is checked against the core model on the
/// emulated multi-core board (`tests/board_emulated.rs`).
#[test]
fn the_ecp5_core_lints_and_passes_yosys_checks() {
    let config = microcode::board::Board::Ulx3s85f.core_config();
    let mut uut = ShaderCore::for_family(&config, microcode::board::Family::Ecp5);
    uut.connect_all();
    check_all(&uut).expect("the ECP5 core passes rust-hdl's checks");
    let v = generate_verilog(&uut);
    assert!(
        v.contains("module top$fmad$mul$dsp$0"),
        "the product on Mul24"
    );
    assert!(v.contains("a[16:0] * b[16:0]"));
    let Some(_) = verilator_lint_with("shader_core_ecp5", &v, &["-Wno-UNSIGNED"]) else {
        return;
    };
    yosys_check("shader_core_ecp5", &v);
}

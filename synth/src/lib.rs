//! Bitstreams for the Alchitry Cu with the open toolchain: rust-hdl emits the Verilog, yosys
//! `synth_ice40` maps it, nextpnr-ice40 places and routes it for the HX8K (CB132) at a target
//! frequency, icepack writes the bitstream. Every tool's exit status is checked and its log kept.

pub mod flow;
pub mod report;

pub use flow::{synthesise, Options, Outcome, SynthError};
pub use report::Report;

use hdl::baud::BaudDivisor;
use hdl::board_top::BoardTop;
use rust_hdl::prelude::*;

/// The board's clock in Hz (the Alchitry Cu oscillator).
pub const BOARD_CLOCK_HZ: u64 = 100_000_000;

/// The serial line rate of the board build.
pub const BOARD_BAUD: u64 = 115_200;

/// The blocks of the board top that synthesis must keep (rust-hdl instance names).
pub const BOARD_BLOCKS: [&str; 4] = ["fmul", "fadd", "uart_rx", "uart_tx"];

/// Verilog of the board top level as built today (`hdl::board_top`).
pub fn board_verilog() -> Result<String, String> {
    let divisor =
        BaudDivisor::for_rate(BOARD_CLOCK_HZ, BOARD_BAUD).map_err(|e| format!("baud: {e}"))?;
    let mut top = BoardTop::new(divisor);
    top.connect_all();
    check_all(&top).map_err(|e| format!("the board top does not check: {e:?}"))?;
    Ok(generate_verilog(&top))
}

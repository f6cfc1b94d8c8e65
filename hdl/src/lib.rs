//! The shader core in rust-hdl, one block per file, in folders by subsystem: `float` (the
//! binary32 units), `units` (the misc, transcendental and texture units), `control` (the core's
//! top, decoder, sequencer, stacks, operand and writeback paths, host port), `memory`,
//! `protocol` (the loader, its firmware and the frame and CRC blocks), `serial` (the UART) and
//! `board` (the chips and board tops).
#![warn(missing_docs)]

pub mod board;
pub mod control;
pub mod float;
pub mod memory;
pub mod protocol;
pub mod serial;
pub mod units;
pub mod verilog;

// Each block keeps its path at the crate's root (`hdl::fadd`, `hdl::loader`, ...): the folders
// show the subsystems without renaming what the other crates import.
pub use board::{
    board_chip, board_status, board_top, core_mux, ecp5_pll, multi_board_top, quad_dispatcher,
    ulx3s_chip,
};
pub use control::{
    address_stack, decoder, flow_eval, host_port, mask_stack, operand_read, rel_index, sequencer,
    shader_core, slot_ring, writeback,
};
pub use float::{fadd, fcmp, float_unpack, fmad_pipe, fmul, lzc, mul24};
pub use memory::{bram, rom};
pub use protocol::{
    crc32, crc32_serial, frame_rx, loader, loader_device, loader_firmware, loader_isa,
    loader_layout,
};
pub use serial::{baud, uart_rx, uart_tx};
pub use units::{misc_unit, tex_unit, trans_unit};

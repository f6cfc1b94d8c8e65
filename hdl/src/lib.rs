//! The shader core in rust-hdl: its blocks (float units, operand paths, decoder,
//! sequencer, mask stack, writeback), the host port, the serial link blocks and the board top.

pub mod address_stack;
pub mod baud;
pub mod board_chip;
pub mod board_top;
pub mod bram;
pub mod crc32;
pub mod crc32_serial;
pub mod decoder;
pub mod ecp5_pll;
pub mod fadd;
pub mod fcmp;
pub mod float_unpack;
pub mod fmad_pipe;
pub mod fmul;
pub mod frame_rx;
pub mod host_port;
pub mod loader;
pub mod loader_firmware;
pub mod loader_isa;
pub mod loader_layout;
pub mod lzc;
pub mod mask_stack;
pub mod misc_unit;
pub mod operand_read;
pub mod rel_index;
pub mod rom;
pub mod sequencer;
pub mod shader_core;
pub mod tex_unit;
pub mod trans_unit;
pub mod uart_rx;
pub mod uart_tx;
pub mod ulx3s_chip;
pub mod writeback;

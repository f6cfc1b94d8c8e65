//! hdl crate (under construction).

pub mod baud;
pub mod board_top;
pub mod bram;
pub mod crc32;
pub mod f2i;
pub mod fadd;
pub mod fcmp;
pub mod fmul;
pub mod fround;
pub mod host_port;
pub mod i2f;
pub mod lzc;
pub mod uart_rx;
pub mod uart_tx;

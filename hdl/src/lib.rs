//! hdl crate (under construction).

pub mod baud;
pub mod crc32;
pub mod uart_rx;
pub mod uart_tx;

//! The serial line: the baud-rate divisor, the UART receiver and transmitter.

pub mod baud;
pub mod uart_rx;
pub mod uart_tx;

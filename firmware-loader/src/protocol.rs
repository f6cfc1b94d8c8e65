//! The serial protocol's numbers, layouts and messages: `microcode::protocol`, where the
//! loader's firmware (`hdl`), this crate and the emulator all read them.
pub use microcode::protocol::*;

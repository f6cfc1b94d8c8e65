//! TGSI: the opcode table, the in-memory program, text and binary front ends, validation.

pub mod ir;
pub mod load;
pub mod opcode;
pub mod system;
pub mod text;
pub mod tokens;
pub mod validate;

pub use ir::*;
pub use opcode::{Opcode, OpcodeInfo, OPCODES};
#[cfg(any(test, feature = "proptest"))]
pub mod arbitrary;
pub use load::{load, Format, LoadError, Loaded};

//! The TGSI front end and the microcode compiler of the tgsi-core project.
//!
//! - [`tgsi`]: the opcode table, the program representation, the text and token front ends and the
//!   validator.
//! - [`arith`]: the core's arithmetic algorithms, written once as functions on bits.
//! - [`board`]: the boards (FPGA, clocks, core configuration, core counts), one table.
//! - [`rng`]: the workspace's one seeded random generator (tests, fuzzing, fault injection).

#![warn(missing_docs)]

pub mod arith;
pub mod board;
pub mod compile;
pub mod core;
pub mod output;
pub mod protocol;
pub mod rng;
pub mod tgsi;

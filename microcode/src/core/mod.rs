//! The shader core's instruction set: the configuration value, the operation and field tables,
//! the binary image and the disassembler.
//!
//! - [`config`]: [`CoreConfig`], the ONE value of limits and feature flags.
//! - [`isa`]: [`isa::OPS`] (operations: unit, sources, cycles, semantics) and [`isa::FIELDS`]
//!   (instruction bit fields), with [`isa::encode`] / [`isa::decode`].
//! - [`image`]: the versioned, checksummed binary image.
//! - [`disasm`]: image -> text listing; the trace printer.
//! - [`eval`]: the result bits of each component-wise operation (the op -> arithmetic map).
//! - [`fault_code`]: the codes a run of the core ends (or pauses) with.

pub mod asm;
pub mod config;
pub mod disasm;
pub mod eval;
pub mod fault_code;
pub mod image;
pub mod isa;

pub use config::CoreConfig;
pub use image::{Image, ImageError};
pub use isa::{Instr, Op, Operand};

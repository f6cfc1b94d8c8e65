//! Models and engines: the reference model, the core model, the hardware engines (rust-hdl and
//! Verilator), the texture sampler, the rasteriser and the per-opcode test vectors.

#![warn(missing_docs)]

pub mod core_model;
#[cfg(feature = "hardware")]
pub mod hardware;
pub mod reference;
pub mod render;
pub mod run_io;
pub mod texture;
pub mod vectors;

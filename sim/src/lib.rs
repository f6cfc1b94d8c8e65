//! sim crate (under construction).

pub mod reference;
pub mod run_io;
pub mod texture;
pub mod vectors;

//! sim crate (under construction).

pub mod core_model;
pub mod hardware;
pub mod reference;
pub mod render;
pub mod run_io;
pub mod texture;
pub mod vectors;

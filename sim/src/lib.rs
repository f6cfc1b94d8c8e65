//! sim crate (under construction).
pub mod texture;

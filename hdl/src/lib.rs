//! hdl crate (under construction).

pub mod bram;
pub mod fadd;
pub mod fmul;
pub mod lzc;

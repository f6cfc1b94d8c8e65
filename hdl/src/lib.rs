//! hdl crate (under construction).

pub mod bram;
pub mod fadd;
pub mod fcmp;
pub mod fmul;
pub mod fround;
pub mod lzc;

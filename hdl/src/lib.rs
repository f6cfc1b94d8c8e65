//! hdl crate (under construction).

pub mod bram;
pub mod f2i;
pub mod fadd;
pub mod fcmp;
pub mod fmul;
pub mod fround;
pub mod i2f;
pub mod lzc;

//! The binary32 arithmetic: the adder (with the conversions), the multiplier and its multiplier-block product, the comparator, the operand unpacking and the leading-zero count, and the FMAD pipe that chains them.

pub mod fadd;
pub mod fcmp;
pub mod float_unpack;
pub mod fmad_pipe;
pub mod fmul;
pub mod lzc;
pub mod mul24;

//! The core's arithmetic algorithms, written once as Rust functions on bits.
//!
//! Every function takes and returns register bits (`u32`) and computes the way the hardware does:
//! integer datapaths of stated widths, explicit normalise and round steps, tables of stated size.
//! The core model calls these functions and the rust-hdl hardware is tested bit for bit against
//! them. Number rules (decisions.md section 2): binary32; subnormal inputs count as signed zero;
//! round to nearest even on the binary32 grid (subnormal grid included), then a subnormal result
//! is flushed to signed zero; every NaN result is `0x7FC00000`. See `README.md` in this folder for
//! each algorithm, its widths, tables, cycles and measured accuracy.

pub mod accuracy;
pub mod bits;
pub mod compare;
pub mod convert;
pub mod div_steps;
pub mod fadd;
pub mod fdiv;
pub mod fmul;
pub mod int;
pub mod integral;
pub mod round;
pub mod tables;
pub mod texel;
pub mod transcendental;

pub use accuracy::{accuracy_report, AccuracyRow, ErrorUnit};
pub use bits::CANONICAL_NAN;
pub use compare::{
    canonical, fcmp, feq, fge, fgt, fle, flt, fmax, fmin, fne, fsat01, fsat11, FCmp,
};
pub use convert::{
    f2i_floor, f2i_round, f2i_trunc, fexp2_floor, fexp_part, fldexp, fmant_part, i2f, isgn, u2f,
    usgn,
};
pub use fadd::{fadd, fmad, fmad_lanes, fsub};
pub use fdiv::{fdiv, frcp};
pub use fmul::fmul;
pub use int::{iabs, iadd, imax, imin, imod, ineg, isad, ishl, ishr, isub, umax, umin, ushr};
pub use integral::{fceil, ffloor, ffrac, fround, fround_integral, ftrunc, IntegralMode};
pub use transcendental::{fcos, fdp3, fdp4, fex2, flg2, fnrm3, fnrm4, fpow, frsq, fsin, fsincos};

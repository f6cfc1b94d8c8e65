//! Transcendental functions as microcode sequences: float adds and multiplies (the functions of
//! this crate, so every intermediate rounding is the hardware's), small block-RAM tables
//! ([`crate::arith::tables`]) and cheap exponent/significand bit operations. No dedicated
//! datapath is needed beyond the scalar float pipeline and the convert unit.

mod ex2;
mod lg2;
mod pow;
mod rsq;
mod sincos;
pub mod steps;

pub use ex2::fex2;
pub use lg2::flg2;
pub use pow::{fdp3, fdp4, fnrm3, fnrm4, fpow};
pub use rsq::frsq;
pub use sincos::{fcos, fsin, fsincos};

//! `POW` and `NRM`, composed from the other operations exactly as the spec's formulas read.
//!
//! - `POW(x, y) = EX2(y * LG2(x))`: with LG2 within 2 ULP relative and one rounding of the
//!   product, the exponent `t = y * log2 x` carries a relative error under 2^-22.6, so while
//!   `|t| <= 64` its absolute error is under 2^-16.6 and `2^t` is off by under 2^-17.1 relative,
//!   plus EX2's 2 ULP: within the 2^-16 bound. Special values follow the formula (`POW(0, 0)` is
//!   NaN: `0 * -inf`).
//! - `NRM`: `d = (x*x + y*y) + z*z` (one rounding per operation), `s = RSQ(d)`, components `x*s`,
//!   `y*s`, `z*s`; within 4 ULP of the exactly normalised vector while `d` is a finite normal
//!   number (the dot product's roundings give 1.5 ULP relative, halved by the square root).

use crate::arith::fadd::fadd;
use crate::arith::fmul::fmul;
use crate::arith::transcendental::{fex2, flg2, frsq};

/// `POW`: `EX2(y * LG2(x))`.
pub fn fpow(x: u32, y: u32) -> u32 {
    fex2(fmul(y, flg2(x)))
}

/// `DP3`: `(x0*x1 + y0*y1) + z0*z1`, one rounding per operation.
pub fn fdp3(a: [u32; 3], b: [u32; 3]) -> u32 {
    fadd(fadd(fmul(a[0], b[0]), fmul(a[1], b[1])), fmul(a[2], b[2]))
}

/// `NRM` (xyz part): `v * RSQ(DP3(v, v))` component-wise.
pub fn fnrm3(v: [u32; 3]) -> [u32; 3] {
    let s = frsq(fdp3(v, v));
    [fmul(v[0], s), fmul(v[1], s), fmul(v[2], s)]
}

//! `EX2`: `2^x` within 2 ULP, as a microcode sequence on the float units.
//!
//! Sequence (6 float operations, 2 conversions, one 256 x 23-bit table in 2 block RAMs):
//! 1. specials: NaN -> NaN; `x >= 128` (and +inf) -> +inf; `x < -127` (and -inf) -> +0 (the
//!    exact result is below 2^-127 and flushes);
//! 2. `k = f2i_round(x * 256)` (the multiplication is an exponent add, exact), `n = k >> 8`
//!    (arithmetic), `j = k & 255`;
//! 3. `r = x - i2f(k) * 2^-8`: exact (`|r| <= 2^-9`; `r` is a multiple of `ulp(x)` needing at most
//!    24 bits);
//! 4. `q = r * (C1 + r * C2)`, `C1 = ln 2`, `C2 = (ln 2)^2/2`: `2^r - 1` with truncation error
//!    below 2^-31 (3 operations);
//! 5. `T = EX2_TABLE[j] = 2^(j/256)` (rounded, 0.5 ULP); `y = T + T * q` (2 operations);
//! 6. bit op *scale*: `fldexp(y, n)` adds `n` to the exponent field; a result below 2^-126 is
//!    rounded on the subnormal grid and flushed, one beyond the range overflows to +inf.
//!
//! Error: table 0.5 ULP + polynomial and products under 0.02 ULP + final rounding 0.5 ULP, so
//! under about 1.02 ULP of the exact value and within 1 ULP of the correctly rounded one (bound
//! 2 ULP). At the flush boundary (exact values within a few ULP of 2^-126) the result may be 0 or
//! 2^-126 where the correctly rounded value is the other; the accuracy metric counts 0 and 2^-126
//! as neighbours on the flushed grid.
//! Why: a 256-entry table keeps the polynomial at degree 2 (3 operations) and fits 2 block RAMs;
//! no dedicated datapath is needed.

use super::steps::{ex2_finish, ex2_table, F256, NEG_2M8};
use crate::arith::convert::{f2i_round, i2f};
use crate::arith::fadd::fmad;
use crate::arith::fmul::fmul;
use crate::arith::tables::{EX2_C1, EX2_C2};

/// `EX2`: `2^x` within 2 ULP (`EX2(-inf) = 0`, `EX2(+inf) = +inf`, overflow -> +inf, results below
/// 2^-126 flush to +0, NaN -> canonical NaN).
pub fn fex2(x: u32) -> u32 {
    let k = f2i_round(fmul(x, F256)) as u32;
    // r = x - k/256, exact
    let r = fmad(i2f(k as i32), NEG_2M8, x);
    let q = fmul(r, fmad(r, EX2_C2, EX2_C1));
    let t = ex2_table(k);
    let y = fmad(t, q, t);
    // scale by 2^(k >> 8) and the special operands (`EX2F`)
    ex2_finish(x, y, k)
}

//! `RSQ`: `1 / sqrt(|x|)` within 1 ULP, as a microcode sequence on the float adder and multiplier.
//!
//! Sequence (12 float operations, one 256 x 12-bit table, two bit operations):
//! 1. bit op *reduce*: `E = exp(|x|) - 127`, `p = E & 1`; `x' = 1.f * 2^p` in `[1, 4)` (exponent
//!    field set to `127 + p`); table index `p << 7 | f[22:16]`;
//! 2. `y0 = RSQ_SEED[index] * 2^-12`: a 12-bit value, relative error `|e| <= 2^-7.5` where
//!    `e = 1 - x' y0^2`;
//! 3. `s = y0 * y0` (exact: 24 bits), `t = x' * s` (one rounding, error <= 2^-24 near 1),
//!    `e = 1 - t` (exact by Sterbenz);
//! 4. `h = e * (1/2 + e * (3/8 + e * (5/16 + e * 35/128)))` by Horner (7 operations): the series of
//!    `(1 - e)^(-1/2) - 1` to degree 4 (truncation below 2^-37);
//! 5. `y = y0 + y0 * h` (2 operations; the only rounding that matters);
//! 6. bit op *scale*: add `-(E - p)/2` to the exponent field of `y` (never leaves the normal range:
//!    the result lies in `(2^-64, 2^63]`).
//!
//! Error: the rounding of `t` moves `y` by at most `y * 2^-25` (under 0.5 ULP), the Horner terms
//! contribute under 2^-30 relative, the final addition 0.5 ULP: total under 1.0 ULP of the exact
//! value, hence within 1 ULP of the correctly rounded result. Measured: see `accuracy_report`.
//! Why this design: it needs no extra datapath (only a 1-block-RAM table and exponent bit
//! operations), and the single 12-bit seed makes `y0^2` exact, which removes the error that
//! otherwise makes a binary32 Newton step exceed 1 ULP.

use super::steps::{rsq_finish, rsq_reduce, rsq_seed, RSQ_SEED_SCALE};
use crate::arith::bits::ONE;
use crate::arith::convert::u2f;
use crate::arith::fadd::{fadd, fsub};
use crate::arith::fmul::fmul;
use crate::arith::tables::RSQ_P;

/// `RSQ`: `1/sqrt(|x|)` within 1 ULP. `RSQ(+-0) = +inf` (also for subnormals), `RSQ(+-inf) = +0`,
/// NaN gives the canonical NaN.
pub fn frsq(x: u32) -> u32 {
    // 1. reduce (`RSQR`); 2. seed (`RSQT`, then int -> float and the exact scale by 2^-12)
    let xr = rsq_reduce(x);
    let y0 = fmul(u2f(rsq_seed(x)), RSQ_SEED_SCALE);
    // 3. residual
    let s = fmul(y0, y0);
    let t = fmul(xr, s);
    let r = fsub(ONE, t);
    // 4. correction polynomial
    let mut h = RSQ_P[0];
    for &c in &RSQ_P[1..] {
        h = fadd(fmul(h, r), c);
    }
    h = fmul(h, r);
    // 5. Newton-type correction, one final rounding
    let y = fadd(y0, fmul(y0, h));
    // 6. scale and special operands (`RSQF`)
    rsq_finish(x, y)
}

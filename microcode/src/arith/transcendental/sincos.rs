//! `SIN`, `COS` (and `SCS`): within 2^-20 absolute for `|x| <= 100 pi`, as a microcode sequence on
//! the float units (no table).
//!
//! Sequence (about 27 float operations for both results, 2 conversions, 2 selects):
//! 1. specials: NaN or +-inf -> NaN (a class-test bit op);
//! 2. quadrant: `k = f2i_round(x * 2/pi)`, `kf = i2f(k)`;
//! 3. Cody-Waite reduction with `pi/2 = P1 + P2 + P3` (`P1`, `P2` of 16 significant bits, so
//!    `kf * P1` and `kf * P2` are exact for `|k| < 256`): `r = ((x - kf*P1) - kf*P2) - kf*P3`.
//!    The first subtraction is exact (Sterbenz); the error of `r` is under 2^-24 for
//!    `|x| <= 100 pi`, and `|r| <= pi/4 + 2^-14`;
//! 4. `r` is clamped to `[-1, 1]` (2 selects). Inside the range this never acts; beyond it, it
//!    keeps the polynomials bounded whatever the reduction produced;
//! 5. `sin r = r + r * (r^2 * S(r^2))`, `S` the Taylor terms to degree 9; `cos r = 1 + r^2 C(r^2)`,
//!    Taylor terms to degree 8 (truncation under 2^-28 on `|r| <= pi/4`);
//! 6. bit op *quadrant select*: by `k & 3` (`k + 1` for cosine) return `sin r`, `cos r`, `-sin r`
//!    or `-cos r`.
//!
//! Error for `|x| <= 100 pi`: reduction under 2^-24, polynomial evaluation under 2^-23,
//! truncation under 2^-28: under 2^-22 absolute (bound 2^-20). Beyond `100 pi` the reduction error
//! grows like `|x| * 2^-24` (about 2^-20 at |x| = 2^9, 2^-8 at |x| = 2^21), and once `|x| >= 2^31
//! pi/2` the quadrant count saturates and the result is no longer related to `sin x`; it is always
//! finite and within `[-1, 1]`.
//! Why: with an absolute bound of 2^-20 plain Taylor polynomials on a Cody-Waite reduced argument
//! are accurate enough, so no block RAM is spent.

use super::steps::{sincos_finish, sincos_pick};
use crate::arith::bits::{ONE, SIGN_BIT};
use crate::arith::compare::{fmax, fmin};
use crate::arith::convert::{f2i_round, i2f};
use crate::arith::fadd::fmad;
use crate::arith::fmul::fmul;
use crate::arith::tables::{COS_P, PIO2_1, PIO2_2, PIO2_3, SIN_P, TWO_OVER_PI};

/// Horner evaluation of a polynomial in `t` with coefficients highest degree first.
fn horner(coeffs: &[u32], t: u32) -> u32 {
    let mut p = coeffs[0];
    for &c in &coeffs[1..] {
        p = fmad(p, t, c);
    }
    p
}

/// `(sin x, cos x)` sharing one reduction (the `SCS` sequence).
pub fn fsincos(x: u32) -> (u32, u32) {
    let k = f2i_round(fmul(x, TWO_OVER_PI)) as u32;
    let kf = i2f(k as i32);
    // r = ((x - kf P1) - kf P2) - kf P3
    let r = fmad(kf, PIO2_1 ^ SIGN_BIT, x);
    let r = fmad(kf, PIO2_2 ^ SIGN_BIT, r);
    let r = fmad(kf, PIO2_3 ^ SIGN_BIT, r);
    let r = fmin(fmax(r, ONE | SIGN_BIT), ONE);
    let r2 = fmul(r, r);
    let sin_r = fmad(r, fmul(r2, horner(&SIN_P, r2)), r);
    let cos_r = fmad(r2, horner(&COS_P, r2), ONE);
    // quadrant select (`SCQ`; cosine as (cos, -sin), i.e. quadrant k + 1) and NaN (`SCF`)
    (
        sincos_finish(x, sincos_pick(k, sin_r, cos_r)),
        sincos_finish(x, sincos_pick(k, cos_r, sin_r ^ SIGN_BIT)),
    )
}

/// `SIN`: within 2^-20 absolute for `|x| <= 100 pi`; NaN for NaN and infinities; finite otherwise.
pub fn fsin(x: u32) -> u32 {
    fsincos(x).0
}

/// `COS`: within 2^-20 absolute for `|x| <= 100 pi`; NaN for NaN and infinities; finite otherwise.
pub fn fcos(x: u32) -> u32 {
    fsincos(x).1
}

//! `LG2`: `log2(x)` within 2 ULP relative everywhere (so `LG2(1) = 0` exactly and results near
//! `x = 1` keep full relative accuracy), as a microcode sequence on the float units.
//!
//! Sequence (about 20 float operations, one conversion, tables of 3 block RAMs):
//! 1. specials: NaN or `x < 0` -> NaN; `+-0` (and subnormals) -> -inf; +inf -> +inf;
//! 2. bit op *reduce*: `E = exp(x) - 127`, `j = f[22:15]` (top 8 fraction bits); when
//!    `j >= 240` (the significand is within 2^-4 of 2) the significand is halved and `E`
//!    incremented, so `m` lies in `[1 - 2^-5, 2 - 2^-4)` and values just below 1 meet `E = 0`;
//! 3. `INV = LG2_INV[j] / 256` (at most 8 significant bits, 1 near 1), `A = LG2_LOG[j] * 2^-32 =
//!    log2(1/INV)` (0 near 1);
//! 4. `r = m * INV - 1`, exactly: `m = m_hi + m_lo` with `m_hi` the top 16 significand bits
//!    (bit op), `m_lo = m - m_hi`; `r = (m_hi * INV - 1) + m_lo * INV` (each product exact, the
//!    first difference exact by Sterbenz, and `r` itself representable: a multiple of 2^-31 below
//!    2^-7, or of 2^-24 below 2^-5 near 1); 5 operations;
//! 5. `B = log2(1 + r) = r + r * Q(r)`, `Q` of degree 5 (Horner, 12 operations), truncation under
//!    2^-27 relative for `|r| <= 2^-5`;
//! 6. `S = i2f(E) + A_hi` (exact: `A_hi` has 16 fraction bits), `L = S + (A_lo + B)` (2 operations).
//!
//! Error: near 1 (`S = 0`) the result is `B`, whose error is about 0.3 ULP before the final
//! rounding (`r` exact, `r*Q` contributes through a 0.44 factor). Elsewhere `|L| >= 2^-4.7`
//! because the near-1 intervals are wide (`|A| >= 2^-4.45` where `A != 0`, `|B| <= 2^-7.2`), and
//! the errors of `A_lo + B` stay under 0.3 ULP of `L`. Total under about 0.8 ULP of the exact
//! value, so within 1 ULP of the correctly rounded result (bound 2 ULP).
//! Why: the product split makes the reduced argument exact without a fused multiply-add, and the
//! two-part table value keeps the cancellation between exponent and table value exact: both are
//! needed for relative accuracy near 1, and neither needs a datapath beyond the adder/multiplier.

use super::steps::{
    lg2_exponent, lg2_finish, lg2_inv, lg2_log_hi, lg2_log_lo, lg2_reduce, lg2_reduce_hi, F2M16,
    F2M32, F2M8,
};
use crate::arith::bits::{ONE, SIGN_BIT};
use crate::arith::convert::{i2f, u2f};
use crate::arith::fadd::fmad;
use crate::arith::fmul::fmul;
use crate::arith::tables::LG2_Q;

/// `LG2`: `log2(x)` within 2 ULP relative (`LG2(+-0) = -inf`, `LG2(x < 0) = NaN`,
/// `LG2(+inf) = +inf`, `LG2(1) = +0`).
pub fn flg2(x: u32) -> u32 {
    // 2. reduce (`LG2M`, `LG2H`): m = m_hi + m_lo
    let m = lg2_reduce(x);
    let m_hi = lg2_reduce_hi(x);
    let m_lo = fmad(m_hi, ONE | SIGN_BIT, m);
    // 3. tables (`LG2I`, `LG2A`, `LG2B`, each converted and scaled exactly)
    let inv = fmul(u2f(lg2_inv(x)), F2M8);
    // 4. exact reduced argument r = (m_hi * INV - 1) + m_lo * INV
    let r = fmad(m_lo, inv, fmad(m_hi, inv, ONE | SIGN_BIT));
    // 5. log2(1 + r)
    let mut q = LG2_Q[5];
    for &c in LG2_Q[..5].iter().rev() {
        q = fmad(q, r, c);
    }
    let b = fmad(r, q, r);
    // 6. assemble: (E + A_hi) + (A_lo + B)
    let s = fmad(u2f(lg2_log_hi(x)), F2M16, i2f(lg2_exponent(x) as i32));
    let t = fmad(u2f(lg2_log_lo(x)), F2M32, b);
    // the special operands (`LG2F`)
    lg2_finish(x, fmad(s, ONE, t))
}

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

use crate::arith::bits::{
    exp_field, frac_field, unpack, Class, CANONICAL_NAN, NEG_INF, ONE, POS_INF,
};
use crate::arith::convert::{fldexp, i2f, u2f};
use crate::arith::fadd::{fadd, fsub};
use crate::arith::fmul::fmul;
use crate::arith::tables::{LG2_INV, LG2_LOG, LG2_NEAR_ONE_HIGH, LG2_Q};

/// `LG2`: `log2(x)` within 2 ULP relative (`LG2(+-0) = -inf`, `LG2(x < 0) = NaN`,
/// `LG2(+inf) = +inf`, `LG2(1) = +0`).
pub fn flg2(x: u32) -> u32 {
    let u = unpack(x);
    match u.class {
        Class::Nan => return CANONICAL_NAN,
        Class::Zero => return NEG_INF,
        _ if u.sign => return CANONICAL_NAN,
        Class::Inf => return POS_INF,
        Class::Normal => {}
    }
    // 2. reduce
    let j = (frac_field(x) >> 15) as usize;
    let wrap = j >= LG2_NEAR_ONE_HIGH;
    let e = exp_field(x) as i32 - 127 + wrap as i32;
    let m_exp: u32 = if wrap { 126 } else { 127 };
    let m = (m_exp << 23) | frac_field(x);
    // 3. tables
    let inv = fldexp(u2f(LG2_INV[j] as u32), -8);
    let a = LG2_LOG[j];
    let a_hi = fldexp(u2f(a >> 16), -16);
    let a_lo = fldexp(u2f(a & 0xFFFF), -32);
    // 4. exact reduced argument
    let m_hi = m & 0xFFFF_FF00;
    let m_lo = fsub(m, m_hi);
    let r = fadd(fsub(fmul(m_hi, inv), ONE), fmul(m_lo, inv));
    // 5. log2(1 + r)
    let mut q = LG2_Q[5];
    for &c in LG2_Q[..5].iter().rev() {
        q = fadd(fmul(q, r), c);
    }
    let b = fadd(r, fmul(r, q));
    // 6. assemble
    let s = fadd(i2f(e), a_hi);
    fadd(s, fadd(a_lo, b))
}

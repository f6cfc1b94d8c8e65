//! The bit operations of the transcendental sequences.
//!
//! Each function here is one core operation of the `Trans` unit (`RSQR`, `RSQT`, ... in
//! `crate::core::isa`), executed by the hardware's `TransUnit`; the float steps between them are
//! ordinary multiply-add and convert operations. [`super::frsq`], [`super::fex2`],
//! [`super::flg2`] and [`super::fsincos`] are written with these functions, and the compiler emits
//! the same steps as core instructions (`crate::compile`), so a sequence run on the core gives
//! the bits of the function.
//!
//! Every function is defined for every input (the hardware is tested on random operands), and
//! each is a few exponent/significand field operations, a table read or a select: no float
//! arithmetic beyond [`fldexp`]'s exponent add.

use crate::arith::bits::{
    exp_field, frac_field, is_nan, CANONICAL_NAN, NEG_INF, POS_INF, SIGN_BIT,
};
use crate::arith::convert::fldexp;
use crate::arith::tables::{EX2_TABLE, LG2_INV, LG2_LOG, LG2_NEAR_ONE_HIGH, RSQ_SEED};

/// 2^-12, the scale of the `RSQ` seed table's integers.
pub const RSQ_SEED_SCALE: u32 = 0x3980_0000;
/// 256.0: `EX2` computes `ldexp(x, 8)` as `x * 256` (exact wherever the result is used).
pub const F256: u32 = 0x4380_0000;
/// -2^-8: `EX2`'s `x - k/256` is one multiply-add with `k` and this constant.
pub const NEG_2M8: u32 = 0xBB80_0000;
/// 2^-8, 2^-16, 2^-32: the scales of the `LG2` table integers.
pub const F2M8: u32 = 0x3B80_0000;
/// See [`F2M8`].
pub const F2M16: u32 = 0x3780_0000;
/// See [`F2M8`].
pub const F2M32: u32 = 0x2F80_0000;

/// `p = (exp(x) - 127) & 1`: the exponent's parity, which `RSQ` folds into the reduced argument.
const fn rsq_parity(x: u32) -> u32 {
    (exp_field(x) + 1) & 1
}

/// `RSQR`: the reduced argument of `RSQ`, `x' = 1.f * 2^p` in `[1, 4)` (the operand's sign is
/// ignored).
pub const fn rsq_reduce(x: u32) -> u32 {
    ((127 + rsq_parity(x)) << 23) | frac_field(x)
}

/// `RSQT`: the seed table entry of `x` as an integer, `RSQ_SEED[p << 7 | f[22:16]]` (the
/// sequence converts it and scales it by 2^-12).
pub const fn rsq_seed(x: u32) -> u32 {
    RSQ_SEED[(rsq_parity(x) << 7 | frac_field(x) >> 16) as usize] as u32
}

/// `RSQF`: the final step of `RSQ`: the special operands of `|x|` (NaN -> NaN, zero -> +inf,
/// infinity -> +0), otherwise `y * 2^-((E - p) / 2)` with `E` the unbiased exponent of `x`.
pub const fn rsq_finish(x: u32, y: u32) -> u32 {
    let x = x & !SIGN_BIT;
    if is_nan(x) {
        return CANONICAL_NAN;
    }
    if exp_field(x) == 0 {
        return POS_INF;
    }
    if exp_field(x) == 255 {
        return 0;
    }
    let e = exp_field(x) as i32 - 127;
    let p = rsq_parity(x) as i32;
    fldexp(y, -((e - p) / 2))
}

/// `EX2T`: the table value `2^(j/256)` for `j = k & 255` (a float in `[1, 2)`).
pub const fn ex2_table(k: u32) -> u32 {
    EX2_TABLE[(k & 255) as usize]
}

/// `EX2F`: the final step of `EX2`: NaN -> NaN, `x >= 128` -> +inf, `x < -127` -> +0, otherwise
/// `y * 2^n` with `n = k >> 8` taken from bits 8..17 of `k` (sign-extended: the sequence's `k`
/// lies in `[-32512, 32768]`).
pub const fn ex2_finish(x: u32, y: u32, k: u32) -> u32 {
    if is_nan(x) {
        return CANONICAL_NAN;
    }
    let mag = x & !SIGN_BIT;
    if x & SIGN_BIT == 0 && mag >= 0x4300_0000 {
        return POS_INF;
    }
    if x & SIGN_BIT != 0 && mag > 0x42FE_0000 {
        return 0;
    }
    let n = ((((k >> 8) & 0x3FF) << 22) as i32) >> 22;
    fldexp(y, n)
}

/// `LG2`'s interval index `j = f[22:15]` and whether it wraps (`j >= 240`: the significand is
/// halved so that it lies in `[1 - 2^-5, 2 - 2^-4)`).
const fn lg2_index(x: u32) -> (usize, bool) {
    let j = (frac_field(x) >> 15) as usize;
    (j, j >= LG2_NEAR_ONE_HIGH)
}

/// `LG2M`: the reduced significand `m` of `LG2` (exponent 127, or 126 when the index wraps).
pub const fn lg2_reduce(x: u32) -> u32 {
    let (_, wrap) = lg2_index(x);
    let e = if wrap { 126 } else { 127 };
    (e << 23) | frac_field(x)
}

/// `LG2H`: the high part `m_hi` of the reduced significand (its low 8 bits cleared), so that
/// `m_hi * INV` is exact.
pub const fn lg2_reduce_hi(x: u32) -> u32 {
    lg2_reduce(x) & 0xFFFF_FF00
}

/// `LG2E`: the exponent `E` of the reduced argument as an int32 (`exp - 127`, plus 1 when the
/// index wraps); the sequence converts it with `I2F`.
pub const fn lg2_exponent(x: u32) -> u32 {
    let (_, wrap) = lg2_index(x);
    (exp_field(x) as i32 - 127 + wrap as i32) as u32
}

/// `LG2I`: the reciprocal table entry `LG2_INV[j]` as an integer (scaled by 2^-8 in the sequence).
pub const fn lg2_inv(x: u32) -> u32 {
    LG2_INV[lg2_index(x).0] as u32
}

/// `LG2A`: the high 16 bits of `LG2_LOG[j]` as an integer (scaled by 2^-16 in the sequence).
pub const fn lg2_log_hi(x: u32) -> u32 {
    LG2_LOG[lg2_index(x).0] >> 16
}

/// `LG2B`: the low 16 bits of `LG2_LOG[j]` as an integer (scaled by 2^-32 in the sequence).
pub const fn lg2_log_lo(x: u32) -> u32 {
    LG2_LOG[lg2_index(x).0] & 0xFFFF
}

/// `LG2F`: the final step of `LG2`: NaN -> NaN, zero (or subnormal) -> -inf, negative -> NaN,
/// +inf -> +inf, otherwise `y`.
pub const fn lg2_finish(x: u32, y: u32) -> u32 {
    if is_nan(x) {
        CANONICAL_NAN
    } else if exp_field(x) == 0 {
        NEG_INF
    } else if x & SIGN_BIT != 0 {
        CANONICAL_NAN
    } else if exp_field(x) == 255 {
        POS_INF
    } else {
        y
    }
}

/// `SCQ`: the quadrant select of `SIN`/`COS` by `k & 3`: `s`, `c`, `-s`, `-c` (sign flips of the
/// bits). `COS` uses it with `(c, -s)` in place of `(s, c)`, which selects for `k + 1`.
pub const fn sincos_pick(k: u32, s: u32, c: u32) -> u32 {
    match k & 3 {
        0 => s,
        1 => c,
        2 => s ^ SIGN_BIT,
        _ => c ^ SIGN_BIT,
    }
}

/// `SCF`: the final step of `SIN`/`COS`: NaN or infinite `x` -> NaN, otherwise `u`.
pub const fn sincos_finish(x: u32, u: u32) -> u32 {
    if exp_field(x) == 255 {
        CANONICAL_NAN
    } else {
        u
    }
}

//! Conversions between floats and integers, and the exponent/significand helpers of `LOG` and
//! `EXP`.
//!
//! Hardware (the convert part of the misc unit):
//! - float -> int: [`fround_integral`] in the wanted mode, then a 32-bit barrel shifter placing the
//!   24-bit significand, a saturation check (`E >= 31`) and a negation (32-bit incrementer);
//!   about 150 LUT4s, 2 clocks. NaN gives 0, magnitudes beyond int32 saturate.
//! - int -> float: absolute value, leading-zero count, 32-bit normalising shifter, then the shared
//!   [`round_pack`] with bits 7 (guard) and 6..0 (sticky); about 170 LUT4s, 2 clocks. Nearest even.
//! - [`fldexp`]: a 10-bit exponent adder feeding [`round_pack`] (exact unless the result leaves
//!   the normal range; then the result is rounded on the subnormal grid and flushed, or overflows).

use super::bits::{
    exp_field, flush, frac_field, is_inf, is_nan, unpack, Class, CANONICAL_NAN, NEG_INF, ONE,
    POS_INF, SIGN_BIT,
};
use super::integral::{fround_integral, IntegralMode};
use super::round::round_pack;

/// Converts an integral float (output of [`fround_integral`]) to int32: NaN -> 0, saturating.
const fn integral_to_i32(v: u32) -> i32 {
    if is_nan(v) {
        return 0;
    }
    let u = unpack(v);
    let mag: u32 = match u.class {
        Class::Zero | Class::Nan => return 0,
        Class::Inf => return if u.sign { i32::MIN } else { i32::MAX },
        Class::Normal => {
            let e = u.exp - 127;
            if e >= 31 {
                return if u.sign { i32::MIN } else { i32::MAX };
            }
            if e < 0 {
                return 0;
            }
            if e >= 23 {
                u.sig << (e - 23)
            } else {
                u.sig >> (23 - e)
            }
        }
    };
    if u.sign {
        (mag as i32).wrapping_neg()
    } else {
        mag as i32
    }
}

/// `floor(x)` as int32 (`ARL`, texture indices): NaN -> 0, saturating at `i32::MIN`/`i32::MAX`.
#[inline]
pub const fn f2i_floor(x: u32) -> i32 {
    integral_to_i32(fround_integral(x, IntegralMode::Floor))
}

/// `x` rounded to nearest even as int32 (`ARR`): NaN -> 0, saturating.
#[inline]
pub const fn f2i_round(x: u32) -> i32 {
    integral_to_i32(fround_integral(x, IntegralMode::NearestEven))
}

/// `x` truncated toward zero as int32: NaN -> 0, saturating.
pub const fn f2i_trunc(x: u32) -> i32 {
    integral_to_i32(fround_integral(x, IntegralMode::Trunc))
}

/// Normalises a non-zero 32-bit magnitude and rounds it to binary32 (never subnormal, never
/// overflows).
const fn magnitude_to_f32(sign: bool, mag: u32) -> u32 {
    if mag == 0 {
        return 0;
    }
    let lz = mag.leading_zeros();
    let n = mag << lz; // leading one at bit 31
    let e = 127 + 31 - lz as i32;
    round_pack(sign, e, n >> 8, n & 0x80 != 0, n & 0x7F != 0)
}

/// `I2F`: int32 -> binary32, nearest even (0 gives +0).
#[inline]
pub const fn i2f(i: i32) -> u32 {
    magnitude_to_f32(i < 0, i.unsigned_abs())
}

/// uint32 -> binary32, nearest even.
#[inline]
pub const fn u2f(u: u32) -> u32 {
    magnitude_to_f32(false, u)
}

/// `ISGN`: the sign of an int32 as binary32 -1.0, 0.0 or 1.0: the class of [`i2f`]'s result
/// (what a comparison with zero sees) without its converter.
pub const fn isgn(i: i32) -> u32 {
    match i {
        0 => 0,
        i if i < 0 => 0xBF80_0000,
        _ => 0x3F80_0000,
    }
}

/// `USGN`: 1.0 for a nonzero uint32, 0.0 for zero (the class of [`u2f`]'s result).
pub const fn usgn(u: u32) -> u32 {
    if u == 0 {
        0
    } else {
        0x3F80_0000
    }
}

/// `x * 2^n`, rounded on the binary32 grid with the usual flush and overflow (NaN -> canonical,
/// zeros and infinities unchanged, subnormal inputs count as zero).
#[inline]
pub const fn fldexp(x: u32, n: i32) -> u32 {
    // A normal number whose scaled exponent stays normal: only the exponent field changes (no
    // rounding, no flush), what the general path below packs. EX2's last step ends here.
    let e = ((x >> 23) & 0xFF) as i32;
    if e != 0 && e != 0xFF && n > -300 && n < 300 {
        let scaled = e + n;
        if scaled >= 1 && scaled <= 254 {
            return (x & !(0xFF << 23)) | ((scaled as u32) << 23);
        }
    }
    fldexp_packed(x, n)
}

/// [`fldexp`] through the unpack / round-and-pack path (the reference for its fast path).
const fn fldexp_packed(x: u32, n: i32) -> u32 {
    let u = unpack(x);
    match u.class {
        Class::Nan => CANONICAL_NAN,
        Class::Zero | Class::Inf => flush(x),
        Class::Normal => {
            // Clamping n keeps the 10-bit exponent adder of the hardware meaningful: anything
            // beyond +-300 overflows or flushes the same way.
            let n = if n > 300 {
                300
            } else if n < -300 {
                -300
            } else {
                n
            };
            round_pack(u.sign, u.exp + n, u.sig, false, false)
        }
    }
}

/// `EXP.x`: `2^floor(x)`, then the flush rule (NaN -> NaN, -inf -> +0, +inf -> +inf).
pub const fn fexp2_floor(x: u32) -> u32 {
    if is_nan(x) {
        return CANONICAL_NAN;
    }
    if x == NEG_INF {
        return 0;
    }
    if x == POS_INF {
        return POS_INF;
    }
    fldexp(ONE, f2i_floor(x))
}

/// `LOG.x`: the unbiased exponent of `|x|` as a float (exact). Zero (and subnormals) give -inf,
/// infinity gives +inf, NaN gives NaN.
pub const fn fexp_part(x: u32) -> u32 {
    let x = flush(x) & !SIGN_BIT;
    if is_nan(x) {
        CANONICAL_NAN
    } else if x == 0 {
        NEG_INF
    } else if is_inf(x) {
        POS_INF
    } else {
        i2f(exp_field(x) as i32 - 127)
    }
}

/// `LOG.y`: the significand of `|x|` in `[1, 2)` (exact). Zero, infinity and NaN give NaN.
pub const fn fmant_part(x: u32) -> u32 {
    let x = flush(x) & !SIGN_BIT;
    if is_nan(x) || is_inf(x) || x == 0 {
        CANONICAL_NAN
    } else {
        ONE | frac_field(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exponent-only fast path of `fldexp` equals the round-and-pack path on random
    /// operands and scales, the edges of the normal range included.
    #[test]
    fn fldexp_fast_path_equals_packed_path() {
        let mut rng = crate::rng::XorShift::new(0x5EED_1DE5);
        for k in 0..400_000u32 {
            let x = rng.next_u64() as u32;
            let n = match k % 4 {
                0 => (rng.next_u64() % 601) as i32 - 300,
                1 => (rng.next_u64() % 41) as i32 - 20,
                // Scales that land on or just beyond the ends of the normal exponents.
                2 => 254 - ((x >> 23) & 0xFF) as i32 + (k / 4 % 3) as i32 - 1,
                _ => 1 - ((x >> 23) & 0xFF) as i32 + (k / 4 % 3) as i32 - 1,
            };
            assert_eq!(fldexp(x, n), fldexp_packed(x, n), "{x:#x} * 2^{n}");
        }
    }

    #[test]
    fn conversions() {
        assert_eq!(f2i_floor(0xBFC0_0000), -2);
        assert_eq!(f2i_round(0x4020_0000), 2);
        assert_eq!(f2i_round(0x7FC0_0000), 0);
        assert_eq!(f2i_floor(0x4F00_0000), i32::MAX); // 2^31
        assert_eq!(f2i_floor(0xCF00_0000), i32::MIN); // -2^31
        assert_eq!(f2i_trunc(0xFF80_0000), i32::MIN);
        assert_eq!(i2f(i32::MIN), 0xCF00_0000);
        assert_eq!(i2f(16_777_217), 0x4B80_0000); // 2^24 + 1 ties to even
        assert_eq!(u2f(u32::MAX), 0x4F80_0000);
        assert_eq!(fldexp(ONE, -126), 0x0080_0000);
        assert_eq!(fldexp(ONE, -127), 0);
        assert_eq!(fldexp(ONE, 128), POS_INF);
        assert_eq!(fexp2_floor(0xC2FD_0000), 0); // floor(-126.5) = -127 -> flushed
        assert_eq!(fexp_part(0xC100_0000), 0x4040_0000); // |-8| -> 3
        assert_eq!(fmant_part(0xC140_0000), 0x3FC0_0000); // 12 -> 1.5
    }
}

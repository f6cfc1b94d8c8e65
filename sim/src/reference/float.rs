//! Binary32 arithmetic under the project's rules (`decisions.md` section 2).
//!
//! Every float operation reads its operands with subnormals taken as zero of the same sign, rounds
//! its result to nearest-even on the full IEEE grid (the host does this), then flushes a subnormal
//! result to zero of the same sign and replaces any NaN with [`CANONICAL_NAN`]. Functions take and
//! return bit patterns so that callers cannot skip these steps. The approximated operations (RSQ,
//! EX2, LG2, SIN, COS, POW) are evaluated in binary64 and rounded once to binary32: the reference
//! is the exact value rounded.

/// The only NaN a float operation produces.
pub const CANONICAL_NAN: u32 = 0x7FC0_0000;
/// 1.0 as binary32 bits.
pub const ONE: u32 = 0x3F80_0000;
/// +0.0 as binary32 bits.
pub const ZERO: u32 = 0;

/// True for a subnormal (non-zero with a zero exponent field).
pub fn is_subnormal(bits: u32) -> bool {
    bits & 0x7F80_0000 == 0 && bits & 0x007F_FFFF != 0
}

/// Reads an operand: a subnormal counts as zero with its sign.
#[inline(always)]
pub fn input(bits: u32) -> f32 {
    f32::from_bits(flush(bits))
}

/// Writes a result: NaN becomes canonical, a subnormal becomes zero with its sign.
#[inline(always)]
pub fn output(v: f32) -> u32 {
    if v.is_nan() {
        CANONICAL_NAN
    } else {
        flush(v.to_bits())
    }
}

/// Rounds a binary64 value once to binary32, then applies [`output`].
pub fn output64(v: f64) -> u32 {
    output(v as f32)
}

/// Subnormal bits become zero with their sign; everything else (NaN payloads included) is kept.
/// This is what a select returns for its chosen operand. (A zero exponent field keeps only the
/// sign: the subnormals, and the zeros, which are their own sign. No branch, so that loops over
/// lanes vectorise.)
#[inline(always)]
pub fn flush(bits: u32) -> u32 {
    if bits & 0x7F80_0000 == 0 {
        bits & 0x8000_0000
    } else {
        bits
    }
}

/// `a + b`
#[inline]
pub fn add(a: u32, b: u32) -> u32 {
    output(input(a) + input(b))
}

/// `a - b`
#[inline]
pub fn sub(a: u32, b: u32) -> u32 {
    output(input(a) - input(b))
}

/// `a * b`
#[inline]
pub fn mul(a: u32, b: u32) -> u32 {
    output(input(a) * input(b))
}

/// `a / b`, correctly rounded.
#[inline]
pub fn div(a: u32, b: u32) -> u32 {
    output(input(a) / input(b))
}

/// `round(round(a * b) + c)`
#[inline]
pub fn mad(a: u32, b: u32, c: u32) -> u32 {
    add(mul(a, b), c)
}

/// Float comparison `a < b` (subnormals as zero; false with a NaN).
#[inline]
pub fn lt(a: u32, b: u32) -> bool {
    input(a) < input(b)
}

/// Float comparison `a > b`.
#[inline]
pub fn gt(a: u32, b: u32) -> bool {
    input(a) > input(b)
}

/// Float comparison `a <= b`.
#[inline]
pub fn le(a: u32, b: u32) -> bool {
    input(a) <= input(b)
}

/// Float comparison `a >= b`.
#[inline]
pub fn ge(a: u32, b: u32) -> bool {
    input(a) >= input(b)
}

/// Float comparison `a == b` (+0 == -0; NaN never equal).
#[inline]
pub fn eq(a: u32, b: u32) -> bool {
    input(a) == input(b)
}

/// 1.0 or 0.0.
#[inline]
pub fn bool_bits(b: bool) -> u32 {
    if b {
        ONE
    } else {
        ZERO
    }
}

/// `a < b ? a : b`, chosen bits kept (subnormal flushed).
#[inline]
pub fn min(a: u32, b: u32) -> u32 {
    flush(if lt(a, b) { a } else { b })
}

/// `a > b ? a : b`, chosen bits kept (subnormal flushed).
#[inline]
pub fn max(a: u32, b: u32) -> u32 {
    flush(if gt(a, b) { a } else { b })
}

/// Applies a rounding function to the flushed operand, keeping the sign of a zero result.
fn round_with(a: u32, f: fn(f32) -> f32) -> u32 {
    let x = input(a);
    output(f(x))
}

/// IEEE roundToIntegral toward -inf.
pub fn floor(a: u32) -> u32 {
    round_with(a, f32::floor)
}

/// IEEE roundToIntegral toward +inf.
pub fn ceil(a: u32) -> u32 {
    round_with(a, f32::ceil)
}

/// IEEE roundToIntegral toward zero.
pub fn trunc(a: u32) -> u32 {
    round_with(a, f32::trunc)
}

/// IEEE roundToIntegral, ties to even.
pub fn round_even(a: u32) -> u32 {
    round_with(a, f32::round_ties_even)
}

/// `x - floor(x)`, one rounding.
pub fn frc(a: u32) -> u32 {
    sub(a, floor(a))
}

/// Converts to int32 the way the ADDRESS file does: NaN -> 0, saturating at the int32 limits.
pub fn to_i32_saturating(v: f32) -> i32 {
    // Rust's `as` saturates and maps NaN to 0, which is exactly the rule.
    v as i32
}

/// Truncation to uint32 (F2U): NaN, negative values and subnormals give 0, 2^32 and above (+inf
/// included) give 0xFFFFFFFF: the saturating rule of the ADDRESS file, at the uint32 limits.
pub fn trunc_to_u32(a: u32) -> u32 {
    // Rust's `as` truncates toward zero, saturates and maps NaN to 0, which is exactly the rule.
    input(a) as u32
}

/// `floor` to int32 (ARL).
pub fn floor_to_i32(a: u32) -> i32 {
    to_i32_saturating(input(a).floor())
}

/// Round half to even to int32 (ARR).
pub fn round_to_i32(a: u32) -> i32 {
    to_i32_saturating(input(a).round_ties_even())
}

/// `1 / sqrt(|x|)`: RSQ(+-0) = +inf, RSQ(inf) = 0.
pub fn rsq(a: u32) -> u32 {
    let x = f64::from(input(a).abs());
    output64(1.0 / x.sqrt())
}

/// `2^x`: EX2(-inf) = 0, EX2(inf) = inf.
pub fn ex2(a: u32) -> u32 {
    output64(f64::from(input(a)).exp2())
}

/// `log2(x)` in binary64 with the special operands of section 2 (log2(+-0) = -inf, x < 0 -> NaN).
pub fn lg2_f64(a: u32) -> f64 {
    let x = f64::from(input(a));
    if x == 0.0 {
        f64::NEG_INFINITY
    } else {
        x.log2()
    }
}

/// `log2(x)`: LG2(+-0) = -inf, LG2(x < 0) = NaN, LG2(inf) = inf.
pub fn lg2(a: u32) -> u32 {
    output64(lg2_f64(a))
}

/// `sin(x)`; SIN(inf) = NaN.
pub fn sin(a: u32) -> u32 {
    output64(f64::from(input(a)).sin())
}

/// `cos(x)`; COS(inf) = NaN.
pub fn cos(a: u32) -> u32 {
    output64(f64::from(input(a)).cos())
}

/// `EX2(y * LG2(x))` evaluated in binary64 and rounded once (so POW(0, 0) = NaN, POW(x < 0, y) =
/// NaN, POW(x, 0) = 1 for finite x > 0).
pub fn pow(x: u32, y: u32) -> u32 {
    let t = f64::from(input(y)) * lg2_f64(x);
    output64(t.exp2())
}

/// Binary32 `1/x` clamped in magnitude to [2^-64, 2^64], sign kept (RCC).
pub fn rcc(a: u32) -> u32 {
    let r = input(div(ONE, a));
    if r.is_nan() {
        return CANONICAL_NAN;
    }
    let lo = f32::from_bits(0x1F80_0000); // 2^-64
    let hi = f32::from_bits(0x5F80_0000); // 2^64
    let m = r.abs().clamp(lo, hi);
    output(if r.is_sign_negative() { -m } else { m })
}

/// Saturate to [lo, hi] where NaN, subnormals and -0 become +0.
pub fn saturate(a: u32, lo: f32) -> u32 {
    let x = input(a);
    if x.is_nan() || x == 0.0 {
        return ZERO;
    }
    x.clamp(lo, 1.0).to_bits()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flush_and_canonical_nan() {
        assert_eq!(add(0x0000_0001, 0), 0); // subnormal input is +0
        assert_eq!(add(0x8000_0001, 0x8000_0000), 0x8000_0000); // -0 + -0
                                                                // 2^-126 * 0.5 is subnormal: flushed with its sign.
        assert_eq!(mul(0x0080_0000, 0x3F00_0000), 0);
        assert_eq!(mul(0x8080_0000, 0x3F00_0000), 0x8000_0000);
        assert_eq!(sub(0x7F80_0000, 0x7F80_0000), CANONICAL_NAN);
        assert_eq!(add(0x7F80_0001, ONE), CANONICAL_NAN);
    }

    #[test]
    fn selects_keep_bits() {
        assert_eq!(min(0xFFC0_0001, ONE), ONE); // NaN compare false -> second
        assert_eq!(max(ONE, 0xFFC0_0001), 0xFFC0_0001); // the select returns src1 bits
        assert_eq!(max(0xFFC0_0001, ONE), ONE);
        assert_eq!(min(0x8000_0001, ONE), 0x8000_0000);
    }

    #[test]
    fn rounding_functions_keep_zero_sign() {
        assert_eq!(floor((-0.5f32).to_bits()), (-1.0f32).to_bits());
        assert_eq!(ceil((-0.5f32).to_bits()), 0x8000_0000);
        assert_eq!(trunc((-0.7f32).to_bits()), 0x8000_0000);
        assert_eq!(round_even(2.5f32.to_bits()), 2.0f32.to_bits());
        assert_eq!(round_even(3.5f32.to_bits()), 4.0f32.to_bits());
        assert_eq!(round_to_i32(f32::NAN.to_bits()), 0);
        assert_eq!(floor_to_i32(3e9f32.to_bits()), i32::MAX);
        assert_eq!(floor_to_i32((-1.5f32).to_bits()), -2);
    }

    #[test]
    fn approximated_specials() {
        assert_eq!(rsq(0), 0x7F80_0000);
        assert_eq!(rsq(0x8000_0000), 0x7F80_0000);
        assert_eq!(rsq(0x7F80_0000), 0);
        assert_eq!(ex2(0xFF80_0000), 0);
        assert_eq!(lg2(0x8000_0000), 0xFF80_0000);
        assert_eq!(lg2((-1.0f32).to_bits()), CANONICAL_NAN);
        assert_eq!(lg2(ONE), 0);
        assert_eq!(sin(0x7F80_0000), CANONICAL_NAN);
        assert_eq!(pow(0, 0), CANONICAL_NAN);
        assert_eq!(pow(3.0f32.to_bits(), 0), ONE);
        assert_eq!(
            pow(2.0f32.to_bits(), 10.0f32.to_bits()),
            1024.0f32.to_bits()
        );
    }

    #[test]
    fn rcc_clamps() {
        assert_eq!(rcc(0), 0x5F80_0000);
        assert_eq!(rcc(0x8000_0000), 0xDF80_0000);
        assert_eq!(rcc(0x7F80_0000), 0x1F80_0000);
        assert_eq!(rcc(2.0f32.to_bits()), 0.5f32.to_bits());
        assert_eq!(rcc(CANONICAL_NAN), CANONICAL_NAN);
    }

    #[test]
    fn saturate_rules() {
        assert_eq!(saturate(0x8000_0000, 0.0), 0);
        assert_eq!(saturate(CANONICAL_NAN, 0.0), 0);
        assert_eq!(saturate(0x8000_0001, -1.0), 0);
        assert_eq!(saturate(2.0f32.to_bits(), 0.0), ONE);
        assert_eq!(saturate((-2.0f32).to_bits(), -1.0), (-1.0f32).to_bits());
    }
}

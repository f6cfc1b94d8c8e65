//! The binary32 rules of decisions.md section 2, as used by the texture unit.
//!
//! Every operation reads subnormal operands as zero (keeping their sign), rounds once to
//! nearest-even (the host's IEEE arithmetic does exactly that, on the subnormal grid), then flushes
//! a subnormal result to zero with its sign and replaces any NaN by the canonical 0x7FC00000.
//! Sampling uses only these helpers, which call the core's bit-level algorithms
//! ([`microcode::arith`]), so a hardware texture unit built from the same units matches the model
//! bit for bit.

use microcode::arith;

/// The only NaN a float operation produces.
pub const CANONICAL_NAN: u32 = 0x7FC0_0000;

const SIGN: u32 = 0x8000_0000;
const EXPONENT: u32 = 0x7F80_0000;

/// Reads a register value as a float operand: a subnormal counts as zero with its sign.
pub fn operand(bits: u32) -> f32 {
    if bits & EXPONENT == 0 {
        f32::from_bits(bits & SIGN)
    } else {
        f32::from_bits(bits)
    }
}

/// Applies the result rules to a value computed outside these helpers.
fn result(value: f32) -> f32 {
    if value.is_nan() {
        f32::from_bits(CANONICAL_NAN)
    } else if value.is_subnormal() {
        f32::from_bits(value.to_bits() & SIGN)
    } else {
        value
    }
}

/// The bits a float result is stored as.
pub fn bits(value: f32) -> u32 {
    result(value).to_bits()
}

/// `a + b`, one rounding.
pub fn add(a: f32, b: f32) -> f32 {
    f32::from_bits(arith::fadd(a.to_bits(), b.to_bits()))
}

/// `a - b`, one rounding.
pub fn sub(a: f32, b: f32) -> f32 {
    f32::from_bits(arith::fsub(a.to_bits(), b.to_bits()))
}

/// `a * b`, one rounding.
pub fn mul(a: f32, b: f32) -> f32 {
    f32::from_bits(arith::fmul(a.to_bits(), b.to_bits()))
}

/// `a / b`, correctly rounded.
pub fn div(a: f32, b: f32) -> f32 {
    f32::from_bits(arith::fdiv(a.to_bits(), b.to_bits()))
}

/// IEEE roundToIntegral toward negative infinity (keeps the sign of a zero).
pub fn floor(a: f32) -> f32 {
    f32::from_bits(arith::ffloor(a.to_bits()))
}

/// Absolute value as a move: clears the sign bit (a subnormal becomes +0).
pub fn abs(a: f32) -> f32 {
    f32::from_bits(operand(a.to_bits()).to_bits() & !SIGN)
}

/// Float comparison `a <= b` (false when either is NaN).
pub fn le(a: f32, b: f32) -> bool {
    arith::fle(a.to_bits(), b.to_bits())
}

/// Float comparison `a >= b` (false when either is NaN).
pub fn ge(a: f32, b: f32) -> bool {
    arith::fge(a.to_bits(), b.to_bits())
}

/// Float comparison `a < b` (false when either is NaN).
pub fn lt(a: f32, b: f32) -> bool {
    arith::flt(a.to_bits(), b.to_bits())
}

/// `floor(a)` as int32, as ARL stores it: NaN gives 0, values beyond int32 saturate.
pub fn floor_to_int(a: f32) -> i32 {
    arith::f2i_floor(a.to_bits())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subnormal_operands_count_as_signed_zero() {
        let tiny = f32::from_bits(0x0000_0001);
        assert_eq!(add(tiny, 0.0).to_bits(), 0);
        assert_eq!(mul(f32::from_bits(0x8000_0010), 1.0).to_bits(), SIGN);
    }

    #[test]
    fn subnormal_results_flush_and_nans_are_canonical() {
        // 2^-126 * 0.5 is subnormal.
        let min = f32::from_bits(0x0080_0000);
        assert_eq!(mul(min, 0.5).to_bits(), 0);
        assert_eq!(mul(-min, 0.5).to_bits(), SIGN);
        assert_eq!(sub(f32::INFINITY, f32::INFINITY).to_bits(), CANONICAL_NAN);
        assert_eq!(
            add(f32::from_bits(0xFFC0_1234), 1.0).to_bits(),
            CANONICAL_NAN
        );
    }

    #[test]
    fn conversion_saturates_like_arl() {
        assert_eq!(floor_to_int(f32::NAN), 0);
        assert_eq!(floor_to_int(3.0e10), i32::MAX);
        assert_eq!(floor_to_int(-3.0e10), i32::MIN);
        assert_eq!(floor_to_int(-2.0), -2);
        assert_eq!(floor_to_int(-1.5), -2);
        assert_eq!(floor_to_int(f32::INFINITY), i32::MAX);
        assert_eq!(floor(-0.0).to_bits(), SIGN);
        assert_eq!(floor(-0.25), -1.0);
    }
}

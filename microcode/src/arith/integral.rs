//! Rounding to an integral value: `FLR`, `CEIL`, `TRUNC`, `ROUND` and `FRC`.
//!
//! Algorithm (one unit with a mode input, in the misc unit): with the unbiased
//! exponent `E`,
//! - `E >= 23`: the value is already integral (returned as is, NaN made canonical);
//! - `E < 0` (`|x| < 1`): the result is a signed zero or +-1.0, chosen by the mode, the sign and,
//!   for nearest-even, whether `|x| > 0.5`;
//! - otherwise the fraction mask is `(1 << (23 - E)) - 1`: the fraction bits are cleared, and when
//!   the mode asks for rounding away from zero one unit `1 << (23 - E)` is added to the magnitude
//!   bits. The carry of that 31-bit addition runs into the exponent field when the significand
//!   overflows, which is exactly the next binade (e.g. `1.75 -> 2.0`).
//!
//! Hardware: a mask decoder from the exponent, a 31-bit incrementer and the decision logic:
//! about 90 LUT4s, one or two clocks. Results are exact (the sign of a zero result is kept).

use super::bits::{exp_field, flush, is_nan, CANONICAL_NAN, ONE, SIGN_BIT};
use super::fadd::fsub;

/// How [`fround_integral`] rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntegralMode {
    /// Toward -infinity (`FLR`).
    Floor,
    /// Toward +infinity (`CEIL`).
    Ceil,
    /// Toward zero (`TRUNC`).
    Trunc,
    /// To nearest, half to even (`ROUND`).
    NearestEven,
}

/// Rounds `x` to an integral binary32 value in the given mode (IEEE roundToIntegral; the sign of a
/// zero result is kept; subnormal inputs count as signed zero; NaN gives the canonical NaN).
pub const fn fround_integral(x: u32, mode: IntegralMode) -> u32 {
    if is_nan(x) {
        return CANONICAL_NAN;
    }
    let x = flush(x);
    let neg = x & SIGN_BIT != 0;
    let sign = x & SIGN_BIT;
    let e = exp_field(x) as i32 - 127;
    if e >= 23 || x & !SIGN_BIT == 0 {
        return x;
    }
    if e < 0 {
        let up = match mode {
            IntegralMode::Floor => neg,
            IntegralMode::Ceil => !neg,
            IntegralMode::Trunc => false,
            IntegralMode::NearestEven => x & !SIGN_BIT > 0x3F00_0000, // |x| > 0.5
        };
        return if up { sign | ONE } else { sign };
    }
    let unit = 1u32 << (23 - e);
    let mask = unit - 1;
    let frac = x & mask;
    let trunc = x & !mask;
    if frac == 0 {
        return x;
    }
    let up = match mode {
        IntegralMode::Floor => neg,
        IntegralMode::Ceil => !neg,
        IntegralMode::Trunc => false,
        IntegralMode::NearestEven => {
            let half = unit >> 1;
            frac > half || (frac == half && x & unit != 0)
        }
    };
    if up {
        trunc + unit
    } else {
        trunc
    }
}

/// `FLR`: round toward -infinity.
pub const fn ffloor(x: u32) -> u32 {
    fround_integral(x, IntegralMode::Floor)
}

/// `CEIL`: round toward +infinity.
pub const fn fceil(x: u32) -> u32 {
    fround_integral(x, IntegralMode::Ceil)
}

/// `TRUNC`: round toward zero.
pub const fn ftrunc(x: u32) -> u32 {
    fround_integral(x, IntegralMode::Trunc)
}

/// `ROUND`: round to nearest, half to even.
pub const fn fround(x: u32) -> u32 {
    fround_integral(x, IntegralMode::NearestEven)
}

/// `FRC` and `EXP.y`: `x - floor(x)` with one rounding (the subtraction; the floor is exact).
/// Small negative `x` give results that round to 1.0; infinities give NaN.
pub fn ffrac(x: u32) -> u32 {
    fsub(x, ffloor(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes() {
        let m = 0xBFC0_0000; // -1.5
        assert_eq!(ffloor(m), 0xC000_0000);
        assert_eq!(fceil(m), 0xBF80_0000);
        assert_eq!(ftrunc(m), 0xBF80_0000);
        assert_eq!(fround(m), 0xC000_0000);
        assert_eq!(fround(0x4020_0000), 0x4000_0000); // 2.5 -> 2
        assert_eq!(fround(0x3F00_0000), 0); // 0.5 -> 0
        assert_eq!(fceil(0xBF00_0000), 0x8000_0000); // ceil(-0.5) = -0
        assert_eq!(ffloor(0x3FE0_0000), 0x3F80_0000); // floor(1.75) = 1
        assert_eq!(fceil(0x3FE0_0000), 0x4000_0000); // ceil(1.75) = 2
        assert_eq!(ffrac(0xBF40_0000), 0x3E80_0000); // frac(-0.75) = 0.25
    }
}

//! The compare/select unit: comparisons, `MIN`/`MAX` selects and saturation.
//!
//! Algorithm: flush both operands (subnormals become signed zeros); a NaN makes the pair
//! unordered; two zeros are equal whatever their signs; otherwise the ordering is that of the
//! sign-magnitude bit patterns (a 31-bit magnitude comparator plus sign logic, about 40 LUT4s,
//! one clock). Selects return the chosen operand's bits unchanged except that a chosen subnormal
//! becomes a zero of its sign (decisions.md section 2, "moves keep bits").

use super::bits::{flush, is_nan, CANONICAL_NAN, ONE, SIGN_BIT};

/// The outcome of a float comparison; also the value of a condition-code component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FCmp {
    /// `a < b`.
    Lt,
    /// `a == b` (including `-0 == +0`).
    Eq,
    /// `a > b`.
    Gt,
    /// At least one operand is NaN.
    Unordered,
}

/// Compares two floats as float operations (subnormals as zero, NaN unordered).
#[inline]
pub const fn fcmp(a: u32, b: u32) -> FCmp {
    if is_nan(a) || is_nan(b) {
        return FCmp::Unordered;
    }
    let (a, b) = (flush(a), flush(b));
    let (ma, mb) = (a & !SIGN_BIT, b & !SIGN_BIT);
    if ma == 0 && mb == 0 {
        return FCmp::Eq;
    }
    let (sa, sb) = (a & SIGN_BIT != 0, b & SIGN_BIT != 0);
    let a_less = match (sa, sb) {
        (false, true) => false,
        (true, false) => true,
        (false, false) => ma < mb,
        (true, true) => ma > mb,
    };
    if a == b {
        FCmp::Eq
    } else if a_less {
        FCmp::Lt
    } else {
        FCmp::Gt
    }
}

/// `a < b` (false when unordered).
#[inline]
pub const fn flt(a: u32, b: u32) -> bool {
    matches!(fcmp(a, b), FCmp::Lt)
}

/// `a <= b` (false when unordered).
#[inline]
pub const fn fle(a: u32, b: u32) -> bool {
    matches!(fcmp(a, b), FCmp::Lt | FCmp::Eq)
}

/// `a > b` (false when unordered).
#[inline]
pub const fn fgt(a: u32, b: u32) -> bool {
    matches!(fcmp(a, b), FCmp::Gt)
}

/// `a >= b` (false when unordered).
#[inline]
pub const fn fge(a: u32, b: u32) -> bool {
    matches!(fcmp(a, b), FCmp::Gt | FCmp::Eq)
}

/// `a == b` (false when unordered; `-0 == +0`; subnormals equal zero).
#[inline]
pub const fn feq(a: u32, b: u32) -> bool {
    matches!(fcmp(a, b), FCmp::Eq)
}

/// `a != b` (true when unordered).
#[inline]
pub const fn fne(a: u32, b: u32) -> bool {
    !feq(a, b)
}

/// `MIN`: `a < b ? a : b`, returning the chosen operand's bits (a chosen subnormal becomes a
/// signed zero). With a NaN the comparison is false, so `b` is returned: `fmin(NaN, b) = b`,
/// `fmin(a, NaN) = NaN` (its bits kept). `fmin(-0, +0) = +0`, `fmin(+0, -0) = -0`.
#[inline]
pub const fn fmin(a: u32, b: u32) -> u32 {
    flush(if flt(a, b) { a } else { b })
}

/// `MAX`: `a > b ? a : b`, with the same conventions as [`fmin`] (`fmax(NaN, b) = b`).
#[inline]
pub const fn fmax(a: u32, b: u32) -> u32 {
    flush(if fgt(a, b) { a } else { b })
}

/// `_SAT`: clamp to `[0, 1]`; NaN, subnormals and -0 give +0.
#[inline]
pub const fn fsat01(x: u32) -> u32 {
    if is_nan(x) || fle(x, 0) {
        0
    } else if fge(x, ONE) {
        ONE
    } else {
        x
    }
}

/// `_SATNV`: clamp to `[-1, 1]`; NaN, subnormals and -0 give +0.
#[inline]
pub const fn fsat11(x: u32) -> u32 {
    if is_nan(x) || feq(x, 0) {
        0
    } else if fle(x, ONE | SIGN_BIT) {
        ONE | SIGN_BIT
    } else if fge(x, ONE) {
        ONE
    } else {
        x
    }
}

/// Replaces any NaN by the canonical NaN (the output rule of arithmetic results).
#[inline]
pub const fn canonical(x: u32) -> u32 {
    if is_nan(x) {
        CANONICAL_NAN
    } else {
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orderings() {
        assert_eq!(fcmp(0x8000_0000, 0), FCmp::Eq);
        assert_eq!(fcmp(0x0000_0001, 0x8000_0000), FCmp::Eq);
        assert_eq!(fcmp(0xBF80_0000, 0x3F80_0000), FCmp::Lt);
        assert_eq!(fcmp(0xC000_0000, 0xBF80_0000), FCmp::Lt);
        assert_eq!(fcmp(0x7FC0_0000, 0x7FC0_0000), FCmp::Unordered);
        assert!(fne(0x7FC0_0000, 0x7FC0_0000));
    }

    #[test]
    fn selects_and_saturate() {
        assert_eq!(fmin(0x7FC0_0001, ONE), ONE);
        assert_eq!(fmin(ONE, 0x7FC0_0001), 0x7FC0_0001);
        assert_eq!(fmax(0x8000_0001, 0x8000_0002), 0x8000_0000);
        assert_eq!(fsat01(0x8000_0000), 0);
        assert_eq!(fsat01(0x4000_0000), ONE);
        assert_eq!(fsat11(0xC000_0000), 0xBF80_0000);
        assert_eq!(fsat11(0xFFC0_0000), 0);
        assert_eq!(fsat11(0x3F00_0000), 0x3F00_0000);
    }
}

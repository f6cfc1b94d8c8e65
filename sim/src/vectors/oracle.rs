//! Independent expectations: host `f64` arithmetic rounded once to binary32 plus the number rules of
//! `decisions.md` section 2 (subnormal operands count as signed zero, subnormal results flush, NaN
//! results are canonical). Nothing here calls a model.
//!
//! Rounding an `f64` result of one `+ - * / sqrt` on binary32 operands to binary32 gives the correctly
//! rounded binary32 result (53 >= 2*24 + 2), so one rounding per operation is exact.

/// The canonical binary32 NaN every float operation returns.
pub const NAN: u32 = 0x7FC0_0000;
/// The canonical binary64 NaN every double operation returns.
pub const DNAN: u64 = 0x7FF8_0000_0000_0000;

/// Bits of a binary32.
pub fn b(x: f32) -> u32 {
    x.to_bits()
}

/// A binary32 from bits.
pub fn f(bits: u32) -> f32 {
    f32::from_bits(bits)
}

/// True for a binary32 subnormal (not zero).
pub fn is_subnormal(bits: u32) -> bool {
    bits & 0x7F80_0000 == 0 && bits & 0x007F_FFFF != 0
}

/// A float operand as a float operation reads it: a subnormal counts as zero with its sign.
pub fn operand(bits: u32) -> f64 {
    if is_subnormal(bits) {
        if bits & 0x8000_0000 != 0 {
            -0.0
        } else {
            0.0
        }
    } else {
        f64::from(f(bits))
    }
}

/// A float operation's result: rounded once to binary32, a subnormal flushed to zero with its sign,
/// a NaN made canonical.
pub fn result(x: f64) -> u32 {
    if x.is_nan() {
        return NAN;
    }
    // `as f32` rounds to nearest-even on the subnormal grid, as IEEE binary32 does.
    let r = (x as f32).to_bits();
    if is_subnormal(r) {
        r & 0x8000_0000
    } else {
        r
    }
}

/// A one-operand float operation on bits.
pub fn op1(a: u32, g: impl Fn(f64) -> f64) -> u32 {
    result(g(operand(a)))
}

/// A two-operand float operation on bits.
pub fn op2(a: u32, b_: u32, g: impl Fn(f64, f64) -> f64) -> u32 {
    result(g(operand(a), operand(b_)))
}

/// Rounds to binary32 and back: one rounding step inside a longer formula, flush included.
pub fn r(x: f64) -> f64 {
    operand(result(x))
}

/// Distance in units in the last place between two finite binary32 values of any sign; `None` when
/// either is NaN or infinite and the bits differ.
pub fn ulp_distance(a: u32, b_: u32) -> Option<u64> {
    if a == b_ {
        return Some(0);
    }
    let (fa, fb) = (f(a), f(b_));
    if !fa.is_finite() || !fb.is_finite() {
        return None;
    }
    // Map the sign-magnitude encoding onto a monotonic integer line (+0 and -0 both map to 0).
    let key = |x: u32| -> i64 {
        let m = i64::from(x & 0x7FFF_FFFF);
        if x & 0x8000_0000 != 0 {
            -m
        } else {
            m
        }
    };
    Some(key(a).abs_diff(key(b_)))
}

/// A binary64 operation's result: NaN made canonical, subnormals kept.
pub fn dresult(x: f64) -> u64 {
    if x.is_nan() {
        DNAN
    } else {
        x.to_bits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subnormal_results_flush_with_sign() {
        assert_eq!(result(-1e-40), 0x8000_0000);
        assert_eq!(result(1e-40), 0);
        assert_eq!(result(f64::NAN), NAN);
        // 2^-126 is the smallest normal and survives.
        assert_eq!(result(2f64.powi(-126)), 0x0080_0000);
    }

    #[test]
    fn ulp_distance_crosses_zero() {
        assert_eq!(ulp_distance(0x0000_0001, 0x8000_0001), Some(2));
        assert_eq!(ulp_distance(0x3F80_0000, 0x3F80_0002), Some(2));
        assert_eq!(ulp_distance(NAN, 0x3F80_0000), None);
    }
}

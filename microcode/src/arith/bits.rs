//! Field access for binary32 bit patterns and the input rule every float unit applies first.
//!
//! Hardware: the "unpack" stage in front of every float unit. It splits the 32 bits into sign,
//! 8-bit exponent field and 23-bit fraction, classifies the operand (zero, normal, infinity, NaN)
//! and flushes a subnormal to a zero of the same sign (one 8-input NOR on the exponent field).

/// The one NaN every float operation returns (decisions.md section 2).
pub const CANONICAL_NAN: u32 = 0x7FC0_0000;
/// +infinity.
pub const POS_INF: u32 = 0x7F80_0000;
/// -infinity.
pub const NEG_INF: u32 = 0xFF80_0000;
/// The sign bit.
pub const SIGN_BIT: u32 = 0x8000_0000;
/// 1.0.
pub const ONE: u32 = 0x3F80_0000;
/// The smallest normal magnitude, 2^-126.
pub const MIN_NORMAL: u32 = 0x0080_0000;
/// Exponent bias of binary32.
pub const BIAS: i32 = 127;
/// The hidden bit of a 24-bit significand.
pub const HIDDEN: u32 = 0x0080_0000;
/// Mask of the 23 fraction bits.
pub const FRAC_MASK: u32 = 0x007F_FFFF;

/// The sign bit as a bool.
pub const fn sign(x: u32) -> bool {
    x & SIGN_BIT != 0
}

/// The 8-bit biased exponent field.
pub const fn exp_field(x: u32) -> u32 {
    (x >> 23) & 0xFF
}

/// The 23-bit fraction field.
pub const fn frac_field(x: u32) -> u32 {
    x & FRAC_MASK
}

/// True for any NaN pattern (exponent all ones, fraction non-zero).
pub const fn is_nan(x: u32) -> bool {
    x & 0x7FFF_FFFF > POS_INF
}

/// True for +-infinity.
pub const fn is_inf(x: u32) -> bool {
    x & 0x7FFF_FFFF == POS_INF
}

/// True for +-0 and for subnormals (which count as zero on input).
pub const fn is_zero_in(x: u32) -> bool {
    exp_field(x) == 0
}

/// Applies the input rule: a subnormal becomes a zero of the same sign; everything else is kept.
#[inline]
pub const fn flush(x: u32) -> u32 {
    if exp_field(x) == 0 {
        x & SIGN_BIT
    } else {
        x
    }
}

/// Builds the bits of a signed zero.
pub const fn zero(sign: bool) -> u32 {
    if sign {
        SIGN_BIT
    } else {
        0
    }
}

/// Builds the bits of a signed infinity.
pub const fn inf(sign: bool) -> u32 {
    if sign {
        NEG_INF
    } else {
        POS_INF
    }
}

/// The class of an operand after the input rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// +-0, including flushed subnormals.
    Zero,
    /// A normal number.
    Normal,
    /// +-infinity.
    Inf,
    /// Any NaN.
    Nan,
}

/// An unpacked operand: what the unpack stage hands to a datapath.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unpacked {
    /// Sign bit.
    pub sign: bool,
    /// Class after flushing subnormals.
    pub class: Class,
    /// Biased exponent field (1..=254 for normal numbers).
    pub exp: i32,
    /// 24-bit significand with the hidden bit at bit 23 (0 for zero, infinity and NaN).
    pub sig: u32,
}

/// Unpacks one operand (subnormals become zeros of the same sign).
pub const fn unpack(x: u32) -> Unpacked {
    let e = exp_field(x);
    let class = if e == 0 {
        Class::Zero
    } else if e == 0xFF {
        if frac_field(x) == 0 {
            Class::Inf
        } else {
            Class::Nan
        }
    } else {
        Class::Normal
    };
    let sig = match class {
        Class::Normal => frac_field(x) | HIDDEN,
        _ => 0,
    };
    Unpacked {
        sign: sign(x),
        class,
        exp: e as i32,
        sig,
    }
}

/// Packs a normal number from its parts without rounding (the caller guarantees 1 <= exp <= 254
/// and a 24-bit significand with the hidden bit set).
pub const fn pack_normal(sign: bool, exp: i32, sig: u32) -> u32 {
    zero(sign) | ((exp as u32) << 23) | (sig & FRAC_MASK)
}

/// Number of leading zeros of a value of `width` bits (a priority encoder in hardware).
pub const fn leading_zeros(v: u32, width: u32) -> u32 {
    v.leading_zeros() - (32 - width)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        assert_eq!(unpack(0x8000_0001).class, Class::Zero);
        assert!(unpack(0x8000_0001).sign);
        assert_eq!(unpack(0x7F80_0000).class, Class::Inf);
        assert_eq!(unpack(0xFFC0_0001).class, Class::Nan);
        let one = unpack(ONE);
        assert_eq!(
            (one.class, one.exp, one.sig),
            (Class::Normal, 127, 0x80_0000)
        );
        assert_eq!(flush(0x807F_FFFF), 0x8000_0000);
        assert_eq!(flush(0x0080_0000), 0x0080_0000);
        assert_eq!(leading_zeros(1, 27), 26);
    }
}

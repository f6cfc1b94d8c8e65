//! The shared round-and-pack stage: round to nearest even on the binary32 grid (subnormal grid
//! included), then flush a subnormal result to a zero of the same sign.
//!
//! Hardware: every float unit ends in this stage. Its inputs are a 24-bit significand whose
//! leading one is at bit 23, a guard bit (the first bit below the significand), a sticky bit
//! (the OR of every bit below the guard) and a signed 10-bit biased exponent (the value is
//! `sig * 2^(exp - 150)` plus the guard/sticky fraction). It is a 24-bit incrementer, one
//! 24-input AND (the boundary case below) and the overflow/underflow compares on the exponent:
//! about 60 LUT4s, one pipeline stage.
//!
//! Why the subnormal grid needs only one comparator: results that are subnormal before rounding
//! (biased exponent <= 0) are flushed after rounding unless they round up to 2^-126. With
//! exponent 0 the value is `sig * 2^-150` with `sig` in `[2^23, 2^24)`; the subnormal grid has
//! spacing 2^-149, so the value rounds to 2^-126 = `2^24 * 2^-150` exactly when it is at least
//! the midpoint `(2^24 - 1) * 2^-150` (a tie goes to the even neighbour, which is 2^-126), that is
//! when `sig` is all ones, whatever the guard and sticky bits say. Exponents below 0 are at most
//! 2^-127 and always flush.

use super::bits::{inf, pack_normal, zero, MIN_NORMAL};

/// Rounds `(-1)^sign * (sig + guard/2 + sticky/4..) * 2^(exp - 150)` to nearest even and packs it,
/// flushing a subnormal result to signed zero and an overflow to signed infinity.
///
/// `sig` must have its leading one at bit 23 (`0x80_0000 <= sig <= 0xFF_FFFF`); `exp` is the
/// biased exponent the result has before rounding, of any sign.
pub const fn round_pack(sign: bool, exp: i32, sig: u32, guard: bool, sticky: bool) -> u32 {
    if exp >= 255 {
        return inf(sign);
    }
    if exp <= 0 {
        return if exp == 0 && sig == 0xFF_FFFF {
            zero(sign) | MIN_NORMAL
        } else {
            zero(sign)
        };
    }
    let round_up = guard && (sticky || sig & 1 != 0);
    let mut s = sig + round_up as u32;
    let mut e = exp;
    if s == 0x100_0000 {
        s = 0x80_0000;
        e += 1;
        if e == 255 {
            return inf(sign);
        }
    }
    pack_normal(sign, e, s)
}

/// Shifts `v` right by `n` (any amount), ORing every bit shifted out into bit 0 (the sticky
/// shifter of the adder's alignment stage and of denormalising steps).
pub const fn shift_right_sticky(v: u32, n: u32) -> u32 {
    if n == 0 {
        v
    } else if n >= 32 {
        (v != 0) as u32
    } else {
        let lost = v & ((1u32 << n) - 1);
        (v >> n) | (lost != 0) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_go_to_even() {
        // 1 + 2^-24 (tie) -> 1.0; 1 + 3*2^-24 (tie) -> 1 + 2^-22.
        assert_eq!(round_pack(false, 127, 0x80_0000, true, false), 0x3F80_0000);
        assert_eq!(round_pack(false, 127, 0x80_0001, true, false), 0x3F80_0002);
        assert_eq!(round_pack(false, 127, 0x80_0000, true, true), 0x3F80_0001);
    }

    #[test]
    fn carry_and_overflow() {
        assert_eq!(round_pack(true, 127, 0xFF_FFFF, true, true), 0xC000_0000);
        assert_eq!(round_pack(false, 254, 0xFF_FFFF, true, false), 0x7F80_0000);
        assert_eq!(round_pack(false, 254, 0xFF_FFFF, false, true), 0x7F7F_FFFF);
        assert_eq!(round_pack(false, 255, 0x80_0000, false, false), 0x7F80_0000);
    }

    #[test]
    fn subnormal_boundary() {
        assert_eq!(round_pack(false, 0, 0xFF_FFFF, false, false), 0x0080_0000);
        assert_eq!(round_pack(true, 0, 0xFF_FFFE, true, true), 0x8000_0000);
        assert_eq!(round_pack(false, -3, 0xFF_FFFF, true, true), 0);
        assert_eq!(round_pack(false, 1, 0x80_0000, false, false), 0x0080_0000);
    }

    #[test]
    fn sticky_shift() {
        assert_eq!(shift_right_sticky(0b1011, 2), 0b11);
        assert_eq!(shift_right_sticky(0b1000, 2), 0b10);
        assert_eq!(shift_right_sticky(5, 40), 1);
        assert_eq!(shift_right_sticky(0, 40), 0);
    }
}

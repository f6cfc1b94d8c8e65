//! Integer helpers of the integer ALU, on register bits (`u32`), two's complement and wrapping
//! (decisions.md section 2).
//!
//! Hardware: a 32-bit adder/subtractor with operand inversion (ADD, SUB, negate, abs, SAD and the
//! compares of MIN/MAX), a 32-bit barrel shifter with a fill bit (SHL, SHR, USHR), and `MOD`
//! which reuses the divider's restoring recurrence ([`urem_steps`]): one bit per step, 32 steps
//! (16 clocks at two steps per clock), on the magnitudes, the sign of the dividend applied last.

/// Wrapping addition.
pub const fn iadd(a: u32, b: u32) -> u32 {
    a.wrapping_add(b)
}

/// Wrapping subtraction `a - b`.
pub const fn isub(a: u32, b: u32) -> u32 {
    a.wrapping_sub(b)
}

/// Integer negate (the integer source modifier): wrapping, so `-(i32::MIN) = i32::MIN`.
pub const fn ineg(a: u32) -> u32 {
    a.wrapping_neg()
}

/// Integer absolute value (the integer source modifier): wrapping, `|i32::MIN| = i32::MIN`.
pub const fn iabs(a: u32) -> u32 {
    (a as i32).wrapping_abs() as u32
}

/// `SHL`: `a << (b & 31)`.
pub const fn ishl(a: u32, b: u32) -> u32 {
    a << (b & 31)
}

/// `SHR`: arithmetic shift right by `b & 31`.
pub const fn ishr(a: u32, b: u32) -> u32 {
    ((a as i32) >> (b & 31)) as u32
}

/// Logical shift right by `b & 31`.
pub const fn ushr(a: u32, b: u32) -> u32 {
    a >> (b & 31)
}

/// The divider recurrence on 32-bit magnitudes: 32 restoring steps, returns `(quotient,
/// remainder)`. The divisor must be non-zero.
pub const fn urem_steps(dividend: u32, divisor: u32) -> (u32, u32) {
    let d = divisor as u64;
    let mut rem: u64 = 0;
    let mut quot: u32 = 0;
    let mut i = 0;
    while i < 32 {
        // Bring down the next dividend bit, then subtract when the divisor fits (33-bit datapath).
        rem = (rem << 1) | ((dividend >> (31 - i)) & 1) as u64;
        quot <<= 1;
        if rem >= d {
            rem -= d;
            quot |= 1;
        }
        i += 1;
    }
    (quot, rem as u32)
}

/// `MOD`: signed remainder with the sign of the dividend; by 0 gives `0xFFFFFFFF`
/// (`i32::MIN mod -1 = 0`).
pub const fn imod(a: u32, b: u32) -> u32 {
    if b == 0 {
        return 0xFFFF_FFFF;
    }
    let (ia, ib) = (a as i32, b as i32);
    let (_, r) = urem_steps(ia.unsigned_abs(), ib.unsigned_abs());
    if ia < 0 {
        r.wrapping_neg()
    } else {
        r
    }
}

/// `SAD`: `d = a - b` as int32 (wrapping), result `|d| + c` (wrapping).
pub const fn isad(a: u32, b: u32, c: u32) -> u32 {
    iabs(isub(a, b)).wrapping_add(c)
}

/// Signed minimum.
pub const fn imin(a: u32, b: u32) -> u32 {
    if (a as i32) < (b as i32) {
        a
    } else {
        b
    }
}

/// Signed maximum.
pub const fn imax(a: u32, b: u32) -> u32 {
    if (a as i32) > (b as i32) {
        a
    } else {
        b
    }
}

/// Unsigned minimum.
pub const fn umin(a: u32, b: u32) -> u32 {
    if a < b {
        a
    } else {
        b
    }
}

/// Unsigned maximum.
pub const fn umax(a: u32, b: u32) -> u32 {
    if a > b {
        a
    } else {
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remainders() {
        assert_eq!(imod(7, 3), 1);
        assert_eq!(imod((-7i32) as u32, 3), (-1i32) as u32);
        assert_eq!(imod(7, (-3i32) as u32), 1);
        assert_eq!(imod(5, 0), 0xFFFF_FFFF);
        assert_eq!(imod(i32::MIN as u32, (-1i32) as u32), 0);
        assert_eq!(urem_steps(100, 7), (14, 2));
        assert_eq!(urem_steps(u32::MAX, 1), (u32::MAX, 0));
    }

    #[test]
    fn shifts_and_sad() {
        assert_eq!(ishr(0x8000_0000, 33), 0xC000_0000);
        assert_eq!(ishl(1, 32), 1);
        assert_eq!(ushr(0x8000_0000, 31), 1);
        assert_eq!(isad(3, 10, 1), 8);
        assert_eq!(isad(i32::MIN as u32, 1, 0), 0x7FFF_FFFF);
        assert_eq!(iabs(i32::MIN as u32), 0x8000_0000);
    }
}

//! The divider: `fdiv` and `frcp`, correctly rounded by digit recurrence.
//!
//! Algorithm: radix-2 restoring division of the significands.
//! 1. unpack and flush; specials (NaN, 0/0, inf/inf -> NaN; x/0 -> inf; x/inf -> 0);
//! 2. `ma`, `mb` are 24-bit significands. If `ma < mb` the dividend is doubled and the exponent
//!    lowered by one, so the quotient `q = ma / mb` lies in `[1, 2)` (one 24-bit comparator);
//! 3. 25 recurrence steps ([`div_step`]) produce 25 quotient bits: the 24-bit significand and a
//!    guard bit. Each step compares the partial remainder with the divisor, subtracts when it is
//!    not smaller (quotient bit 1) and doubles it. The remainder is 26 bits wide (`r < 2 * mb`);
//! 4. sticky = (final remainder != 0); the exponent is `ea - eb + 127` (minus 1 from step 2);
//!    [`round_pack`] rounds and flushes.
//!
//! Hardware: one 26-bit subtractor and a 26-bit mux per step. Two steps are cascaded per clock
//! (a 2-bit-per-clock recurrence), so the 25 steps take 13 clocks, plus 1 clock for unpack/align
//! and 1 for rounding: 15 clocks per scalar, not pipelined (a vec4 RCP or DIV is 4 x 15 clocks per
//! lane). Area: about 2 x 26 carry cells for the two subtractors, 26 + 26 + 25 register bits and
//! the control counter (roughly 150-200 LUT4s). A non-restoring or SRT implementation produces the
//! same quotient bits and may be substituted; the step function here is the reference for
//! restoring hardware. Accuracy: correctly rounded (0 ULP), checked exhaustively for `frcp`.

use super::bits::{inf, unpack, zero, Class, CANONICAL_NAN, ONE};
use super::round::round_pack;

/// Number of quotient bits produced (24 significand bits and one guard bit).
pub const DIV_STEPS: u32 = 25;
/// Recurrence steps done per clock in the planned hardware.
pub const DIV_STEPS_PER_CLOCK: u32 = 2;

/// The state of the division recurrence between steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DivState {
    /// Partial remainder, 26 bits (always `< 2 * divisor`).
    pub rem: u32,
    /// Quotient bits produced so far, most significant first.
    pub quot: u32,
}

/// One radix-2 restoring step: subtract the divisor when it fits, shift the quotient bit in,
/// double the remainder.
pub const fn div_step(s: DivState, divisor: u32) -> DivState {
    let (rem, bit) = if s.rem >= divisor {
        (s.rem - divisor, 1)
    } else {
        (s.rem, 0)
    };
    DivState {
        rem: rem << 1,
        quot: (s.quot << 1) | bit,
    }
}

/// The significand recurrence: returns `(quotient 25 bits, remainder)` for a dividend
/// `mb <= dividend < 2 * mb` (both 24/25-bit integers).
pub const fn div_significands(dividend: u32, divisor: u32) -> DivState {
    let mut s = DivState {
        rem: dividend,
        quot: 0,
    };
    let mut i = 0;
    while i < DIV_STEPS {
        s = div_step(s, divisor);
        i += 1;
    }
    s
}

/// `a / b`, correctly rounded (nearest even), with the input flush, output flush and canonical NaN.
pub fn fdiv(a: u32, b: u32) -> u32 {
    let ua = unpack(a);
    let ub = unpack(b);
    let sign = ua.sign != ub.sign;
    match (ua.class, ub.class) {
        (Class::Nan, _) | (_, Class::Nan) => return CANONICAL_NAN,
        (Class::Inf, Class::Inf) | (Class::Zero, Class::Zero) => return CANONICAL_NAN,
        (Class::Inf, _) | (_, Class::Zero) => return inf(sign),
        (Class::Zero, _) | (_, Class::Inf) => return zero(sign),
        _ => {}
    }
    let mut e = ua.exp - ub.exp + 127;
    let mut dividend = ua.sig;
    if dividend < ub.sig {
        dividend <<= 1;
        e -= 1;
    }
    let s = div_significands(dividend, ub.sig);
    round_pack(sign, e, s.quot >> 1, s.quot & 1 != 0, s.rem != 0)
}

/// `1 / x` (RCP): the divider with a dividend of 1.0.
pub fn frcp(x: u32) -> u32 {
    fdiv(ONE, x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotients() {
        assert_eq!(fdiv(0x4040_0000, 0x4000_0000), 0x3FC0_0000); // 3 / 2
        assert_eq!(frcp(0x4040_0000), 0x3EAA_AAAB); // 1/3
        assert_eq!(frcp(0x8000_0000), 0xFF80_0000);
        assert_eq!(frcp(0x0000_0001), 0x7F80_0000); // subnormal counts as +0
        assert_eq!(frcp(0xFF80_0000), 0x8000_0000);
        assert_eq!(fdiv(0, 0), CANONICAL_NAN);
        assert_eq!(frcp(0x7F00_0000), 0); // 1/2^127 = 2^-127: flushed
        assert_eq!(frcp(0x7E80_0000), 0x0080_0000); // 1/2^126
    }
}

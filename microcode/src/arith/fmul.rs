//! The float multiplier.
//!
//! Algorithm: unpack and flush; the 24x24-bit significand product is formed exactly (48 bits);
//! the exponent is `ea + eb - 127` (10-bit signed adder); the product is in `[2^46, 2^48)`, so
//! normalisation is a one-place shift chosen by bit 47; the 24 top bits, the guard bit below them
//! and the OR of the remaining bits (sticky) go to [`round_pack`].
//!
//! The product is modelled as radix-4 shift-and-add ([`mul24`]): twelve steps, each adding `0`,
//! `a`, `2a` or `3a` (the last precomputed once) for two multiplier bits. The same arithmetic fits
//! every hardware arrangement of it: an array of twelve 26-bit adders with their row-select
//! muxes (pipelined, one result per clock; estimated 700-1,500 LUT4s depending on the mapping, the
//! largest block of the FPU because the HX8K has no DSP multipliers; a registered 16x16 multiplier
//! measured 663 cells) or fewer adders reused over several clocks. Only the exact 48-bit product
//! matters to the result, so any arrangement matches these bits.
//!
//! Accuracy: correctly rounded (0 ULP). Latency idea: unpack 1 + multiply 3-4 + round 1 clocks.

use super::bits::{inf, unpack, zero, Class, CANONICAL_NAN};
use super::round::round_pack;

/// The exact product of two 24-bit significands, by twelve radix-4 shift-and-add steps.
pub const fn mul24(a: u32, b: u32) -> u64 {
    let a = a as u64;
    let a3 = a * 3; // precomputed 3a (one 26-bit adder)
    let mut acc: u64 = 0;
    let mut i = 0;
    while i < 12 {
        let digit = (b >> (2 * i)) & 3;
        let row = match digit {
            0 => 0,
            1 => a,
            2 => a << 1,
            _ => a3,
        };
        acc += row << (2 * i);
        i += 1;
    }
    acc
}

/// `a * b`, correctly rounded (nearest even), with the input flush, output flush and canonical NaN.
///
/// `0 * inf` is NaN; the sign of a zero or infinite result is the XOR of the signs.
#[inline]
pub fn fmul(a: u32, b: u32) -> u32 {
    // Normal operands with a normal product: the host's IEEE multiply rounds as this multiplier
    // does (both correctly rounded), much faster; every other case takes the datapath.
    if let Some(r) = host_normal(a, b, f32::from_bits(a) * f32::from_bits(b)) {
        return r;
    }
    fmul_datapath(a, b)
}

/// `Some(r)` when `a` and `b` are normal numbers and the host's correctly rounded result `r` is
/// one too: then no flush, NaN or overflow rule applies and it is the datapath's result.
#[inline]
pub(crate) fn host_normal(a: u32, b: u32, r: f32) -> Option<u32> {
    let normal = |x: u32| {
        let e = (x >> 23) & 0xFF;
        e != 0 && e != 0xFF
    };
    let r = r.to_bits();
    (normal(a) && normal(b) && normal(r)).then_some(r)
}

/// [`fmul`] as the hardware computes it, step by step (the reference for its fast path).
pub fn fmul_datapath(a: u32, b: u32) -> u32 {
    let ua = unpack(a);
    let ub = unpack(b);
    let sign = ua.sign != ub.sign;
    match (ua.class, ub.class) {
        (Class::Nan, _) | (_, Class::Nan) => return CANONICAL_NAN,
        (Class::Inf, Class::Zero) | (Class::Zero, Class::Inf) => return CANONICAL_NAN,
        (Class::Inf, _) | (_, Class::Inf) => return inf(sign),
        (Class::Zero, _) | (_, Class::Zero) => return zero(sign),
        _ => {}
    }
    // The host's 64-bit multiply gives the same exact product as `mul24` (the test below
    // checks it), several times faster: the models spend most of their time here.
    let p = u64::from(ua.sig) * u64::from(ub.sig);
    debug_assert_eq!(p, mul24(ua.sig, ub.sig));
    let mut e = ua.exp + ub.exp - 127;
    let (sig, guard, sticky) = if p >> 47 != 0 {
        e += 1;
        (
            (p >> 24) as u32,
            p & (1 << 23) != 0,
            p & ((1 << 23) - 1) != 0,
        )
    } else {
        (
            (p >> 23) as u32,
            p & (1 << 22) != 0,
            p & ((1 << 22) - 1) != 0,
        )
    };
    round_pack(sign, e, sig, guard, sticky)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products() {
        assert_eq!(mul24(0xFF_FFFF, 0xFF_FFFF), 0xFF_FFFFu64 * 0xFF_FFFF);
        // `fmul` uses the host product: the shift-and-add model must equal it for every pair.
        let mut x = 0x0080_0001u32;
        for _ in 0..10_000 {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let (a, b) = (x >> 8 | 0x80_0000, x.rotate_left(11) >> 8 | 0x80_0000);
            assert_eq!(mul24(a, b), u64::from(a) * u64::from(b), "{a:#x} * {b:#x}");
        }
        assert_eq!(fmul(0x4040_0000, 0x4080_0000), 0x4140_0000); // 3 * 4 = 12
        assert_eq!(fmul(0x8000_0000, 0x7F80_0000), CANONICAL_NAN);
        assert_eq!(fmul(0x8000_0000, 0x3F80_0000), 0x8000_0000);
        // 2^-63 * 2^-63 = 2^-126 (min normal), 2^-64 * 2^-63 flushes.
        assert_eq!(fmul(0x2000_0000, 0x2000_0000), 0x0080_0000);
        assert_eq!(fmul(0x1F80_0000, 0xA000_0000), 0x8000_0000);
        assert_eq!(fmul(0x7F00_0000, 0x4000_0000), 0x7F80_0000);
    }
}

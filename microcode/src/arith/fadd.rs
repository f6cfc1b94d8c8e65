//! The float adder: `fadd`, `fsub` and the two-rounding `fmad`.
//!
//! Algorithm (classic guard/round/sticky adder, exact IEEE round-to-nearest-even):
//! 1. unpack and flush both operands; swap so that `big` has the larger magnitude (a 31-bit
//!    magnitude compare of the bit patterns, which orders normal numbers correctly);
//! 2. extend both 24-bit significands by three bits (guard, round, sticky) to 27 bits and shift
//!    the smaller one right by the exponent difference `d`, ORing the lost bits into the sticky
//!    bit (a 27-bit barrel shifter, 5 levels; `d >= 27` leaves only the sticky bit);
//! 3. add or subtract (27-bit adder, 28-bit result);
//! 4. normalise: on a carry out shift right one (sticky kept); after a subtraction count the
//!    leading zeros (priority encoder) and shift left (at most one place unless `d <= 1`, when the
//!    result is exact and the sticky bit is 0);
//! 5. round and pack ([`round_pack`]): bits 26..3 are the significand, bit 2 the guard, bits 1..0
//!    the sticky.
//!
//! Hardware: about 5 pipeline stages at 100 MHz (swap/compare, align, add + leading-zero count,
//! normalise, round), one result per clock. Accuracy: correctly rounded (0 ULP).

use super::bits::{inf, unpack, zero, Class, CANONICAL_NAN, POS_INF, SIGN_BIT};
use super::fmul::fmul;
use super::round::{round_pack, shift_right_sticky};

/// The exponent field of a binary32 (all ones in an infinity).
const EXP_MASK: u32 = POS_INF;

/// `a + b`, correctly rounded (nearest even), with the input flush, output flush and canonical NaN.
///
/// Zeros: `x + (-x) = +0`, `(-0) + (-0) = -0`, a zero plus a normal number returns the number.
#[inline]
pub fn fadd(a: u32, b: u32) -> u32 {
    // Normal operands with a normal sum: the host's IEEE addition rounds to nearest even as this
    // adder does (both are correctly rounded), several times faster; the models spend much of
    // their time here. Everything else (zeros, subnormals, infinities, NaN, overflow, a result
    // that flushes) takes the adder's own path.
    if let Some(r) = super::fmul::host_normal(a, b, f32::from_bits(a) + f32::from_bits(b)) {
        return r;
    }
    // A normal number plus a zero or a subnormal (flushed to zero on input): the number, as the
    // adder gives it. Multiply-adds with a zero addend (the compiler's plain multiplies) end here.
    let flushed = |x: u32| x & EXP_MASK == 0;
    let normal = |x: u32| x & EXP_MASK != 0 && x & EXP_MASK != EXP_MASK;
    if flushed(b) && normal(a) {
        return a;
    }
    if flushed(a) && normal(b) {
        return b;
    }
    fadd_datapath(a, b)
}

/// [`fadd`] as the hardware computes it, step by step (the reference for its fast path).
pub fn fadd_datapath(a: u32, b: u32) -> u32 {
    let ua = unpack(a);
    let ub = unpack(b);
    match (ua.class, ub.class) {
        (Class::Nan, _) | (_, Class::Nan) => return CANONICAL_NAN,
        (Class::Inf, Class::Inf) => {
            return if ua.sign == ub.sign {
                inf(ua.sign)
            } else {
                CANONICAL_NAN
            }
        }
        (Class::Inf, _) => return inf(ua.sign),
        (_, Class::Inf) => return inf(ub.sign),
        (Class::Zero, Class::Zero) => return zero(ua.sign && ub.sign),
        (Class::Zero, _) => return b,
        (_, Class::Zero) => return a,
        _ => {}
    }
    // Stage 1: order by magnitude (the bit patterns of normal numbers compare like magnitudes).
    let (big, small) = if a & !SIGN_BIT >= b & !SIGN_BIT {
        (ua, ub)
    } else {
        (ub, ua)
    };
    let d = (big.exp - small.exp) as u32;
    // Stage 2: align in a 27-bit datapath (24 significand bits + guard, round, sticky).
    let mb = big.sig << 3;
    let ms = shift_right_sticky(small.sig << 3, d);
    // Stage 3 and 4: add or subtract, then normalise.
    let (mut s, mut e) = if big.sign == small.sign {
        let sum = mb + ms;
        if sum >> 27 != 0 {
            (shift_right_sticky(sum, 1), big.exp + 1)
        } else {
            (sum, big.exp)
        }
    } else {
        let diff = mb - ms;
        if diff == 0 {
            return 0;
        }
        (diff, big.exp)
    };
    let lz = s.leading_zeros() - 5; // leading one to bit 26
    s <<= lz;
    e -= lz as i32;
    // Stage 5: round and pack.
    round_pack(big.sign, e, s >> 3, s & 4 != 0, s & 3 != 0)
}

/// `a - b`: the adder with the sign of `b` inverted (a NaN `b` stays a NaN).
#[inline]
pub fn fsub(a: u32, b: u32) -> u32 {
    fadd(a, b ^ SIGN_BIT)
}

/// `MAD`: `round(round(a * b) + c)`, two roundings, never fused (decisions.md section 2).
#[inline]
pub fn fmad(a: u32, b: u32, c: u32) -> u32 {
    fadd(fmul(a, b), c)
}

/// [`fmad`] in `N` lanes at once: lane `l` of the result is `fmad(a[l], b[l], c[l])`.
///
/// The models run a quad's four lanes of one component together; this is their multiply-add.
/// The lanes that take [`fmad`]'s fast paths (normal operands, a normal product, an addend that
/// is normal with a normal sum or that flushes to zero; or a zero product and a normal addend)
/// are computed with no branch per lane, which the compiler turns into vector instructions;
/// the others then take [`fmad`].
#[inline(always)]
pub fn fmad_lanes<const N: usize>(a: [u32; N], b: [u32; N], c: [u32; N]) -> [u32; N] {
    // An exponent field that is neither 0 nor all ones.
    let normal = |x: u32| ((x >> 23) & 0xFF).wrapping_sub(1) < 0xFE;
    let flushed = |x: u32| x & EXP_MASK == 0;
    // Loops rather than array adaptors, so that nothing stands between the lanes and the
    // vectoriser.
    let mut r = [0u32; N];
    let mut fast = [true; N];
    for l in 0..N {
        let p = (f32::from_bits(a[l]) * f32::from_bits(b[l])).to_bits();
        let s = (f32::from_bits(p) + f32::from_bits(c[l])).to_bits();
        // fmul's host path, then fadd's: its host path (an exact cancellation gives +0 on
        // both), or the product when c flushes. Or a finite number times one that flushes: a
        // zero product (its sign that of a * b), which adds to a normal c as c and to a
        // flushed one as a zero, negative when both are (inputs with zero components and
        // SET's 0 / 1 are common).
        let addend_zero = flushed(c[l]);
        let finite = |x: u32| x & EXP_MASK != EXP_MASK;
        let zero_product = (flushed(a[l]) | flushed(b[l])) & finite(a[l]) & finite(b[l]);
        fast[l] = (normal(a[l])
            & normal(b[l])
            & normal(p)
            & (addend_zero | (normal(c[l]) & (normal(s) | (s == 0)))))
            | (zero_product & (normal(c[l]) | addend_zero));
        r[l] = if zero_product {
            if addend_zero {
                (a[l] ^ b[l]) & c[l] & SIGN_BIT
            } else {
                c[l]
            }
        } else if addend_zero {
            p
        } else {
            s
        };
    }
    if !fast.iter().all(|&f| f) {
        fmad_slow_lanes(&mut r, &fast, a, b, c);
    }
    r
}

/// [`fmad`] in the lanes that are not `fast`: [`fmad_lanes`]'s rare case, kept out of line so
/// that the callers' inlined fast path stays small.
#[cold]
#[inline(never)]
fn fmad_slow_lanes<const N: usize>(
    r: &mut [u32; N],
    fast: &[bool; N],
    a: [u32; N],
    b: [u32; N],
    c: [u32; N],
) {
    for l in (0..N).filter(|&l| !fast[l]) {
        r[l] = fmad(a[l], b[l], c[l]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast path equals the datapath on random normal operands of every exponent distance
    /// (cancellations, carries and ties included).
    #[test]
    fn host_path_equals_datapath() {
        let mut rng = crate::rng::XorShift::new(0x1234_5678);
        let mut next = move || rng.next_u32();
        for _ in 0..300_000 {
            let a = next();
            // b near a in exponent (often), with a random sign and low bits.
            let r = next();
            let b = match r & 3 {
                0 => r,
                1 => (a & 0x7F80_0000) ^ (r & 0x807F_FFFF),
                2 => (a ^ 0x8000_0000) ^ (r & 0xFF),
                _ => a.wrapping_add(r & 0x0300_0000) ^ (r & 0x8000_0000),
            };
            assert_eq!(fadd(a, b), fadd_datapath(a, b), "{a:#x} + {b:#x}");
            // A zero or a subnormal on either side (the zero-addend fast path).
            let z = [0, SIGN_BIT, r & 0x807F_FFFF][(r >> 7) as usize % 3];
            assert_eq!(fadd(a, z), fadd_datapath(a, z), "{a:#x} + {z:#x}");
            assert_eq!(fadd(z, a), fadd_datapath(z, a), "{z:#x} + {a:#x}");
            assert_eq!(
                super::super::fmul::fmul(a, b),
                super::super::fmul::fmul_datapath(a, b),
                "{a:#x} * {b:#x}"
            );
        }
    }

    /// [`fmad_lanes`] equals [`fmad`] in every lane, on lanes mixing every class of operand
    /// (normal, zero, subnormal, infinity, NaN, products and sums that overflow or flush), so
    /// that both the all-fast case and the per-lane fallback are taken.
    #[test]
    fn lanes_equal_fmad() {
        let mut rng = crate::rng::XorShift::new(0x9E37_79B9);
        let mut next = move || rng.next_u64() as u32;
        let special = [
            0,
            SIGN_BIT,
            1,
            0x8000_0001,
            POS_INF,
            POS_INF | SIGN_BIT,
            CANONICAL_NAN,
            0x7F7F_FFFF,
            0x0080_0000,
            0x3F80_0000,
        ];
        let mut value = |mostly_normal: bool| {
            let r = next();
            match r % 16 {
                0 if !mostly_normal => special[(r >> 4) as usize % special.len()],
                // Small and large exponents: products that flush or overflow.
                1 => (r & 0x8000_0000) | ((r >> 8) & 0x007F_FFFF) | (1 + (r >> 4) % 20) << 23,
                2 => (r & 0x8000_0000) | ((r >> 8) & 0x007F_FFFF) | (230 + (r >> 4) % 24) << 23,
                // Normal numbers near 1 (the common case), some with a zero addend below.
                _ => (r & 0x8000_0000) | ((r >> 8) & 0x007F_FFFF) | (120 + (r >> 4) % 16) << 23,
            }
        };
        let mut fast_cases = 0;
        for trial in 0..200_000 {
            let mostly_normal = trial % 2 == 0;
            let a: [u32; 4] = std::array::from_fn(|_| value(mostly_normal));
            let b: [u32; 4] = std::array::from_fn(|_| value(mostly_normal));
            let c: [u32; 4] = std::array::from_fn(|l| match trial % 5 {
                0 => SIGN_BIT,
                // Exact cancellations (and zero products plus signed zeros or subnormals).
                1 => fmul(a[l], b[l]) ^ SIGN_BIT,
                _ => value(mostly_normal),
            });
            let want: [u32; 4] = std::array::from_fn(|l| fmad(a[l], b[l], c[l]));
            let normal = |x: u32| ((x >> 23) & 0xFF).wrapping_sub(1) < 0xFE;
            if a.iter().chain(&b).all(|&x| normal(x)) {
                fast_cases += 1;
            }
            assert_eq!(fmad_lanes(a, b, c), want, "{a:08x?} * {b:08x?} + {c:08x?}");
        }
        assert!(fast_cases > 10_000, "{fast_cases} all-normal cases");
        // Wide: the lanes that are not fast among many that are.
        for _ in 0..5_000 {
            let mostly = |v: &mut dyn FnMut(bool) -> u32| -> [u32; 64] {
                std::array::from_fn(|l| v(l % 29 != 0))
            };
            let (a, b, c) = (mostly(&mut value), mostly(&mut value), mostly(&mut value));
            let want: [u32; 64] = std::array::from_fn(|l| fmad(a[l], b[l], c[l]));
            assert_eq!(fmad_lanes(a, b, c), want);
        }
    }

    #[test]
    fn simple_sums() {
        assert_eq!(fadd(0x3F80_0000, 0x3F80_0000), 0x4000_0000); // 1 + 1 = 2
        assert_eq!(fsub(0x3F80_0000, 0x3F80_0000), 0); // 1 - 1 = +0
        assert_eq!(fadd(0x8000_0000, 0x8000_0000), 0x8000_0000); // -0 + -0
        assert_eq!(fadd(0x8000_0001, 0x0000_0000), 0); // -sub + +0 = +0
        assert_eq!(fsub(0x7F80_0000, 0x7F80_0000), CANONICAL_NAN);
        // 1 + 2^-24 is a tie and rounds to 1; 1 + 2^-24 + 2^-47 rounds up.
        assert_eq!(fadd(0x3F80_0000, 0x3380_0000), 0x3F80_0000);
        assert_eq!(fadd(0x3F80_0000, 0x3380_0001), 0x3F80_0001);
        // 2^-125 - 1.5*2^-126 = 2^-127: subnormal, flushed to +0.
        assert_eq!(fsub(0x0100_0000, 0x00C0_0000), 0);
    }
}

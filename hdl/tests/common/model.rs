//! Independent bit-level model of the float rules (decisions.md section 2) built on host f32
//! arithmetic, and the test-vector generators.

use microcode::rng::XorShift;

/// Subnormal inputs count as zero with their sign.
pub fn flush_in(x: u32) -> f32 {
    if x & 0x7F80_0000 == 0 {
        f32::from_bits(x & 0x8000_0000)
    } else {
        f32::from_bits(x)
    }
}

/// Host arithmetic has already rounded on the subnormal grid; flush what stayed subnormal and
/// canonicalise NaN.
pub fn flush_out(r: f32) -> u32 {
    if r.is_nan() {
        return 0x7FC0_0000;
    }
    let b = r.to_bits();
    if b & 0x7F80_0000 == 0 {
        b & 0x8000_0000
    } else {
        b
    }
}

/// Reference `a * b`.
pub fn ref_fmul(a: u32, b: u32) -> u32 {
    flush_out(flush_in(a) * flush_in(b))
}

/// Reference `a + b` (or `a - b` when `sub`): the sign flip happens on the bits first.
pub fn ref_fadd(a: u32, b: u32, sub: bool) -> u32 {
    let b = if sub { b ^ 0x8000_0000 } else { b };
    flush_out(flush_in(a) + flush_in(b))
}

/// Operands every block must get right: zeros, subnormals, the normal range edges, infinities,
/// NaNs, values with all-ones or single-one significands.
pub const SPECIALS: &[u32] = &[
    0x0000_0000,
    0x8000_0000, // signed zeros
    0x0000_0001,
    0x8000_0001,
    0x007F_FFFF,
    0x807F_FFFF,
    0x0040_0000, // subnormals
    0x0080_0000,
    0x8080_0000,
    0x0080_0001,
    0x00FF_FFFF, // smallest normals
    0x7F7F_FFFF,
    0xFF7F_FFFF,
    0x7F00_0000,
    0x7EFF_FFFF, // largest normals
    0x7F80_0000,
    0xFF80_0000, // infinities
    0x7FC0_0000,
    0xFFC0_0000,
    0x7F80_0001,
    0xFFFF_FFFF,
    0x7FBF_FFFF, // NaNs
    0x3F80_0000,
    0xBF80_0000,
    0x4000_0000,
    0x3F00_0000,
    0x3FC0_0000, // 1, -1, 2, 0.5, 1.5
    0x3F80_0001,
    0x3FFF_FFFF,
    0x3F7F_FFFF,
    0x3F80_0800,
    0x3F7F_FFFE,
    0x4B80_0000,
    0x3380_0000,
    0x3400_0000,
    0x1F80_0000,
    0x5F80_0000,
    0x2000_0001,
    0x5FFF_FFFF,
];

/// Every ordered pair of [`SPECIALS`].
pub fn special_pairs() -> Vec<(u32, u32)> {
    let mut v = Vec::new();
    for &a in SPECIALS {
        for &b in SPECIALS {
            v.push((a, b));
        }
    }
    v
}

fn pack(sign: u32, exp: u32, mant: u32) -> u32 {
    (sign << 31) | ((exp & 0xFF) << 23) | (mant & 0x7F_FFFF)
}

/// A significand with structure: random, all ones, a single bit, or mostly ones/zeros.
fn mantissa(r: &mut XorShift) -> u32 {
    match r.below_u32(6) {
        0 => 0x7F_FFFF,
        1 => 1 << r.below_u32(23),
        2 => 0x7F_FFFF ^ (1 << r.below_u32(23)),
        3 => r.next_u32() & !((1 << r.below_u32(23)) - 1),
        _ => r.next_u32(),
    }
}

/// Random operand pairs for multiplication: raw bit patterns, "nice" numbers, and exponent
/// sums near the underflow and overflow thresholds (127 and 381 before rebiasing).
pub fn random_fmul_pairs(seed: u64, n: usize) -> Vec<(u32, u32)> {
    let mut r = XorShift::new(seed);
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        let sa = r.below_u32(2);
        let sb = r.below_u32(2);
        let pair = match r.below_u32(4) {
            0 => (r.next_u32(), r.next_u32()),
            1 => (
                pack(sa, 100 + r.below_u32(56), mantissa(&mut r)),
                pack(sb, 100 + r.below_u32(56), mantissa(&mut r)),
            ),
            2 => {
                // a product near 2^-126: ea + eb in 100..=129.
                let ea = 1 + r.below_u32(128);
                let eb = (100 + r.below_u32(30)).saturating_sub(ea).clamp(1, 254);
                (
                    pack(sa, ea, mantissa(&mut r)),
                    pack(sb, eb, mantissa(&mut r)),
                )
            }
            _ => {
                // a product near 2^128: ea + eb in 375..=384.
                let ea = 130 + r.below_u32(125);
                let eb = (375 + r.below_u32(10)).saturating_sub(ea).clamp(1, 254);
                (
                    pack(sa, ea, mantissa(&mut r)),
                    pack(sb, eb, mantissa(&mut r)),
                )
            }
        };
        v.push(pair);
    }
    v
}

/// Random operand triples (a, b, sub) for addition: raw bit patterns, "nice" numbers, and
/// pairs close to each other (cancellation, equal exponents, exact zeros).
pub fn random_fadd_vectors(seed: u64, n: usize) -> Vec<(u32, u32, bool)> {
    let mut r = XorShift::new(seed);
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        let sub = r.below_u32(2) == 1;
        let (a, b) = match r.below_u32(4) {
            0 => (r.next_u32(), r.next_u32()),
            1 => (
                pack(r.below_u32(2), 100 + r.below_u32(56), mantissa(&mut r)),
                pack(r.below_u32(2), 100 + r.below_u32(56), mantissa(&mut r)),
            ),
            2 => {
                // b close to a: same or neighbouring exponent, few differing low bits.
                let a = pack(r.below_u32(2), 1 + r.below_u32(254), mantissa(&mut r));
                let de = r.below_u32(3) as i32 - 1;
                let ea = ((a >> 23) & 0xFF) as i32;
                let eb = (ea + de).clamp(1, 254) as u32;
                let flip = r.next_u32() & ((1 << r.below_u32(24)) - 1);
                let b = pack(r.below_u32(2), eb, (a ^ flip) & 0x7F_FFFF);
                (a, b)
            }
            _ => {
                // Near the ends of the exponent range (flush and overflow) or far apart.
                let lo = r.below_u32(2) == 0;
                let e = |r: &mut XorShift| {
                    if lo {
                        1 + r.below_u32(30)
                    } else {
                        225 + r.below_u32(30)
                    }
                };
                let ea = e(&mut r);
                let eb = if r.below_u32(4) == 0 {
                    1 + r.below_u32(254)
                } else {
                    e(&mut r)
                };
                (
                    pack(r.below_u32(2), ea, mantissa(&mut r)),
                    pack(r.below_u32(2), eb, mantissa(&mut r)),
                )
            }
        };
        v.push((a, b, sub));
    }
    v
}

/// The model itself must agree with hand-checked values (otherwise the comparisons prove
/// nothing).
pub fn self_check() {
    // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: a tie, rounds to even (down).
    assert_eq!(ref_fmul(0x3F80_0800, 0x3F80_0800), 0x3F80_1000);
    // (1 - 2^-24) * 2^-126 rounds (tie, to even) up to the smallest normal.
    assert_eq!(ref_fmul(0x3F7F_FFFF, 0x0080_0000), 0x0080_0000);
    // 0.5 * 2^-126 is subnormal: flushed, sign kept.
    assert_eq!(ref_fmul(0xBF00_0000, 0x0080_0000), 0x8000_0000);
    assert_eq!(ref_fmul(0x0000_0000, 0x7F80_0000), 0x7FC0_0000);
    assert_eq!(ref_fmul(0x7F7F_FFFF, 0x4000_0000), 0x7F80_0000);
    assert_eq!(ref_fadd(0x3F80_0000, 0x3F80_0000, true), 0x0000_0000);
    assert_eq!(ref_fadd(0x8000_0000, 0x0000_0000, true), 0x8000_0000);
    assert_eq!(ref_fadd(0x7F80_0000, 0x7F80_0000, true), 0x7FC0_0000);
    // A subnormal input is zero: 2^-126 + subnormal = 2^-126.
    assert_eq!(ref_fadd(0x0080_0000, 0x0000_0001, false), 0x0080_0000);
    // 1 + 2^-24 is a tie: stays 1.0; 1 + 3*2^-25 rounds up.
    assert_eq!(ref_fadd(0x3F80_0000, 0x3380_0000, false), 0x3F80_0000);
    assert_eq!(ref_fadd(0x3F80_0000, 0x33C0_0000, false), 0x3F80_0001);
    // 1.5 * 2^-126 - 2^-126 = 2^-127: subnormal, flushed.
    assert_eq!(ref_fadd(0x00C0_0000, 0x0080_0000, true), 0x0000_0000);
}

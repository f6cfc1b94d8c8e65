//! Division on the units every build has: the steps of the core sequences that stand in for the
//! divider when a build leaves it out (`compile/div.rs`), written here with the core's own
//! operations, one function call per core instruction, so that the algorithm is stated once and
//! tested on the host against [`fdiv`](super::fdiv()) and [`imod`](super::imod()) (millions of operands in a second).
//!
//! [`fdiv_steps`] is `fdiv` as an integer long division carried out in floats (the technique of
//! the reciprocal sequence), in two signed 12-bit digits:
//! - `mb = MANT(b)` in `[1, 2)`; `A = MANT(a)`, doubled when it is below `mb` (so the quotient
//!   `A / mb` lies in `[1, 2)`), times 2^11: the first partial dividend;
//! - `y ~ 1/mb` from a linear seed and two Newton steps (relative error below 2^-16);
//! - `mb` splits into `mh` (rounded to 12 bits by adding and subtracting 2^12) and `ml = mb - mh`
//!   (`|ml| <= 2^-12`, 12 bits), so a digit of at most 12 bits times either part is exact;
//! - each digit is the nearest integer to `num * y` (`RNDE`), off by at most one from the floor
//!   of the exact quotient, so its remainder `num - d mh - d ml` (exact: every partial result fits
//!   24 bits) lies in `(-mb, mb)`: signed digits need no correction; the second digit's
//!   dividend is the first remainder times 2^12;
//! - `N = D1 2^12 + D0`, minus one where the last remainder is negative (which then gains `mb`),
//!   is the truncated 24-bit quotient; it rounds up when `2 R > mb` (a quotient of two 24-bit
//!   significands is never half-way);
//! - the result is `q = N 2^-23` in `[1, 2]` times `2^E` (`EXPX`, exact in the normal range,
//!   zero below it, infinity above), `E = EXPN(a) - EXPN(b) - (doubled)`. Special operands need
//!   no case of their own: `MANT` makes `q` NaN, which `MAX(q, 1)` turns into 1, and `EXPN` of a
//!   zero, an infinity or a NaN makes `E` -inf, +inf or NaN, so `2^E` gives the IEEE result
//!   (0/0 and inf/inf: NaN);
//! - the one result below the normal range that is not flushed, 2^-126 where the subnormal grid
//!   rounds up to it (`E = -127` and the truncated `N = 2^24 - 1`), is selected (`q = 1`,
//!   `E = -126`);
//! - the sign (the operands' sign bits, through `ISGN`, so zeros too) negates `q` before the last
//!   multiply, which also makes a NaN result canonical.
//!
//! [`fdiv_by_mersenne`] divides an integer by `2^k - 1` (the unpack opcodes' 65535, 255, 127)
//! in three multiply-adds; [`imod_steps`] is `MOD` on the integer ALU, the divider's restoring
//! recurrence ([`super::int::urem_steps`]) one bit per eight integer operations.

use super::bits::{flush, ONE, SIGN_BIT};
use super::compare::{feq, fgt, flt, fmax, fne};
use super::convert::{fexp2_floor, fexp_part, fmant_part, isgn};
use super::fadd::fmad;
use super::int::{iabs, iadd, ishr, isub};
use super::integral::fround;
use crate::rng::XorShift;

/// -0.0: the addend of a multiply-add that is a plain product.
const NEG_ZERO: u32 = SIGN_BIT;

/// The linear seed of `1/mb` on `[1, 2)`: `SEED_A * mb + SEED_B` (relative error below 1/17).
pub const SEED_A: u32 = (-8.0f32 / 17.0).to_bits();
/// See [`SEED_A`].
pub const SEED_B: u32 = (24.0f32 / 17.0).to_bits();
/// 2^12: the digit size; adding and subtracting it rounds `mb` to its top 12 bits.
pub const SPLIT: u32 = 4096.0f32.to_bits();
/// 2^11: the first partial dividend is `A * 2^11` (its digit lies in `[2^11, 2^12]`).
pub const NUM_SCALE: u32 = 2048.0f32.to_bits();
/// 2^-23: `q = N * 2^-23`.
pub const Q_SCALE: u32 = 0x3400_0000;
/// 2^24 and 127 * 2^24: `(E + 127) * 2^24 + N` is `2^24 - 1` exactly in the case that rounds up
/// to the smallest normal.
pub const EXP_SCALE: u32 = 0x4B80_0000;
/// See [`EXP_SCALE`].
pub const EXP_BIAS: u32 = (127.0f32 * 16_777_216.0).to_bits();
/// 2^24 - 1: the truncated quotient of that case.
pub const N_MAX: u32 = 16_777_215.0f32.to_bits();
/// -126.0: the exponent of the smallest normal.
pub const E_MIN: u32 = (-126.0f32).to_bits();

/// The compiler constants of [`fdiv_steps`] in the order the sequence reads them from K (four to
/// a slot).
pub const DIV_K: [[u32; 4]; 3] = [
    [SEED_A, SEED_B, SPLIT, NUM_SCALE],
    [Q_SCALE, EXP_SCALE, EXP_BIAS, N_MAX],
    [E_MIN, 0, 0, 0],
];

const fn neg(x: u32) -> u32 {
    x ^ SIGN_BIT
}

/// `SET`: 1.0 where the comparison holds, else 0.0.
const fn set(c: bool) -> u32 {
    if c {
        ONE
    } else {
        0
    }
}

/// `SEL`: the chosen operand's bits, a subnormal flushed.
const fn sel(p: bool, x: u32, y: u32) -> u32 {
    flush(if p { x } else { y })
}

fn mul(a: u32, b: u32) -> u32 {
    fmad(a, b, NEG_ZERO)
}

/// One signed digit: `d = RNDE(num * y)` and its exact remainder `num - d mh - d ml`.
fn digit(num: u32, y: u32, mh: u32, ml: u32) -> (u32, u32) {
    let d = fround(mul(num, y));
    let r = fmad(d, neg(mh), num);
    (d, fmad(d, neg(ml), r))
}

/// `fdiv(a, b)` computed by the steps of the core sequence (module comment); equal to
/// [`super::fdiv()`] for every pair of operands.
pub fn fdiv_steps(a: u32, b: u32) -> u32 {
    // The divisor: mb, y ~ 1/mb, mb = mh + ml.
    let mb = fmant_part(b);
    let mut y = fmad(mb, SEED_A, SEED_B);
    for _ in 0..2 {
        let t = fmad(mb, y, neg(ONE));
        y = fmad(neg(y), t, y);
    }
    let mh = fmad(fmad(mb, ONE, SPLIT), ONE, neg(SPLIT));
    let ml = fmad(mh, neg(ONE), mb);
    // The dividend, doubled below mb, and the two digits.
    let ma = fmant_part(a);
    let s = set(flt(ma, mb));
    let num1 = mul(fmad(ma, s, ma), NUM_SCALE);
    let (d1, r1) = digit(num1, y, mh, ml);
    let (d0, r0) = digit(mul(r1, SPLIT), y, mh, ml);
    // The truncated quotient and the rounding.
    let n = fmad(d1, SPLIT, d0);
    let c = set(flt(r0, 0));
    let n = fmad(c, neg(ONE), n);
    let r = fmad(c, mb, r0);
    let up = set(fgt(r, fmad(r, neg(ONE), mb)));
    // The exponent (the doubling test again: the sequence keeps no register for it).
    let s = set(flt(fmant_part(a), mb));
    let e = fmad(s, neg(ONE), fexp_part(a));
    let e = fmad(fexp_part(b), neg(ONE), e);
    let x = fmad(n, ONE, fmad(e, EXP_SCALE, EXP_BIAS));
    let q = fmax(mul(fmad(up, ONE, n), Q_SCALE), ONE);
    // The smallest normal, where the subnormal grid rounds up to it.
    let p = feq(x, N_MAX);
    let q = sel(p, ONE, q);
    let e = sel(p, E_MIN, e);
    // The sign of the quotient: the operands' sign bits differ.
    let p = fne(set(flt(isgn(a as i32), 0)), set(flt(isgn(b as i32), 0)));
    let q = sel(p, neg(q), q);
    mul(q, fexp2_floor(e))
}

/// The constants of [`fdiv_by_mersenne`] for `2^k - 1`: `fl(2^k / (2^k - 1))` and `2^-k`.
pub fn mersenne_constants(k: u32) -> [u32; 2] {
    let m = ((1u32 << k) - 1) as f32;
    let p = (1u32 << k) as f32;
    [
        super::fdiv(p.to_bits(), m.to_bits()),
        super::fdiv(ONE, p.to_bits()),
    ]
}

/// `fdiv(x, 2^k - 1)` for `x` an integer with `|x| <= 2^k` (as the unpack opcodes divide their
/// fields): with `Q = x 2^k / (2^k - 1) = x + Q 2^-k`, the estimate `Q0 = fl(x * fl(2^k/(2^k-1)))`
/// is within 2^-23 relative, so `fl(x + Q0 2^-k)` is the correctly rounded `Q` (checked for
/// every such `x` with `k` = 16, 8 and 7), and `Q 2^-k` is exact.
pub fn fdiv_by_mersenne(x: u32, k: u32) -> u32 {
    let [m, pk] = mersenne_constants(k);
    let q0 = mul(x, m);
    let q1 = fmad(q0, pk, x);
    mul(q1, pk)
}

/// `MOD` as the integer ALU's sequence computes it: magnitudes by `(x ^ s) - s` with `s = x >> 31` (so
/// `|i32::MIN|` is 2^31 as unsigned), then 32 restoring steps, each shifting the dividend's top bit into the
/// remainder (`r = 2r + bit`) and subtracting the divisor where it fits, which the sign of
/// `r - B` tells (`r < 2B <= 2^32`); the dividend's sign applied by `(r ^ s) - s`; `0xFFFFFFFF`
/// for a zero divisor. Equal to [`super::imod`] for every pair of operands.
pub fn imod_steps(a: u32, b: u32) -> u32 {
    let (mut x, d) = (iabs(a), iabs(b));
    let mut r = 0u32;
    for _ in 0..32 {
        let t = ishr(x, 31);
        x = iadd(x, x);
        r = isub(iadd(r, r), t);
        let t = isub(r, d);
        r = iadd(ishr(t, 31) & d, t);
    }
    let s = ishr(a, 31);
    let r = isub(r ^ s, s);
    if b == 0 {
        0xFFFF_FFFF
    } else {
        r
    }
}

/// Operands where the division sequence's cases meet (tests): zeros, subnormals, infinities,
/// NaN, and significands at the ends of their range at exponents around 1, the ends of the
/// range and where quotients leave it.
pub fn edge_operands() -> Vec<u32> {
    let mut v = vec![
        0,
        SIGN_BIT,
        1,
        0x8000_0001,
        0x007F_FFFF,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0000,
        0xFF80_0001,
        0x7F7F_FFFF,
        0x0080_0000,
    ];
    for e in [
        1u32, 2, 3, 63, 64, 125, 126, 127, 128, 129, 190, 252, 253, 254,
    ] {
        for f in [
            0, 1, 2, 0x7F_FFFF, 0x7F_FFFE, 0x40_0000, 0x3F_FFFF, 0x55_5555,
        ] {
            v.push(e << 23 | f);
            v.push(SIGN_BIT | e << 23 | f);
        }
    }
    v
}

/// A pair of division operands from `rng` for the tests of the sequences (pair `i` of a
/// series): random bits, close significands (quotients near 1 and 2),
/// results near the ends of the normal range, and quotients within 2^-24 of a rounding
/// boundary (`a ~ (N + 1/2) b` for random 24-bit `N` and `b`), where a digit or the rounding
/// going wrong would show.
pub fn operand_pair(rng: &mut XorShift, i: u32) -> (u32, u32) {
    let a = rng.next_u32();
    match i % 5 {
        0 => (a, rng.next_u32()),
        1 => (a, a ^ (rng.next_u32() & 0x807F_00FF)),
        2 => {
            let e = (rng.next_u32() % 5 + ((a >> 23) & 0xFF) + 123) & 0xFF;
            (a, (a & 0x807F_FFFF) | e << 23)
        }
        3 => {
            let mb = u64::from(rng.next_u32() >> 8 | 1 << 23);
            let n = u64::from(rng.next_u32() >> 8 | 1 << 23);
            let mut ma = ((2 * n + 1) * mb) >> 24;
            let mut e = (rng.next_u32() % 254) + 1;
            while ma >= 1 << 24 {
                ma >>= 1;
                e += 1;
            }
            let fa = (ma as f32).to_bits();
            let ea = (((fa >> 23) & 0xFF) + e) & 0xFF;
            let fb = (mb as f32).to_bits();
            (
                fa & 0x807F_FFFF | ea << 23 | (a & SIGN_BIT),
                fb ^ (rng.next_u32() & SIGN_BIT),
            )
        }
        _ => (
            a,
            (a & 0xFF80_0000) ^ 0x3F00_0000 | (rng.next_u32() & 0x7F_FFFF),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::{fdiv, imod};

    #[test]
    fn steps_equal_fdiv_on_edges() {
        let e = edge_operands();
        for &a in &e {
            for &b in &e {
                assert_eq!(fdiv_steps(a, b), fdiv(a, b), "{a:#010x} / {b:#010x}");
            }
        }
    }

    #[test]
    fn steps_equal_fdiv_on_random_operands() {
        let mut rng = XorShift::new(0xD1F);
        for i in 0..500_000 {
            let (a, b) = operand_pair(&mut rng, i);
            assert_eq!(fdiv_steps(a, b), fdiv(a, b), "{a:#010x} / {b:#010x}");
        }
    }

    /// A billion pairs of the same kinds (passes; about twenty minutes of one core in release,
    /// 2026-11-26: `cargo test --release -p microcode --lib div_steps -- --ignored`).
    #[test]
    #[ignore = "large sweep; run explicitly"]
    fn steps_equal_fdiv_on_a_billion_pairs() {
        let mut rng = XorShift::new(0xB1D);
        for i in 0..1_000_000_000 {
            let (a, b) = operand_pair(&mut rng, i);
            assert_eq!(fdiv_steps(a, b), fdiv(a, b), "{a:#010x} / {b:#010x}");
        }
    }

    /// Every significand as divisor against dividends with a few significands, and every
    /// significand as dividend against a few divisors, at exponents whose quotients are normal,
    /// at the bottom of the normal range (where 2^-126 is reached by rounding) and overflowing
    /// (passes; about five minutes in release, 2026-11-26:
    /// `cargo test --release -p microcode --lib div_steps -- --ignored`).
    #[test]
    #[ignore = "large sweep; run explicitly"]
    fn steps_equal_fdiv_for_every_significand() {
        let few = [0u32, 1, 0x40_0000, 0x2A_AAAB, 0x7F_FFFE, 0x7F_FFFF];
        // (dividend exponent, divisor exponent): quotient near 1, near 2^-126, near 2^127.
        let exponents = [
            (127u32, 127u32),
            (126, 253),
            (1, 127),
            (254, 127),
            (253, 126),
        ];
        for f in 0..1u32 << 23 {
            for &g in &few {
                for &(ea, eb) in &exponents {
                    let (a, b) = (ea << 23 | g, eb << 23 | f);
                    assert_eq!(fdiv_steps(a, b), fdiv(a, b), "{a:#010x} / {b:#010x}");
                    let (a, b) = (ea << 23 | f, SIGN_BIT | eb << 23 | g);
                    assert_eq!(fdiv_steps(a, b), fdiv(a, b), "{a:#010x} / {b:#010x}");
                }
            }
        }
    }

    #[test]
    fn the_smallest_normal_is_reached_exactly_where_fdiv_rounds_up_to_it() {
        // 2^-126 * (1 - 2^-24) lies exactly on the subnormal grid's midpoint: it rounds up.
        let a = 0x3F7F_FFFF; // 1 - 2^-24
        for b in [0x7E80_0000u32, 0x7E80_0001, 0x7E7F_FFFF, 0xFE80_0000] {
            assert_eq!(fdiv_steps(a, b), fdiv(a, b), "{a:#010x} / {b:#010x}");
        }
        assert_eq!(fdiv_steps(a, 0x7E80_0000), 0x0080_0000);
    }

    #[test]
    fn mersenne_divisions_are_exact_for_every_field() {
        for (k, range) in [(16, 0..=65535i32), (8, 0..=255), (7, -128..=127)] {
            let m = (((1u32 << k) - 1) as f32).to_bits();
            for n in range {
                let x = (n as f32).to_bits();
                assert_eq!(fdiv_by_mersenne(x, k), fdiv(x, m), "{n} / (2^{k} - 1)");
            }
        }
    }

    #[test]
    fn imod_steps_equal_imod() {
        let special = [
            0u32,
            1,
            2,
            3,
            7,
            0x7FFF_FFFF,
            0x8000_0000,
            0x8000_0001,
            0xFFFF_FFFF,
            0xFFFF_FFFE,
            0x4000_0000,
            0xC000_0000,
        ];
        for &a in &special {
            for &b in &special {
                assert_eq!(imod_steps(a, b), imod(a, b), "{a:#x} % {b:#x}");
            }
        }
        let mut rng = XorShift::new(0x40D);
        for i in 0..200_000 {
            let a = rng.next_u32();
            let b = match i % 3 {
                0 => rng.next_u32(),
                1 => rng.next_u32() >> (rng.next_u32() % 32),
                _ => (rng.next_u32() >> 20).wrapping_neg(),
            };
            assert_eq!(imod_steps(a, b), imod(a, b), "{a:#x} % {b:#x}");
        }
    }
}

//! Integer `/` and `%`: by constants (shifts, multiply-high reciprocals, exact inverses) and by
//! variables (MOD, a float estimate and one exact correction).

use super::{MAGIC, SIGN};
use crate::code::Src;
use crate::lower::Lower;
use microcode::tgsi::Opcode;

impl Lower<'_> {
    /// `a / b` (truncated toward zero; `a / 0 = a`, `i32::MIN / -1 = i32::MIN`).
    pub(super) fn idiv(&mut self, n: usize, a: Src, b: Src, signed: bool) -> Src {
        let konst = self.iconst(&b, n);
        if signed {
            if let Some(d) = konst.as_ref().filter(|d| d.iter().all(|&x| x != 0)) {
                if let Some(q) = self.sdiv_const(n, a, d) {
                    return q;
                }
                let r = self.ialu(Opcode::Mod, n, vec![a, b]);
                let m = self.isub(n, a, r);
                return self.exact_div_const(n, m, d);
            }
            let r = self.ialu(Opcode::Mod, n, vec![a, b]);
            let m = self.isub(n, a, r);
            let q = self.exact_div_var(n, m, b, true);
            return self.ialu(Opcode::Ucmp, n, vec![b, q, a]);
        }
        if let Some(d) = konst.as_ref().filter(|d| d.iter().all(|&x| x != 0)) {
            if d.iter().all(|x| x.is_power_of_two()) {
                let k: Vec<u32> = d.iter().map(|x| x.trailing_zeros()).collect();
                let k = self.iimm(&k);
                return self.lshr(n, a, k);
            }
            if let Some(q) = self.udiv_magic(n, a, d) {
                return q;
            }
        }
        let (q, _) = self.udivrem(n, a, b, konst.as_deref(), true);
        q
    }

    /// `a % b` (the sign of a; `a % 0 = 0`).
    pub(super) fn irem(&mut self, n: usize, a: Src, b: Src, signed: bool) -> Src {
        let konst = self.iconst(&b, n);
        let nonzero = konst.as_ref().is_some_and(|d| d.iter().all(|&x| x != 0));
        if signed {
            if let Some(d) = konst.as_ref().filter(|_| nonzero) {
                let k = d[0].trailing_zeros();
                if d.iter().all(|&x| (x as i32).unsigned_abs() == 1 << k) {
                    // a - (a / 2^k) 2^k: ((a + bias) & (2^k - 1)) - bias.
                    let bias = self.pow2_bias(n, a, k);
                    let t = self.iadd(n, a, bias);
                    let mask = self.iimm(&[(1u32 << k).wrapping_sub(1)]);
                    let t = self.ialu(Opcode::And, n, vec![t, mask]);
                    return self.isub(n, t, bias);
                }
            }
            let r = self.ialu(Opcode::Mod, n, vec![a, b]);
            if nonzero {
                return r;
            }
            let z = self.iimm(&[0]);
            return self.ialu(Opcode::Ucmp, n, vec![b, r, z]);
        }
        if let Some(d) = konst.as_ref().filter(|_| nonzero) {
            if d.iter().all(|x| x.is_power_of_two()) {
                let m: Vec<u32> = d.iter().map(|x| x - 1).collect();
                let m = self.iimm(&m);
                return self.ialu(Opcode::And, n, vec![a, m]);
            }
        }
        let (_, r) = self.udivrem(n, a, b, konst.as_deref(), false);
        r
    }

    /// `2^k - 1` where a is negative, else 0: what makes an arithmetic shift by k truncate toward
    /// zero.
    pub(super) fn pow2_bias(&mut self, n: usize, a: Src, k: u32) -> Src {
        let k31 = self.iimm(&[31]);
        let s = self.ialu(Opcode::Shr, n, vec![a, k31]);
        if k == 31 {
            return self.lshr_const(n, s, 1);
        }
        let mask = self.iimm(&[(1u32 << k).wrapping_sub(1)]);
        self.ialu(Opcode::And, n, vec![s, mask])
    }

    /// `i32` quotient by nonzero constants: powers of two (in magnitude) by shifts, others by
    /// IMUL_HI with the Hacker's Delight reciprocal; None when the components need different
    /// sequences.
    pub(super) fn sdiv_const(&mut self, n: usize, a: Src, d: &[u32]) -> Option<Src> {
        let mags: Vec<u32> = d.iter().map(|&x| (x as i32).unsigned_abs()).collect();
        let negative = (d[0] as i32) < 0;
        if d.iter().any(|&x| ((x as i32) < 0) != negative) {
            return None;
        }
        let q = if mags.iter().all(|&m| m == mags[0] && m.is_power_of_two()) {
            let k = mags[0].trailing_zeros();
            if k == 0 {
                a
            } else {
                let bias = self.pow2_bias(n, a, k);
                let t = self.iadd(n, a, bias);
                let amount = self.iimm(&[k]);
                self.ialu(Opcode::Shr, n, vec![t, amount])
            }
        } else {
            if mags.iter().any(|m| m.is_power_of_two()) {
                return None;
            }
            let magics: Vec<(u32, u32)> = mags.iter().map(|&m| magic_i32(m)).collect();
            let s0 = magics[0].1;
            // The reciprocal of |d| has its top bit set (an add of a) alike in all components.
            let add = (magics[0].0 as i32) < 0;
            if magics
                .iter()
                .any(|&(m, s)| s != s0 || ((m as i32) < 0) != add)
            {
                return None;
            }
            let mult: Vec<u32> = magics.iter().map(|m| m.0).collect();
            let mult = self.iimm(&mult);
            let mut t = self.ialu(Opcode::ImulHi, n, vec![a, mult]);
            if add {
                t = self.iadd(n, t, a);
            }
            if s0 != 0 {
                let amount = self.iimm(&[s0]);
                t = self.ialu(Opcode::Shr, n, vec![t, amount]);
            }
            // Round toward zero: add 1 where the floor is negative.
            let k31 = self.iimm(&[31]);
            let sgn = self.ialu(Opcode::Shr, n, vec![t, k31]);
            self.isub(n, t, sgn)
        };
        Some(if negative {
            let z = self.iimm(&[0]);
            self.isub(n, z, q)
        } else {
            q
        })
    }

    /// `m / d` for an exact multiple m of the nonzero constants d: an arithmetic shift by d's
    /// trailing zeros, then a multiplication by the inverse of the odd part modulo 2^32.
    pub(super) fn exact_div_const(&mut self, n: usize, m: Src, d: &[u32]) -> Src {
        let k: Vec<u32> = d.iter().map(|x| x.trailing_zeros()).collect();
        let odd: Vec<u32> = d
            .iter()
            .zip(&k)
            .map(|(&x, &k)| ((x as i32) >> k) as u32)
            .collect();
        let mut t = m;
        if k.iter().any(|&k| k != 0) {
            let amounts = self.iimm(&k);
            t = self.shift(Opcode::Shr, n, t, amounts);
        }
        if odd.iter().all(|&x| x == 1) {
            return t;
        }
        if odd.iter().all(|&x| x == u32::MAX) {
            let z = self.iimm(&[0]);
            return self.isub(n, z, t);
        }
        let inv: Vec<u32> = odd.iter().map(|&x| inverse_mod_2_32(x)).collect();
        let inv = self.iimm(&inv);
        self.ialu(Opcode::Umul, n, vec![t, inv])
    }

    /// `m / b` for an exact multiple m of b (b nonzero where the result is used): the float
    /// estimate q1 = trunc(m * RCP(b)) (within 513 of the quotient, exactly it or one off when
    /// |b| >= 2^15), then the exact error e = m - q1 * b, a small multiple of b whose quotient a MAD
    /// rounds to an integer (through MAGIC). `nonneg`: m >= 0 and b > 0 (no signs to handle).
    pub(super) fn exact_div_var(&mut self, n: usize, m: Src, b: Src, signed: bool) -> Src {
        let fm = self.i2f(n, m);
        let fb = self.i2f(n, b);
        let rb = self.per_comp(Opcode::Rcp, n, &[fb]).src();
        let e0 = self.falu(Opcode::Mul, n, vec![fm, rb]);
        let q1 = if signed {
            let u = self.ialu(
                Opcode::F2u,
                n,
                vec![Src {
                    abs: true,
                    neg: false,
                    ..e0
                }],
            );
            let k31 = self.iimm(&[31]);
            let s = self.ialu(Opcode::Shr, n, vec![e0, k31]);
            self.cond_negate(n, u, s)
        } else {
            self.ialu(Opcode::F2u, n, vec![e0])
        };
        let p = self.ialu(Opcode::Umul, n, vec![q1, b]);
        let e = self.isub(n, m, p);
        let fe = self.i2f(n, e);
        let magic = self.imm_s(MAGIC);
        let kb = self.falu(Opcode::Mad, n, vec![fe, rb, magic]);
        let unmagic = self.iimm(&[MAGIC.to_bits().wrapping_neg()]);
        let k = self.iadd(n, kb, unmagic);
        self.iadd(n, q1, k)
    }

    /// `u32` quotient by constants that are neither 0 nor powers of two: UMUL_HI by the
    /// Granlund-Montgomery reciprocal and a shift (with the add step where 32 bits are too few).
    pub(super) fn udiv_magic(&mut self, n: usize, a: Src, d: &[u32]) -> Option<Src> {
        let magics: Vec<(u32, u32, bool)> = d.iter().map(|&x| magic_u32(x)).collect();
        // One shape for all components (a vector by one constant, the usual case).
        let (_, s0, add0) = magics[0];
        if magics.iter().any(|&(_, s, add)| s != s0 || add != add0) {
            return None;
        }
        let mult: Vec<u32> = magics.iter().map(|m| m.0).collect();
        let mult = self.iimm(&mult);
        let t = self.ialu(Opcode::UmulHi, n, vec![a, mult]);
        Some(if add0 {
            let diff = self.isub(n, a, t);
            let half = self.lshr_const(n, diff, 1);
            let sum = self.iadd(n, t, half);
            self.lshr_const(n, sum, s0 - 1)
        } else {
            self.lshr_const(n, t, s0)
        })
    }

    /// `u32` quotient and remainder (`want_q` picks which one is built) by b (constants in
    /// `konst`). For b below 2^31: MOD of `a >> 1` (below 2^31, which MOD takes), one restoring
    /// step for the last bit, and the exact division of `(a >> 1) - r1`; for b from 2^31 up the
    /// quotient is `a >= b`. `a / 0 = a`, `a % 0 = 0`.
    pub(super) fn udivrem(
        &mut self,
        n: usize,
        a: Src,
        b: Src,
        konst: Option<&[u32]>,
        want_q: bool,
    ) -> (Src, Src) {
        let all = |f: &dyn Fn(u32) -> bool| konst.is_some_and(|d| d.iter().all(|&x| f(x)));
        let low_only = all(&|x| x != 0 && x < SIGN);
        let high_only = all(&|x| x >= SIGN);
        let k31 = self.iimm(&[31]);
        let one = self.iimm(&[1]);
        // Divisors below 2^31.
        let low = if high_only {
            None
        } else {
            let a1 = self.lshr_const(n, a, 1);
            let r1 = self.ialu(Opcode::Mod, n, vec![a1, b]);
            let r2 = self.ialu(Opcode::Shl, n, vec![r1, one]);
            let bit = self.ialu(Opcode::And, n, vec![a, one]);
            let rr = self.ialu(Opcode::Or, n, vec![r2, bit]);
            // rr < 2b: rr - b fits int32; m is all ones where rr < b.
            let t = self.isub(n, rr, b);
            let m = self.ialu(Opcode::Shr, n, vec![t, k31]);
            if want_q {
                let x = self.isub(n, a1, r1);
                let q1 = match konst.filter(|_| low_only) {
                    Some(d) => self.exact_div_const(n, x, d),
                    None => self.exact_div_var(n, x, b, false),
                };
                let q2 = self.ialu(Opcode::Shl, n, vec![q1, one]);
                let inc = self.iadd(n, m, one);
                Some(self.iadd(n, q2, inc))
            } else {
                let bm = self.ialu(Opcode::And, n, vec![b, m]);
                Some(self.iadd(n, t, bm))
            }
        };
        // Divisors from 2^31 up: a >= b needs a's top bit and a - b >= 0 (both fit then).
        let high = if low_only {
            None
        } else {
            let t = self.isub(n, a, b);
            let nt = self.ialu(Opcode::Not, n, vec![t]);
            let w = self.ialu(Opcode::And, n, vec![a, nt]);
            let ge = self.ialu(Opcode::Shr, n, vec![w, k31]);
            if want_q {
                Some(self.ialu(Opcode::And, n, vec![ge, one]))
            } else {
                let bm = self.ialu(Opcode::And, n, vec![b, ge]);
                Some(self.isub(n, a, bm))
            }
        };
        let r = match (low, high) {
            (Some(l), Some(h)) => {
                let top = self.ialu(Opcode::Shr, n, vec![b, k31]);
                self.ialu(Opcode::Ucmp, n, vec![top, h, l])
            }
            (Some(l), None) => l,
            (None, Some(h)) => h,
            (None, None) => unreachable!("one of the cases applies"),
        };
        if konst.is_some_and(|d| d.iter().all(|&x| x != 0)) {
            return (r, r);
        }
        let zero_case = if want_q { a } else { self.iimm(&[0]) };
        let r = self.ialu(Opcode::Ucmp, n, vec![b, r, zero_case]);
        (r, r)
    }
}

/// The inverse of an odd number modulo 2^32 (Newton's iteration doubles the correct low bits:
/// x = d is right to 3 bits, five steps reach 96).
pub(crate) fn inverse_mod_2_32(d: u32) -> u32 {
    let mut x = d;
    for _ in 0..5 {
        x = x.wrapping_mul(2u32.wrapping_sub(d.wrapping_mul(x)));
    }
    x
}

/// The reciprocal for `u32` division by d (2 <= d, not a power of two): (m, s, false) when
/// `UMUL_HI(a, m) >> s` is the quotient for every a (Granlund and Montgomery: m = ceil(2^(32+s)
/// / d) below 2^32 with m d - 2^(32+s) <= 2^s), else (m, l, true) for
/// `(t + ((a - t) >> 1)) >> (l - 1)` with t = UMUL_HI(a, m), l = ceil(log2 d) and
/// m = floor(2^32 (2^l - d) / d) + 1.
pub(crate) fn magic_u32(d: u32) -> (u32, u32, bool) {
    let d128 = u128::from(d);
    for s in 0..32u32 {
        let p = 1u128 << (32 + s);
        let m = p.div_ceil(d128);
        if m < 1 << 32 && m * d128 - p <= 1u128 << s {
            return (m as u32, s, false);
        }
    }
    let l = 32 - (d - 1).leading_zeros();
    let m = ((1u128 << 32) * ((1u128 << l) - d128)) / d128 + 1;
    (m as u32, l, true)
}

/// The reciprocal for `i32` division by a positive d (3 <= d < 2^31, not a power of two): (m, s)
/// with `q = ((IMUL_HI(a, m) [+ a when m's top bit is set]) >> s) + (1 where negative)` (Hacker's
/// Delight, figure 10-1, for a positive divisor).
pub(crate) fn magic_i32(d: u32) -> (u32, u32) {
    let two31 = SIGN;
    let anc = two31 - 1 - two31 % d;
    let mut p = 31u32;
    let (mut q1, mut r1) = (two31 / anc, two31 - (two31 / anc) * anc);
    let (mut q2, mut r2) = (two31 / d, two31 - (two31 / d) * d);
    loop {
        p += 1;
        q1 = q1.wrapping_mul(2);
        r1 = r1.wrapping_mul(2);
        if r1 >= anc {
            q1 = q1.wrapping_add(1);
            r1 = r1.wrapping_sub(anc);
        }
        q2 = q2.wrapping_mul(2);
        r2 = r2.wrapping_mul(2);
        if r2 >= d {
            q2 = q2.wrapping_add(1);
            r2 = r2.wrapping_sub(d);
        }
        let delta = d - r2;
        if !(q1 < delta || (q1 == delta && r1 == 0)) {
            break;
        }
    }
    (q2.wrapping_add(1), p - 32)
}

#[cfg(test)]
mod tests {
    use super::*;

    use microcode::rng::XorShift;

    #[test]
    fn inverses_are_inverses() {
        let mut rng = XorShift::new(1);
        for _ in 0..10_000 {
            let d = rng.next_u32() | 1;
            assert_eq!(d.wrapping_mul(inverse_mod_2_32(d)), 1, "{d}");
        }
    }

    #[test]
    fn signed_reciprocals_divide_exactly() {
        let mut rng = XorShift::new(11);
        let mut divisors: Vec<u32> = (3..3000).filter(|d: &u32| !d.is_power_of_two()).collect();
        divisors.extend([7, 641, 0x7FFF_FFFF, 0x7FFF_FFFE, 0x4000_0001, 6_700_417]);
        for _ in 0..2000 {
            let d = (rng.next_u32() >> 1) >> (rng.next_u32() % 30);
            if d > 2 && !d.is_power_of_two() {
                divisors.push(d);
            }
        }
        for d in divisors {
            let (m, s) = magic_i32(d);
            let div = |a: i32| {
                let mut t = ((i64::from(a) * i64::from(m as i32)) >> 32) as i32;
                if (m as i32) < 0 {
                    t = t.wrapping_add(a);
                }
                t >>= s;
                t - (t >> 31)
            };
            let di = d as i32;
            let mut values = vec![
                0,
                1,
                -1,
                di,
                -di,
                di - 1,
                di.wrapping_add(1),
                1 - di,
                i32::MIN,
                i32::MAX,
            ];
            values.extend([
                i32::MIN + 1,
                i32::MAX - 1,
                (i32::MAX / di) * di,
                (i32::MIN / di) * di,
            ]);
            for _ in 0..200 {
                values.push(rng.next_u32() as i32);
            }
            for a in values {
                assert_eq!(div(a), a / di, "{a} / {d} with {m:#x}, {s}");
                assert_eq!(div(a).wrapping_neg(), a / -di, "{a} / -{d}");
            }
        }
    }

    /// The reciprocals divide exactly, against Rust, over edge and random dividends.
    #[test]
    fn magic_reciprocals_divide_exactly() {
        let mut rng = XorShift::new(7);
        let mut divisors: Vec<u32> = (3..2000).filter(|d: &u32| !d.is_power_of_two()).collect();
        divisors.extend([
            7,
            641,
            6_700_417,
            0x7FFF_FFFF,
            0x8000_0001,
            u32::MAX,
            0xFFFF_FFFE,
        ]);
        for _ in 0..2000 {
            let d = rng.next_u32() >> (rng.next_u32() % 31);
            if d > 2 && !d.is_power_of_two() {
                divisors.push(d);
            }
        }
        for d in divisors {
            let (m, s, add) = magic_u32(d);
            let div = |a: u32| {
                let t = ((u64::from(a) * u64::from(m)) >> 32) as u32;
                if add {
                    (t + ((a - t) >> 1)) >> (s - 1)
                } else {
                    t >> s
                }
            };
            let mut values = vec![
                0,
                1,
                d - 1,
                d,
                d.wrapping_add(1),
                u32::MAX,
                u32::MAX - 1,
                SIGN,
                SIGN - 1,
            ];
            let q_max = u32::MAX / d;
            values.extend([q_max * d, q_max * d - 1, (q_max * d).wrapping_sub(1)]);
            for _ in 0..200 {
                values.push(rng.next_u32());
            }
            for a in values {
                assert_eq!(div(a), a / d, "{a} / {d} with {m:#x}, {s}, {add}");
            }
        }
    }
}

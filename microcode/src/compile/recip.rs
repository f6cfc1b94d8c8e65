//! RCP on a core without the divider: a correctly rounded reciprocal from multiply-adds,
//! floors, compares and selects, the operations every build has.
//!
//! Why it is exact: the quotient is found as an integer long division carried out in floats,
//! where every value stays an integer below 2^24 (or such an integer times a power of two), so
//! no multiply-add rounds where it matters. With `mb` the significand of `|x|` in `[1, 2)`
//! (`MANT`) and `Mb = mb * 2^23` (an integer in `[2^23, 2^24)`), `1/mb` for `mb > 1` is
//! `2 * 2^23 / Mb` in `(1, 2)`, whose 24-bit truncation is `N = floor(2^47 / Mb)`; it is taken in
//! two 12-bit digits `D1 = floor(2^35 / Mb)` and `D0 = floor(R1 * 2^12 / Mb)`:
//! - `Mb` splits into `Mh` (its top 12 bits) and `Ml < 2^12`, so that `D * Mh` and `D * Ml`
//!   (12-bit digits) are exact products, and `2^35 - D1 * Mh` is a multiple of 2^12 below
//!   2^26: the remainders `R1 = 2^35 - D1 * Mb` and `R0 = R1 * 2^12 - D0 * Mb` come out exact;
//! - each digit is estimated with `y ~ 1/mb` (a linear seed and two Newton steps, relative error
//!   below 2^-16, so the estimate is off by at most one), then corrected by the sign of its
//!   remainder (`R < 0`, `R >= Mb`) and the remainder computed again from the corrected digit;
//! - `N` rounds up when `2 * R0 > Mb` (a quotient is never exactly half-way);
//! - the result is `N * 2^-23 * 2^(-E - 1)` with `E` the exponent of `x` (`EXPN`), exact in the
//!   normal range; below it the contract flushes, except where rounding on the subnormal grid
//!   reaches the smallest normal (`E = 126` with `N = 2^24 - 1`), which is selected directly;
//! - powers of two (`mb = 1`) are `2^-E`; zeros, infinities and NaN are selected at the end, and
//!   the sign of `x` (its bit, from `ISGN`) multiplies the magnitude.
//!
//! The sequence is 61 instructions on three scratch registers (16 clocks each: 976 clocks,
//! where the divider takes 256 for a vec4); `sim/tests/recip_sequence.rs` compares it with
//! `arith::frcp` bit for bit.

use super::operand::{ONE, TWO, ZERO};
use super::trans::{at, neg, Last};
use super::{CompileError, Ctx};
use crate::core::isa::{Cond, Instr, Op, Operand};

const X: u8 = 0b0001;
const Y: u8 = 0b0010;
const Z: u8 = 0b0100;
const W: u8 = 0b1000;

/// `2^k` as binary32 bits (normal range).
const fn pow2(k: i32) -> u32 {
    ((127 + k) as u32) << 23
}

/// Scratch registers the sequence takes.
pub(crate) const RCP_SCRATCH: usize = 3;

fn abs(o: Operand) -> Operand {
    Operand { abs: true, ..o }
}

/// One component of a scratch register.
#[derive(Clone, Copy)]
struct Slot {
    reg: u8,
    comp: usize,
}

impl Slot {
    fn read(self) -> Operand {
        at(self.reg, self.comp)
    }

    fn mask(self) -> u8 {
        1 << self.comp
    }
}

impl Ctx<'_> {
    /// Whether RCP is the multiply-add sequence here: the build has no divider and the program
    /// leaves the sequence its scratch registers (otherwise it stays the divider's RCP, which
    /// such a build faults on, as before).
    pub(crate) fn rcp_is_a_sequence(&self) -> bool {
        !self.config.has(crate::core::config::Features::DIVIDER) && self.scratch_fits(RCP_SCRATCH)
    }

    /// The scratch registers of the sequence when RCP is one ([`Self::rcp_is_a_sequence`]);
    /// several reciprocals of one TGSI instruction share them.
    pub(crate) fn rcp_scratch(&mut self) -> Option<[u8; RCP_SCRATCH]> {
        self.rcp_is_a_sequence()
            .then(|| [self.scratch(), self.scratch(), self.scratch()])
    }

    /// RCP of the scalar `x` into components `mask` of register `dst`: the sequence on
    /// `scratch` ([`Self::rcp_scratch`]), or the divider's RCP.
    pub(crate) fn rcp_into(
        &mut self,
        dst: u8,
        mask: u8,
        x: Operand,
        scratch: Option<[u8; RCP_SCRATCH]>,
    ) -> Result<(), CompileError> {
        match scratch {
            Some(regs) => {
                let (op, s) = self.rcp_without_divider(x, regs)?;
                self.op(op, dst, mask, &s);
            }
            None => {
                self.op(Op::Rcp, dst, mask, &[x]);
            }
        }
        Ok(())
    }

    /// `SET`/`SETP` with a condition.
    fn compare(&mut self, op: Op, cond: Cond, dst: u8, mask: u8, a: Operand, b: Operand) {
        let mut i = Instr::new(op);
        i.cond = cond;
        i.dst = dst;
        i.wmask = mask;
        i.src[0] = a;
        i.src[1] = b;
        self.emit(i);
    }

    /// The correctly rounded reciprocal of the scalar operand `x` without the divider on the
    /// scratch registers `[t, u, v]`, up to its last instruction (a multiply of the magnitude by
    /// the sign), which the caller writes.
    pub(crate) fn rcp_without_divider(
        &mut self,
        x: Operand,
        [t, u, v]: [u8; RCP_SCRATCH],
    ) -> Result<Last, CompileError> {
        let one = self.lit(ONE, false)?;
        let minus_one = self.lit(ONE, true)?;
        let zero = self.lit(ZERO, false)?;
        let mzero = self.lit(ZERO, true)?;
        let two = self.lit(TWO, false)?;
        let ka = [
            (-8.0f32 / 17.0).to_bits(),
            (24.0f32 / 17.0).to_bits(),
            pow2(23),
            pow2(-11),
        ];
        let kb = [pow2(12), pow2(35), pow2(-23), 0x4B7F_FFFF];
        let kc = [0x7F80_0000, pow2(-126), 0x42FE_0000, pow2(11)];
        let (seed_a, seed_b, p23, pm11) = (
            self.seq_k(ka, 0),
            self.seq_k(ka, 1),
            self.seq_k(ka, 2),
            self.seq_k(ka, 3),
        );
        let (p12, p35, pm23, n_max) = (
            self.seq_k(kb, 0),
            self.seq_k(kb, 1),
            self.seq_k(kb, 2),
            self.seq_k(kb, 3),
        );
        let (inf, min_normal, e127, p11) = (
            self.seq_k(kc, 0),
            self.seq_k(kc, 1),
            self.seq_k(kc, 2),
            self.seq_k(kc, 3),
        );
        let (mb, e, y, tw) = (at(t, 0), at(t, 1), at(t, 2), at(t, 3));
        let (mh, ml, d1, r) = (at(u, 0), at(u, 1), at(u, 2), at(u, 3));
        let (vx, vy, vz, vw) = (at(v, 0), at(v, 1), at(v, 2), at(v, 3));

        // mb, the exponent, and y ~ 1/mb (seed 24/17 - 8/17 mb, two Newton steps).
        self.op(Op::Mant, t, X, &[x]);
        self.op(Op::Expn, t, Y, &[x]);
        self.op(Op::Fmad, t, Z, &[mb, seed_a, seed_b]);
        for _ in 0..2 {
            self.op(Op::Fmad, t, W, &[mb, y, minus_one]);
            self.op(Op::Fmad, t, Z, &[neg(y), tw, y]);
        }
        // Mb (in t.w from here), Mh = floor(mb 2^11) 2^12, Ml = Mb - Mh.
        let big_m = tw;
        self.mul(t, W, mb, p23)?;
        self.mul(u, X, mb, p11)?;
        self.op(Op::Flr, u, X, &[mh]);
        self.mul(u, X, mh, p12)?;
        self.op(Op::Fmad, u, Y, &[mh, minus_one, big_m]);

        // The first digit (u.z) of 2^35, its remainder R1 in u.w.
        let slot = |reg, comp| Slot { reg, comp };
        let split = (mh, ml, big_m);
        self.mul(u, Z, y, p12)?;
        self.op(Op::Flr, u, Z, &[d1]);
        self.digit(slot(u, 2), slot(u, 3), p35, slot(v, 0), split)?;
        // The second digit (v.y) of R1 2^12 (v.z), its remainder R0 in v.w.
        self.mul(v, X, y, pm11)?;
        self.mul(v, Y, r, vx)?;
        self.op(Op::Flr, v, Y, &[vy]);
        self.mul(v, Z, r, p12)?;
        self.digit(slot(v, 1), slot(v, 3), vz, slot(v, 0), split)?;

        // Round to nearest: up when 2 R0 - Mb > 0; N = D1 2^12 + D0 (u.z), m = (N + up) 2^-23.
        self.op(Op::Fmad, v, W, &[vw, two, neg(big_m)]);
        self.compare(Op::Set, Cond::Gt, v, W, vw, zero);
        self.op(Op::Fmad, u, Z, &[d1, p12, vy]);
        self.op(Op::Fmad, v, W, &[vw, one, d1]);
        self.mul(v, W, vw, pm23)?;

        // Scale by 2^E, E = -e - 1 (in t.y from here): exact in the normal range, 0 below it.
        self.op(Op::Fmad, t, Y, &[e, minus_one, minus_one]);
        self.op(Op::Expx, v, X, &[e]);
        self.mul(v, W, vw, vx)?;
        // The smallest normal where the subnormal grid rounds up to it: E = -127, N = 2^24 - 1.
        self.op(Op::Fmad, v, X, &[e, one, e127]);
        self.op(Op::Fmad, v, Y, &[d1, one, neg(n_max)]);
        self.op(Op::Fmad, v, X, &[abs(vx), one, abs(vy)]);
        self.compare(Op::Setp, Cond::Eq, v, W, vx, zero);
        self.op(Op::Sel, v, W, &[min_normal, vw]);
        // Powers of two: 2^-e = 2^(E + 1).
        self.compare(Op::Setp, Cond::Eq, v, W, mb, one);
        self.op(Op::Fmad, v, X, &[e, one, one]);
        self.op(Op::Expx, v, X, &[vx]);
        self.op(Op::Sel, v, W, &[vx, vw]);
        // Zero, infinity, NaN.
        self.compare(Op::Setp, Cond::Eq, v, W, x, zero);
        self.op(Op::Sel, v, W, &[inf, vw]);
        self.compare(Op::Setp, Cond::Eq, v, W, abs(x), inf);
        self.op(Op::Sel, v, W, &[zero, vw]);
        self.compare(Op::Setp, Cond::Ne, v, W, x, x);
        self.op(Op::Sel, v, W, &[x, vw]);
        // The sign of x (its bit, so -0 too): 1 - 2 (isgn(x) < 0).
        self.op(Op::Isgn, v, X, &[x]);
        self.compare(Op::Set, Cond::Lt, v, X, vx, zero);
        let minus_two = self.lit(TWO, true)?;
        self.op(Op::Fmad, v, X, &[vx, minus_two, one]);
        Ok((Op::Fmad, [vw, vx, mzero]))
    }

    /// Corrects the digit estimate in `d` (off by at most one) by the sign of its remainder
    /// `num - d Mb` and leaves the exact remainder of the corrected digit in `r`; `tmp` is free.
    fn digit(
        &mut self,
        d: Slot,
        r: Slot,
        num: Operand,
        tmp: Slot,
        (mh, ml, big_m): (Operand, Operand, Operand),
    ) -> Result<(), CompileError> {
        let one = self.lit(ONE, false)?;
        let minus_one = self.lit(ONE, true)?;
        let zero = self.lit(ZERO, false)?;
        let remainder = |c: &mut Self| {
            // (num - d Mh) - d Ml: exact for the right digit, and exact where it decides
            // (the sign, and >= Mb) for one off by one.
            c.op(Op::Fmad, tmp.reg, tmp.mask(), &[d.read(), neg(mh), num]);
            c.op(Op::Fmad, r.reg, r.mask(), &[d.read(), neg(ml), tmp.read()]);
        };
        remainder(self);
        self.compare(Op::Set, Cond::Lt, tmp.reg, tmp.mask(), r.read(), zero);
        self.op(
            Op::Fmad,
            d.reg,
            d.mask(),
            &[tmp.read(), minus_one, d.read()],
        );
        self.compare(Op::Set, Cond::Ge, tmp.reg, tmp.mask(), r.read(), big_m);
        self.op(Op::Fmad, d.reg, d.mask(), &[tmp.read(), one, d.read()]);
        remainder(self);
        Ok(())
    }
}

//! The transcendental functions as core instruction sequences.
//!
//! RSQ, EX2, LG2, SIN, COS and POW have no unit of their own: each is the sequence of
//! `arith::transcendental` written out as core instructions, one per step: multiply-adds
//! (`fmul(a, b)` is `FMAD a, b, -0`, `fadd(a, b)` is `FMAD a, 1, b` or a product's addend),
//! conversions, `MIN`/`MAX`, and the `Trans` unit's bit operations
//! (`arith::transcendental::steps`). Every step rounds exactly as the function does, so the core
//! computes the bits of `frsq`, `fex2`, `flg2`, `fsin`, `fcos` and `fpow`
//! (`sim/tests/transcendental_sequences.rs` checks it on the core model, and the hardware
//! cross-check runs the same instructions).
//!
//! Each sequence works on one component of one or two scratch registers and ends with a bit
//! operation, which the caller writes to its destination (with the destination's modifiers).
//! Lengths (16 clocks each): RSQ 14, EX2 10, LG2 25, SIN or COS 22, POW 36 (a step that reads
//! two constants is two instructions, the constant rule of `isa::Instr::breaks_constant_rule`).

use super::operand::splat;
use super::{CompileError, Ctx};
use crate::arith::bits::ONE;
use crate::arith::tables::{
    COS_P, EX2_C1, EX2_C2, LG2_Q, PIO2_1, PIO2_2, PIO2_3, RSQ_P, SIN_P, TWO_OVER_PI,
};
use crate::arith::transcendental::steps::{F256, F2M16, F2M32, F2M8, NEG_2M8, RSQ_SEED_SCALE};
use crate::core::isa::{Op, Operand, SrcFile};

/// A transcendental function the compiler expands into a sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Trans {
    Rsq,
    Ex2,
    Lg2,
    Sin,
    Cos,
    Pow,
}

/// The compiler constants of the sequences, four to a K slot (a slot is added to the image only
/// when a sequence reads it).
const K_RSQ: [u32; 4] = RSQ_P;
const K_SCALE: [u32; 4] = [RSQ_SEED_SCALE, F2M32, F2M8, F2M16];
const K_EX2: [u32; 4] = [F256, NEG_2M8, EX2_C1, EX2_C2];
const K_LG2_LOW: [u32; 4] = [LG2_Q[0], LG2_Q[1], LG2_Q[2], LG2_Q[3]];
const K_LG2_HIGH: [u32; 4] = [LG2_Q[4], LG2_Q[5], TWO_OVER_PI, PIO2_1];
const K_PI: [u32; 4] = [PIO2_2, PIO2_3, 0, 0];

/// The last instruction of a sequence: its operation and sources.
pub(crate) type Last = (Op, [Operand; 3]);

const X: u8 = 0b0001;
const Y: u8 = 0b0010;
const Z: u8 = 0b0100;
const W: u8 = 0b1000;

/// Component `c` of register `r` as a scalar operand.
pub(super) fn at(r: u8, c: usize) -> Operand {
    splat(Ctx::reg(r), c)
}

pub(super) fn neg(o: Operand) -> Operand {
    Operand {
        neg: o.neg ^ 0xF,
        ..o
    }
}

impl Ctx<'_> {
    /// Component `c` of a compiler-constant K slot holding `v`.
    pub(super) fn seq_k(&mut self, v: [u32; 4], c: u8) -> Operand {
        Operand {
            file: SrcFile::K,
            index: self.alloc.data(v),
            swz: [c; 4],
            neg: 0,
            abs: false,
        }
    }

    /// `fmul(a, b)` as a multiply-add.
    pub(super) fn mul(
        &mut self,
        dst: u8,
        mask: u8,
        a: Operand,
        b: Operand,
    ) -> Result<(), CompileError> {
        let mzero = self.lit(0, true)?;
        self.op(Op::Fmad, dst, mask, &[a, b, mzero]);
        Ok(())
    }

    /// Emits the sequence of `f` on the scalar operands `x` (and `y`, POW's exponent) up to its
    /// last instruction, which it returns for the caller to write.
    pub(crate) fn trans(&mut self, f: Trans, x: Operand, y: Operand) -> Result<Last, CompileError> {
        Ok(match f {
            Trans::Rsq => self.rsq(x)?,
            Trans::Ex2 => self.ex2(x)?,
            Trans::Lg2 => self.lg2(x)?.0,
            Trans::Sin | Trans::Cos => self.sin_cos(x, f == Trans::Cos)?,
            Trans::Pow => {
                // fex2(fmul(y, flg2(x))), the logarithm's register reused for the product.
                let ((op, s), t) = self.lg2(x)?;
                self.op(op, t, X, &s);
                self.mul(t, X, y, at(t, 0))?;
                self.ex2(at(t, 0))?
            }
        })
    }

    fn rsq(&mut self, x: Operand) -> Result<Last, CompileError> {
        let t = self.scratch();
        let one = self.lit(ONE, false)?;
        let minus_one = self.lit(ONE, true)?;
        let scale = self.seq_k(K_SCALE, 0);
        let p: Vec<Operand> = (0..4).map(|c| self.seq_k(K_RSQ, c)).collect();
        let (xr, y0, e, h) = (at(t, 0), at(t, 1), at(t, 2), at(t, 3));
        self.op(Op::Rsqr, t, X, &[x]);
        self.op(Op::Rsqt, t, Y, &[x]);
        self.op(Op::U2f, t, Y, &[y0]);
        self.mul(t, Y, y0, scale)?;
        self.mul(t, Z, y0, y0)?;
        self.mul(t, Z, xr, e)?;
        self.op(Op::Fmad, t, Z, &[e, minus_one, one]);
        self.op(Op::Fmad, t, W, &[p[0], e, p[1]]);
        self.op(Op::Fmad, t, W, &[h, e, p[2]]);
        self.op(Op::Fmad, t, W, &[h, e, p[3]]);
        self.mul(t, W, h, e)?;
        self.op(Op::Fmad, t, X, &[y0, h, y0]);
        Ok((Op::Rsqf, [x, at(t, 0), Operand::default()]))
    }

    fn ex2(&mut self, x: Operand) -> Result<Last, CompileError> {
        let t = self.scratch();
        let k: Vec<Operand> = (0..4).map(|c| self.seq_k(K_EX2, c)).collect();
        let (kk, r, q, tab) = (at(t, 0), at(t, 1), at(t, 2), at(t, 3));
        self.mul(t, X, x, k[0])?;
        self.op(Op::F2ir, t, X, &[kk]);
        self.op(Op::I2f, t, Y, &[kk]);
        self.op(Op::Fmad, t, Y, &[r, k[1], x]);
        self.op(Op::Fmad, t, Z, &[r, k[3], k[2]]);
        self.mul(t, Z, r, q)?;
        self.op(Op::Ex2t, t, W, &[kk]);
        self.op(Op::Fmad, t, Y, &[tab, q, tab]);
        Ok((Op::Ex2f, [x, at(t, 1), kk]))
    }

    /// LG2; also returns its scratch register, free again once the last instruction has read it.
    fn lg2(&mut self, x: Operand) -> Result<(Last, u8), CompileError> {
        let t = self.scratch();
        let one = self.lit(ONE, false)?;
        let minus_one = self.lit(ONE, true)?;
        let scale_lo = self.seq_k(K_SCALE, 1);
        let scale_inv = self.seq_k(K_SCALE, 2);
        let scale_hi = self.seq_k(K_SCALE, 3);
        let q: Vec<Operand> = (0..6)
            .map(|i| {
                if i < 4 {
                    self.seq_k(K_LG2_LOW, i)
                } else {
                    self.seq_k(K_LG2_HIGH, i - 4)
                }
            })
            .collect();
        let (tx, ty, tz, tw) = (at(t, 0), at(t, 1), at(t, 2), at(t, 3));
        // m_hi, m, m_lo = m - m_hi
        self.op(Op::Lg2h, t, X, &[x]);
        self.op(Op::Lg2m, t, Y, &[x]);
        self.op(Op::Fmad, t, Y, &[tx, minus_one, ty]);
        // INV
        self.op(Op::Lg2i, t, Z, &[x]);
        self.op(Op::U2f, t, Z, &[tz]);
        self.mul(t, Z, tz, scale_inv)?;
        // r = m_lo * INV + (m_hi * INV - 1)
        self.op(Op::Fmad, t, X, &[tx, tz, minus_one]);
        self.op(Op::Fmad, t, X, &[ty, tz, tx]);
        // B = r + r * Q(r)
        self.op(Op::Fmad, t, Y, &[q[5], tx, q[4]]);
        for i in (0..4).rev() {
            self.op(Op::Fmad, t, Y, &[ty, tx, q[i]]);
        }
        self.op(Op::Fmad, t, Y, &[tx, ty, tx]);
        // S = E + A_hi, T = A_lo + B, L = S + T
        self.op(Op::Lg2e, t, Z, &[x]);
        self.op(Op::I2f, t, Z, &[tz]);
        self.op(Op::Lg2a, t, W, &[x]);
        self.op(Op::U2f, t, W, &[tw]);
        self.op(Op::Fmad, t, Z, &[tw, scale_hi, tz]);
        self.op(Op::Lg2b, t, W, &[x]);
        self.op(Op::U2f, t, W, &[tw]);
        self.op(Op::Fmad, t, W, &[tw, scale_lo, ty]);
        self.op(Op::Fmad, t, X, &[tz, one, tw]);
        Ok(((Op::Lg2f, [x, tx, Operand::default()]), t))
    }

    /// The shared part of SIN and COS: `k` in `t.x`, `sin r` in `t.y`, `cos r` in `u.x`.
    fn sin_cos_core(&mut self, x: Operand) -> Result<(u8, u8), CompileError> {
        let (t, u) = (self.scratch(), self.scratch());
        let one = self.lit(ONE, false)?;
        let minus_one = self.lit(ONE, true)?;
        let two_over_pi = self.seq_k(K_LG2_HIGH, 2);
        let p1 = self.seq_k(K_LG2_HIGH, 3);
        let p2 = self.seq_k(K_PI, 0);
        let p3 = self.seq_k(K_PI, 1);
        let s: Vec<Operand> = (0..4).map(|c| self.seq_k(SIN_P, c)).collect();
        let c: Vec<Operand> = (0..4).map(|i| self.seq_k(COS_P, i)).collect();
        let (k, kf, r, r2) = (at(t, 0), at(t, 1), at(t, 2), at(t, 3));
        let cos_r = at(u, 0);
        self.mul(t, X, x, two_over_pi)?;
        self.op(Op::F2ir, t, X, &[k]);
        self.op(Op::I2f, t, Y, &[k]);
        self.op(Op::Fmad, t, Z, &[kf, neg(p1), x]);
        self.op(Op::Fmad, t, Z, &[kf, neg(p2), r]);
        self.op(Op::Fmad, t, Z, &[kf, neg(p3), r]);
        self.op(Op::Max, t, Z, &[r, minus_one]);
        self.op(Op::Min, t, Z, &[r, one]);
        self.mul(t, W, r, r)?;
        // sin r = r + r * (r^2 S(r^2)) into t.y (kf is no longer needed)
        self.op(Op::Fmad, t, Y, &[s[0], r2, s[1]]);
        self.op(Op::Fmad, t, Y, &[kf, r2, s[2]]);
        self.op(Op::Fmad, t, Y, &[kf, r2, s[3]]);
        self.mul(t, Y, r2, kf)?;
        self.op(Op::Fmad, t, Y, &[r, kf, r]);
        // cos r = 1 + r^2 C(r^2)
        self.op(Op::Fmad, u, X, &[c[0], r2, c[1]]);
        self.op(Op::Fmad, u, X, &[cos_r, r2, c[2]]);
        self.op(Op::Fmad, u, X, &[cos_r, r2, c[3]]);
        self.op(Op::Fmad, u, X, &[r2, cos_r, one]);
        Ok((t, u))
    }

    fn sin_cos(&mut self, x: Operand, cos: bool) -> Result<Last, CompileError> {
        let (t, u) = self.sin_cos_core(x)?;
        let (k, sin_r, cos_r) = (at(t, 0), at(t, 1), at(u, 0));
        let pick = if cos {
            [k, cos_r, neg(sin_r)]
        } else {
            [k, sin_r, cos_r]
        };
        self.op(Op::Scq, u, Y, &pick);
        Ok((Op::Scf, [x, at(u, 1), Operand::default()]))
    }

    /// SCS: `(cos x, sin x)` in components x and y of the returned register, from one reduction.
    pub(crate) fn sin_and_cos(&mut self, x: Operand) -> Result<u8, CompileError> {
        let (t, u) = self.sin_cos_core(x)?;
        let (k, sin_r, cos_r) = (at(t, 0), at(t, 1), at(u, 0));
        self.op(Op::Scq, u, Y, &[k, cos_r, neg(sin_r)]);
        self.op(Op::Scq, u, Z, &[k, sin_r, cos_r]);
        self.op(Op::Scf, t, X, &[x, at(u, 1)]);
        self.op(Op::Scf, t, Y, &[x, at(u, 2)]);
        Ok(t)
    }
}

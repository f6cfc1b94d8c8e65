//! Vector geometry: `dot` (DP2 / DP3 / DP4), `length` and `distance`, `sqrt`, `normalize`,
//! `reflect`, `refract`, `faceForward`.

use super::value::Value;
use super::Lower;
use crate::code::Src;
use microcode::tgsi::Opcode;

impl<'a> Lower<'a> {
    pub(super) fn dot(&mut self, x: Src, y: Src, n: usize) -> Value {
        match n {
            1 => self.alu(Opcode::Mul, 1, vec![x, y]),
            2 => self.alu(Opcode::Dp2, 1, vec![x, y]),
            3 => self.alu(Opcode::Dp3, 1, vec![x, y]),
            _ => self.alu(Opcode::Dp4, 1, vec![x, y]),
        }
    }

    /// sqrt(dot(x, x)) as RCP(RSQ(.)): exact 0 at 0, where x * RSQ(x) would be NaN.
    pub(super) fn length(&mut self, x: Src, n: usize) -> Value {
        if n == 1 {
            return Value::V {
                src: Src {
                    abs: true,
                    neg: false,
                    ..x
                },
                size: 1,
            };
        }
        let d = self.dot(x, x, n).src();
        self.sqrt(d, 1)
    }

    /// sqrt(x) = x * RSQ(max(x, FLT_MIN)): RSQ and a multiply (15 core instructions) where
    /// RCP(RSQ(x)) takes 58; the MAX keeps 0 * inf (a NaN) away at 0, where the result is 0.
    /// Within 2 ULP (RSQ is within 1).
    pub(super) fn sqrt(&mut self, x: Src, n: usize) -> Value {
        let tiny = self.imm_s(f32::MIN_POSITIVE);
        let m = self.alu(Opcode::Max, n, vec![x, tiny]).src();
        let r = self.per_comp(Opcode::Rsq, n, &[m]).src();
        self.alu(Opcode::Mul, n, vec![x, r])
    }

    /// `normalize(x)`: NRM for a vec3, else x * RSQ(dot(x, x)).
    pub(super) fn normalize(&mut self, x: Src, n: usize) -> Value {
        if n == 3 {
            return self.alu(Opcode::Nrm, 3, vec![x]);
        }
        let d = self.dot(x, x, n).src();
        let r = self.alu(Opcode::Rsq, 1, vec![d]).src();
        self.alu(Opcode::Mul, n, vec![x, r.comp(0)])
    }

    /// `reflect(i, n) = i - 2 dot(n, i) n`.
    pub(super) fn reflect(&mut self, i: Src, nn: Src, n: usize) -> Value {
        let d = self.dot(nn, i, n).src();
        let d2 = self.fop(Opcode::Add, 1, vec![d, d]);
        self.alu(Opcode::Mad, n, vec![d2.comp(0).negated(), nn, i])
    }

    /// `refract(i, n, eta)`: `k = 1 - eta^2 (1 - dot(n, i)^2)`; the zero vector where k < 0,
    /// else `eta i - (eta dot(n, i) + sqrt(k)) n`.
    pub(super) fn refract(&mut self, i: Src, nn: Src, eta: Src, n: usize) -> Value {
        let eta = eta.comp(0);
        let d = self.dot(nn, i, n).src().comp(0);
        let one = self.imm_s(1.0);
        let dd = self.fop(Opcode::Mad, 1, vec![d.negated(), d, one]);
        let ee = self.fop(Opcode::Mul, 1, vec![eta, eta]);
        let k = self.fop(Opcode::Mad, 1, vec![ee.negated(), dd, one]);
        let root = self.sqrt(k, 1).src();
        let t = self.fop(Opcode::Mad, 1, vec![eta, d, root]);
        let ei = self.fop(Opcode::Mul, n, vec![eta, i]);
        let r = self.fop(Opcode::Mad, n, vec![t.comp(0).negated(), nn, ei]);
        let zero = self.imm_s(0.0);
        self.alu(Opcode::Cmp, n, vec![k.comp(0), zero, r])
    }

    /// `faceForward(n, i, nref)`: n where `dot(nref, i) < 0`, else -n.
    pub(super) fn face_forward(&mut self, nn: Src, i: Src, nref: Src, n: usize) -> Value {
        let d = self.dot(nref, i, n).src();
        self.alu(Opcode::Cmp, n, vec![d.comp(0), nn, nn.negated()])
    }
}

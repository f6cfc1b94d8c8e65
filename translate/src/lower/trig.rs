//! Trigonometric, hyperbolic and exponential functions built from TGSI's SIN, COS, EX2, LG2,
//! RCP and RSQ: `tan` (SIN / COS), `atan` / `atan2` / `asin` / `acos` (minimax polynomials),
//! `sinh` / `cosh` / `tanh` and their inverses (through `exp` and `log`).

use super::value::Value;
use super::Lower;
use crate::code::Src;
use microcode::tgsi::Opcode;

impl<'a> Lower<'a> {
    /// Horner's rule in MADs: `c[0] + t (c[1] + t (c[2] + ...))`.
    pub(super) fn horner(&mut self, t: Src, c: &[f32], n: usize) -> Src {
        let last = c.len() - 1;
        let mut p = self.imm_s(c[last]);
        for &k in c[..last].iter().rev() {
            let k = self.imm_s(k);
            p = self.fop(Opcode::Mad, n, vec![p, t, k]);
        }
        p
    }

    /// atan(y) (x None) or atan2(y, x): the ratio q = min / max of the magnitudes (in [0, 1]),
    /// Abramowitz and Stegun 4.4.49 (`q (1 + a2 q^2 + ... + a16 q^16)`, within 2e-8 of atan on
    /// [0, 1]), then the octant: `pi/2 - p` where the numerator is the larger, `pi - p` for a
    /// negative x, the sign of y. Within 4e-7 radians (under 2 ULP of pi) with the models' RCP and
    /// roundings.
    pub(super) fn atan(&mut self, y: Src, x: Option<Src>, n: usize) -> Value {
        use std::f32::consts::{FRAC_PI_2, PI};
        const A: [f32; 9] = [
            1.0,
            -0.333_331_45,
            0.199_935_51,
            -0.142_089,
            0.106_562_64,
            -0.075_289_64,
            0.042_909_614,
            -0.016_165_737,
            0.002_866_225_7,
        ];
        let abs = |s: Src| Src {
            abs: true,
            neg: false,
            ..s
        };
        let ay = abs(y);
        let one = self.imm_s(1.0);
        let ax = match x {
            Some(x) => abs(x),
            None => one,
        };
        let mx = self.fop(Opcode::Max, n, vec![ax, ay]);
        let mn = self.fop(Opcode::Min, n, vec![ax, ay]);
        // atan2(0, 0): 0 * RCP(FLT_MIN) = 0, not 0 * inf.
        let tiny = self.imm_s(f32::MIN_POSITIVE);
        let mx = self.fop(Opcode::Max, n, vec![mx, tiny]);
        let r = self.per_comp(Opcode::Rcp, n, &[mx]).src();
        let q = self.fop(Opcode::Mul, n, vec![mn, r]);
        let q2 = self.fop(Opcode::Mul, n, vec![q, q]);
        let p = self.horner(q2, &A, n);
        let p = self.fop(Opcode::Mul, n, vec![p, q]);
        // |y| > |x|: pi/2 - p (CMP picks its second operand where the first is negative).
        let half_pi = self.imm_s(FRAC_PI_2);
        let alt = self.fop(Opcode::Add, n, vec![half_pi, p.negated()]);
        let d = self.fop(Opcode::Add, n, vec![ax, ay.negated()]);
        let p = self.fop(Opcode::Cmp, n, vec![d, alt, p]);
        let p = match x {
            Some(x) => {
                let pi = self.imm_s(PI);
                let alt = self.fop(Opcode::Add, n, vec![pi, p.negated()]);
                self.fop(Opcode::Cmp, n, vec![x, alt, p])
            }
            None => p,
        };
        self.alu(Opcode::Cmp, n, vec![y, p.negated(), p])
    }

    /// asin / acos: acos(|x|) = sqrt(1 - |x|) (a0 + a1 |x| + ... + a7 |x|^7) (Abramowitz and
    /// Stegun 4.4.46, within 2e-8), then `pi - r` for a negative x (acos) or `pi/2 - r` with x's
    /// sign (asin). Within 5e-7 radians with the models' RSQ and roundings on [-1, 1] (outside,
    /// where WGSL leaves the result indeterminate, a finite value).
    pub(super) fn asin_acos(&mut self, x: Src, n: usize, acos: bool) -> Value {
        use std::f32::consts::{FRAC_PI_2, PI};
        const A: [f32; 8] = [
            // 1.5707963050, which is pi/2 in binary32.
            FRAC_PI_2,
            -0.214_598_8,
            0.088_978_99,
            -0.050_174_303,
            0.030_891_88,
            -0.017_088_126,
            0.006_670_09,
            -0.001_262_491_1,
        ];
        let ax = Src {
            abs: true,
            neg: false,
            ..x
        };
        let p = self.horner(ax, &A, n);
        let one = self.imm_s(1.0);
        let t = self.fop(Opcode::Add, n, vec![one, ax.negated()]);
        let s = self.sqrt(t, n).src();
        let r = self.fop(Opcode::Mul, n, vec![s, p]);
        if acos {
            let pi = self.imm_s(PI);
            let alt = self.fop(Opcode::Add, n, vec![pi, r.negated()]);
            self.alu(Opcode::Cmp, n, vec![x, alt, r])
        } else {
            let half_pi = self.imm_s(FRAC_PI_2);
            let a = self.fop(Opcode::Add, n, vec![half_pi, r.negated()]);
            self.alu(Opcode::Cmp, n, vec![x, a.negated(), a])
        }
    }

    /// `exp(x)`: EX2 of x * log2(e).
    pub(super) fn exp(&mut self, x: Src, n: usize) -> Src {
        let k = self.imm_s(std::f32::consts::LOG2_E);
        let y = self.fop(Opcode::Mul, n, vec![x, k]);
        self.per_comp(Opcode::Ex2, n, &[y]).src()
    }

    /// `log(x)`: LG2(x) * ln(2).
    pub(super) fn log(&mut self, x: Src, n: usize) -> Src {
        let y = self.per_comp(Opcode::Lg2, n, &[x]).src();
        let k = self.imm_s(std::f32::consts::LN_2);
        self.fop(Opcode::Mul, n, vec![y, k])
    }

    /// `sinh` and `cosh`: `(e^x -+ e^-x) / 2`, with `e^-x` as RCP(e^x) (accurate in absolute
    /// terms near 0, where sinh cancels).
    pub(super) fn sinh_cosh(&mut self, x: Src, n: usize, cosh: bool) -> Value {
        let t = self.exp(x, n);
        let r = self.per_comp(Opcode::Rcp, n, &[t]).src();
        let r = if cosh { r } else { r.negated() };
        let s = self.fop(Opcode::Add, n, vec![t, r]);
        let half = self.imm_s(0.5);
        self.alu(Opcode::Mul, n, vec![s, half])
    }

    /// `tanh(x) = 1 - 2 / (e^2x + 1)`: finite for every x (1 and -1 at the ends).
    pub(super) fn tanh(&mut self, x: Src, n: usize) -> Value {
        let two = self.imm_s(2.0);
        let x2 = self.fop(Opcode::Mul, n, vec![x, two]);
        let t = self.exp(x2, n);
        let one = self.imm_s(1.0);
        let d = self.fop(Opcode::Add, n, vec![t, one]);
        let r = self.per_comp(Opcode::Rcp, n, &[d]).src();
        let m2 = self.imm_s(-2.0);
        self.alu(Opcode::Mad, n, vec![r, m2, one])
    }

    /// `asinh(x) = sign(x) log(|x| + sqrt(x^2 + 1))`, `acosh(x) = log(x + sqrt(x^2 - 1))`.
    pub(super) fn asinh_acosh(&mut self, x: Src, n: usize, acosh: bool) -> Value {
        let one = self.imm_s(if acosh { -1.0 } else { 1.0 });
        let sq = self.fop(Opcode::Mad, n, vec![x, x, one]);
        let root = self.sqrt(sq, n).src();
        let ax = if acosh {
            x
        } else {
            Src {
                abs: true,
                neg: false,
                ..x
            }
        };
        let s = self.fop(Opcode::Add, n, vec![ax, root]);
        let l = self.log(s, n);
        if acosh {
            return Value::V { src: l, size: n };
        }
        // The sign of x: CMP picks -l where x < 0.
        self.alu(Opcode::Cmp, n, vec![x, l.negated(), l])
    }

    /// `atanh(x) = log((1 + x) / (1 - x)) / 2`.
    pub(super) fn atanh(&mut self, x: Src, n: usize) -> Value {
        let one = self.imm_s(1.0);
        let num = self.fop(Opcode::Add, n, vec![one, x]);
        let den = self.fop(Opcode::Add, n, vec![one, x.negated()]);
        let q = self.fop(Opcode::Div, n, vec![num, den]);
        let l = self.log(q, n);
        let half = self.imm_s(0.5);
        self.alu(Opcode::Mul, n, vec![l, half])
    }
}

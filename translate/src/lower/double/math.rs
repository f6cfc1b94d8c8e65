//! Built-in functions of doubles.
//!
//! Rounding is exact: `fract` is DFRAC (`x - floor(x)`, one rounding); `floor(x) = x -
//! DFRAC(x)` (exact: the difference is an integer the format holds), `ceil(x) = -floor(-x)`,
//! `trunc(x)` is `floor(|x|)` with x's sign bit, and an infinity, where DFRAC gives NaN, is kept
//! by a UCMP on its bits; `round` (half to even) adds and subtracts 2^52 to |x| (DADD rounds to
//! nearest even, exactly the integer), for |x| below 2^52, and keeps x from there (already an
//! integer, or inf / NaN). `sign` is two DSLTs and two selects (0 for zeros and NaN, as SSG);
//! `fma` is DMAD, which rounds the product and the sum separately (`decisions.md`: DMAD is
//! `round(round(a * b) + c)`), so it is `a * b + c` rather than a fused multiply-add;
//! `inverseSqrt` is DRCP of DSQRT (two roundings). `dot` multiplies pairwise and sums as
//! `(a0 b0 + a2 b2) + (a1 b1 + a3 b3)` (each product and sum rounded), which packs two products
//! into each instruction.
//!
//! The transcendental functions have no double opcode and are refused by name.

use super::{absolute, at, high_words, low_words, negated, SIGN};
use crate::code::{Inst, Src};
use crate::error::Construct;
use crate::lower::value::Value;
use crate::lower::{err, names, Lower, Span};
use crate::TranslateError;
use microcode::tgsi::Opcode;
use naga::{Expression, Handle, MathFunction as M, TypeInner};

/// 2^52: from here up every double is an integer.
const TWO_52: f64 = 4_503_599_627_370_496.0;

impl<'a> Lower<'a> {
    /// A built-in function with a double operand.
    pub(super) fn double_math(
        &mut self,
        h: Handle<Expression>,
        fun: M,
        args: [Option<Handle<Expression>>; 4],
        span: Span,
    ) -> Result<Value, TranslateError> {
        let name = names::math(fun, self.language);
        let refuse = |why: &str| err(Construct::Function(name.clone()), why, span);
        let arg = args[0].ok_or_else(|| refuse("it has no operand"))?;
        match fun {
            M::Transpose | M::Determinant | M::Outer | M::Inverse => {
                return self.double_matrix_math(fun, args, span)
            }
            M::Ldexp => {
                let x = self.doperand(arg)?;
                let e = args[1].ok_or_else(|| refuse("an operand is missing"))?;
                let (e, m) = self.vec(e)?;
                let n = x.len().max(m);
                let ef = self.int_to_f64(e, m, true);
                let r = self.dop(Opcode::Dldexp, n, &[&x, &ef]);
                return Ok(self.dresult(h, r));
            }
            M::Modf | M::Frexp => {
                let x = self.doperand(arg)?;
                let vector = matches!(self.expr_ty(arg), TypeInner::Vector { .. });
                return Ok(if fun == M::Modf {
                    let whole = self.dtrunc(&x);
                    let fract = self.dop(Opcode::Dadd, x.len(), &[&x, &negated(&whole)]);
                    let fract = self.dvalue(fract, vector);
                    let whole = self.dvalue(whole, vector);
                    Value::Agg(vec![fract, whole])
                } else {
                    self.dfrexp(&x, vector)
                });
            }
            _ => {}
        }
        let mut ops = vec![self.doperand(arg)?];
        for a in args[1..].iter().flatten() {
            ops.push(self.doperand(*a)?);
        }
        let n = ops.iter().map(Vec::len).max().unwrap_or(1);
        let need = |k: usize| -> Result<&[Src], TranslateError> {
            ops.get(k)
                .map(Vec::as_slice)
                .ok_or_else(|| refuse("an operand is missing"))
        };
        let x = need(0)?.to_vec();
        let pairs = match fun {
            M::Abs => absolute(&x),
            M::Min => self.dop(Opcode::Dmin, n, &[&x, need(1)?]),
            M::Max => self.dop(Opcode::Dmax, n, &[&x, need(1)?]),
            M::Clamp => {
                let (lo, hi) = (need(1)?.to_vec(), need(2)?.to_vec());
                let m = self.dop(Opcode::Dmax, n, &[&x, &lo]);
                self.dop(Opcode::Dmin, n, &[&m, &hi])
            }
            M::Saturate => {
                let (zero, one) = (self.dconst(0.0), self.dconst(1.0));
                let m = self.dop(Opcode::Dmax, n, &[&x, &[zero]]);
                self.dop(Opcode::Dmin, n, &[&m, &[one]])
            }
            M::Floor => self.dfloor(&x),
            M::Ceil => self.dceil(&x),
            M::Trunc => self.dtrunc(&x),
            M::Round => self.dround(&x),
            M::Fract => self.dop(Opcode::Dfrac, n, &[&x]),
            M::Sqrt => self.dop(Opcode::Dsqrt, n, &[&x]),
            M::InverseSqrt => {
                let r = self.dop(Opcode::Dsqrt, n, &[&x]);
                self.dop(Opcode::Drcp, n, &[&r])
            }
            M::Sign => self.dsign(&x),
            M::Fma => self.dop(Opcode::Dmad, n, &[&x, need(1)?, need(2)?]),
            M::Mix => {
                // x * (1 - a) + y * a, as WGSL and GLSL define it.
                let (y, a) = (need(1)?.to_vec(), need(2)?.to_vec());
                let one = self.dconst(1.0);
                let t = self.dop(Opcode::Dadd, n, &[&[one], &negated(&a)]);
                let u = self.dop(Opcode::Dmul, n, &[&x, &t]);
                self.dop(Opcode::Dmad, n, &[&y, &a, &u])
            }
            M::Step => {
                // step(edge, v) = edge <= v ? 1 : 0 (0 with a NaN); x is the edge.
                let v = need(1)?.to_vec();
                let lt = self.dop(Opcode::Dslt, n, &[&x, &v]);
                let eq = self.dop(Opcode::Dseq, n, &[&x, &v]);
                let le = self.wordwise(Opcode::Max, n, &[&lt, &eq]);
                let (one, zero) = (self.dconst(1.0), self.dconst(0.0));
                self.dselect(n, &le, &[one], &[zero])
            }
            M::SmoothStep => {
                let (e1, v) = (need(1)?.to_vec(), need(2)?.to_vec());
                self.dsmoothstep(n, &x, &e1, &v)
            }
            M::Dot => vec![self.ddot(&x, need(1)?)],
            M::Length => vec![self.dlength(&x)],
            M::Distance => {
                let d = self.dop(Opcode::Dadd, n, &[&x, &negated(need(1)?)]);
                vec![self.dlength(&d)]
            }
            M::Normalize => {
                let l = self.dlength(&x);
                self.dop(Opcode::Ddiv, n, &[&x, &[l]])
            }
            M::Cross => self.dcross(&x, need(1)?),
            M::Reflect => {
                // i - 2 dot(n, i) n.
                let nn = need(1)?.to_vec();
                let d = self.ddot(&nn, &x);
                let d2 = self.dop(Opcode::Dadd, 1, &[&[d], &[d]]);
                self.dop(Opcode::Dmad, n, &[&negated(&d2), &nn, &x])
            }
            M::FaceForward => {
                // n where dot(nref, i) < 0, else -n.
                let (i, nref) = (need(1)?.to_vec(), need(2)?.to_vec());
                let d = self.ddot(&nref, &i);
                let zero = self.dconst(0.0);
                let lt = self.dop(Opcode::Dslt, 1, &[&[d], &[zero]]);
                self.dselect(n, &lt, &x, &negated(&x))
            }
            _ => {
                return Err(refuse(
                    "TGSI's double opcodes are arithmetic, comparisons, square root and \
                     rounding: there is no double-precision sequence for it",
                ))
            }
        };
        Ok(self.dresult(h, pairs))
    }

    /// `floor(x) = x - DFRAC(x)`, infinities kept.
    pub(super) fn dfloor(&mut self, x: &[Src]) -> Vec<Src> {
        let n = x.len();
        let f = self.dop(Opcode::Dfrac, n, &[x]);
        let r = self.dop(Opcode::Dadd, n, &[x, &negated(&f)]);
        self.keep_inf(x, &r)
    }

    /// `ceil(x) = -floor(-x)` (so that `ceil(-0.5)` is -0), infinities kept.
    fn dceil(&mut self, x: &[Src]) -> Vec<Src> {
        let n = x.len();
        let nx = negated(x);
        let f = self.dop(Opcode::Dfrac, n, &[&nx]);
        let t = self.dop(Opcode::Dadd, n, &[&nx, &negated(&f)]);
        let sign = self.dwords(0, SIGN);
        let r = self.wordwise(Opcode::Xor, n, &[&t, &[sign]]);
        self.keep_inf(x, &r)
    }

    /// `trunc(x)`: `floor(|x|)` with x's sign bit, infinities kept.
    pub(super) fn dtrunc(&mut self, x: &[Src]) -> Vec<Src> {
        let n = x.len();
        let x: Vec<Src> = x.iter().map(|p| self.plain(*p)).collect();
        let a = absolute(&x);
        let f = self.dop(Opcode::Dfrac, n, &[&a]);
        let t = self.dop(Opcode::Dadd, n, &[&a, &negated(&f)]);
        let s = self.with_sign_of(&t, &x);
        self.keep_inf(&x, &s)
    }

    /// `round(x)`, half to even: `(|x| + 2^52) - 2^52` with x's sign below 2^52, x itself above
    /// (and for inf and NaN).
    fn dround(&mut self, x: &[Src]) -> Vec<Src> {
        let n = x.len();
        let x: Vec<Src> = x.iter().map(|p| self.plain(*p)).collect();
        let a = absolute(&x);
        let big = self.dconst(TWO_52);
        let y = self.dop(Opcode::Dadd, n, &[&a, &[big]]);
        let r = self.dop(Opcode::Dadd, n, &[&y, &[big.negated()]]);
        let s = self.with_sign_of(&r, &x);
        let small = self.dop(Opcode::Dslt, n, &[&a, &[big]]);
        self.dselect(n, &small, &s, &x)
    }

    /// `t` (non-negative) with the sign bit of `x`: OR of x's sign into t's high words.
    fn with_sign_of(&mut self, t: &[Src], x: &[Src]) -> Vec<Src> {
        let sign = self.dwords(0, SIGN);
        self.groups(t.len(), &[t, x, &[sign]], true, |s, src, mask| {
            let bit = s.write(Opcode::And, mask, vec![src[1], src[2]]);
            s.write(Opcode::Or, mask, vec![src[0], bit])
        })
    }

    /// `r` where x is finite or NaN, x where it is an infinity (where DFRAC gives NaN): UCMP on
    /// `(|high| ^ 0x7FF00000) | low`, zero exactly for the infinities.
    fn keep_inf(&mut self, x: &[Src], r: &[Src]) -> Vec<Src> {
        let magnitude = self.code.imm_int(&[!SIGN]);
        let inf_high = self.code.imm_int(&[0x7FF0_0000]);
        self.groups(x.len(), &[x, r], true, |s, src, mask| {
            let t = s.write(Opcode::And, mask, vec![high_words(src[0]), magnitude]);
            let t = s.write(Opcode::Xor, mask, vec![t, inf_high]);
            let t = s.write(Opcode::Or, mask, vec![t, low_words(src[0])]);
            s.write(Opcode::Ucmp, mask, vec![t, src[1], src[0]])
        })
    }

    /// `sign(x)`: 1 where 0 < x, -1 where x < 0, else 0 (zeros and NaN).
    fn dsign(&mut self, x: &[Src]) -> Vec<Src> {
        let n = x.len();
        let zero = self.dconst(0.0);
        let gt = self.dop(Opcode::Dslt, n, &[&[zero], x]);
        let lt = self.dop(Opcode::Dslt, n, &[x, &[zero]]);
        let (one, minus) = (self.dconst(1.0), self.dconst(-1.0));
        let inner = self.dselect(n, &lt, &[minus], &[zero]);
        self.dselect(n, &gt, &[one], &inner)
    }

    /// `smoothstep(e0, e1, x)`: `t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2 t)`.
    fn dsmoothstep(&mut self, n: usize, e0: &[Src], e1: &[Src], x: &[Src]) -> Vec<Src> {
        let num = self.dop(Opcode::Dadd, n, &[x, &negated(e0)]);
        let den = self.dop(Opcode::Dadd, n, &[e1, &negated(e0)]);
        let t = self.dop(Opcode::Ddiv, n, &[&num, &den]);
        let (zero, one) = (self.dconst(0.0), self.dconst(1.0));
        let t = self.dop(Opcode::Dmax, n, &[&t, &[zero]]);
        let t = self.dop(Opcode::Dmin, n, &[&t, &[one]]);
        let (m2, three) = (self.dconst(-2.0), self.dconst(3.0));
        let p = self.dop(Opcode::Dmad, n, &[&t, &[m2], &[three]]);
        let tt = self.dop(Opcode::Dmul, n, &[&t, &t]);
        self.dop(Opcode::Dmul, n, &[&tt, &p])
    }

    /// `dot(a, b)`: `(a0 b0 + a2 b2) + (a1 b1 + a3 b3)`, two products per instruction.
    pub(super) fn ddot(&mut self, a: &[Src], b: &[Src]) -> Src {
        let n = a.len().max(b.len());
        if n == 1 {
            return self.dop(Opcode::Dmul, 1, &[a, b])[0];
        }
        let head: Vec<Src> = (0..2).map(|k| at(a, k)).collect();
        let headb: Vec<Src> = (0..2).map(|k| at(b, k)).collect();
        let p = self.dop(Opcode::Dmul, 2, &[&head, &headb]);
        let q = if n > 2 {
            let tail: Vec<Src> = (2..n).map(|k| at(a, k)).collect();
            let tailb: Vec<Src> = (2..n).map(|k| at(b, k)).collect();
            let acc = &p[..n - 2];
            let mut q = self.dop(Opcode::Dmad, n - 2, &[&tail, &tailb, acc]);
            if n == 3 {
                q.push(p[1]);
            }
            q
        } else {
            p
        };
        self.dop(Opcode::Dadd, 1, &[&[q[0]], &[q[1]]])[0]
    }

    /// `length(x)`: `|x|` for a scalar, else DSQRT of the dot product.
    fn dlength(&mut self, x: &[Src]) -> Src {
        if x.len() == 1 {
            return absolute(x)[0];
        }
        let d = self.ddot(x, x);
        self.dop(Opcode::Dsqrt, 1, &[&[d]])[0]
    }

    /// `cross(a, b)`: `(a.y b.z - a.z b.y, a.z b.x - a.x b.z)` in one DMUL and one DMAD, then
    /// `a.x b.y - a.y b.x`.
    fn dcross(&mut self, a: &[Src], b: &[Src]) -> Vec<Src> {
        let g = |v: &[Src], i: usize| at(v, i);
        let p = self.dop(Opcode::Dmul, 2, &[&[g(a, 1), g(a, 2)], &[g(b, 2), g(b, 0)]]);
        let mut r = self.dop(
            Opcode::Dmad,
            2,
            &[&negated(&[g(a, 2), g(a, 0)]), &[g(b, 1), g(b, 2)], &p],
        );
        let p2 = self.dop(Opcode::Dmul, 1, &[&[g(a, 0)], &[g(b, 1)]]);
        let z = self.dop(Opcode::Dmad, 1, &[&negated(&[g(a, 1)]), &[g(b, 0)], &p2]);
        r.extend(z);
        r
    }

    /// `frexp(x)`: DFRACEXP's significand (in [0.5, 1), x itself for zeros, infinities and NaN)
    /// and its exponent (a binary64 integer, made an `i32` by adding 1.5 * 2^52 and keeping the
    /// low word).
    fn dfrexp(&mut self, x: &[Src], vector: bool) -> Value {
        let n = x.len();
        let mut exps = Vec::new();
        let mut sigs = Vec::new();
        for k in (0..n).step_by(2) {
            let two = k + 1 < n;
            let src = self.join(x[k], two.then(|| x[k + 1]), false);
            let mask = super::group_mask(two);
            let (e, m) = (self.code.temp(), self.code.temp());
            self.code.insts.push(Inst {
                op: Opcode::DfracExp,
                dst: Some((e, mask)),
                dst2: Some((m, mask)),
                src: vec![src],
                sat: false,
                target: None,
            });
            for (out, r) in [(&mut exps, e), (&mut sigs, m)] {
                let [p0, p1] = super::halves(Src::reg(r));
                out.push(p0);
                if two {
                    out.push(p1);
                }
            }
        }
        let magic = self.dconst(1.5 * TWO_52);
        let y = self.dop(Opcode::Dadd, n, &[&exps, &[magic]]);
        let words: Vec<Src> = y.iter().map(|p| p.comp(0)).collect();
        let exp = self.compose(&words, true);
        let fract = self.dvalue(sigs, vector);
        Value::Agg(vec![fract, exp])
    }
}

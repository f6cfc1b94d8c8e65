//! Conversions to and from doubles, which TGSI 1.x has no opcodes for, built exactly from
//! integer and double opcodes:
//! - `f32` to `f64` is exact: the exponent rebiased (`(|x| >> 3) + (896 << 20)`, twice that for
//!   inf and NaN, which stay inf and NaN), the significand's low three bits shifted to the top of
//!   the low word (`x << 29`), the sign ORed in; a zero or subnormal `f32` (a zero to every float
//!   operation, `decisions.md` 2) gives a zero of its sign. 11 integer instructions per two
//!   components.
//! - `f64` to `f32` rounds to nearest even on the significand's bits, as the contract rounds
//!   every float result: the top 23 fraction bits and the rebiased exponent in one word
//!   (`(|high| << 3 | low >> 29) - (896 << 23)`, wrapping), plus one where the 29 bits below are
//!   more than half, or exactly half with an odd last bit (`(low & 0x1FFFFFFF) + lsb +
//!   0x0FFFFFFF >> 29`; the carry runs into the exponent, up to inf). Then by the exponent E
//!   (exact in a float): from 1151 up inf; 896 the one value that rounds up to 2^-126 on the
//!   subnormal grid (the fraction's top 23 bits all ones), else a subnormal result, flushed to
//!   a zero of the sign, as below 896; 2047 with a non-zero fraction NaN (0x7FC00000). About 30
//!   instructions for up to four components.
//! - `i32` / `u32` to `f64` is exact: the integer (`i32` with its sign bit flipped, which adds
//!   2^31) is the low word of `2^52 + u` (high word 0x43300000), from which one DADD subtracts
//!   `2^52` (`2^52 + 2^31`).
//! - `f64` to `i32` / `u32` truncates and saturates as WGSL and GLSL (and naga's constant
//!   evaluator, like Rust's `as`) do: DMAX and DMIN clamp to [-2^31, 2^31 - 1] ([0, 2^32 - 1]),
//!   `floor(|c|)` (`|c| - DFRAC(|c|)`) plus 2^52 holds the integer in its low word, which
//!   takes c's sign by `(u ^ s) - s`; a NaN (kept by the clamps) gives 0.
//! - `bool` to `f64` selects 1.0 or 0.0 (UCMP), `f64` to `bool` is `x != 0` (NaN is true).

use super::{group_mask, halves, Lower, SIGN};
use crate::code::Src;
use crate::error::Construct;
use crate::lower::value::Value;
use crate::lower::{err, Span};
use crate::TranslateError;
use microcode::tgsi::Opcode;
use naga::{Expression, Handle, ScalarKind, TypeInner};

/// The high word of 2^52.
const HIGH_2_52: u32 = 0x4330_0000;

impl<'a> Lower<'a> {
    /// A conversion (`convert` Some) or bit cast to or from doubles.
    pub(super) fn double_cast(
        &mut self,
        h: Handle<Expression>,
        expr: Handle<Expression>,
        kind: ScalarKind,
        convert: Option<u8>,
        span: Span,
    ) -> Result<Value, TranslateError> {
        let from = self.expr_ty(expr);
        let Some(scalar) = from.scalar() else {
            return Err(self.f64_here(expr));
        };
        let to_f64 = kind == ScalarKind::Float && convert == Some(8);
        let refuse = |what: String| {
            err(
                Construct::Other(what),
                "TGSI has no 64-bit integers, no 16-bit floats and no register of 64 bits to \
                 reinterpret",
                span,
            )
        };
        let Some(width) = convert else {
            return Err(refuse("a bit cast of an `f64` value".into()));
        };
        if let TypeInner::Matrix { .. } = from {
            let m = self.expr(expr)?;
            return self.matrix_cast(&m, scalar, to_f64, span);
        }
        if self.is_f64(expr) {
            let x = self.doperand(expr)?;
            let n = x.len();
            return Ok(match (kind, width) {
                (ScalarKind::Float, 8) => self.dresult(h, x),
                (ScalarKind::Float, 4) => Value::V {
                    src: self.f64_to_f32(&x),
                    size: n,
                },
                (ScalarKind::Sint | ScalarKind::Uint, 4) => Value::V {
                    src: self.f64_to_int(&x, kind == ScalarKind::Sint),
                    size: n,
                },
                (ScalarKind::Bool, _) => {
                    let zero = self.dconst(0.0);
                    let eq = self.dop(Opcode::Dseq, n, &[&x, &[zero]]);
                    let eq = self.bools(&eq).src();
                    let z = self.imm_s(0.0);
                    self.alu(Opcode::Seq, n, vec![eq, z])
                }
                _ => {
                    return Err(refuse(format!(
                        "a conversion of `f64` to {kind:?}{}",
                        width * 8
                    )))
                }
            });
        }
        let (x, n) = self.vec(expr)?;
        let pairs = match (scalar.kind, scalar.width) {
            (ScalarKind::Float, 4) => self.f32_to_f64(x, n),
            (ScalarKind::Sint, 4) => self.int_to_f64(x, n, true),
            (ScalarKind::Uint, 4) => self.int_to_f64(x, n, false),
            (ScalarKind::Bool, _) => {
                let conds: Vec<Src> = (0..n).map(|k| self.bool_pair(x.comp(k))).collect();
                let (one, zero) = (self.dconst(1.0), self.dconst(0.0));
                self.dselect(n, &conds, &[one], &[zero])
            }
            (k, w) => return Err(refuse(format!("a conversion of {k:?}{} to `f64`", w * 8))),
        };
        Ok(self.dresult(h, pairs))
    }

    /// A matrix converted column by column between `f32` and `f64`.
    fn matrix_cast(
        &mut self,
        m: &Value,
        from: naga::Scalar,
        to_f64: bool,
        span: Span,
    ) -> Result<Value, TranslateError> {
        let Value::Agg(cols) = m else {
            return Err(err(
                Construct::Other("this matrix conversion".into()),
                "the matrix is not kept in registers here",
                span,
            ));
        };
        let mut out = Vec::new();
        for c in cols {
            out.push(match (from.width, to_f64) {
                (8, false) => {
                    let x = self.pairs_of(c, span)?;
                    Value::V {
                        src: self.f64_to_f32(&x),
                        size: x.len(),
                    }
                }
                (4, true) => {
                    let Value::V { src, size } = c else {
                        return Err(err(
                            Construct::Other("this matrix conversion".into()),
                            "a column is not kept in a register here",
                            span,
                        ));
                    };
                    let p = self.f32_to_f64(*src, *size);
                    self.dvalue(p, true)
                }
                _ => c.clone(),
            });
        }
        Ok(Value::Agg(out))
    }

    /// `n` components of `f32` to `f64`, exactly (zeros and subnormals give a zero of their
    /// sign, infinities and NaN stay).
    pub(super) fn f32_to_f64(&mut self, x: Src, n: usize) -> Vec<Src> {
        let x = if x.neg || x.abs {
            // A float MOV applies the modifiers to the bits the integer opcodes read.
            let r = self.code.temp();
            self.code
                .push(Opcode::Mov, Some((r, (1u8 << n) - 1)), vec![x]);
            Src::reg(r)
        } else {
            x
        };
        let k = |s: &mut Self, v: u32| s.code.imm_int(&[v]);
        let mut out = Vec::with_capacity(n);
        for c in (0..n).step_by(2) {
            let two = c + 1 < n;
            let d = if two { c + 1 } else { c };
            // Each component in both words of its pair.
            let xx = Src {
                swz: [x.swz[c], x.swz[c], x.swz[d], x.swz[d]],
                ..x
            };
            let mask = group_mask(two);
            let sign_mask = self.dwords(0, SIGN);
            let s = self.write(Opcode::And, mask, vec![xx, sign_mask]);
            let magnitude = k(self, !SIGN);
            let a = self.write(Opcode::And, mask, vec![xx, magnitude]);
            let k23 = k(self, 23);
            let e = self.write(Opcode::Shr, mask, vec![a, k23]);
            let one = k(self, 1);
            let top = self.write(Opcode::Uadd, mask, vec![e, one]);
            let k256 = k(self, 256);
            let top = self.write(Opcode::And, mask, vec![top, k256]);
            let (twice, once) = (k(self, 0x7000_0000), k(self, 0x3800_0000));
            let bias = self.write(Opcode::Ucmp, mask, vec![top, twice, once]);
            let k3 = k(self, 3);
            let t = self.write(Opcode::Shr, mask, vec![a, k3]);
            let v = self.code.temp();
            let (hi, lo) = (mask & 0b1010, mask & 0b0101);
            self.code.push(Opcode::Uadd, Some((v, hi)), vec![t, bias]);
            self.code
                .push(Opcode::Or, Some((v, hi)), vec![Src::reg(v), s]);
            let k29 = k(self, 29);
            self.code.push(Opcode::Shl, Some((v, lo)), vec![xx, k29]);
            let r = self.write(Opcode::Ucmp, mask, vec![e, Src::reg(v), s]);
            let [p0, p1] = halves(r);
            out.push(p0);
            if two {
                out.push(p1);
            }
        }
        out
    }

    /// `f64` pairs to `f32` components, rounded to nearest even (module comment).
    pub(super) fn f64_to_f32(&mut self, x: &[Src]) -> Src {
        let n = x.len();
        let (h, l) = self.split_words(x);
        let k = |s: &mut Self, v: u32| s.code.imm_int(&[v]);
        let op = |s: &mut Self, o: Opcode, a: Src, b: Src| s.ialu(o, n, vec![a, b]);
        let kk = k(self, SIGN);
        let sign = op(self, Opcode::And, h, kk);
        let kk = k(self, !SIGN);
        let a = op(self, Opcode::And, h, kk);
        let kk = k(self, 20);
        let e = op(self, Opcode::Shr, a, kk);
        let kk = k(self, 3);
        let m = op(self, Opcode::Shl, a, kk);
        let kk = k(self, 29);
        let t = op(self, Opcode::Shr, l, kk);
        let kk = k(self, 7);
        let t = op(self, Opcode::And, t, kk);
        let m = op(self, Opcode::Or, m, t);
        // (E - 896) << 23 | fraction, modulo 2^32 (right for 897 <= E <= 1150).
        let kk = k(self, 0x4000_0000);
        let base = op(self, Opcode::Uadd, m, kk);
        let kk = k(self, 0x1FFF_FFFF);
        let below = op(self, Opcode::And, l, kk);
        let kk = k(self, 1);
        let lsb = op(self, Opcode::And, t, kk);
        let r = op(self, Opcode::Uadd, below, lsb);
        let kk = k(self, 0x0FFF_FFFF);
        let r = op(self, Opcode::Uadd, r, kk);
        let kk = k(self, 29);
        let up = op(self, Opcode::Shr, r, kk);
        let rounded = op(self, Opcode::Uadd, base, up);
        // By the exponent, exact as a float.
        let ef = self.ialu(Opcode::I2f, n, vec![e]);
        let lim = self.imm_s(1150.5);
        let big = self.fop(Opcode::Sge, n, vec![ef, lim]);
        let inf = k(self, 0x7F80_0000);
        let res = self.ialu(Opcode::Ucmp, n, vec![big, inf, rounded]);
        let kk = k(self, 0x007F_FFFF);
        let f23 = op(self, Opcode::And, m, kk);
        let kk = k(self, 1);
        let f23 = op(self, Opcode::Uadd, f23, kk);
        let kk = k(self, 0x0080_0000);
        let min_normal = op(self, Opcode::And, f23, kk);
        let lim = self.imm_s(896.0);
        let edge = self.fop(Opcode::Seq, n, vec![ef, lim]);
        let zero = k(self, 0);
        let low = self.ialu(Opcode::Ucmp, n, vec![edge, min_normal, zero]);
        let lim = self.imm_s(896.5);
        let small = self.fop(Opcode::Slt, n, vec![ef, lim]);
        let res = self.ialu(Opcode::Ucmp, n, vec![small, low, res]);
        let res = op(self, Opcode::Or, res, sign);
        // NaN: E = 2047 and a fraction.
        let kk = k(self, 0x000F_FFFF);
        let fr = op(self, Opcode::And, h, kk);
        let fr = op(self, Opcode::Or, fr, l);
        let nan = k(self, 0x7FC0_0000);
        let nanv = self.ialu(Opcode::Ucmp, n, vec![fr, nan, res]);
        let lim = self.imm_s(2046.5);
        let special = self.fop(Opcode::Sge, n, vec![ef, lim]);
        self.ialu(Opcode::Ucmp, n, vec![special, nanv, res])
    }

    /// The high and the low words of `f64` pairs as two integer vectors of one word per
    /// component (modifiers applied).
    fn split_words(&mut self, x: &[Src]) -> (Src, Src) {
        let n = x.len();
        let mut joined = Vec::new();
        for k in (0..n).step_by(2) {
            let q = (k + 1 < n).then(|| x[k + 1]);
            joined.push(self.join(x[k], q, true));
        }
        let words = |word: usize| -> Vec<Src> {
            (0..n)
                .map(|k| {
                    let j = joined[k / 2];
                    let c = j.swz[2 * (k % 2) + word];
                    Src { swz: [c; 4], ..j }
                })
                .collect()
        };
        let (hs, ls) = (words(1), words(0));
        let h = self.compose(&hs, true).src();
        let l = self.compose(&ls, true).src();
        (h, l)
    }

    /// `n` components of `i32` (`signed`) or `u32` to `f64`, exactly.
    pub(super) fn int_to_f64(&mut self, x: Src, n: usize, signed: bool) -> Vec<Src> {
        let u = if signed {
            let s = self.code.imm_int(&[SIGN]);
            self.ialu(Opcode::Xor, n, vec![x, s])
        } else {
            x
        };
        let high = self.code.imm_int(&[HIGH_2_52]);
        let mut built = Vec::new();
        for c in (0..n).step_by(2) {
            let mut parts = vec![u.comp(c), high.comp(0)];
            if c + 1 < n {
                parts.extend([u.comp(c + 1), high.comp(0)]);
            }
            let v = self.compose(&parts, true).src();
            let [p0, p1] = halves(v);
            built.push(p0);
            if c + 1 < n {
                built.push(p1);
            }
        }
        let offset = if signed {
            4_503_601_774_854_144.0 // 2^52 + 2^31
        } else {
            4_503_599_627_370_496.0 // 2^52
        };
        let k = self.dconst(-offset);
        self.dop(Opcode::Dadd, n, &[&built, &[k]])
    }

    /// `f64` pairs to `i32` (`signed`) or `u32`: clamped, truncated, saturating; NaN gives 0.
    fn f64_to_int(&mut self, x: &[Src], signed: bool) -> Src {
        let n = x.len();
        let (lo, hi) = if signed {
            (-2_147_483_648.0, 2_147_483_647.0)
        } else {
            (0.0, 4_294_967_295.0)
        };
        let (lo, hi) = (self.dconst(lo), self.dconst(hi));
        // DMAX(lo, x) and DMIN(hi, .) return their second operand for a NaN: it stays.
        let c = self.dop(Opcode::Dmax, n, &[&[lo], x]);
        let c = self.dop(Opcode::Dmin, n, &[&[hi], &c]);
        let a = if signed {
            super::absolute(&c)
        } else {
            c.clone()
        };
        let f = self.dop(Opcode::Dfrac, n, &[&a]);
        let t = self.dop(Opcode::Dadd, n, &[&a, &super::negated(&f)]);
        let big = self.dconst(4_503_599_627_370_496.0);
        let y = self.dop(Opcode::Dadd, n, &[&t, &[big]]);
        let low: Vec<Src> = y.iter().map(|p| p.comp(0)).collect();
        let u = self.compose(&low, true).src();
        if !signed {
            return u;
        }
        let high: Vec<Src> = c.iter().map(|p| p.comp(1)).collect();
        let h = self.compose(&high, true).src();
        let k31 = self.code.imm_int(&[31]);
        let s = self.ialu(Opcode::Shr, n, vec![h, k31]);
        self.cond_negate(n, u, s)
    }
}

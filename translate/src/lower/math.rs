//! Built-in functions, by family: the dispatch here, the sequences in `geometry`, `trig`,
//! `matrix` and `int`.

use super::names;
use super::value::Value;
use super::{err, Lower, Span};
use crate::code::Src;
use crate::error::Construct;
use crate::TranslateError;
use microcode::tgsi::Opcode;
use naga::{Expression, Handle, MathFunction as M};

/// Operands of a built-in: up to four expressions.
type Args = [Option<Handle<Expression>>; 4];

impl<'a> Lower<'a> {
    /// A built-in function call.
    pub(super) fn math(&mut self, fun: M, args: Args, span: Span) -> Result<Value, TranslateError> {
        let arg = args[0].ok_or_else(|| self.refuse(fun, "it has no operand", span))?;
        if let Some(signed) = self.int_kind(arg) {
            return self.int_math(fun, args, signed, span);
        }
        match fun {
            M::Transpose | M::Determinant | M::Inverse => {
                let v = self.expr(arg)?;
                return match fun {
                    M::Transpose => self.transpose(&v, span),
                    M::Determinant => self.determinant(&v, span),
                    _ => self.inverse(&v, span),
                };
            }
            M::Outer => {
                let (c, rows) = self.vec(arg)?;
                let (r, cols) = self.operand(fun, args[1], span)?;
                return Ok(self.outer(c, rows, r, cols));
            }
            M::Modf | M::Frexp => {
                let (x, n) = self.vec(arg)?;
                return Ok(if fun == M::Modf {
                    let whole = self.fop(Opcode::Trunc, n, vec![x]);
                    let fract = self.alu(Opcode::Add, n, vec![x, whole.negated()]);
                    Value::Agg(vec![
                        fract,
                        Value::V {
                            src: whole,
                            size: n,
                        },
                    ])
                } else {
                    self.frexp(x, n)
                });
            }
            M::Ldexp => {
                let (x, n) = self.vec(arg)?;
                let (e, _) = self.operand(fun, args[1], span)?;
                return Ok(self.ldexp(x, e, n));
            }
            _ => {}
        }
        let (x, n) = self.vec(arg)?;
        let mut ops = vec![x];
        for a in args[1..].iter().flatten() {
            let (v, m) = self.vec(*a)?;
            ops.push(if m == 1 && n > 1 { v.comp(0) } else { v });
        }
        if let Some(v) = self.basic_math(fun, &ops, n, args, span)? {
            return Ok(v);
        }
        if let Some(v) = self.transcendental(fun, &ops, n) {
            return Ok(v);
        }
        Err(self.refuse(fun, why_not(fun), span))
    }

    /// Operand `h` of `fun` as a vector.
    fn operand(
        &mut self,
        fun: M,
        h: Option<Handle<Expression>>,
        span: Span,
    ) -> Result<(Src, usize), TranslateError> {
        let h = h.ok_or_else(|| self.refuse(fun, "an operand is missing", span))?;
        self.vec(h)
    }

    /// The refusal of `fun`, named as the shader's language names it.
    fn refuse(&self, fun: M, why: &str, span: Span) -> TranslateError {
        err(
            Construct::Function(names::math(fun, self.language)),
            why,
            span,
        )
    }

    /// Comparisons, rounding, interpolation and geometry: one instruction or a short sequence.
    fn basic_math(
        &mut self,
        fun: M,
        ops: &[Src],
        n: usize,
        args: Args,
        span: Span,
    ) -> Result<Option<Value>, TranslateError> {
        let x = ops[0];
        let missing = self.refuse(fun, "an operand is missing", span);
        let need = |k: usize| -> Result<Src, TranslateError> {
            ops.get(k).copied().ok_or_else(|| missing.clone())
        };
        Ok(Some(match fun {
            M::Abs => Value::V {
                src: Src {
                    abs: true,
                    neg: false,
                    ..x
                },
                size: n,
            },
            M::Min => self.alu(Opcode::Min, n, vec![x, need(1)?]),
            M::Max => self.alu(Opcode::Max, n, vec![x, need(1)?]),
            M::Clamp => {
                let m = self.fop(Opcode::Max, n, vec![x, need(1)?]);
                self.alu(Opcode::Min, n, vec![m, need(2)?])
            }
            M::Saturate => Value::V {
                src: self.saturated(Opcode::Mov, n, vec![x]),
                size: n,
            },
            M::Ceil => self.alu(Opcode::Ceil, n, vec![x]),
            M::Floor => self.alu(Opcode::Flr, n, vec![x]),
            M::Round => self.alu(Opcode::Round, n, vec![x]),
            M::Fract => self.alu(Opcode::Frc, n, vec![x]),
            M::Trunc => self.alu(Opcode::Trunc, n, vec![x]),
            M::Sign => self.alu(Opcode::Ssg, n, vec![x]),
            M::Fma => self.alu(Opcode::Mad, n, vec![x, need(1)?, need(2)?]),
            M::Mix => self.alu(Opcode::Lrp, n, vec![need(2)?, need(1)?, x]),
            M::Step => {
                // step(edge, x) = x >= edge, a scalar edge against a vector x broadcast.
                let xh = args[1].ok_or_else(|| self.refuse(fun, "an operand is missing", span))?;
                let (xv, m) = self.vec(xh)?;
                let k = m.max(n);
                let xv = if m == 1 { xv.comp(0) } else { xv };
                self.alu(Opcode::Sge, k, vec![xv, x])
            }
            M::SmoothStep => {
                let xh = args[2].ok_or_else(|| self.refuse(fun, "an operand is missing", span))?;
                let (xv, m) = self.vec(xh)?;
                self.smoothstep(x, need(1)?, xv, n, m)
            }
            M::Dot => self.dot(x, need(1)?, n),
            M::Cross => self.alu(Opcode::Xpd, 3, vec![x, need(1)?]),
            M::Length => self.length(x, n),
            M::Distance => {
                let d = self.fop(Opcode::Add, n, vec![x, need(1)?.negated()]);
                self.length(d, n)
            }
            M::Normalize => self.normalize(x, n),
            M::Reflect => self.reflect(x, need(1)?, n),
            M::Refract => self.refract(x, need(1)?, need(2)?, n),
            M::FaceForward => self.face_forward(x, need(1)?, need(2)?, n),
            _ => return Ok(None),
        }))
    }

    /// `smoothstep(e0, e1, x)`: `t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2 t)`.
    fn smoothstep(&mut self, e0: Src, e1: Src, xv: Src, n: usize, m: usize) -> Value {
        let e0 = if n == 1 && m > 1 { e0.comp(0) } else { e0 };
        let e1 = if n == 1 && m > 1 { e1.comp(0) } else { e1 };
        let xv = if m == 1 { xv.comp(0) } else { xv };
        let k = m.max(n);
        let num = self.fop(Opcode::Add, k, vec![xv, e0.negated()]);
        let den = self.fop(Opcode::Add, k, vec![e1, e0.negated()]);
        // Constant edges (the usual case): a multiply by the reciprocal, 1 core instruction
        // where DIV takes 52; smoothstep is no exact division anyway.
        let (op, den) = match self.imm_values(&den, k) {
            Some(v) if v.iter().all(|x| x.is_normal() && (1.0 / x).is_normal()) => {
                let bits: Vec<u32> = v.iter().map(|x| (1.0 / x).to_bits()).collect();
                (Opcode::Mul, self.code.imm(&bits))
            }
            _ => (Opcode::Div, den),
        };
        let t = self.saturated(op, k, vec![num, den]);
        let m2 = self.imm_s(-2.0);
        let three = self.imm_s(3.0);
        let p = self.fop(Opcode::Mad, k, vec![t, m2, three]);
        let tt = self.fop(Opcode::Mul, k, vec![t, t]);
        self.alu(Opcode::Mul, k, vec![tt, p])
    }

    /// Trigonometric, hyperbolic, exponential and logarithmic functions, and roots.
    fn transcendental(&mut self, fun: M, ops: &[Src], n: usize) -> Option<Value> {
        let x = ops[0];
        let y = ops.get(1).copied();
        Some(match fun {
            M::Cos => self.per_comp(Opcode::Cos, n, &[x]),
            M::Sin => self.per_comp(Opcode::Sin, n, &[x]),
            M::Tan => {
                let s = self.per_comp(Opcode::Sin, n, &[x]).src();
                let c = self.per_comp(Opcode::Cos, n, &[x]).src();
                self.alu(Opcode::Div, n, vec![s, c])
            }
            M::Sinh => self.sinh_cosh(x, n, false),
            M::Cosh => self.sinh_cosh(x, n, true),
            M::Tanh => self.tanh(x, n),
            M::Asinh => self.asinh_acosh(x, n, false),
            M::Acosh => self.asinh_acosh(x, n, true),
            M::Atanh => self.atanh(x, n),
            M::Exp => Value::V {
                src: self.exp(x, n),
                size: n,
            },
            M::Exp2 => self.per_comp(Opcode::Ex2, n, &[x]),
            M::Log => Value::V {
                src: self.log(x, n),
                size: n,
            },
            M::Log2 => self.per_comp(Opcode::Lg2, n, &[x]),
            M::Pow => self.per_comp(Opcode::Pow, n, &[x, y?]),
            M::Sqrt => self.sqrt(x, n),
            M::InverseSqrt => self.per_comp(Opcode::Rsq, n, &[x]),
            M::Radians => {
                let k = self.imm_s(std::f32::consts::PI / 180.0);
                self.alu(Opcode::Mul, n, vec![x, k])
            }
            M::Degrees => {
                let k = self.imm_s(180.0 / std::f32::consts::PI);
                self.alu(Opcode::Mul, n, vec![x, k])
            }
            // WGSL's atan2(y, x) and GLSL's atan(y, x): y is the first argument.
            M::Atan => self.atan(x, None, n),
            M::Atan2 => self.atan(x, Some(y?), n),
            M::Asin | M::Acos => self.asin_acos(x, n, fun == M::Acos),
            _ => return None,
        })
    }
}

/// Why a built-in without a translation has none.
fn why_not(fun: M) -> &'static str {
    match fun {
        M::CountTrailingZeros
        | M::CountLeadingZeros
        | M::CountOneBits
        | M::ReverseBits
        | M::ExtractBits
        | M::InsertBits
        | M::FirstTrailingBit
        | M::FirstLeadingBit => "it applies to integers",
        M::QuantizeToF16 => "TGSI 1.x has no half-precision conversion",
        M::Dot4I8Packed | M::Dot4U8Packed => "it applies to packed integers",
        _ => "TGSI has no instruction or exact sequence for it on these operands",
    }
}

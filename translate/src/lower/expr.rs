//! Expressions: the cache of emitted values, operand helpers, constant folding, and the
//! dispatch of each expression kind to the module that lowers it.

use super::constant::{literal_bits, literal_is_int};
use super::value::{keeps_bits, Value};
use super::{err, Lower};
use crate::code::{Code, RegFile, Src};
use crate::error::Construct;
use crate::TranslateError;
use microcode::tgsi::Opcode;
use naga::{Expression, Handle};

impl<'a> Lower<'a> {
    /// An expression's value: cached once emitted, or evaluated (for expressions that need no
    /// Emit: literals, constants, variables, arguments).
    pub(super) fn expr(&mut self, h: Handle<Expression>) -> Result<Value, TranslateError> {
        if let Some(v) = &self.frame().cache[h.index()] {
            return Ok(v.clone());
        }
        let v = self.expr_uncached(h)?;
        self.frame_mut().cache[h.index()] = Some(v.clone());
        Ok(v)
    }

    /// A vector or scalar operand as it is (a scalar reads its component through the swizzle).
    pub(super) fn scalar(&mut self, h: Handle<Expression>) -> Result<Src, TranslateError> {
        if self.is_f64(h) {
            return Err(self.f64_here(h));
        }
        match self.expr(h)? {
            Value::V { src, .. } => Ok(src),
            _ => Err(self.not_a_vector(h)),
        }
    }

    /// A vector or scalar operand; a scalar reads its one component in all four.
    pub(super) fn vec(&mut self, h: Handle<Expression>) -> Result<(Src, usize), TranslateError> {
        // A double scalar is two words: never a 32-bit vector to the generic lowering.
        if self.is_f64(h) {
            return Err(self.f64_here(h));
        }
        match self.expr(h)? {
            Value::V { src, size: 1 } => Ok((src.comp(0), 1)),
            Value::V { src, size } => Ok((src, size)),
            _ => Err(self.not_a_vector(h)),
        }
    }

    /// The refusal of an aggregate where a vector is needed, naming the operand's type.
    fn not_a_vector(&self, h: Handle<Expression>) -> TranslateError {
        let ty = super::names::inner_name(self.module, self.expr_ty(h), self.language);
        err(
            Construct::Other(format!("an operand of type `{ty}` here")),
            "this operation takes scalars or vectors",
            self.span_of(h),
        )
    }

    pub(super) fn fold(&mut self, op: Opcode, size: usize, src: &[Src]) -> Option<Value> {
        if !src.iter().all(|s| s.reg.file == RegFile::Imm) {
            return None;
        }
        let get = |code: &Code, s: &Src, c: usize| -> f32 {
            let b = code.imms[s.reg.index as usize][s.swz[c] as usize];
            let x = f32::from_bits(b);
            let x = if s.abs { x.abs() } else { x };
            if s.neg {
                -x
            } else {
                x
            }
        };
        // Subnormal operands are zero to the models (an integer's bits read as a float often are).
        let subnormal = |x: f32| x != 0.0 && !x.is_normal() && x.is_finite();
        let mut out = Vec::new();
        for c in 0..size {
            let a = get(&self.code, &src[0], c);
            let b = src.get(1).map(|s| get(&self.code, s, c));
            if subnormal(a) || b.is_some_and(subnormal) {
                return None;
            }
            let r = match (op, b) {
                (Opcode::Add, Some(b)) => a + b,
                (Opcode::Mul, Some(b)) => a * b,
                (Opcode::Div, Some(b)) if b != 0.0 => a / b,
                (Opcode::Min, Some(b)) => a.min(b),
                (Opcode::Max, Some(b)) => a.max(b),
                _ => return None,
            };
            // Subnormals and NaN are where the models' rules differ from the host's: leave them.
            if !r.is_normal() && r != 0.0 {
                return None;
            }
            out.push(r.to_bits());
        }
        Some(Value::V {
            src: self.code.imm(&out),
            size,
        })
    }

    /// Lowers expression `h` (not cached).
    pub(super) fn expr_uncached(&mut self, h: Handle<Expression>) -> Result<Value, TranslateError> {
        let fun = self.frame().fun;
        let span = self.span_of(h);
        if let Some(v) = self.double_expr(h, span)? {
            return Ok(v);
        }
        Ok(match &fun.expressions[h] {
            Expression::Literal(l) => {
                let bits = literal_bits(*l, span)?;
                Value::V {
                    src: if literal_is_int(l) {
                        self.code.imm_int(&[bits])
                    } else {
                        self.code.imm(&[bits])
                    },
                    size: 1,
                }
            }
            Expression::Constant(c) => self.const_value(self.module.constants[*c].init)?,
            Expression::ZeroValue(ty) => self.zero(*ty, span)?,
            Expression::Compose { ty, components } => self.compose_expr(*ty, components)?,
            Expression::Access { base, index } => self.access_dynamic(h, *base, *index)?,
            Expression::AccessIndex { base, index } => self.access(*base, *index as usize, span)?,
            Expression::Splat { size, value } => {
                let (s, _) = self.vec(*value)?;
                Value::V {
                    src: s.comp(0),
                    size: *size as usize,
                }
            }
            Expression::Swizzle {
                size,
                vector,
                pattern,
            } => {
                let (s, _) = self.vec(*vector)?;
                let mut swz = [0u8; 4];
                for (i, slot) in swz.iter_mut().enumerate() {
                    *slot = s.swz[pattern[i.min(*size as usize - 1)] as usize];
                }
                Value::V {
                    src: Src { swz, ..s },
                    size: *size as usize,
                }
            }
            Expression::FunctionArgument(i) => self.frame().args[*i as usize].clone(),
            Expression::GlobalVariable(g) => match self.globals.get(g).cloned() {
                Some(v @ (Value::Image { .. } | Value::Sampler)) => v,
                Some(other) => Value::Ptr {
                    storage: Box::new(other),
                    comp: None,
                },
                None => {
                    return Err(err(
                        Construct::Other("this global variable".into()),
                        "it was not declared",
                        span,
                    ))
                }
            },
            Expression::LocalVariable(l) => Value::Ptr {
                storage: Box::new(self.frame().locals[l.index()].clone()),
                comp: None,
            },
            Expression::Load { pointer } => self.load(h, *pointer)?,
            Expression::ImageSample { .. } => self.image_sample(h)?,
            Expression::ImageLoad { .. } => self.image_load(h)?,
            Expression::ImageQuery { image, query } => self.image_query(h, *image, *query)?,
            Expression::Unary { op, expr } => self.unary(*op, *expr, span)?,
            Expression::Binary { op, left, right } => self.binary(*op, *left, *right, span)?,
            Expression::Select {
                condition,
                accept,
                reject,
            } => self.select(*condition, *accept, *reject, span)?,
            Expression::Derivative { axis, expr, .. } => self.derivative(*axis, *expr)?,
            Expression::Relational { fun, argument } => self.relational(*fun, *argument)?,
            Expression::Math {
                fun,
                arg,
                arg1,
                arg2,
                arg3,
            } => self.math(*fun, [Some(*arg), *arg1, *arg2, *arg3], span)?,
            Expression::As {
                expr,
                kind,
                convert,
            } => self.cast(*expr, *kind, *convert, span)?,
            other => {
                let (name, why) = expression_refusal(other);
                return Err(err(Construct::Expression(name), why, span));
            }
        })
    }

    /// `select(reject, accept, condition)`: CMP on the negated condition (UCMP for integers),
    /// leaf by leaf for aggregates.
    fn select(
        &mut self,
        condition: Handle<Expression>,
        accept: Handle<Expression>,
        reject: Handle<Expression>,
        span: naga::Span,
    ) -> Result<Value, TranslateError> {
        let (c, _) = self.vec(condition)?;
        let int = keeps_bits(self.expr_ty(accept));
        let a = self.expr(accept)?;
        let r = self.expr(reject)?;
        self.select_values(c, &a, &r, int, span)
    }

    /// Leaf by leaf: `a` where `c` (1.0 / 0.0, one per component or a scalar) is set, else `r`.
    pub(super) fn select_values(
        &mut self,
        c: Src,
        a: &Value,
        r: &Value,
        int: bool,
        span: naga::Span,
    ) -> Result<Value, TranslateError> {
        match (a, r) {
            (Value::V { src: a, size: n }, Value::V { src: r, .. }) => {
                let (a, r, n) = (*a, *r, *n);
                let (a, r) = if n == 1 {
                    (a.comp(0), r.comp(0))
                } else {
                    (a, r)
                };
                Ok(if int {
                    Value::V {
                        src: self.iselect(n, c, a, r),
                        size: n,
                    }
                } else {
                    self.alu(Opcode::Cmp, n, vec![c.negated(), a, r])
                })
            }
            (Value::Agg(x), Value::Agg(y)) => {
                let mut out = Vec::new();
                for (p, q) in x.iter().zip(y) {
                    out.push(self.select_values(c.comp(0), p, q, int, span)?);
                }
                Ok(Value::Agg(out))
            }
            _ => Err(err(
                Construct::Function("select".into()),
                "its operands are not values the translator keeps in registers",
                span,
            )),
        }
    }

    /// `dpdx`, `dpdy`, `fwidth` (DDX, DDY, and the sum of their magnitudes).
    fn derivative(
        &mut self,
        axis: naga::DerivativeAxis,
        expr: Handle<Expression>,
    ) -> Result<Value, TranslateError> {
        let (s, n) = self.vec(expr)?;
        Ok(match axis {
            naga::DerivativeAxis::X => self.alu(Opcode::Ddx, n, vec![s]),
            naga::DerivativeAxis::Y => self.alu(Opcode::Ddy, n, vec![s]),
            naga::DerivativeAxis::Width => {
                let x = self.fop(Opcode::Ddx, n, vec![s]);
                let y = self.fop(Opcode::Ddy, n, vec![s]);
                self.alu(
                    Opcode::Add,
                    n,
                    vec![Src { abs: true, ..x }, Src { abs: true, ..y }],
                )
            }
        })
    }

    /// `any` and `all` (a dot product with ones, compared), `isnan` (`x != x`), `isinf`.
    fn relational(
        &mut self,
        fun: naga::RelationalFunction,
        argument: Handle<Expression>,
    ) -> Result<Value, TranslateError> {
        let (s, n) = self.vec(argument)?;
        let ones = self.code.imm(&[1.0f32.to_bits(); 4][..n.max(1)]);
        let dp = match n {
            1 => s,
            2 => self.fop(Opcode::Dp2, 1, vec![s, ones]),
            3 => self.fop(Opcode::Dp3, 1, vec![s, ones]),
            _ => self.fop(Opcode::Dp4, 1, vec![s, ones]),
        };
        Ok(match fun {
            naga::RelationalFunction::Any => {
                let z = self.imm_s(0.0);
                self.alu(Opcode::Slt, 1, vec![z, dp.comp(0)])
            }
            naga::RelationalFunction::All => {
                let k = self.imm_s(n as f32);
                self.alu(Opcode::Sge, 1, vec![dp.comp(0), k])
            }
            naga::RelationalFunction::IsNan => self.alu(Opcode::Sne, n, vec![s, s]),
            naga::RelationalFunction::IsInf => {
                let inf = self.imm_s(f32::INFINITY);
                let a = Src {
                    abs: true,
                    neg: false,
                    ..s
                };
                self.alu(Opcode::Seq, n, vec![a, inf])
            }
        })
    }
}

/// An expression kind's name (for messages about constants).
pub(super) fn expression_name(e: &Expression) -> String {
    format!("{e:?}")
        .split([' ', '{', '('])
        .next()
        .unwrap_or("expression")
        .to_string()
}

/// The name and the reason for an expression without translation.
fn expression_refusal(e: &Expression) -> (String, &'static str) {
    let (name, why) = match e {
        Expression::ArrayLength(_) => (
            "arrayLength",
            "run-time-sized arrays live in storage buffers, which TGSI lacks",
        ),
        Expression::AtomicResult { .. } => (
            "atomic operation",
            "atomics need memory shared between invocations; the core has none",
        ),
        Expression::WorkGroupUniformLoadResult { .. } => (
            "workgroupUniformLoad",
            "workgroup memory belongs to compute shaders",
        ),
        Expression::CallResult(_) => (
            "a call result used before the call",
            "the call has not been lowered yet",
        ),
        Expression::Override(_) => (
            "an override constant",
            "it was not given a value (--override NAME=VALUE)",
        ),
        Expression::SubgroupBallotResult | Expression::SubgroupOperationResult { .. } => {
            ("subgroup operation", "TGSI 1.x has no subgroup operations")
        }
        _ => return (expression_name(e), "TGSI has no equivalent"),
    };
    (name.to_string(), why)
}

//! Operators on scalars and vectors: arithmetic, comparisons (SLT family, 1.0 / 0.0), boolean
//! logic (`&&` MUL, `||` MAX, `!` the opposite comparison), and division by the cheapest exact
//! form. Matrix operands go to `matrix`, integers to `int`.

use super::value::{is_int, Value};
use super::{err, Lower, Span};
use crate::code::{RegFile, Src};
use crate::error::Construct;
use crate::TranslateError;
use microcode::tgsi::Opcode;
use naga::{BinaryOperator, Expression, Handle, Literal, ScalarKind, UnaryOperator};

impl<'a> Lower<'a> {
    /// `-x`, `!x`, `~x`.
    pub(super) fn unary(
        &mut self,
        op: UnaryOperator,
        expr: Handle<Expression>,
        span: Span,
    ) -> Result<Value, TranslateError> {
        if let (UnaryOperator::Negate, Value::Agg(cols)) = (op, self.expr(expr)?) {
            // A matrix: each column negated (a source modifier).
            return Ok(Value::Agg(
                cols.iter()
                    .map(|c| match c {
                        Value::V { src, size } => Value::V {
                            src: src.negated(),
                            size: *size,
                        },
                        other => other.clone(),
                    })
                    .collect(),
            ));
        }
        let (s, n) = self.vec(expr)?;
        let int = is_int(self.expr_ty(expr));
        Ok(match op {
            // Integers: UADD 0, -x (an integer value carries no modifier).
            UnaryOperator::Negate if int => {
                let z = self.code.imm_int(&[0]);
                Value::V {
                    src: self.ialu(Opcode::Uadd, n, vec![z, s.negated()]),
                    size: n,
                }
            }
            UnaryOperator::Negate => Value::V {
                src: s.negated(),
                size: n,
            },
            UnaryOperator::LogicalNot => self.not(expr)?,
            UnaryOperator::BitwiseNot if int => Value::V {
                src: self.ialu(Opcode::Not, n, vec![s]),
                size: n,
            },
            UnaryOperator::BitwiseNot => {
                return Err(err(
                    Construct::Operator("~".into()),
                    "bitwise NOT applies to integers",
                    span,
                ))
            }
        })
    }

    /// A binary operator.
    pub(super) fn binary(
        &mut self,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
        span: Span,
    ) -> Result<Value, TranslateError> {
        let lv = self.expr(left)?;
        let rv = self.expr(right)?;
        if matches!(lv, Value::Agg(_)) || matches!(rv, Value::Agg(_)) {
            return self.matrix_binary(op, &lv, &rv, span);
        }
        let (Value::V { src: a, size: na }, Value::V { src: b, size: nb }) = (lv, rv) else {
            return Err(err(
                Construct::Operator(operator_name(op).into()),
                "its operands are not values the translator keeps in registers",
                span,
            ));
        };
        let n = na.max(nb);
        let a = if na == 1 { a.comp(0) } else { a };
        let b = if nb == 1 { b.comp(0) } else { b };
        if let Some(signed) = self.int_kind(left) {
            return self.int_binary(op, a, b, n, signed, span);
        }
        let boolean = self.expr_ty(left).scalar_kind() == Some(ScalarKind::Bool);
        Ok(match op {
            BinaryOperator::Add => self.alu(Opcode::Add, n, vec![a, b]),
            BinaryOperator::Subtract => self.alu(Opcode::Add, n, vec![a, b.negated()]),
            BinaryOperator::Multiply => self.alu(Opcode::Mul, n, vec![a, b]),
            BinaryOperator::Divide => self.divide(a, b, n),
            BinaryOperator::Modulo => {
                // a - b * trunc(a / b), the sign of a (WGSL's float %).
                let q = self.fop(Opcode::Div, n, vec![a, b]);
                let t = self.fop(Opcode::Trunc, n, vec![q]);
                self.alu(Opcode::Mad, n, vec![b.negated(), t, a])
            }
            BinaryOperator::Equal => self.alu(Opcode::Seq, n, vec![a, b]),
            BinaryOperator::NotEqual => self.alu(Opcode::Sne, n, vec![a, b]),
            BinaryOperator::Less => self.alu(Opcode::Slt, n, vec![a, b]),
            BinaryOperator::LessEqual => self.alu(Opcode::Sle, n, vec![a, b]),
            BinaryOperator::Greater => self.alu(Opcode::Sgt, n, vec![a, b]),
            BinaryOperator::GreaterEqual => self.alu(Opcode::Sge, n, vec![a, b]),
            BinaryOperator::LogicalAnd | BinaryOperator::And if boolean => {
                self.alu(Opcode::Mul, n, vec![a, b])
            }
            BinaryOperator::LogicalOr | BinaryOperator::InclusiveOr if boolean => {
                self.alu(Opcode::Max, n, vec![a, b])
            }
            BinaryOperator::ExclusiveOr if boolean => self.alu(Opcode::Sne, n, vec![a, b]),
            other => {
                return Err(err(
                    Construct::Operator(operator_name(other).into()),
                    "it applies to integers or booleans, not to floats",
                    span,
                ))
            }
        })
    }

    /// For `x < 0.0` (or `0.0 > x`, `x > 0.0`, `0.0 < x`) on a scalar: the operand that is
    /// negative exactly when the comparison holds (`x` or `-x`), which KIL tests directly.
    pub(super) fn sign_test(
        &mut self,
        h: Handle<Expression>,
    ) -> Result<Option<Src>, TranslateError> {
        let fun = self.frame().fun;
        let Expression::Binary { op, left, right } = fun.expressions[h] else {
            return Ok(None);
        };
        let zero = |e: Handle<Expression>| {
            matches!(
                fun.expressions[e],
                Expression::Literal(Literal::F32(z)) if z == 0.0
            )
        };
        let (x, negate) = match op {
            BinaryOperator::Less if zero(right) => (left, false),
            BinaryOperator::Greater if zero(left) => (right, false),
            BinaryOperator::Greater if zero(right) => (left, true),
            BinaryOperator::Less if zero(left) => (right, true),
            _ => return Ok(None),
        };
        let (s, n) = self.vec(x)?;
        if n != 1 {
            return Ok(None);
        }
        Ok(Some(if negate { s.negated() } else { s }))
    }

    /// The negation of a boolean expression; of a comparison, the opposite comparison.
    pub(super) fn not(&mut self, h: Handle<Expression>) -> Result<Value, TranslateError> {
        let fun = self.frame().fun;
        let span = self.span_of(h);
        if let Expression::Binary { op, left, right } = fun.expressions[h] {
            let inverse = match op {
                BinaryOperator::Less => Some(BinaryOperator::GreaterEqual),
                BinaryOperator::LessEqual => Some(BinaryOperator::Greater),
                BinaryOperator::Greater => Some(BinaryOperator::LessEqual),
                BinaryOperator::GreaterEqual => Some(BinaryOperator::Less),
                BinaryOperator::Equal => Some(BinaryOperator::NotEqual),
                BinaryOperator::NotEqual => Some(BinaryOperator::Equal),
                _ => None,
            };
            // With a NaN operand the two differ; WGSL and GLSL leave NaN comparisons to the
            // implementation.
            // Doubles compare as IEEE says (the negation of `<` is true with a NaN).
            if let Some(inv) = inverse.filter(|_| !self.is_f64(left)) {
                return self.binary(inv, left, right, span);
            }
        }
        let (s, n) = self.vec(h)?;
        let z = self.imm_s(0.0);
        Ok(self.alu(Opcode::Seq, n, vec![s, z]))
    }

    /// The values of an immediate operand's components (modifiers applied), if it is one.
    pub(super) fn imm_values(&self, s: &Src, n: usize) -> Option<Vec<f32>> {
        if s.reg.file != RegFile::Imm {
            return None;
        }
        let imm = self.code.imms.get(s.reg.index as usize)?;
        (0..n)
            .map(|c| {
                let x = f32::from_bits(*imm.get(s.swz[c] as usize)?);
                let x = if s.abs { x.abs() } else { x };
                Some(if s.neg { -x } else { x })
            })
            .collect()
    }

    /// a / b in floats: RCP when a is 1 (or -1; correctly rounded like DIV, 44 core instructions
    /// against 52), a multiply when b is a constant power of two (exact), else DIV.
    pub(super) fn divide(&mut self, a: Src, b: Src, n: usize) -> Value {
        if let Some(v) = self.imm_values(&a, n) {
            if v.iter().all(|&x| x == 1.0) || v.iter().all(|&x| x == -1.0) {
                let b = if v[0] < 0.0 { b.negated() } else { b };
                return self.per_comp(Opcode::Rcp, n, &[b]);
            }
        }
        if let Some(v) = self.imm_values(&b, n) {
            // A power of two: no significand bits, so 1/x is exact too.
            let exact =
                |x: f32| x.is_normal() && (1.0 / x).is_normal() && x.to_bits() & 0x007F_FFFF == 0;
            if v.iter().all(|&x| exact(x)) {
                let bits: Vec<u32> = v.iter().map(|x| (1.0 / x).to_bits()).collect();
                let k = self.code.imm(&bits);
                return self.alu(Opcode::Mul, n, vec![a, k]);
            }
        }
        self.alu(Opcode::Div, n, vec![a, b])
    }
}

/// An operator as WGSL and GLSL write it.
pub(super) fn operator_name(op: BinaryOperator) -> &'static str {
    match op {
        BinaryOperator::Add => "+",
        BinaryOperator::Subtract => "-",
        BinaryOperator::Multiply => "*",
        BinaryOperator::Divide => "/",
        BinaryOperator::Modulo => "%",
        BinaryOperator::Equal => "==",
        BinaryOperator::NotEqual => "!=",
        BinaryOperator::Less => "<",
        BinaryOperator::LessEqual => "<=",
        BinaryOperator::Greater => ">",
        BinaryOperator::GreaterEqual => ">=",
        BinaryOperator::And => "&",
        BinaryOperator::ExclusiveOr => "^",
        BinaryOperator::InclusiveOr => "|",
        BinaryOperator::LogicalAnd => "&&",
        BinaryOperator::LogicalOr => "||",
        BinaryOperator::ShiftLeft => "<<",
        BinaryOperator::ShiftRight => ">>",
    }
}

//! Constant expressions (module constants, evaluated overrides, literals) as immediates, and
//! constant arrays placed in IMMX, where a run-time index reads them by relative addressing.

use super::value::{keeps_bits, Value};
use super::{err, Lower, Span};
use crate::code::{Reg, RegFile, Src};
use crate::error::Construct;
use crate::TranslateError;
use naga::{Expression, Handle, Literal, TypeInner};

impl<'a> Lower<'a> {
    /// A module-level constant expression as a value of immediates (aggregates for arrays,
    /// structs and matrices).
    pub(super) fn const_value(&mut self, e: Handle<Expression>) -> Result<Value, TranslateError> {
        let m = self.module;
        let span = m.global_expressions.get_span(e);
        let inner = self.info[e].inner_with(&m.types);
        Ok(match &m.global_expressions[e] {
            Expression::Literal(Literal::F64(x)) => Value::V {
                src: self
                    .code
                    .imm_int(&[x.to_bits() as u32, (x.to_bits() >> 32) as u32]),
                size: 2,
            },
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
            Expression::Constant(c) => self.const_value(m.constants[*c].init)?,
            Expression::ZeroValue(ty) => self.zero(*ty, span)?,
            Expression::Splat { size, value } if self.is_f64_inner(inner) => {
                let pair = self.const_value(*value)?;
                Value::Agg(vec![pair; *size as usize])
            }
            Expression::Splat { size, value } => {
                let s = self.const_value(*value)?.src();
                Value::V {
                    src: s.comp(0),
                    size: *size as usize,
                }
            }
            Expression::Compose { components, .. } => {
                let mut parts = Vec::new();
                for c in components {
                    parts.push(self.const_value(*c)?);
                }
                if let (TypeInner::Vector { .. }, true) = (inner, self.is_f64_inner(inner)) {
                    // A double vector: the pairs of its parts.
                    Value::Agg(parts.iter().flat_map(Value::leaves).collect())
                } else if let TypeInner::Vector { .. } = inner {
                    let mut comps = Vec::new();
                    for p in &parts {
                        if let Value::V { src, size } = p {
                            comps.extend((0..*size).map(|i| src.comp(i)));
                        }
                    }
                    self.compose(&comps, keeps_bits(inner))
                } else {
                    Value::Agg(parts)
                }
            }
            other => {
                return Err(err(
                    Construct::Other(format!(
                        "the constant expression {}",
                        super::expr::expression_name(other)
                    )),
                    "it is not evaluated to a value at translation time",
                    span,
                ))
            }
        })
    }

    /// Function expression `e` as an array in IMMX when it is a constant (every leaf an
    /// immediate); `None` otherwise.
    pub(super) fn constant_array(
        &mut self,
        e: Handle<Expression>,
    ) -> Result<Option<Value>, TranslateError> {
        let key = (self.frames.len(), e);
        if let Some(v) = self.imm_arrays.get(&key) {
            return Ok(Some(v.clone()));
        }
        let v = self.expr(e)?;
        let leaves = v.leaves();
        if !leaves
            .iter()
            .all(|l| matches!(l, Value::V { src, .. } if src.reg.file == RegFile::Imm))
        {
            return Ok(None);
        }
        let placed = self.place_imm_array(&v);
        self.imm_arrays.insert(key, placed.clone());
        Ok(Some(placed))
    }

    /// The same immediates, one IMMX row per leaf.
    pub(super) fn place_imm_array(&mut self, v: &Value) -> Value {
        match v {
            Value::V { src, size } => {
                let mut row = [0u32; 4];
                for (c, slot) in row.iter_mut().enumerate().take(*size) {
                    let b = self.code.imms[src.reg.index as usize][src.swz[c] as usize];
                    let b = if src.abs { b & 0x7FFF_FFFF } else { b };
                    *slot = if src.neg { b ^ 0x8000_0000 } else { b };
                }
                let index = self.code.imm_array.len() as u32;
                self.code.imm_array.push(row);
                let reg = Reg {
                    file: RegFile::ImmArray,
                    index,
                };
                let s = Src::reg(reg);
                Value::V {
                    src: if *size == 1 { s.comp(0) } else { s },
                    size: *size,
                }
            }
            Value::Agg(a) => Value::Agg(a.iter().map(|x| self.place_imm_array(x)).collect()),
            other => other.clone(),
        }
    }
}

/// A literal's 32-bit pattern (a float for floats and booleans, two's complement for integers).
pub(super) fn literal_bits(l: Literal, span: Span) -> Result<u32, TranslateError> {
    Ok(match l {
        Literal::F32(x) => x.to_bits(),
        Literal::AbstractFloat(x) => (x as f32).to_bits(),
        Literal::I32(x) => x as u32,
        Literal::U32(x) => x,
        Literal::AbstractInt(x) => x as u32,
        Literal::Bool(b) => if b { 1.0f32 } else { 0.0 }.to_bits(),
        Literal::F64(_) => {
            return Err(err(
                Construct::Type("f64".into()),
                "a double is two words: it has no single 32-bit pattern here",
                span,
            ))
        }
        Literal::I64(_) | Literal::U64(_) => {
            return Err(err(
                Construct::Type(
                    if matches!(l, Literal::I64(_)) {
                        "i64"
                    } else {
                        "u64"
                    }
                    .into(),
                ),
                "64-bit integers have no TGSI opcodes",
                span,
            ))
        }
        other => {
            return Err(err(
                Construct::Other(format!("the literal {other:?}")),
                "TGSI has no registers of its type",
                span,
            ))
        }
    })
}

/// True for integer literals.
pub(super) fn literal_is_int(l: &Literal) -> bool {
    matches!(
        l,
        Literal::I32(_) | Literal::U32(_) | Literal::AbstractInt(_)
    )
}

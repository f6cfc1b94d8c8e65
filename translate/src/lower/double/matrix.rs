//! Double matrices (`mat2x2<f64>`, GLSL `dmat*`), as columns of pairs: products (`m * v` DMUL
//! then DMADs down the columns, two rows per instruction; `v * m` a `dot` per column), sums,
//! scaling, `transpose` (a rearrangement of pairs: no instruction), `determinant` (cofactor
//! expansion down the first column, one DMUL and a DMAD per term) and `outerProduct`.
//! `inverse` of a double matrix is refused by name.

use crate::code::Src;
use crate::error::Construct;
use crate::lower::value::Value;
use crate::lower::{err, names, Lower, Span};
use crate::TranslateError;
use microcode::tgsi::Opcode;
use naga::{BinaryOperator, Expression, Handle, MathFunction as M, TypeInner};

/// A matrix as its columns' pairs (`m[column][row]`).
type Columns = Vec<Vec<Src>>;

impl<'a> Lower<'a> {
    /// The columns of a double matrix value.
    fn dcolumns(&self, m: &Value, span: Span) -> Result<Columns, TranslateError> {
        let Value::Agg(cols) = m else {
            return Err(err(
                Construct::Other("this `f64` matrix".into()),
                "the translator keeps it in no registers here",
                span,
            ));
        };
        cols.iter().map(|c| self.pairs_of(c, span)).collect()
    }

    /// A matrix value from columns of pairs.
    fn dmatrix(&mut self, cols: Columns) -> Value {
        Value::Agg(cols.into_iter().map(|c| self.dvalue(c, true)).collect())
    }

    /// `f` applied to each column of matrix `m`.
    pub(super) fn dmatrix_map(
        &mut self,
        m: &Value,
        span: Span,
        mut f: impl FnMut(&mut Self, &[Src]) -> Vec<Src>,
    ) -> Result<Value, TranslateError> {
        let cols = self.dcolumns(m, span)?;
        let out = cols.iter().map(|c| f(self, c)).collect();
        Ok(self.dmatrix(out))
    }

    /// An operator with a double matrix on either side.
    pub(super) fn dmatrix_binary(
        &mut self,
        h: Handle<Expression>,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
        span: Span,
    ) -> Result<Value, TranslateError> {
        let bad = || {
            err(
                Construct::Operator(crate::lower::binary::operator_name(op).into()),
                "TGSI has no such operation on these operands",
                span,
            )
        };
        let is_matrix = |s: &Self, e| matches!(s.expr_ty(e), TypeInner::Matrix { .. });
        let is_vector = |s: &Self, e| matches!(s.expr_ty(e), TypeInner::Vector { .. });
        let (lm, rm) = (is_matrix(self, left), is_matrix(self, right));
        if lm && rm {
            let a = self.expr(left)?;
            let a = self.dcolumns(&a, span)?;
            let b = self.expr(right)?;
            let b = self.dcolumns(&b, span)?;
            let cols = match op {
                BinaryOperator::Multiply => b.iter().map(|v| self.dmat_vec(&a, v)).collect(),
                BinaryOperator::Add | BinaryOperator::Subtract => {
                    let sub = op == BinaryOperator::Subtract;
                    let mut out = Vec::new();
                    for (x, y) in a.iter().zip(&b) {
                        let y = if sub { super::negated(y) } else { y.clone() };
                        out.push(self.dop(Opcode::Dadd, x.len(), &[x, &y]));
                    }
                    out
                }
                _ => return Err(bad()),
            };
            return Ok(self.dmatrix(cols));
        }
        let (m, other, matrix_left) = if lm {
            (left, right, true)
        } else {
            (right, left, false)
        };
        let mv = self.expr(m)?;
        let cols = self.dcolumns(&mv, span)?;
        let v = self.doperand(other)?;
        if is_vector(self, other) {
            if op != BinaryOperator::Multiply {
                return Err(bad());
            }
            let pairs = if matrix_left {
                self.dmat_vec(&cols, &v)
            } else {
                cols.iter().map(|c| self.ddot(&v, c)).collect()
            };
            return Ok(self.dresult(h, pairs));
        }
        // A scalar with each column.
        let mut out = Vec::new();
        for c in &cols {
            let n = c.len();
            let (x, y) = if matrix_left {
                (c.clone(), v.clone())
            } else {
                (v.clone(), c.clone())
            };
            out.push(match op {
                BinaryOperator::Multiply => self.dop(Opcode::Dmul, n, &[&x, &y]),
                BinaryOperator::Add => self.dop(Opcode::Dadd, n, &[&x, &y]),
                BinaryOperator::Subtract => self.dop(Opcode::Dadd, n, &[&x, &super::negated(&y)]),
                BinaryOperator::Divide => self.dop(Opcode::Ddiv, n, &[&x, &y]),
                _ => return Err(bad()),
            });
        }
        Ok(self.dmatrix(out))
    }

    /// `m * v`: the first column times v.x, then a DMAD per column (two rows per instruction).
    fn dmat_vec(&mut self, m: &Columns, v: &[Src]) -> Vec<Src> {
        let rows = m.first().map_or(0, Vec::len);
        let mut acc: Option<Vec<Src>> = None;
        for (j, c) in m.iter().enumerate() {
            let vj = [super::at(v, j)];
            acc = Some(match acc {
                None => self.dop(Opcode::Dmul, rows, &[c, &vj]),
                Some(a) => self.dop(Opcode::Dmad, rows, &[c, &vj, &a]),
            });
        }
        acc.unwrap_or_default()
    }

    /// `transpose`, `determinant`, `outerProduct` of doubles; `inverse` refused.
    pub(super) fn double_matrix_math(
        &mut self,
        fun: M,
        args: [Option<Handle<Expression>>; 4],
        span: Span,
    ) -> Result<Value, TranslateError> {
        let name = names::math(fun, self.language);
        let refuse = |why: &str| err(Construct::Function(name.clone()), why, span);
        let arg = args[0].ok_or_else(|| refuse("it has no operand"))?;
        match fun {
            M::Transpose => {
                let m = self.expr(arg)?;
                let cols = self.dcolumns(&m, span)?;
                let rows = cols.first().map_or(0, Vec::len);
                let t = (0..rows)
                    .map(|r| cols.iter().map(|c| c[r]).collect())
                    .collect();
                Ok(self.dmatrix(t))
            }
            M::Determinant => {
                let m = self.expr(arg)?;
                let cols = self.dcolumns(&m, span)?;
                let d = self.ddeterminant(&cols);
                Ok(self.dvalue(vec![d], false))
            }
            M::Outer => {
                let c = self.doperand(arg)?;
                let r = args[1].ok_or_else(|| refuse("an operand is missing"))?;
                let r = self.doperand(r)?;
                let cols = r
                    .iter()
                    .map(|rj| self.dop(Opcode::Dmul, c.len(), &[&c, &[*rj]]))
                    .collect();
                Ok(self.dmatrix(cols))
            }
            _ => Err(refuse(
                "the inverse of a double matrix is not translated (the translator's inverse is \
                 for f32 matrices)",
            )),
        }
    }

    /// The determinant by cofactors down the first column: `m00 m11 - m10 m01` for 2x2 (one
    /// DMUL, one DMAD), `sum_c (-1)^c m[c][0] det(minor c)` above, left to right.
    fn ddeterminant(&mut self, m: &Columns) -> Src {
        let n = m.len();
        match n {
            0 => self.dconst(0.0),
            1 => m[0][0],
            2 => {
                let ad = self.dop(Opcode::Dmul, 1, &[&[m[0][0]], &[m[1][1]]]);
                let cb = [m[1][0].negated()];
                self.dop(Opcode::Dmad, 1, &[&cb, &[m[0][1]], &ad])[0]
            }
            _ => {
                let mut acc: Option<Src> = None;
                for c in 0..n {
                    let minor: Columns = (0..n)
                        .filter(|&k| k != c)
                        .map(|k| m[k][1..].to_vec())
                        .collect();
                    let d = self.ddeterminant(&minor);
                    let e = if c % 2 == 1 {
                        m[c][0].negated()
                    } else {
                        m[c][0]
                    };
                    acc = Some(match acc {
                        None => self.dop(Opcode::Dmul, 1, &[&[e], &[d]])[0],
                        Some(a) => self.dop(Opcode::Dmad, 1, &[&[e], &[d], &[a]])[0],
                    });
                }
                acc.unwrap_or(m[0][0])
            }
        }
    }
}

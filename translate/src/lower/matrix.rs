//! Matrices, as columns: products (`mat * vec` MUL / MAD per column, `vec * mat` one DP per
//! column), sums, scaling, `transpose`, `determinant` and `inverse` (cofactors over the
//! determinant: 2x2 directly, 3x3 with three cross products, 4x4 with the twelve 2x2
//! sub-determinants of the column pairs), `outerProduct`.

use super::value::Value;
use super::{err, Lower, Span};
use crate::code::Src;
use crate::error::Construct;
use crate::TranslateError;
use microcode::tgsi::Opcode;
use naga::BinaryOperator;

/// A matrix as its columns' operands, with the number of rows.
struct Columns {
    cols: Vec<Src>,
    rows: usize,
}

impl Columns {
    fn of(v: &Value) -> Option<Columns> {
        let Value::Agg(items) = v else { return None };
        let mut cols = Vec::new();
        let mut rows = 0;
        for c in items {
            let Value::V { src, size } = c else {
                return None;
            };
            cols.push(*src);
            rows = *size;
        }
        Some(Columns { cols, rows })
    }

    /// Element (row r, column c).
    fn at(&self, r: usize, c: usize) -> Src {
        self.cols[c].comp(r)
    }
}

impl<'a> Lower<'a> {
    /// An operator with a matrix (an aggregate) on either side.
    pub(super) fn matrix_binary(
        &mut self,
        op: BinaryOperator,
        lv: &Value,
        rv: &Value,
        span: Span,
    ) -> Result<Value, TranslateError> {
        let bad = || {
            err(
                Construct::Operator(super::binary::operator_name(op).into()),
                "TGSI has no such operation on these operands",
                span,
            )
        };
        match (Columns::of(lv), Columns::of(rv), lv, rv) {
            (Some(m), None, _, Value::V { src, size }) if *size > 1 => {
                if op != BinaryOperator::Multiply {
                    return Err(bad());
                }
                Ok(self.mat_vec(&m, *src))
            }
            (None, Some(m), Value::V { src, size }, _) if *size > 1 => {
                if op != BinaryOperator::Multiply {
                    return Err(bad());
                }
                Ok(self.vec_mat(*src, *size, &m))
            }
            (Some(a), Some(b), _, _) => match op {
                BinaryOperator::Multiply => Ok(self.mat_mat(&a, &b)),
                BinaryOperator::Add | BinaryOperator::Subtract => {
                    let sub = op == BinaryOperator::Subtract;
                    let mut out = Vec::new();
                    for (x, y) in a.cols.iter().zip(&b.cols) {
                        let y = if sub { y.negated() } else { *y };
                        out.push(self.alu(Opcode::Add, a.rows, vec![*x, y]));
                    }
                    Ok(Value::Agg(out))
                }
                _ => Err(bad()),
            },
            (Some(m), None, _, Value::V { src, .. }) | (None, Some(m), Value::V { src, .. }, _) => {
                let s = src.comp(0);
                let left_scalar = Columns::of(lv).is_none();
                let mut out = Vec::new();
                for c in &m.cols {
                    out.push(match op {
                        BinaryOperator::Multiply => self.alu(Opcode::Mul, m.rows, vec![*c, s]),
                        BinaryOperator::Add => self.alu(Opcode::Add, m.rows, vec![*c, s]),
                        BinaryOperator::Subtract if left_scalar => {
                            self.alu(Opcode::Add, m.rows, vec![s, c.negated()])
                        }
                        BinaryOperator::Subtract => {
                            self.alu(Opcode::Add, m.rows, vec![*c, s.negated()])
                        }
                        BinaryOperator::Divide if left_scalar => self.divide(s, *c, m.rows),
                        BinaryOperator::Divide => self.divide(*c, s, m.rows),
                        _ => return Err(bad()),
                    });
                }
                Ok(Value::Agg(out))
            }
            _ => Err(bad()),
        }
    }

    /// `m * v`: the columns scaled by v's components, summed (MUL then MADs).
    fn mat_vec(&mut self, m: &Columns, v: Src) -> Value {
        let mut acc: Option<Src> = None;
        for (j, c) in m.cols.iter().enumerate() {
            acc = Some(match acc {
                None => self.fop(Opcode::Mul, m.rows, vec![*c, v.comp(j)]),
                Some(a) => self.fop(Opcode::Mad, m.rows, vec![*c, v.comp(j), a]),
            });
        }
        Value::V {
            src: acc.unwrap_or(v),
            size: m.rows,
        }
    }

    /// `v * m`: one dot product per column.
    fn vec_mat(&mut self, v: Src, size: usize, m: &Columns) -> Value {
        let r = self.code.temp();
        let dp = match size {
            2 => Opcode::Dp2,
            3 => Opcode::Dp3,
            _ => Opcode::Dp4,
        };
        for (j, c) in m.cols.iter().enumerate() {
            self.code.push(dp, Some((r, 1 << j)), vec![v, *c]);
        }
        Value::V {
            src: Src::reg(r),
            size: m.cols.len(),
        }
    }

    /// `a * b`: `a` times each column of `b`.
    fn mat_mat(&mut self, a: &Columns, b: &Columns) -> Value {
        Value::Agg(b.cols.iter().map(|c| self.mat_vec(a, *c)).collect())
    }

    /// `transpose(m)`: each new column composed from one row.
    pub(super) fn transpose(&mut self, v: &Value, span: Span) -> Result<Value, TranslateError> {
        let m = self.columns(v, "transpose", span)?;
        let mut out = Vec::new();
        for r in 0..m.rows {
            let parts: Vec<Src> = (0..m.cols.len()).map(|c| m.at(r, c)).collect();
            out.push(self.compose(&parts, false));
        }
        Ok(Value::Agg(out))
    }

    /// `outerProduct(c, r)`: column j is `c * r[j]`.
    pub(super) fn outer(&mut self, c: Src, rows: usize, r: Src, cols: usize) -> Value {
        Value::Agg(
            (0..cols)
                .map(|j| self.alu(Opcode::Mul, rows, vec![c, r.comp(j)]))
                .collect(),
        )
    }

    /// The matrix operand of a matrix function.
    fn columns(&self, v: &Value, name: &str, span: Span) -> Result<Columns, TranslateError> {
        Columns::of(v).ok_or_else(|| {
            err(
                Construct::Function(name.into()),
                "its operand is not a matrix in registers",
                span,
            )
        })
    }

    /// `a * b - c * d` on scalars (MUL then MAD: one rounding each, as the models compute).
    fn cross2(&mut self, a: Src, b: Src, c: Src, d: Src) -> Src {
        let p = self.fop(Opcode::Mul, 1, vec![c, d]);
        self.fop(Opcode::Mad, 1, vec![a, b, p.negated()])
    }

    /// `determinant(m)`.
    pub(super) fn determinant(&mut self, v: &Value, span: Span) -> Result<Value, TranslateError> {
        let m = self.columns(v, "determinant", span)?;
        let d = match m.rows {
            2 => self.cross2(m.at(0, 0), m.at(1, 1), m.at(0, 1), m.at(1, 0)),
            3 => {
                let x = self.fop(Opcode::Xpd, 3, vec![m.cols[1], m.cols[2]]);
                self.fop(Opcode::Dp3, 1, vec![m.cols[0], x])
            }
            _ => {
                let (a, b) = self.subdeterminants(&m);
                self.det4(&a, &b)
            }
        };
        Ok(Value::V {
            src: d.comp(0),
            size: 1,
        })
    }

    /// The 2x2 sub-determinants of rows 0-1 (`a`) and rows 2-3 (`b`) over the column pairs
    /// (0,1) (0,2) (0,3) (1,2) (1,3) (2,3), as `m[r][c]` is row r of column c.
    fn subdeterminants(&mut self, m: &Columns) -> ([Src; 6], [Src; 6]) {
        const PAIRS: [(usize, usize); 6] = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
        let mut a = [Src::reg(crate::code::Reg::temp(0)); 6];
        let mut b = a;
        for (k, &(i, j)) in PAIRS.iter().enumerate() {
            // a_k = m[0][i] m[1][j] - m[0][j] m[1][i]; b_k the same on rows 2 and 3.
            a[k] = self.cross2(m.at(0, i), m.at(1, j), m.at(0, j), m.at(1, i));
            b[k] = self.cross2(m.at(2, i), m.at(3, j), m.at(2, j), m.at(3, i));
        }
        (a, b)
    }

    /// `a0 b5 - a1 b4 + a2 b3 + a3 b2 - a4 b1 + a5 b0`.
    fn det4(&mut self, a: &[Src; 6], b: &[Src; 6]) -> Src {
        let terms = [
            (a[0], b[5], false),
            (a[1], b[4], true),
            (a[2], b[3], false),
            (a[3], b[2], false),
            (a[4], b[1], true),
            (a[5], b[0], false),
        ];
        let mut acc = self.fop(Opcode::Mul, 1, vec![terms[0].0, terms[0].1]);
        for &(x, y, neg) in &terms[1..] {
            let x = if neg { x.negated() } else { x };
            acc = self.fop(Opcode::Mad, 1, vec![x, y, acc]);
        }
        acc
    }

    /// `inverse(m)`: the adjugate over the determinant (no result is defined for a singular
    /// matrix; this one divides by zero).
    pub(super) fn inverse(&mut self, v: &Value, span: Span) -> Result<Value, TranslateError> {
        let m = self.columns(v, "inverse", span)?;
        let (entries, det) = match m.rows {
            2 => {
                let det = self.cross2(m.at(0, 0), m.at(1, 1), m.at(0, 1), m.at(1, 0));
                let e = vec![
                    vec![m.at(1, 1), m.at(1, 0).negated()],
                    vec![m.at(0, 1).negated(), m.at(0, 0)],
                ];
                (e, det)
            }
            3 => self.adjugate3(&m),
            _ => self.adjugate4(&m),
        };
        let r = self.per_comp(Opcode::Rcp, 1, &[det.comp(0)]).src();
        let mut out = Vec::new();
        for col in entries {
            let n = col.len();
            let c = self.compose(&col, false).src();
            out.push(self.alu(Opcode::Mul, n, vec![c, r.comp(0)]));
        }
        Ok(Value::Agg(out))
    }

    /// The 3x3 adjugate's columns (rows of the cross products of the columns) and the
    /// determinant: `inverse = transpose([c1 x c2, c2 x c0, c0 x c1]) / dot(c0, c1 x c2)`.
    fn adjugate3(&mut self, m: &Columns) -> (Vec<Vec<Src>>, Src) {
        let (c0, c1, c2) = (m.cols[0], m.cols[1], m.cols[2]);
        let r0 = self.fop(Opcode::Xpd, 3, vec![c1, c2]);
        let r1 = self.fop(Opcode::Xpd, 3, vec![c2, c0]);
        let r2 = self.fop(Opcode::Xpd, 3, vec![c0, c1]);
        let det = self.fop(Opcode::Dp3, 1, vec![c0, r0]);
        let cols = (0..3)
            .map(|j| vec![r0.comp(j), r1.comp(j), r2.comp(j)])
            .collect();
        (cols, det)
    }

    /// The 4x4 adjugate by Laplace expansion over the sub-determinants, and the determinant.
    fn adjugate4(&mut self, m: &Columns) -> (Vec<Vec<Src>>, Src) {
        let (a, b) = self.subdeterminants(m);
        let det = self.det4(&a, &b);
        // inv[r][c] as three signed products: (row, column) of m, index into a (0-5) or b
        // (6-11), negated (Geometric Tools' cofactor expansion).
        type Term = (usize, usize, usize, bool);
        const T: [[[Term; 3]; 4]; 4] = [
            [
                [(1, 1, 11, false), (1, 2, 10, true), (1, 3, 9, false)],
                [(0, 1, 11, true), (0, 2, 10, false), (0, 3, 9, true)],
                [(3, 1, 5, false), (3, 2, 4, true), (3, 3, 3, false)],
                [(2, 1, 5, true), (2, 2, 4, false), (2, 3, 3, true)],
            ],
            [
                [(1, 0, 11, true), (1, 2, 8, false), (1, 3, 7, true)],
                [(0, 0, 11, false), (0, 2, 8, true), (0, 3, 7, false)],
                [(3, 0, 5, true), (3, 2, 2, false), (3, 3, 1, true)],
                [(2, 0, 5, false), (2, 2, 2, true), (2, 3, 1, false)],
            ],
            [
                [(1, 0, 10, false), (1, 1, 8, true), (1, 3, 6, false)],
                [(0, 0, 10, true), (0, 1, 8, false), (0, 3, 6, true)],
                [(3, 0, 4, false), (3, 1, 2, true), (3, 3, 0, false)],
                [(2, 0, 4, true), (2, 1, 2, false), (2, 3, 0, true)],
            ],
            [
                [(1, 0, 9, true), (1, 1, 7, false), (1, 2, 6, true)],
                [(0, 0, 9, false), (0, 1, 7, true), (0, 2, 6, false)],
                [(3, 0, 3, true), (3, 1, 1, false), (3, 2, 0, true)],
                [(2, 0, 3, false), (2, 1, 1, true), (2, 2, 0, false)],
            ],
        ];
        let ab = |k: usize| if k < 6 { a[k] } else { b[k - 6] };
        // T[r][c] is inv[r][c]; the result's column c holds inv[0..4][c].
        let mut cols = vec![Vec::new(); 4];
        for row in &T {
            for (c, terms) in row.iter().enumerate() {
                let mut acc: Option<Src> = None;
                for &(mr, mc, k, neg) in terms {
                    let x = if neg {
                        m.at(mr, mc).negated()
                    } else {
                        m.at(mr, mc)
                    };
                    acc = Some(match acc {
                        None => self.fop(Opcode::Mul, 1, vec![x, ab(k)]),
                        Some(p) => self.fop(Opcode::Mad, 1, vec![x, ab(k), p]),
                    });
                }
                cols[c].push(acc.unwrap_or(det).comp(0));
            }
        }
        (cols, det)
    }
}

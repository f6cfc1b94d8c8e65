//! Doubles (`f64`; GLSL `double`, `dvec*`, `dmat*`) on TGSI's double opcodes.
//!
//! A double lives in a register pair, its low word in one component and its high word in the
//! next (`decisions.md` section 2: xy and zw, x and z the low words). An `f64` scalar is a
//! [`Value::V`] of size 2 whose swizzle reads (low, high); a vector or a matrix column is an
//! aggregate of such pairs, so the generic lowering's indexing, stores, copies, selects (UCMP,
//! which keeps bits), uniforms and immediates work on them leaf by leaf. Double words are
//! `UINT32` immediates, so that no float rule touches them.
//!
//! Values never carry a source modifier (a MOV reading one would flip the low word's sign too).
//! Operands of double opcodes do: `-x` and `abs(x)` under a double opcode are its negate and
//! absolute modifiers, which act on the binary64 value ([`Lower::doperand`]); where such a value
//! is kept, it is one XOR / AND / OR on the high word.
//!
//! Two components share one instruction wherever they can: a double opcode computes both pairs
//! of its register, and the core's binary64 library runs both for the price of one call. The
//! operands of the two are joined into one register operand by swizzles, or by MOVs where they
//! live in different registers ([`Lower::join`]).
//!
//! What TGSI's double opcodes give directly: `+` DADD, `*` DMUL, `/` DDIV (DRCP for `1.0 / x`),
//! `fma` DMAD (which rounds twice: `round(round(a * b) + c)`, `decisions.md`), `sqrt` DSQRT,
//! `min` / `max` DMIN / DMAX, `==` DSEQ, `<` DSLT, `fract` DFRAC, `frexp` DFRACEXP, `ldexp`
//! DLDEXP. The rest is built from them (`math`, `convert`, `matrix`), exactly where the
//! languages ask for an exact result.

mod convert;
mod math;
mod matrix;

use super::value::Value;
use super::{err, Lower, Span};
use crate::code::{RegFile, Src};
use crate::error::Construct;
use crate::TranslateError;
use microcode::tgsi::Opcode;
use naga::{BinaryOperator, Expression, Handle, Literal, MathFunction, TypeInner, UnaryOperator};

/// The sign bit of a high word.
const SIGN: u32 = 0x8000_0000;

/// `f64` as naga spells it.
const F64: naga::Scalar = naga::Scalar {
    kind: naga::ScalarKind::Float,
    width: 8,
};

/// A pair operand normalised: components 0 and 1 read (low, high), and so do 2 and 3 (so that a
/// scalar operand of a double opcode serves both pairs of its register).
fn pair(s: Src) -> Src {
    Src {
        swz: [s.swz[0], s.swz[1], s.swz[0], s.swz[1]],
        ..s
    }
}

/// The two pairs of a register operand (components xy and zw through its swizzle).
fn halves(s: Src) -> [Src; 2] {
    [
        Src {
            swz: [s.swz[0], s.swz[1], s.swz[0], s.swz[1]],
            ..s
        },
        Src {
            swz: [s.swz[2], s.swz[3], s.swz[2], s.swz[3]],
            ..s
        },
    ]
}

/// The low words of a joined operand, each in both components of its pair.
fn low_words(s: Src) -> Src {
    Src {
        swz: [s.swz[0], s.swz[0], s.swz[2], s.swz[2]],
        neg: false,
        abs: false,
        ..s
    }
}

/// The high words of a joined operand, each in both components of its pair.
fn high_words(s: Src) -> Src {
    Src {
        swz: [s.swz[1], s.swz[1], s.swz[3], s.swz[3]],
        neg: false,
        abs: false,
        ..s
    }
}

/// Every pair negated (the operand modifier: the binary64 value's sign).
fn negated(p: &[Src]) -> Vec<Src> {
    p.iter().map(|s| s.negated()).collect()
}

/// Every pair's absolute value (the operand modifier).
fn absolute(p: &[Src]) -> Vec<Src> {
    p.iter()
        .map(|s| Src {
            abs: true,
            neg: false,
            ..*s
        })
        .collect()
}

/// Component `k` of an operand of `n` components (a scalar serves them all).
fn at(p: &[Src], k: usize) -> Src {
    if p.len() == 1 {
        p[0]
    } else {
        p[k]
    }
}

/// The write mask of a group of one or two pairs.
fn group_mask(two: bool) -> u8 {
    if two {
        0xF
    } else {
        0x3
    }
}

impl<'a> Lower<'a> {
    /// True when expression `h` is an `f64` scalar, vector or matrix (or a pointer to one).
    pub(in crate::lower) fn is_f64(&self, h: Handle<Expression>) -> bool {
        self.is_f64_inner(self.expr_ty(h))
    }

    /// True for `f64` scalars, vectors and matrices (and pointers to them).
    pub(in crate::lower) fn is_f64_inner(&self, t: &TypeInner) -> bool {
        match *t {
            TypeInner::Pointer { base, .. } => self.is_f64_inner(self.ty(base)),
            TypeInner::ValuePointer { scalar, .. } => scalar == F64,
            _ => t.scalar() == Some(F64),
        }
    }

    /// The refusal of an `f64` operand where the generic lowering would read it as 32-bit floats.
    pub(in crate::lower) fn f64_here(&self, h: Handle<Expression>) -> TranslateError {
        err(
            Construct::Other("an `f64` operand here".into()),
            "this operation has no double-precision translation (TGSI's double opcodes are \
             arithmetic, comparisons, square root and rounding)",
            self.span_of(h),
        )
    }

    /// A value of `f64` components: a scalar pair, or an aggregate of pairs for a vector.
    fn dvalue(&mut self, pairs: Vec<Src>, vector: bool) -> Value {
        let mut leaves: Vec<Value> = pairs
            .into_iter()
            .map(|p| Value::V {
                src: self.plain(p),
                size: 2,
            })
            .collect();
        if !vector && leaves.len() == 1 {
            return leaves.remove(0);
        }
        Value::Agg(leaves)
    }

    /// The result value of expression `h` (a vector type makes an aggregate).
    fn dresult(&mut self, h: Handle<Expression>, pairs: Vec<Src>) -> Value {
        let vector = matches!(self.expr_ty(h), TypeInner::Vector { .. });
        self.dvalue(pairs, vector)
    }

    /// The pairs of an `f64` scalar or vector value.
    pub(in crate::lower) fn pairs_of(
        &self,
        v: &Value,
        span: Span,
    ) -> Result<Vec<Src>, TranslateError> {
        let leaf = |x: &Value| match x {
            Value::V { src, size: 2 } => Ok(pair(*src)),
            _ => Err(err(
                Construct::Other("this `f64` value".into()),
                "the translator keeps it in no register pair here",
                span,
            )),
        };
        match v {
            Value::Agg(items) => items.iter().map(leaf).collect(),
            other => Ok(vec![leaf(other)?]),
        }
    }

    /// Operand `h` of a double operation as pairs: `-x` and `abs(x)` become the operand's
    /// modifiers instead of instructions.
    pub(in crate::lower) fn doperand(
        &mut self,
        h: Handle<Expression>,
    ) -> Result<Vec<Src>, TranslateError> {
        let fun = self.frame().fun;
        let vector_or_scalar = !matches!(self.expr_ty(h), TypeInner::Matrix { .. });
        match fun.expressions[h] {
            Expression::Unary {
                op: UnaryOperator::Negate,
                expr,
            } if vector_or_scalar => Ok(negated(&self.doperand(expr)?)),
            Expression::Math {
                fun: MathFunction::Abs,
                arg,
                ..
            } if vector_or_scalar => Ok(absolute(&self.doperand(arg)?)),
            _ => {
                let v = self.expr(h)?;
                self.pairs_of(&v, self.span_of(h))
            }
        }
    }

    /// The pair immediate of a binary64 value.
    fn dconst(&mut self, x: f64) -> Src {
        self.dwords(x.to_bits() as u32, (x.to_bits() >> 32) as u32)
    }

    /// The pair immediate of (low, high) words.
    fn dwords(&mut self, lo: u32, hi: u32) -> Src {
        pair(self.code.imm_int(&[lo, hi]))
    }

    /// The words of an immediate pair with its modifiers applied, if it is one.
    fn imm_words(&self, p: &Src) -> Option<(u32, u32)> {
        if p.reg.file != RegFile::Imm {
            return None;
        }
        let imm = self.code.imms.get(p.reg.index as usize)?;
        let lo = *imm.get(p.swz[0] as usize)?;
        let mut hi = *imm.get(p.swz[1] as usize)?;
        if p.abs {
            hi &= !SIGN;
        }
        if p.neg {
            hi ^= SIGN;
        }
        Some((lo, hi))
    }

    /// The binary64 value of an immediate pair, if it is one.
    fn imm_value(&self, p: &Src) -> Option<f64> {
        let (lo, hi) = self.imm_words(p)?;
        Some(f64::from_bits(u64::from(hi) << 32 | u64::from(lo)))
    }

    /// A pair without modifiers: the negate or absolute value applied to the high word (one
    /// XOR, AND or OR; an immediate is rewritten).
    pub(in crate::lower) fn plain(&mut self, p: Src) -> Src {
        if !p.neg && !p.abs {
            return p;
        }
        if let Some((lo, hi)) = self.imm_words(&p) {
            return self.dwords(lo, hi);
        }
        let (op, lo, hi) = match (p.neg, p.abs) {
            (true, false) => (Opcode::Xor, 0, SIGN),
            (false, _) => (Opcode::And, u32::MAX, !SIGN),
            (true, true) => (Opcode::Or, 0, SIGN),
        };
        let k = self.dwords(lo, hi);
        let x = Src {
            neg: false,
            abs: false,
            ..pair(p)
        };
        let r = self.code.temp();
        self.code.push(op, Some((r, 0x3)), vec![x, k]);
        pair(Src::reg(r))
    }

    /// One register operand holding pair `p` (in x, y) and pair `q` (in z, w): a swizzle when
    /// they share a register, an immediate when both are constants, else MOVs into a fresh
    /// temporary. With `plain` (integer opcodes) the result carries no modifiers.
    fn join(&mut self, p: Src, q: Option<Src>, plain: bool) -> Src {
        let (p, q) = if plain {
            (self.plain(p), q.map(|q| self.plain(q)))
        } else {
            (p, q)
        };
        let Some(q) = q else { return pair(p) };
        let same =
            |a: &Src, b: &Src| a.reg == b.reg && a.rel == b.rel && a.neg == b.neg && a.abs == b.abs;
        if same(&p, &q) {
            return Src {
                swz: [p.swz[0], p.swz[1], q.swz[0], q.swz[1]],
                ..p
            };
        }
        if let (Some((a, b)), Some((c, d))) = (self.imm_words(&p), self.imm_words(&q)) {
            return self.code.imm_int(&[a, b, c, d]);
        }
        let (p, q) = if p.neg == q.neg && p.abs == q.abs {
            (p, q)
        } else {
            (self.plain(p), self.plain(q))
        };
        let r = self.code.temp();
        let bare = |s: Src, swz: [u8; 4]| Src {
            swz,
            neg: false,
            abs: false,
            ..s
        };
        let ps = bare(p, [p.swz[0], p.swz[1], p.swz[0], p.swz[1]]);
        let qs = bare(q, [q.swz[0], q.swz[1], q.swz[0], q.swz[1]]);
        self.code.push(Opcode::Mov, Some((r, 0x3)), vec![ps]);
        self.code.push(Opcode::Mov, Some((r, 0xC)), vec![qs]);
        Src {
            neg: p.neg,
            abs: p.abs,
            ..Src::reg(r)
        }
    }

    /// Runs `f` on each group of up to two of `n` components: `f` gets each operand of `args`
    /// joined for the group and the group's write mask, and returns the operand of the group's
    /// result (pairs in xy and zw). Returns the result pairs.
    fn groups(
        &mut self,
        n: usize,
        args: &[&[Src]],
        plain: bool,
        mut f: impl FnMut(&mut Self, &[Src], u8) -> Src,
    ) -> Vec<Src> {
        let mut out = Vec::with_capacity(n);
        for k in (0..n).step_by(2) {
            let two = k + 1 < n;
            let joined: Vec<Src> = args
                .iter()
                .map(|a| {
                    let p = at(a, k);
                    let q = two.then(|| at(a, k + 1));
                    self.join(p, q, plain)
                })
                .collect();
            let r = f(self, &joined, group_mask(two));
            let [p0, p1] = halves(r);
            out.push(p0);
            if two {
                out.push(p1);
            }
        }
        out
    }

    /// One instruction writing `mask` of a fresh temporary; its operand.
    fn write(&mut self, op: Opcode, mask: u8, src: Vec<Src>) -> Src {
        let r = self.code.temp();
        self.code.push(op, Some((r, mask)), src);
        Src::reg(r)
    }

    /// Double opcode `op` on `n` components (operands of one component serve all).
    pub(in crate::lower) fn dop(&mut self, op: Opcode, n: usize, args: &[&[Src]]) -> Vec<Src> {
        self.groups(n, args, false, |s, src, mask| {
            s.write(op, mask, src.to_vec())
        })
    }

    /// An integer or float opcode applied word by word to `n` components' pairs (modifiers
    /// applied first: an integer opcode would negate as int32).
    fn wordwise(&mut self, op: Opcode, n: usize, args: &[&[Src]]) -> Vec<Src> {
        self.groups(n, args, true, |s, src, mask| {
            s.write(op, mask, src.to_vec())
        })
    }

    /// `cond ? a : b` per component: UCMP on each pair (bits kept), `cond` a pair whose words
    /// are both non-zero where it holds (a DSEQ / DSLT result, or a boolean in both).
    fn dselect(&mut self, n: usize, cond: &[Src], a: &[Src], b: &[Src]) -> Vec<Src> {
        self.wordwise(Opcode::Ucmp, n, &[cond, a, b])
    }

    /// A boolean component (1.0 / 0.0) as the condition pair of [`Lower::dselect`].
    fn bool_pair(&mut self, c: Src) -> Src {
        let c = if c.neg || c.abs {
            // A float MOV applies the modifiers (a condition's bits are what UCMP tests).
            let r = self.code.temp();
            self.code.push(Opcode::Mov, Some((r, 1)), vec![c.comp(0)]);
            Src::reg(r).comp(0)
        } else {
            c
        };
        Src {
            swz: [c.swz[0]; 4],
            ..c
        }
    }

    /// `a == b` (DSEQ) or `a < b` (DSLT) per component: pairs whose words are both 1.0 or 0.0.
    fn dcompare(&mut self, op: Opcode, n: usize, a: &[Src], b: &[Src]) -> Vec<Src> {
        self.dop(op, n, &[a, b])
    }

    /// Comparison result pairs as a boolean value (one 1.0 / 0.0 component each).
    fn bools(&mut self, pairs: &[Src]) -> Value {
        let comps: Vec<Src> = pairs.iter().map(|p| p.comp(0)).collect();
        self.compose(&comps, false)
    }

    /// The lowering of an expression that reads or makes doubles; `None` for everything else.
    pub(in crate::lower) fn double_expr(
        &mut self,
        h: Handle<Expression>,
        span: Span,
    ) -> Result<Option<Value>, TranslateError> {
        let fun = self.frame().fun;
        Ok(Some(match fun.expressions[h] {
            Expression::Literal(Literal::F64(x)) => {
                let p = self.dconst(x);
                self.dvalue(vec![p], false)
            }
            Expression::Compose { ty, ref components } if self.is_f64_inner(self.ty(ty)) => {
                self.dcompose(ty, components)?
            }
            Expression::Splat { size, value } if self.is_f64(value) => {
                let p = self.doperand(value)?;
                let p = self.plain(p[0]);
                self.dvalue(vec![p; size as usize], true)
            }
            Expression::Swizzle {
                size,
                vector,
                pattern,
            } if self.is_f64(vector) => {
                let v = self.expr(vector)?;
                let v = self.pairs_of(&v, span)?;
                let picked = pattern[..size as usize]
                    .iter()
                    .map(|&c| v.get(c as usize).copied().unwrap_or(v[0]))
                    .collect();
                self.dvalue(picked, true)
            }
            Expression::Unary { op, expr } if self.is_f64(expr) => {
                self.dunary(h, op, expr, span)?
            }
            Expression::Binary { op, left, right } if self.is_f64(left) || self.is_f64(right) => {
                self.dbinary(h, op, left, right, span)?
            }
            Expression::Select {
                condition,
                accept,
                reject,
            } if self.is_f64(accept) => self.dselect_expr(h, condition, accept, reject, span)?,
            Expression::Math {
                fun: f,
                arg,
                arg1,
                arg2,
                arg3,
            } if self.is_f64(arg) || arg1.is_some_and(|a| self.is_f64(a)) => {
                self.double_math(h, f, [Some(arg), arg1, arg2, arg3], span)?
            }
            Expression::As {
                expr,
                kind,
                convert,
            } if self.is_f64(expr) || (kind == naga::ScalarKind::Float && convert == Some(8)) => {
                self.double_cast(h, expr, kind, convert, span)?
            }
            Expression::Relational { fun: f, argument } if self.is_f64(argument) => {
                let x = self.doperand(argument)?;
                let n = x.len();
                match f {
                    naga::RelationalFunction::IsNan => {
                        let eq = self.dcompare(Opcode::Dseq, n, &x, &x);
                        let eq = self.bools(&eq).src();
                        let z = self.imm_s(0.0);
                        self.alu(Opcode::Seq, n, vec![eq, z])
                    }
                    naga::RelationalFunction::IsInf => {
                        let inf = self.dconst(f64::INFINITY);
                        let eq = self.dcompare(Opcode::Dseq, n, &absolute(&x), &[inf]);
                        self.bools(&eq)
                    }
                    _ => return Err(self.f64_here(argument)),
                }
            }
            Expression::Derivative { expr, .. } if self.is_f64(expr) => {
                return Err(err(
                    Construct::Other("a derivative of an `f64` value".into()),
                    "TGSI's DDX and DDY take 32-bit floats (GLSL has no double derivatives either)",
                    span,
                ))
            }
            _ => return Ok(None),
        }))
    }

    /// A composition of type `ty` with `f64` components: a vector of their pairs, a matrix of
    /// its columns.
    fn dcompose(
        &mut self,
        ty: Handle<naga::Type>,
        components: &[Handle<Expression>],
    ) -> Result<Value, TranslateError> {
        if let TypeInner::Vector { size, .. } = *self.ty(ty) {
            let mut pairs = Vec::new();
            for &c in components {
                pairs.extend(self.doperand(c)?);
            }
            pairs.truncate(size as usize);
            return Ok(self.dvalue(pairs, true));
        }
        let mut v = Vec::new();
        for &c in components {
            v.push(self.expr(c)?);
        }
        Ok(Value::Agg(v))
    }

    /// `-x` of a double scalar, vector or matrix (the sign bits flipped).
    fn dunary(
        &mut self,
        h: Handle<Expression>,
        op: UnaryOperator,
        expr: Handle<Expression>,
        span: Span,
    ) -> Result<Value, TranslateError> {
        if op != UnaryOperator::Negate {
            return Err(err(
                Construct::Operator(
                    if op == UnaryOperator::LogicalNot {
                        "!"
                    } else {
                        "~"
                    }
                    .into(),
                ),
                "it does not apply to floats",
                span,
            ));
        }
        if let TypeInner::Matrix { .. } = self.expr_ty(expr) {
            let m = self.expr(expr)?;
            return self.dmatrix_map(&m, span, |s, col| {
                let sign = s.dwords(0, SIGN);
                s.wordwise(Opcode::Xor, col.len(), &[col, &[sign]])
            });
        }
        let x = self.doperand(expr)?;
        let neg = negated(&x);
        Ok(self.dresult(h, neg))
    }

    /// A binary operator with a double operand.
    fn dbinary(
        &mut self,
        h: Handle<Expression>,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
        span: Span,
    ) -> Result<Value, TranslateError> {
        let matrix = |s: &Self, e| matches!(s.expr_ty(e), TypeInner::Matrix { .. });
        if matrix(self, left) || matrix(self, right) {
            return self.dmatrix_binary(h, op, left, right, span);
        }
        let a = self.doperand(left)?;
        let b = self.doperand(right)?;
        let n = a.len().max(b.len());
        use BinaryOperator as B;
        let pairs = match op {
            B::Add => self.dop(Opcode::Dadd, n, &[&a, &b]),
            B::Subtract => self.dop(Opcode::Dadd, n, &[&a, &negated(&b)]),
            B::Multiply => self.dop(Opcode::Dmul, n, &[&a, &b]),
            B::Divide => self.ddivide(n, &a, &b),
            B::Modulo => {
                // a - b * trunc(a / b), the sign of a (WGSL's `%`; DMAD rounds twice, as MAD).
                let q = self.dop(Opcode::Ddiv, n, &[&a, &b]);
                let t = self.dtrunc(&q);
                self.dop(Opcode::Dmad, n, &[&negated(&b), &t, &a])
            }
            B::Equal | B::NotEqual | B::Less | B::LessEqual | B::Greater | B::GreaterEqual => {
                return Ok(self.dcomparison(op, n, &a, &b));
            }
            other => {
                return Err(err(
                    Construct::Operator(super::binary::operator_name(other).into()),
                    "it applies to integers or booleans, not to floats",
                    span,
                ))
            }
        };
        Ok(self.dresult(h, pairs))
    }

    /// `a / b`: DRCP when a is 1, else DDIV (both correctly rounded).
    fn ddivide(&mut self, n: usize, a: &[Src], b: &[Src]) -> Vec<Src> {
        if a.iter().all(|p| self.imm_value(p) == Some(1.0)) {
            return self.dop(Opcode::Drcp, n, &[b]);
        }
        self.dop(Opcode::Ddiv, n, &[a, b])
    }

    /// A comparison as IEEE says: `==` DSEQ, `<` DSLT, `>` DSLT reversed, `<=` and `>=` the
    /// strict comparison or equality (false with a NaN), `!=` not DSEQ (true with a NaN).
    fn dcomparison(&mut self, op: BinaryOperator, n: usize, a: &[Src], b: &[Src]) -> Value {
        use BinaryOperator as B;
        match op {
            B::Equal => {
                let eq = self.dcompare(Opcode::Dseq, n, a, b);
                self.bools(&eq)
            }
            B::NotEqual => {
                let eq = self.dcompare(Opcode::Dseq, n, a, b);
                let eq = self.bools(&eq).src();
                let z = self.imm_s(0.0);
                self.alu(Opcode::Seq, n, vec![eq, z])
            }
            B::Less | B::Greater => {
                let (x, y) = if op == B::Less { (a, b) } else { (b, a) };
                let lt = self.dcompare(Opcode::Dslt, n, x, y);
                self.bools(&lt)
            }
            _ => {
                let (x, y) = if op == B::LessEqual { (a, b) } else { (b, a) };
                let lt = self.dcompare(Opcode::Dslt, n, x, y);
                let eq = self.dcompare(Opcode::Dseq, n, x, y);
                let or = self.wordwise(Opcode::Max, n, &[&lt, &eq]);
                self.bools(&or)
            }
        }
    }

    /// `select(reject, accept, condition)` on doubles: UCMP per pair on the condition's
    /// component (or its one scalar).
    fn dselect_expr(
        &mut self,
        h: Handle<Expression>,
        condition: Handle<Expression>,
        accept: Handle<Expression>,
        reject: Handle<Expression>,
        span: Span,
    ) -> Result<Value, TranslateError> {
        let c = self.expr(condition)?;
        let Value::V { src: c, size: m } = c else {
            return Err(err(
                Construct::Function("select".into()),
                "its condition is not a boolean scalar or vector",
                span,
            ));
        };
        if matches!(self.expr_ty(accept), TypeInner::Matrix { .. }) {
            let a = self.expr(accept)?;
            let r = self.expr(reject)?;
            return self.select_values(c.comp(0), &a, &r, true, span);
        }
        let a = self.doperand(accept)?;
        let r = self.doperand(reject)?;
        let n = a.len().max(r.len());
        let conds: Vec<Src> = (0..n)
            .map(|k| self.bool_pair(c.comp(if m == 1 { 0 } else { k })))
            .collect();
        let pairs = self.dselect(n, &conds, &a, &r);
        Ok(self.dresult(h, pairs))
    }
}

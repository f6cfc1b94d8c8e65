//! Integers: `i32` and `u32` values live in registers as their 32-bit patterns (two's complement)
//! and are computed with TGSI's integer opcodes, exactly, wrapping as WGSL and GLSL wrap.
//!
//! What TGSI has is used directly: `+` UADD, `-` UADD of the integer-negated operand, `*` UMUL,
//! `&` `|` `^` `~` AND OR XOR NOT, `<<` SHL, `>>` SHR (arithmetic; for `u32` SHR then AND with
//! the mask of the bits that stay), signed `%` MOD, `i32` to `f32` I2F, `f32` to `u32` F2U, selects
//! UCMP. What it lacks is built from those, exactly:
//! - `f32` to `i32`: clamped to [-2^31, 2^31 - 128] as naga clamps (MAX, MIN), then F2U of the
//!   magnitude and a two's complement negation where the sign bit is set (XOR and UADD with the
//!   sign mask `SHR x, 31`);
//! - `u32` to `f32`: I2F when the value is known to stay below 2^31 (a `>>` by a constant, an `&`
//!   with such a constant, `%` by one), else I2F of the upper 24 bits times 256 plus I2F of the low
//!   8 (one rounding: the correctly rounded conversion);
//! - comparisons: with a constant below 2^24 in magnitude, I2F and the float comparison (exact:
//!   I2F is monotonic and exact there); else the sign of `(a - b) ^ ((a ^ b) & ((a - b) ^ a))`
//!   (signed; for `u32` with `~((a - b) ^ a)`), which I2F and SLT turn into 1.0 / 0.0; `==` is I2F
//!   of `a ^ b` against 0;
//! - `min` / `max` / `clamp`: a select by that sign (`b ^ ((a ^ b) & mask)`), or UCMP on the float
//!   comparison with a constant; `abs` the integer absolute-value modifier; `sign` two shifts;
//! - `/` and `%`: MOD gives the signed remainder r, so `a - r` is an exact multiple of `b`. By a
//!   constant it is divided exactly by a shift and a multiplication by the inverse of the odd part
//!   modulo 2^32 (`u32` quotients: a multiply-high by the Granlund-Montgomery reciprocal); by a
//!   variable, a float estimate `(a - r) * RCP(b)` is corrected once by the exact error
//!   `(a - r) - q * b` (UMUL), whose small quotient a MAD rounds to an integer. `u32` operands go
//!   through `a >> 1` (which MOD takes) and one step of restoring division; divisors with the top
//!   bit set are a comparison. A zero divisor gives `a / 0 = a` and `a % 0 = 0` (naga's rule for
//!   the back ends that lack one).
//!
//! Booleans stay 1.0 / 0.0 floats; a bit cast is a plain move.

use super::{Lower, Value};
use crate::code::{RegFile, Src};
use crate::{Construct, TranslateError};
use microcode::tgsi::Opcode;
use naga::{BinaryOperator, Expression, Handle, MathFunction, ScalarKind};

/// The sign bit.
const SIGN: u32 = 0x8000_0000;

/// 1.5 * 2^23: an integer-valued float of magnitude below 2^22 added to it lands in the low bits
/// of the significand, so `bits(x + MAGIC) - bits(MAGIC)` is x as an int32 (and the addition
/// rounds x to the nearest integer first).
const MAGIC: f32 = 12_582_912.0;

/// Largest floats that `i32` and `u32` hold (what naga's constant evaluator clamps to).
const I32_MAX_F: f32 = 2_147_483_520.0;
const U32_MAX_F: f32 = 4_294_967_040.0;

/// Constants below this magnitude convert to float exactly and compare through I2F.
const EXACT: u32 = 1 << 24;

/// A comparison in normal form: `x < y`, or its negation.
#[derive(Clone, Copy)]
struct Less {
    x: Src,
    y: Src,
    negate: bool,
}

impl Lower<'_> {
    /// Some(true) for an `i32` expression (scalar or vector), Some(false) for `u32`.
    pub(super) fn int_kind(&self, h: Handle<Expression>) -> Option<bool> {
        match self.expr_ty(h).scalar_kind() {
            Some(ScalarKind::Sint) => Some(true),
            Some(ScalarKind::Uint) => Some(false),
            _ => None,
        }
    }

    /// The integer values of the first `n` components of an immediate operand (integer negate
    /// and absolute value applied), if it is one.
    pub(super) fn iconst(&self, s: &Src, n: usize) -> Option<Vec<u32>> {
        if s.reg.file != RegFile::Imm {
            return None;
        }
        let imm = self.code.imms.get(s.reg.index as usize)?;
        (0..n)
            .map(|c| Some(int_modifiers(*imm.get(s.swz[c] as usize)?, s)))
            .collect()
    }

    /// One integer instruction (or I2F / F2U) writing the first `n` components of a fresh
    /// temporary; on immediates only, the value itself, computed as the models compute it.
    pub(super) fn ialu(&mut self, op: Opcode, n: usize, src: Vec<Src>) -> Src {
        if let Some(v) = self.ifold(op, n, &src) {
            return v;
        }
        let r = self.code.temp();
        self.code.push(op, Some((r, (1u8 << n) - 1)), src);
        if n == 1 {
            Src::reg(r).comp(0)
        } else {
            Src::reg(r)
        }
    }

    fn ifold(&mut self, op: Opcode, n: usize, src: &[Src]) -> Option<Src> {
        if !src.iter().all(|s| s.reg.file == RegFile::Imm) {
            return None;
        }
        let info = op.info();
        let int_view = info.src_type.is_integer();
        let get = |this: &Self, s: &Src, c: usize| -> Option<u32> {
            let bits = *this
                .code
                .imms
                .get(s.reg.index as usize)?
                .get(s.swz[c] as usize)?;
            Some(if int_view {
                int_modifiers(bits, s)
            } else {
                float_modifiers(bits, s)
            })
        };
        let mut out = Vec::new();
        for c in 0..n {
            let a = get(self, src.first()?, c)?;
            let b = src.get(1).and_then(|s| get(self, s, c)).unwrap_or(0);
            let b0 = src.get(1).and_then(|s| get(self, s, 0)).unwrap_or(0);
            let d = src.get(2).and_then(|s| get(self, s, c)).unwrap_or(0);
            let i = |v: u32| v as i32;
            out.push(match op {
                Opcode::Uadd => a.wrapping_add(b),
                Opcode::Umul => a.wrapping_mul(b),
                Opcode::UmulHi => ((u64::from(a) * u64::from(b)) >> 32) as u32,
                Opcode::ImulHi => ((i64::from(i(a)) * i64::from(i(b))) >> 32) as u32,
                Opcode::And => a & b,
                Opcode::Or => a | b,
                Opcode::Xor => a ^ b,
                Opcode::Not => !a,
                Opcode::Shl => a << (b0 & 31),
                Opcode::Shr => (i(a) >> (b0 & 31)) as u32,
                Opcode::Mod if b == 0 => u32::MAX,
                Opcode::Mod => i(a).wrapping_rem(i(b)) as u32,
                Opcode::Ucmp => {
                    if a != 0 {
                        b
                    } else {
                        d
                    }
                }
                Opcode::I2f => (i(a) as f32).to_bits(),
                // A subnormal input is zero to the models; truncation makes it 0 here too.
                Opcode::F2u => f32::from_bits(a) as u32,
                _ => return None,
            });
        }
        Some(
            if info.dst_type == microcode::tgsi::opcode::OperandType::Float {
                self.code.imm(&out)
            } else {
                self.code.imm_int(&out)
            },
        )
    }

    /// An integer immediate replicated or per component.
    pub(super) fn iimm(&mut self, v: &[u32]) -> Src {
        self.code.imm_int(v)
    }

    /// `-b` as an operand of an integer opcode: an immediate negated in place, else the integer
    /// negate modifier.
    fn ineg_operand(&mut self, b: Src, n: usize) -> Src {
        match self.iconst(&b, n) {
            Some(v) => {
                let neg: Vec<u32> = v.iter().map(|x| x.wrapping_neg()).collect();
                self.iimm(&neg)
            }
            None => b.negated(),
        }
    }

    fn iadd(&mut self, n: usize, a: Src, b: Src) -> Src {
        if self
            .iconst(&b, n)
            .is_some_and(|v| v.iter().all(|&x| x == 0))
        {
            return a;
        }
        self.ialu(Opcode::Uadd, n, vec![a, b])
    }

    fn isub(&mut self, n: usize, a: Src, b: Src) -> Src {
        let nb = self.ineg_operand(b, n);
        self.iadd(n, a, nb)
    }

    fn i2f(&mut self, n: usize, x: Src) -> Src {
        self.ialu(Opcode::I2f, n, vec![x])
    }

    /// A float instruction's result operand.
    fn falu(&mut self, op: Opcode, n: usize, src: Vec<Src>) -> Src {
        Self::v(self.alu(op, n, src)).0
    }

    /// SHL or SHR of each component of `a` by the matching component of `amount`: one instruction
    /// when every component shifts by the same operand component (src1.x is the amount of a whole
    /// instruction), else one per component.
    fn shift(&mut self, op: Opcode, n: usize, a: Src, amount: Src) -> Src {
        if (0..n).all(|c| amount.swz[c] == amount.swz[0]) {
            return self.ialu(op, n, vec![a, amount.comp(0)]);
        }
        let parts: Vec<Src> = (0..n)
            .map(|c| self.ialu(op, 1, vec![a.comp(c), amount.comp(c)]))
            .collect();
        let v = self.compose(&parts, true);
        Self::v(v).0
    }

    /// `a >> amount` on `u32`: SHR, then AND with the mask of the bits that came from `a`
    /// (`~((0x80000000 >> k) << 1)`, folded for constant amounts).
    fn lshr(&mut self, n: usize, a: Src, amount: Src) -> Src {
        let t = self.shift(Opcode::Shr, n, a, amount);
        let mask = match self.iconst(&amount, n) {
            Some(k) => {
                if k.iter().all(|&k| k & 31 == 0) {
                    return t;
                }
                let m: Vec<u32> = k.iter().map(|&k| u32::MAX >> (k & 31)).collect();
                self.iimm(&m)
            }
            None => {
                let top = self.iimm(&[SIGN]);
                let s = self.shift(Opcode::Shr, n, top, amount);
                let one = self.iimm(&[1]);
                let s = self.ialu(Opcode::Shl, n, vec![s, one]);
                self.ialu(Opcode::Not, n, vec![s])
            }
        };
        self.ialu(Opcode::And, n, vec![t, mask])
    }

    fn lshr_const(&mut self, n: usize, a: Src, k: u32) -> Src {
        let amount = self.iimm(&[k]);
        self.lshr(n, a, amount)
    }

    /// `x` (a register or immediate operand of `n` components) converted to float.
    fn int_to_float(&mut self, n: usize, x: Src, signed: bool, below_2_31: bool) -> Src {
        if signed || below_2_31 {
            return self.i2f(n, x);
        }
        // The upper 24 bits times 256 (exact) plus the low 8: one rounding, the correct one.
        let hi = self.lshr_const(n, x, 8);
        let lo_mask = self.iimm(&[0xFF]);
        let lo = self.ialu(Opcode::And, n, vec![x, lo_mask]);
        let fh = self.i2f(n, hi);
        let fl = self.i2f(n, lo);
        let k = self.imm_s(256.0);
        self.falu(Opcode::Mad, n, vec![fh, k, fl])
    }

    /// `f32` to `i32`: naga's clamp to [-2^31, 2^31 - 128] (a NaN stays NaN and becomes 0), F2U
    /// of the magnitude, negated where the sign bit is set.
    fn float_to_i32(&mut self, n: usize, x: Src) -> Src {
        let lo = self.imm_s(-2_147_483_648.0);
        let hi = self.imm_s(I32_MAX_F);
        // MIN and MAX return their second operand when it is a NaN.
        let c = self.falu(Opcode::Max, n, vec![lo, x]);
        let c = self.falu(Opcode::Min, n, vec![hi, c]);
        let u = self.ialu(
            Opcode::F2u,
            n,
            vec![Src {
                abs: true,
                neg: false,
                ..c
            }],
        );
        let k31 = self.iimm(&[31]);
        let s = self.ialu(Opcode::Shr, n, vec![c, k31]);
        self.cond_negate(n, u, s)
    }

    /// `u ^ s - s`: u where the mask s is 0, -u where it is all ones.
    fn cond_negate(&mut self, n: usize, u: Src, s: Src) -> Src {
        let t = self.ialu(Opcode::Xor, n, vec![u, s]);
        self.isub(n, t, s)
    }

    /// `f32` to `u32`: naga's clamp to [0, 2^32 - 256], then F2U (negative and NaN give 0).
    fn float_to_u32(&mut self, n: usize, x: Src) -> Src {
        let hi = self.imm_s(U32_MAX_F);
        let c = self.falu(Opcode::Min, n, vec![hi, x]);
        self.ialu(Opcode::F2u, n, vec![c])
    }

    /// True when the integer expression is known to stay below 2^31 as an unsigned value.
    fn below_2_31(&mut self, h: Handle<Expression>, depth: usize) -> Result<bool, TranslateError> {
        if depth > 16 {
            return Ok(false);
        }
        let fun = self.frame().fun;
        let konst =
            |this: &mut Self, e: Handle<Expression>| -> Result<Option<Vec<u32>>, TranslateError> {
                let (s, n) = this.vec(e)?;
                Ok(this.iconst(&s, n))
            };
        Ok(match fun.expressions[h] {
            Expression::Binary {
                op: BinaryOperator::ShiftRight,
                left,
                right,
            } if self.int_kind(left) == Some(false) => {
                konst(self, right)?.is_some_and(|k| k.iter().all(|&k| k & 31 != 0))
                    || self.below_2_31(left, depth + 1)?
            }
            Expression::Binary {
                op: BinaryOperator::And,
                left,
                right,
            } => self.below_2_31(left, depth + 1)? || self.below_2_31(right, depth + 1)?,
            Expression::Binary {
                op: BinaryOperator::Modulo,
                left,
                right,
            } if self.int_kind(left) == Some(false) => {
                konst(self, right)?.is_some_and(|k| k.iter().all(|&k| k <= SIGN))
                    || self.below_2_31(left, depth + 1)?
            }
            Expression::Binary {
                op: BinaryOperator::Divide,
                left,
                right,
            } if self.int_kind(left) == Some(false) => {
                konst(self, right)?.is_some_and(|k| k.iter().all(|&k| k >= 2))
                    || self.below_2_31(left, depth + 1)?
            }
            // Texture sizes.
            Expression::ImageQuery { .. } => true,
            _ => konst(self, h)?.is_some_and(|k| k.iter().all(|&k| k < SIGN)),
        })
    }

    /// A conversion (`convert` is Some) or bit cast (None) of an expression to `kind`.
    pub(super) fn int_cast(
        &mut self,
        expr: Handle<Expression>,
        kind: ScalarKind,
        convert: Option<u8>,
        span: naga::Span,
    ) -> Result<Value, TranslateError> {
        use ScalarKind as K;
        let from = self.expr_ty(expr).scalar_kind();
        let (s, n) = self.vec(expr)?;
        let done = |src: Src| Value::V { src, size: n };
        let Some(from) = from else {
            return Err(super::err(Construct::Other("this conversion".into()), span));
        };
        if convert.is_none() || from == kind {
            // A bit cast keeps the bits; a float operand's negate or absolute value is applied
            // first (as a float: an integer opcode reading the modifier would negate as int32).
            if from == K::Float && kind != K::Float && (s.neg || s.abs) {
                let r = self.code.temp();
                self.code
                    .push(Opcode::Mov, Some((r, (1u8 << n) - 1)), vec![s]);
                let src = if n == 1 {
                    Src::reg(r).comp(0)
                } else {
                    Src::reg(r)
                };
                return Ok(done(src));
            }
            return Ok(done(s));
        }
        Ok(match (from, kind) {
            (K::Float, K::Sint) => done(self.float_to_i32(n, s)),
            (K::Float, K::Uint) => done(self.float_to_u32(n, s)),
            (K::Float, K::Bool) => {
                let z = self.imm_s(0.0);
                self.alu(Opcode::Sne, n, vec![s, z])
            }
            (K::Sint, K::Float) => done(self.i2f(n, s)),
            (K::Uint, K::Float) => {
                let small = self.below_2_31(expr, 0)?;
                done(self.int_to_float(n, s, false, small))
            }
            (K::Sint | K::Uint, K::Sint | K::Uint) => done(s),
            (K::Bool, K::Sint | K::Uint) => done(self.ialu(Opcode::F2u, n, vec![s])),
            (K::Sint | K::Uint, K::Bool) => {
                let f = self.i2f(n, s);
                let z = self.imm_s(0.0);
                self.alu(Opcode::Sne, n, vec![f, z])
            }
            (K::Bool, K::Float) => done(s),
            _ => {
                return Err(super::err(
                    Construct::Other(format!("a conversion from {from:?} to {kind:?}")),
                    span,
                ))
            }
        })
    }

    /// A binary operator on integer operands (`signed`: `i32`), `n` components.
    pub(super) fn int_binary(
        &mut self,
        op: BinaryOperator,
        a: Src,
        b: Src,
        n: usize,
        signed: bool,
        span: naga::Span,
    ) -> Result<Value, TranslateError> {
        use BinaryOperator as B;
        let v = |src: Src| Value::V { src, size: n };
        Ok(match op {
            B::Add => v(self.iadd(n, a, b)),
            B::Subtract => v(self.isub(n, a, b)),
            B::Multiply => v(self.imul(n, a, b)),
            B::Divide => v(self.idiv(n, a, b, signed)),
            B::Modulo => v(self.irem(n, a, b, signed)),
            B::And => v(self.ialu(Opcode::And, n, vec![a, b])),
            B::InclusiveOr => v(self.ialu(Opcode::Or, n, vec![a, b])),
            B::ExclusiveOr => v(self.ialu(Opcode::Xor, n, vec![a, b])),
            B::ShiftLeft => v(self.shift(Opcode::Shl, n, a, b)),
            B::ShiftRight if signed => v(self.shift(Opcode::Shr, n, a, b)),
            B::ShiftRight => v(self.lshr(n, a, b)),
            B::Equal | B::NotEqual => v(self.iequal(n, a, b, signed, op == B::NotEqual)),
            B::Less => v(self.icompare(
                n,
                Less {
                    x: a,
                    y: b,
                    negate: false,
                },
                signed,
            )),
            B::Greater => v(self.icompare(
                n,
                Less {
                    x: b,
                    y: a,
                    negate: false,
                },
                signed,
            )),
            B::GreaterEqual => v(self.icompare(
                n,
                Less {
                    x: a,
                    y: b,
                    negate: true,
                },
                signed,
            )),
            B::LessEqual => v(self.icompare(
                n,
                Less {
                    x: b,
                    y: a,
                    negate: true,
                },
                signed,
            )),
            other => return Err(super::err(Construct::Operator(format!("{other:?}")), span)),
        })
    }

    /// `a * b`: UMUL (27 core instructions on the board), or by a constant with one or two bits
    /// set (or minus such a power of two) shifts and an add (the same low 32 bits).
    fn imul(&mut self, n: usize, a: Src, b: Src) -> Src {
        let (a, b) = if self.iconst(&a, n).is_some() {
            (b, a)
        } else {
            (a, b)
        };
        let Some(k) = self.iconst(&b, n) else {
            return self.ialu(Opcode::Umul, n, vec![a, b]);
        };
        if self.iconst(&a, n).is_some() {
            return self.ialu(Opcode::Umul, n, vec![a, b]);
        }
        if k.iter().all(|x| x.is_power_of_two()) {
            let amounts: Vec<u32> = k.iter().map(|x| x.trailing_zeros()).collect();
            let amounts = self.iimm(&amounts);
            return self.shift(Opcode::Shl, n, a, amounts);
        }
        let k0 = k[0];
        if k.iter().any(|&x| x != k0) {
            return self.ialu(Opcode::Umul, n, vec![a, b]);
        }
        let shl = |this: &mut Self, s: u32| -> Src {
            if s == 0 {
                return a;
            }
            let amount = this.iimm(&[s]);
            this.ialu(Opcode::Shl, n, vec![a, amount])
        };
        if k0 == 0 {
            return self.iimm(&[0]);
        }
        if k0.count_ones() == 2 {
            let lo = k0.trailing_zeros();
            let hi = 31 - k0.leading_zeros();
            let x = shl(self, hi);
            let y = shl(self, lo);
            return self.iadd(n, x, y);
        }
        let neg = k0.wrapping_neg();
        if neg.is_power_of_two() {
            let x = shl(self, neg.trailing_zeros());
            let z = self.iimm(&[0]);
            return self.isub(n, z, x);
        }
        self.ialu(Opcode::Umul, n, vec![a, b])
    }

    /// The constants of an operand as exact floats, when all are below 2^24 in magnitude.
    fn small_const(&self, s: &Src, n: usize, signed: bool) -> Option<Vec<f32>> {
        let v = self.iconst(s, n)?;
        v.iter()
            .map(|&k| {
                if signed && (k as i32).unsigned_abs() < EXACT {
                    Some(k as i32 as f32)
                } else if !signed && k < EXACT {
                    Some(k as f32)
                } else {
                    None
                }
            })
            .collect()
    }

    /// I2F of an operand for a comparison with a small constant: for `u32`, values from 2^31 up
    /// (negative to I2F) become 2^32 (above every such constant).
    fn compare_float(&mut self, n: usize, x: Src, signed: bool) -> Src {
        let f = self.i2f(n, x);
        if signed {
            return f;
        }
        let big = self.imm_s(4_294_967_296.0);
        self.falu(Opcode::Cmp, n, vec![f, big, f])
    }

    /// `a == b` (or `!=`) as 1.0 / 0.0.
    fn iequal(&mut self, n: usize, a: Src, b: Src, signed: bool, not: bool) -> Src {
        let op = if not { Opcode::Sne } else { Opcode::Seq };
        let (a, b) = if self.iconst(&a, n).is_some() {
            (b, a)
        } else {
            (a, b)
        };
        // I2F is exact below 2^24 and never maps a larger value onto such a constant.
        if let Some(k) = self.small_const(&b, n, signed) {
            let f = self.i2f(n, a);
            let bits: Vec<u32> = k.iter().map(|x| x.to_bits()).collect();
            let k = self.code.imm(&bits);
            return self.falu(op, n, vec![f, k]);
        }
        let t = self.ialu(Opcode::Xor, n, vec![a, b]);
        let f = self.i2f(n, t);
        let z = self.imm_s(0.0);
        self.falu(op, n, vec![f, z])
    }

    /// A word whose sign bit is set exactly where `x < y` (two's complement or unsigned), and
    /// `x ^ y`.
    fn less_word(&mut self, n: usize, x: Src, y: Src, signed: bool) -> (Src, Src) {
        let d = self.isub(n, x, y);
        let g = self.ialu(Opcode::Xor, n, vec![x, y]);
        let e = self.ialu(Opcode::Xor, n, vec![d, x]);
        let e = if signed {
            e
        } else {
            self.ialu(Opcode::Not, n, vec![e])
        };
        let h = self.ialu(Opcode::And, n, vec![g, e]);
        (self.ialu(Opcode::Xor, n, vec![d, h]), g)
    }

    /// `x < y` (or its negation) as 1.0 / 0.0.
    fn icompare(&mut self, n: usize, c: Less, signed: bool) -> Src {
        let (lt, ge) = (Opcode::Slt, Opcode::Sge);
        let op = if c.negate { ge } else { lt };
        if let Some(k) = self.small_const(&c.y, n, signed) {
            let f = self.compare_float(n, c.x, signed);
            let bits: Vec<u32> = k.iter().map(|x| x.to_bits()).collect();
            let k = self.code.imm(&bits);
            return self.falu(op, n, vec![f, k]);
        }
        if let Some(k) = self.small_const(&c.x, n, signed) {
            let f = self.compare_float(n, c.y, signed);
            let bits: Vec<u32> = k.iter().map(|x| x.to_bits()).collect();
            let k = self.code.imm(&bits);
            return self.falu(op, n, vec![k, f]);
        }
        let (s, _) = self.less_word(n, c.x, c.y, signed);
        // I2F keeps the sign of every int32.
        let f = self.i2f(n, s);
        let z = self.imm_s(0.0);
        self.falu(op, n, vec![f, z])
    }

    /// min (or max) of two integer operands.
    fn iminmax(&mut self, n: usize, a: Src, b: Src, signed: bool, max: bool) -> Src {
        let (a, b) = if self.iconst(&a, n).is_some() {
            (b, a)
        } else {
            (a, b)
        };
        if let Some(k) = self.small_const(&b, n, signed) {
            // A float comparison with the constant, then UCMP on its 1.0 / 0.0.
            let f = self.compare_float(n, a, signed);
            let bits: Vec<u32> = k.iter().map(|x| x.to_bits()).collect();
            let k = self.code.imm(&bits);
            let keep_a = if max {
                self.falu(Opcode::Slt, n, vec![k, f])
            } else {
                self.falu(Opcode::Slt, n, vec![f, k])
            };
            return self.ialu(Opcode::Ucmp, n, vec![keep_a, a, b]);
        }
        let (s, g) = self.less_word(n, a, b, signed);
        let k31 = self.iimm(&[31]);
        let m = self.ialu(Opcode::Shr, n, vec![s, k31]);
        let t = self.ialu(Opcode::And, n, vec![g, m]);
        // a < b: m is all ones and `b ^ (a ^ b)` is a.
        let base = if max { a } else { b };
        self.ialu(Opcode::Xor, n, vec![base, t])
    }

    /// Built-in functions of integer arguments.
    pub(super) fn int_math(
        &mut self,
        fun: MathFunction,
        arg: Handle<Expression>,
        arg1: Option<Handle<Expression>>,
        arg2: Option<Handle<Expression>>,
        signed: bool,
        span: naga::Span,
    ) -> Result<Value, TranslateError> {
        use MathFunction as M;
        let (x, n) = self.vec(arg)?;
        let get = |s: &mut Self, h: Option<Handle<Expression>>| -> Result<Src, TranslateError> {
            let h = h.ok_or_else(|| super::err(Construct::Function(format!("{fun:?}")), span))?;
            let (v, m) = s.vec(h)?;
            Ok(if m == 1 && n > 1 { v.comp(0) } else { v })
        };
        let v = |src: Src| Value::V { src, size: n };
        Ok(match fun {
            M::Abs if !signed => v(x),
            // The integer absolute-value modifier (|i32::MIN| wraps to itself).
            M::Abs => {
                let z = self.iimm(&[0]);
                v(self.ialu(
                    Opcode::Uadd,
                    n,
                    vec![
                        Src {
                            abs: true,
                            neg: false,
                            ..x
                        },
                        z,
                    ],
                ))
            }
            M::Min | M::Max => {
                let y = get(self, arg1)?;
                v(self.iminmax(n, x, y, signed, fun == M::Max))
            }
            M::Clamp => {
                let lo = get(self, arg1)?;
                let hi = get(self, arg2)?;
                let m = self.iminmax(n, x, lo, signed, true);
                v(self.iminmax(n, m, hi, signed, false))
            }
            M::Sign if signed => {
                // (x >> 31) | ((-x) >>> 31): -1, 0 or 1 (-i32::MIN is i32::MIN: still -1).
                let k31 = self.iimm(&[31]);
                let neg = self.ialu(Opcode::Shr, n, vec![x, k31]);
                let pos = self.ialu(Opcode::Shr, n, vec![x.negated(), k31]);
                let one = self.iimm(&[1]);
                let pos = self.ialu(Opcode::And, n, vec![pos, one]);
                v(self.ialu(Opcode::Or, n, vec![neg, pos]))
            }
            M::Dot => {
                let y = get(self, arg1)?;
                let p = self.ialu(Opcode::Umul, n, vec![x, y]);
                let mut acc = p.comp(0);
                for c in 1..n {
                    acc = self.iadd(1, acc, p.comp(c));
                }
                Value::V { src: acc, size: 1 }
            }
            other => return Err(super::err(Construct::Function(format!("{other:?}")), span)),
        })
    }

    /// An integer select: UCMP on the 1.0 / 0.0 condition (bits kept, no float flush).
    pub(super) fn iselect(&mut self, n: usize, cond: Src, accept: Src, reject: Src) -> Src {
        self.ialu(Opcode::Ucmp, n, vec![cond, accept, reject])
    }

    /// `a / b` (truncated toward zero; `a / 0 = a`, `i32::MIN / -1 = i32::MIN`).
    fn idiv(&mut self, n: usize, a: Src, b: Src, signed: bool) -> Src {
        let konst = self.iconst(&b, n);
        if signed {
            if let Some(d) = konst.as_ref().filter(|d| d.iter().all(|&x| x != 0)) {
                if let Some(q) = self.sdiv_const(n, a, d) {
                    return q;
                }
                let r = self.ialu(Opcode::Mod, n, vec![a, b]);
                let m = self.isub(n, a, r);
                return self.exact_div_const(n, m, d);
            }
            let r = self.ialu(Opcode::Mod, n, vec![a, b]);
            let m = self.isub(n, a, r);
            let q = self.exact_div_var(n, m, b, true);
            return self.ialu(Opcode::Ucmp, n, vec![b, q, a]);
        }
        if let Some(d) = konst.as_ref().filter(|d| d.iter().all(|&x| x != 0)) {
            if d.iter().all(|x| x.is_power_of_two()) {
                let k: Vec<u32> = d.iter().map(|x| x.trailing_zeros()).collect();
                let k = self.iimm(&k);
                return self.lshr(n, a, k);
            }
            if let Some(q) = self.udiv_magic(n, a, d) {
                return q;
            }
        }
        let (q, _) = self.udivrem(n, a, b, konst.as_deref(), true);
        q
    }

    /// `a % b` (the sign of a; `a % 0 = 0`).
    fn irem(&mut self, n: usize, a: Src, b: Src, signed: bool) -> Src {
        let konst = self.iconst(&b, n);
        let nonzero = konst.as_ref().is_some_and(|d| d.iter().all(|&x| x != 0));
        if signed {
            if let Some(d) = konst.as_ref().filter(|_| nonzero) {
                let k = d[0].trailing_zeros();
                if d.iter().all(|&x| (x as i32).unsigned_abs() == 1 << k) {
                    // a - (a / 2^k) 2^k: ((a + bias) & (2^k - 1)) - bias.
                    let bias = self.pow2_bias(n, a, k);
                    let t = self.iadd(n, a, bias);
                    let mask = self.iimm(&[(1u32 << k).wrapping_sub(1)]);
                    let t = self.ialu(Opcode::And, n, vec![t, mask]);
                    return self.isub(n, t, bias);
                }
            }
            let r = self.ialu(Opcode::Mod, n, vec![a, b]);
            if nonzero {
                return r;
            }
            let z = self.iimm(&[0]);
            return self.ialu(Opcode::Ucmp, n, vec![b, r, z]);
        }
        if let Some(d) = konst.as_ref().filter(|_| nonzero) {
            if d.iter().all(|x| x.is_power_of_two()) {
                let m: Vec<u32> = d.iter().map(|x| x - 1).collect();
                let m = self.iimm(&m);
                return self.ialu(Opcode::And, n, vec![a, m]);
            }
        }
        let (_, r) = self.udivrem(n, a, b, konst.as_deref(), false);
        r
    }

    /// `2^k - 1` where a is negative, else 0: what makes an arithmetic shift by k truncate toward
    /// zero.
    fn pow2_bias(&mut self, n: usize, a: Src, k: u32) -> Src {
        let k31 = self.iimm(&[31]);
        let s = self.ialu(Opcode::Shr, n, vec![a, k31]);
        if k == 31 {
            return self.lshr_const(n, s, 1);
        }
        let mask = self.iimm(&[(1u32 << k).wrapping_sub(1)]);
        self.ialu(Opcode::And, n, vec![s, mask])
    }

    /// `i32` quotient by nonzero constants: powers of two (in magnitude) by shifts, others by
    /// IMUL_HI with the Hacker's Delight reciprocal; None when the components need different
    /// sequences.
    fn sdiv_const(&mut self, n: usize, a: Src, d: &[u32]) -> Option<Src> {
        let mags: Vec<u32> = d.iter().map(|&x| (x as i32).unsigned_abs()).collect();
        let negative = (d[0] as i32) < 0;
        if d.iter().any(|&x| ((x as i32) < 0) != negative) {
            return None;
        }
        let q = if mags.iter().all(|&m| m == mags[0] && m.is_power_of_two()) {
            let k = mags[0].trailing_zeros();
            if k == 0 {
                a
            } else {
                let bias = self.pow2_bias(n, a, k);
                let t = self.iadd(n, a, bias);
                let amount = self.iimm(&[k]);
                self.ialu(Opcode::Shr, n, vec![t, amount])
            }
        } else {
            if mags.iter().any(|m| m.is_power_of_two()) {
                return None;
            }
            let magics: Vec<(u32, u32)> = mags.iter().map(|&m| magic_i32(m)).collect();
            let s0 = magics[0].1;
            // The reciprocal of |d| has its top bit set (an add of a) alike in all components.
            let add = (magics[0].0 as i32) < 0;
            if magics
                .iter()
                .any(|&(m, s)| s != s0 || ((m as i32) < 0) != add)
            {
                return None;
            }
            let mult: Vec<u32> = magics.iter().map(|m| m.0).collect();
            let mult = self.iimm(&mult);
            let mut t = self.ialu(Opcode::ImulHi, n, vec![a, mult]);
            if add {
                t = self.iadd(n, t, a);
            }
            if s0 != 0 {
                let amount = self.iimm(&[s0]);
                t = self.ialu(Opcode::Shr, n, vec![t, amount]);
            }
            // Round toward zero: add 1 where the floor is negative.
            let k31 = self.iimm(&[31]);
            let sgn = self.ialu(Opcode::Shr, n, vec![t, k31]);
            self.isub(n, t, sgn)
        };
        Some(if negative {
            let z = self.iimm(&[0]);
            self.isub(n, z, q)
        } else {
            q
        })
    }

    /// `m / d` for an exact multiple m of the nonzero constants d: an arithmetic shift by d's
    /// trailing zeros, then a multiplication by the inverse of the odd part modulo 2^32.
    fn exact_div_const(&mut self, n: usize, m: Src, d: &[u32]) -> Src {
        let k: Vec<u32> = d.iter().map(|x| x.trailing_zeros()).collect();
        let odd: Vec<u32> = d
            .iter()
            .zip(&k)
            .map(|(&x, &k)| ((x as i32) >> k) as u32)
            .collect();
        let mut t = m;
        if k.iter().any(|&k| k != 0) {
            let amounts = self.iimm(&k);
            t = self.shift(Opcode::Shr, n, t, amounts);
        }
        if odd.iter().all(|&x| x == 1) {
            return t;
        }
        if odd.iter().all(|&x| x == u32::MAX) {
            let z = self.iimm(&[0]);
            return self.isub(n, z, t);
        }
        let inv: Vec<u32> = odd.iter().map(|&x| inverse_mod_2_32(x)).collect();
        let inv = self.iimm(&inv);
        self.ialu(Opcode::Umul, n, vec![t, inv])
    }

    /// `m / b` for an exact multiple m of b (b nonzero where the result is used): the float
    /// estimate q1 = trunc(m * RCP(b)) (within 513 of the quotient, exactly it or one off when
    /// |b| >= 2^15), then the exact error e = m - q1 * b, a small multiple of b whose quotient a MAD
    /// rounds to an integer (through MAGIC). `nonneg`: m >= 0 and b > 0 (no signs to handle).
    fn exact_div_var(&mut self, n: usize, m: Src, b: Src, signed: bool) -> Src {
        let fm = self.i2f(n, m);
        let fb = self.i2f(n, b);
        let rb = Self::v(self.per_comp(Opcode::Rcp, n, &[fb])).0;
        let e0 = self.falu(Opcode::Mul, n, vec![fm, rb]);
        let q1 = if signed {
            let u = self.ialu(
                Opcode::F2u,
                n,
                vec![Src {
                    abs: true,
                    neg: false,
                    ..e0
                }],
            );
            let k31 = self.iimm(&[31]);
            let s = self.ialu(Opcode::Shr, n, vec![e0, k31]);
            self.cond_negate(n, u, s)
        } else {
            self.ialu(Opcode::F2u, n, vec![e0])
        };
        let p = self.ialu(Opcode::Umul, n, vec![q1, b]);
        let e = self.isub(n, m, p);
        let fe = self.i2f(n, e);
        let magic = self.imm_s(MAGIC);
        let kb = self.falu(Opcode::Mad, n, vec![fe, rb, magic]);
        let unmagic = self.iimm(&[MAGIC.to_bits().wrapping_neg()]);
        let k = self.iadd(n, kb, unmagic);
        self.iadd(n, q1, k)
    }

    /// `u32` quotient by constants that are neither 0 nor powers of two: UMUL_HI by the
    /// Granlund-Montgomery reciprocal and a shift (with the add step where 32 bits are too few).
    fn udiv_magic(&mut self, n: usize, a: Src, d: &[u32]) -> Option<Src> {
        let magics: Vec<(u32, u32, bool)> = d.iter().map(|&x| magic_u32(x)).collect();
        // One shape for all components (a vector by one constant, the usual case).
        let (_, s0, add0) = magics[0];
        if magics.iter().any(|&(_, s, add)| s != s0 || add != add0) {
            return None;
        }
        let mult: Vec<u32> = magics.iter().map(|m| m.0).collect();
        let mult = self.iimm(&mult);
        let t = self.ialu(Opcode::UmulHi, n, vec![a, mult]);
        Some(if add0 {
            let diff = self.isub(n, a, t);
            let half = self.lshr_const(n, diff, 1);
            let sum = self.iadd(n, t, half);
            self.lshr_const(n, sum, s0 - 1)
        } else {
            self.lshr_const(n, t, s0)
        })
    }

    /// `u32` quotient and remainder (`want_q` picks which one is built) by b (constants in
    /// `konst`). For b below 2^31: MOD of `a >> 1` (below 2^31, which MOD takes), one restoring
    /// step for the last bit, and the exact division of `(a >> 1) - r1`; for b from 2^31 up the
    /// quotient is `a >= b`. `a / 0 = a`, `a % 0 = 0`.
    fn udivrem(
        &mut self,
        n: usize,
        a: Src,
        b: Src,
        konst: Option<&[u32]>,
        want_q: bool,
    ) -> (Src, Src) {
        let all = |f: &dyn Fn(u32) -> bool| konst.is_some_and(|d| d.iter().all(|&x| f(x)));
        let low_only = all(&|x| x != 0 && x < SIGN);
        let high_only = all(&|x| x >= SIGN);
        let k31 = self.iimm(&[31]);
        let one = self.iimm(&[1]);
        // Divisors below 2^31.
        let low = if high_only {
            None
        } else {
            let a1 = self.lshr_const(n, a, 1);
            let r1 = self.ialu(Opcode::Mod, n, vec![a1, b]);
            let r2 = self.ialu(Opcode::Shl, n, vec![r1, one]);
            let bit = self.ialu(Opcode::And, n, vec![a, one]);
            let rr = self.ialu(Opcode::Or, n, vec![r2, bit]);
            // rr < 2b: rr - b fits int32; m is all ones where rr < b.
            let t = self.isub(n, rr, b);
            let m = self.ialu(Opcode::Shr, n, vec![t, k31]);
            if want_q {
                let x = self.isub(n, a1, r1);
                let q1 = match konst.filter(|_| low_only) {
                    Some(d) => self.exact_div_const(n, x, d),
                    None => self.exact_div_var(n, x, b, false),
                };
                let q2 = self.ialu(Opcode::Shl, n, vec![q1, one]);
                let inc = self.iadd(n, m, one);
                Some(self.iadd(n, q2, inc))
            } else {
                let bm = self.ialu(Opcode::And, n, vec![b, m]);
                Some(self.iadd(n, t, bm))
            }
        };
        // Divisors from 2^31 up: a >= b needs a's top bit and a - b >= 0 (both fit then).
        let high = if low_only {
            None
        } else {
            let t = self.isub(n, a, b);
            let nt = self.ialu(Opcode::Not, n, vec![t]);
            let w = self.ialu(Opcode::And, n, vec![a, nt]);
            let ge = self.ialu(Opcode::Shr, n, vec![w, k31]);
            if want_q {
                Some(self.ialu(Opcode::And, n, vec![ge, one]))
            } else {
                let bm = self.ialu(Opcode::And, n, vec![b, ge]);
                Some(self.isub(n, a, bm))
            }
        };
        let r = match (low, high) {
            (Some(l), Some(h)) => {
                let top = self.ialu(Opcode::Shr, n, vec![b, k31]);
                self.ialu(Opcode::Ucmp, n, vec![top, h, l])
            }
            (Some(l), None) => l,
            (None, Some(h)) => h,
            (None, None) => unreachable!("one of the cases applies"),
        };
        if konst.is_some_and(|d| d.iter().all(|&x| x != 0)) {
            return (r, r);
        }
        let zero_case = if want_q { a } else { self.iimm(&[0]) };
        let r = self.ialu(Opcode::Ucmp, n, vec![b, r, zero_case]);
        (r, r)
    }
}

/// An immediate's bits read through an integer opcode's modifiers.
fn int_modifiers(bits: u32, s: &Src) -> u32 {
    let x = bits as i32;
    let x = if s.abs { x.wrapping_abs() } else { x };
    (if s.neg { x.wrapping_neg() } else { x }) as u32
}

/// An immediate's bits read through a float opcode's modifiers (the sign bit).
fn float_modifiers(bits: u32, s: &Src) -> u32 {
    let b = if s.abs { bits & !SIGN } else { bits };
    if s.neg {
        b ^ SIGN
    } else {
        b
    }
}

/// The inverse of an odd number modulo 2^32 (Newton's iteration doubles the correct low bits:
/// x = d is right to 3 bits, five steps reach 96).
pub(crate) fn inverse_mod_2_32(d: u32) -> u32 {
    let mut x = d;
    for _ in 0..5 {
        x = x.wrapping_mul(2u32.wrapping_sub(d.wrapping_mul(x)));
    }
    x
}

/// The reciprocal for `u32` division by d (2 <= d, not a power of two): (m, s, false) when
/// `UMUL_HI(a, m) >> s` is the quotient for every a (Granlund and Montgomery: m = ceil(2^(32+s)
/// / d) below 2^32 with m d - 2^(32+s) <= 2^s), else (m, l, true) for
/// `(t + ((a - t) >> 1)) >> (l - 1)` with t = UMUL_HI(a, m), l = ceil(log2 d) and
/// m = floor(2^32 (2^l - d) / d) + 1.
pub(crate) fn magic_u32(d: u32) -> (u32, u32, bool) {
    let d128 = u128::from(d);
    for s in 0..32u32 {
        let p = 1u128 << (32 + s);
        let m = p.div_ceil(d128);
        if m < 1 << 32 && m * d128 - p <= 1u128 << s {
            return (m as u32, s, false);
        }
    }
    let l = 32 - (d - 1).leading_zeros();
    let m = ((1u128 << 32) * ((1u128 << l) - d128)) / d128 + 1;
    (m as u32, l, true)
}

/// The reciprocal for `i32` division by a positive d (3 <= d < 2^31, not a power of two): (m, s)
/// with `q = ((IMUL_HI(a, m) [+ a when m's top bit is set]) >> s) + (1 where negative)` (Hacker's
/// Delight, figure 10-1, for a positive divisor).
pub(crate) fn magic_i32(d: u32) -> (u32, u32) {
    let two31 = SIGN;
    let anc = two31 - 1 - two31 % d;
    let mut p = 31u32;
    let (mut q1, mut r1) = (two31 / anc, two31 - (two31 / anc) * anc);
    let (mut q2, mut r2) = (two31 / d, two31 - (two31 / d) * d);
    loop {
        p += 1;
        q1 = q1.wrapping_mul(2);
        r1 = r1.wrapping_mul(2);
        if r1 >= anc {
            q1 = q1.wrapping_add(1);
            r1 = r1.wrapping_sub(anc);
        }
        q2 = q2.wrapping_mul(2);
        r2 = r2.wrapping_mul(2);
        if r2 >= d {
            q2 = q2.wrapping_add(1);
            r2 = r2.wrapping_sub(d);
        }
        let delta = d - r2;
        if !(q1 < delta || (q1 == delta && r1 == 0)) {
            break;
        }
    }
    (q2.wrapping_add(1), p - 32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(seed: &mut u64) -> u32 {
        *seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (*seed >> 32) as u32
    }

    #[test]
    fn inverses_are_inverses() {
        let mut seed = 1;
        for _ in 0..10_000 {
            let d = lcg(&mut seed) | 1;
            assert_eq!(d.wrapping_mul(inverse_mod_2_32(d)), 1, "{d}");
        }
    }

    #[test]
    fn signed_reciprocals_divide_exactly() {
        let mut seed = 11;
        let mut divisors: Vec<u32> = (3..3000).filter(|d: &u32| !d.is_power_of_two()).collect();
        divisors.extend([7, 641, 0x7FFF_FFFF, 0x7FFF_FFFE, 0x4000_0001, 6_700_417]);
        for _ in 0..2000 {
            let d = (lcg(&mut seed) >> 1) >> (lcg(&mut seed) % 30);
            if d > 2 && !d.is_power_of_two() {
                divisors.push(d);
            }
        }
        for d in divisors {
            let (m, s) = magic_i32(d);
            let div = |a: i32| {
                let mut t = ((i64::from(a) * i64::from(m as i32)) >> 32) as i32;
                if (m as i32) < 0 {
                    t = t.wrapping_add(a);
                }
                t >>= s;
                t - (t >> 31)
            };
            let di = d as i32;
            let mut values = vec![
                0,
                1,
                -1,
                di,
                -di,
                di - 1,
                di.wrapping_add(1),
                1 - di,
                i32::MIN,
                i32::MAX,
            ];
            values.extend([
                i32::MIN + 1,
                i32::MAX - 1,
                (i32::MAX / di) * di,
                (i32::MIN / di) * di,
            ]);
            for _ in 0..200 {
                values.push(lcg(&mut seed) as i32);
            }
            for a in values {
                assert_eq!(div(a), a / di, "{a} / {d} with {m:#x}, {s}");
                assert_eq!(div(a).wrapping_neg(), a / -di, "{a} / -{d}");
            }
        }
    }

    /// The reciprocals divide exactly, against Rust, over edge and random dividends.
    #[test]
    fn magic_reciprocals_divide_exactly() {
        let mut seed = 7;
        let mut divisors: Vec<u32> = (3..2000).filter(|d: &u32| !d.is_power_of_two()).collect();
        divisors.extend([
            7,
            641,
            6_700_417,
            0x7FFF_FFFF,
            0x8000_0001,
            u32::MAX,
            0xFFFF_FFFE,
        ]);
        for _ in 0..2000 {
            let d = lcg(&mut seed) >> (lcg(&mut seed) % 31);
            if d > 2 && !d.is_power_of_two() {
                divisors.push(d);
            }
        }
        for d in divisors {
            let (m, s, add) = magic_u32(d);
            let div = |a: u32| {
                let t = ((u64::from(a) * u64::from(m)) >> 32) as u32;
                if add {
                    (t + ((a - t) >> 1)) >> (s - 1)
                } else {
                    t >> s
                }
            };
            let mut values = vec![
                0,
                1,
                d - 1,
                d,
                d.wrapping_add(1),
                u32::MAX,
                u32::MAX - 1,
                SIGN,
                SIGN - 1,
            ];
            let q_max = u32::MAX / d;
            values.extend([q_max * d, q_max * d - 1, (q_max * d).wrapping_sub(1)]);
            for _ in 0..200 {
                values.push(lcg(&mut seed));
            }
            for a in values {
                assert_eq!(div(a), a / d, "{a} / {d} with {m:#x}, {s}, {add}");
            }
        }
    }
}

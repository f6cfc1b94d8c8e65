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

mod bits;
mod compare;
mod decompose;
mod divide;

use super::{Lower, Value};
use crate::code::{RegFile, Src};
use crate::error::Construct;
use crate::TranslateError;
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

    pub(super) fn ifold(&mut self, op: Opcode, n: usize, src: &[Src]) -> Option<Src> {
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
    pub(super) fn ineg_operand(&mut self, b: Src, n: usize) -> Src {
        match self.iconst(&b, n) {
            Some(v) => {
                let neg: Vec<u32> = v.iter().map(|x| x.wrapping_neg()).collect();
                self.iimm(&neg)
            }
            None => b.negated(),
        }
    }

    pub(super) fn iadd(&mut self, n: usize, a: Src, b: Src) -> Src {
        if self
            .iconst(&b, n)
            .is_some_and(|v| v.iter().all(|&x| x == 0))
        {
            return a;
        }
        self.ialu(Opcode::Uadd, n, vec![a, b])
    }

    pub(super) fn isub(&mut self, n: usize, a: Src, b: Src) -> Src {
        let nb = self.ineg_operand(b, n);
        self.iadd(n, a, nb)
    }

    pub(super) fn i2f(&mut self, n: usize, x: Src) -> Src {
        self.ialu(Opcode::I2f, n, vec![x])
    }

    /// A float instruction's result operand.
    pub(super) fn falu(&mut self, op: Opcode, n: usize, src: Vec<Src>) -> Src {
        self.alu(op, n, src).src()
    }

    /// SHL or SHR of each component of `a` by the matching component of `amount`: one instruction
    /// when every component shifts by the same operand component (src1.x is the amount of a whole
    /// instruction), else one per component.
    pub(super) fn shift(&mut self, op: Opcode, n: usize, a: Src, amount: Src) -> Src {
        if (0..n).all(|c| amount.swz[c] == amount.swz[0]) {
            return self.ialu(op, n, vec![a, amount.comp(0)]);
        }
        let parts: Vec<Src> = (0..n)
            .map(|c| self.ialu(op, 1, vec![a.comp(c), amount.comp(c)]))
            .collect();
        let v = self.compose(&parts, true);
        v.src()
    }

    /// `a >> amount` on `u32`: SHR, then AND with the mask of the bits that came from `a`
    /// (`~((0x80000000 >> k) << 1)`, folded for constant amounts).
    pub(super) fn lshr(&mut self, n: usize, a: Src, amount: Src) -> Src {
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

    pub(super) fn lshr_const(&mut self, n: usize, a: Src, k: u32) -> Src {
        let amount = self.iimm(&[k]);
        self.lshr(n, a, amount)
    }

    /// `x` (a register or immediate operand of `n` components) converted to float.
    pub(super) fn int_to_float(&mut self, n: usize, x: Src, signed: bool, below_2_31: bool) -> Src {
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
    pub(super) fn float_to_i32(&mut self, n: usize, x: Src) -> Src {
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
    pub(super) fn cond_negate(&mut self, n: usize, u: Src, s: Src) -> Src {
        let t = self.ialu(Opcode::Xor, n, vec![u, s]);
        self.isub(n, t, s)
    }

    /// `f32` to `u32`: naga's clamp to [0, 2^32 - 256], then F2U (negative and NaN give 0).
    pub(super) fn float_to_u32(&mut self, n: usize, x: Src) -> Src {
        let hi = self.imm_s(U32_MAX_F);
        let c = self.falu(Opcode::Min, n, vec![hi, x]);
        self.ialu(Opcode::F2u, n, vec![c])
    }

    /// True when the integer expression is known to stay below 2^31 as an unsigned value.
    pub(super) fn below_2_31(
        &mut self,
        h: Handle<Expression>,
        depth: usize,
    ) -> Result<bool, TranslateError> {
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
    pub(super) fn cast(
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
            return Err(super::err(
                Construct::Other("this conversion".into()),
                "its operand is not a scalar or vector",
                span,
            ));
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
                    Construct::Other(format!(
                        "a conversion from {} to {}",
                        kind_name(from),
                        kind_name(kind)
                    )),
                    "TGSI has no registers of these types",
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
            other => {
                return Err(super::err(
                    Construct::Operator(super::binary::operator_name(other).into()),
                    "it does not apply to integers",
                    span,
                ))
            }
        })
    }

    /// `a * b`: UMUL (27 core instructions on the board), or by a constant with one or two bits
    /// set (or minus such a power of two) shifts and an add (the same low 32 bits).
    pub(super) fn imul(&mut self, n: usize, a: Src, b: Src) -> Src {
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

    /// Built-in functions of integer arguments.
    pub(super) fn int_math(
        &mut self,
        fun: MathFunction,
        args: [Option<Handle<Expression>>; 4],
        signed: bool,
        span: naga::Span,
    ) -> Result<Value, TranslateError> {
        use MathFunction as M;
        let [arg, arg1, arg2, arg3] = args;
        let Some(arg) = arg else {
            return Err(super::err(
                Construct::Function(super::names::math(fun, self.language)),
                "it has no operand",
                span,
            ));
        };
        let (x, n) = self.vec(arg)?;
        let get = |s: &mut Self, h: Option<Handle<Expression>>| -> Result<Src, TranslateError> {
            let h = h.ok_or_else(|| {
                super::err(
                    Construct::Function(super::names::math(fun, s.language)),
                    "an operand is missing",
                    span,
                )
            })?;
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
            M::CountOneBits => v(self.count_one_bits(n, x)),
            M::ReverseBits => v(self.reverse_bits(n, x)),
            M::CountTrailingZeros => v(self.count_trailing_zeros(n, x)),
            M::CountLeadingZeros => v(self.count_leading_zeros(n, x)),
            M::FirstTrailingBit => v(self.first_trailing_bit(n, x)),
            M::FirstLeadingBit => v(self.first_leading_bit(n, x, signed)),
            M::ExtractBits => {
                let (o, c) = (get(self, arg1)?, get(self, arg2)?);
                v(self.extract_bits(n, x, o, c, signed))
            }
            M::InsertBits => {
                let newbits = get(self, arg1)?;
                let (o, c) = (get(self, arg2)?, get(self, arg3)?);
                v(self.insert_bits(n, x, newbits, o, c))
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
            other => {
                return Err(super::err(
                    Construct::Function(super::names::math(other, self.language)),
                    "TGSI 1.x has no opcode for it and the translator no exact sequence of \
                     integer opcodes",
                    span,
                ))
            }
        })
    }

    /// An integer select: UCMP on the 1.0 / 0.0 condition (bits kept, no float flush).
    pub(super) fn iselect(&mut self, n: usize, cond: Src, accept: Src, reject: Src) -> Src {
        self.ialu(Opcode::Ucmp, n, vec![cond, accept, reject])
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

/// A scalar kind as WGSL names its 32-bit type.
fn kind_name(k: ScalarKind) -> &'static str {
    match k {
        ScalarKind::Sint => "i32",
        ScalarKind::Uint => "u32",
        ScalarKind::Float => "f32",
        ScalarKind::Bool => "bool",
        _ => "an abstract number",
    }
}

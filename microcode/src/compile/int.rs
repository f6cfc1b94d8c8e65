//! Integer opcodes (I2F NOT AND OR XOR SHL SHR MOD SAD ARA) on the integer ALU and the divider
//! (MOD; without the divider an integer ALU sequence, `div.rs`).
//!
//! Integer source modifiers: negate and absolute are int32 operations (`decisions.md` section 2),
//! Complement, Bias, Scale2X and ExtDivide keep their binary32 definitions (as `sim::reference`),
//! so a modified integer operand is computed into scratch with the integer negation and magnitude
//! ([`Ctx::ineg`], [`Ctx::iabs`]: the integer ALU adds, subtracts, shifts and does logic, and
//! these are its sequences), FMAD and DIV; the read path's sign-bit modifiers are never used on
//! integer operands.

use super::{CompileError, Ctx};
use crate::core::isa::{Op, Operand};
use crate::tgsi::{ExtSel, Instruction, Opcode, SrcOperand};

/// The literal integer -1, whose low five bits shift by 31 (`SHR` shifts by `B & 31`).
pub(crate) const INT_MINUS_ONE: u32 = 0xFFFF_FFFF;

impl Ctx<'_> {
    /// `d = -src` (int32, wrapping): `ISUB` from the literal 0.
    pub(crate) fn ineg(&mut self, d: u8, mask: u8, src: Operand) -> Result<usize, CompileError> {
        let zero = self.lit(super::operand::ZERO, false)?;
        Ok(self.op(Op::Isub, d, mask, &[zero, src]))
    }

    /// `d = |src|` (int32, wrapping: `|i32::MIN|` is `i32::MIN`, 2^31 as unsigned), as
    /// `(src ^ m) - m` with `m = src >> 31` (arithmetic: -1 or 0) in `t`, which must not be
    /// `src`'s register.
    pub(crate) fn iabs(
        &mut self,
        d: u8,
        mask: u8,
        src: Operand,
        t: u8,
    ) -> Result<usize, CompileError> {
        let by_31 = self.lit(INT_MINUS_ONE, false)?;
        self.op(Op::Shr, t, mask, &[src, by_31]);
        self.op(Op::Xor, d, mask, &[src, Self::reg(t)]);
        Ok(self.op(Op::Isub, d, mask, &[Self::reg(d), Self::reg(t)]))
    }

    /// An integer source operand (`sim::reference` order): swizzle, EXT_SWZ negates and the
    /// operand negate as int32 negations, then Complement, Bias and Scale2X as binary32
    /// operations on the bits, then absolute and negate as int32 operations, then ExtDivide as
    /// binary32 divisions.
    pub(crate) fn int_src(&mut self, s: &SrcOperand) -> Result<Operand, CompileError> {
        let lowered = self.int_src_lowered(s);
        lowered.map_err(|e| self.blame_src(e, s))
    }

    fn int_src_lowered(&mut self, s: &SrcOperand) -> Result<Operand, CompileError> {
        if s.ext_swizzle
            .is_some_and(|e| e.select.contains(&ExtSel::One))
        {
            return Err(self.unsupported("EXT_SWZ ONE on an integer operand (integer 1)"));
        }
        let plain = SrcOperand {
            negate: false,
            ext_mod: Default::default(),
            ext_swizzle: s.ext_swizzle.map(|mut e| {
                e.negate = [false; 4];
                e.divide = ExtSel::One;
                e
            }),
            ..*s
        };
        let mut o = self.src(&plain)?;
        let m = s.ext_mod;
        let ext_neg = s.ext_swizzle.map_or([false; 4], |e| e.negate);
        let divide = s.ext_swizzle.map_or(ExtSel::One, |e| e.divide);
        let neg_mask = (0..4).fold(0u8, |acc, c| acc | (u8::from(ext_neg[c] ^ s.negate) << c));
        let float_mods = m.complement || m.bias || m.scale2x;
        if neg_mask == 0 && !float_mods && !m.absolute && !m.negate && divide == ExtSel::One {
            return Ok(o);
        }
        let t = self.scratch();
        self.op(Op::Mov, t, 0xF, &[o]);
        o = Self::reg(t);
        if neg_mask != 0 {
            self.ineg(t, neg_mask, o)?;
        }
        if m.complement {
            let (one, mone) = (
                self.lit(super::operand::ONE, false)?,
                self.lit(super::operand::ONE, true)?,
            );
            self.op(Op::Fmad, t, 0xF, &[o, mone, one]);
        }
        if m.bias {
            let (one, mhalf) = (
                self.lit(super::operand::ONE, false)?,
                self.lit(super::operand::HALF, true)?,
            );
            self.op(Op::Fmad, t, 0xF, &[o, one, mhalf]);
        }
        if m.scale2x {
            let (two, mzero) = (
                self.lit(super::operand::TWO, false)?,
                self.lit(super::operand::ZERO, true)?,
            );
            self.op(Op::Fmad, t, 0xF, &[o, two, mzero]);
        }
        if m.absolute {
            // The sign mask is dead once the absolute value is made: its register is free
            // again for what reads the operand.
            let mark = self.scratch_used;
            let sign = self.scratch();
            self.iabs(t, 0xF, o, sign)?;
            self.scratch_used = mark;
        }
        if m.negate {
            self.ineg(t, 0xF, o)?;
        }
        match divide {
            ExtSel::One => {}
            ExtSel::W => {
                let w = super::operand::splat(o, 3);
                self.divide_into(t, 0b0111, o, w)?;
            }
            other => return Err(self.unsupported(format!("ExtDivide by {other:?}"))),
        }
        Ok(o)
    }
}

/// UP2US, UP4UB, UP4B (`sim::reference`): fields of src.x by shift and mask, converted, then one
/// correctly rounded division each.
pub(crate) fn lower_unpack(c: &mut Ctx, inst: &Instruction) -> Result<(), CompileError> {
    let s = inst
        .src
        .first()
        .ok_or_else(|| c.unsupported("unpack without a source"))?;
    let a = c.int_src(s)?;
    let x = super::operand::splat(a, 0);
    let d = c.dst(inst)?;
    let t = c.scratch();
    // The divisors are 2^k - 1.
    let (shifts, mask, k) = match inst.opcode {
        Opcode::Up2us => ([0, 16, 0, 16], 0xFFFF, 16),
        Opcode::Up4ub => ([0, 8, 16, 24], 0xFF, 8),
        _ => ([0, 8, 16, 24], 0xFF, 7),
    };
    let sh = c.konst(shifts);
    let mk = c.konst([mask; 4]);
    c.op(Op::Shr, t, 0xF, &[x, sh]);
    c.op(Op::And, t, 0xF, &[Ctx::reg(t), mk]);
    if inst.opcode == Opcode::Up4b {
        let bias = c.konst([128; 4]);
        c.op(Op::Isub, t, 0xF, &[Ctx::reg(t), bias]);
        c.op(Op::I2f, t, 0xF, &[Ctx::reg(t)]);
    } else {
        c.op(Op::U2f, t, 0xF, &[Ctx::reg(t)]);
    }
    let (last, src) = c.mersenne_quotient(t, k)?;
    c.fin(last, d, 0xF, &src);
    Ok(())
}

/// UP2H: the binary16 halves of src.x (low, high, low, high) to binary32, exactly: normal
/// numbers by rebiasing the bits, zeros and subnormals as `m * 2^-24`, infinities keep their
/// sign, NaN becomes the canonical NaN (`sim::reference`).
pub(crate) fn lower_up2h(c: &mut Ctx, inst: &Instruction) -> Result<(), CompileError> {
    let s = inst
        .src
        .first()
        .ok_or_else(|| c.unsupported("UP2H without a source"))?;
    let a = c.int_src(s)?;
    let x = super::operand::splat(a, 0);
    let d = c.dst(inst)?;
    let (h, v, w, f, g) = (
        c.scratch(),
        c.scratch(),
        c.scratch(),
        c.scratch(),
        c.scratch(),
    );
    let r = Ctx::reg;
    let k = |c: &mut Ctx, x: u32| c.konst([x; 4]);
    let halves = c.konst([0, 16, 0, 16]);
    let m16 = k(c, 0xFFFF);
    c.op(Op::Shr, h, 0xF, &[x, halves]);
    c.op(Op::And, h, 0xF, &[r(h), m16]);
    // Exponent and fraction fields as floats.
    let (mexp, mfrac) = (k(c, 0x7C00), k(c, 0x03FF));
    c.op(Op::And, f, 0xF, &[r(h), mexp]);
    c.op(Op::U2f, f, 0xF, &[r(f)]);
    c.op(Op::And, g, 0xF, &[r(h), mfrac]);
    c.op(Op::U2f, g, 0xF, &[r(g)]);
    // Sign (h & 0x8000) << 16; normal: ((h & 0x7FFF) << 13) + (112 << 23), with the sign.
    let (msign, sh16) = (k(c, 0x8000), k(c, 16));
    c.op(Op::And, v, 0xF, &[r(h), msign]);
    c.op(Op::Shl, v, 0xF, &[r(v), sh16]);
    let (m15, sh13, rebias) = (k(c, 0x7FFF), k(c, 13), k(c, 0x3800_0000));
    c.op(Op::And, w, 0xF, &[r(h), m15]);
    c.op(Op::Shl, w, 0xF, &[r(w), sh13]);
    c.op(Op::Iadd, w, 0xF, &[r(w), rebias]);
    c.op(Op::Or, w, 0xF, &[r(w), r(v)]);
    // Zero and subnormal: m * 2^-24, negated when the sign is set.
    let tiny = k(c, 0x3380_0000);
    let mzero = c.lit(super::operand::ZERO, true)?;
    let zero = c.lit(super::operand::ZERO, false)?;
    c.op(Op::I2f, h, 0xF, &[r(v)]);
    c.setp_pub(crate::core::isa::Cond::Lt, 0xF, r(h), zero);
    c.op(Op::Fmad, h, 0xF, &[r(g), tiny, mzero]);
    let neg_h = Operand { neg: 0xF, ..r(h) };
    c.op(Op::Sel, h, 0xF, &[neg_h, r(h)]);
    // Infinity (fraction zero, sign kept) or the canonical NaN.
    let inf = k(c, 0x7F80_0000);
    let nan = k(c, 0x7FC0_0000);
    c.op(Op::Or, v, 0xF, &[inf, r(v)]);
    c.setp_pub(crate::core::isa::Cond::Eq, 0xF, r(g), zero);
    c.op(Op::Sel, v, 0xF, &[r(v), nan]);
    // Select by exponent: 0 -> subnormal value, 31 -> infinity / NaN, else the normal bits.
    c.setp_pub(crate::core::isa::Cond::Eq, 0xF, r(f), zero);
    c.op(Op::Sel, w, 0xF, &[r(h), r(w)]);
    let e31 = k(c, 31744.0f32.to_bits());
    c.setp_pub(crate::core::isa::Cond::Eq, 0xF, r(f), e31);
    c.op(Op::Sel, w, 0xF, &[r(v), r(w)]);
    c.fin(Op::Mov, d, 0xF, &[r(w)]);
    Ok(())
}

/// PK2US, PK4UB: `round_half_even(clamp(c, 0, 1) * S)` per component with S = 2^k - 1, exactly
/// (`sim::reference` rounds the exact product): the float product is only a candidate `n`; the
/// exact comparisons `c * 2^k - (n +- 0.5)` against `c` (both sides exact) move it to the
/// neighbouring integer when the rounding of the product crossed a half-way point, and a tie
/// rounds half to even. The integers are then shifted into place and ORed together.
pub(crate) fn lower_pack_unorm(c: &mut Ctx, inst: &Instruction) -> Result<(), CompileError> {
    let s = inst
        .src
        .first()
        .ok_or_else(|| c.unsupported("pack without a source"))?;
    let a = c.src(s)?;
    let d = c.dst(inst)?;
    let signed = inst.opcode == Opcode::Pk4b;
    let (comps, bits): (u8, u32) = match inst.opcode {
        Opcode::Pk2us => (0b0011, 16),
        Opcode::Pk4b => (0b1111, 7),
        _ => (0b1111, 8),
    };
    let scale = ((1u32 << bits) - 1) as f32;
    let pow2 = (1u32 << bits) as f32;
    let (x, n, t, u) = (c.scratch(), c.scratch(), c.scratch(), c.scratch());
    let r = Ctx::reg;
    let zero = c.lit(super::operand::ZERO, false)?;
    let mzero = c.lit(super::operand::ZERO, true)?;
    let one = c.lit(super::operand::ONE, false)?;
    let half = c.lit(super::operand::HALF, false)?;
    let mhalf = c.lit(super::operand::HALF, true)?;
    let k_scale = c.konst([scale.to_bits(); 4]);
    let k_pow2 = c.konst([pow2.to_bits(); 4]);
    // c = min(max(x, lo), 1): NaN gives lo, as the reference's clamp. PK4B's lower bound
    // -128/127 is not a binary32; below the smallest binary32 above it the result is -128
    // (set at the end).
    let lo = if signed {
        c.konst([0xBF81_0204; 4])
    } else {
        zero
    };
    c.op(Op::Max, x, comps, &[a, lo]);
    c.op(Op::Min, x, comps, &[r(x), one]);
    // Candidate n = RNDE(fl(c * S)).
    c.op(Op::Fmad, n, comps, &[r(x), k_scale, mzero]);
    c.op(Op::Rnde, n, comps, &[r(n)]);
    // Below: A = c*2^k - (n - 0.5) (exact); c*S < n - 0.5 <=> A < c.
    c.op(Op::Fmad, t, comps, &[r(n), one, mhalf]);
    c.op(
        Op::Fmad,
        u,
        comps,
        &[r(x), k_pow2, Operand { neg: 0xF, ..r(t) }],
    );
    c.setp_pub(crate::core::isa::Cond::Lt, comps, r(u), r(x));
    let mone = c.lit(super::operand::ONE, true)?;
    c.op(Op::Fmad, t, comps, &[r(n), one, mone]);
    c.op(Op::Sel, t, comps, &[r(t), r(n)]);
    // Exactly half-way below: round the half to even.
    c.setp_pub(crate::core::isa::Cond::Eq, comps, r(u), r(x));
    c.op(Op::Fmad, u, comps, &[r(n), one, mhalf]);
    c.op(Op::Rnde, u, comps, &[r(u)]);
    c.op(Op::Sel, t, comps, &[r(u), r(t)]);
    // Above: B = c*2^k - (n + 0.5); c*S > n + 0.5 <=> B > c, ties to even.
    c.op(Op::Fmad, u, comps, &[r(n), one, half]);
    c.op(
        Op::Fmad,
        u,
        comps,
        &[r(x), k_pow2, Operand { neg: 0xF, ..r(u) }],
    );
    c.setp_pub(crate::core::isa::Cond::Gt, comps, r(u), r(x));
    c.op(Op::Fmad, x, comps, &[r(n), one, one]);
    c.op(Op::Sel, t, comps, &[r(x), r(t)]);
    c.op(Op::Max, x, comps, &[a, lo]);
    c.op(Op::Min, x, comps, &[r(x), one]);
    c.op(Op::Fmad, u, comps, &[r(n), one, half]);
    c.op(
        Op::Fmad,
        u,
        comps,
        &[r(x), k_pow2, Operand { neg: 0xF, ..r(u) }],
    );
    c.setp_pub(crate::core::isa::Cond::Eq, comps, r(u), r(x));
    c.op(Op::Fmad, u, comps, &[r(n), one, half]);
    c.op(Op::Rnde, u, comps, &[r(u)]);
    c.op(Op::Sel, t, comps, &[r(u), r(t)]);
    // To integers (PK4B: -128 below the bound, then + 128), shifted into place, ORed together.
    if signed {
        c.setp_pub(crate::core::isa::Cond::Ge, comps, a, lo);
        let m128 = c.lit(super::operand::L128, true)?;
        c.op(Op::Sel, t, comps, &[r(t), m128]);
    }
    c.op(Op::F2ir, t, comps, &[r(t)]);
    if signed {
        let k128 = c.konst([128; 4]);
        c.op(Op::Iadd, t, comps, &[r(t), k128]);
    }
    let shifts = if bits == 16 {
        [0, 16, 0, 0]
    } else {
        [0, 8, 16, 24]
    };
    let k_sh = c.konst(shifts);
    c.op(Op::Shl, t, comps, &[r(t), k_sh]);
    if bits == 16 {
        let y = super::operand::splat(r(t), 1);
        c.op(Op::Or, t, 0b0001, &[r(t), y]);
    } else {
        let zw = Operand {
            swz: [2, 3, 2, 3],
            ..r(t)
        };
        c.op(Op::Or, t, 0b0011, &[r(t), zw]);
        let y = super::operand::splat(r(t), 1);
        c.op(Op::Or, t, 0b0001, &[r(t), y]);
    }
    c.fin(Op::Mov, d, 0xF, &[super::operand::splat(r(t), 0)]);
    Ok(())
}

/// `MOV (P) dst.mask, src`: a select that keeps integer bits (SEL is a float select and flushes
/// bit patterns that read as subnormals).
fn mov_where_p(c: &mut Ctx, dst: u8, mask: u8, src: Operand) {
    let mut i = crate::core::isa::Instr::new(Op::Mov);
    i.dst = dst;
    i.wmask = mask;
    i.pw = 1;
    i.src[0] = src;
    c.emit(i);
}

/// PK2H: src.x and src.y to binary16, packed low | high << 16 (`sim::reference`): round to
/// nearest even on the bits for normal results (add 0xFFF plus the lowest kept bit, shift by 13,
/// rebias), `RNDE(|x| * 2^24)` below 2^-14 (binary16 subnormals), infinity from 65520 up, 0x7E00
/// for NaN; the sign is bit 15.
pub(crate) fn lower_pk2h(c: &mut Ctx, inst: &Instruction) -> Result<(), CompileError> {
    let s = inst
        .src
        .first()
        .ok_or_else(|| c.unsupported("PK2H without a source"))?;
    let a = c.src(s)?;
    let d = c.dst(inst)?;
    let xy = 0b0011;
    let (b, m, h, t) = (c.scratch(), c.scratch(), c.scratch(), c.scratch());
    let r = Ctx::reg;
    let k = |c: &mut Ctx, x: u32| c.konst([x; 4]);
    let mzero = c.lit(super::operand::ZERO, true)?;
    // The operand's value (its modifiers applied) as bits.
    c.op(Op::Mov, b, xy, &[a]);
    // Normal: m = |b|; m += 0xFFF + ((m >> 13) & 1); h = (m >> 13) - (112 << 10).
    let (mabs, sh13, one_bit, round, rebias) = (
        k(c, 0x7FFF_FFFF),
        k(c, 13),
        k(c, 1),
        k(c, 0xFFF),
        k(c, 112 << 10),
    );
    c.op(Op::And, m, xy, &[r(b), mabs]);
    c.op(Op::Shr, t, xy, &[r(m), sh13]);
    c.op(Op::And, t, xy, &[r(t), one_bit]);
    c.op(Op::Iadd, t, xy, &[r(t), round]);
    c.op(Op::Iadd, m, xy, &[r(m), r(t)]);
    c.op(Op::Shr, h, xy, &[r(m), sh13]);
    c.op(Op::Isub, h, xy, &[r(h), rebias]);
    // Below 2^-14: RNDE(|x| * 2^24) as an integer.
    let (two24, min_normal) = (k(c, 0x4B80_0000), k(c, 0x3880_0000));
    let abs_b = Operand { abs: true, ..r(b) };
    c.op(Op::Fmad, t, xy, &[abs_b, two24, mzero]);
    c.op(Op::Rnde, t, xy, &[r(t)]);
    c.op(Op::F2ir, t, xy, &[r(t)]);
    c.setp_pub(crate::core::isa::Cond::Lt, xy, abs_b, min_normal);
    mov_where_p(c, h, xy, r(t));
    // Overflow to infinity, then the sign; NaN last (0x7E00, no sign).
    let (big, inf) = (k(c, 65520.0f32.to_bits()), k(c, 0x7C00));
    c.setp_pub(crate::core::isa::Cond::Ge, xy, abs_b, big);
    mov_where_p(c, h, xy, inf);
    let (sh16, sign) = (k(c, 16), k(c, 0x8000));
    c.op(Op::Shr, t, xy, &[r(b), sh16]);
    c.op(Op::And, t, xy, &[r(t), sign]);
    c.op(Op::Or, h, xy, &[r(h), r(t)]);
    let nan = k(c, 0x7E00);
    c.setp_pub(crate::core::isa::Cond::Ne, xy, r(b), r(b));
    mov_where_p(c, h, xy, nan);
    // Pack: low | high << 16, replicated.
    let shifts = c.konst([0, 16, 0, 0]);
    c.op(Op::Shl, h, xy, &[r(h), shifts]);
    c.op(Op::Or, h, 0b0001, &[r(h), super::operand::splat(r(h), 1)]);
    c.fin(Op::Mov, d, 0xF, &[super::operand::splat(r(h), 0)]);
    Ok(())
}

/// Lowers an integer opcode.
pub(crate) fn lower(c: &mut Ctx, inst: &Instruction) -> Result<(), CompileError> {
    let mut s = Vec::with_capacity(inst.src.len());
    for x in &inst.src {
        s.push(c.int_src(x)?);
    }
    let a = s.first().copied().unwrap_or_default();
    let b = s.get(1).copied().unwrap_or_default();
    let cc = s.get(2).copied().unwrap_or_default();
    let d = c.dst(inst)?;
    if inst.opcode == Opcode::I2f {
        // A float result: saturate and MODULATE apply.
        c.fin(Op::I2f, d, 0xF, &[a]);
        return Ok(());
    }
    let (dst, mask) = (d.reg, d.mask);
    let bx = super::operand::splat(b, 0);
    match inst.opcode {
        Opcode::Not => c.op(Op::Not, dst, mask, &[a]),
        Opcode::And => c.op(Op::And, dst, mask, &[a, b]),
        Opcode::Or => c.op(Op::Or, dst, mask, &[a, b]),
        Opcode::Xor => c.op(Op::Xor, dst, mask, &[a, b]),
        Opcode::Shl => c.op(Op::Shl, dst, mask, &[a, bx]),
        Opcode::Shr => c.op(Op::Shr, dst, mask, &[a, bx]),
        Opcode::Mod => return c.remainder_into(dst, mask, a, b),
        Opcode::Sad => {
            let (t, sign) = (c.scratch(), c.scratch());
            c.op(Op::Isub, t, mask, &[a, b]);
            c.iabs(t, mask, Ctx::reg(t), sign)?;
            c.op(Op::Iadd, dst, mask, &[Ctx::reg(t), cc])
        }
        Opcode::Ara => {
            let lo = Operand {
                swz: [a.swz[0], a.swz[1], a.swz[0], a.swz[1]],
                ..a
            };
            let hi = Operand {
                swz: [a.swz[2], a.swz[3], a.swz[2], a.swz[3]],
                ..a
            };
            c.op(Op::Iadd, dst, mask, &[lo, hi])
        }
        _ => return Err(c.not_lowered_by("the integer lowering")),
    };
    Ok(())
}

/// UADD: `IADD` of the two integer operands (wrapping, `decisions.md` section 1).
pub(crate) fn lower_uadd(c: &mut Ctx, inst: &Instruction) -> Result<(), CompileError> {
    let (a, b) = match inst.src.as_slice() {
        [a, b] => (c.int_src(a)?, c.int_src(b)?),
        _ => return Err(c.unsupported("UADD takes two sources")),
    };
    let d = c.dst(inst)?;
    c.fin(Op::Iadd, d, 0xF, &[a, b]);
    Ok(())
}

/// UCMP: `src0 != 0 ? src1 : src2` on the raw bits, the chosen bits kept (`decisions.md`
/// section 1). The operands take float modifiers (sign-bit operations, as later Mesa reads
/// UCMP's sources), so they are ordinary read-path operands. `USGN` turns the raw test into
/// 1.0 / 0.0 (SETP alone is a float compare: -0.0 and subnormal bit patterns would read as
/// zero), and the select is a predicated MOV, which keeps bits where SEL would flush: 5
/// instructions, one scratch register, no integer ALU.
pub(crate) fn lower_ucmp(c: &mut Ctx, inst: &Instruction) -> Result<(), CompileError> {
    let (a, b, e) = match inst.src.as_slice() {
        [a, b, e] => (c.src(a)?, c.src(b)?, c.src(e)?),
        _ => return Err(c.unsupported("UCMP takes three sources")),
    };
    let d = c.dst(inst)?;
    let t = c.scratch();
    let zero = c.lit(super::operand::ZERO, false)?;
    c.op(Op::Usgn, t, 0xF, &[a]);
    c.setp_pub(crate::core::isa::Cond::Ne, 0xF, Ctx::reg(t), zero);
    c.op(Op::Mov, t, 0xF, &[e]);
    mov_where_p(c, t, 0xF, b);
    c.fin(Op::Mov, d, 0xF, &[Ctx::reg(t)]);
    Ok(())
}

/// F2U: truncation to uint32 with the F2I/ARL rule at the uint32 limits (NaN, negative values
/// and subnormals 0, from 2^32 up 0xFFFFFFFF; ARCHITECTURE.md). `F2IF` converts int32 only, so
/// the range [2^31, 2^32) is shifted down by 2^32 first: its int32 bits are the uint32 bits.
/// - `y = MAX(x, 0)`: NaN, negatives, -0 and subnormals become +0; for `y >= 0` floor is
///   truncation;
/// - `w = MIN(x - 2^32, -1)`: exact for x in [2^31, 2^32) (a multiple of 256 there), and -1
///   (0xFFFFFFFF) from 2^32 up, +inf included;
/// - `P = x >= 2^31`, select `w` or `y`, `F2IF`.
///
/// 6 instructions on two scratch registers; misc unit and multiply-add only, so
/// the board build without the integer ALU runs it.
pub(crate) fn lower_f2u(c: &mut Ctx, inst: &Instruction) -> Result<(), CompileError> {
    let a = match inst.src.as_slice() {
        [a] => c.src(a)?,
        _ => return Err(c.unsupported("F2U takes one source")),
    };
    let d = c.dst(inst)?;
    let (y, w) = (c.scratch(), c.scratch());
    let zero = c.lit(super::operand::ZERO, false)?;
    let one = c.lit(super::operand::ONE, false)?;
    let mone = c.lit(super::operand::ONE, true)?;
    // (2^32, 2^31) as binary32.
    let k = c.konst([0x4F80_0000, 0x4F00_0000, 0, 0]);
    let two32 = Operand {
        neg: 0xF,
        ..super::operand::splat(k, 0)
    };
    let two31 = super::operand::splat(k, 1);
    c.op(Op::Max, y, 0xF, &[a, zero]);
    c.op(Op::Fmad, w, 0xF, &[a, one, two32]);
    c.op(Op::Min, w, 0xF, &[Ctx::reg(w), mone]);
    c.setp_pub(crate::core::isa::Cond::Ge, 0xF, a, two31);
    c.op(Op::Sel, y, 0xF, &[Ctx::reg(w), Ctx::reg(y)]);
    c.fin(Op::F2if, d, 0xF, &[Ctx::reg(y)]);
    Ok(())
}

//! Integer opcodes (I2F NOT AND OR XOR SHL SHR MOD SAD ARA) on the integer ALU and the divider.
//!
//! Integer source modifiers are integer operations (`decisions.md` section 2: negate and absolute
//! wrap), so a modified integer operand is computed into scratch with INEG / IADD / IABS; the
//! read path's sign-bit modifiers are never used on integer operands.

use super::{CompileError, Ctx};
use crate::core::isa::{Op, Operand};
use crate::tgsi::{ExtSel, Instruction, Opcode, SrcOperand};

/// True for the integer opcodes lowered here.
pub(crate) fn is_int(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::I2f
            | Opcode::Not
            | Opcode::And
            | Opcode::Or
            | Opcode::Xor
            | Opcode::Shl
            | Opcode::Shr
            | Opcode::Mod
            | Opcode::Sad
            | Opcode::Ara
    )
}

impl Ctx<'_> {
    /// An integer source operand.
    pub(crate) fn int_src(&mut self, s: &SrcOperand) -> Result<Operand, CompileError> {
        let plain = SrcOperand {
            negate: false,
            ext_mod: Default::default(),
            ext_swizzle: s.ext_swizzle.map(|mut e| {
                e.negate = [false; 4];
                e
            }),
            ..*s
        };
        if s.ext_swizzle
            .is_some_and(|e| e.select.contains(&ExtSel::One))
        {
            return Err(self.unsupported("EXT_SWZ ONE on an integer operand (integer 1)"));
        }
        if s.ext_swizzle.is_some_and(|e| e.divide != ExtSel::One) {
            return Err(self.unsupported("ExtDivide on an integer operand"));
        }
        let m = s.ext_mod;
        if m.complement || m.bias {
            return Err(self.unsupported("complement or bias on an integer operand"));
        }
        let mut o = self.src(&plain)?;
        let ext_neg = s.ext_swizzle.map_or([false; 4], |e| e.negate);
        let neg_mask = (0..4).fold(0u8, |acc, c| acc | (u8::from(ext_neg[c] ^ s.negate) << c));
        if neg_mask == 0 && !m.scale2x && !m.absolute && !m.negate {
            return Ok(o);
        }
        let t = self.scratch();
        self.op(Op::Mov, t, 0xF, &[o]);
        o = Self::reg(t);
        if neg_mask != 0 {
            self.op(Op::Ineg, t, neg_mask, &[o]);
        }
        if m.scale2x {
            self.op(Op::Iadd, t, 0xF, &[o, o]);
        }
        if m.absolute {
            self.op(Op::Iabs, t, 0xF, &[o]);
        }
        if m.negate {
            self.op(Op::Ineg, t, 0xF, &[o]);
        }
        Ok(o)
    }
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
        Opcode::Mod => c.op(Op::Imod, dst, mask, &[a, b]),
        Opcode::Sad => {
            let t = c.scratch();
            c.op(Op::Isub, t, mask, &[a, b]);
            c.op(Op::Iabs, t, mask, &[Ctx::reg(t)]);
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
        _ => return Err(c.unsupported("")),
    };
    Ok(())
}

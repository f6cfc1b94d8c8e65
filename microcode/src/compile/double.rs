//! Double opcodes.
//!
//! The core has no binary64 unit yet: each double opcode becomes one model-only `DOP`
//! instruction (the TGSI opcode number in `target`), which the core model executes with the
//! reference model's binary64 kernels and the hardware engines refuse by name. DFRACEXP's two
//! results are two `DOP`s, both computed before either destination is written. Source
//! swizzles, negates and absolute values travel in the operand fields (DOP applies negate and
//! absolute to each pair's sign); complement, bias, scale2x and ExtDivide, which would need
//! binary64 arithmetic before the operation, are `Unsupported`.

use super::{CompileError, Ctx};
use crate::core::isa::{Instr, Op, Operand, DOP_SECOND};
use crate::tgsi::{ExtSel, Instruction, Opcode};

/// Lowers a double opcode.
pub(crate) fn lower_double(c: &mut Ctx, inst: &Instruction) -> Result<(), CompileError> {
    let mut src = [Operand::default(); 3];
    for (k, s) in inst.src.iter().enumerate().take(3) {
        let m = s.ext_mod;
        if m.complement
            || m.bias
            || m.scale2x
            || s.ext_swizzle.is_some_and(|e| e.divide != ExtSel::One)
        {
            return Err(c.unsupported(
                "double operand with EXT_MOD complement, bias or scale2x, or ExtDivide",
            ));
        }
        src[k] = c.src(s)?;
    }
    let number = inst.opcode as u16;
    if inst.opcode == Opcode::DfracExp {
        let t = c.scratch();
        let mut i = Instr::new(Op::Dop);
        i.dst = t;
        i.wmask = 0xF;
        i.target = number | DOP_SECOND;
        i.src = src;
        c.emit(i);
        let d = c.dst(inst)?;
        c.fin_target(Op::Dop, d, 0xF, &src, number);
        let second = Instruction {
            dst: inst.dst.get(1).into_iter().cloned().collect(),
            ..inst.clone()
        };
        let d1 = c.dst(&second)?;
        c.fin(Op::Mov, d1, 0xF, &[Ctx::reg(t)]);
        return Ok(());
    }
    let d = c.dst(inst)?;
    c.fin_target(Op::Dop, d, 0xF, &src, number);
    Ok(())
}

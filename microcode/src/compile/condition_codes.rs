//! Condition codes (NV_vertex_program2 / NV_fragment_program2) on predicates.
//!
//! A CC register's state per component (GT, EQ, LT, UN) is exactly the class of the last value
//! written with CondDstUpdate (after saturate), and every CC test is a float comparison of that
//! value with zero (GT `>`, EQ `==`, LT `<`, GE `>=`, LE `<=`, NE `!=`, which UN passes, TR, FL).
//! So the compiler keeps two per-lane *shadow* registers of R holding the last written values
//! (all zero at the start: EQ, as `decisions.md` section 4 demands) and turns
//! - CondDstUpdate into a MOV of the written components into the shadow,
//! - a CONDCODE destination test into `SETP.cond P, shadow.swz, 0` and a predicated final write,
//! - a CondFlow test on an instruction into `SETP` + `IF` (any of the four components) around it.
//!
//! Integer results keep a float of the same class in the shadow (I2F / U2F).

use super::operand::Relative;
use super::{CompileError, Ctx};
use crate::core::isa::{Cond, Instr, Op, Operand, SrcFile};
use crate::tgsi::opcode::{Flow, Kind, OperandType};
use crate::tgsi::{CondMask, CondTest, File, Instruction, Program};

/// True when any instruction reads or writes a condition code.
pub(crate) fn uses_cc(p: &Program) -> bool {
    p.instructions.iter().any(|i| {
        i.cond_update.is_some() || i.cond_flow.is_some() || i.dst.iter().any(|d| d.cond.is_some())
    })
}

fn cond_of(m: CondMask) -> Cond {
    match m {
        CondMask::Gt => Cond::Gt,
        CondMask::Eq => Cond::Eq,
        CondMask::Lt => Cond::Lt,
        CondMask::Ge => Cond::Ge,
        CondMask::Le => Cond::Le,
        CondMask::Ne => Cond::Ne,
        CondMask::Tr => Cond::Tr,
        CondMask::Fl => Cond::Fl,
    }
}

impl Ctx<'_> {
    /// Where a relative destination `FILE[ADDR[a].c + n]` lands: the range's first register of
    /// R and the resolved reference.
    fn relative_place(&mut self, inst: &Instruction) -> Result<(u8, Relative), CompileError> {
        let placed = self.relative_place_of(inst);
        placed.map_err(|e| self.blame(e, super::OperandRef::Dst(0)))
    }

    fn relative_place_of(&mut self, inst: &Instruction) -> Result<(u8, Relative), CompileError> {
        let Some(d) = inst.dst.first() else {
            return Err(self.unsupported("no destination"));
        };
        let bad = || {
            format!(
                "relative write to {} (needs one declaration of the range it indexes, and only \
                 the last bracket relative)",
                d.reg.file
            )
        };
        // `TEMP[ADDR + n]`, `OUT[ADDR + n]` or `TEMPX[a][ADDR + n]`.
        let (ind, index) = match (d.reg.indirect, d.reg.dimension) {
            (Some(ind), None) if matches!(d.reg.file, File::Temporary | File::Output) => {
                (ind, d.reg.index)
            }
            (None, Some(dim)) if d.reg.file == File::TemporaryArray => (
                dim.indirect.ok_or_else(|| self.unsupported(bad()))?,
                dim.index,
            ),
            _ => return Err(self.unsupported(bad())),
        };
        let rel = self.relative_range(&d.reg, ind, index, &bad())?;
        match rel.first {
            super::alloc::Place::R(base) => Ok((base, rel)),
            super::alloc::Place::K(_) => Err(self.unsupported(bad())),
        }
    }

    /// `FILE[ADDR[a].c + n]` as destination: the result goes to scratch, then MOVW writes it to
    /// the slot the address selects, or drops it out of the declared range (`decisions.md` 2).
    fn relative_dst(&mut self, inst: &Instruction) -> Result<(), CompileError> {
        let rel = self.relative_place(inst)?;
        let t = self.scratch();
        self.redirect = Some(t);
        let r = super::lower::instruction(self, inst);
        self.redirect = None;
        r?;
        let written = inst.opcode.info().result_mask();
        let mask = inst.dst.first().map_or(0, |d| d.write_mask) & written;
        self.movw(rel, t, mask, 0);
        Ok(())
    }

    /// MOVW of scratch `t` to the relative destination `rel` (components `mask`, predicated
    /// write `pw`).
    fn movw(&mut self, (base, rel): (u8, Relative), t: u8, mask: u8, pw: u8) {
        let Relative {
            addr,
            component,
            off,
            count,
            ..
        } = rel;
        let mut i = Instr::new(Op::Movw);
        i.dst = base;
        i.wmask = mask;
        i.pw = pw;
        i.src[0] = Ctx::reg(t);
        i.src[1] = Operand {
            file: SrcFile::R,
            index: addr,
            swz: [component; 4],
            neg: 0,
            abs: false,
        };
        i.src[2] = Operand {
            index: (count - 1) as u8,
            ..Operand::default()
        };
        i.set_offset(off);
        self.emit(i);
    }

    /// BRA: JMP for the whole quad, or with a condition test JMPP (all active lanes agree, or the
    /// core faults as the reference model does).
    fn lower_bra(&mut self, inst: &Instruction) -> Result<(), CompileError> {
        let label = inst
            .label
            .ok_or_else(|| self.unsupported("BRA without a label"))?;
        let op = match &inst.cond_flow {
            Some(t) => {
                self.cc_test(t, 0xF)?;
                Op::Jmpp
            }
            None => Op::Jmp,
        };
        let pc = self.emit(Instr::new(op));
        self.flow.calls.push((pc, label));
        Ok(())
    }

    /// `SETP.test P.mask, CC[index].swizzle, 0`.
    fn cc_test(&mut self, t: &CondTest, mask: u8) -> Result<(), CompileError> {
        let base = self
            .cc_base
            .ok_or_else(|| self.internal("condition codes without shadow registers"))?;
        let mut i = Instr::new(Op::Setp);
        i.cond = cond_of(t.mask);
        i.wmask = mask;
        i.src[0] = Operand {
            file: SrcFile::R,
            index: base + t.index.min(1),
            swz: t.swizzle.map(|s| s & 3),
            neg: 0,
            abs: false,
        };
        i.src[1] = self.lit(super::operand::ZERO, false)?;
        self.emit(i);
        Ok(())
    }
}

/// Lowers one TGSI instruction, handling its condition-code parts around the plain lowering.
pub(crate) fn instruction(c: &mut Ctx, inst: &Instruction) -> Result<(), CompileError> {
    let dst_cond = inst.dst.first().and_then(|d| d.cond);
    if inst.opcode == crate::tgsi::Opcode::Bra {
        return c.lower_bra(inst);
    }
    let relative = inst.dst.first().is_some_and(|d| d.reg.is_relative());
    if relative && inst.cond_update.is_none() && inst.cond_flow.is_none() && dst_cond.is_none() {
        return c.relative_dst(inst);
    }
    if inst.cond_update.is_none() && inst.cond_flow.is_none() && dst_cond.is_none() {
        return super::lower::instruction(c, inst);
    }
    let info = inst.opcode.info();
    let mut inner = inst.clone();
    inner.cond_flow = None;
    inner.cond_update = None;
    if let Some(d) = inner.dst.first_mut() {
        d.cond = None;
    }
    // A relative destination is checked before anything is emitted; the plain lowering below
    // (no condition-code update or write test) writes it through MOVW itself.
    let rel = if relative && (inst.cond_update.is_some() || dst_cond.is_some()) {
        Some(c.relative_place(inst)?)
    } else {
        None
    };
    let mut if_pc = None;
    if let Some(t) = &inst.cond_flow {
        let wrappable = matches!(
            info.kind,
            Kind::Alu
                | Kind::Texture
                | Kind::AddressStack
                | Kind::Kill
                | Kind::Flow(Flow::Brk | Flow::Cont | Flow::Cal | Flow::Ret)
        );
        if !wrappable {
            return Err(c.unsupported("condition test on this opcode"));
        }
        c.cc_test(t, 0xF)?;
        let mut i = Instr::new(Op::If);
        i.wmask = 0xF;
        if_pc = Some(c.emit(i));
        c.flow.max_depth = c.flow.max_depth.max(c.flow_depth() + 1);
    }
    if inst.cond_update.is_some() || dst_cond.is_some() {
        let d = inst
            .dst
            .first()
            .ok_or_else(|| c.unsupported("condition code without a destination"))?;
        // The shadow keeps a float of the same class as the written value: integer results
        // compare as int32 (ISGN keeps sign and zero), unsigned ones are zero or greater (USGN),
        // float results written to ADDR become int32 first (`sim::reference`).
        let to_addr = d.reg.file == File::Address;
        let shadow_op = match (to_addr, info.dst_type) {
            (true, OperandType::Float) | (_, OperandType::Int) => Op::Isgn,
            (_, OperandType::Uint) => Op::Usgn,
            (_, OperandType::Float | OperandType::Untyped) => Op::Mov,
            _ => return Err(c.unsupported("condition codes on double results")),
        };
        if !matches!(info.kind, Kind::Alu | Kind::Texture | Kind::AddressStack) {
            return Err(c.unsupported("condition codes on this opcode"));
        }
        let t = c.scratch();
        c.redirect = Some(t);
        let r = super::lower::instruction(c, &inner);
        c.redirect = None;
        r?;
        // Matrices leave the components beyond their rows untouched: so does the final write.
        let written = inst.opcode.info().result_mask();
        let mask = d.write_mask & written;
        let pw = if let Some(test) = &dst_cond {
            c.cc_test(test, mask)?;
            1
        } else {
            0
        };
        if let Some(rel) = rel {
            c.movw(rel, t, mask, pw);
        } else if d.reg.file != File::Null {
            let real = match c.alloc.place(&d.reg) {
                Some(super::alloc::Place::R(r)) => r,
                _ => return Err(c.unsupported("destination register")),
            };
            let mut m = Instr::new(Op::Mov);
            m.dst = real;
            m.wmask = mask;
            m.pw = pw;
            m.src[0] = Ctx::reg(t);
            c.emit(m);
        }
        if let (Some(k), Some(base)) = (inst.cond_update, c.cc_base) {
            let mut m = Instr::new(shadow_op);
            m.dst = base + k.min(1);
            m.wmask = mask;
            m.pw = pw;
            m.src[0] = Ctx::reg(t);
            c.emit(m);
        }
    } else if relative {
        c.relative_dst(&inner)?;
    } else {
        super::lower::instruction(c, &inner)?;
    }
    if let Some(at) = if_pc {
        let end = c.emit(Instr::new(Op::Endif));
        c.code[at].target = end.min(1023) as u16;
    }
    Ok(())
}

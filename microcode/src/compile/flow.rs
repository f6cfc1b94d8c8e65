//! Structured control flow to mask-stack instructions.
//!
//! `IF src` becomes `SETP.NE P.x, src.x, 0` + `IF -> t` where `t` is the ELSE (or ENDIF) address:
//! when no lane is left active the sequencer jumps there and that instruction runs (ELSE computes
//! the other lanes, ENDIF pops). `ELSE -> ENDIF` likewise. `BGNLOOP` is `LOOP -> ENDLOOP`,
//! `ENDLOOP -> LOOP + 1` jumps back while any lane is live. BRK and CONT have no operands;
//! BREAKC is `SETP` + `BRKP`. REP keeps its count in a register of its own (FLR, then FMAD -1 at
//! ENDREP after NEXT brings back the CONT lanes; LOOPP / ENDLOOPP test `count > 0`); BGNFOR /
//! ENDFOR keep (start, count, step) as int32 in their LOOP register. CAL / CALLNZ jump to the
//! first core instruction of the BGNSUB body (patched once every TGSI instruction has an
//! address); BRA the same way.

use super::{CompileError, Ctx};
use crate::core::isa::{Cond, Instr, Op};
use crate::tgsi::Instruction;

enum Frame {
    If {
        if_pc: usize,
        else_pc: Option<usize>,
    },
    Loop {
        loop_pc: usize,
    },
    Rep {
        loop_pc: usize,
        counter: u8,
    },
    For {
        loop_pc: usize,
    },
}

#[derive(Default)]
pub(crate) struct FlowState {
    stack: Vec<Frame>,
    pub max_depth: usize,
    /// (CAL address, TGSI label) to patch once every TGSI instruction has an address.
    pub calls: Vec<(usize, u32)>,
    /// REP blocks lowered so far.
    reps: usize,
}

/// Number of REP blocks: each gets its own counter register, so that a REP in a subroutine
/// called from inside another REP cannot clobber the caller's counter (recursion is rejected by
/// the validator, so one register per block suffices).
pub(crate) fn rep_count(p: &crate::tgsi::Program) -> usize {
    p.instructions
        .iter()
        .filter(|i| i.opcode == crate::tgsi::Opcode::Rep)
        .count()
}

impl Ctx<'_> {
    /// Open IF and loop blocks at this point of the compilation.
    pub(crate) fn flow_depth(&self) -> usize {
        self.flow.stack.len()
    }

    fn push_frame(&mut self, f: Frame) {
        self.flow.stack.push(f);
        self.flow.max_depth = self.flow.max_depth.max(self.flow.stack.len());
    }

    fn structure(&self, what: &str) -> CompileError {
        CompileError::Structure {
            index: self.index,
            opcode: self.opcode,
            what: what.to_string(),
        }
    }

    pub(crate) fn target(pc: usize) -> u16 {
        // The branch-target limit is checked against the final program length.
        pc.min(1023) as u16
    }

    /// `SETP.NE P.x, src.x, 0`: the test of IF, IFC, BREAKC and CALLNZ.
    fn test_x(&mut self, inst: &Instruction) -> Result<(), CompileError> {
        let s = inst
            .src
            .first()
            .ok_or_else(|| self.structure("flow test without a source"))?;
        let a = self.src(s)?;
        let zero = self.lit(super::operand::ZERO, false)?;
        let mut p = Instr::new(Op::Setp);
        p.cond = Cond::Ne;
        p.wmask = 1;
        p.src[0] = a;
        p.src[1] = zero;
        self.emit(p);
        Ok(())
    }

    pub(crate) fn lower_breakc(&mut self, inst: &Instruction) -> Result<(), CompileError> {
        self.test_x(inst)?;
        self.lower_loop_control(Op::Brkp)
    }

    pub(crate) fn lower_call(
        &mut self,
        inst: &Instruction,
        conditional: bool,
    ) -> Result<(), CompileError> {
        if conditional {
            self.test_x(inst)?;
        }
        let label = inst
            .label
            .ok_or_else(|| self.structure("CAL without a label"))?;
        let pc = self.emit(Instr::new(if conditional { Op::Calp } else { Op::Cal }));
        self.flow.calls.push((pc, label));
        Ok(())
    }

    /// Patches CAL targets: `starts[i]` is the address of TGSI instruction i's first core
    /// instruction (BGNSUB emits none, so a label on it reaches the body).
    pub(crate) fn patch_calls(&mut self, starts: &[usize]) -> Result<(), CompileError> {
        for (pc, label) in std::mem::take(&mut self.flow.calls) {
            let t = starts.get(label as usize).copied().ok_or_else(|| {
                let index = self.origin.get(pc).map_or(self.index, |&o| usize::from(o));
                CompileError::Structure {
                    index,
                    opcode: self
                        .program
                        .instructions
                        .get(index)
                        .map_or(self.opcode, |i| i.opcode),
                    what: format!("label {label} is not an instruction"),
                }
            })?;
            self.code[pc].target = Self::target(t);
        }
        Ok(())
    }

    pub(crate) fn lower_rep(&mut self, inst: &Instruction) -> Result<(), CompileError> {
        let s = inst
            .src
            .first()
            .ok_or_else(|| self.structure("REP without a source"))?;
        let a = self.src(s)?;
        let counter = (self.rep_base + self.flow.reps).min(255) as u8;
        self.flow.reps += 1;
        let zero = self.lit(super::operand::ZERO, false)?;
        self.op(Op::Flr, counter, 1, &[super::operand::splat(a, 0)]);
        let mut p = Instr::new(Op::Setp);
        p.cond = Cond::Gt;
        p.wmask = 1;
        p.src[0] = Self::reg(counter);
        p.src[1] = zero;
        self.emit(p);
        let loop_pc = self.emit(Instr::new(Op::Loopp));
        self.push_frame(Frame::Rep { loop_pc, counter });
        Ok(())
    }

    pub(crate) fn lower_endrep(&mut self) -> Result<(), CompileError> {
        let Some(Frame::Rep { loop_pc, counter }) = self.flow.stack.pop() else {
            return Err(self.structure("ENDREP without REP"));
        };
        let one = self.lit(super::operand::ONE, false)?;
        let mone = self.lit(super::operand::ONE, true)?;
        let zero = self.lit(super::operand::ZERO, false)?;
        self.emit(Instr::new(Op::Next));
        self.op(Op::Fmad, counter, 1, &[Self::reg(counter), one, mone]);
        let mut p = Instr::new(Op::Setp);
        p.cond = Cond::Gt;
        p.wmask = 1;
        p.src[0] = Self::reg(counter);
        p.src[1] = zero;
        self.emit(p);
        let mut e = Instr::new(Op::Endloopp);
        e.target = Self::target(loop_pc + 1);
        let pc = self.emit(e);
        self.code[loop_pc].target = Self::target(pc);
        Ok(())
    }

    /// The LOOP register of BGNFOR / ENDFOR (their destination).
    fn loop_register(&self, inst: &Instruction) -> Result<u8, CompileError> {
        let d = inst
            .dst
            .first()
            .ok_or_else(|| self.structure("BGNFOR/ENDFOR without a LOOP register"))?;
        match self.alloc.place(&d.reg) {
            Some(super::alloc::Place::R(r)) => Ok(r),
            _ => Err(self.unsupported("LOOP register")),
        }
    }

    /// `SETP.GT P.x, isgn(L.y), 0`: the int32 test without the int-to-float converter.
    fn count_positive(&mut self, l: u8) -> Result<(), CompileError> {
        let t = self.scratch();
        let mut y = Self::reg(l);
        y.swz = [1; 4];
        self.op(Op::Isgn, t, 1, &[y]);
        let zero = self.lit(super::operand::ZERO, false)?;
        let mut p = Instr::new(Op::Setp);
        p.cond = Cond::Gt;
        p.wmask = 1;
        p.src[0] = Self::reg(t);
        p.src[1] = zero;
        self.emit(p);
        Ok(())
    }

    /// BGNFOR LOOP[n], src: LOOP.xyz = floor(src.xyz) as int32; lanes with y > 0 enter.
    pub(crate) fn lower_bgnfor(&mut self, inst: &Instruction) -> Result<(), CompileError> {
        let s = inst
            .src
            .first()
            .ok_or_else(|| self.structure("BGNFOR without a source"))?;
        let a = self.src(s)?;
        let l = self.loop_register(inst)?;
        self.op(Op::F2if, l, 0b0111, &[a]);
        self.count_positive(l)?;
        let loop_pc = self.emit(Instr::new(Op::Loopp));
        self.push_frame(Frame::For { loop_pc });
        Ok(())
    }

    /// ENDFOR: x += z, y -= 1 (wrapping) in the lanes still looping; they repeat while y > 0.
    pub(crate) fn lower_endfor(&mut self, inst: &Instruction) -> Result<(), CompileError> {
        let Some(Frame::For { loop_pc }) = self.flow.stack.pop() else {
            return Err(self.structure("ENDFOR without BGNFOR"));
        };
        let l = self.loop_register(inst)?;
        let minus_one = self.lit(0xFFFF_FFFF, false)?;
        self.emit(Instr::new(Op::Next));
        let mut x = Self::reg(l);
        x.swz = [0; 4];
        let mut z = Self::reg(l);
        z.swz = [2; 4];
        self.op(Op::Iadd, l, 0b0001, &[x, z]);
        let mut y = Self::reg(l);
        y.swz = [1; 4];
        self.op(Op::Iadd, l, 0b0010, &[y, minus_one]);
        self.count_positive(l)?;
        let mut e = Instr::new(Op::Endloopp);
        e.target = Self::target(loop_pc + 1);
        let pc = self.emit(e);
        self.code[loop_pc].target = Self::target(pc);
        Ok(())
    }

    pub(crate) fn lower_if(&mut self, inst: &Instruction) -> Result<(), CompileError> {
        self.test_x(inst)?;
        let mut i = Instr::new(Op::If);
        i.wmask = 1;
        let if_pc = self.emit(i);
        self.push_frame(Frame::If {
            if_pc,
            else_pc: None,
        });
        Ok(())
    }

    pub(crate) fn lower_else(&mut self) -> Result<(), CompileError> {
        let pc = self.emit(Instr::new(Op::Else));
        match self.flow.stack.last_mut() {
            Some(Frame::If { if_pc, else_pc }) if else_pc.is_none() => {
                let at = *if_pc;
                *else_pc = Some(pc);
                self.code[at].target = Self::target(pc);
                Ok(())
            }
            _ => Err(self.structure("ELSE without IF")),
        }
    }

    pub(crate) fn lower_endif(&mut self) -> Result<(), CompileError> {
        let pc = self.emit(Instr::new(Op::Endif));
        match self.flow.stack.pop() {
            Some(Frame::If { if_pc, else_pc }) => {
                let from = else_pc.unwrap_or(if_pc);
                self.code[from].target = Self::target(pc);
                Ok(())
            }
            _ => Err(self.structure("ENDIF without IF")),
        }
    }

    pub(crate) fn lower_bgnloop(&mut self) {
        let loop_pc = self.emit(Instr::new(Op::Loop));
        self.push_frame(Frame::Loop { loop_pc });
    }

    pub(crate) fn lower_endloop(&mut self) -> Result<(), CompileError> {
        let mut i = Instr::new(Op::Endloop);
        match self.flow.stack.pop() {
            Some(Frame::Loop { loop_pc }) => {
                i.target = Self::target(loop_pc + 1);
                let pc = self.emit(i);
                self.code[loop_pc].target = Self::target(pc);
                Ok(())
            }
            _ => Err(self.structure("ENDLOOP without BGNLOOP")),
        }
    }

    pub(crate) fn lower_loop_control(&mut self, op: Op) -> Result<(), CompileError> {
        if !self.flow.stack.iter().any(|f| {
            matches!(
                f,
                Frame::Loop { .. } | Frame::Rep { .. } | Frame::For { .. }
            )
        }) {
            return Err(self.structure("BRK or CONT outside a loop"));
        }
        self.emit(Instr::new(op));
        Ok(())
    }
}

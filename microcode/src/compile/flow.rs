//! Structured control flow to mask-stack instructions.
//!
//! `IF src` becomes `SETP.NE P.x, src.x, 0` + `IF -> t` where `t` is the ELSE (or ENDIF) address:
//! when no lane is left active the sequencer jumps there and that instruction runs (ELSE computes
//! the other lanes, ENDIF pops). `ELSE -> ENDIF` likewise. `BGNLOOP` is `LOOP -> ENDLOOP`,
//! `ENDLOOP -> LOOP + 1` jumps back while any lane is live. BRK and CONT have no operands.

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
}

#[derive(Default)]
pub(crate) struct FlowState {
    stack: Vec<Frame>,
    pub max_depth: usize,
}

impl Ctx<'_> {
    fn push_frame(&mut self, f: Frame) {
        self.flow.stack.push(f);
        self.flow.max_depth = self.flow.max_depth.max(self.flow.stack.len());
    }

    fn structure(&self, what: &str) -> CompileError {
        CompileError::Program(format!(
            "instruction {} ({}): {what} (the program was not validated?)",
            self.index, self.opcode
        ))
    }

    fn target(pc: usize) -> u16 {
        // The branch-target limit is checked against the final program length.
        pc.min(1023) as u16
    }

    pub(crate) fn lower_if(&mut self, inst: &Instruction) -> Result<(), CompileError> {
        let s = inst
            .src
            .first()
            .ok_or_else(|| self.structure("IF without a source"))?;
        let a = self.src(s)?;
        let zero = self.lit(super::operand::ZERO, false)?;
        let mut p = Instr::new(Op::Setp);
        p.cond = Cond::Ne;
        p.wmask = 1;
        p.src[0] = a;
        p.src[1] = zero;
        self.emit(p);
        let if_pc = self.emit(Instr::new(Op::If));
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
        if !self
            .flow
            .stack
            .iter()
            .any(|f| matches!(f, Frame::Loop { .. }))
        {
            return Err(self.structure("BRK or CONT outside a loop"));
        }
        self.emit(Instr::new(op));
        Ok(())
    }
}

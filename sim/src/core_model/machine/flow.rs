//! The machine's flow instructions: the mask stack's frames (IF, loops, calls), branches,
//! kills and geometry output, each as the sequencer executes them (`ARCHITECTURE.md`, "Control
//! flow"), lane by lane of one quad.

use super::{and_not, any, Machine, Mask};
use crate::core_model::{CoreFault, FaultKind};
use crate::run_io::{Vertex, LANES};
use microcode::core::isa::{Instr, Op};

/// A frame of the mask stack: the execution mask to restore, and what the construct tracks.
#[derive(Clone)]
pub(super) enum Frame {
    /// IF: the lanes that entered and those whose condition held (ELSE runs the others).
    If { entry: Mask, cond: Mask },
    /// A loop: the lanes that entered and those still iterating.
    Loop { entry: Mask, live: Mask },
    /// A call: the caller's lanes, the lanes still in the function, the return address.
    Call { entry: Mask, live: Mask, ret: usize },
}

/// The fault of a flow instruction `op` at `pc` whose frame is not the innermost one.
fn mismatch(pc: usize, op: &'static str) -> CoreFault {
    CoreFault {
        pc,
        kind: FaultKind::StackMismatch { op },
    }
}

impl Machine<'_> {
    /// Executes the flow instruction `i` (its unit present); returns the next address, or
    /// `None` at END.
    pub(super) fn flow(&mut self, pc: usize, i: &Instr) -> Result<Option<usize>, CoreFault> {
        let next = pc + 1;
        match i.op {
            Op::If | Op::Else | Op::Endif => self.branch(pc, i),
            Op::Loop | Op::Loopp | Op::Next | Op::Endloop | Op::Endloopp => self.repeat(pc, i),
            Op::Brk | Op::Brkp | Op::Cont => {
                self.leave_iteration(i.op);
                Ok(Some(next))
            }
            Op::Kilp => {
                let lanes: Mask = std::array::from_fn(|l| self.e[l] && self.tested(i, l));
                self.kill(lanes);
                Ok(Some(next))
            }
            Op::Kill => {
                self.kill(self.e);
                Ok(Some(next))
            }
            Op::Jmp => Ok(Some(usize::from(i.target))),
            Op::Jmpp => self.jump_if(pc, i),
            Op::Emit | Op::Endprim => {
                self.emit(i.op);
                Ok(Some(next))
            }
            Op::Cal | Op::Calp => self.call(pc, i),
            Op::Ret => Ok(self.ret(next)),
            Op::Endsub if self.stack.iter().any(|f| matches!(f, Frame::Call { .. })) => {
                Ok(Some(self.return_from_call()))
            }
            Op::End => Ok(None),
            _ => Ok(Some(next)),
        }
    }

    /// Whether lane `l`'s predicate holds in a component of `i`'s write mask (the test of IF,
    /// KILP and JMPP).
    fn tested(&self, i: &Instr, l: usize) -> bool {
        (0..4).any(|c| i.wmask & (1 << c) != 0 && self.p[l][c])
    }

    /// IF, ELSE, ENDIF: a frame per IF; a branch with no lane in it is jumped over.
    fn branch(&mut self, pc: usize, i: &Instr) -> Result<Option<usize>, CoreFault> {
        let target = usize::from(i.target);
        match i.op {
            Op::If => {
                let cond: Mask = std::array::from_fn(|l| self.tested(i, l));
                self.push(
                    pc,
                    Frame::If {
                        entry: self.e,
                        cond,
                    },
                )?;
                self.e = std::array::from_fn(|l| self.e[l] && cond[l]);
                if !any(self.e) {
                    return Ok(Some(target));
                }
            }
            Op::Else => match self.stack.last() {
                Some(Frame::If { entry, cond }) => {
                    self.e = and_not(*entry, *cond);
                    if !any(self.e) {
                        return Ok(Some(target));
                    }
                }
                _ => return Err(mismatch(pc, "ELSE")),
            },
            _ => match self.stack.pop() {
                Some(Frame::If { entry, .. }) => self.e = entry,
                _ => return Err(mismatch(pc, "ENDIF")),
            },
        }
        Ok(Some(pc + 1))
    }

    /// LOOP, LOOPP, NEXT, ENDLOOP, ENDLOOPP: a frame per loop, whose live lanes go round again
    /// while any is left.
    fn repeat(&mut self, pc: usize, i: &Instr) -> Result<Option<usize>, CoreFault> {
        let next = pc + 1;
        let target = usize::from(i.target);
        match i.op {
            Op::Loop => self.push(
                pc,
                Frame::Loop {
                    entry: self.e,
                    live: self.e,
                },
            )?,
            Op::Loopp => {
                let live: Mask = std::array::from_fn(|l| self.e[l] && self.p[l][0]);
                self.push(
                    pc,
                    Frame::Loop {
                        entry: self.e,
                        live,
                    },
                )?;
                self.e = live;
                if !any(live) {
                    return Ok(Some(target));
                }
            }
            Op::Next => match self.stack.last() {
                Some(Frame::Loop { live, .. }) => self.e = *live,
                _ => return Err(mismatch(pc, "NEXT")),
            },
            Op::Endloop => {
                return self
                    .end_loop(target, next)
                    .map(Some)
                    .ok_or_else(|| mismatch(pc, "ENDLOOP"))
            }
            _ => {
                // ENDLOOPP: the lanes whose predicate is false leave the loop here, then as
                // ENDLOOP.
                let p = self.p;
                if let Some(Frame::Loop { live, .. }) = self.stack.last_mut() {
                    *live = std::array::from_fn(|l| live[l] && p[l][0]);
                }
                return self
                    .end_loop(target, next)
                    .map(Some)
                    .ok_or_else(|| mismatch(pc, "ENDLOOPP"));
            }
        }
        Ok(Some(next))
    }

    /// BRK, BRKP (where P.x), CONT: the active lanes stop for this iteration; a break also
    /// takes them out of the innermost loop's live lanes.
    fn leave_iteration(&mut self, op: Op) {
        let lanes: Mask = if op == Op::Brkp {
            std::array::from_fn(|l| self.e[l] && self.p[l][0])
        } else {
            self.e
        };
        self.e = and_not(self.e, lanes);
        for f in self.stack.iter_mut().rev() {
            match f {
                Frame::If { entry, .. } => *entry = and_not(*entry, lanes),
                Frame::Call { .. } => break,
                Frame::Loop { live, .. } => {
                    if op != Op::Cont {
                        *live = and_not(*live, lanes);
                    }
                    break;
                }
            }
        }
    }

    /// JMPP: the jump is taken when the predicate holds in every lane still running, not
    /// taken when in none; the lanes disagreeing is a fault (the core has one program counter).
    fn jump_if(&mut self, pc: usize, i: &Instr) -> Result<Option<usize>, CoreFault> {
        let active = and_not(self.e, self.killed);
        let taken: Mask = std::array::from_fn(|l| active[l] && self.tested(i, l));
        let all = (0..LANES).all(|l| !active[l] || taken[l]);
        if any(taken) && !all {
            return Err(self.fault(pc, FaultKind::DivergentBranch { taken }));
        }
        Ok(Some(if any(taken) {
            usize::from(i.target)
        } else {
            pc + 1
        }))
    }

    /// EMIT (each active lane's outputs become a vertex) and ENDPRIM (its last vertex ends a
    /// primitive).
    fn emit(&mut self, op: Op) {
        for l in (0..LANES).filter(|&l| self.e[l]) {
            if op == Op::Emit {
                let outputs = self.outputs(l);
                self.vertices[l].push(Vertex {
                    outputs,
                    primitive_end: false,
                });
            } else if let Some(v) = self.vertices[l].last_mut() {
                v.primitive_end = true;
            }
        }
    }

    /// CAL, CALP (the lanes where P.x): a call frame on both stacks, to `i.target`; no lane
    /// calling goes on at the next instruction.
    fn call(&mut self, pc: usize, i: &Instr) -> Result<Option<usize>, CoreFault> {
        let next = pc + 1;
        let callers: Mask = if i.op == Op::Calp {
            std::array::from_fn(|l| self.e[l] && self.p[l][0])
        } else {
            self.e
        };
        if !any(callers) {
            return Ok(Some(next));
        }
        let depth = usize::from(self.img.config.call_stack_depth);
        let calls = self
            .stack
            .iter()
            .filter(|f| matches!(f, Frame::Call { .. }))
            .count();
        if calls >= depth {
            return Err(self.fault(pc, FaultKind::CallStackOverflow { depth }));
        }
        // Call frames live on the mask stack too.
        let mask_depth = usize::from(self.img.config.mask_stack_depth);
        if self.stack.len() >= mask_depth {
            return Err(self.fault(pc, FaultKind::StackOverflow { depth: mask_depth }));
        }
        self.stack.push(Frame::Call {
            entry: self.e,
            live: callers,
            ret: next,
        });
        self.e = callers;
        Ok(Some(usize::from(i.target)))
    }

    /// The end of the innermost loop: the pc to go on at, `target` with the loop's live lanes
    /// while any is left, else `next` with the lanes that entered it (`None`: the innermost frame
    /// is not a loop).
    fn end_loop(&mut self, target: usize, next: usize) -> Option<usize> {
        let Some(&Frame::Loop { entry, live }) = self.stack.last() else {
            return None;
        };
        if any(live) {
            self.e = live;
            return Some(target);
        }
        self.e = entry;
        self.stack.pop();
        Some(next)
    }

    /// Pushes frame `f` on the mask stack, or faults at `pc` when the stack is full.
    fn push(&mut self, pc: usize, f: Frame) -> Result<(), CoreFault> {
        let depth = usize::from(self.img.config.mask_stack_depth);
        if self.stack.len() >= depth {
            return Err(self.fault(pc, FaultKind::StackOverflow { depth }));
        }
        self.stack.push(f);
        Ok(())
    }

    /// RET: the active lanes leave the innermost function (or the program).
    fn ret(&mut self, next: usize) -> Option<usize> {
        let lanes = self.e;
        self.e = [false; LANES];
        let mut in_call = false;
        for f in self.stack.iter_mut().rev() {
            match f {
                Frame::If { entry, .. } => *entry = and_not(*entry, lanes),
                Frame::Loop { entry, live } => {
                    *entry = and_not(*entry, lanes);
                    *live = and_not(*live, lanes);
                }
                Frame::Call { live, .. } => {
                    *live = and_not(*live, lanes);
                    in_call = true;
                    if any(and_not(*live, self.killed)) {
                        return Some(next);
                    }
                    break;
                }
            }
        }
        if in_call {
            return Some(self.return_from_call());
        }
        self.main_live = and_not(self.main_live, lanes);
        if any(and_not(self.main_live, self.killed)) {
            Some(next)
        } else {
            None
        }
    }

    /// Pops frames up to and including the innermost call frame; returns its return address.
    fn return_from_call(&mut self) -> usize {
        while let Some(f) = self.stack.pop() {
            if let Frame::Call { entry, ret, .. } = f {
                self.e = and_not(entry, self.killed);
                return ret;
            }
        }
        0
    }

    /// KIL / KILP: `lanes` are killed, and leave every frame they were live in.
    pub(super) fn kill(&mut self, lanes: Mask) {
        for (k, &x) in self.killed.iter_mut().zip(lanes.iter()) {
            *k |= x;
        }
        self.e = and_not(self.e, lanes);
        for f in &mut self.stack {
            match f {
                Frame::If { entry, .. } => *entry = and_not(*entry, lanes),
                Frame::Loop { entry, live } | Frame::Call { entry, live, .. } => {
                    *entry = and_not(*entry, lanes);
                    *live = and_not(*live, lanes);
                }
            }
        }
    }
}

//! The execution masks and block stacks of structured control flow: IF/ELSE, the three loop
//! kinds, calls and returns, BRA.
//!
//! IF pushes the IF-branch mask; ELSE flips it within the saved mask; loops save the loop and
//! continue masks and restore them when no lane is left in the loop; calls save every mask and the
//! stack depths so that an early RET of all lanes can unwind. Blocks no lane enters are skipped to
//! their partner instruction, which keeps the stacks balanced.
//!
//! This file knows masks, stacks and the block structure only: the interpreter (`exec`) reads the
//! operands a control instruction tests or counts, writes its registers, and hands the resulting
//! lanes to these methods.

use super::defs::{RunErrorKind, CALL_STACK_LIMIT};
use super::flow::Structure;
use super::state::{clear, Mask, ALL};
use crate::run_io::LANES;
use microcode::tgsi::opcode::Flow;
use microcode::tgsi::Instruction;

/// What to do after an instruction.
pub enum Next {
    /// Continue at this instruction.
    Go(usize),
    /// End the run.
    Stop,
}

/// Saved masks of an enclosing loop.
struct LoopFrame {
    loop_m: Mask,
    cont: Mask,
    /// REP: iterations left per lane.
    rep: [i64; LANES],
}

/// Saved state of a caller.
struct CallFrame {
    ret: usize,
    cond: Mask,
    loop_m: Mask,
    cont: Mask,
    func: Mask,
    cond_len: usize,
    loop_len: usize,
}

/// The masks of one run and the stacks that save them.
///
/// A lane executes an instruction when it is alive (not killed), inside the current IF branches
/// (`cond`), still in the current loop (`loop_m`), has not continued this iteration (`cont`) and
/// has not returned from the current subroutine (`func`).
#[derive(Default)]
pub struct Control {
    pub alive: Mask,
    cond: Mask,
    loop_m: Mask,
    cont: Mask,
    func: Mask,
    cond_stack: Vec<Mask>,
    loop_stack: Vec<LoopFrame>,
    call_stack: Vec<CallFrame>,
}

impl Control {
    /// Every lane alive and active, the stacks empty (their allocations kept).
    pub fn reset(&mut self) {
        self.alive = ALL;
        self.cond = ALL;
        self.loop_m = ALL;
        self.cont = ALL;
        self.func = ALL;
        self.cond_stack.clear();
        self.loop_stack.clear();
        self.call_stack.clear();
    }

    /// Lanes that execute ordinary instructions now.
    #[inline]
    pub fn active(&self) -> Mask {
        std::array::from_fn(|l| {
            self.alive[l] && self.cond[l] && self.loop_m[l] && self.cont[l] && self.func[l]
        })
    }

    /// Kills `lanes`.
    pub fn kill(&mut self, lanes: &Mask) {
        clear(&mut self.alive, lanes);
    }

    /// IF / IFC with the lanes whose test passed.
    pub fn if_(&mut self, test: Mask) {
        self.cond_stack.push(self.cond);
        for (c, t) in self.cond.iter_mut().zip(test) {
            *c &= t;
        }
    }

    pub fn else_(&mut self) -> Result<(), RunErrorKind> {
        let prev = *self
            .cond_stack
            .last()
            .ok_or_else(|| RunErrorKind::Structure("ELSE outside IF".into()))?;
        for (c, p) in self.cond.iter_mut().zip(prev) {
            *c = p && !*c;
        }
        Ok(())
    }

    pub fn end_if(&mut self) -> Result<(), RunErrorKind> {
        self.cond = self
            .cond_stack
            .pop()
            .ok_or_else(|| RunErrorKind::Structure("ENDIF outside IF".into()))?;
        Ok(())
    }

    /// Opens a loop that `lanes` enter, with REP's iteration counts `rep`.
    pub fn enter_loop(&mut self, lanes: Mask, rep: [i64; LANES]) {
        self.loop_stack.push(LoopFrame {
            loop_m: self.loop_m,
            cont: self.cont,
            rep,
        });
        self.loop_m = lanes;
        self.cont = ALL;
    }

    /// BRK / BREAKC of `lanes`.
    pub fn brk(&mut self, lanes: &Mask) {
        clear(&mut self.loop_m, lanes);
    }

    /// CONT of `lanes`.
    pub fn cont(&mut self, lanes: &Mask) {
        clear(&mut self.cont, lanes);
    }

    /// Where to go after opening a block at `at`: the next instruction, or straight to the
    /// block's partner when no lane is active.
    pub fn skip_if_idle(&self, structure: &Structure, at: usize) -> Result<usize, RunErrorKind> {
        if self.active().iter().any(|&a| a) {
            Ok(at + 1)
        } else {
            partner(structure, at)
        }
    }

    /// CAL / CALLNZ of `callers` to `target`, returning to `ret`.
    pub fn call(&mut self, ret: usize, callers: Mask) -> Result<(), RunErrorKind> {
        if self.call_stack.len() >= CALL_STACK_LIMIT {
            return Err(RunErrorKind::CallStackOverflow {
                limit: CALL_STACK_LIMIT,
            });
        }
        self.call_stack.push(CallFrame {
            ret,
            cond: self.cond,
            loop_m: self.loop_m,
            cont: self.cont,
            func: self.func,
            cond_len: self.cond_stack.len(),
            loop_len: self.loop_stack.len(),
        });
        self.func = callers;
        self.cond = ALL;
        self.loop_m = ALL;
        self.cont = ALL;
        Ok(())
    }

    /// RET of `lanes` at `at`.
    pub fn ret(&mut self, at: usize, lanes: &Mask) -> Next {
        clear(&mut self.func, lanes);
        if (0..LANES).any(|l| self.func[l] && self.alive[l]) {
            Next::Go(at + 1)
        } else {
            self.return_from_call()
        }
    }

    /// ENDSUB at `at`.
    pub fn end_sub(&mut self, at: usize) -> Next {
        if self.call_stack.is_empty() {
            Next::Go(at + 1)
        } else {
            self.return_from_call()
        }
    }

    fn return_from_call(&mut self) -> Next {
        match self.call_stack.pop() {
            None => Next::Stop,
            Some(fr) => {
                self.cond = fr.cond;
                self.loop_m = fr.loop_m;
                self.cont = fr.cont;
                self.func = fr.func;
                self.cond_stack.truncate(fr.cond_len);
                self.loop_stack.truncate(fr.loop_len);
                Next::Go(fr.ret)
            }
        }
    }

    /// The first step of a loop end: continues are over; the lanes still in the loop, whose
    /// counters the loop end then steps.
    pub fn loop_end_lanes(&mut self) -> Mask {
        self.cont = ALL;
        self.in_loop()
    }

    fn in_loop(&self) -> Mask {
        std::array::from_fn(|l| self.loop_m[l] && self.alive[l] && self.func[l] && self.cond[l])
    }

    /// Lane `l` leaves the loop (its counter ran out).
    pub fn leave_loop(&mut self, l: usize) {
        self.loop_m[l] = false;
    }

    /// ENDREP: one iteration of lane `l` done; it leaves the loop when none is left.
    pub fn rep_step(&mut self, l: usize) -> Result<(), RunErrorKind> {
        let frame = self
            .loop_stack
            .last_mut()
            .ok_or_else(|| RunErrorKind::Structure("ENDREP outside REP".into()))?;
        frame.rep[l] -= 1;
        if frame.rep[l] <= 0 {
            self.loop_m[l] = false;
        }
        Ok(())
    }

    /// The last step of the loop end at `at`: repeat while any lane is still in the loop, else
    /// restore the enclosing masks.
    pub fn loop_end(&mut self, structure: &Structure, at: usize) -> Result<Next, RunErrorKind> {
        if self.in_loop().iter().any(|&l| l) {
            return Ok(Next::Go(partner(structure, at)? + 1));
        }
        let frame = self
            .loop_stack
            .pop()
            .ok_or_else(|| RunErrorKind::Structure("loop end outside a loop".into()))?;
        self.loop_m = frame.loop_m;
        self.cont = frame.cont;
        Ok(Next::Go(at + 1))
    }

    /// BRA from `at` to `target`: leaves the blocks the target is not in (restoring their saved
    /// masks) and enters the blocks it jumps into as if every active lane had passed their
    /// opening instruction (an IF taken, a loop entered, a REP with one iteration left). Jumping
    /// into or out of a subroutine body is not executable.
    pub fn branch(
        &mut self,
        structure: &Structure,
        insts: &[Instruction],
        at: usize,
        target: usize,
    ) -> Result<Next, RunErrorKind> {
        let from = structure.enclosing.get(at).cloned().unwrap_or_default();
        let to = structure.enclosing.get(target).cloned().unwrap_or_default();
        let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
        let kind = |i: usize| insts[i].opcode.info().flow();
        let crosses_sub = from[common..]
            .iter()
            .chain(&to[common..])
            .any(|&o| kind(o) == Some(Flow::BgnSub));
        if crosses_sub {
            return Err(RunErrorKind::Unsupported(
                "BRA into or out of a subroutine body".into(),
            ));
        }
        for &o in from[common..].iter().rev() {
            if matches!(kind(o), Some(Flow::If | Flow::Ifc)) {
                self.cond = self
                    .cond_stack
                    .pop()
                    .ok_or_else(|| RunErrorKind::Structure("BRA out of an IF".into()))?;
            } else {
                let frame = self
                    .loop_stack
                    .pop()
                    .ok_or_else(|| RunErrorKind::Structure("BRA out of a loop".into()))?;
                self.loop_m = frame.loop_m;
                self.cont = frame.cont;
            }
        }
        for &o in &to[common..] {
            if matches!(kind(o), Some(Flow::If | Flow::Ifc)) {
                self.cond_stack.push(self.cond);
            } else {
                let a = self.active();
                self.enter_loop(a, [1; LANES]);
            }
        }
        Ok(Next::Go(target))
    }
}

/// The instruction that closes (or opens) the block of `at`.
pub fn partner(structure: &Structure, at: usize) -> Result<usize, RunErrorKind> {
    structure
        .partner
        .get(at)
        .copied()
        .flatten()
        .ok_or_else(|| RunErrorKind::Structure("unmatched block".into()))
}

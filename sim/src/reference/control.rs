//! Control flow of the interpreter: IF/ELSE, the three loop kinds, calls and returns, BRA.
//!
//! IF pushes the IF-branch mask; ELSE flips it within the saved mask; loops save the loop and
//! continue masks and restore them when no lane is left in the loop; calls save every mask and the
//! stack depths so that an early RET of all lanes can unwind. Blocks no lane enters are skipped to
//! their partner instruction, which keeps the stacks balanced.

use super::exec::{Machine, Next};
use super::float;
use super::operand::{self, View};
use super::state::{clear, Mask, ALL, NONE};
use super::{RunErrorKind, CALL_STACK_LIMIT};
use crate::run_io::LANES;
use microcode::tgsi::opcode::{Flow, OperandType};
use microcode::tgsi::Instruction;

/// Saved masks of an enclosing loop.
pub(super) struct LoopFrame {
    pub(super) loop_m: Mask,
    pub(super) cont: Mask,
    /// REP: iterations left per lane.
    pub(super) rep: [i64; LANES],
}

/// Saved state of a caller.
pub(super) struct CallFrame {
    pub(super) ret: usize,
    pub(super) cond: Mask,
    pub(super) loop_m: Mask,
    pub(super) cont: Mask,
    pub(super) func: Mask,
    pub(super) cond_len: usize,
    pub(super) loop_len: usize,
}

impl Machine<'_> {
    /// Executes one control-flow instruction and says where to continue.
    pub(super) fn flow(
        &mut self,
        at: usize,
        inst: &Instruction,
        f: Flow,
    ) -> Result<Next, RunErrorKind> {
        let next = Next::Go(at + 1);
        match f {
            Flow::If | Flow::Ifc => {
                let exec = self.exec_mask(inst);
                let test = self.test_x(at, inst, exec)?;
                self.cond_stack.push(self.cond);
                for (c, t) in self.cond.iter_mut().zip(test) {
                    *c &= t;
                }
                self.skip_if_idle(at, next)
            }
            Flow::Else => {
                let prev = *self
                    .cond_stack
                    .last()
                    .ok_or_else(|| RunErrorKind::Structure("ELSE outside IF".into()))?;
                for (c, p) in self.cond.iter_mut().zip(prev) {
                    *c = p && !*c;
                }
                self.skip_if_idle(at, next)
            }
            Flow::EndIf => {
                self.cond = self
                    .cond_stack
                    .pop()
                    .ok_or_else(|| RunErrorKind::Structure("ENDIF outside IF".into()))?;
                Ok(next)
            }
            Flow::BgnLoop => {
                let a = self.active();
                self.enter_loop(a, [0; LANES]);
                self.skip_if_idle(at, next)
            }
            Flow::BgnFor => {
                let a = self.active();
                let v = self.fetch_lanes(at, inst, 0, a, View::Float, 0)?;
                let mut enter = NONE;
                for l in (0..LANES).filter(|&l| a[l]) {
                    let [x, y, z] = [0, 1, 2].map(|c| float::floor_to_i32(v[l][c]));
                    self.write_dst(
                        at,
                        l,
                        inst,
                        0,
                        [Some(x as u32), Some(y as u32), Some(z as u32), None],
                        OperandType::Int,
                    );
                    enter[l] = y > 0;
                }
                self.enter_loop(enter, [0; LANES]);
                self.skip_if_idle(at, next)
            }
            Flow::Rep => {
                let a = self.active();
                let v = self.fetch_lanes(at, inst, 0, a, View::Float, 0)?;
                let counts: [i64; LANES] =
                    std::array::from_fn(|l| i64::from(float::floor_to_i32(v[l][0])));
                let enter = std::array::from_fn(|l| a[l] && counts[l] > 0);
                self.enter_loop(enter, counts);
                self.skip_if_idle(at, next)
            }
            Flow::EndLoop | Flow::EndFor | Flow::EndRep => self.end_loop(at, inst, f),
            Flow::Brk | Flow::BreakC => {
                let exec = self.exec_mask(inst);
                let hit = if f == Flow::BreakC {
                    self.test_x(at, inst, exec)?
                } else {
                    exec
                };
                clear(&mut self.loop_m, &hit);
                Ok(next)
            }
            Flow::Cont => {
                let exec = self.exec_mask(inst);
                clear(&mut self.cont, &exec);
                Ok(next)
            }
            Flow::Cal | Flow::CallNz => {
                let exec = self.exec_mask(inst);
                let callers = if f == Flow::CallNz {
                    self.test_x(at, inst, exec)?
                } else {
                    exec
                };
                if !callers.iter().any(|&c| c) {
                    return Ok(next);
                }
                let target = self.label(inst)?;
                if self.call_stack.len() >= CALL_STACK_LIMIT {
                    return Err(RunErrorKind::CallStackOverflow {
                        limit: CALL_STACK_LIMIT,
                    });
                }
                self.call_stack.push(CallFrame {
                    ret: at + 1,
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
                Ok(Next::Go(target))
            }
            Flow::Ret => {
                let exec = self.exec_mask(inst);
                clear(&mut self.func, &exec);
                if (0..LANES).any(|l| self.func[l] && self.alive[l]) {
                    Ok(next)
                } else {
                    Ok(self.return_from_call())
                }
            }
            Flow::EndSub => {
                if self.call_stack.is_empty() {
                    Ok(next)
                } else {
                    Ok(self.return_from_call())
                }
            }
            Flow::BgnSub => Ok(next),
            Flow::End => Ok(Next::Stop),
            Flow::Bra => {
                let target = self.label(inst)?;
                let Some(test) = inst.cond_flow else {
                    return self.branch(at, target);
                };
                let a = self.active();
                let taken: Mask = std::array::from_fn(|l| a[l] && self.st.cc_any(l, &test));
                let any_taken = taken.iter().any(|&t| t);
                let all_taken = (0..LANES).all(|l| !a[l] || taken[l]);
                if any_taken && !all_taken {
                    return Err(RunErrorKind::DivergentBranch { taken });
                }
                if any_taken {
                    self.branch(at, target)
                } else {
                    Ok(next)
                }
            }
        }
    }

    /// BRA: leaves the blocks the target is not in (restoring their saved masks) and enters the
    /// blocks it jumps into as if every active lane had passed their opening instruction (an IF
    /// taken, a loop entered, a REP with one iteration left). Jumping into or out of a subroutine
    /// body is not executable.
    fn branch(&mut self, at: usize, target: usize) -> Result<Next, RunErrorKind> {
        let from = self
            .structure
            .enclosing
            .get(at)
            .cloned()
            .unwrap_or_default();
        let to = self
            .structure
            .enclosing
            .get(target)
            .cloned()
            .unwrap_or_default();
        let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
        let kind = |i: usize| self.insts[i].opcode.info().flow();
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

    /// After opening a block: when no lane is active, go straight to the block's partner.
    fn skip_if_idle(&self, at: usize, next: Next) -> Result<Next, RunErrorKind> {
        if self.active().iter().any(|&a| a) {
            Ok(next)
        } else {
            Ok(Next::Go(self.partner(at)?))
        }
    }

    fn enter_loop(&mut self, lanes: Mask, rep: [i64; LANES]) {
        self.loop_stack.push(LoopFrame {
            loop_m: self.loop_m,
            cont: self.cont,
            rep,
        });
        self.loop_m = lanes;
        self.cont = ALL;
    }

    /// ENDLOOP / ENDFOR / ENDREP: update counters, then repeat while any lane is still in the loop.
    fn end_loop(&mut self, at: usize, inst: &Instruction, f: Flow) -> Result<Next, RunErrorKind> {
        self.cont = ALL;
        let in_loop: Mask = std::array::from_fn(|l| {
            self.loop_m[l] && self.alive[l] && self.func[l] && self.cond[l]
        });
        for l in (0..LANES).filter(|&l| in_loop[l]) {
            match f {
                Flow::EndFor => {
                    let dst = inst.dst.first().ok_or_else(|| {
                        RunErrorKind::Unsupported("ENDFOR without a LOOP register".into())
                    })?;
                    let slot = operand::resolve(&self.st, l, &dst.reg, 0);
                    let v = self.st.read(l, slot);
                    let x = (v[0] as i32).wrapping_add(v[2] as i32);
                    let y = (v[1] as i32).wrapping_sub(1);
                    self.write_dst(
                        at,
                        l,
                        inst,
                        0,
                        [Some(x as u32), Some(y as u32), None, None],
                        OperandType::Int,
                    );
                    if y <= 0 {
                        self.loop_m[l] = false;
                    }
                }
                Flow::EndRep => {
                    let frame = self
                        .loop_stack
                        .last_mut()
                        .ok_or_else(|| RunErrorKind::Structure("ENDREP outside REP".into()))?;
                    frame.rep[l] -= 1;
                    if frame.rep[l] <= 0 {
                        self.loop_m[l] = false;
                    }
                }
                _ => {}
            }
        }
        if (0..LANES).any(|l| self.loop_m[l] && self.alive[l] && self.func[l] && self.cond[l]) {
            return Ok(Next::Go(self.partner(at)? + 1));
        }
        let frame = self
            .loop_stack
            .pop()
            .ok_or_else(|| RunErrorKind::Structure("loop end outside a loop".into()))?;
        self.loop_m = frame.loop_m;
        self.cont = frame.cont;
        Ok(Next::Go(at + 1))
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
}

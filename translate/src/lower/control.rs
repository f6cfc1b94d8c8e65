//! Structured control flow: loops (BGNLOOP / ENDLOOP with BRK and CONT, the continuing block
//! copied before each CONT), `switch` as a one-trip loop of IFs, and the nesting limit.

use super::{err, Lower, Span};
use crate::code::Src;
use crate::error::Construct;
use crate::TranslateError;
use microcode::tgsi::Opcode;
use naga::{Expression, Handle, Statement};
use std::collections::BTreeSet;

impl<'a> Lower<'a> {
    /// A loop: BGNLOOP, the body, the continuing block and the break-if test, ENDLOOP.
    pub(super) fn loop_statement(
        &mut self,
        body: &'a naga::Block,
        continuing: &'a naga::Block,
        break_if: Option<Handle<Expression>>,
        span: Span,
    ) -> Result<(), TranslateError> {
        let mut w = BTreeSet::new();
        self.written_in(body, &mut w);
        self.written_in(continuing, &mut w);
        self.detach(&w);
        self.open(Opcode::BgnLoop, vec![], span)?;
        self.frame_mut().loop_depth += 1;
        self.loops.push((continuing, break_if));
        self.block(body, false)?;
        self.continuing()?;
        self.loops.pop();
        self.frame_mut().loop_depth -= 1;
        self.close(Opcode::EndLoop);
        Ok(())
    }

    /// A switch: a one-trip loop (so that `break` leaves it) holding one `IF selector == value`
    /// per case, each ending in BRK, then the default. Cases that fall through into a non-empty
    /// case, and `continue` inside a switch, are refused.
    pub(super) fn switch(
        &mut self,
        selector: Handle<Expression>,
        cases: &'a [naga::SwitchCase],
        span: Span,
    ) -> Result<(), TranslateError> {
        if cases.iter().any(|c| has_continue(&c.body)) {
            return Err(err(
                Construct::Other("a `continue` inside a `switch`".into()),
                "the switch is a one-trip loop, where CONT would continue it instead",
                span,
            ));
        }
        let sel = self.scalar(selector)?.comp(0);
        // The selector (i32 or u32) as a float once: each case below 2^24 is one SEQ (I2F is
        // exact there and maps no other integer onto such a value; a u32 from 2^31 up turns
        // negative, equal to no case).
        let fsel = self.ialu(Opcode::I2f, 1, vec![sel]);
        let mut groups: Vec<(Vec<naga::SwitchValue>, &'a naga::Block)> = Vec::new();
        let mut pending = Vec::new();
        for c in cases {
            pending.push(c.value);
            if c.fall_through {
                if c.body.is_empty() {
                    continue;
                }
                return Err(err(
                    Construct::Other("a switch case that falls through into the next".into()),
                    "each case is its own IF block",
                    span,
                ));
            }
            groups.push((std::mem::take(&mut pending), &c.body));
        }
        let mut w = BTreeSet::new();
        for c in cases {
            self.written_in(&c.body, &mut w);
        }
        self.detach(&w);
        // The conditions first: every case tests the selector as it was before any case ran.
        let mut tests = Vec::new();
        for (values, _) in &groups {
            if values.contains(&naga::SwitchValue::Default) {
                tests.push(None);
                continue;
            }
            let mut cond: Option<Src> = None;
            for v in values {
                let bits = match v {
                    naga::SwitchValue::I32(i) => *i as u32,
                    naga::SwitchValue::U32(u) => *u,
                    naga::SwitchValue::Default => 0,
                };
                let small = match v {
                    naga::SwitchValue::I32(i) => i.unsigned_abs() < 1 << 24,
                    _ => bits < 1 << 24,
                };
                let eq = if small {
                    let k = match v {
                        naga::SwitchValue::I32(i) => *i as f32,
                        _ => bits as f32,
                    };
                    let k = self.imm_s(k);
                    self.alu(Opcode::Seq, 1, vec![fsel, k]).src()
                } else {
                    let k = self.code.imm_int(&[bits]);
                    let t = self.ialu(Opcode::Xor, 1, vec![sel, k]);
                    let ft = self.ialu(Opcode::I2f, 1, vec![t]);
                    let z = self.imm_s(0.0);
                    self.alu(Opcode::Seq, 1, vec![ft, z]).src()
                };
                cond = Some(match cond {
                    None => eq,
                    Some(c) => self.alu(Opcode::Max, 1, vec![c, eq]).src(),
                });
            }
            tests.push(cond);
        }
        self.open(Opcode::BgnLoop, vec![], span)?;
        self.frame_mut().loop_depth += 1;
        let saved = std::mem::take(&mut self.loops);
        let mut default = None;
        for ((_, body), test) in groups.iter().zip(tests) {
            let Some(c) = test else {
                default = Some(*body);
                continue;
            };
            self.open(Opcode::If, vec![c.comp(0)], span)?;
            self.block(body, false)?;
            self.code.push(Opcode::Brk, None, vec![]);
            self.close(Opcode::EndIf);
        }
        if let Some(body) = default {
            self.block(body, false)?;
        }
        self.code.push(Opcode::Brk, None, vec![]);
        self.loops = saved;
        self.frame_mut().loop_depth -= 1;
        self.close(Opcode::EndLoop);
        Ok(())
    }

    /// Writes IF or BGNLOOP, refusing nesting the project's validator would refuse.
    pub(super) fn open(
        &mut self,
        op: Opcode,
        src: Vec<Src>,
        span: Span,
    ) -> Result<(), TranslateError> {
        self.nesting += 1;
        let limit = microcode::tgsi::validate::Limits::default().max_nesting;
        if self.nesting > limit {
            return Err(crate::error::over_budget(
                crate::error::Budget::Nesting,
                format!("control flow nested deeper than {limit} (ifs, loops and early returns)"),
                span,
            ));
        }
        self.code.push(op, None, src);
        Ok(())
    }

    /// Writes ENDIF or ENDLOOP.
    pub(super) fn close(&mut self, op: Opcode) {
        self.nesting -= 1;
        self.code.push(op, None, vec![]);
    }

    /// The loop's continuing block and its break-if test, before CONT or ENDLOOP.
    pub(super) fn continuing(&mut self) -> Result<(), TranslateError> {
        let Some(&(cont, break_if)) = self.loops.last() else {
            return Ok(());
        };
        self.block(cont, false)?;
        if let Some(b) = break_if {
            let c = self.scalar(b)?;
            let span = self.span_of(b);
            self.open(Opcode::If, vec![c.comp(0)], span)?;
            self.code.push(Opcode::Brk, None, vec![]);
            self.close(Opcode::EndIf);
        }
        Ok(())
    }
}

/// True when `body` holds a `continue` of an enclosing loop (one not inside a loop of its own).
pub(super) fn has_continue(body: &naga::Block) -> bool {
    body.iter().any(|s| match s {
        Statement::Continue => true,
        Statement::Block(b) => has_continue(b),
        Statement::If { accept, reject, .. } => has_continue(accept) || has_continue(reject),
        Statement::Switch { cases, .. } => cases.iter().any(|c| has_continue(&c.body)),
        _ => false,
    })
}

pub(super) fn has_early_return(body: &naga::Block) -> bool {
    fn any_return(b: &naga::Block) -> bool {
        b.iter().any(|s| match s {
            Statement::Return { .. } => true,
            Statement::Block(x) => any_return(x),
            Statement::If { accept, reject, .. } => any_return(accept) || any_return(reject),
            Statement::Loop {
                body, continuing, ..
            } => any_return(body) || any_return(continuing),
            Statement::Switch { cases, .. } => cases.iter().any(|c| any_return(&c.body)),
            _ => false,
        })
    }
    // Returns only as the last statement of the body (or of a last if's branches) are tails.
    fn tail_only(b: &naga::Block) -> bool {
        let n = b.len();
        b.iter().enumerate().all(|(i, s)| {
            let last = i + 1 == n;
            match s {
                Statement::Return { .. } => last,
                Statement::Block(x) => {
                    if last {
                        tail_only(x)
                    } else {
                        !any_return(x)
                    }
                }
                Statement::If { accept, reject, .. } => {
                    if last {
                        tail_only(accept) && tail_only(reject)
                    } else {
                        !any_return(accept) && !any_return(reject)
                    }
                }
                Statement::Loop {
                    body, continuing, ..
                } => !any_return(body) && !any_return(continuing),
                Statement::Switch { cases, .. } => !cases.iter().any(|c| any_return(&c.body)),
                _ => true,
            }
        })
    }
    !tail_only(body)
}

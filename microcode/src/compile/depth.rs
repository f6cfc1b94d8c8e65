//! Static stack depths of a program, checked against the core's limits before it runs.
//!
//! The core keeps IF frames, loop frames (BGNLOOP, BGNFOR, REP) and call frames on one mask stack
//! (`CoreConfig::mask_stack_depth`) and counts call frames against
//! `CoreConfig::call_stack_depth`. The deepest point of a function is its own nesting plus, at each
//! CAL / CALLNZ, one call frame and the callee's deepest point; an instruction with a condition
//! test is wrapped in one more IF frame. Recursion is rejected by the validator; here it is an
//! error too, so the walk always ends.

use super::CompileError;
use crate::tgsi::{Opcode, Program};
use std::collections::HashMap;

/// Deepest (mask stack, call stack) use of the program.
pub(crate) fn depths(p: &Program) -> Result<(usize, usize), CompileError> {
    let mut memo = HashMap::new();
    let mut visiting = Vec::new();
    function(p, 0, None, &mut memo, &mut visiting)
}

/// Depths of the function starting at instruction `start` (0: main; else a BGNSUB).
fn function(
    p: &Program,
    start: usize,
    caller: Option<usize>,
    memo: &mut HashMap<usize, (usize, usize)>,
    visiting: &mut Vec<usize>,
) -> Result<(usize, usize), CompileError> {
    if let Some(&d) = memo.get(&start) {
        return Ok(d);
    }
    if visiting.contains(&start) {
        let index = caller.unwrap_or(start);
        return Err(CompileError::Recursion {
            index,
            opcode: p.instructions.get(index).map_or(Opcode::Cal, |i| i.opcode),
            target: start,
        });
    }
    visiting.push(start);
    let (mut open, mut mask, mut calls) = (0usize, 0usize, 0usize);
    let body = if start == 0 { 0 } else { start + 1 };
    for (at, inst) in p.instructions.iter().enumerate().skip(body) {
        match inst.opcode {
            Opcode::End | Opcode::EndSub => break,
            Opcode::If | Opcode::Ifc | Opcode::BgnLoop | Opcode::BgnFor | Opcode::Rep => {
                open += 1;
                mask = mask.max(open);
            }
            Opcode::EndIf | Opcode::EndLoop | Opcode::EndFor | Opcode::EndRep => {
                open = open.saturating_sub(1)
            }
            Opcode::Cal | Opcode::CallNz => {
                let wrap = usize::from(inst.cond_flow.is_some());
                if let Some(label) = inst.label {
                    let (m, c) = function(p, label as usize, Some(at), memo, visiting)?;
                    mask = mask.max(open + wrap + 1 + m);
                    calls = calls.max(1 + c);
                }
            }
            _ => {
                if inst.cond_flow.is_some() {
                    mask = mask.max(open + 1);
                }
            }
        }
    }
    visiting.pop();
    memo.insert(start, (mask, calls));
    Ok((mask, calls))
}

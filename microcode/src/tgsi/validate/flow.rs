//! Control-flow structure.
//!
//! The layout follows Mesa: END ends the main program; after it come only subroutines, each
//! `BGNSUB ... ENDSUB` (Mesa's GLSL compiler emits them there). So: exactly one END, outside every
//! block and subroutine; nothing but BGNSUB at the top level after END; BGNSUB never before END nor
//! inside another subroutine. IF/IFC ... [ELSE] ... ENDIF, BGNLOOP/ENDLOOP, BGNFOR/ENDFOR and
//! REP/ENDREP nest properly inside one body; BRK, CONT and BREAKC need an enclosing loop of the
//! same body.
//!
//! Labels are instruction indices and must be below the instruction count; CAL and CALLNZ must
//! point exactly at a BGNSUB (the subroutine's first instruction, as Mesa numbers them). Optional
//! labels (IF, ELSE, loops) are only range-checked: structured flow does not need them.
//!
//! Nesting: each open IF or loop is one level; a call adds one level plus the deepest nesting of
//! the callee (computed over the call graph), so the total from the main program must stay within
//! [`Limits::max_nesting`]. A recursive call has no static bound and is an error.

use super::{Limits, Rule, Validator};
use crate::tgsi::ir::{Loc, Program};
use crate::tgsi::opcode::{Flow, LabelUse, Opcode};
use std::collections::{HashMap, HashSet};

/// Key of the main program's body in the body map (subroutines use their BGNSUB index).
const MAIN: usize = usize::MAX;

/// An open block.
struct Open {
    opener: Flow,
    at: usize,
    has_else: bool,
}

/// What the depth computation needs to know about one body.
#[derive(Default)]
struct Body {
    /// Deepest block nesting inside the body.
    max_depth: usize,
    /// (call instruction, open blocks at the call, callee BGNSUB index).
    calls: Vec<(usize, usize, usize)>,
}

fn opener_name(f: Flow) -> &'static str {
    match f {
        Flow::If => "IF",
        Flow::Ifc => "IFC",
        Flow::BgnLoop => "BGNLOOP",
        Flow::BgnFor => "BGNFOR",
        Flow::Rep => "REP",
        _ => "block",
    }
}

fn is_loop(f: Flow) -> bool {
    matches!(f, Flow::BgnLoop | Flow::BgnFor | Flow::Rep)
}

struct Walk<'v, 'p> {
    v: &'v mut Validator<'p>,
    stack: Vec<Open>,
    bodies: HashMap<usize, Body>,
    body: usize,
    /// Openers beyond the nesting limit after the first (which alone gets an error, so that a
    /// file of 10,000 nested IFs gives one line, not thousands), and that first error's index.
    more_too_deep: usize,
    first_too_deep: Option<usize>,
}

impl Walk<'_, '_> {
    fn push(&mut self, opener: Flow, at: usize, limits: &Limits) {
        self.stack.push(Open {
            opener,
            at,
            has_else: false,
        });
        let depth = self.stack.len();
        let body = self.bodies.entry(self.body).or_default();
        body.max_depth = body.max_depth.max(depth);
        if depth > limits.max_nesting {
            if self.first_too_deep.is_some() {
                self.more_too_deep += 1;
                return;
            }
            let msg = format!(
                "nesting depth {depth} exceeds the limit of {}",
                limits.max_nesting
            );
            self.first_too_deep = Some(self.v.errors.len());
            self.v.at(Rule::Nesting, at, msg);
        }
    }

    /// Closes the innermost block opened by one of `openers`; blocks above it are unclosed.
    fn close(&mut self, openers: &[Flow], i: usize, name: &str) {
        let Some(pos) = self.stack.iter().rposition(|o| openers.contains(&o.opener)) else {
            let what = opener_name(openers[0]);
            self.v.at(
                Rule::Unbalanced,
                i,
                format!("{name} without an open {what}"),
            );
            return;
        };
        let unclosed = self.stack.split_off(pos + 1);
        self.report_unclosed(unclosed, &format!("{name} at instruction {i}"));
        self.stack.pop();
    }

    fn report_unclosed(&mut self, open: Vec<Open>, before: &str) {
        for o in open {
            let msg = format!("{} is not closed before {before}", opener_name(o.opener));
            self.v.at(Rule::Unbalanced, o.at, msg);
        }
    }
}

pub(super) fn check(v: &mut Validator, limits: &Limits) {
    let p = v.p;
    let n = p.instructions.len();
    let mut w = Walk {
        v,
        stack: Vec::new(),
        bodies: HashMap::new(),
        body: MAIN,
        more_too_deep: 0,
        first_too_deep: None,
    };
    let mut end: Option<usize> = None;
    let mut sub: Option<usize> = None;
    // The main program's open blocks while a misplaced subroutine (before END) is walked.
    let mut saved_main = Vec::new();
    for (i, inst) in p.instructions.iter().enumerate() {
        let info = inst.opcode.info();
        let name = info.mnemonic;
        match inst.label {
            Some(l) if l as usize >= n => {
                let msg = format!(
                    "{name} label :{l} points past the last instruction ({n} instructions)"
                );
                w.v.at(Rule::Label, i, msg);
            }
            None if info.label == LabelUse::Required => {
                w.v.at(Rule::Label, i, format!("{name} needs a label"));
            }
            _ => {}
        }
        let flow = info.flow();
        if end.is_some() && sub.is_none() && !matches!(flow, Some(Flow::BgnSub | Flow::EndSub)) {
            let msg = format!("{name} follows END outside a subroutine (BGNSUB ... ENDSUB)");
            w.v.at(Rule::AfterEnd, i, msg);
        }
        let Some(flow) = flow else { continue };
        match flow {
            Flow::If | Flow::Ifc | Flow::BgnLoop | Flow::BgnFor | Flow::Rep => {
                w.push(flow, i, limits)
            }
            Flow::Else => match w.stack.last_mut() {
                Some(o) if matches!(o.opener, Flow::If | Flow::Ifc) && !o.has_else => {
                    o.has_else = true
                }
                Some(o) if o.has_else => {
                    let msg = format!("second ELSE for the IF at instruction {}", o.at);
                    w.v.at(Rule::Unbalanced, i, msg);
                }
                _ => {
                    w.v.at(Rule::Unbalanced, i, "ELSE without an open IF".into())
                }
            },
            Flow::EndIf => w.close(&[Flow::If, Flow::Ifc], i, name),
            Flow::EndLoop => w.close(&[Flow::BgnLoop], i, name),
            Flow::EndFor => w.close(&[Flow::BgnFor], i, name),
            Flow::EndRep => w.close(&[Flow::Rep], i, name),
            Flow::Brk | Flow::Cont | Flow::BreakC => {
                if !w.stack.iter().any(|o| is_loop(o.opener)) {
                    w.v.at(Rule::LoopControl, i, format!("{name} outside a loop"));
                }
            }
            Flow::Cal | Flow::CallNz => {
                if let Some(l) = inst.label.map(|l| l as usize).filter(|&l| l < n) {
                    let target = p.instructions[l].opcode;
                    if target == Opcode::BgnSub {
                        let depth = w.stack.len();
                        w.bodies
                            .entry(w.body)
                            .or_default()
                            .calls
                            .push((i, depth, l));
                    } else {
                        let msg = format!("{name} :{l} must point at a BGNSUB, not at {target}");
                        w.v.at(Rule::CallTarget, i, msg);
                    }
                }
            }
            Flow::BgnSub => {
                if let Some(s) = sub {
                    let msg =
                        format!("BGNSUB inside the subroutine that starts at instruction {s}");
                    w.v.at(Rule::Unbalanced, i, msg);
                    continue;
                }
                if end.is_none() {
                    let msg = "BGNSUB before END: subroutines follow the main program".to_string();
                    w.v.at(Rule::AfterEnd, i, msg);
                    saved_main = std::mem::take(&mut w.stack);
                }
                sub = Some(i);
                w.body = i;
                w.bodies.entry(i).or_default();
            }
            Flow::EndSub => match sub.take() {
                None => w.v.at(Rule::Unbalanced, i, "ENDSUB without BGNSUB".into()),
                Some(_) => {
                    let open = std::mem::take(&mut w.stack);
                    w.report_unclosed(open, &format!("ENDSUB at instruction {i}"));
                    w.stack = std::mem::take(&mut saved_main);
                    w.body = MAIN;
                }
            },
            Flow::End => {
                if let Some(s) = sub {
                    let msg = format!("END inside the subroutine that starts at instruction {s}");
                    w.v.at(Rule::Unbalanced, i, msg);
                } else if let Some(e) = end {
                    let msg = format!("second END (the first is instruction {e})");
                    w.v.at(Rule::RepeatedEnd, i, msg);
                } else {
                    let open = std::mem::take(&mut w.stack);
                    w.report_unclosed(open, &format!("END at instruction {i}"));
                    end = Some(i);
                }
            }
            Flow::Ret | Flow::Bra => {}
        }
    }
    if let Some(s) = sub {
        w.v.at(Rule::Unbalanced, s, "BGNSUB has no ENDSUB".into());
    }
    let open = std::mem::take(&mut w.stack);
    w.report_unclosed(open, "the end of the program");
    if let (Some(e), n @ 1..) = (w.first_too_deep, w.more_too_deep) {
        w.v.errors[e].message += &format!(" (and {n} more blocks nested beyond it)");
    }
    if end.is_none() {
        // The last thing the file holds: with no instructions at all, its last declaration,
        // immediate or property, so that a text file is located at a real line.
        let loc = p
            .instructions
            .last()
            .map(|x| x.loc)
            .or_else(|| last_header_loc(p))
            .unwrap_or_default();
        w.v.error(Rule::MissingEnd, loc, None, "the program has no END".into());
    }
    call_depths(w.v, &w.bodies, limits);
    branch_regions(w.v);
}

/// The location furthest into the file among the declarations, immediates and properties.
fn last_header_loc(p: &Program) -> Option<Loc> {
    let locs = p.declarations.iter().map(|d| d.loc);
    let locs = locs.chain(p.immediates.iter().map(|i| i.loc));
    let locs = locs.chain(p.properties.iter().map(|q| q.loc));
    locs.max_by_key(|l| match *l {
        Loc::None => (0, 0),
        Loc::Text { line, col } => (line, col),
        Loc::Token { offset } => (offset, 0),
    })
}

/// BRA stays inside the body it is in (the main program or one subroutine): a jump into or out of a
/// subroutine would leave the call stack meaningless.
fn branch_regions(v: &mut Validator) {
    let p = v.p;
    let mut region = Vec::with_capacity(p.instructions.len());
    let mut current = MAIN;
    for (i, inst) in p.instructions.iter().enumerate() {
        match inst.opcode.info().flow() {
            Some(Flow::BgnSub) => {
                current = i;
                region.push(current);
            }
            Some(Flow::EndSub) => {
                region.push(current);
                current = MAIN;
            }
            _ => region.push(current),
        }
    }
    for (i, inst) in p.instructions.iter().enumerate() {
        if inst.opcode.info().flow() != Some(Flow::Bra) {
            continue;
        }
        let Some(l) = inst.label.map(|l| l as usize) else {
            continue;
        };
        match (region.get(i), region.get(l)) {
            (Some(&from), Some(&to)) if from != to => {
                let msg = if to == MAIN {
                    format!("BRA :{l} jumps out of the subroutine into the main program")
                } else {
                    format!("BRA :{l} jumps into the subroutine that starts at instruction {to}")
                };
                v.at(Rule::Label, i, msg);
            }
            _ => {}
        }
    }
}

/// Checks the nesting that calls add, from every call of the main program.
fn call_depths(v: &mut Validator, bodies: &HashMap<usize, Body>, limits: &Limits) {
    let heights = heights(v, bodies);
    let Some(main) = bodies.get(&MAIN) else {
        return;
    };
    for &(at, depth, target) in &main.calls {
        let total = depth + 1 + heights.get(&target).copied().unwrap_or(0);
        if total > limits.max_nesting {
            let msg = format!(
                "call nesting reaches depth {total}, over the limit of {}",
                limits.max_nesting
            );
            v.at(Rule::Nesting, at, msg);
        }
    }
}

/// The deepest nesting inside each subroutine, calls included (iterative depth-first search over
/// the call graph, so that long call chains cannot overflow the stack). Recursive calls are
/// reported and count as depth 0.
fn heights(v: &mut Validator, bodies: &HashMap<usize, Body>) -> HashMap<usize, usize> {
    let mut done: HashMap<usize, usize> = HashMap::new();
    let mut in_progress: HashSet<usize> = HashSet::new();
    let mut reported: HashSet<usize> = HashSet::new();
    let no_calls = Body::default();
    let mut roots: Vec<usize> = bodies.keys().copied().filter(|&k| k != MAIN).collect();
    roots.sort_unstable();
    for root in roots {
        if done.contains_key(&root) {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        in_progress.insert(root);
        while let Some(&mut (b, ref mut k)) = work.last_mut() {
            let body = bodies.get(&b).unwrap_or(&no_calls);
            if let Some(&(at, _, target)) = body.calls.get(*k) {
                *k += 1;
                if in_progress.contains(&target) {
                    if reported.insert(at) {
                        let msg = format!(
                            "recursive call to the subroutine at instruction {target} (no static depth bound)"
                        );
                        v.at(Rule::Nesting, at, msg);
                    }
                } else if !done.contains_key(&target) {
                    in_progress.insert(target);
                    work.push((target, 0));
                }
                continue;
            }
            let h = body
                .calls
                .iter()
                .map(|&(_, d, t)| d + 1 + done.get(&t).copied().unwrap_or(0))
                .fold(body.max_depth, usize::max);
            done.insert(b, h);
            in_progress.remove(&b);
            work.pop();
        }
    }
    done
}

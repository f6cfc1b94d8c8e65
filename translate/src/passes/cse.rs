//! Common subexpressions within a block.

use crate::code::{is_flow, Code, Inst, Reg, RegFile};
use microcode::tgsi::Opcode;
use std::collections::HashMap;

impl Code {
    /// An instruction computing what an earlier one of the same block computed (the same opcode and
    /// operands, none of them written in between; whole nested blocks may lie between) is dropped
    /// and its readers read the earlier result. Both results are temporaries written once, and
    /// every reader of the later one follows it in its block, where both hold this pass's values
    /// (an I2F of a loop counter for the test and another for a use, say).
    // The scan rewrites instructions after j while it walks: indices, not iterators.
    #[allow(clippy::needless_range_loop)]
    pub(super) fn common_subexpressions(&mut self) {
        let n = self.insts.len();
        let mut defs: HashMap<u32, usize> = HashMap::new();
        for x in &self.insts {
            for (d, _) in x.defs() {
                if d.file == RegFile::Temp {
                    *defs.entry(d.index).or_default() += 1;
                }
            }
        }
        let once = |r: Reg| r.file == RegFile::Temp && defs.get(&r.index) == Some(&1);
        // The end of the block holding instruction j (its ELSE, ENDIF or ENDLOOP, or the end).
        let block_end = |insts: &[Inst], j: usize| {
            let mut depth = 0usize;
            for (k, x) in insts.iter().enumerate().skip(j + 1) {
                match x.op {
                    Opcode::If | Opcode::BgnLoop => depth += 1,
                    Opcode::Else if depth == 0 => return k,
                    Opcode::EndIf | Opcode::EndLoop => {
                        if depth == 0 {
                            return k;
                        }
                        depth -= 1;
                    }
                    _ => {}
                }
            }
            insts.len()
        };
        let mut dead = vec![false; n];
        for i in 0..n {
            let a = self.insts[i].clone();
            let Some((ti, mi)) = a.dst else { continue };
            if dead[i]
                || !once(ti)
                || is_flow(a.op)
                || a.dst2.is_some()
                || a.src.iter().any(|s| s.reg == ti || s.rel)
            {
                continue;
            }
            let mut depth = 0usize;
            for j in i + 1..n {
                let b = &self.insts[j];
                match b.op {
                    Opcode::If | Opcode::BgnLoop => depth += 1,
                    Opcode::Else if depth == 0 => break,
                    Opcode::EndIf | Opcode::EndLoop => {
                        if depth == 0 {
                            break;
                        }
                        depth -= 1;
                    }
                    _ => {}
                }
                if depth == 0
                    && !dead[j]
                    && b.op == a.op
                    && b.src == a.src
                    && b.sat == a.sat
                    && b.target == a.target
                {
                    if let Some((tj, mj)) = b.dst {
                        let end = block_end(&self.insts, j);
                        let readers_after =
                            self.insts.iter().enumerate().all(|(k, x)| {
                                (k > j && k < end) || x.src.iter().all(|s| s.reg != tj)
                            });
                        if tj != ti && once(tj) && mj & !mi == 0 && readers_after {
                            for x in &mut self.insts[j + 1..end] {
                                for s in &mut x.src {
                                    if s.reg == tj {
                                        s.reg = ti;
                                    }
                                }
                            }
                            dead[j] = true;
                            continue;
                        }
                    }
                }
                let b = &self.insts[j];
                if b.defs()
                    .any(|(d, _)| d == ti || a.src.iter().any(|s| s.reg == d))
                {
                    break;
                }
            }
        }
        let mut k = dead.into_iter();
        self.insts.retain(|_| !k.next().unwrap_or(false));
    }
}

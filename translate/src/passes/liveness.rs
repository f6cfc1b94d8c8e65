//! The structured control-flow graph and liveness over it.

use crate::code::{src_reads, Code, Reg, RegFile};
use microcode::tgsi::Opcode;
use std::collections::HashMap;

impl Code {
    /// Successors of each instruction (index `len` is the exit).
    pub(super) fn successors(&self) -> Vec<Vec<usize>> {
        let n = self.insts.len();
        let mut succ = vec![Vec::new(); n];
        let mut stack: Vec<usize> = Vec::new();
        // Matching pairs first.
        let mut else_of = HashMap::new();
        let mut end_of = HashMap::new();
        let mut loop_end = HashMap::new();
        let mut loop_of = vec![None; n];
        let mut loops: Vec<usize> = Vec::new();
        for (i, inst) in self.insts.iter().enumerate() {
            match inst.op {
                Opcode::If | Opcode::BgnLoop => {
                    stack.push(i);
                    if inst.op == Opcode::BgnLoop {
                        loops.push(i);
                    }
                }
                Opcode::Else => {
                    if let Some(&o) = stack.last() {
                        else_of.insert(o, i);
                    }
                }
                Opcode::EndIf => {
                    if let Some(o) = stack.pop() {
                        end_of.insert(o, i);
                        if let Some(&e) = else_of.get(&o) {
                            end_of.insert(e, i);
                        }
                    }
                }
                Opcode::EndLoop => {
                    if let Some(o) = stack.pop() {
                        loop_end.insert(o, i);
                        loop_end.insert(i, o);
                        loops.pop();
                    }
                }
                _ => {}
            }
            loop_of[i] = loops.last().copied();
        }
        for (i, inst) in self.insts.iter().enumerate() {
            succ[i] = match inst.op {
                Opcode::If => vec![i + 1, else_of.get(&i).map(|e| e + 1).unwrap_or(end_of[&i])],
                Opcode::Else => vec![end_of[&i]],
                Opcode::EndLoop => vec![loop_end[&i] + 1],
                Opcode::Brk => vec![loop_end[&loop_of[i].unwrap()] + 1],
                Opcode::Cont => vec![loop_end[&loop_of[i].unwrap()]],
                Opcode::Ret | Opcode::End => vec![n],
                _ => vec![i + 1],
            };
            if inst.op == Opcode::EndLoop {
                // The loop runs again or is left by a BRK: both reach BGNLOOP's successor or the exit.
                succ[i] = vec![loop_end[&i] + 1];
            }
        }
        succ
    }

    /// Live temporaries and outputs (per component mask) at the entry of each instruction, as
    /// dense rows; every output is live at the exit.
    pub(super) fn liveness(&self) -> Liveness {
        let n = self.insts.len();
        let succ = self.successors();
        let temps = self.next_temp as usize;
        let outs = self
            .outputs
            .keys()
            .map(|&o| o as usize + 1)
            .max()
            .unwrap_or(0);
        let width = temps + outs;
        let mut live = Liveness {
            width,
            temps,
            rows: vec![0; (n + 1) * width],
            succ,
        };
        for &o in self.outputs.keys() {
            live.rows[n * width + temps + o as usize] = 0xF;
        }
        let mut out = vec![0u8; width];
        loop {
            let mut changed = false;
            for i in (0..n).rev() {
                live.union_out(i, &mut out);
                let inst = &self.insts[i];
                for (d, mask) in inst.defs() {
                    if let Some(k) = live.slot(d) {
                        out[k] &= !mask;
                    }
                }
                let mask = inst.dst.map(|d| d.1).unwrap_or(0xF);
                for (s, reads) in inst.src.iter().zip(src_reads(inst, mask)) {
                    if s.reg.file == RegFile::Temp {
                        out[s.reg.index as usize] |= reads;
                    }
                }
                let row = &mut live.rows[i * width..(i + 1) * width];
                if row != out.as_slice() {
                    row.copy_from_slice(&out);
                    changed = true;
                }
            }
            if !changed {
                return live;
            }
        }
    }
}

/// Liveness over the structured control-flow graph: per instruction the component mask of every
/// temporary (then every output) live at its entry.
pub(super) struct Liveness {
    width: usize,
    temps: usize,
    rows: Vec<u8>,
    succ: Vec<Vec<usize>>,
}

impl Liveness {
    /// The row index of a temporary or output register.
    pub fn slot(&self, r: Reg) -> Option<usize> {
        match r.file {
            RegFile::Temp => Some(r.index as usize),
            RegFile::Out => Some(self.temps + r.index as usize),
            _ => None,
        }
    }

    /// The live-after masks of instruction `i` (the union over its successors) into `out`.
    pub fn union_out(&self, i: usize, out: &mut [u8]) {
        out.fill(0);
        for &s in &self.succ[i] {
            let row = &self.rows[s * self.width..(s + 1) * self.width];
            for (o, r) in out.iter_mut().zip(row) {
                *o |= r;
            }
        }
    }

    /// A buffer for [`Liveness::union_out`].
    pub fn buffer(&self) -> Vec<u8> {
        vec![0; self.width]
    }

    /// The temporaries live at the program's entry.
    pub fn entry_temps(&self) -> Vec<u32> {
        let row = &self.rows[..self.width.min(self.rows.len())];
        (0..self.temps)
            .filter(|&t| row.get(t).is_some_and(|&m| m != 0))
            .map(|t| t as u32)
            .collect()
    }

    /// The temporaries live in `row` (a buffer filled by [`Liveness::union_out`]).
    pub fn temps_in(&self, row: &[u8]) -> impl Iterator<Item = u32> + '_ {
        let row: Vec<u32> = (0..self.temps)
            .filter(|&t| row[t] != 0)
            .map(|t| t as u32)
            .collect();
        row.into_iter()
    }
}

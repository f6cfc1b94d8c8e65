//! The structured control-flow graph and liveness over it.

use crate::code::{live_key, src_reads, Code, RegFile, OUT_KEY};
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

    /// Live temporaries and outputs (per component mask) at the entry of each instruction; an
    /// output is keyed `OUT_KEY | index`, and every output is live at the exit.
    pub(super) fn liveness(&self) -> Vec<HashMap<u32, u8>> {
        let n = self.insts.len();
        let succ = self.successors();
        let mut live_in: Vec<HashMap<u32, u8>> = vec![HashMap::new(); n + 1];
        for &o in self.outputs.keys() {
            live_in[n].insert(OUT_KEY | o, 0xF);
        }
        loop {
            let mut changed = false;
            for i in (0..n).rev() {
                let mut out: HashMap<u32, u8> = HashMap::new();
                for &s in &succ[i] {
                    for (&r, &m) in &live_in[s] {
                        *out.entry(r).or_default() |= m;
                    }
                }
                let inst = &self.insts[i];
                if let Some((d, mask)) = inst.dst {
                    if let Some(key) = live_key(d) {
                        if let Some(m) = out.get_mut(&key) {
                            *m &= !mask;
                            if *m == 0 {
                                out.remove(&key);
                            }
                        }
                    }
                }
                let mask = inst.dst.map(|d| d.1).unwrap_or(0xF);
                for (s, reads) in inst.src.iter().zip(src_reads(inst, mask)) {
                    if s.reg.file == RegFile::Temp {
                        *out.entry(s.reg.index).or_default() |= reads;
                    }
                }
                if out != live_in[i] {
                    live_in[i] = out;
                    changed = true;
                }
            }
            if !changed {
                return live_in;
            }
        }
    }

    /// Live temporaries after each instruction (union over successors).
    pub(super) fn live_out(&self, live_in: &[HashMap<u32, u8>]) -> Vec<HashMap<u32, u8>> {
        let succ = self.successors();
        succ.iter()
            .map(|ss| {
                let mut out: HashMap<u32, u8> = HashMap::new();
                for &s in ss {
                    for (&r, &m) in &live_in[s] {
                        *out.entry(r).or_default() |= m;
                    }
                }
                out
            })
            .collect()
    }
}

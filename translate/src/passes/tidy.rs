//! Small clean-ups: merging neighbouring component writes, self moves, unread immediates.

use crate::code::{mask_iter, src_reads, Code, RegFile};
use microcode::tgsi::opcode::{Kind, OutputMode};
use microcode::tgsi::Opcode;
use std::collections::HashMap;

impl Code {
    /// Two neighbouring component-wise instructions of one opcode writing different components of
    /// one register from the same registers (`MUL R.x, A.x, B.x` then `MUL R.y, A.x, B.y`) are one
    /// instruction (`MUL R.xy, A.x, B.xy`), unless the second reads what the first wrote.
    pub(super) fn merge_adjacent(&mut self) {
        let mut i = 0;
        while i + 1 < self.insts.len() {
            let (a, b) = (&self.insts[i], &self.insts[i + 1]);
            // Not SHL / SHR: one instruction shifts every component by the same src1.x.
            let mergeable = a.op == b.op
                && !matches!(a.op, Opcode::Shl | Opcode::Shr)
                && a.op.info().output == OutputMode::ComponentWise
                && a.op.info().kind == Kind::Alu
                && a.sat == b.sat
                && a.src.len() == b.src.len()
                && match (a.dst, b.dst) {
                    (Some((ra, ma)), Some((rb, mb))) => {
                        ra == rb
                            && ma & mb == 0
                            && a.src.iter().zip(&b.src).all(|(x, y)| {
                                x.reg == y.reg
                                    && x.neg == y.neg
                                    && x.abs == y.abs
                                    && !x.rel
                                    && !y.rel
                            })
                            && b.src.iter().all(|y| {
                                y.reg != ra || mask_iter(mb).all(|c| ma & (1 << y.swz[c]) == 0)
                            })
                    }
                    _ => false,
                };
            if !mergeable {
                i += 1;
                continue;
            }
            let b = self.insts.remove(i + 1);
            let a = &mut self.insts[i];
            let (Some((_, ma)), Some((_, mb))) = (a.dst, b.dst) else {
                continue;
            };
            for (x, y) in a.src.iter_mut().zip(&b.src) {
                for c in mask_iter(mb) {
                    x.swz[c] = y.swz[c];
                }
            }
            if let Some((_, m)) = &mut a.dst {
                *m = ma | mb;
            }
        }
    }

    /// `MOV R.m, R` with the identity swizzle on `m` (what allocation can leave) does nothing.
    pub(super) fn remove_self_moves(&mut self) {
        self.insts.retain(|x| {
            !(x.op == Opcode::Mov
                && !x.sat
                && x.dst.is_some_and(|(d, m)| {
                    let s = x.src[0];
                    d == s.reg && !s.neg && !s.abs && mask_iter(m).all(|c| s.swz[c] as usize == c)
                }))
        });
    }

    /// Drops immediate values no instruction reads and renumbers what is left.
    pub(super) fn compact_immediates(&mut self) {
        let mut used: Vec<Vec<u32>> = Vec::new();
        let mut kinds: Vec<bool> = Vec::new();
        let mut remap: HashMap<(u32, u8), (u32, u8)> = HashMap::new();
        let old = std::mem::take(&mut self.imms);
        let old_kinds = std::mem::take(&mut self.imm_is_int);
        // Group per old register: an instruction's operand must stay inside one register.
        for (oi, imm) in old.iter().enumerate() {
            let mut comps: Vec<u8> = Vec::new();
            for x in &self.insts {
                let m = x.dst.map(|d| d.1).unwrap_or(0xF);
                for (y, reads) in x.src.iter().zip(src_reads(x, m)) {
                    if y.reg.file == RegFile::Imm && y.reg.index == oi as u32 {
                        for c in mask_iter(reads) {
                            if !comps.contains(&(c as u8)) {
                                comps.push(c as u8);
                            }
                        }
                    }
                }
            }
            if comps.is_empty() {
                continue;
            }
            comps.sort_unstable();
            let ni = used.len() as u32;
            used.push(comps.iter().map(|&c| imm[c as usize]).collect());
            kinds.push(old_kinds.get(oi).copied().unwrap_or(false));
            for (k, &c) in comps.iter().enumerate() {
                remap.insert((oi as u32, c), (ni, k as u8));
            }
        }
        for x in &mut self.insts {
            let m = x.dst.map(|d| d.1).unwrap_or(0xF);
            let reads = src_reads(x, m);
            for (y, r) in x.src.iter_mut().zip(reads) {
                if y.reg.file != RegFile::Imm {
                    continue;
                }
                let oi = y.reg.index;
                let mut ni = None;
                for c in 0..4 {
                    if let Some(&(n, k)) = remap.get(&(oi, y.swz[c])) {
                        ni = Some(n);
                        y.swz[c] = k;
                    } else if r & (1 << y.swz[c]) == 0 {
                        // An unread component: point it at one that exists.
                        y.swz[c] = 0;
                    }
                }
                if let Some(n) = ni {
                    y.reg.index = n;
                }
            }
        }
        self.imms = used;
        self.imm_is_int = kinds;
    }
}

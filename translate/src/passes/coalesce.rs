//! MOVs folded into the instructions that computed their source.

use crate::code::{is_flow, mask_iter, Code, RegFile};
use microcode::tgsi::opcode::{Kind, OutputMode};
use microcode::tgsi::Opcode;

impl Code {
    /// Folds `MOV x, t` into the instruction that computed `t` when `t` has no other use.
    pub(super) fn coalesce(&mut self) {
        let mut i = 0;
        while i < self.insts.len() {
            match self.coalesce_at(i) {
                // The MOV at i is gone: the next instruction is now at i.
                Some(j) => {
                    self.insts.remove(j);
                }
                None => i += 1,
            }
        }
    }

    /// Tries to fold the MOV at `i` into its source's definitions (all in the straight-line code
    /// before it); returns the MOV's index to remove.
    pub(super) fn coalesce_at(&mut self, i: usize) -> Option<usize> {
        let mv = &self.insts[i];
        if mv.op != Opcode::Mov {
            return None;
        }
        let (dst, dmask) = mv.dst?;
        let s = mv.src[0];
        if s.reg.file != RegFile::Temp || s.neg || s.abs || s.reg == dst {
            return None;
        }
        // Uses of t anywhere else, and its definitions.
        let mut defs = Vec::new();
        for (k, inst) in self.insts.iter().enumerate() {
            if k != i && inst.src.iter().any(|x| x.reg == s.reg) {
                return None;
            }
            // A second destination (DFRACEXP's) is not redirected.
            if inst.dst2.is_some_and(|d| d.0 == s.reg || d.0 == dst) {
                return None;
            }
            if inst.dst.map(|d| d.0) == Some(s.reg) {
                defs.push(k);
            }
        }
        if defs.is_empty() || defs.iter().any(|&d| d > i) {
            return None;
        }
        let d0 = defs[0];
        // Straight-line code between, and nothing else touching dst there.
        for (k, inst) in self.insts[d0..i].iter().enumerate() {
            if is_flow(inst.op) || inst.op.info().kind == Kind::Kill {
                return None;
            }
            if inst.dst.map(|x| x.0) == Some(dst)
                || (k > 0 && inst.src.iter().any(|x| x.reg == dst))
            {
                return None;
            }
            if k > 0 && defs.contains(&(d0 + k)) && inst.src.iter().any(|x| x.reg == dst) {
                return None;
            }
        }
        // Component map: t's component s.swz[c] goes to dst component c.
        let mut map = [None::<usize>; 4];
        for c in mask_iter(dmask) {
            let from = s.swz[c] as usize;
            if map[from].is_some() {
                return None;
            }
            map[from] = Some(c);
        }
        let mut news = Vec::new();
        for &d in &defs {
            let def = &self.insts[d];
            let (_, tmask) = def.dst?;
            let mut new_mask = 0u8;
            for c in mask_iter(tmask) {
                new_mask |= 1 << map[c]?;
            }
            let mut new = def.clone();
            match def.op.info().output {
                OutputMode::ComponentWise => {
                    for src in &mut new.src {
                        let mut swz = src.swz;
                        for (from, to) in map.iter().enumerate() {
                            if let Some(to) = to {
                                swz[*to] = src.swz[from];
                            }
                        }
                        src.swz = swz;
                    }
                }
                OutputMode::Replicated => {}
                _ => {
                    if mask_iter(tmask).any(|c| map[c] != Some(c)) {
                        return None;
                    }
                }
            }
            // Saturation is a float operation: never onto an integer or untyped result.
            if mv.sat
                && (!matches!(def.op.info().kind, Kind::Alu | Kind::Texture)
                    || def.op.info().dst_type != microcode::tgsi::opcode::OperandType::Float)
            {
                return None;
            }
            new.dst = Some((dst, new_mask));
            new.sat = def.sat || mv.sat;
            news.push((d, new));
        }
        for (d, new) in news {
            self.insts[d] = new;
        }
        Some(i)
    }
}

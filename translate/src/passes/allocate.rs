//! Register allocation by interference over liveness.

use crate::code::{Code, Reg, RegFile};

impl Code {
    /// Maps virtual temporaries onto as few TEMP registers as interference allows.
    pub(super) fn allocate(&mut self) {
        let live = self.liveness();
        let n = self.next_temp as usize;
        // Chaitin's rule: a definition interferes with everything live after it (pairs of
        // everything live at once would cost the square of the live set per instruction).
        let mut interfere: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut used = vec![false; n];
        // Temporaries read before any write (zero) are live together from the start.
        let entry = live.entry_temps();
        for &a in &entry {
            interfere[a as usize].extend(entry.iter().filter(|&&b| b != a));
        }
        let mut out = live.buffer();
        for (i, inst) in self.insts.iter().enumerate() {
            for s in &inst.src {
                if s.reg.file == RegFile::Temp {
                    used[s.reg.index as usize] = true;
                }
            }
            let defs: Vec<Reg> = inst
                .defs()
                .map(|(d, _)| d)
                .filter(|d| d.file == RegFile::Temp)
                .collect();
            if defs.is_empty() {
                continue;
            }
            live.union_out(i, &mut out);
            for (j, d) in defs.iter().enumerate() {
                used[d.index as usize] = true;
                // Two destinations of one instruction are written together.
                let others = defs[..j].iter().map(|x| x.index);
                for k in live.temps_in(&out).chain(others) {
                    if k != d.index {
                        interfere[d.index as usize].push(k);
                        interfere[k as usize].push(d.index);
                    }
                }
            }
        }
        let mut colour = vec![u32::MAX; n];
        let mut taken: Vec<bool> = Vec::new();
        for v in 0..n {
            if !used[v] {
                continue;
            }
            taken.clear();
            for &w in &interfere[v] {
                let c = colour[w as usize];
                if c != u32::MAX {
                    if taken.len() <= c as usize {
                        taken.resize(c as usize + 1, false);
                    }
                    taken[c as usize] = true;
                }
            }
            colour[v] = taken.iter().position(|&t| !t).unwrap_or(taken.len()) as u32;
        }
        let map = |r: &mut Reg| {
            if r.file == RegFile::Temp {
                r.index = colour[r.index as usize];
            }
        };
        for inst in &mut self.insts {
            if let Some((d, _)) = &mut inst.dst {
                map(d);
            }
            if let Some((d, _)) = &mut inst.dst2 {
                map(d);
            }
            for s in &mut inst.src {
                map(&mut s.reg);
            }
        }
        self.next_temp = colour
            .iter()
            .filter(|&&c| c != u32::MAX)
            .map(|c| c + 1)
            .max()
            .unwrap_or(0);
    }
}

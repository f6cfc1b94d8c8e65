//! Register allocation by interference over liveness.

use crate::code::{Code, Reg, RegFile, OUT_KEY};

impl Code {
    /// Maps virtual temporaries onto as few TEMP registers as interference allows.
    pub(super) fn allocate(&mut self) {
        let live_in = self.liveness();
        let live_out = self.live_out(&live_in);
        let n = self.next_temp as usize;
        let mut interfere = vec![std::collections::BTreeSet::new(); n];
        let mut used = vec![false; n];
        for (i, inst) in self.insts.iter().enumerate() {
            let mut live: Vec<u32> = live_out[i]
                .keys()
                .copied()
                .filter(|k| k & OUT_KEY == 0)
                .collect();
            if let Some((d, _)) = inst.dst {
                if d.file == RegFile::Temp {
                    used[d.index as usize] = true;
                    live.push(d.index);
                }
            }
            for s in &inst.src {
                if s.reg.file == RegFile::Temp {
                    used[s.reg.index as usize] = true;
                }
            }
            live.sort_unstable();
            live.dedup();
            for &a in &live {
                for &b in &live {
                    if a != b {
                        interfere[a as usize].insert(b);
                    }
                }
            }
        }
        let mut colour = vec![u32::MAX; n];
        for v in 0..n {
            if !used[v] {
                continue;
            }
            let taken: std::collections::BTreeSet<u32> = interfere[v]
                .iter()
                .map(|&w| colour[w as usize])
                .filter(|&c| c != u32::MAX)
                .collect();
            colour[v] = (0..).find(|c| !taken.contains(c)).unwrap_or(0);
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

//! The passes that make the lowered code tight, each in its own module, run to a fixed point by
//! [`optimise`](Code::optimise): MOV coalescing, MAD fusion, read-only copy propagation, merging
//! of neighbouring component writes, common subexpressions, dead-code removal; then register
//! allocation over the control-flow graph's liveness.

mod allocate;
mod coalesce;
mod cse;
mod dead;
mod liveness;
mod mad;
mod propagate;
mod tidy;

use crate::code::Code;

impl Code {
    /// Runs the passes: coalescing, dead code, register allocation.
    pub fn optimise(&mut self) {
        self.compact_temps();
        // Each pass can open work for the others (a narrowed mask, a removed use): to a fixed point.
        loop {
            let before = self.insts.clone();
            self.coalesce();
            self.fuse_mad();
            self.propagate_read_only();
            self.merge_adjacent();
            self.common_subexpressions();
            self.remove_dead();
            if self.insts == before {
                break;
            }
        }
        self.allocate();
        self.remove_self_moves();
        self.compact_immediates();
    }

    /// Renumbers the temporaries instructions use densely (storage for variables nobody touches
    /// takes no room in the liveness rows).
    fn compact_temps(&mut self) {
        let mut map = vec![u32::MAX; self.next_temp as usize];
        let mut next = 0u32;
        let mut visit = |r: &mut crate::code::Reg| {
            if r.file == crate::code::RegFile::Temp {
                let slot = &mut map[r.index as usize];
                if *slot == u32::MAX {
                    *slot = next;
                    next += 1;
                }
                r.index = *slot;
            }
        };
        for inst in &mut self.insts {
            if let Some((d, _)) = &mut inst.dst {
                visit(d);
            }
            if let Some((d, _)) = &mut inst.dst2 {
                visit(d);
            }
            for s in &mut inst.src {
                visit(&mut s.reg);
            }
        }
        self.next_temp = next;
    }
}

//! Writes nobody reads.

use crate::code::{live_key, Code};
use microcode::tgsi::opcode::OutputMode;
use microcode::tgsi::Opcode;

impl Code {
    /// Removes writes to temporaries nobody reads; narrows write masks to what is read.
    pub(super) fn remove_dead(&mut self) {
        let live_in = self.liveness();
        let live_out = self.live_out(&live_in);
        let mut keep = vec![true; self.insts.len()];
        for (i, inst) in self.insts.iter_mut().enumerate() {
            if let Some((d, mask)) = &mut inst.dst {
                let Some(key) = live_key(*d) else {
                    continue;
                };
                let live = live_out[i].get(&key).copied().unwrap_or(0) & *mask;
                if live == 0 {
                    keep[i] = false;
                } else if matches!(
                    inst.op.info().output,
                    OutputMode::ComponentWise | OutputMode::Replicated
                ) || matches!(
                    inst.op,
                    Opcode::Tex | Opcode::Txb | Opcode::Txl | Opcode::Txd
                ) {
                    *mask = live;
                }
            }
        }
        let mut k = keep.into_iter();
        self.insts.retain(|_| k.next().unwrap());
    }
}

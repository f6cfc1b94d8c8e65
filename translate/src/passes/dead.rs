//! Writes nobody reads.

use crate::code::Code;
use microcode::tgsi::opcode::OutputMode;
use microcode::tgsi::Opcode;

impl Code {
    /// Removes writes to temporaries nobody reads; narrows write masks to what is read.
    pub(super) fn remove_dead(&mut self) {
        let live = self.liveness();
        let mut out = live.buffer();
        let mut keep = vec![true; self.insts.len()];
        for (i, inst) in self.insts.iter_mut().enumerate() {
            if inst.dst2.is_some() {
                // Two results (DFRACEXP): kept whole while either is read.
                live.union_out(i, &mut out);
                keep[i] = inst
                    .defs()
                    .any(|(d, m)| live.slot(d).is_none_or(|k| out[k] & m != 0));
                continue;
            }
            let Some((d, mask)) = &mut inst.dst else {
                continue;
            };
            let Some(k) = live.slot(*d) else {
                continue;
            };
            live.union_out(i, &mut out);
            let used = out[k] & *mask;
            if used == 0 {
                keep[i] = false;
            } else if matches!(
                inst.op.info().output,
                OutputMode::ComponentWise | OutputMode::Replicated
            ) || matches!(
                inst.op,
                Opcode::Tex | Opcode::Txb | Opcode::Txl | Opcode::Txd
            ) {
                *mask = used;
            }
        }
        let mut k = keep.into_iter();
        self.insts.retain(|_| k.next().unwrap_or(true));
    }
}

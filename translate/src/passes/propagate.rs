//! Copies from read-only registers read in place.

use crate::code::{src_reads, Code, RegFile, Src};
use microcode::tgsi::Opcode;

impl Code {
    /// Replaces reads of a temporary written once, at the top level, by a MOV from a read-only
    /// register (IN, CONST, IMM) with reads of that register.
    pub(super) fn propagate_read_only(&mut self) -> bool {
        let mut depth = 0usize;
        let mut changed = false;
        let mut i = 0;
        while i < self.insts.len() {
            let inst = &self.insts[i];
            if matches!(inst.op, Opcode::EndIf | Opcode::EndLoop) {
                depth = depth.saturating_sub(1);
            }
            let top = depth == 0;
            if matches!(inst.op, Opcode::If | Opcode::BgnLoop) {
                depth += 1;
            }
            if !top || inst.op != Opcode::Mov || inst.sat {
                i += 1;
                continue;
            }
            let Some((t, mask)) = inst.dst else {
                i += 1;
                continue;
            };
            let s = inst.src[0];
            if t.file != RegFile::Temp
                || s.rel
                || !matches!(s.reg.file, RegFile::In | RegFile::Const | RegFile::Imm)
            {
                i += 1;
                continue;
            }
            let single = self
                .insts
                .iter()
                .enumerate()
                .all(|(k, x)| k == i || !x.writes(t));
            // A negate or absolute value moves into the readers only where they read it as a
            // float (integer opcodes negate as int32).
            let modified = s.neg || s.abs;
            let uses_ok = self.insts.iter().enumerate().all(|(k, x)| {
                let m = x.dst.map(|d| d.1).unwrap_or(0xF);
                let int_view = x.op.info().src_type.is_integer();
                x.src.iter().zip(src_reads(x, m)).all(|(y, reads)| {
                    y.reg != t || (k > i && reads & !mask == 0 && !(modified && int_view))
                })
            });
            if !single || !uses_ok {
                i += 1;
                continue;
            }
            for x in &mut self.insts[i + 1..] {
                for y in &mut x.src {
                    if y.reg == t {
                        let swz = y.swz.map(|c| s.swz[c as usize]);
                        *y = Src {
                            rel: false,
                            reg: s.reg,
                            swz,
                            abs: y.abs || s.abs,
                            neg: if y.abs { y.neg } else { y.neg ^ s.neg },
                        };
                    }
                }
            }
            self.insts.remove(i);
            changed = true;
        }
        changed
    }
}

//! MUL then ADD fused into MAD (the same bits: MAD rounds twice).

use crate::code::{is_flow, mask_iter, Code, Inst, Reg, RegFile};
use microcode::tgsi::opcode::Kind;
use microcode::tgsi::Opcode;

impl Code {
    /// `MUL t, a, b` then `ADD d, t, c` (t read nowhere else) is `MAD d, a, b, c`: MAD rounds the
    /// product and the sum separately (`decisions.md`), so the result is the same bits.
    pub(super) fn fuse_mad(&mut self) {
        let mut i = 0;
        while i < self.insts.len() {
            if let Some(d) = self.fuse_at(i) {
                // The MUL before i is gone: the MAD is now at i - 1.
                self.insts.remove(d);
                continue;
            }
            i += 1;
        }
    }

    pub(super) fn fuse_at(&mut self, i: usize) -> Option<usize> {
        let add = &self.insts[i];
        if add.op != Opcode::Add {
            return None;
        }
        let (_, amask) = add.dst?;
        for k in 0..2 {
            let t = add.src[k];
            if t.reg.file != RegFile::Temp || t.abs {
                continue;
            }
            let other = add.src[1 - k];
            let mut defs = Vec::new();
            let mut other_use = false;
            for (j, x) in self.insts.iter().enumerate() {
                if j != i && x.src.iter().any(|y| y.reg == t.reg) {
                    other_use = true;
                }
                if x.writes(t.reg) {
                    defs.push(j);
                }
            }
            if other_use || defs.len() != 1 || defs[0] > i || other.reg == t.reg {
                continue;
            }
            let d = defs[0];
            let mul = &self.insts[d];
            if mul.op != Opcode::Mul || mul.sat {
                continue;
            }
            let (_, mmask) = mul.dst?;
            if mask_iter(amask).any(|c| mmask & (1 << t.swz[c]) == 0) {
                continue;
            }
            // MUL's operands unchanged and nothing but straight-line code between.
            let regs: Vec<Reg> = mul.src.iter().map(|y| y.reg).collect();
            let clean = self.insts[d + 1..i].iter().all(|x| {
                !is_flow(x.op)
                    && x.op.info().kind != Kind::Kill
                    && !x.defs().any(|(r, _)| regs.contains(&r))
            });
            if !clean {
                continue;
            }
            let mut a = mul.src[0];
            let mut b = mul.src[1];
            let mut swz_a = [0u8; 4];
            let mut swz_b = [0u8; 4];
            for c in 0..4 {
                swz_a[c] = a.swz[t.swz[c] as usize];
                swz_b[c] = b.swz[t.swz[c] as usize];
            }
            a.swz = swz_a;
            b.swz = swz_b;
            if t.neg {
                a.neg = !a.neg;
                if a.abs {
                    // -|a| * b cannot be said with one modifier set on a: negate b instead.
                    a.neg = !a.neg;
                    b.neg = !b.neg;
                    if b.abs {
                        continue;
                    }
                }
            }
            let new = Inst {
                op: Opcode::Mad,
                dst: add.dst,
                dst2: None,
                src: vec![a, b, other],
                sat: add.sat,
                target: None,
            };
            self.insts[i] = new;
            return Some(d);
        }
        None
    }
}

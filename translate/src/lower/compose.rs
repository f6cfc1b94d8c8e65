//! Vectors built from components (`vec3(a.xy, 1.0)`): a swizzle when one register holds them
//! all, an immediate when they are all constants, else a MOV per run of components from one
//! register. Other compositions (matrices, arrays, structs) are aggregates of their parts.

use super::value::{is_int, Value};
use super::Lower;
use crate::code::{Code, RegFile, Src};
use crate::TranslateError;
use microcode::tgsi::Opcode;
use naga::{Expression, Handle, TypeInner};

impl<'a> Lower<'a> {
    /// A `Compose` expression of type `ty`.
    pub(super) fn compose_expr(
        &mut self,
        ty: Handle<naga::Type>,
        components: &[Handle<Expression>],
    ) -> Result<Value, TranslateError> {
        let inner = self.ty(ty);
        if let TypeInner::Vector { size, .. } = inner {
            let size = *size as usize;
            let mut parts: Vec<Src> = Vec::new();
            for c in components {
                let (s, n) = self.vec(*c)?;
                parts.extend((0..n).map(|i| s.comp(i)));
            }
            return Ok(self.compose(&parts[..size.min(parts.len())], is_int(inner)));
        }
        let mut v = Vec::new();
        for c in components {
            v.push(self.expr(*c)?);
        }
        Ok(Value::Agg(v))
    }

    /// A vector from per-component sources: one MOV per run of components from one register.
    pub(super) fn compose(&mut self, parts: &[Src], int: bool) -> Value {
        let size = parts.len();
        // All components from one register with the same modifiers: a swizzle, no instruction.
        if parts
            .iter()
            .all(|p| p.reg == parts[0].reg && p.neg == parts[0].neg && p.abs == parts[0].abs)
        {
            let mut swz = [0u8; 4];
            for i in 0..4 {
                swz[i] = parts[i.min(size - 1)].swz[0];
            }
            return Value::V {
                src: Src { swz, ..parts[0] },
                size,
            };
        }
        let imm_bits = |code: &Code, p: &Src| {
            let b = code.imms[p.reg.index as usize][p.swz[0] as usize];
            let b = if p.abs { b & 0x7FFF_FFFF } else { b };
            if p.neg {
                b ^ 0x8000_0000
            } else {
                b
            }
        };
        // All constant: one immediate, no instruction.
        if parts.iter().all(|p| p.reg.file == RegFile::Imm) {
            let vals: Vec<u32> = parts.iter().map(|p| imm_bits(&self.code, p)).collect();
            return Value::V {
                src: if int {
                    self.code.imm_int(&vals)
                } else {
                    self.code.imm(&vals)
                },
                size,
            };
        }
        // Constants together in one immediate.
        let r = self.code.temp();
        let mut done = vec![false; size];
        let imm_comps: Vec<usize> = (0..size)
            .filter(|&i| parts[i].reg.file == RegFile::Imm)
            .collect();
        if imm_comps.len() > 1 {
            let vals: Vec<u32> = imm_comps
                .iter()
                .map(|&i| imm_bits(&self.code, &parts[i]))
                .collect();
            let s = if int {
                self.code.imm_int(&vals)
            } else {
                self.code.imm(&vals)
            };
            let mut swz = [0u8; 4];
            let mut mask = 0u8;
            for (k, &i) in imm_comps.iter().enumerate() {
                swz[i] = s.swz[k];
                mask |= 1 << i;
                done[i] = true;
            }
            self.code
                .push(Opcode::Mov, Some((r, mask)), vec![Src { swz, ..s }]);
        }
        for i in 0..size {
            if done[i] {
                continue;
            }
            let p = parts[i];
            let mut mask = 0u8;
            let mut swz = [p.swz[0]; 4];
            for j in i..size {
                let q = parts[j];
                if !done[j] && q.reg == p.reg && q.neg == p.neg && q.abs == p.abs {
                    mask |= 1 << j;
                    swz[j] = q.swz[0];
                    done[j] = true;
                }
            }
            self.code
                .push(Opcode::Mov, Some((r, mask)), vec![Src { swz, ..p }]);
        }
        Value::V {
            src: Src::reg(r),
            size,
        }
    }
}

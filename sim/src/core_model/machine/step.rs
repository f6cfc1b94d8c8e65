//! The machine's instruction path for what does not run decoded ([`super::decode::Exec::Other`]):
//! texture sampling and texel fetches, the double opcodes, the address stack, the relative
//! moves and the derivatives (which read other lanes), and an operation whose unit the core
//! lacks, which faults here.

use super::{saturate, Machine};
use crate::core_model::{CoreFault, FaultKind};
use crate::run_io::LANES;
use microcode::arith;
use microcode::arith::texel;
use microcode::core::eval::component;
use microcode::core::isa::{Instr, Op, Operand, SrcFile, Unit, SWZ_ZERO};

impl Machine<'_> {
    /// Faults at `pc` when `i`'s unit is not in the core the image was compiled for.
    fn require(&self, pc: usize, i: &Instr) -> Result<(), CoreFault> {
        let need = i.op.info().unit.feature();
        if need != 0 && !self.img.config.has(need) {
            return Err(self.fault(
                pc,
                FaultKind::MissingUnit {
                    op: i.op.mnemonic(),
                },
            ));
        }
        Ok(())
    }

    /// Executes one instruction; returns the next address, or `None` at END.
    pub(super) fn step(&mut self, pc: usize, i: &Instr) -> Result<Option<usize>, CoreFault> {
        self.require(pc, i)?;
        let info = i.op.info();
        if matches!(i.op, Op::Pusha | Op::Popa) {
            self.address_stack(pc, i)?;
            return Ok(Some(pc + 1));
        }
        if i.op == Op::Tfet {
            self.texel_fetch(pc, i)?;
            return Ok(Some(pc + 1));
        }
        if i.op == Op::Txq {
            // A move of the size descriptor, once a texture is known to be bound.
            let unit = usize::from(i.target);
            if self
                .inputs
                .textures
                .get(unit)
                .and_then(Option::as_ref)
                .is_none()
            {
                return Err(self.fault(pc, FaultKind::MissingTexture { unit }));
            }
            self.alu(i);
            return Ok(Some(pc + 1));
        }
        if matches!(i.op, Op::Tex | Op::Txf) {
            self.texture(pc, i)?;
            return Ok(Some(pc + 1));
        }
        if i.op == Op::Dop {
            self.double(pc, i)?;
            return Ok(Some(pc + 1));
        }
        if info.unit != Unit::Flow {
            // The relative moves and the derivatives ([`Exec::Other`]); every other
            // component-wise operation runs decoded.
            self.alu(i);
            return Ok(Some(pc + 1));
        }
        self.flow(pc, i)
    }

    /// DOP: the double opcode `target & 0xFF` through the reference model's binary64 kernels
    /// (`crate::reference::ops_double`), on operands whose swizzles the core applies and whose
    /// neg (high components) and abs act on each pair's sign.
    fn double(&mut self, pc: usize, i: &Instr) -> Result<(), CoreFault> {
        let bad = |m: &Self| m.fault(pc, FaultKind::BadDoubleOp { target: i.target });
        let op = microcode::tgsi::Opcode::from_number((i.target & 0xFF) as u8)
            .filter(|o| o.info().src_type == microcode::tgsi::opcode::OperandType::Double)
            .ok_or_else(|| bad(self))?;
        let second = i.target & microcode::core::isa::DOP_SECOND != 0;
        let active = self.e;
        for l in (0..LANES).filter(|&l| active[l]) {
            let s = i.src.map(|o| {
                let mut v = self.read(
                    &Operand {
                        neg: 0,
                        abs: false,
                        ..o
                    },
                    l,
                );
                for hi in [1, 3] {
                    if o.abs {
                        v[hi] &= 0x7FFF_FFFF;
                    }
                    if o.neg & (1 << hi) != 0 {
                        v[hi] ^= 0x8000_0000;
                    }
                }
                v
            });
            let results = crate::reference::ops_double::eval(op, &s).ok_or_else(|| bad(self))?;
            let out = results[usize::from(second)].map(|w| w.unwrap_or(0));
            self.write(i, l, out);
        }
        Ok(())
    }

    /// TEX / TXF / TXQ through the sampler bound to the unit (the texture memory's contents and
    /// the filtering sequence, shared with the reference model: `decisions.md` section 6).
    fn texture(&mut self, pc: usize, i: &Instr) -> Result<(), CoreFault> {
        let unit = usize::from(i.src[1].index);
        let sampler = self
            .inputs
            .textures
            .get(unit)
            .and_then(Option::as_ref)
            .ok_or(CoreFault {
                pc,
                kind: FaultKind::MissingTexture { unit },
            })?;
        let target = microcode::tgsi::TextureTarget::from_number(u32::from(i.src[2].index))
            .unwrap_or(microcode::tgsi::TextureTarget::Unknown);
        let active = self.e;
        for l in (0..LANES).filter(|&l| active[l]) {
            let a = self.read(&i.src[0], l);
            let out = match i.op {
                Op::Txf => sampler.fetch(target, a.map(|x| x as i32)),
                _ => sampler.sample(target, a.map(|x| f32::from_bits(arith::bits::flush(x)))),
            };
            self.write(i, l, out);
        }
        Ok(())
    }

    /// TFET: channel c of the texel at address A.c of the texture bound to unit `target` (the
    /// address is relative to the texture's base: `arith::texel::SamplerLayout::texel_of`).
    fn texel_fetch(&mut self, pc: usize, i: &Instr) -> Result<(), CoreFault> {
        let unit = usize::from(i.target);
        let sampler = self
            .inputs
            .textures
            .get(unit)
            .and_then(Option::as_ref)
            .ok_or(CoreFault {
                pc,
                kind: FaultKind::MissingTexture { unit },
            })?;
        let layout = sampler.layout();
        let active = self.e;
        for l in (0..LANES).filter(|&l| active[l]) {
            let a = self.read(&i.src[0], l);
            let out: [u32; 4] = std::array::from_fn(|c| {
                if a[c] & texel::OUTSIDE != 0 {
                    return 0;
                }
                layout.map_or(0, |layout| {
                    let (x, y, z) = layout.texel_of(a[c]);
                    sampler.fetch(layout.fetch_target(), [x as i32, y as i32, z as i32, 0])[c]
                })
            });
            self.write(i, l, out);
        }
        Ok(())
    }

    /// PUSHA / POPA: each active lane's own address stack, of the configuration's depth.
    fn address_stack(&mut self, pc: usize, i: &Instr) -> Result<(), CoreFault> {
        let depth = usize::from(self.img.config.address_stack_depth);
        let active = self.e;
        for l in (0..LANES).filter(|&l| active[l]) {
            if i.op == Op::Pusha {
                if self.addr_stack[l].len() >= depth {
                    return Err(self.fault(pc, FaultKind::AddressStackOverflow { lane: l, depth }));
                }
                let v = self.read(&i.src[0], l);
                self.addr_stack[l].push(v);
            } else {
                let v = self.addr_stack[l].pop().ok_or(CoreFault {
                    pc,
                    kind: FaultKind::AddressStackUnderflow { lane: l },
                })?;
                self.write(i, l, v);
            }
        }
        Ok(())
    }

    /// MOVR's relative read for one lane (see its row in the ISA table).
    fn read_relative(&self, i: &Instr, lane: usize) -> [u32; 4] {
        let addr_reg = self
            .r
            .get(usize::from(i.src[1].index))
            .map_or([0; 4], |v| v.lane(lane));
        let addr = i64::from(addr_reg[usize::from(i.src[1].swz[0] & 3)] as i32);
        // The target field holds a 10-bit two's complement offset.
        let off = i64::from(i.offset());
        let k = addr + off;
        let mut o = i.src[0];
        if (0..=i64::from(i.src[2].index)).contains(&k) {
            // In range: the slot index fits the 8-bit operand index by construction.
            o.index = (i64::from(o.index) + k).clamp(0, 255) as u8;
            self.read(&o, lane)
        } else {
            o.file = SrcFile::L;
            o.index = 0;
            o.swz = o.swz.map(|s| if s < 4 { SWZ_ZERO } else { s });
            self.read(&o, lane)
        }
    }

    /// MOVW's relative write (see its row in the ISA table).
    fn write_relative(&mut self, i: &Instr) {
        let active = self.e;
        for l in (0..LANES).filter(|&l| active[l]) {
            let addr_reg = self
                .r
                .get(usize::from(i.src[1].index))
                .map_or([0; 4], |v| v.lane(l));
            let addr = i64::from(addr_reg[usize::from(i.src[1].swz[0] & 3)] as i32);
            let off = i64::from(i.offset());
            let k = addr + off;
            if !(0..=i64::from(i.src[2].index)).contains(&k) {
                continue;
            }
            let v = self.read(&i.src[0], l);
            let mut to = *i;
            to.dst = (i64::from(i.dst) + k).clamp(0, 255) as u8;
            self.write(&to, l, v);
        }
    }

    /// A component-wise operation on the instruction path, lane by lane (the relative moves,
    /// the derivatives, TXQ's move of the size descriptor): the decoded path's destination
    /// stage, without the decoded operands.
    pub(super) fn alu(&mut self, i: &Instr) {
        if i.op == Op::Movw {
            self.write_relative(i);
            return;
        }
        // Derivatives read every lane's operand; nothing else needs them.
        let all: [[u32; 4]; LANES] = if matches!(i.op, Op::Ddx | Op::Ddy) {
            std::array::from_fn(|l| self.read(&i.src[0], l))
        } else {
            [[0; 4]; LANES]
        };
        let active = self.e;
        // Operands the operation does not read (its ISA row's source count) stay zero.
        let sources = i.op.info().sources;
        let dst = usize::from(i.dst);
        if dst >= self.r.len() {
            return;
        }
        for l in (0..LANES).filter(|&l| active[l]) {
            // The components this lane writes: only those are evaluated.
            let p = self.p[l];
            let written: [bool; 4] = std::array::from_fn(|c| {
                i.wmask & (1 << c) != 0
                    && match i.pw {
                        1 => p[c],
                        2 => !p[c],
                        _ => true,
                    }
            });
            if !written.iter().any(|&w| w) {
                continue;
            }
            let a = if i.op == Op::Movr {
                self.read_relative(i, l)
            } else {
                self.read(&i.src[0], l)
            };
            let b = if sources >= 2 {
                self.read(&i.src[1], l)
            } else {
                [0; 4]
            };
            let c3 = if sources >= 3 {
                self.read(&i.src[2], l)
            } else {
                [0; 4]
            };
            for c in (0..4).filter(|&c| written[c]) {
                let (x, y, z) = (a[c], b[c], c3[c]);
                let v = match i.op {
                    Op::Ddx => arith::fsub(all[l | 1][c], all[l & 2][c]),
                    Op::Ddy => arith::fsub(all[l | 2][c], all[l & 1][c]),
                    op => component(op, i.cond, x, y, z, p[c]),
                };
                self.r[dst].0[c][l] = saturate(i.sat, v);
            }
        }
    }
}

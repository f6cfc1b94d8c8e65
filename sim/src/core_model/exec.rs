//! The core model's machine: state and the per-instruction step.

use super::{CoreFault, FaultKind, ENGINE};
use crate::run_io::{LaneOutput, RunInputs, RunOutput, LANES};
use microcode::arith;
use microcode::core::config::Features;
use microcode::core::disasm::instr_text;
use microcode::core::image::ConstSource;
use microcode::core::isa::{Cond, DstKind, Instr, Op, Operand, SrcFile, Unit, SWZ_ONE, SWZ_ZERO};
use microcode::core::Image;

const SIGN: u32 = 0x8000_0000;
const ONE: u32 = 0x3F80_0000;
/// MODULATE factors by `scale` field value.
const SCALE: [u32; 7] = [
    0x3F80_0000,
    0x4000_0000,
    0x4080_0000,
    0x4100_0000,
    0x3F00_0000,
    0x3E80_0000,
    0x3E00_0000,
];

type Mask = [bool; LANES];

enum Frame {
    If { entry: Mask, cond: Mask },
    Loop { entry: Mask, live: Mask },
}

pub(super) struct Machine<'a> {
    img: &'a Image,
    budget: u64,
    r: Vec<[[u32; 4]; LANES]>,
    k: Vec<[u32; 4]>,
    p: [[bool; 4]; LANES],
    e: Mask,
    killed: Mask,
    stack: Vec<Frame>,
    cycles: u64,
    count: u64,
}

fn any(m: Mask) -> bool {
    m.iter().any(|&x| x)
}

fn and_not(a: Mask, b: Mask) -> Mask {
    std::array::from_fn(|l| a[l] && !b[l])
}

fn cond(c: Cond, a: u32, b: u32) -> bool {
    match c {
        Cond::Lt => arith::flt(a, b),
        Cond::Ge => arith::fge(a, b),
        Cond::Eq => arith::feq(a, b),
        Cond::Ne => arith::fne(a, b),
        Cond::Gt => arith::fgt(a, b),
        Cond::Le => arith::fle(a, b),
        Cond::Fl => false,
        Cond::Tr => true,
    }
}

impl<'a> Machine<'a> {
    pub fn new(img: &'a Image, inputs: &RunInputs) -> Machine<'a> {
        let regs = usize::from(img.config.registers);
        let mut r = vec![[[0u32; 4]; LANES]; regs];
        for m in &img.inputs {
            if let (Some(v), Some(slot)) = (
                inputs.inputs.get(&u32::from(m.tgsi)),
                r.get_mut(usize::from(m.reg)),
            ) {
                *slot = *v;
            }
        }
        let mut k = vec![[0u32; 4]; usize::from(img.config.constants)];
        for c in &img.constants {
            let v = match c.source {
                ConstSource::Data(d) => d,
                ConstSource::Buffer { buffer, index } => inputs
                    .constants
                    .get(&(u32::from(buffer), u32::from(index)))
                    .copied()
                    .unwrap_or([0; 4]),
            };
            if let Some(slot) = k.get_mut(usize::from(c.k)) {
                *slot = v;
            }
        }
        Machine {
            img,
            budget: inputs.budget,
            r,
            k,
            p: [[false; 4]; LANES],
            e: [true; LANES],
            killed: [false; LANES],
            stack: Vec::new(),
            cycles: 0,
            count: 0,
        }
    }

    fn read(&self, o: &Operand, lane: usize) -> [u32; 4] {
        let base = match o.file {
            SrcFile::R => self.r.get(usize::from(o.index)).map_or([0; 4], |v| v[lane]),
            SrcFile::K => self.k.get(usize::from(o.index)).copied().unwrap_or([0; 4]),
            SrcFile::L => {
                [self.img
                    .config
                    .literals
                    .get(usize::from(o.index))
                    .copied()
                    .unwrap_or(0); 4]
            }
        };
        std::array::from_fn(|c| {
            let mut v = match o.swz[c] {
                s @ 0..=3 => base[usize::from(s)],
                SWZ_ZERO => 0,
                SWZ_ONE => ONE,
                _ => 0,
            };
            if o.abs {
                v &= !SIGN;
            }
            if o.neg & (1 << c) != 0 {
                v ^= SIGN;
            }
            v
        })
    }

    fn fault(&self, pc: usize, kind: FaultKind) -> CoreFault {
        CoreFault { pc, kind }
    }

    pub fn run(mut self, mut trace: Option<&mut dyn FnMut(&str)>) -> Result<RunOutput, CoreFault> {
        let mut pc = 0usize;
        while let Some(i) = self.img.code.get(pc).copied() {
            if !any(and_not([true; LANES], self.killed)) {
                break;
            }
            if self.count >= self.budget {
                return Err(self.fault(
                    pc,
                    FaultKind::BudgetExhausted {
                        budget: self.budget,
                    },
                ));
            }
            self.count += 1;
            self.cycles += i.op.info().cycles(i.wmask);
            if let Some(t) = trace.as_mut() {
                let e: String = self.e.iter().map(|&x| if x { '1' } else { '0' }).collect();
                t(&format!(
                    "{pc:4}: {:<52} E={e} clk={}",
                    instr_text(&i),
                    self.cycles
                ));
            }
            match self.step(pc, &i)? {
                Some(next) => pc = next,
                None => break,
            }
        }
        Ok(self.finish())
    }

    fn finish(self) -> RunOutput {
        let lanes: [LaneOutput; LANES] = std::array::from_fn(|l| LaneOutput {
            killed: self.killed[l],
            outputs: self
                .img
                .outputs
                .iter()
                .map(|m| {
                    let v = self.r.get(usize::from(m.reg)).map_or([0; 4], |v| v[l]);
                    (u32::from(m.tgsi), v)
                })
                .collect(),
            vertices: Vec::new(),
        });
        RunOutput {
            engine: ENGINE.to_string(),
            lanes,
            instructions: Some(self.count),
            cycles: Some(self.cycles),
            fault: None,
            geometry: false,
            warnings: Vec::new(),
        }
    }

    fn require(&self, pc: usize, i: &Instr) -> Result<(), CoreFault> {
        let need = match i.op.info().unit {
            Unit::Div => Features::DIVIDER,
            Unit::Seq => Features::SEQUENCER,
            Unit::Int => Features::INTEGER,
            _ => 0,
        };
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
    fn step(&mut self, pc: usize, i: &Instr) -> Result<Option<usize>, CoreFault> {
        self.require(pc, i)?;
        let info = i.op.info();
        if info.unit != Unit::Flow {
            match info.dst {
                DstKind::Pred => self.setp(i),
                _ => self.alu(i),
            }
            return Ok(Some(pc + 1));
        }
        let next = pc + 1;
        let target = usize::from(i.target);
        let mismatch = |op| CoreFault {
            pc,
            kind: FaultKind::StackMismatch { op },
        };
        match i.op {
            Op::If => {
                let cond: Mask = std::array::from_fn(|l| self.p[l][0]);
                self.push(
                    pc,
                    Frame::If {
                        entry: self.e,
                        cond,
                    },
                )?;
                self.e = std::array::from_fn(|l| self.e[l] && cond[l]);
                if !any(self.e) {
                    return Ok(Some(target));
                }
            }
            Op::Else => match self.stack.last() {
                Some(Frame::If { entry, cond }) => {
                    self.e = and_not(*entry, *cond);
                    if !any(self.e) {
                        return Ok(Some(target));
                    }
                }
                _ => return Err(mismatch("ELSE")),
            },
            Op::Endif => match self.stack.pop() {
                Some(Frame::If { entry, .. }) => self.e = entry,
                _ => return Err(mismatch("ENDIF")),
            },
            Op::Loop => self.push(
                pc,
                Frame::Loop {
                    entry: self.e,
                    live: self.e,
                },
            )?,
            Op::Endloop => match self.stack.last() {
                Some(Frame::Loop { entry, live }) => {
                    if any(*live) {
                        self.e = *live;
                        return Ok(Some(target));
                    }
                    self.e = *entry;
                    self.stack.pop();
                }
                _ => return Err(mismatch("ENDLOOP")),
            },
            Op::Brk | Op::Cont => {
                let lanes = self.e;
                self.e = [false; LANES];
                for f in self.stack.iter_mut().rev() {
                    match f {
                        Frame::If { entry, .. } => *entry = and_not(*entry, lanes),
                        Frame::Loop { live, .. } => {
                            if i.op == Op::Brk {
                                *live = and_not(*live, lanes);
                            }
                            break;
                        }
                    }
                }
            }
            Op::Kilp => {
                let lanes: Mask = std::array::from_fn(|l| {
                    self.e[l] && (0..4).any(|c| i.wmask & (1 << c) != 0 && self.p[l][c])
                });
                self.kill(lanes);
            }
            Op::Kill => self.kill(self.e),
            Op::End => return Ok(None),
            _ => {}
        }
        Ok(Some(next))
    }

    fn push(&mut self, pc: usize, f: Frame) -> Result<(), CoreFault> {
        let depth = usize::from(self.img.config.mask_stack_depth);
        if self.stack.len() >= depth {
            return Err(self.fault(pc, FaultKind::StackOverflow { depth }));
        }
        self.stack.push(f);
        Ok(())
    }

    fn kill(&mut self, lanes: Mask) {
        for l in 0..LANES {
            self.killed[l] |= lanes[l];
        }
        self.e = and_not(self.e, lanes);
        for f in &mut self.stack {
            match f {
                Frame::If { entry, .. } => *entry = and_not(*entry, lanes),
                Frame::Loop { entry, live } => {
                    *entry = and_not(*entry, lanes);
                    *live = and_not(*live, lanes);
                }
            }
        }
    }

    fn setp(&mut self, i: &Instr) {
        for l in (0..LANES).filter(|&l| self.e[l]) {
            let a = self.read(&i.src[0], l);
            let b = self.read(&i.src[1], l);
            for c in (0..4).filter(|c| i.wmask & (1 << c) != 0) {
                self.p[l][c] = cond(i.cond, a[c], b[c]);
            }
        }
    }

    fn alu(&mut self, i: &Instr) {
        for l in (0..LANES).filter(|&l| self.e[l]) {
            let a = self.read(&i.src[0], l);
            let b = self.read(&i.src[1], l);
            let c3 = self.read(&i.src[2], l);
            let scalar = match i.op {
                Op::Rsq => Some(arith::frsq(a[0])),
                Op::Ex2 => Some(arith::fex2(a[0])),
                Op::Lg2 => Some(arith::flg2(a[0])),
                Op::Sin => Some(arith::fsin(a[0])),
                Op::Cos => Some(arith::fcos(a[0])),
                Op::Pow => Some(arith::fpow(a[0], b[0])),
                _ => None,
            };
            let mut out = [0u32; 4];
            for c in 0..4 {
                let (x, y, z) = (a[c], b[c], c3[c]);
                out[c] = match (scalar, i.op) {
                    (Some(s), _) => s,
                    (_, Op::Mov) => x,
                    (_, Op::Fmad) => arith::fmad(x, y, z),
                    (_, Op::Min) => arith::fmin(x, y),
                    (_, Op::Max) => arith::fmax(x, y),
                    (_, Op::Set) => {
                        if cond(i.cond, x, y) {
                            ONE
                        } else {
                            0
                        }
                    }
                    (_, Op::Sel) => arith::bits::flush(if self.p[l][c] { x } else { y }),
                    (_, Op::Flr) => arith::ffloor(x),
                    (_, Op::Ceil) => arith::fceil(x),
                    (_, Op::Trnc) => arith::ftrunc(x),
                    (_, Op::Rnde) => arith::fround(x),
                    (_, Op::Expx) => arith::fexp2_floor(x),
                    (_, Op::Expn) => arith::fexp_part(x),
                    (_, Op::Mant) => arith::fmant_part(x),
                    (_, Op::F2if) => arith::f2i_floor(x) as u32,
                    (_, Op::F2ir) => arith::f2i_round(x) as u32,
                    (_, Op::I2f) => arith::i2f(x as i32),
                    (_, Op::U2f) => arith::u2f(x),
                    (_, Op::Rcp) => arith::frcp(x),
                    (_, Op::Div) => arith::fdiv(x, y),
                    _ => 0,
                };
            }
            let Some(dst) = self.r.get_mut(usize::from(i.dst)) else {
                continue;
            };
            for (c, &v) in out.iter().enumerate() {
                if i.wmask & (1 << c) == 0 {
                    continue;
                }
                let pass = match i.pw {
                    1 => self.p[l][c],
                    2 => !self.p[l][c],
                    _ => true,
                };
                if !pass {
                    continue;
                }
                let mut v = v;
                if i.scale != 0 {
                    v = arith::fmul(v, SCALE.get(usize::from(i.scale)).copied().unwrap_or(ONE));
                }
                v = match i.sat {
                    1 => arith::fsat01(v),
                    2 => arith::fsat11(v),
                    _ => v,
                };
                dst[l][c] = v;
            }
        }
    }
}

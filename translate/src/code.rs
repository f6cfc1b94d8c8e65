//! The translator's own instruction list: TGSI instructions over virtual temporaries, with the
//! declarations they need. The passes (`crate::passes`) make it tight; `crate::emit` turns it
//! into a `microcode::tgsi::Program`.

use microcode::tgsi::opcode::{Kind, OutputMode};
use microcode::tgsi::{Interpolate, Opcode, SemanticName, TextureTarget};
use std::collections::BTreeMap;

/// A register file the translator writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegFile {
    /// A virtual temporary before allocation, a `TEMP` register after it.
    Temp,
    /// `IN`.
    In,
    /// `OUT`.
    Out,
    /// `CONST`.
    Const,
    /// `IMM`.
    Imm,
    /// `SAMP`.
    Samp,
    /// `ADDR` (only ADDR[0], only written by ARL).
    Addr,
    /// `IMMX`: the constant arrays indexed at run time, one row per register.
    ImmArray,
    /// `SV`: system values (vertex and instance index).
    SystemValue,
}

/// One register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reg {
    pub file: RegFile,
    pub index: u32,
}

impl Reg {
    pub fn temp(index: u32) -> Reg {
        Reg {
            file: RegFile::Temp,
            index,
        }
    }
}

/// A source operand: a register, a swizzle (component `i` reads `swz[i]`), negate and absolute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Src {
    pub reg: Reg,
    pub swz: [u8; 4],
    pub neg: bool,
    pub abs: bool,
    /// Read `reg.file[ADDR[0].x + reg.index]` (a uniform array indexed at run time).
    pub rel: bool,
}

impl Src {
    pub fn reg(reg: Reg) -> Src {
        Src {
            reg,
            swz: [0, 1, 2, 3],
            neg: false,
            abs: false,
            rel: false,
        }
    }
    /// Component `c` replicated to all four.
    pub fn comp(self, c: usize) -> Src {
        Src {
            swz: [self.swz[c]; 4],
            ..self
        }
    }
    pub fn negated(self) -> Src {
        Src {
            neg: !self.neg,
            ..self
        }
    }
}

/// A texture target.
pub type Target = TextureTarget;

/// One instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    pub op: Opcode,
    pub dst: Option<(Reg, u8)>,
    /// The second destination of the one opcode with two (DFRACEXP: the significand).
    pub dst2: Option<(Reg, u8)>,
    pub src: Vec<Src>,
    pub sat: bool,
    pub target: Option<Target>,
}

impl Inst {
    /// Every register the instruction writes, with its mask.
    pub fn defs(&self) -> impl Iterator<Item = (Reg, u8)> {
        self.dst.into_iter().chain(self.dst2)
    }

    /// True when the instruction writes `r` (either destination).
    pub fn writes(&self, r: Reg) -> bool {
        self.defs().any(|(d, _)| d == r)
    }
}

pub(crate) fn mask_iter(mask: u8) -> impl Iterator<Item = usize> {
    (0..4).filter(move |c| mask & (1 << c) != 0)
}

/// Which components of each source an instruction reads when it writes `mask`.
pub(crate) fn src_reads(inst: &Inst, mask: u8) -> Vec<u8> {
    let info = inst.op.info();
    let all = |s: &Src, comps: &[usize]| comps.iter().fold(0u8, |m, &c| m | 1 << s.swz[c]);
    inst.src
        .iter()
        .enumerate()
        .map(|(i, s)| match (inst.op, info.output) {
            // SHL and SHR shift every component by src1.x.
            (Opcode::Shl | Opcode::Shr, _) if i == 1 => all(s, &[0]),
            (_, OutputMode::ComponentWise) => mask_iter(mask).fold(0, |m, c| m | 1 << s.swz[c]),
            (Opcode::Dp2, _) => all(s, &[0, 1]),
            (Opcode::Dp2a, _) => {
                if i == 2 {
                    all(s, &[0])
                } else {
                    all(s, &[0, 1])
                }
            }
            (Opcode::Dp3 | Opcode::Nrm | Opcode::Xpd, _) => all(s, &[0, 1, 2]),
            (Opcode::Pow, _) => all(s, &[0]),
            (_, OutputMode::Replicated) => all(s, &[0]),
            (Opcode::If, _) => all(s, &[0]),
            _ => all(s, &[0, 1, 2, 3]),
        })
        .collect()
}

pub(crate) fn is_flow(op: Opcode) -> bool {
    matches!(op.info().kind, Kind::Flow(_))
}

/// An input declaration: the semantic (name, index) and the interpolation, where there are.
pub type InputDecl = (Option<(SemanticName, u32)>, Option<Interpolate>);

/// A program under construction: instructions, immediates and declarations.
#[derive(Default)]
pub struct Code {
    pub insts: Vec<Inst>,
    pub imms: Vec<Vec<u32>>,
    /// Per immediate: true when it holds integers (printed `UINT32`), false for floats (`FLT32`).
    pub imm_is_int: Vec<bool>,
    pub next_temp: u32,
    /// Declarations of IN: index -> (semantic, interpolation); vertex attributes have neither.
    pub inputs: BTreeMap<u32, InputDecl>,
    /// Declarations of OUT: index -> semantic.
    pub outputs: BTreeMap<u32, (SemanticName, u32)>,
    /// Declarations of SV: index -> semantic.
    pub system_values: BTreeMap<u32, SemanticName>,
    /// The rows of `IMMX` (constant arrays indexed at run time), bit patterns.
    pub imm_array: Vec<[u32; 4]>,
    /// Highest CONST index used plus one.
    pub consts: u32,
    /// SAMP indices used.
    pub samplers: Vec<u32>,
    /// ADDR[0] is written (ARL) for run-time indexing of uniform arrays.
    pub uses_address: bool,
}

impl Code {
    pub fn temp(&mut self) -> Reg {
        self.next_temp += 1;
        Reg::temp(self.next_temp - 1)
    }

    pub fn push(&mut self, op: Opcode, dst: Option<(Reg, u8)>, src: Vec<Src>) {
        self.insts.push(Inst {
            op,
            dst,
            dst2: None,
            src,
            sat: false,
            target: None,
        });
    }

    /// A float immediate holding `values` (bit patterns), sharing an existing `IMM` where it can.
    pub fn imm(&mut self, values: &[u32]) -> Src {
        self.imm_of(values, false)
    }

    /// An integer immediate holding `values`, sharing an existing integer `IMM` where it can.
    pub fn imm_int(&mut self, values: &[u32]) -> Src {
        self.imm_of(values, true)
    }

    fn imm_of(&mut self, values: &[u32], int: bool) -> Src {
        let mut slot = None;
        for (i, imm) in self.imms.iter_mut().enumerate() {
            if self.imm_is_int[i] != int {
                continue;
            }
            let missing: Vec<u32> =
                values
                    .iter()
                    .copied()
                    .filter(|v| !imm.contains(v))
                    .fold(Vec::new(), |mut m, v| {
                        if !m.contains(&v) {
                            m.push(v);
                        }
                        m
                    });
            if imm.len() + missing.len() <= 4 {
                imm.extend(missing);
                slot = Some(i);
                break;
            }
        }
        let i = slot.unwrap_or_else(|| {
            let mut imm = Vec::new();
            for v in values {
                if !imm.contains(v) {
                    imm.push(*v);
                }
            }
            self.imms.push(imm);
            self.imm_is_int.push(int);
            self.imms.len() - 1
        });
        let imm = &self.imms[i];
        let mut swz = [0u8; 4];
        for (c, v) in values.iter().enumerate() {
            swz[c] = imm.iter().position(|x| x == v).unwrap_or(0) as u8;
        }
        for c in values.len()..4 {
            swz[c] = swz[values.len().saturating_sub(1)];
        }
        Src {
            reg: Reg {
                file: RegFile::Imm,
                index: i as u32,
            },
            swz,
            neg: false,
            abs: false,
            rel: false,
        }
    }
}

//! Small helpers that build TGSI programs in memory for the reference-model tests.
#![allow(dead_code)]

use microcode::tgsi::*;
use sim::run_io::{RunInputs, RunOutput};

/// 1.0, 2.0, ... as bits.
pub fn fb(x: f32) -> u32 {
    x.to_bits()
}

/// A vec4 of floats as bits.
pub fn v4(x: [f32; 4]) -> [u32; 4] {
    x.map(f32::to_bits)
}

/// Builds a program step by step.
pub struct Builder {
    pub p: Program,
}

impl Builder {
    pub fn new(processor: Processor) -> Builder {
        Builder {
            p: Program::new(processor),
        }
    }

    /// A fragment program with IN[0..3], OUT[0..3], TEMP[0..7], ADDR[0].
    pub fn frag() -> Builder {
        let mut b = Builder::new(Processor::Fragment);
        b.decl(File::Input, 0, 3);
        b.decl(File::Output, 0, 3);
        b.decl(File::Temporary, 0, 7);
        b.decl(File::Address, 0, 0);
        b
    }

    pub fn decl(&mut self, file: File, first: i32, last: i32) -> &mut Declaration {
        self.p.declarations.push(Declaration {
            file,
            dimension: None,
            first,
            last,
            usage_mask: 0xF,
            semantic: None,
            interpolate: None,
            array_data: Vec::new(),
            loc: Loc::None,
        });
        self.p.declarations.last_mut().unwrap()
    }

    /// Adds `IMM FLT32 {...}` and returns it as a source.
    pub fn imm(&mut self, v: [f32; 4]) -> SrcOperand {
        self.imm_bits(ImmType::Float32, v4(v))
    }

    /// Adds an immediate of any type from bits.
    pub fn imm_bits(&mut self, ty: ImmType, v: [u32; 4]) -> SrcOperand {
        self.p.immediates.push(Immediate {
            ty,
            values: v.to_vec(),
            loc: Loc::None,
        });
        src(File::Immediate, self.p.immediates.len() as i32 - 1)
    }

    /// Appends an instruction and returns its index.
    pub fn op(&mut self, opcode: Opcode, dst: &[DstOperand], src: &[SrcOperand]) -> usize {
        self.push(inst(opcode, dst, src))
    }

    pub fn push(&mut self, i: Instruction) -> usize {
        self.p.instructions.push(i);
        self.p.instructions.len() - 1
    }

    /// Index the next instruction will get.
    pub fn here(&self) -> u32 {
        self.p.instructions.len() as u32
    }
}

pub fn inst(opcode: Opcode, dst: &[DstOperand], src: &[SrcOperand]) -> Instruction {
    let mut i = Instruction::new(opcode);
    i.dst = dst.to_vec();
    i.src = src.to_vec();
    i
}

pub fn src(file: File, index: i32) -> SrcOperand {
    SrcOperand::new(Register::new(file, index))
}

pub fn dst(file: File, index: i32) -> DstOperand {
    DstOperand::new(Register::new(file, index))
}

pub fn inp(i: i32) -> SrcOperand {
    src(File::Input, i)
}
pub fn tmp(i: i32) -> SrcOperand {
    src(File::Temporary, i)
}
pub fn out(i: i32) -> DstOperand {
    dst(File::Output, i)
}
pub fn tmpd(i: i32) -> DstOperand {
    dst(File::Temporary, i)
}
pub fn addrd(i: i32) -> DstOperand {
    dst(File::Address, i)
}

fn letters(s: &str) -> Vec<u8> {
    s.bytes()
        .map(|c| match c {
            b'x' => 0,
            b'y' => 1,
            b'z' => 2,
            b'w' => 3,
            _ => panic!("bad swizzle letter"),
        })
        .collect()
}

/// Operand modifiers in builder style.
pub trait SrcExt {
    fn swz(self, s: &str) -> Self;
    fn neg(self) -> Self;
    fn abs(self) -> Self;
    fn ind(self, file: File, index: i32, component: u8) -> Self;
}

impl SrcExt for SrcOperand {
    fn swz(mut self, s: &str) -> Self {
        let l = letters(s);
        self.swizzle = if l.len() == 1 {
            [l[0]; 4]
        } else {
            [l[0], l[1], l[2], l[3]]
        };
        self
    }
    fn neg(mut self) -> Self {
        self.negate = !self.negate;
        self
    }
    fn abs(mut self) -> Self {
        self.ext_mod.absolute = true;
        self
    }
    fn ind(mut self, file: File, index: i32, component: u8) -> Self {
        self.reg.indirect = Some(Indirect {
            file,
            index,
            component,
        });
        self
    }
}

pub trait DstExt {
    fn mask(self, s: &str) -> Self;
}

impl DstExt for DstOperand {
    fn mask(mut self, s: &str) -> Self {
        self.write_mask = letters(s).iter().fold(0, |m, c| m | (1 << c));
        self
    }
}

/// A condition test on CC register 0 with identity swizzle.
pub fn cc(mask: CondMask, swz: &str) -> CondTest {
    let l = letters(swz);
    CondTest {
        mask,
        index: 0,
        swizzle: if l.len() == 1 {
            [l[0]; 4]
        } else {
            [l[0], l[1], l[2], l[3]]
        },
    }
}

/// Runs and panics with the error text on failure.
pub fn run(b: &Builder, inputs: &RunInputs) -> RunOutput {
    match sim::reference::run(&b.p, inputs) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e}"),
    }
}

/// OUT[i] of each lane.
pub fn outs(o: &RunOutput, i: u32) -> [[u32; 4]; 4] {
    std::array::from_fn(|l| o.lanes[l].outputs[&i])
}

/// Inputs with IN[i] set per lane.
pub fn lanes_input(i: u32, per_lane: [[f32; 4]; 4]) -> RunInputs {
    let mut inputs = RunInputs::default();
    for (l, v) in per_lane.iter().enumerate() {
        inputs.set_input_lane(i, l, v4(*v));
    }
    inputs
}

/// Parses TGSI text (panics with the rendered error).
pub fn prog(text: &str) -> Program {
    microcode::tgsi::text::parse(text).unwrap_or_else(|e| panic!("{}", e.render(text, "test")))
}

/// Parses and runs TGSI text.
pub fn run_text(text: &str, inputs: &RunInputs) -> RunOutput {
    let p = prog(text);
    match sim::reference::run(&p, inputs) {
        Ok(o) => o,
        Err(e) => panic!("run failed: {e}"),
    }
}

/// Parses and runs TGSI text, returning the error.
pub fn run_text_err(text: &str, inputs: &RunInputs) -> sim::reference::RunError {
    let p = prog(text);
    match sim::reference::run(&p, inputs) {
        Ok(_) => panic!("run succeeded"),
        Err(e) => e,
    }
}

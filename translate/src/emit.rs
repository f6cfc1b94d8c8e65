//! The lowered, optimised code as a `microcode::tgsi::Program`: declarations, immediates and
//! instructions built directly (printing is microcode's printer's job).

use crate::code::{Code, Reg, RegFile, Src};
use microcode::tgsi::{
    Declaration, DstOperand, File, ImmType, Immediate, Indirect, Instruction, Loc, Processor,
    Program, Register, Saturate, Semantic, SrcOperand,
};

/// The program `code` describes, for `processor`.
pub(crate) fn program(code: &Code, processor: Processor) -> Program {
    let mut p = Program::new(processor);
    for (&i, (semantic, interp)) in &code.inputs {
        let mut d = declaration(File::Input, i, i);
        d.semantic = semantic.map(|(name, index)| Semantic { name, index });
        d.interpolate = *interp;
        p.declarations.push(d);
    }
    for (&i, &(name, index)) in &code.outputs {
        let mut d = declaration(File::Output, i, i);
        d.semantic = Some(Semantic { name, index });
        p.declarations.push(d);
    }
    for (&i, &name) in &code.system_values {
        let mut d = declaration(File::SystemValue, i, i);
        d.semantic = Some(Semantic { name, index: 0 });
        p.declarations.push(d);
    }
    let mut samplers = code.samplers.clone();
    samplers.sort_unstable();
    samplers.dedup();
    for s in samplers {
        p.declarations.push(declaration(File::Sampler, s, s));
    }
    if code.uses_address {
        p.declarations.push(declaration(File::Address, 0, 0));
    }
    if code.consts > 0 {
        p.declarations
            .push(declaration(File::Constant, 0, code.consts - 1));
    }
    if code.next_temp > 0 {
        p.declarations
            .push(declaration(File::Temporary, 0, code.next_temp - 1));
    }
    if !code.imm_array.is_empty() {
        let mut d = declaration(File::ImmediateArray, 0, code.imm_array.len() as u32 - 1);
        d.array_data = code.imm_array.clone();
        p.declarations.push(d);
    }
    for (values, &int) in code.imms.iter().zip(&code.imm_is_int) {
        p.immediates.push(Immediate {
            ty: if int {
                ImmType::Uint32
            } else {
                ImmType::Float32
            },
            values: values.clone(),
            loc: Loc::None,
        });
    }
    for inst in &code.insts {
        let mut i = Instruction::new(inst.op);
        if inst.sat {
            i.saturate = Saturate::ZeroOne;
        }
        for (r, mask) in inst.defs() {
            let mut d = DstOperand::new(register(r, false));
            d.write_mask = mask;
            i.dst.push(d);
        }
        i.src = inst.src.iter().map(source).collect();
        i.texture = inst.target;
        p.instructions.push(i);
    }
    p
}

fn declaration(file: File, first: u32, last: u32) -> Declaration {
    Declaration {
        file,
        dimension: None,
        first: first as i32,
        last: last as i32,
        usage_mask: 0xF,
        semantic: None,
        interpolate: None,
        array_data: Vec::new(),
        loc: Loc::None,
    }
}

fn file(f: RegFile) -> File {
    match f {
        RegFile::Temp => File::Temporary,
        RegFile::In => File::Input,
        RegFile::Out => File::Output,
        RegFile::Const => File::Constant,
        RegFile::Imm => File::Immediate,
        RegFile::Samp => File::Sampler,
        RegFile::Addr => File::Address,
        RegFile::ImmArray => File::ImmediateArray,
        RegFile::SystemValue => File::SystemValue,
    }
}

/// `FILE[index]`, or `FILE[ADDR[0].x + index]` when `rel`.
fn register(r: Reg, rel: bool) -> Register {
    let mut reg = Register::new(file(r.file), r.index as i32);
    if rel {
        reg.indirect = Some(Indirect {
            file: File::Address,
            index: 0,
            component: 0,
        });
    }
    reg
}

fn source(s: &Src) -> SrcOperand {
    let mut o = SrcOperand::new(register(s.reg, s.rel));
    // A sampler operand carries no swizzle.
    if s.reg.file != RegFile::Samp {
        o.swizzle = s.swz;
    }
    if s.abs {
        o.ext_mod.absolute = true;
        o.ext_mod.negate = s.neg;
    } else {
        o.negate = s.neg;
    }
    o
}

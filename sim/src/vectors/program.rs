//! The tiny program each vector runs in (see [`Shape`]), and its inputs.

use super::{Operand, Shape, Vector};
use crate::run_io::RunInputs;
use crate::texture::Texture;
use microcode::tgsi::{
    Declaration, DstOperand, ExtMod, File, Indirect, Instruction, Opcode, Processor, Program,
    Register, SrcOperand,
};

/// Address values in `[-R, R]` are observed exactly; values beyond read 0 through the indirect read.
pub const ADDRESS_TABLE_RADIUS: i32 = 16;

/// Marker bits the address table holds for address value `v` (never 0, so an out-of-range read of 0
/// is told apart).
pub(super) fn address_marker(v: i32) -> u32 {
    0x4100_0000 | (v + ADDRESS_TABLE_RADIUS) as u32
}

/// The address value a marker stands for, `None` for the 0 of an out-of-range read, `Err` for bits
/// that are neither.
pub(super) fn address_from_marker(bits: u32) -> Result<Option<i32>, ()> {
    if bits == 0 {
        return Ok(None);
    }
    let k = (bits & 0xFF) as i32 - ADDRESS_TABLE_RADIUS;
    if bits & 0xFFFF_FF00 == 0x4100_0000
        && (-ADDRESS_TABLE_RADIUS..=ADDRESS_TABLE_RADIUS).contains(&k)
    {
        Ok(Some(k))
    } else {
        Err(())
    }
}

fn decl(file: File, first: i32, last: i32) -> Declaration {
    Declaration {
        file,
        dimension: None,
        first,
        last,
        usage_mask: 0xF,
        semantic: None,
        interpolate: None,
        array_data: Vec::new(),
        loc: Default::default(),
    }
}

fn src(file: File, index: i32) -> SrcOperand {
    SrcOperand::new(Register::new(file, index))
}

fn dst(file: File, index: i32, mask: u8) -> DstOperand {
    let mut d = DstOperand::new(Register::new(file, index));
    d.write_mask = mask;
    d
}

fn inst(op: Opcode, dsts: Vec<DstOperand>, srcs: Vec<SrcOperand>) -> Instruction {
    let mut i = Instruction::new(op);
    i.dst = dsts;
    i.src = srcs;
    i
}

/// The operand as the instruction reads it from `TEMP[index]`, with the vector's modifiers.
/// `-|x|` needs the EXT_MOD negate (applied after absolute); a lone `-x` is the register Negate bit.
fn modified(index: i32, o: &Operand) -> SrcOperand {
    let mut s = src(File::Temporary, index);
    s.swizzle = o.swizzle;
    s.ext_swizzle = o.ext_swizzle;
    if o.absolute {
        s.ext_mod = ExtMod {
            absolute: true,
            negate: o.negate,
            ..ExtMod::default()
        };
    } else {
        s.negate = o.negate;
    }
    s
}

/// The program and inputs that run one vector (see [`Shape`]).
pub fn program_for(v: &Vector) -> (Program, RunInputs) {
    let info = v.opcode.info();
    let processor = match v.shape {
        Shape::Fragment | Shape::Kill | Shape::Texture(_) => Processor::Fragment,
        Shape::Alu | Shape::Address | Shape::PushPop => Processor::Vertex,
    };
    let mut p = Program::new(processor);
    let mut inputs = RunInputs::default();
    let k = v.src.len() as i32;
    let n_in = k.max(1);
    p.declarations.push(decl(File::Input, 0, n_in - 1));
    for (i, o) in v.src.iter().enumerate() {
        inputs.inputs.insert(i as u32, o.lanes);
    }
    let ndst = info.num_dst.max(1) as i32;
    p.declarations.push(decl(File::Output, 0, ndst - 1));
    // TEMP[0..k-1] hold the operands, TEMP[k..k+ndst-1] the results.
    p.declarations
        .push(decl(File::Temporary, 0, n_in + ndst - 1));
    for i in 0..k {
        p.instructions.push(inst(
            Opcode::Mov,
            vec![dst(File::Temporary, i, 0xF)],
            vec![src(File::Input, i)],
        ));
    }
    let operands: Vec<SrcOperand> = v
        .src
        .iter()
        .take(info.num_src as usize)
        .enumerate()
        .map(|(i, o)| modified(i as i32, o))
        .collect();
    match v.shape {
        Shape::Alu | Shape::Fragment => {
            let dsts = (0..ndst)
                .map(|j| {
                    let mut d = dst(File::Temporary, k + j, 0xF);
                    d.modulate = v.modulate;
                    d
                })
                .collect();
            let mut op = inst(v.opcode, dsts, operands);
            op.saturate = v.saturate;
            p.instructions.push(op);
            for j in 0..ndst {
                p.instructions.push(inst(
                    Opcode::Mov,
                    vec![dst(File::Output, j, 0xF)],
                    vec![src(File::Temporary, k + j)],
                ));
            }
        }
        Shape::Address | Shape::PushPop => {
            let r = ADDRESS_TABLE_RADIUS;
            p.declarations.push(decl(File::Address, 0, 0));
            p.declarations.push(decl(File::Constant, 0, 2 * r));
            for a in -r..=r {
                inputs.set_const(0, (a + r) as u32, [address_marker(a); 4]);
            }
            if v.shape == Shape::PushPop {
                p.instructions
                    .push(inst(Opcode::Pusha, vec![], vec![modified(0, &v.src[0])]));
                p.instructions
                    .push(inst(Opcode::Popa, vec![dst(File::Address, 0, 0xF)], vec![]));
            } else {
                p.instructions
                    .push(inst(v.opcode, vec![dst(File::Address, 0, 0xF)], operands));
            }
            for c in 0..4u8 {
                let mut s = src(File::Constant, r);
                s.reg.indirect = Some(Indirect {
                    file: File::Address,
                    index: 0,
                    component: c,
                });
                p.instructions.push(inst(
                    Opcode::Mov,
                    vec![dst(File::Output, 0, 1 << c)],
                    vec![s],
                ));
            }
        }
        Shape::Texture(target) => {
            p.declarations.push(decl(File::Sampler, 0, 0));
            inputs.textures = vec![Some(Box::new(Texture::graw_test()))];
            let mut srcs: Vec<SrcOperand> = v
                .src
                .iter()
                .enumerate()
                .map(|(i, o)| modified(i as i32, o))
                .collect();
            srcs.push(src(File::Sampler, 0));
            let mut op = inst(v.opcode, vec![dst(File::Temporary, k, 0xF)], srcs);
            op.texture = Some(target);
            p.instructions.push(op);
            p.instructions.push(inst(
                Opcode::Mov,
                vec![dst(File::Output, 0, 0xF)],
                vec![src(File::Temporary, k)],
            ));
        }
        Shape::Kill => {
            p.instructions.push(inst(v.opcode, vec![], operands));
            p.instructions.push(inst(
                Opcode::Mov,
                vec![dst(File::Output, 0, 0xF)],
                vec![src(File::Input, 0)],
            ));
        }
    }
    p.instructions.push(inst(Opcode::End, vec![], vec![]));
    (p, inputs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_markers_round_trip() {
        for a in -ADDRESS_TABLE_RADIUS..=ADDRESS_TABLE_RADIUS {
            assert_eq!(address_from_marker(address_marker(a)), Ok(Some(a)));
        }
        assert_eq!(address_from_marker(0), Ok(None));
        assert_eq!(address_from_marker(0x3F80_0000), Err(()));
    }
}

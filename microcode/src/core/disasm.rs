//! Image -> text: the disassembler, also the trace printer of the core model.
//!
//! Syntax of one instruction:
//! `FMAD.sat R3.xy__, -K4.xxxx, |R1.wzyx|, L1` (`.sat` / `.satnv`, write mask with `_` for disabled components, predicated write `(P)` / `(!P)`, compare condition
//! after SET/SETP, branch targets `-> 12`, MOVR's and MOVW's signed offset `offset -3`, a sampler
//! unit `SAMP[1]`, a double opcode's name `DADD`). Operands: optional `-` (all components negated) or a
//! `neg=` mask suffix, `|...|` for the absolute value, file `R`/`K`/`L` and index, swizzle letters
//! with `0` and `1` for the literal selectors.

use super::image::{ConstSource, Image};
use super::isa::{DstKind, Instr, Op, Operand, SrcFile, Unit};
use std::fmt::Write;

const SWZ: [char; 8] = ['x', 'y', 'z', 'w', '0', '1', '?', '?'];

fn mask_text(m: u8) -> String {
    (0..4)
        .map(|c| if m & (1 << c) != 0 { SWZ[c] } else { '_' })
        .collect()
}

/// One operand as text.
pub fn operand_text(o: &Operand) -> String {
    let file = match o.file {
        SrcFile::R => 'R',
        SrcFile::K => 'K',
        SrcFile::L => 'L',
    };
    let swz: String = o.swz.iter().map(|&s| SWZ[usize::from(s & 7)]).collect();
    let mut t = format!("{file}{}.{swz}", o.index);
    if o.abs {
        t = format!("|{t}|");
    }
    match o.neg & 0xF {
        0 => t,
        0xF => format!("-{t}"),
        n => format!("{t}.neg({})", mask_text(n)),
    }
}

/// One instruction as text (no address).
pub fn instr_text(i: &Instr) -> String {
    let info = i.op.info();
    let mut t = info.mnemonic.to_string();
    if matches!(i.op, Op::Set | Op::Setp) {
        let _ = write!(t, ".{}", i.cond.name());
    }
    if i.sat == 1 {
        t.push_str(".sat");
    } else if i.sat == 2 {
        t.push_str(".satnv");
    }
    let mut parts = Vec::new();
    match info.dst {
        DstKind::Reg => {
            let p = ["", "(P) ", "(!P) "][usize::from(i.pw.min(2))];
            parts.push(format!("{p}R{}.{}", i.dst, mask_text(i.wmask)));
        }
        DstKind::Pred => parts.push(format!("P.{}", mask_text(i.wmask))),
        DstKind::None => {
            if matches!(i.op, Op::Kilp | Op::If) {
                parts.push(format!("P.{}", mask_text(i.wmask)));
            }
        }
    }
    for s in i.src.iter().take(usize::from(info.sources)) {
        parts.push(operand_text(s));
    }
    if !parts.is_empty() {
        t.push(' ');
        t.push_str(&parts.join(", "));
    }
    if info.unit == Unit::Flow
        && matches!(
            i.op,
            Op::If
                | Op::Else
                | Op::Endloop
                | Op::Loop
                | Op::Cal
                | Op::Calp
                | Op::Loopp
                | Op::Endloopp
                | Op::Jmp
                | Op::Jmpp
        )
    {
        let _ = write!(t, " -> {}", i.target);
    }
    if matches!(i.op, Op::Movr | Op::Movw) {
        let _ = write!(t, " offset {}", i.offset());
    }
    if matches!(i.op, Op::Tfet | Op::Txq) {
        let _ = write!(t, " SAMP[{}]", i.target);
    }
    if i.op == Op::Dop {
        // The double opcode by name (its number when unknown); `.1`: DFRACEXP's second result.
        let n = i.target & 0xFF;
        match crate::tgsi::Opcode::from_number(n as u8) {
            Some(o) => {
                let _ = write!(t, " {}", o.info().mnemonic);
            }
            None => {
                let _ = write!(t, " #{n}");
            }
        }
        if i.target & crate::core::isa::DOP_SECOND != 0 {
            t.push_str(".1");
        }
    }
    t
}

/// The whole image as a listing: header, constant and register maps, then one line per
/// instruction with its address, cycle cost and TGSI origin.
pub fn listing(img: &Image) -> String {
    let c = &img.config;
    let mut t = String::new();
    let _ = writeln!(
        t,
        "; core image: processor {}, {} instructions (of {}), {} registers, {} constants, latency {}",
        img.processor,
        img.code.len(),
        c.program_size,
        c.registers,
        c.constants,
        c.latency
    );
    for k in &img.constants {
        match k.source {
            ConstSource::Data(d) => {
                let _ = writeln!(
                    t,
                    "; K{} = {{{:#010x}, {:#010x}, {:#010x}, {:#010x}}}",
                    k.k, d[0], d[1], d[2], d[3]
                );
            }
            ConstSource::Buffer { buffer, index } => {
                let _ = writeln!(t, "; K{} = CONST[{buffer}][{index}]", k.k);
            }
            ConstSource::Geometry { vertex, index } => {
                let _ = writeln!(t, "; K{} = IN[{vertex}][{index}]", k.k);
            }
            ConstSource::Texture { unit, part } => {
                let what = ["sizes, offset, base", "axis words", "size"][usize::from(part.min(2))];
                let _ = writeln!(t, "; K{} = SAMP[{unit}] descriptor {part} ({what})", k.k);
            }
        }
    }
    for m in &img.inputs {
        let _ = writeln!(t, "; IN[{}] -> R{}", m.tgsi, m.reg);
    }
    for m in &img.outputs {
        let _ = writeln!(t, "; OUT[{}] <- R{}", m.tgsi, m.reg);
    }
    for (pc, i) in img.code.iter().enumerate() {
        let origin = match img.origin.get(pc) {
            Some(&crate::core::image::LIBRARY_ORIGIN) => "  ; binary64 library".to_string(),
            Some(&crate::core::image::DIVISION_ORIGIN) => "  ; division routine".to_string(),
            Some(o) => format!("  ; tgsi {o}"),
            None => String::new(),
        };
        let _ = writeln!(t, "{pc:4}: {:<48}{origin}", instr_text(i));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::isa::Cond;

    #[test]
    fn text_forms() {
        let mut i = Instr::new(Op::Setp);
        i.cond = Cond::Ne;
        i.wmask = 1;
        i.src[0] = Operand {
            file: SrcFile::R,
            index: 3,
            swz: [0, 0, 0, 0],
            neg: 0xF,
            abs: true,
        };
        assert_eq!(instr_text(&i), "SETP.NE P.x___, -|R3.xxxx|, L0.xyzw");
        assert_eq!(crate::core::asm::instr(&instr_text(&i)), Ok(i));
        let mut m = Instr::new(Op::Fmad);
        m.sat = 1;
        m.wmask = 0b1010;
        m.src[1].neg = 0b0101;
        m.src[2].swz = [4, 5, 4, 5];
        assert_eq!(
            instr_text(&m),
            "FMAD.sat R0._y_w, L0.xyzw, L0.xyzw.neg(x_z_), L0.0101"
        );
        assert_eq!(crate::core::asm::instr(&instr_text(&m)), Ok(m));
    }
}

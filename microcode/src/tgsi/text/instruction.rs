//! The instruction statement. Everything opcode-specific (operand counts, texture target, label)
//! comes from the opcode table.
//!
//! ```text
//! instruction := (N:)? (COND)? OPCODE(_SAT|_SATNV)? (.CCn | .F32 | .F16 | .X12)*
//!                operands (, TARGET)? (:label)?
//! ```

use super::error::{fail, LineMap, PResult};
use super::lexer::{found, peek_word, sp, uint, word, ws};
use super::names;
use super::operand::{cond_test, dst_operand, src_operand};
use crate::tgsi::ir::*;
use crate::tgsi::opcode::{LabelUse, Opcode, OpcodeInfo};

/// Parses one instruction; its location is the mnemonic's.
pub(crate) fn instruction<'a>(i: &'a str, map: &LineMap<'_>) -> PResult<'a, Instruction> {
    let mut i = i;
    if i.starts_with(|c: char| c.is_ascii_digit()) {
        let (rest, _) = uint(i)?;
        let (rest, _) = sp(rest)?;
        let Some(rest) = rest.strip_prefix(':') else {
            return fail(
                rest,
                format!("expected `:` after the instruction number{}", found(rest)),
            );
        };
        (i, _) = sp(rest)?;
    }
    let mut inst = Instruction::new(Opcode::Nop);
    if i.starts_with('(') {
        let (rest, c) = cond_test(i)?;
        inst.cond_flow = Some(c);
        (i, _) = sp(rest)?;
    }
    let (line, col) = map.locate(i);
    inst.loc = Loc::Text { line, col };
    let (i, info) = mnemonic(i, &mut inst)?;
    let (i, _) = suffixes(i, &mut inst)?;
    let (i, _) = operands(i, info, &mut inst)?;
    let (i, _) = target(i, info, &mut inst)?;
    let (i, _) = label(i, info, &mut inst)?;
    Ok((i, inst))
}

/// `OPCODE(_SAT|_SATNV)?`: any mnemonic or alias of the table.
fn mnemonic<'a>(i: &'a str, inst: &mut Instruction) -> PResult<'a, &'static OpcodeInfo> {
    let (rest, w) = match word(i) {
        Ok(r) => r,
        Err(_) => return fail(i, format!("expected an instruction{}", found(i))),
    };
    let upper = w.to_ascii_uppercase();
    let (base, sat) = if let Some(b) = upper.strip_suffix("_SATNV") {
        (b, Saturate::MinusPlusOne)
    } else if let Some(b) = upper.strip_suffix("_SAT") {
        (b, Saturate::ZeroOne)
    } else {
        (upper.as_str(), Saturate::None)
    };
    let Some(opcode) = Opcode::from_mnemonic(base) else {
        let name = &w[..base.len()];
        let later = crate::tgsi::opcode::LATER_MESA_OPCODES
            .iter()
            .any(|l| l.eq_ignore_ascii_case(name));
        return fail(
            i,
            if later {
                format!("unknown opcode `{name}`: added to TGSI after Mesa 7.9, not supported")
            } else {
                format!("unknown opcode `{name}`")
            },
        );
    };
    inst.opcode = opcode;
    inst.saturate = sat;
    Ok((rest, opcode.info()))
}

/// `.CC`, `.CCn`, `.F32`, `.F16`, `.X12`, each at most once, in any order.
fn suffixes<'a>(mut i: &'a str, inst: &mut Instruction) -> PResult<'a, ()> {
    while let Some(rest) = i.strip_prefix('.') {
        let (rest, s) = match word(rest) {
            Ok(r) => r,
            Err(_) => {
                return fail(
                    rest,
                    format!("expected `.CC` or a precision{}", found(rest)),
                )
            }
        };
        let su = s.to_ascii_uppercase();
        if let Some(digits) = su.strip_prefix("CC") {
            if inst.cond_update.is_some() {
                return fail(i, "`.CC` is given twice");
            }
            let n = if digits.is_empty() {
                0
            } else {
                match digits.parse::<u8>() {
                    Ok(n) => n,
                    Err(_) => return fail(i, format!("invalid condition-code register `.{s}`")),
                }
            };
            inst.cond_update = Some(n);
        } else {
            let p = match su.as_str() {
                "F32" => Precision::Float32,
                "F16" => Precision::Float16,
                "X12" => Precision::Fixed12,
                _ => {
                    return fail(
                        i,
                        format!(
                            "unknown instruction suffix `.{s}`; \
                             expected .CC, .CC0, .CC1, .F32, .F16 or .X12"
                        ),
                    )
                }
            };
            if inst.precision != Precision::Default {
                return fail(i, "the precision is given twice");
            }
            inst.precision = p;
        }
        i = rest;
    }
    Ok((i, ()))
}

/// True where an operand list may end: end of line or input, a label, a texture target.
fn at_list_end(i: &str) -> bool {
    i.is_empty() || i.starts_with(['\n', ':', ','])
}

/// The operands: the first after blanks, the others after commas (a line break may follow a
/// comma); a comma followed by a texture target name ends the list. The counts must be the table's.
fn operands<'a>(i: &'a str, info: &OpcodeInfo, inst: &mut Instruction) -> PResult<'a, ()> {
    let mn = info.mnemonic;
    let nd = usize::from(info.num_dst);
    let ns = usize::from(info.num_src);
    let mut starts: Vec<&'a str> = Vec::new();
    let (mut i, _) = sp(i)?;
    loop {
        let at = if starts.is_empty() {
            if nd + ns == 0 || at_list_end(i) {
                break;
            }
            i
        } else {
            let Some(rest) = i.strip_prefix(',') else {
                break;
            };
            let (rest, _) = ws(rest)?;
            if names::texture(peek_word(rest)).is_some() {
                break;
            }
            rest
        };
        starts.push(at);
        let rest = if inst.dst.len() < nd {
            let (rest, d) = dst_operand(at)?;
            inst.dst.push(d);
            rest
        } else {
            let (rest, s) = src_operand(at)?;
            inst.src.push(s);
            rest
        };
        (i, _) = sp(rest)?;
    }
    if nd + ns == 0 && !at_list_end(i) {
        return fail(i, format!("{mn} takes no operands"));
    }
    if inst.dst.len() + inst.src.len() < nd + ns && !at_list_end(i) {
        return fail(i, format!("expected `,`{}", found(i)));
    }
    if inst.dst.len() < nd {
        let msg = format!(
            "{mn} takes {}, found {}",
            count(nd, "destination"),
            inst.dst.len()
        );
        return fail(i, msg);
    }
    if inst.src.len() != ns {
        let at = starts.get(nd + ns).copied().unwrap_or(i);
        let msg = format!(
            "{mn} takes {}, found {}",
            count(ns, "source"),
            inst.src.len()
        );
        return fail(at, msg);
    }
    Ok((i, ()))
}

/// `, TARGET`: required on texture opcodes, refused elsewhere.
fn target<'a>(i: &'a str, info: &OpcodeInfo, inst: &mut Instruction) -> PResult<'a, ()> {
    let mn = info.mnemonic;
    let Some(rest) = i.strip_prefix(',') else {
        if info.is_texture() {
            return fail(
                i,
                format!("{mn} needs a texture target such as `, 2D`{}", found(i)),
            );
        }
        return Ok((i, ()));
    };
    let (at, _) = ws(rest)?;
    let (rest, t) = match word(at) {
        Ok(r) => r,
        Err(_) => return fail(at, format!("expected a texture target{}", found(at))),
    };
    let Some(target) = names::texture(t) else {
        return fail(at, format!("unknown texture target `{t}`"));
    };
    if !info.is_texture() {
        return fail(at, format!("{mn} takes no texture target"));
    }
    inst.texture = Some(target);
    sp(rest)
}

/// `:N`, as the table's label use says.
fn label<'a>(i: &'a str, info: &OpcodeInfo, inst: &mut Instruction) -> PResult<'a, ()> {
    let mn = info.mnemonic;
    let Some(rest) = i.strip_prefix(':') else {
        if info.label == LabelUse::Required {
            return fail(i, format!("{mn} needs a label `:N`{}", found(i)));
        }
        return Ok((i, ()));
    };
    if info.label == LabelUse::None {
        return fail(i, format!("{mn} takes no label"));
    }
    let (at, _) = sp(rest)?;
    let (rest, n) = match uint(at) {
        Ok(r) => r,
        Err(nom::Err::Error(_)) => {
            return fail(at, format!("expected a label number{}", found(at)))
        }
        Err(e) => return Err(e),
    };
    inst.label = Some(n);
    Ok((rest, ()))
}

/// "1 source operand", "3 source operands".
fn count(n: usize, kind: &str) -> String {
    format!("{n} {kind} operand{}", if n == 1 { "" } else { "s" })
}

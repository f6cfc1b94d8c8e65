//! Which classes of values each opcode must be tested with, derived from the opcode table.

use super::{Class, Vector};
use microcode::tgsi::opcode::{Kind, OpcodeInfo, OperandType, Support};
use microcode::tgsi::{Opcode, OPCODES};
use std::collections::BTreeSet;

/// What the vectors owe an opcode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Coverage {
    /// Vectors of these classes are required.
    Vectors(Vec<Class>),
    /// No vectors: another test covers the opcode, for this reason.
    Exempt(&'static str),
}

/// Why opcodes of a kind are not covered by vectors, or `None` when they are.
fn exemption(info: &OpcodeInfo) -> Option<&'static str> {
    if let Support::Unsupported(why) = info.support {
        return Some(why);
    }
    match info.kind {
        Kind::Flow(_) => Some(
            "control flow: covered by the control-flow tests (lane masks, nesting, budget), not by vectors",
        ),
        Kind::Geometry => Some("vertex emission: covered by the geometry-program tests"),
        Kind::Nop => Some("no operands and no effect"),
        Kind::Alu | Kind::Kill | Kind::AddressStack | Kind::Texture => None,
    }
}

fn float_like(t: OperandType) -> bool {
    matches!(
        t,
        OperandType::Float | OperandType::Double | OperandType::Untyped
    )
}

fn computes(t: OperandType) -> bool {
    matches!(
        t,
        OperandType::Float | OperandType::Double | OperandType::Int | OperandType::Uint
    )
}

/// The classes an opcode's vectors must cover, from its source and destination types and kind:
/// every opcode needs ordinary values; float-like sources (binary32, binary64, untyped bits) add signed
/// zeros, infinities, NaN and subnormals; an opcode that computes a float or integer result from float
/// sources, or a float from integers, adds rounding; integer sources or destinations add sign and
/// overflow cases.
pub fn applicable(info: &OpcodeInfo) -> Coverage {
    if let Some(why) = exemption(info) {
        return Coverage::Exempt(why);
    }
    let (s, d) = (info.src_type, info.dst_type);
    let mut c = vec![Class::Ordinary];
    if float_like(s) {
        c.extend([
            Class::SignedZero,
            Class::Infinity,
            Class::Nan,
            Class::Subnormal,
        ]);
    }
    let float_src = matches!(s, OperandType::Float | OperandType::Double);
    let float_dst = matches!(d, OperandType::Float | OperandType::Double);
    if (float_src && computes(d)) || (s.is_integer() && float_dst) {
        c.push(Class::Rounding);
    }
    if s.is_integer() || d.is_integer() {
        c.extend([Class::IntSign, Class::IntOverflow]);
    }
    Coverage::Vectors(c)
}

/// Supported opcodes that lack a vector of an applicable class, with the missing classes.
pub fn missing(vectors: &[Vector]) -> Vec<(Opcode, Vec<Class>)> {
    let have: BTreeSet<(Opcode, Class)> = vectors.iter().map(|v| (v.opcode, v.class)).collect();
    OPCODES
        .iter()
        .filter_map(|info| match applicable(info) {
            Coverage::Exempt(_) => None,
            Coverage::Vectors(classes) => {
                let lack: Vec<Class> = classes
                    .into_iter()
                    .filter(|c| !have.contains(&(info.opcode, *c)))
                    .collect();
                (!lack.is_empty()).then_some((info.opcode, lack))
            }
        })
        .collect()
}

/// Opcodes with no vectors by design, with the reason.
pub fn exempt() -> Vec<(Opcode, &'static str)> {
    OPCODES
        .iter()
        .filter_map(|info| match applicable(info) {
            Coverage::Exempt(why) => Some((info.opcode, why)),
            Coverage::Vectors(_) => None,
        })
        .collect()
}

/// Vectors whose opcode the table says should have none (unsupported or exempt).
pub fn misplaced(vectors: &[Vector]) -> Vec<Opcode> {
    let mut v: Vec<Opcode> = vectors
        .iter()
        .filter(|v| matches!(applicable(v.opcode.info()), Coverage::Exempt(_)))
        .map(|v| v.opcode)
        .collect();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_the_table() {
        let get = |op: Opcode| match applicable(op.info()) {
            Coverage::Vectors(c) => c,
            Coverage::Exempt(why) => panic!("{op} exempt: {why}"),
        };
        assert!(get(Opcode::Add).contains(&Class::Rounding));
        assert!(!get(Opcode::Mov).contains(&Class::Rounding));
        assert!(get(Opcode::Mov).contains(&Class::Subnormal));
        assert_eq!(
            get(Opcode::Xor),
            vec![Class::Ordinary, Class::IntSign, Class::IntOverflow]
        );
        assert!(get(Opcode::I2f).contains(&Class::Rounding));
        assert!(get(Opcode::Arl).contains(&Class::IntOverflow));
        assert!(matches!(applicable(Opcode::If.info()), Coverage::Exempt(_)));
        assert!(matches!(
            applicable(Opcode::Noise1.info()),
            Coverage::Exempt(_)
        ));
    }
}

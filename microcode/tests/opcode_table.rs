//! Every row of the opcode table, under its mnemonic and under each alias, parses from text and
//! survives the token codec as the same opcode with the table's operand counts.

use microcode::tgsi::opcode::{LabelUse, OPCODES};
use microcode::tgsi::text::parse;
use microcode::tgsi::tokens::{decode, encode};

/// One instruction of `name` with the operand shape the table gives `info`.
fn instruction_text(name: &str, info: &microcode::tgsi::OpcodeInfo) -> String {
    let mut ops: Vec<String> = (0..info.num_dst).map(|i| format!("TEMP[{i}]")).collect();
    ops.extend((0..info.num_src).map(|i| format!("TEMP[{}]", i + 2)));
    if info.is_texture() {
        // The sampler is the last source; the target follows the operands.
        if let Some(last) = ops.last_mut() {
            *last = "SAMP[0]".to_string();
        }
        ops.push("2D".to_string());
    }
    let mut line = format!("{name} {}", ops.join(", "));
    if info.label != LabelUse::None {
        line.push_str(" :0");
    }
    line
}

#[test]
fn every_row_and_alias_parses_and_round_trips_through_tokens() {
    let mut checked = 0;
    for info in OPCODES {
        for name in std::iter::once(&info.mnemonic).chain(info.aliases.iter()) {
            let src = format!(
                "GEOM\nDCL TEMP[0..8]\nDCL SAMP[0]\n{}\nEND\n",
                instruction_text(name, info)
            );
            let p = parse(&src).unwrap_or_else(|e| panic!("{name}: {}", e.render(&src, name)));
            let inst = &p.instructions[0];
            assert_eq!(inst.opcode, info.opcode, "{name}");
            assert_eq!(inst.dst.len(), usize::from(info.num_dst), "{name}");
            assert_eq!(inst.src.len(), usize::from(info.num_src), "{name}");
            let words = encode(&p);
            let back = decode(&words).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(back.program, p, "{name}: tokens changed the program");
            // The opcode field of the instruction token (bits 12-19) holds the table's number; the
            // first instruction token (type 2) follows VERSION, HEADER and PROCESSOR.
            let number = words[3..]
                .iter()
                .find(|w| *w & 0xF == 2)
                .map(|w| (w >> 12) & 0xFF)
                .unwrap_or(u32::MAX);
            assert_eq!(number, u32::from(info.number), "{name}");
            checked += 1;
        }
    }
    assert!(checked > OPCODES.len(), "aliases were checked too");
}

/// Issue #22 item 4: every opcode's lowering is in its row; an opcode the validator accepts
/// always has one, and one it rejects has none.
#[test]
fn every_supported_opcode_names_its_lowering() {
    use microcode::tgsi::opcode::Lowering;
    for info in microcode::tgsi::OPCODES {
        assert_eq!(
            info.is_supported(),
            info.lowering != Lowering::None,
            "{}: supported {} but lowering {:?}",
            info.mnemonic,
            info.is_supported(),
            info.lowering
        );
        // The column agrees with the other columns where they overlap.
        match info.lowering {
            Lowering::Texture => assert!(info.is_texture(), "{}", info.mnemonic),
            Lowering::Flow => assert!(info.flow().is_some(), "{}", info.mnemonic),
            Lowering::Double => assert_eq!(
                info.src_type,
                microcode::tgsi::opcode::OperandType::Double,
                "{}",
                info.mnemonic
            ),
            Lowering::Matrix { rows, width } => {
                assert!((2..=4).contains(&rows) && (3..=4).contains(&width));
                assert_eq!(info.matrix(), Some((rows.into(), width.into())));
            }
            _ => assert!(info.matrix().is_none()),
        }
    }
    // The matrix shapes decisions.md section 1 gives.
    let shape = |m: &str| {
        microcode::tgsi::OPCODES
            .iter()
            .find(|i| i.mnemonic == m)
            .and_then(|i| i.matrix())
    };
    assert_eq!(shape("MULTIPLYMATRIX"), Some((4, 4)));
    assert_eq!(shape("M4X3"), Some((3, 4)));
    assert_eq!(shape("M3X4"), Some((4, 3)));
    assert_eq!(shape("M3X3"), Some((3, 3)));
    assert_eq!(shape("M3X2"), Some((2, 3)));
}

/// ARCHITECTURE.md's list of lowered opcodes is the table's, as `lowering_summary` prints it.
#[test]
fn architecture_lists_the_lowerings_of_the_table() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../ARCHITECTURE.md");
    let doc = std::fs::read_to_string(path).expect("ARCHITECTURE.md");
    let summary = microcode::tgsi::opcode::lowering_summary();
    assert!(
        doc.contains(&summary),
        "ARCHITECTURE.md must contain the generated lowering list:\n{summary}"
    );
}

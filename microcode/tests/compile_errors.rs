//! The compiler's errors are typed: each names the instruction's index and opcode, and the
//! operand at fault where there is one (`CompileError`).

use microcode::compile::{compile, CompileError, OperandRef};
use microcode::core::CoreConfig;
use microcode::tgsi::{text, Opcode};

fn error_of(src: &str) -> CompileError {
    let p = text::parse(src).unwrap_or_else(|e| panic!("{}", e.render(src, "test")));
    compile(&p, &CoreConfig::default()).expect_err("the program does not compile")
}

/// Two TEMP declarations where a relative address needs one range.
const SPLIT: &str = "VERT\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0]\nDCL TEMP[1]\nDCL ADDR[0]\n\
                     ARL ADDR[0].x, IN[0].xxxx\n";

#[test]
fn an_unsupported_source_is_named_by_its_position() {
    let e = error_of(&format!(
        "{SPLIT}ADD TEMP[0], IN[0], TEMP[ADDR[0].x+1]\nMOV OUT[0], TEMP[0]\nEND\n"
    ));
    let CompileError::Unsupported {
        opcode,
        index,
        operand,
        detail,
    } = &e
    else {
        panic!("{e:?}")
    };
    assert_eq!(
        (*opcode, *index, *operand),
        (Opcode::Add, 1, Some(OperandRef::Src(1)))
    );
    assert!(detail.contains("relative read of TEMP"), "{detail}");
    assert!(
        e.to_string()
            .starts_with("instruction 1 (ADD), src 1: not supported"),
        "{e}"
    );
}

#[test]
fn an_unsupported_destination_is_named() {
    let e = error_of(&format!(
        "{SPLIT}MOV TEMP[ADDR[0].x+1], IN[0]\nMOV OUT[0], TEMP[0]\nEND\n"
    ));
    assert!(
        matches!(
            e,
            CompileError::Unsupported {
                opcode: Opcode::Mov,
                index: 1,
                operand: Some(OperandRef::Dst(0)),
                ..
            }
        ),
        "{e:?}"
    );
}

#[test]
fn an_opcode_without_lowering_says_so() {
    let e = error_of("FRAG\nDCL IN[0]\nDCL OUT[0]\nMOV OUT[0], IN[0]\nNOISE1 OUT[0], IN[0]\nEND\n");
    let CompileError::Unsupported {
        opcode,
        index,
        operand,
        detail,
    } = &e
    else {
        panic!("{e:?}")
    };
    assert_eq!((*opcode, *index, *operand), (Opcode::Noise1, 1, None));
    assert!(!detail.is_empty());
}

#[test]
fn a_recursive_call_names_the_call() {
    // Not validated (the validator refuses it first): the compiler still says where.
    let e = error_of("FRAG\nDCL OUT[0]\nCAL :2\nEND\nBGNSUB\nCAL :2\nRET\nENDSUB\n");
    assert_eq!(
        e,
        CompileError::Recursion {
            index: 3,
            opcode: Opcode::Cal,
            target: 2
        },
        "{e}"
    );
}

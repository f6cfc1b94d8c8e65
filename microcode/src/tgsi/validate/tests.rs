//! One test per rule: a program that breaks exactly that rule, with assertions on the error's
//! rule, message and location. Instructions get text locations `line i+1, column 1`.

use super::*;
use crate::tgsi::arbitrary;
use crate::tgsi::opcode::Opcode;
use proptest::prelude::*;

fn decl(file: File, first: i32, last: i32) -> Declaration {
    Declaration {
        file,
        dimension: None,
        first,
        last,
        usage_mask: 0xF,
        semantic: None,
        interpolate: None,
        array_data: vec![],
        loc: Loc::Text { line: 0, col: 1 },
    }
}

fn reg(file: File, index: i32) -> Register {
    Register::new(file, index)
}

fn src(file: File, index: i32) -> SrcOperand {
    SrcOperand::new(reg(file, index))
}

fn dst(file: File, index: i32) -> DstOperand {
    DstOperand::new(reg(file, index))
}

fn op(opcode: Opcode, d: Vec<DstOperand>, s: Vec<SrcOperand>) -> Instruction {
    Instruction {
        dst: d,
        src: s,
        ..Instruction::new(opcode)
    }
}

fn bare(opcode: Opcode) -> Instruction {
    Instruction::new(opcode)
}

fn mov(d: DstOperand, s: SrcOperand) -> Instruction {
    op(Opcode::Mov, vec![d], vec![s])
}

fn labelled(opcode: Opcode, label: u32) -> Instruction {
    Instruction {
        label: Some(label),
        ..Instruction::new(opcode)
    }
}

fn if_temp() -> Instruction {
    op(Opcode::If, vec![], vec![src(File::Temporary, 0)])
}

/// A fragment program declaring TEMP[0..3], IN[0..1], OUT[0], CONST[0..3], CONST[1][0..6],
/// SAMP[0], ADDR[0], LOOP[0] and one immediate, with the given instructions.
fn program(instructions: Vec<Instruction>) -> Program {
    let mut p = Program::new(Processor::Fragment);
    p.declarations = vec![
        decl(File::Temporary, 0, 3),
        decl(File::Input, 0, 1),
        decl(File::Output, 0, 0),
        decl(File::Constant, 0, 3),
        Declaration {
            dimension: Some(DeclDimension::Index(1)),
            ..decl(File::Constant, 0, 6)
        },
        decl(File::Sampler, 0, 0),
        decl(File::Address, 0, 0),
        decl(File::Loop, 0, 0),
    ];
    p.immediates.push(Immediate {
        ty: ImmType::Float32,
        values: vec![0; 4],
        loc: Loc::None,
    });
    p.instructions = instructions;
    for (i, inst) in p.instructions.iter_mut().enumerate() {
        inst.loc = Loc::Text {
            line: i as u32 + 1,
            col: 1,
        };
    }
    p
}

/// `body` followed by END.
fn main(mut body: Vec<Instruction>) -> Program {
    body.push(bare(Opcode::End));
    program(body)
}

fn errors(p: &Program) -> Vec<ValidationError> {
    match validate(p, &Limits::default()) {
        Ok(()) => panic!("program validated"),
        Err(e) => e,
    }
}

/// The single error of `p`, checked to be of `rule`, as displayed.
fn only(p: &Program, rule: Rule) -> String {
    let e = errors(p);
    assert_eq!(e.len(), 1, "{e:#?}");
    assert_eq!(e[0].rule, rule, "{}", e[0]);
    e[0].to_string()
}

#[test]
fn base_program_validates() {
    let p = main(vec![mov(dst(File::Output, 0), src(File::Input, 1))]);
    assert_eq!(validate(&p, &Limits::default()), Ok(()));
}

#[test]
fn undeclared_file() {
    let p = main(vec![mov(
        dst(File::Output, 0),
        src(File::TemporaryArray, 0),
    )]);
    assert_eq!(
        only(&p, Rule::Undeclared),
        "1:1: instruction 0: src 0: TEMPX[0] is used but TEMPX is not declared"
    );
}

#[test]
fn immediate_past_the_last() {
    let p = main(vec![mov(dst(File::Output, 0), src(File::Immediate, 1))]);
    assert_eq!(
        only(&p, Rule::Undeclared),
        "1:1: instruction 0: src 0: IMM[1] does not exist (1 immediates)"
    );
}

#[test]
fn index_outside_the_declared_range() {
    let p = main(vec![
        bare(Opcode::Nop),
        mov(dst(File::Temporary, 4), src(File::Input, 0)),
    ]);
    assert_eq!(
        only(&p, Rule::OutOfRange),
        "2:1: instruction 1: dst 0: TEMP[4] is outside the declared ranges of TEMP"
    );
}

#[test]
fn indirect_and_two_dimensional_operands() {
    let ind = Indirect {
        file: File::Address,
        index: 0,
        component: 0,
    };
    // CONST[ADDR[0].x+100] is not range-checked; CONST[1][6] is inside DCL CONST[1][0..6].
    let mut far = reg(File::Constant, 100);
    far.indirect = Some(ind);
    let mut two_d = reg(File::Constant, 1);
    two_d.dimension = Some(Dimension {
        index: 6,
        indirect: None,
    });
    let ok = main(vec![
        mov(dst(File::Output, 0), SrcOperand::new(far)),
        mov(dst(File::Output, 0), SrcOperand::new(two_d)),
    ]);
    assert_eq!(validate(&ok, &Limits::default()), Ok(()));
    // CONST[2][0] has no 2-D declaration with first bracket 2; the address register ADDR[1] is
    // outside DCL ADDR[0].
    let mut wrong = two_d;
    wrong.index = 2;
    let mut bad_addr = far;
    bad_addr.indirect = Some(Indirect { index: 1, ..ind });
    let p = main(vec![
        mov(dst(File::Output, 0), SrcOperand::new(wrong)),
        mov(dst(File::Output, 0), SrcOperand::new(bad_addr)),
    ]);
    let e = errors(&p);
    assert_eq!(e.len(), 2, "{e:#?}");
    assert_eq!(e[0].rule, Rule::Undeclared);
    assert_eq!(
        e[0].to_string(),
        "1:1: instruction 0: src 0: CONST[2][6] matches no 2-D declaration of CONST"
    );
    assert_eq!(e[1].rule, Rule::OutOfRange);
    assert_eq!(
        e[1].to_string(),
        "2:1: instruction 1: src 0 address: ADDR[1] is outside the declared ranges of ADDR"
    );
}

#[test]
fn operand_count() {
    let p = main(vec![op(
        Opcode::Add,
        vec![dst(File::Output, 0)],
        vec![src(File::Input, 0)],
    )]);
    assert_eq!(
        only(&p, Rule::OperandCount),
        "1:1: instruction 0: ADD takes 1 destination(s) and 2 source(s), found 1 and 1"
    );
}

#[test]
fn write_to_read_only_file() {
    let p = main(vec![mov(dst(File::Constant, 0), src(File::Input, 0))]);
    assert_eq!(
        only(&p, Rule::ReadOnly),
        "1:1: instruction 0: MOV writes CONST, which is read-only"
    );
}

#[test]
fn opcode_not_allowed_for_the_stage() {
    let mut p = main(vec![op(
        Opcode::Ddx,
        vec![dst(File::Output, 0)],
        vec![src(File::Input, 0)],
    )]);
    p.processor = Processor::Vertex;
    assert_eq!(
        only(&p, Rule::Stage),
        "1:1: instruction 0: DDX is not allowed in a vertex program"
    );
}

#[test]
fn unsupported_opcode() {
    let p = main(vec![op(
        Opcode::Noise1,
        vec![dst(File::Output, 0)],
        vec![src(File::Input, 0)],
    )]);
    assert_eq!(
        only(&p, Rule::Unsupported),
        "1:1: instruction 0: NOISE1 is not supported: never defined by the documents (TBD)"
    );
}

#[test]
fn values_outside_their_fields() {
    let mut s = src(File::Input, 0);
    s.swizzle = [0, 1, 2, 4];
    let p = main(vec![mov(dst(File::Output, 0), s)]);
    assert_eq!(
        only(&p, Rule::FieldRange),
        "1:1: instruction 0: src 0: swizzle selector above 3"
    );
}

#[test]
fn ext_divide_other_than_w_or_one() {
    let mut s = src(File::Input, 0);
    s.ext_swizzle = Some(ExtSwizzle {
        divide: ExtSel::Z,
        ..ExtSwizzle::default()
    });
    let p = main(vec![mov(dst(File::Output, 0), s)]);
    assert_eq!(
        only(&p, Rule::ExtDivide),
        "1:1: instruction 0: src 0: ExtDivide Z is not allowed (only W or ONE)"
    );
}

#[test]
fn saturate_and_modulate_on_integer_and_double_opcodes() {
    let and = Instruction {
        saturate: Saturate::ZeroOne,
        ..op(
            Opcode::And,
            vec![dst(File::Temporary, 0)],
            vec![src(File::Temporary, 1), src(File::Temporary, 2)],
        )
    };
    assert_eq!(
        only(&main(vec![and]), Rule::Saturate),
        "1:1: instruction 0: AND cannot saturate (integer, double or no result)"
    );
    let mut d = dst(File::Temporary, 0);
    d.modulate = Modulate::X2;
    let dadd = op(
        Opcode::Dadd,
        vec![d],
        vec![src(File::Temporary, 1), src(File::Temporary, 2)],
    );
    assert_eq!(
        only(&main(vec![dadd]), Rule::Saturate),
        "1:1: instruction 0: DADD cannot take MODULATE on dst 0"
    );
}

/// The later-Mesa opcodes: UCMP's result is untyped like MOV's (saturate is a float clamp after
/// the select), the others produce integers.
#[test]
fn saturate_on_the_later_mesa_opcodes() {
    let sat = |opcode: Opcode| {
        let n = usize::from(opcode.info().num_src);
        main(vec![Instruction {
            saturate: Saturate::ZeroOne,
            ..op(
                opcode,
                vec![dst(File::Temporary, 0)],
                vec![src(File::Temporary, 1); n],
            )
        }])
    };
    assert_eq!(validate(&sat(Opcode::Ucmp), &Limits::default()), Ok(()));
    for opcode in [
        Opcode::Uadd,
        Opcode::ImulHi,
        Opcode::UmulHi,
        Opcode::F2u,
        Opcode::Umul,
    ] {
        assert_eq!(
            only(&sat(opcode), Rule::Saturate),
            format!("1:1: instruction 0: {opcode} cannot saturate (integer, double or no result)")
        );
    }
}

#[test]
fn texture_target_and_sampler() {
    let tex = |sampler: File, target: Option<TextureTarget>| Instruction {
        texture: target,
        ..op(
            Opcode::Tex,
            vec![dst(File::Temporary, 0)],
            vec![src(File::Input, 0), src(sampler, 0)],
        )
    };
    assert_eq!(
        only(&main(vec![tex(File::Sampler, None)]), Rule::Texture),
        "1:1: instruction 0: TEX needs a texture target"
    );
    assert_eq!(
        only(
            &main(vec![tex(File::Constant, Some(TextureTarget::T2D))]),
            Rule::Texture
        ),
        "1:1: instruction 0: TEX's last source must be a SAMP register, found CONST"
    );
    let m = Instruction {
        texture: Some(TextureTarget::Cube),
        ..mov(dst(File::Output, 0), src(File::Input, 0))
    };
    assert_eq!(
        only(&main(vec![m]), Rule::Texture),
        "1:1: instruction 0: MOV is not a texture instruction but has target CUBE"
    );
}

#[test]
fn bgnfor_counter_outside_the_loop_file() {
    let p = main(vec![
        op(
            Opcode::BgnFor,
            vec![dst(File::Temporary, 0)],
            vec![src(File::Input, 0)],
        ),
        op(Opcode::EndFor, vec![dst(File::Loop, 0)], vec![]),
    ]);
    assert_eq!(
        only(&p, Rule::LoopRegister),
        "1:1: instruction 0: BGNFOR counts in TEMP, not in the LOOP file"
    );
}

#[test]
fn duplicate_extension_tokens() {
    let mut p = main(vec![bare(Opcode::Nop)]);
    p.duplicate_extensions.push(DuplicateExtension {
        instruction: 0,
        what: "src 1 EXT_MOD".into(),
        loc: Loc::Token { offset: 9 },
    });
    assert_eq!(
        only(&p, Rule::DuplicateExtension),
        "token 9: instruction 0: extension token src 1 EXT_MOD appears twice"
    );
}

#[test]
fn unbalanced_if() {
    let p = main(vec![if_temp(), bare(Opcode::Nop)]);
    assert_eq!(
        only(&p, Rule::Unbalanced),
        "1:1: instruction 0: IF is not closed before END at instruction 2"
    );
    let p = main(vec![
        if_temp(),
        bare(Opcode::Else),
        bare(Opcode::Else),
        bare(Opcode::EndIf),
    ]);
    assert_eq!(
        only(&p, Rule::Unbalanced),
        "3:1: instruction 2: second ELSE for the IF at instruction 0"
    );
}

#[test]
fn unbalanced_loops() {
    let p = main(vec![bare(Opcode::EndLoop)]);
    assert_eq!(
        only(&p, Rule::Unbalanced),
        "1:1: instruction 0: ENDLOOP without an open BGNLOOP"
    );
    // REP closed by ENDLOOP: the BGNLOOP inside is left open when ENDREP arrives.
    let p = main(vec![
        op(Opcode::Rep, vec![], vec![src(File::Input, 0)]),
        bare(Opcode::BgnLoop),
        bare(Opcode::EndRep),
    ]);
    assert_eq!(
        only(&p, Rule::Unbalanced),
        "2:1: instruction 1: BGNLOOP is not closed before ENDREP at instruction 2"
    );
}

#[test]
fn loop_control_outside_a_loop() {
    let p = main(vec![if_temp(), bare(Opcode::Brk), bare(Opcode::EndIf)]);
    assert_eq!(
        only(&p, Rule::LoopControl),
        "2:1: instruction 1: BRK outside a loop"
    );
    let ok = main(vec![
        bare(Opcode::BgnLoop),
        if_temp(),
        bare(Opcode::Cont),
        bare(Opcode::EndIf),
        bare(Opcode::EndLoop),
    ]);
    assert_eq!(validate(&ok, &Limits::default()), Ok(()));
}

#[test]
fn labels_in_range_and_required() {
    let mut i = if_temp();
    i.label = Some(3);
    let p = main(vec![i, bare(Opcode::EndIf)]);
    assert_eq!(
        only(&p, Rule::Label),
        "1:1: instruction 0: IF label :3 points past the last instruction (3 instructions)"
    );
    let p = main(vec![bare(Opcode::Bra)]);
    assert_eq!(
        only(&p, Rule::Label),
        "1:1: instruction 0: BRA needs a label"
    );
}

#[test]
fn calls_must_target_a_bgnsub() {
    let mut p = main(vec![labelled(Opcode::Cal, 0)]);
    p.instructions.extend([
        bare(Opcode::BgnSub),
        bare(Opcode::Ret),
        bare(Opcode::EndSub),
    ]);
    assert_eq!(
        only(&p, Rule::CallTarget),
        "1:1: instruction 0: CAL :0 must point at a BGNSUB, not at CAL"
    );
    p.instructions[0].label = Some(2);
    assert_eq!(validate(&p, &Limits::default()), Ok(()));
}

#[test]
fn missing_end() {
    let p = program(vec![bare(Opcode::Nop)]);
    assert_eq!(only(&p, Rule::MissingEnd), "1:1: the program has no END");
}

#[test]
fn repeated_end() {
    let p = main(vec![bare(Opcode::End)]);
    let e = errors(&p);
    // The second END is both repeated and after END.
    assert_eq!(e.len(), 2, "{e:#?}");
    assert_eq!(e[0].rule, Rule::AfterEnd);
    assert_eq!(e[1].rule, Rule::RepeatedEnd);
    assert_eq!(
        e[1].to_string(),
        "2:1: instruction 1: second END (the first is instruction 0)"
    );
}

#[test]
fn code_after_end_outside_subroutines() {
    let mut p = main(vec![]);
    p.instructions.push(bare(Opcode::Nop));
    assert_eq!(
        only(&p, Rule::AfterEnd),
        "<generated>: instruction 1: NOP follows END outside a subroutine (BGNSUB ... ENDSUB)"
    );
    let p = main(vec![bare(Opcode::BgnSub), bare(Opcode::EndSub)]);
    assert_eq!(
        only(&p, Rule::AfterEnd),
        "1:1: instruction 0: BGNSUB before END: subroutines follow the main program"
    );
}

#[test]
fn unbalanced_subroutines() {
    let mut p = main(vec![]);
    p.instructions.push(bare(Opcode::EndSub));
    assert_eq!(
        only(&p, Rule::Unbalanced),
        "<generated>: instruction 1: ENDSUB without BGNSUB"
    );
    let mut p = main(vec![]);
    p.instructions
        .extend([bare(Opcode::BgnSub), bare(Opcode::Ret)]);
    assert_eq!(
        only(&p, Rule::Unbalanced),
        "<generated>: instruction 1: BGNSUB has no ENDSUB"
    );
    let mut p = main(vec![]);
    p.instructions.extend([
        bare(Opcode::BgnSub),
        bare(Opcode::BgnLoop),
        bare(Opcode::EndSub),
    ]);
    assert_eq!(
        only(&p, Rule::Unbalanced),
        "<generated>: instruction 2: BGNLOOP is not closed before ENDSUB at instruction 3"
    );
}

#[test]
fn nesting_deeper_than_the_limit() {
    let limits = Limits { max_nesting: 2 };
    let mut body = vec![if_temp(), if_temp(), if_temp()];
    body.extend(vec![bare(Opcode::EndIf); 3]);
    let e = validate(&main(body.clone()), &limits).unwrap_err();
    assert_eq!(e.len(), 1, "{e:#?}");
    assert_eq!(e[0].rule, Rule::Nesting);
    assert_eq!(
        e[0].to_string(),
        "3:1: instruction 2: nesting depth 3 exceeds the limit of 2"
    );
    assert_eq!(validate(&main(body), &Limits::default()), Ok(()));
}

#[test]
fn call_nesting_counts_the_callee() {
    // IF { CAL sub } with sub = BGNLOOP ... ENDLOOP: 1 + 1 + 1 = 3 levels.
    let mut p = main(vec![
        if_temp(),
        labelled(Opcode::Cal, 4),
        bare(Opcode::EndIf),
    ]);
    p.instructions.extend([
        bare(Opcode::BgnSub),
        bare(Opcode::BgnLoop),
        bare(Opcode::EndLoop),
        bare(Opcode::EndSub),
    ]);
    let e = validate(&p, &Limits { max_nesting: 2 }).unwrap_err();
    assert_eq!(e.len(), 1, "{e:#?}");
    assert_eq!(
        e[0].to_string(),
        "2:1: instruction 1: call nesting reaches depth 3, over the limit of 2"
    );
    assert_eq!(validate(&p, &Limits { max_nesting: 3 }), Ok(()));
}

#[test]
fn recursion_is_rejected() {
    let mut p = main(vec![labelled(Opcode::Cal, 2)]);
    p.instructions.extend([
        bare(Opcode::BgnSub),
        labelled(Opcode::Cal, 2),
        bare(Opcode::EndSub),
    ]);
    assert_eq!(
        only(&p, Rule::Nesting),
        "<generated>: instruction 3: recursive call to the subroutine at instruction 2 (no static depth bound)"
    );
}

#[test]
fn malformed_declarations() {
    let mut p = main(vec![]);
    p.declarations.push(decl(File::Temporary, 5, 3));
    assert_eq!(
        only(&p, Rule::Declaration),
        "0:1: DCL TEMP[5..3]: the range must satisfy 0 <= first <= last <= 32767"
    );
    let mut p = main(vec![]);
    p.declarations.push(Declaration {
        array_data: vec![[0; 4]],
        ..decl(File::ImmediateArray, 0, 1)
    });
    assert_eq!(
        only(&p, Rule::Declaration),
        "0:1: DCL IMMX[0..1]: 1 data elements for 2 registers"
    );
}

#[test]
fn property_without_values() {
    let mut p = main(vec![]);
    p.properties.push(Property {
        name: PropertyName::FsCoordOrigin,
        values: vec![],
        loc: Loc::Text { line: 2, col: 1 },
    });
    assert_eq!(
        only(&p, Rule::Declaration),
        "2:1: PROPERTY FS_COORD_ORIGIN has 0 values; 1 to 254 (one token) expected"
    );
}

#[test]
fn every_error_is_collected() {
    let p = program(vec![
        bare(Opcode::Brk),
        mov(dst(File::Input, 0), src(File::Temporary, 9)),
    ]);
    let rules: Vec<Rule> = errors(&p).iter().map(|e| e.rule).collect();
    assert_eq!(
        rules,
        [
            Rule::ReadOnly,
            Rule::OutOfRange,
            Rule::LoopControl,
            Rule::MissingEnd
        ]
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn generated_programs_validate(p in arbitrary::program()) {
        let r = validate(&p, &Limits::default());
        prop_assert!(r.is_ok(), "{:#?}", r);
    }
}

#[test]
fn bra_stays_in_its_body() {
    // 0: BRA :3 (into the subroutine)  1: END  2: BGNSUB  3: NOP  4: BRA :1 (out of it)  5: ENDSUB
    let mut p = program(vec![
        labelled(Opcode::Bra, 3),
        bare(Opcode::End),
        bare(Opcode::BgnSub),
        bare(Opcode::Nop),
        labelled(Opcode::Bra, 1),
        bare(Opcode::EndSub),
    ]);
    let e = errors(&p);
    let shown: Vec<String> = e.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        [
            "1:1: instruction 0: BRA :3 jumps into the subroutine that starts at instruction 2",
            "5:1: instruction 4: BRA :1 jumps out of the subroutine into the main program",
        ]
    );
    assert!(e.iter().all(|e| e.rule == Rule::Label));
    // Jumps inside their own body are fine.
    p.instructions[0].label = Some(1);
    p.instructions[4].label = Some(5);
    assert_eq!(validate(&p, &Limits::default()), Ok(()));
}

/// Issue #20 item 1: checking operands against declarations is linear, not declarations times
/// operands (20,000 of each took 5 s when every operand scanned every declaration).
#[test]
fn many_declarations_and_operands_validate_quickly() {
    let n = 20_000;
    let mut text = String::from("FRAG\n");
    for k in 0..n {
        text += &format!("DCL TEMP[{k}]\n");
    }
    for k in 0..n {
        text += &format!("MOV TEMP[{k}], TEMP[{}]\n", n - 1 - k);
    }
    text += "END\n";
    let p = crate::tgsi::text::parse(&text).expect("parses");
    let start = std::time::Instant::now();
    assert_eq!(validate(&p, &Limits::default()), Ok(()));
    // Tens of milliseconds in a debug build; the quadratic scan took seconds in release.
    assert!(start.elapsed().as_secs_f64() < 1.0, "{:?}", start.elapsed());
    // The index agrees with the scan on gaps, 2-D shapes and reversed ranges.
    let p = crate::tgsi::text::parse(
        "GEOM\nDCL IN[][0..1]\nDCL TEMP[0..1]\nDCL TEMP[5..6]\nDCL CONST[1][2..3]\n\
         MOV TEMP[0], TEMP[6]\nMOV TEMP[1], TEMP[3]\nMOV TEMP[0], IN[4][1]\nMOV TEMP[0], CONST[1][3]\n\
         MOV TEMP[0], CONST[2][3]\nMOV TEMP[0], CONST[1][4]\nEND\n",
    )
    .expect("parses");
    let e = validate(&p, &Limits::default()).unwrap_err();
    let msgs: Vec<String> = e.iter().map(|e| e.message.clone()).collect();
    assert_eq!(
        msgs,
        [
            "src 0: TEMP[3] is outside the declared ranges of TEMP",
            "src 0: CONST[2][3] matches no 2-D declaration of CONST",
            "src 0: CONST[1][4] is outside the declared ranges of CONST",
        ]
    );
}

/// Issue #20 item 2: 10,000 nested IFs give one nesting error with a count, not one per level.
#[test]
fn deep_nesting_is_reported_once() {
    let n = 10_000;
    let mut text = String::from("FRAG\nDCL IN[0]\n");
    text += &"IF IN[0].xxxx\n".repeat(n);
    text += &"ENDIF\n".repeat(n);
    text += "END\n";
    let p = crate::tgsi::text::parse(&text).expect("parses");
    let e = validate(&p, &Limits::default()).unwrap_err();
    assert_eq!(e.len(), 1, "{:?}", &e[..e.len().min(3)]);
    assert_eq!(
        e[0].message,
        format!(
            "nesting depth 17 exceeds the limit of 16 (and {} more blocks nested beyond it)",
            n - 17
        )
    );
    // The printer caps its indentation, so the text stays linear in the program's size.
    let printed = crate::tgsi::text::print(&p);
    assert!(printed.len() < 40 * text.len(), "{}", printed.len());
    assert_eq!(crate::tgsi::text::parse(&printed).unwrap(), p);
}

/// Issue #20 item 3: an empty write mask (tokens only) has no text form, so it does not validate.
#[test]
fn an_empty_write_mask_is_refused() {
    let mut p =
        crate::tgsi::text::parse("FRAG\nDCL OUT[0]\nIMM FLT32 { 1.0 }\nMOV OUT[0], IMM[0]\nEND\n")
            .expect("parses");
    assert_eq!(validate(&p, &Limits::default()), Ok(()));
    p.instructions[0].dst[0].write_mask = 0;
    assert_eq!(
        only(&p, Rule::FieldRange),
        "4:1: instruction 0: dst 0: write mask is empty (writes no component)"
    );
}

/// Issue #20 item 8: a text file without END (and without instructions) is located at its last
/// line, not at `<generated>`.
#[test]
fn a_missing_end_is_located_in_the_file() {
    let p = crate::tgsi::text::parse("FRAG\nDCL IN[0]\nDCL OUT[0]\n").expect("parses");
    assert_eq!(only(&p, Rule::MissingEnd), "3:1: the program has no END");
}

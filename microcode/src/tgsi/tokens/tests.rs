//! Token codec tests. Expected words are computed by hand from the bit layouts in
//! `tgsi-reference.md` (the arithmetic is in the comments).

use super::*;
use crate::tgsi::arbitrary;
use crate::tgsi::ir::*;
use crate::tgsi::opcode::{Opcode, OPCODES};
use crate::tgsi::validate::{validate, Limits};
use proptest::prelude::*;

/// VERSION 1.`minor`, HEADER (HeaderSize 2, BodySize), PROCESSOR, then `body`.
fn stream(minor: u32, processor: u32, body: &[u32]) -> Vec<u32> {
    let mut v = vec![1 | minor << 8, 2 | (body.len() as u32) << 8, processor];
    v.extend_from_slice(body);
    v
}

fn src(file: File, index: i32) -> SrcOperand {
    SrcOperand::new(Register::new(file, index))
}

fn dst(file: File, index: i32) -> DstOperand {
    DstOperand::new(Register::new(file, index))
}

fn with(inst: Instruction) -> Program {
    let mut p = Program::new(Processor::Fragment);
    p.instructions.push(inst);
    p
}

/// Encodes, checks the body words and that decoding gives the program back.
fn check(p: &Program, minor: u32, body: &[u32]) {
    let words = encode(p);
    let expected = stream(minor, p.processor as u32, body);
    let hex = |w: &[u32]| {
        w.iter()
            .map(|x| format!("{x:08x}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(hex(&words), hex(&expected));
    let back = decode(&words).expect("decodes");
    assert_eq!(back.program, *p);
    assert_eq!(u32::from(back.minor_version), minor);
    assert!(back.warnings.is_empty(), "{:?}", back.warnings);
}

#[test]
fn empty_program_header() {
    // VERSION 0x0101 (major 1, minor 1); HEADER HeaderSize 2, BodySize 0; PROCESSOR VERTEX 1.
    check(&Program::new(Processor::Vertex), 1, &[]);
    assert_eq!(
        encode(&Program::new(Processor::Vertex)),
        [0x0101, 0x0002, 1]
    );
}

#[test]
fn worked_example_mad_sat() {
    // MAD_SAT OUT[0].xyz, -IN[0].zyxw, |IMM[0].xxxx|, IMM[0]
    let mut out = dst(File::Output, 0);
    out.write_mask = 0b0111;
    let mut a = src(File::Input, 0);
    a.swizzle = [2, 1, 0, 3];
    a.negate = true;
    let mut b = src(File::Immediate, 0);
    b.swizzle = [0; 4];
    b.ext_mod.absolute = true;
    let inst = Instruction {
        saturate: Saturate::ZeroOne,
        dst: vec![out],
        src: vec![a, b, src(File::Immediate, 0)],
        ..Instruction::new(Opcode::Mad)
    };
    let body = [
        0x03510062, 0x00000073, 0x00001c62, 0x80000007, 0x00000081, 0x00000e47,
    ];
    check(&with(inst), 1, &body);
}

#[test]
fn later_mesa_opcodes_are_v12() {
    // UCMP OUT[0], TEMP[0].xxxx, IMM[0].yzzz, IMM[0].yyyz (frag-ucmp.sh): type 2 | Size 5 << 4
    // | opcode 119 << 12 (0x77000) | NumDst 1 << 22 | NumSrc 3 << 24 = 0x03477052;
    // OUT[0].xyzw: 3 | mask 0xF << 4 = 0xF3; TEMP[0].xxxx: 4; IMM[0].yzzz: 7 | (1 | 2 << 2 |
    // 2 << 4 | 2 << 6) << 4 = 7 | 0xA9 << 4 = 0xA97; IMM[0].yyyz: 7 | (1 | 1 << 2 | 1 << 4 |
    // 2 << 6) << 4 = 7 | 0x95 << 4 = 0x957. Opcode 119 is version 1.2 (decisions.md section 5).
    let mut a = src(File::Temporary, 0);
    a.swizzle = [0; 4];
    let mut b = src(File::Immediate, 0);
    b.swizzle = [1, 2, 2, 2];
    let mut c = src(File::Immediate, 0);
    c.swizzle = [1, 1, 1, 2];
    let inst = Instruction {
        dst: vec![dst(File::Output, 0)],
        src: vec![a, b, c],
        ..Instruction::new(Opcode::Ucmp)
    };
    check(
        &with(inst),
        2,
        &[0x03477052, 0x000000F3, 0x00000004, 0x00000A97, 0x00000957],
    );
    // IMUL_HI (121) and UMUL (124) alike; MOV (1) stays 1.1.
    for (op, v12) in [
        (Opcode::ImulHi, true),
        (Opcode::Umul, true),
        (Opcode::Mov, false),
    ] {
        let mut i = Instruction::new(op);
        i.dst = vec![dst(File::Output, 0)];
        i.src = (0..op.info().num_src)
            .map(|_| src(File::Input, 0))
            .collect();
        assert_eq!(needs_v12(&with(i)), v12, "{op}");
    }
}

#[test]
fn range_declaration_with_interpolation() {
    // DCL IN[0..3], PERSPECTIVE: type 0 | Size 3 << 4 | IN 2 << 12 | Interpolate 1 << 20
    // = 0x00102030; RANGE 0 | 3 << 16; INTERPOLATION 2.
    let mut p = Program::new(Processor::Fragment);
    p.declarations.push(Declaration {
        file: File::Input,
        dimension: None,
        first: 0,
        last: 3,
        usage_mask: 0xF,
        semantic: None,
        interpolate: Some(Interpolate::Perspective),
        array_data: vec![],
        loc: Loc::None,
    });
    check(&p, 1, &[0x00102030, 0x00030000, 2]);
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
        array_data: vec![],
        loc: Loc::None,
    }
}

#[test]
fn declaration_semantic_and_usage_mask_are_v12() {
    // DCL OUT[1].xy, COLOR[2]: Size 3 << 4 = 0x30 | OUT 3 << 12 | Semantic 1 << 21 | UsageMask
    // 3 << 22 = 0x00E03030; RANGE 1 | 1 << 16; SEMANTIC COLOR 1 | 2 << 8.
    let mut p = Program::new(Processor::Vertex);
    p.declarations.push(Declaration {
        usage_mask: 0b0011,
        semantic: Some(Semantic {
            name: SemanticName::Color,
            index: 2,
        }),
        ..decl(File::Output, 1, 1)
    });
    check(&p, 2, &[0x00E03030, 0x00010001, 0x201]);
}

#[test]
fn two_dimensional_declarations() {
    // DCL CONST[1][0..6]: Dimension 1 << 26 | CONST 1 << 12 | Size 3 << 4 = 0x04001030;
    // RANGE 6 << 16; declaration DIMENSION index 1.
    // DCL IN[][0..2]: 0x04002030; RANGE 2 << 16; DIMENSION Empty 1 << 16.
    let mut p = Program::new(Processor::Geometry);
    p.declarations.push(Declaration {
        dimension: Some(DeclDimension::Index(1)),
        ..decl(File::Constant, 0, 6)
    });
    p.declarations.push(Declaration {
        dimension: Some(DeclDimension::Empty),
        ..decl(File::Input, 0, 2)
    });
    let body = [
        0x04001030, 0x00060000, 1, 0x04002030, 0x00020000, 0x00010000,
    ];
    check(&p, 2, &body);
}

#[test]
fn immx_declaration_carries_its_data() {
    // DCL IMMX[0..1] {...}: IMMX 11 << 12 | Size 10 << 4 = 0xB0A0; RANGE 1 << 16; 8 data words.
    let mut p = Program::new(Processor::Fragment);
    p.declarations.push(Declaration {
        array_data: vec![[1, 2, 3, 4], [5, 6, 7, 8]],
        ..decl(File::ImmediateArray, 0, 1)
    });
    check(&p, 2, &[0xB0A0, 0x00010000, 1, 2, 3, 4, 5, 6, 7, 8]);
}

#[test]
fn immediates_of_each_type() {
    // FLT32 {1.0, 2.0}: 1 | Size 3 << 4 = 0x31; INT32 {-1}: 0x21 | 2 << 12 = 0x2021.
    let mut p = Program::new(Processor::Fragment);
    p.immediates.push(Immediate {
        ty: ImmType::Float32,
        values: vec![0x3f800000, 0x40000000],
        loc: Loc::None,
    });
    check(&p, 1, &[0x31, 0x3f800000, 0x40000000]);
    p.immediates.push(Immediate {
        ty: ImmType::Int32,
        values: vec![0xFFFFFFFF],
        loc: Loc::None,
    });
    check(&p, 2, &[0x31, 0x3f800000, 0x40000000, 0x2021, 0xFFFFFFFF]);
}

#[test]
fn property_token() {
    // PROPERTY FS_COORD_ORIGIN LOWER_LEFT: 3 | Size 2 << 4 | name 3 << 12 = 0x3023, value 1.
    let mut p = Program::new(Processor::Fragment);
    p.properties.push(Property {
        name: PropertyName::FsCoordOrigin,
        values: vec![1],
        loc: Loc::None,
    });
    check(&p, 2, &[0x3023, 1]);
}

#[test]
fn nv_extension_movc() {
    // The 004 document's MOVC: INSTRUCTION MOV, Extended; NV with CondDstUpdate, index 0.
    // INSTRUCTION 2 | Size 4 << 4 | MOV 1 << 12 | 1 dst << 22 | 1 src << 24 | 1 << 31 = 0x81401042
    // NV: CC_TR 6 << 16 | identity swizzle 0xE4 << 20 | CondDstUpdate 1 << 28 = 0x1E460000
    // dst TEMP[0]: 4 | 0xF << 4 = 0xF4; src TEMP[1]: 4 | 0xE4 << 4 | 1 << 15 = 0x8E44.
    let inst = Instruction {
        cond_update: Some(0),
        dst: vec![dst(File::Temporary, 0)],
        src: vec![src(File::Temporary, 1)],
        ..Instruction::new(Opcode::Mov)
    };
    check(&with(inst), 1, &[0x81401042, 0x1E460000, 0xF4, 0x8E44]);
}

#[test]
fn nv_extension_cond_flow_and_precision() {
    // KILP (GT1.yyyy), precision FLOAT16: NV = 0 | 2 << 4 | flow index 1 << 12 | GT 0 << 16 |
    // swizzle 0x55 << 20 | CondFlowEnable 1 << 29 = 0x25501020.
    // INSTRUCTION 2 | Size 2 << 4 | KILP 39 << 12 | Extended = 0x80027022.
    let inst = Instruction {
        precision: Precision::Float16,
        cond_flow: Some(CondTest {
            mask: CondMask::Gt,
            index: 1,
            swizzle: [1; 4],
        }),
        ..Instruction::new(Opcode::Kilp)
    };
    check(&with(inst), 1, &[0x80027022, 0x25501020]);
}

#[test]
fn label_and_texture_extensions() {
    // CAL :5 -> 2 | Size 2 << 4 | CAL 63 << 12 | Extended = 0x8003F022; LABEL 1 | 5 << 4 = 0x51.
    check(
        &with(Instruction {
            label: Some(5),
            ..Instruction::new(Opcode::Cal)
        }),
        1,
        &[0x8003F022, 0x51],
    );
    // TEX TEMP[0], IN[0], SAMP[0], 2D -> 2 | Size 5 << 4 | TEX 52 << 12 | 1 dst | 2 src | Ext
    // = 0x82434052; TEXTURE 2 | 2D 2 << 4 = 0x22; dst 0xF4; IN[0] 0xE42; SAMP[0] 0xE45.
    let inst = Instruction {
        texture: Some(TextureTarget::T2D),
        dst: vec![dst(File::Temporary, 0)],
        src: vec![src(File::Input, 0), src(File::Sampler, 0)],
        ..Instruction::new(Opcode::Tex)
    };
    check(&with(inst), 1, &[0x82434052, 0x22, 0xF4, 0xE42, 0xE45]);
}

#[test]
fn ext_swizzle_swz_example() {
    // SWZ dest, TEMP[12], 0, -1, x, -w (the 004 document's example).
    // src 4 | 0xE4 << 4 | 12 << 15 | Extended = 0x80060E44
    // EXT_SWZ 0 | ZERO 4 << 4 | ONE 5 << 8 | X 0 << 12 | W 3 << 16 | negate y 1 << 21 |
    // negate w 1 << 23 | divide ONE 5 << 24 = 0x05A30540
    let mut s = src(File::Temporary, 12);
    s.ext_swizzle = Some(ExtSwizzle {
        select: [ExtSel::Zero, ExtSel::One, ExtSel::X, ExtSel::W],
        negate: [false, true, false, true],
        divide: ExtSel::One,
    });
    let inst = Instruction {
        dst: vec![dst(File::Temporary, 0)],
        src: vec![s],
        ..Instruction::new(Opcode::Swz)
    };
    // INSTRUCTION 2 | Size 4 << 4 | SWZ 118 << 12 | 1 dst | 1 src = 0x01476042
    check(&with(inst), 1, &[0x01476042, 0xF4, 0x80060E44, 0x05A30540]);
}

#[test]
fn ext_mod_every_flag() {
    // EXT_MOD 1 | Complement 1 << 4 | Bias 1 << 5 | Scale2X 1 << 6 | Absolute 1 << 7 |
    // Negate 1 << 8 = 0x1F1
    let mut s = src(File::Temporary, 0);
    s.ext_mod = ExtMod {
        complement: true,
        bias: true,
        scale2x: true,
        absolute: true,
        negate: true,
    };
    let inst = Instruction {
        dst: vec![dst(File::Temporary, 0)],
        src: vec![s],
        ..Instruction::new(Opcode::Mov)
    };
    check(&with(inst), 1, &[0x01401042, 0xF4, 0x80000E44, 0x1F1]);
}

#[test]
fn indirect_and_dimension_operands() {
    // MOV TEMP[0], CONST[ADDR[1].y+17] (the 004 document's example):
    // src 1 | 0xE4 << 4 | Indirect 1 << 13 | 17 << 15 = 0x0008AE41
    // address 6 | yyyy 0x55 << 4 | 1 << 15 = 0x8556
    let mut r = Register::new(File::Constant, 17);
    r.indirect = Some(Indirect {
        file: File::Address,
        index: 1,
        component: 1,
    });
    let inst = Instruction {
        dst: vec![dst(File::Temporary, 0)],
        src: vec![SrcOperand::new(r)],
        ..Instruction::new(Opcode::Mov)
    };
    check(&with(inst), 1, &[0x01401042, 0xF4, 0x0008AE41, 0x8556]);

    // MOV TEMP[0], CONST[1][ADDR[0].x-3]: src 1 | 0xE40 | Dimension 1 << 14 | 1 << 15 = 0xCE41
    // DIMENSION Indirect 1 | -3 (0xFFFD) << 15 = 0x7FFE8001; address 6 = 0x6.
    let mut r = Register::new(File::Constant, 1);
    r.dimension = Some(Dimension {
        index: -3,
        indirect: Some(Indirect {
            file: File::Address,
            index: 0,
            component: 0,
        }),
    });
    let inst = Instruction {
        dst: vec![dst(File::Temporary, 0)],
        src: vec![SrcOperand::new(r)],
        ..Instruction::new(Opcode::Mov)
    };
    check(&with(inst), 1, &[0x01401052, 0xF4, 0xCE41, 0x7FFE8001, 0x6]);
}

#[test]
fn dst_condcode_and_modulate() {
    // MOV TEMP[0] (EQ1.xyww), x2: DST 4 | 0xF << 4 | Extended = 0x800000F4;
    // CONDCODE 0 | EQ 1 << 4 | xyww 0xF4 << 8 | index 1 << 16 = 0x0001F410 (Extended);
    // MODULATE 1 | 2X 1 << 4 = 0x11.
    let mut d = dst(File::Temporary, 0);
    d.cond = Some(CondTest {
        mask: CondMask::Eq,
        index: 1,
        swizzle: [0, 1, 3, 3],
    });
    d.modulate = Modulate::X2;
    let inst = Instruction {
        dst: vec![d],
        src: vec![src(File::Temporary, 1)],
        ..Instruction::new(Opcode::Mov)
    };
    check(
        &with(inst),
        1,
        &[0x01401052, 0x800000F4, 0x8001F410, 0x11, 0x8E44],
    );
}

#[test]
fn every_opcode_decodes_from_its_number() {
    for r in OPCODES {
        // INSTRUCTION 2 | Size 1 << 4 | number << 12, no operands.
        let words = stream(1, 0, &[0x12 | u32::from(r.number) << 12]);
        let d = decode(&words).expect("decodes");
        assert_eq!(d.program.instructions.len(), 1);
        assert_eq!(d.program.instructions[0].opcode, r.opcode, "{}", r.mnemonic);
    }
}

#[test]
fn unknown_opcode_number_is_an_error() {
    let words = stream(1, 0, &[0x12 | 150 << 12]);
    let e = decode(&words).unwrap_err();
    assert_eq!(e.offset(), 3);
    assert!(e.to_string().contains("opcode"), "{e}");
}

#[test]
fn mask_declaration_splits_into_runs() {
    // DECLARE_MASK TEMP with bits 1-2, 4, 6-7: 0 | Size 2 << 4 | TEMP 4 << 12 | MASK 1 << 16.
    let words = stream(1, 0, &[0x14020, 0b1101_0110]);
    let d = decode(&words).expect("decodes");
    let ranges: Vec<(i32, i32)> = d
        .program
        .declarations
        .iter()
        .map(|d| (d.first, d.last))
        .collect();
    assert_eq!(ranges, [(1, 2), (4, 4), (6, 7)]);
    assert!(d
        .program
        .declarations
        .iter()
        .all(|d| d.file == File::Temporary));
}

#[test]
fn unknown_token_type_is_skipped_with_a_warning() {
    // Type 9, Size 3, then a NOP (107).
    let words = stream(1, 0, &[0x39, 0xDEAD, 0xBEEF, 0x12 | 107 << 12]);
    let d = decode(&words).expect("decodes");
    assert_eq!(d.program.instructions.len(), 1);
    assert!(matches!(
        d.program.instructions[0].loc,
        Loc::Token { offset: 6 }
    ));
    assert_eq!(d.warnings.len(), 1);
    assert_eq!(d.warnings[0].offset, 3);
    assert!(d.warnings[0].message.contains("unknown token type 9"));
}

#[test]
fn newer_major_version_is_refused() {
    let mut words = stream(1, 0, &[]);
    words[0] = 0x0102;
    let e = decode(&words).unwrap_err();
    assert_eq!(
        e.to_string(),
        "word 0: token stream version 2.1 is not supported (expected major version 1)"
    );
}

#[test]
fn newer_minor_version_loads_but_is_not_executable() {
    let d = decode(&stream(3, 0, &[0x12 | 107 << 12])).expect("loads");
    assert!(!d.program.executable);
    assert_eq!(d.minor_version, 3);
    assert!(d.warnings[0].message.contains("not executable"));
    assert!(
        decode(&stream(2, 0, &[]))
            .expect("loads")
            .program
            .executable
    );
}

#[test]
fn instruction_size_disagreement_names_the_offset() {
    // MOV with one dst and one src holds 3 words; Size says 4 (a NOP word follows inside it).
    let words = stream(1, 0, &[0x01401042, 0xF4, 0x8E44, 0x12 | 107 << 12]);
    let e = decode(&words).unwrap_err();
    assert_eq!(
        e.to_string(),
        "word 3: instruction Size is 4 tokens but it holds 3"
    );
    // Size 1, but the operands run past the body.
    let e = decode(&stream(1, 0, &[0x01401012, 0xF4])).unwrap_err();
    assert_eq!(
        e.to_string(),
        "word 3: instruction of Size 1 ends where a SRC_REGISTER token was expected"
    );
}

#[test]
fn unknown_extension_tokens_are_skipped() {
    // NOP, Extended; extension type 7 (unknown), Extended; LABEL 4 (known).
    let words = stream(1, 0, &[0x8006B032, 0x80000007, 0x41]);
    let d = decode(&words).expect("decodes");
    assert_eq!(d.program.instructions[0].label, Some(4));
    assert_eq!(d.warnings.len(), 1);
    assert_eq!(d.warnings[0].offset, 4);
}

#[test]
fn label_declaration_is_ignored() {
    // LABEL with Target = TRUE (1 << 28) declares a label; it is not a jump target.
    let words = stream(1, 0, &[0x8006B022, 0x10000051]);
    let d = decode(&words).expect("decodes");
    assert_eq!(d.program.instructions[0].label, None);
}

#[test]
fn duplicate_extension_tokens_are_recorded() {
    // TEX with two TEXTURE tokens (2D, then 3D): the first wins, the second is recorded.
    let words = stream(1, 0, &[0x82434062, 0x80000022, 0x32, 0xF4, 0xE42, 0xE45]);
    let d = decode(&words).expect("decodes");
    assert_eq!(d.program.instructions[0].texture, Some(TextureTarget::T2D));
    assert_eq!(d.program.duplicate_extensions.len(), 1);
    assert_eq!(d.program.duplicate_extensions[0].what, "TEXTURE");
    assert!(matches!(
        d.program.duplicate_extensions[0].loc,
        Loc::Token { offset: 5 }
    ));
}

#[test]
fn truncated_streams_are_errors() {
    assert_eq!(
        decode(&[]).unwrap_err().to_string(),
        "word 0: the stream ends where a VERSION token was expected"
    );
    assert_eq!(decode(&[0x101, 2]).unwrap_err().offset(), 2);
    // BodySize 2 but only one body word.
    let e = decode(&[0x101, 0x202, 0, 0x12 | 107 << 12]).unwrap_err();
    assert_eq!(e.offset(), 4);
}

#[test]
fn bytes_round_trip_and_odd_lengths_fail() {
    let words = [0x0101u32, 0x00000002, 0x01];
    let bytes = to_bytes(&words);
    assert_eq!(&bytes[..4], &[1, 1, 0, 0]);
    assert_eq!(from_bytes(&bytes).expect("whole words"), words);
    let e = from_bytes(&bytes[..7]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "byte length 7 is not a multiple of 4 (a partial word at word offset 1)"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn encode_decode_round_trip(p in arbitrary::program()) {
        let words = encode(&p);
        let d = decode(&words).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&d.program, &p);
        prop_assert!(d.warnings.is_empty());
        prop_assert_eq!(u32::from(d.minor_version), if needs_v12(&p) { 2 } else { 1 });
    }

    #[test]
    fn arbitrary_words_never_panic(words in proptest::collection::vec(any::<u32>(), 0..64)) {
        let _ = decode(&words);
        if let Ok(d) = decode(&stream(1, 0, &words)) {
            let _ = validate(&d.program, &Limits::default());
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        if let Ok(words) = from_bytes(&bytes) {
            let _ = decode(&words);
        }
    }

    #[test]
    fn mangled_encodings_never_panic(
        p in arbitrary::program(),
        edits in proptest::collection::vec((any::<usize>(), any::<u32>()), 1..4),
        cut in any::<usize>(),
    ) {
        let mut words = encode(&p);
        for (at, bits) in edits {
            let n = words.len();
            words[at % n] ^= bits;
        }
        // Whatever decodes must also validate (or fail validation) without panicking.
        if let Ok(d) = decode(&words) {
            let _ = validate(&d.program, &Limits::default());
        }
        let n = words.len();
        let _ = decode(&words[..cut % (n + 1)]);
    }
}

#[test]
fn duplicate_extension_tokens_fail_validation() {
    use crate::tgsi::validate::Rule;
    // MOV TEMP[0], |TEMP[1]| with two EXT_MOD tokens, then END (117):
    // INSTRUCTION Size 5 = 0x01401052; src 0x80008E44; EXT_MOD 0x80000081, 0x00000081.
    let words = stream(
        1,
        0,
        &[
            0x00004020,
            0x00010000, // DCL TEMP[0..1]
            0x01401052,
            0xF4,
            0x80008E44,
            0x80000081,
            0x81,
            0x12 | 117 << 12,
        ],
    );
    let d = decode(&words).expect("decodes");
    assert!(d.program.instructions[0].src[0].ext_mod.absolute);
    let e = validate(&d.program, &Limits::default()).unwrap_err();
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0].rule, Rule::DuplicateExtension);
    assert_eq!(
        e[0].to_string(),
        "token 9: instruction 0: extension token src 0 EXT_MOD appears twice"
    );
}

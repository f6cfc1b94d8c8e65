//! Programs built in memory print to the text written out by hand here, and that text parses back
//! to the same program.

use microcode::tgsi::text::{parse, print, print_with, PrintOptions};
use microcode::tgsi::*;

fn r(file: File, index: i32) -> Register {
    Register::new(file, index)
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

fn op(opcode: Opcode, dst: &[DstOperand], src: &[SrcOperand]) -> Instruction {
    let mut i = Instruction::new(opcode);
    i.dst = dst.to_vec();
    i.src = src.to_vec();
    i
}

fn d(file: File, index: i32) -> DstOperand {
    DstOperand::new(r(file, index))
}

fn s(file: File, index: i32) -> SrcOperand {
    SrcOperand::new(r(file, index))
}

/// Checks the printed text and that it parses back to the program.
fn check(p: &Program, expected: &str) {
    let text = print(p);
    assert_eq!(text, expected);
    assert_eq!(parse(&text).as_ref(), Ok(p));
}

#[test]
fn header_declarations_immediates() {
    let mut p = Program::new(Processor::Fragment);
    let mut input = decl(File::Input, 0, 0);
    input.semantic = Some(Semantic {
        name: SemanticName::Color,
        index: 0,
    });
    input.interpolate = Some(Interpolate::Linear);
    p.declarations.push(input);
    let mut out = decl(File::Output, 0, 1);
    out.usage_mask = 0b1010;
    out.semantic = Some(Semantic {
        name: SemanticName::Generic,
        index: 0,
    });
    p.declarations.push(out);
    let mut col = decl(File::Output, 2, 2);
    col.semantic = Some(Semantic {
        name: SemanticName::Color,
        index: 3,
    });
    p.declarations.push(col);
    p.declarations.push(decl(File::Temporary, 0, 3));
    p.immediates.push(Immediate {
        ty: ImmType::Float32,
        values: vec![0x3f00_0000, 0x8000_0000, 0x7fc0_0001, 0xff80_0000],
        loc: Loc::None,
    });
    p.immediates.push(Immediate {
        ty: ImmType::Int32,
        values: vec![0xffff_ffff, 5],
        loc: Loc::None,
    });
    p.immediates.push(Immediate {
        ty: ImmType::Uint32,
        values: vec![0xffff_ffff],
        loc: Loc::None,
    });
    p.immediates.push(Immediate {
        ty: ImmType::Float32,
        values: vec![0x3dcc_cccd, 0x0000_0001, 0x4b80_0000, 0x7f7f_ffff],
        loc: Loc::None,
    });
    p.instructions
        .push(op(Opcode::Mov, &[d(File::Output, 0)], &[s(File::Input, 0)]));
    p.instructions.push(Instruction::new(Opcode::End));
    check(
        &p,
        "FRAG\n\
         DCL IN[0], COLOR, LINEAR\n\
         DCL OUT[0..1].yw, GENERIC[0]\n\
         DCL OUT[2], COLOR[3]\n\
         DCL TEMP[0..3]\n\
         IMM FLT32 {0.5, -0.0, 0x7fc00001, -inf}\n\
         IMM INT32 {-1, 5}\n\
         IMM UINT32 {4294967295}\n\
         IMM FLT32 {0.1, 1e-45, 16777216.0, 3.4028235e38}\n  \
         0: MOV OUT[0], IN[0]\n  \
         1: END\n",
    );
    assert_eq!(
        print_with(
            &p,
            &PrintOptions {
                dialect: Dialect::V11
            }
        )
        .lines()
        .next(),
        Some("FRAG1.1")
    );
}

#[test]
fn geometry_properties_and_2d_declarations() {
    let mut p = Program::new(Processor::Geometry);
    let prop = |name, v: u32| Property {
        name,
        values: vec![v],
        loc: Loc::None,
    };
    p.properties.push(prop(PropertyName::GsInputPrimitive, 4));
    p.properties.push(prop(PropertyName::GsOutputPrimitive, 5));
    p.properties
        .push(prop(PropertyName::GsMaxOutputVertices, 3));
    p.properties.push(prop(PropertyName::FsCoordOrigin, 0));
    p.properties.push(prop(PropertyName::FsCoordPixelCenter, 1));
    p.properties.push(prop(PropertyName::GsOutputPrimitive, 99));
    let mut gin = decl(File::Input, 0, 0);
    gin.dimension = Some(DeclDimension::Empty);
    gin.semantic = Some(Semantic {
        name: SemanticName::Position,
        index: 0,
    });
    gin.interpolate = Some(Interpolate::Constant);
    p.declarations.push(gin);
    let mut cb = decl(File::Constant, 0, 6);
    cb.dimension = Some(DeclDimension::Index(1));
    p.declarations.push(cb);
    let mut immx = decl(File::ImmediateArray, 0, 2);
    immx.array_data = vec![
        [0x3f80_0000, 0, 0, 0],
        [0, 0x3f80_0000, 0, 0],
        [0, 0, 0x4000_0000, 0],
    ];
    p.declarations.push(immx);
    let mut src = s(File::Input, 2);
    src.reg.dimension = Some(Dimension {
        index: 1,
        indirect: None,
    });
    p.instructions
        .push(op(Opcode::Mov, &[d(File::Output, 0)], &[src]));
    p.instructions.push(Instruction::new(Opcode::Emit));
    check(
        &p,
        "GEOM\n\
         PROPERTY GS_INPUT_PRIMITIVE TRIANGLES\n\
         PROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n\
         PROPERTY GS_MAX_OUTPUT_VERTICES 3\n\
         PROPERTY FS_COORD_ORIGIN UPPER_LEFT\n\
         PROPERTY FS_COORD_PIXEL_CENTER INTEGER\n\
         PROPERTY GS_OUTPUT_PRIMITIVE 99\n\
         DCL IN[][0], POSITION, CONSTANT\n\
         DCL CONST[1][0..6]\n\
         DCL IMMX[0..2] {{1.0, 0.0, 0.0, 0.0},\n                \
         {0.0, 1.0, 0.0, 0.0},\n                \
         {0.0, 0.0, 2.0, 0.0}}\n  \
         0: MOV OUT[0], IN[2][1]\n  \
         1: EMIT\n",
    );
}

#[test]
fn nesting_indents_two_spaces_and_labels_print() {
    let mut p = Program::new(Processor::Fragment);
    let x = SrcOperand {
        swizzle: [0; 4],
        ..s(File::Temporary, 0)
    };
    let mut iff = op(Opcode::If, &[], &[x]);
    iff.label = Some(3);
    let mut els = Instruction::new(Opcode::Else);
    els.label = Some(5);
    let mut bgn = Instruction::new(Opcode::BgnLoop);
    bgn.label = Some(8);
    let mut end = Instruction::new(Opcode::EndLoop);
    end.label = Some(4);
    let mut cal = Instruction::new(Opcode::Cal);
    cal.label = Some(11);
    let mut bra = Instruction::new(Opcode::Bra);
    bra.label = Some(0);
    bra.cond_flow = Some(CondTest {
        mask: CondMask::Ne,
        index: 1,
        swizzle: [0; 4],
    });
    p.instructions = vec![
        iff,                                                          // 0
        op(Opcode::Mov, &[d(File::Output, 0)], &[s(File::Input, 0)]), // 1
        els,                                                          // 2
        bgn,                                                          // 3
        op(Opcode::Brk, &[], &[]),                                    // 4
        end,                                                          // 5
        Instruction::new(Opcode::EndIf),                              // 6
        cal,                                                          // 7
        bra,                                                          // 8
        Instruction::new(Opcode::End),                                // 9
        Instruction::new(Opcode::BgnSub),                             // 10
        op(Opcode::Mov, &[d(File::Output, 1)], &[s(File::Input, 1)]), // 11
        Instruction::new(Opcode::Ret),                                // 12
        Instruction::new(Opcode::EndSub),                             // 13
    ];
    check(
        &p,
        "FRAG\n  \
         0: IF TEMP[0].xxxx :3\n  \
         1:   MOV OUT[0], IN[0]\n  \
         2: ELSE :5\n  \
         3:   BGNLOOP :8\n  \
         4:     BRK\n  \
         5:   ENDLOOP :4\n  \
         6: ENDIF\n  \
         7: CAL :11\n  \
         8: (NE1.xxxx) BRA :0\n  \
         9: END\n \
         10: BGNSUB\n \
         11:   MOV OUT[1], IN[1]\n \
         12:   RET\n \
         13: ENDSUB\n",
    );
}

#[test]
fn instruction_modifiers() {
    let mut p = Program::new(Processor::Vertex);
    let mut dst = d(File::Temporary, 1);
    dst.write_mask = 0b0101;
    dst.modulate = Modulate::Quarter;
    dst.cond = Some(CondTest {
        mask: CondMask::Le,
        index: 0,
        swizzle: [3, 2, 1, 0],
    });
    let mut i = op(Opcode::Add, &[dst], &[s(File::Input, 0), s(File::Input, 1)]);
    i.saturate = Saturate::MinusPlusOne;
    i.cond_update = Some(1);
    i.precision = Precision::Float16;
    p.instructions.push(i);
    let mut i = op(
        Opcode::Mul,
        &[d(File::Temporary, 0)],
        &[s(File::Input, 0), s(File::Input, 1)],
    );
    i.saturate = Saturate::ZeroOne;
    i.cond_update = Some(0);
    i.precision = Precision::Fixed12;
    p.instructions.push(i);
    let mut tex = op(
        Opcode::Txp,
        &[d(File::Temporary, 0)],
        &[s(File::Input, 0), s(File::Sampler, 2)],
    );
    tex.texture = Some(TextureTarget::Cube);
    p.instructions.push(tex);
    check(
        &p,
        "VERT\n  \
         0: ADD_SATNV.CC1.F16 TEMP[1].xz_D4 (LE.wzyx), IN[0], IN[1]\n  \
         1: MUL_SAT.CC.X12 TEMP[0], IN[0], IN[1]\n  \
         2: TXP TEMP[0], IN[0], SAMP[2], CUBE\n",
    );
}

#[test]
fn registers_print_like_mesa() {
    let mut p = Program::new(Processor::Vertex);
    let ind = |index, component| {
        Some(Indirect {
            file: File::Address,
            index,
            component,
        })
    };
    let reg = |index, indirect, dimension| {
        SrcOperand::new(Register {
            file: File::Constant,
            index,
            indirect,
            dimension,
        })
    };
    let srcs = [
        reg(3, ind(0, 0), None),
        reg(-2, ind(1, 1), None),
        reg(0, ind(0, 3), None),
        reg(
            1,
            None,
            Some(Dimension {
                index: 4,
                indirect: ind(0, 2),
            }),
        ),
    ];
    p.instructions
        .push(op(Opcode::Mad, &[d(File::Output, 0)], &srcs[..3]));
    p.instructions
        .push(op(Opcode::Mov, &[d(File::Temporary, -1)], &srcs[3..]));
    check(
        &p,
        "VERT\n  \
         0: MAD OUT[0], CONST[ADDR[0].x+3], CONST[ADDR[1].y-2], CONST[ADDR[0].w]\n  \
         1: MOV TEMP[-1], CONST[1][ADDR[0].z+4]\n",
    );
}

#[test]
fn source_modifiers_print_compactly() {
    let base = SrcOperand {
        swizzle: [2, 1, 0, 3],
        ..s(File::Input, 0)
    };
    let with = |f: &dyn Fn(&mut SrcOperand)| {
        let mut x = base;
        f(&mut x);
        x
    };
    let cases: Vec<(SrcOperand, &str)> = vec![
        (base, "IN[0].zyxw"),
        (with(&|x| x.negate = true), "-IN[0].zyxw"),
        (with(&|x| x.ext_mod.absolute = true), "|IN[0].zyxw|"),
        (
            with(&|x| {
                x.ext_mod.absolute = true;
                x.ext_mod.negate = true
            }),
            "-|IN[0].zyxw|",
        ),
        (
            with(&|x| {
                x.ext_mod.absolute = true;
                x.negate = true
            }),
            "|-IN[0].zyxw|",
        ),
        (with(&|x| x.ext_mod.negate = true), "-(IN[0].zyxw)"),
        (
            with(&|x| {
                x.ext_mod.negate = true;
                x.negate = true
            }),
            "-(-IN[0].zyxw)",
        ),
        (with(&|x| x.ext_mod.complement = true), "1-(IN[0].zyxw)"),
        (with(&|x| x.ext_mod.bias = true), "(IN[0].zyxw)-0.5"),
        (with(&|x| x.ext_mod.scale2x = true), "2*(IN[0].zyxw)"),
        (
            with(&|x| {
                x.negate = true;
                x.ext_mod = ExtMod {
                    complement: true,
                    bias: true,
                    scale2x: true,
                    absolute: true,
                    negate: true,
                }
            }),
            "-|2*((1-(-IN[0].zyxw))-0.5)|",
        ),
        (
            with(&|x| {
                x.ext_mod.scale2x = true;
                x.ext_mod.negate = true
            }),
            "-(2*(IN[0].zyxw))",
        ),
        (
            with(&|x| {
                x.ext_swizzle = Some(ExtSwizzle {
                    select: [ExtSel::X, ExtSel::Y, ExtSel::Zero, ExtSel::One],
                    negate: [false, true, false, true],
                    divide: ExtSel::One,
                })
            }),
            "IN[0].zyxw{x,-y,0,-1}",
        ),
        (
            with(&|x| x.ext_swizzle = Some(ExtSwizzle::default())),
            "IN[0].zyxw{x,y,z,w}",
        ),
        (
            with(&|x| {
                x.ext_swizzle = Some(ExtSwizzle {
                    divide: ExtSel::W,
                    ..ExtSwizzle::default()
                })
            }),
            "IN[0].zyxw/w",
        ),
        (
            with(&|x| {
                x.ext_mod.absolute = true;
                x.ext_mod.negate = true;
                x.ext_swizzle = Some(ExtSwizzle {
                    select: [ExtSel::X, ExtSel::Y, ExtSel::Z, ExtSel::One],
                    negate: [false; 4],
                    divide: ExtSel::W,
                })
            }),
            "-|IN[0].zyxw{x,y,z,1}|/w",
        ),
    ];
    for (operand, text) in cases {
        let mut p = Program::new(Processor::Fragment);
        p.instructions
            .push(op(Opcode::Mov, &[d(File::Temporary, 0)], &[operand]));
        check(&p, &format!("FRAG\n  0: MOV TEMP[0], {text}\n"));
    }
}

/// The layout example of `docs/text-syntax.md` is exactly what the printer writes for it.
#[test]
fn documented_layout_example_is_exact() {
    let doc = include_str!("../../docs/text-syntax.md");
    let start = doc
        .find("```\nFRAG\n")
        .expect("layout example in the document")
        + 4;
    let len = doc[start..].find("```").expect("end of the example");
    let example = &doc[start..start + len];
    let p = parse(example).unwrap_or_else(|e| panic!("{}", e.render(example, "text-syntax.md")));
    assert_eq!(print(&p), example);
}

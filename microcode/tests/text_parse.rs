//! Each construct of the text syntax parses to the program written out by hand here.

use microcode::tgsi::text::parse;
use microcode::tgsi::*;

fn prog(body: &str) -> Program {
    let src = format!("FRAG\n{body}\n");
    parse(&src).unwrap_or_else(|e| panic!("{}", e.render(&src, "test")))
}

fn inst(line: &str) -> Instruction {
    let p = prog(line);
    assert_eq!(p.instructions.len(), 1, "{line}");
    p.instructions[0].clone()
}

fn src(operand: &str) -> SrcOperand {
    let i = inst(&format!("MOV TEMP[0], {operand}"));
    i.src[0]
}

fn dst(operand: &str) -> DstOperand {
    let i = inst(&format!("MOV {operand}, TEMP[0]"));
    i.dst[0]
}

fn decl(line: &str) -> Declaration {
    let p = prog(line);
    assert_eq!(p.declarations.len(), 1, "{line}");
    p.declarations[0].clone()
}

fn r(file: File, index: i32) -> Register {
    Register::new(file, index)
}

fn plain_decl(file: File, first: i32, last: i32) -> Declaration {
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
fn headers_both_dialects_any_case() {
    for (text, processor) in [
        ("FRAG", Processor::Fragment),
        ("VERT", Processor::Vertex),
        ("GEOM", Processor::Geometry),
        ("FRAG1.1", Processor::Fragment),
        ("VERT1.1", Processor::Vertex),
        ("GEOM1.1", Processor::Geometry),
        ("vert", Processor::Vertex),
        ("geom1.1", Processor::Geometry),
    ] {
        let p = parse(&format!("{text}\nEND\n")).unwrap();
        assert_eq!(p.processor, processor, "{text}");
        assert_eq!(p.instructions, vec![Instruction::new(Opcode::End)]);
    }
}

#[test]
fn blank_lines_and_comments_are_skipped() {
    let p = parse("\n  # leading comment\nFRAG /* header */\n\n  END # done\n").unwrap();
    assert_eq!(p.instructions.len(), 1);
}

#[test]
fn declarations() {
    assert_eq!(decl("DCL TEMP[0]"), plain_decl(File::Temporary, 0, 0));
    assert_eq!(decl("DCL TEMP[0..3]"), plain_decl(File::Temporary, 0, 3));
    assert_eq!(
        decl("dcl temp[ 2 .. 5 ]"),
        plain_decl(File::Temporary, 2, 5)
    );
    let mut d = plain_decl(File::Input, 0, 0);
    d.usage_mask = 0b0111;
    d.semantic = Some(Semantic {
        name: SemanticName::Color,
        index: 1,
    });
    d.interpolate = Some(Interpolate::Linear);
    assert_eq!(decl("DCL IN[0].xyz, COLOR[1], LINEAR"), d);

    let mut d = plain_decl(File::Output, 1, 1);
    d.semantic = Some(Semantic {
        name: SemanticName::Generic,
        index: 0,
    });
    assert_eq!(decl("DCL OUT[1], GENERIC"), d);
    d.semantic = Some(Semantic {
        name: SemanticName::PrimId,
        index: 0,
    });
    assert_eq!(decl("DCL OUT[1], PRIM_ID"), d);
    assert_eq!(decl("DCL OUT[1], PRIMID"), d);

    let mut d = plain_decl(File::Input, 2, 2);
    d.interpolate = Some(Interpolate::Perspective);
    assert_eq!(decl("DCL IN[2], PERSPECTIVE"), d);

    let mut d = plain_decl(File::Constant, 0, 6);
    d.dimension = Some(DeclDimension::Index(1));
    assert_eq!(decl("DCL CONST[1][0..6]"), d);

    let mut d = plain_decl(File::TemporaryArray, 0, 1);
    d.dimension = Some(DeclDimension::Index(0));
    assert_eq!(decl("DCL TEMPX[0][0..1]"), d);

    let mut d = plain_decl(File::Input, 0, 0);
    d.dimension = Some(DeclDimension::Empty);
    d.semantic = Some(Semantic {
        name: SemanticName::Position,
        index: 0,
    });
    d.interpolate = Some(Interpolate::Constant);
    assert_eq!(decl("DCL IN[][0], POSITION, CONSTANT"), d);
}

#[test]
fn immx_array_data() {
    let mut d = plain_decl(File::ImmediateArray, 0, 1);
    d.array_data = vec![
        [0x3f00_0000, 0x3ecc_cccd, 0x3f19_999a, 0x3f80_0000],
        [0x3f00_0000, 0x3ecc_cccd, 0x3f19_999a, 0x0000_0000],
    ];
    let text = "DCL IMMX[0..1]  {{ 0.5, 0.4, 0.6, 1.0 },\n                 { 0.5, 0.4, 0.6, 0.0 }}";
    assert_eq!(decl(text), d);
}

#[test]
fn immediates_are_numbered_in_order() {
    let p = prog(
        "IMM FLT32 { 1.0, -0.5, 2e3, .25 }\n\
         IMM[1] INT32 {-1, 0x10, 2147483647, -2147483648}\n\
         IMM[2] UINT32 {4294967295, 0xFFFFFFFF, 7}\n\
         IMM FLT32 { inf, -INF, nan, 0x3f800000 }\n\
         IMM FLT32 { 0.0 }",
    );
    let imm = |ty, values: &[u32]| Immediate {
        ty,
        values: values.to_vec(),
        loc: Loc::None,
    };
    assert_eq!(
        p.immediates,
        vec![
            imm(
                ImmType::Float32,
                &[0x3f80_0000, 0xbf00_0000, 0x44fa_0000, 0x3e80_0000]
            ),
            imm(
                ImmType::Int32,
                &[0xffff_ffff, 0x10, 0x7fff_ffff, 0x8000_0000]
            ),
            imm(ImmType::Uint32, &[0xffff_ffff, 0xffff_ffff, 7]),
            imm(
                ImmType::Float32,
                &[0x7f80_0000, 0xff80_0000, 0x7fc0_0000, 0x3f80_0000]
            ),
            imm(ImmType::Float32, &[0]),
        ]
    );
}

#[test]
fn properties() {
    let p = prog(
        "PROPERTY GS_INPUT_PRIMITIVE TRIANGLES\n\
         PROPERTY GS_OUTPUT_PRIMITIVE triangle_strip_adjacency\n\
         PROPERTY GS_MAX_OUTPUT_VERTICES 3\n\
         PROPERTY GS_MAX_VERTICES 8\n\
         PROPERTY FS_COORD_ORIGIN LOWER_LEFT\n\
         PROPERTY FS_COORD_PIXEL_CENTER INTEGER\n\
         PROPERTY GS_INPUT_PRIMITIVE 10",
    );
    let prop = |name, v: u32| Property {
        name,
        values: vec![v],
        loc: Loc::None,
    };
    assert_eq!(
        p.properties,
        vec![
            prop(PropertyName::GsInputPrimitive, 4),
            prop(PropertyName::GsOutputPrimitive, 13),
            prop(PropertyName::GsMaxOutputVertices, 3),
            prop(PropertyName::GsMaxOutputVertices, 8),
            prop(PropertyName::FsCoordOrigin, 1),
            prop(PropertyName::FsCoordPixelCenter, 1),
            prop(PropertyName::GsInputPrimitive, 10),
        ]
    );
    for (i, name) in [
        "POINTS",
        "LINES",
        "LINE_LOOP",
        "LINE_STRIP",
        "TRIANGLES",
        "TRIANGLE_STRIP",
        "TRIANGLE_FAN",
        "QUADS",
        "QUAD_STRIP",
        "POLYGON",
        "LINES_ADJACENCY",
        "LINE_STRIP_ADJACENCY",
        "TRIANGLES_ADJACENCY",
        "TRIANGLE_STRIP_ADJACENCY",
    ]
    .into_iter()
    .enumerate()
    {
        let p = prog(&format!("PROPERTY GS_OUTPUT_PRIMITIVE {name}"));
        assert_eq!(p.properties[0].values, vec![i as u32], "{name}");
    }
}

#[test]
fn instruction_basics() {
    let mut mov = Instruction::new(Opcode::Mov);
    mov.dst.push(DstOperand::new(r(File::Output, 0)));
    mov.src.push(SrcOperand::new(r(File::Input, 0)));
    assert_eq!(inst("MOV OUT[0], IN[0]"), mov);
    assert_eq!(inst("  12: MOV OUT[0], IN[0]"), mov);
    assert_eq!(inst("0:MOV OUT[0],IN[0]"), mov);
    assert_eq!(inst("mov out[0] , in[0]"), mov);

    mov.saturate = Saturate::ZeroOne;
    assert_eq!(inst("MOV_SAT OUT[0], IN[0]"), mov);
    mov.saturate = Saturate::MinusPlusOne;
    assert_eq!(inst("MOV_SATNV OUT[0], IN[0]"), mov);
    mov.cond_update = Some(0);
    assert_eq!(inst("MOV_SATNV.CC OUT[0], IN[0]"), mov);
    assert_eq!(inst("MOV_SATNV.CC0 OUT[0], IN[0]"), mov);
    mov.cond_update = Some(1);
    mov.precision = Precision::Float16;
    assert_eq!(inst("MOV_SATNV.CC1.F16 OUT[0], IN[0]"), mov);
    assert_eq!(inst("MOV_SATNV.F16.CC1 OUT[0], IN[0]"), mov);
    mov.precision = Precision::Fixed12;
    assert_eq!(inst("MOV_SATNV.CC1.X12 OUT[0], IN[0]"), mov);
    mov.precision = Precision::Float32;
    assert_eq!(inst("MOV_SATNV.CC1.F32 OUT[0], IN[0]"), mov);

    assert_eq!(inst("END"), Instruction::new(Opcode::End));
    assert_eq!(inst("KILP"), Instruction::new(Opcode::Kilp));
}

#[test]
fn aliases_come_from_the_table() {
    assert_eq!(
        inst("DP2ADD TEMP[0], IN[0], IN[1], IN[2]").opcode,
        Opcode::Dp2a
    );
    assert_eq!(
        inst("MADD TEMP[0], IN[0], IN[1], IN[2]").opcode,
        Opcode::Mad
    );
    assert_eq!(inst("RECIP TEMP[0], IN[0]").opcode, Opcode::Rcp);
    assert_eq!(inst("TEXKILL IN[0]").opcode, Opcode::Kil);
    assert_eq!(inst("LOOP LOOP[0], IN[0] :3").opcode, Opcode::BgnFor);
}

#[test]
fn texture_target_and_labels() {
    let mut tex = Instruction::new(Opcode::Tex);
    tex.dst.push(DstOperand::new(r(File::Temporary, 0)));
    tex.src.push(SrcOperand::new(r(File::Input, 0)));
    tex.src.push(SrcOperand::new(r(File::Sampler, 0)));
    tex.texture = Some(TextureTarget::T2D);
    assert_eq!(inst("TEX TEMP[0], IN[0], SAMP[0], 2D"), tex);
    for t in TextureTarget::ALL {
        tex.texture = Some(t);
        assert_eq!(
            inst(&format!("TEX TEMP[0], IN[0], SAMP[0], {}", t.name())),
            tex
        );
    }
    let mut txd = Instruction::new(Opcode::Txd);
    txd.dst.push(DstOperand::new(r(File::Temporary, 0)));
    for k in 0..3 {
        txd.src.push(SrcOperand::new(r(File::Input, k)));
    }
    txd.src.push(SrcOperand::new(r(File::Sampler, 1)));
    txd.texture = Some(TextureTarget::ShadowRect);
    assert_eq!(
        inst("TXD TEMP[0], IN[0], IN[1], IN[2], SAMP[1], shadowrect"),
        txd
    );

    let mut cal = Instruction::new(Opcode::Cal);
    cal.label = Some(7);
    assert_eq!(inst("CAL :7"), cal);
    let mut iff = Instruction::new(Opcode::If);
    iff.src.push(SrcOperand {
        swizzle: [0; 4],
        ..SrcOperand::new(r(File::Temporary, 0))
    });
    assert_eq!(inst("IF TEMP[0].xxxx"), iff);
    iff.label = Some(4);
    assert_eq!(inst("IF TEMP[0].x :4"), iff);
    assert_eq!(inst("IF TEMP[0].x:4"), iff);
}

#[test]
fn registers() {
    assert_eq!(src("TEMP[-3]").reg, r(File::Temporary, -3));
    let ind = |index, component| {
        Some(Indirect {
            file: File::Address,
            index,
            component,
        })
    };
    let expect = |index, indirect| Register {
        file: File::Constant,
        index,
        indirect,
        dimension: None,
    };
    assert_eq!(src("CONST[ADDR[0].x+3]").reg, expect(3, ind(0, 0)));
    assert_eq!(src("CONST[ADDR[0].x + 3]").reg, expect(3, ind(0, 0)));
    assert_eq!(src("CONST[ADDR[1].y-3]").reg, expect(-3, ind(1, 1)));
    assert_eq!(src("CONST[ADDR[0].w]").reg, expect(0, ind(0, 3)));
    assert_eq!(
        src("IN[2][1]").reg,
        Register {
            file: File::Input,
            index: 2,
            indirect: None,
            dimension: Some(Dimension {
                index: 1,
                indirect: None,
            }),
        }
    );
    assert_eq!(
        src("CONST[1][ADDR[0].z+2]").reg,
        Register {
            file: File::Constant,
            index: 1,
            indirect: None,
            dimension: Some(Dimension {
                index: 2,
                indirect: ind(0, 2),
            }),
        }
    );
    assert_eq!(src("TEMP[32767]").reg.index, 32767);
    assert_eq!(src("TEMP[-32768]").reg.index, -32768);
    for f in File::ALL {
        assert_eq!(src(&format!("{}[1]", f.name())).reg, r(f, 1));
    }
}

#[test]
fn destinations() {
    let base = DstOperand::new(r(File::Temporary, 0));
    assert_eq!(dst("TEMP[0]"), base);
    assert_eq!(dst("TEMP[0].xw").write_mask, 0b1001);
    assert_eq!(dst("TEMP[0].y").write_mask, 0b0010);
    for (text, m) in [
        ("_X2", Modulate::X2),
        ("_X4", Modulate::X4),
        ("_X8", Modulate::X8),
        ("_D2", Modulate::Half),
        ("_D4", Modulate::Quarter),
        ("_D8", Modulate::Eighth),
    ] {
        assert_eq!(dst(&format!("TEMP[0]{text}")).modulate, m);
        let d = dst(&format!("TEMP[0].xy{text}"));
        assert_eq!((d.write_mask, d.modulate), (0b0011, m));
    }
    let ct = |mask, index, swizzle| {
        Some(CondTest {
            mask,
            index,
            swizzle,
        })
    };
    assert_eq!(dst("TEMP[0] (GT)").cond, ct(CondMask::Gt, 0, [0, 1, 2, 3]));
    assert_eq!(dst("TEMP[0](GT1)").cond, ct(CondMask::Gt, 1, [0, 1, 2, 3]));
    assert_eq!(dst("TEMP[0].x (EQ.y)").cond, ct(CondMask::Eq, 0, [1; 4]));
    assert_eq!(
        dst("TEMP[0]_X2 (NE1.wzyx)").cond,
        ct(CondMask::Ne, 1, [3, 2, 1, 0])
    );
    for m in CondMask::ALL {
        assert_eq!(
            dst(&format!("TEMP[0] ({})", m.name())).cond,
            ct(m, 0, [0, 1, 2, 3])
        );
    }
}

#[test]
fn flow_condition_prefix() {
    let mut bra = Instruction::new(Opcode::Bra);
    bra.cond_flow = Some(CondTest {
        mask: CondMask::Gt,
        index: 1,
        swizzle: [0; 4],
    });
    bra.label = Some(3);
    assert_eq!(inst("(GT1.xxxx) BRA :3"), bra);
    assert_eq!(inst("2: (GT1.x) BRA :3"), bra);

    let mut kilp = Instruction::new(Opcode::Kilp);
    kilp.cond_flow = Some(CondTest {
        mask: CondMask::Ne,
        index: 0,
        swizzle: [0; 4],
    });
    assert_eq!(inst("(NE.x) KILP"), kilp);

    let add = inst("5: (EQ) ADD TEMP[0], IN[0], IN[1]");
    assert_eq!(add.opcode, Opcode::Add);
    assert_eq!(
        add.cond_flow,
        Some(CondTest {
            mask: CondMask::Eq,
            index: 0,
            swizzle: [0, 1, 2, 3],
        })
    );
}

#[test]
fn swizzles_and_negate() {
    let base = SrcOperand::new(r(File::Input, 0));
    assert_eq!(src("IN[0]"), base);
    assert_eq!(src("IN[0].zyxw").swizzle, [2, 1, 0, 3]);
    assert_eq!(src("IN[0].y").swizzle, [1; 4]);
    assert_eq!(src("IN[0].WWWW").swizzle, [3; 4]);
    let n = src("-IN[0]");
    assert!(n.negate && n.ext_mod.is_empty());
}

fn with_mod(f: impl FnOnce(&mut ExtMod)) -> ExtMod {
    let mut m = ExtMod::default();
    f(&mut m);
    m
}

#[test]
fn absolute_forms() {
    let a = src("|IN[0]|");
    assert_eq!(
        (a.negate, a.ext_mod),
        (false, with_mod(|m| m.absolute = true))
    );
    let a = src("-|IN[0].x|");
    assert_eq!(
        (a.negate, a.ext_mod, a.swizzle),
        (
            false,
            with_mod(|m| {
                m.absolute = true;
                m.negate = true
            }),
            [0; 4]
        )
    );
    let a = src("|-IN[0]|");
    assert_eq!(
        (a.negate, a.ext_mod),
        (true, with_mod(|m| m.absolute = true))
    );
}

#[test]
fn ext_mod_forms() {
    let a = src("-(IN[0])");
    assert_eq!(
        (a.negate, a.ext_mod),
        (false, with_mod(|m| m.negate = true))
    );
    let a = src("-(-IN[0])");
    assert_eq!((a.negate, a.ext_mod), (true, with_mod(|m| m.negate = true)));
    assert_eq!(src("1-(IN[0])").ext_mod, with_mod(|m| m.complement = true));
    assert_eq!(src("(IN[0])-0.5").ext_mod, with_mod(|m| m.bias = true));
    assert_eq!(src("2*(IN[0])").ext_mod, with_mod(|m| m.scale2x = true));
    assert_eq!(src("-( |IN[0]| )").ext_mod, src("-|IN[0]|").ext_mod);
    let all = with_mod(|m| {
        m.complement = true;
        m.bias = true;
        m.scale2x = true;
        m.absolute = true;
        m.negate = true;
    });
    let a = src("-( | 2*( ( 1-( -IN[0] ) ) - 0.5 ) | )");
    assert_eq!((a.negate, a.ext_mod), (true, all));
    let a = src("-|2*((1-(-IN[0]))-0.5)|");
    assert_eq!((a.negate, a.ext_mod), (true, all));
    let a = src("2*(1-(IN[0].x))");
    assert_eq!(
        (a.ext_mod, a.swizzle),
        (
            with_mod(|m| {
                m.scale2x = true;
                m.complement = true
            }),
            [0; 4]
        )
    );
}

#[test]
fn extended_swizzle_and_divide() {
    use ExtSel::*;
    let e = src("IN[0].zyxw{x,-y,0,1}");
    assert_eq!(e.swizzle, [2, 1, 0, 3]);
    assert_eq!(
        e.ext_swizzle,
        Some(ExtSwizzle {
            select: [X, Y, Zero, One],
            negate: [false, true, false, false],
            divide: One,
        })
    );
    let e = src("IN[0]{ -W , z, y, X }");
    assert_eq!(
        e.ext_swizzle,
        Some(ExtSwizzle {
            select: [W, Z, Y, X],
            negate: [true, false, false, false],
            divide: One,
        })
    );
    let e = src("IN[0]/w");
    assert_eq!(
        e.ext_swizzle,
        Some(ExtSwizzle {
            divide: W,
            ..ExtSwizzle::default()
        })
    );
    let e = src("-|IN[0]{x,y,z,1}|/w");
    assert_eq!(
        e.ext_swizzle,
        Some(ExtSwizzle {
            select: [X, Y, Z, One],
            negate: [false; 4],
            divide: W,
        })
    );
    assert!(e.ext_mod.absolute && e.ext_mod.negate);
    assert_eq!(src("IN[0]/z").ext_swizzle.map(|e| e.divide), Some(Z));
    assert_eq!(src("IN[0]/0").ext_swizzle.map(|e| e.divide), Some(Zero));
}

#[test]
fn statements_may_interleave() {
    let p = prog("DCL TEMP[0]\nMOV TEMP[0], IN[0]\nIMM FLT32 {1.0}\nDCL OUT[0]\nEND");
    assert_eq!(p.declarations.len(), 2);
    assert_eq!(p.immediates.len(), 1);
    assert_eq!(p.instructions.len(), 2);
}

#[test]
fn locations_point_at_statements() {
    let p = prog("DCL TEMP[0]\n  3: MOV TEMP[0], IN[0]");
    assert!(matches!(
        p.declarations[0].loc,
        Loc::Text { line: 2, col: 1 }
    ));
    assert!(matches!(
        p.instructions[0].loc,
        Loc::Text { line: 3, col: 6 }
    ));
}

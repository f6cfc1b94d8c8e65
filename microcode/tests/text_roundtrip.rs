//! Property tests: every program prints to text that parses back to the same program, and printing
//! is stable. Two generators: the shared one (`microcode::tgsi::arbitrary`, valid programs) and the
//! one here, which ignores validity and covers every value each IR field can hold in text.

use microcode::tgsi::opcode::{LabelUse, OPCODES};
use microcode::tgsi::text::number::{format_f32, parse_f32};
use microcode::tgsi::text::{parse, print, print_with, PrintOptions};
use microcode::tgsi::*;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;

fn index16() -> impl Strategy<Value = i32> {
    prop_oneof![3 => -4i32..16, 1 => i16::MIN as i32..=i16::MAX as i32]
}

fn swizzle() -> impl Strategy<Value = [Swz; 4]> {
    prop_oneof![Just([0, 1, 2, 3]), [0u8..4, 0u8..4, 0u8..4, 0u8..4]]
}

fn file() -> impl Strategy<Value = File> {
    select(File::ALL.to_vec())
}

fn indirect() -> impl Strategy<Value = Option<Indirect>> {
    prop::option::weighted(
        0.2,
        (file(), index16(), 0u8..4).prop_map(|(file, index, component)| Indirect {
            file,
            index,
            component,
        }),
    )
}

fn register() -> impl Strategy<Value = Register> {
    let dim = prop::option::weighted(
        0.2,
        (index16(), indirect()).prop_map(|(index, indirect)| Dimension { index, indirect }),
    );
    (file(), index16(), indirect(), dim).prop_map(|(file, index, indirect, dimension)| Register {
        file,
        index,
        indirect,
        dimension,
    })
}

fn cond() -> impl Strategy<Value = Option<CondTest>> {
    prop::option::weighted(
        0.2,
        (
            select(CondMask::ALL.to_vec()),
            prop_oneof![0u8..2, any::<u8>()],
            swizzle(),
        )
            .prop_map(|(mask, index, swizzle)| CondTest {
                mask,
                index,
                swizzle,
            }),
    )
}

fn ext_sel() -> impl Strategy<Value = ExtSel> {
    (0u32..6).prop_map(|n| ExtSel::from_number(n).unwrap_or(ExtSel::One))
}

fn src() -> impl Strategy<Value = SrcOperand> {
    let ext_swz = prop::option::weighted(
        0.2,
        (
            [ext_sel(), ext_sel(), ext_sel(), ext_sel()],
            any::<[bool; 4]>(),
            ext_sel(),
        )
            .prop_map(|(select, negate, divide)| ExtSwizzle {
                select,
                negate,
                divide,
            }),
    );
    let ext_mod = any::<[bool; 5]>().prop_map(|b| ExtMod {
        complement: b[0],
        bias: b[1],
        scale2x: b[2],
        absolute: b[3],
        negate: b[4],
    });
    (register(), swizzle(), any::<bool>(), ext_swz, ext_mod).prop_map(
        |(reg, swizzle, negate, ext_swizzle, ext_mod)| SrcOperand {
            reg,
            swizzle,
            negate,
            ext_swizzle,
            ext_mod,
        },
    )
}

fn dst() -> impl Strategy<Value = DstOperand> {
    (register(), 1u8..16, cond(), 0u32..7).prop_map(|(reg, write_mask, cond, m)| DstOperand {
        reg,
        write_mask,
        cond,
        modulate: Modulate::from_number(m).unwrap_or_default(),
    })
}

fn instruction() -> impl Strategy<Value = Instruction> {
    (0..OPCODES.len()).prop_flat_map(|k| {
        let info = &OPCODES[k];
        let label = match info.label {
            LabelUse::None => Just(None).boxed(),
            LabelUse::Optional => prop::option::of(any::<u32>()).boxed(),
            LabelUse::Required => any::<u32>().prop_map(Some).boxed(),
        };
        let texture = if info.is_texture() {
            select(TextureTarget::ALL.to_vec()).prop_map(Some).boxed()
        } else {
            Just(None).boxed()
        };
        (
            vec(dst(), usize::from(info.num_dst)),
            vec(src(), usize::from(info.num_src)),
            0u8..3,
            0u8..4,
            prop::option::weighted(0.2, any::<u8>()),
            cond(),
            label,
            texture,
        )
            .prop_map(
                move |(dst, src, sat, prec, cond_update, cond_flow, label, texture)| {
                    let mut i = Instruction::new(info.opcode);
                    i.dst = dst;
                    i.src = src;
                    i.saturate = [Saturate::None, Saturate::ZeroOne, Saturate::MinusPlusOne]
                        [usize::from(sat)];
                    i.precision = [
                        Precision::Default,
                        Precision::Float32,
                        Precision::Float16,
                        Precision::Fixed12,
                    ][usize::from(prec)];
                    i.cond_update = cond_update;
                    i.cond_flow = cond_flow;
                    i.label = label;
                    i.texture = texture;
                    i
                },
            )
    })
}

fn declaration() -> impl Strategy<Value = Declaration> {
    let dimension = prop_oneof![
        2 => Just(None),
        1 => Just(Some(DeclDimension::Empty)),
        1 => index16().prop_map(|n| Some(DeclDimension::Index(n))),
    ];
    let semantic = prop::option::of(
        (
            select(SemanticName::ALL.to_vec()),
            prop_oneof![0u32..4, 0u32..=0xFFFF],
        )
            .prop_map(|(name, index)| Semantic { name, index }),
    );
    let interpolate = prop::option::of(select(vec![
        Interpolate::Constant,
        Interpolate::Linear,
        Interpolate::Perspective,
    ]));
    (
        file(),
        dimension,
        -2i32..100,
        0i32..4,
        1u8..16,
        semantic,
        interpolate,
        any::<bool>(),
    )
        .prop_flat_map(
            |(file, dimension, first, len, usage_mask, semantic, interpolate, data)| {
                let rows = if data { (len + 1) as usize } else { 0 };
                vec(any::<[u32; 4]>(), rows).prop_map(move |array_data| Declaration {
                    file,
                    dimension,
                    first,
                    last: first + len,
                    usage_mask,
                    semantic,
                    interpolate,
                    array_data,
                    loc: Loc::None,
                })
            },
        )
}

fn immediate() -> impl Strategy<Value = Immediate> {
    let bits = prop_oneof![
        any::<u32>(),
        any::<f32>().prop_map(f32::to_bits),
        select(vec![
            0u32,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            1,
            0x3f80_0000
        ]),
    ];
    (
        select(vec![ImmType::Float32, ImmType::Uint32, ImmType::Int32]),
        vec(bits, 1..=4),
    )
        .prop_map(|(ty, values)| Immediate {
            ty,
            values,
            loc: Loc::None,
        })
}

fn property() -> impl Strategy<Value = Property> {
    (
        select(PropertyName::ALL.to_vec()),
        vec(prop_oneof![0u32..16, any::<u32>()], 1..=3),
    )
        .prop_map(|(name, values)| Property {
            name,
            values,
            loc: Loc::None,
        })
}

fn program() -> impl Strategy<Value = Program> {
    (
        select(vec![
            Processor::Fragment,
            Processor::Vertex,
            Processor::Geometry,
        ]),
        vec(property(), 0..3),
        vec(declaration(), 0..6),
        vec(immediate(), 0..4),
        vec(instruction(), 0..12),
    )
        .prop_map(
            |(processor, properties, declarations, immediates, instructions)| Program {
                properties,
                declarations,
                immediates,
                instructions,
                ..Program::new(processor)
            },
        )
}

fn check_round_trip(p: &Program) -> Result<(), TestCaseError> {
    let text = print(p);
    let q = parse(&text).map_err(|e| TestCaseError::fail(e.render(&text, "printed")))?;
    prop_assert_eq!(&q, p, "{}", text);
    prop_assert_eq!(print(&q), text);
    let old = print_with(
        p,
        &PrintOptions {
            dialect: Dialect::V11,
        },
    );
    let reparsed = parse(&old);
    prop_assert_eq!(reparsed.as_ref(), Ok(p));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn print_then_parse_is_identity(p in program()) {
        check_round_trip(&p)?;
    }

    #[test]
    fn valid_programs_round_trip(p in microcode::tgsi::arbitrary::program()) {
        check_round_trip(&p)?;
    }

    #[test]
    fn every_f32_bit_pattern_round_trips(bits in any::<u32>()) {
        let text = format_f32(bits);
        prop_assert_eq!(parse_f32(&text), Ok(bits), "{}", text);
    }
}

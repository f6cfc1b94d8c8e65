//! Division on a core without the divider (`microcode/src/compile/div.rs`): DIV gives the bits
//! of `arith::fdiv` (correctly rounded, the contract's flush rule) on edge cases and random
//! operands, in every group size the free registers allow; TXP, CUBE, ExtDivide (float and
//! integer operands) and RFL give the reference model's results; MOD gives `arith::imod`'s and
//! the unpack opcodes the reference model's for every field value. RCP and RCC:
//! `recip_sequence.rs`. (The hardware engines run the same instructions: `hw_cross.rs`.)

mod common;

use common::programs::test_texture;
use microcode::arith;
use microcode::arith::div_steps::{edge_operands, operand_pair};
use microcode::compile::compile;
use microcode::core::config::Features;
use microcode::core::image::Image;
use microcode::core::isa::Op;
use microcode::core::CoreConfig;
use microcode::rng::XorShift;
use microcode::tgsi::validate::{validate, Limits};
use microcode::tgsi::{text, Program};
use sim::run_io::RunInputs;

fn program(src: &str) -> Program {
    let p = text::parse(src).unwrap_or_else(|e| panic!("{}", e.render(src, "test")));
    validate(&p, &Limits::default()).expect("valid");
    p
}

/// A build without the divider but with the integer ALU (MOD, the unpack opcodes).
fn no_divider() -> CoreConfig {
    let full = CoreConfig::default();
    CoreConfig {
        features: full.features & !Features::DIVIDER,
        ..full
    }
}

fn divider_ops(image: &Image) -> usize {
    image
        .code
        .iter()
        .filter(|i| matches!(i.op, Op::Div | Op::Rcp | Op::Imod))
        .count()
}

/// `DIV OUT[0], IN[0], IN[1]` in a program that declares `temps` more registers than it needs.
fn div_program(temps: usize, divisor: &str) -> Program {
    let decl = if temps > 0 {
        format!("DCL TEMP[0..{}]\n", temps - 1)
    } else {
        String::new()
    };
    program(&format!(
        "FRAG\nDCL IN[0..1]\nDCL OUT[0]\n{decl}DIV OUT[0], IN[0], IN[1]{divisor}\nEND\n"
    ))
}

/// Runs `image` on quads of operand pairs (a, b): 16 per run, lane l component c of IN[0] and
/// IN[1]; checks every component against `fdiv` (the divisor of component c read from
/// `divisor_comp(c)`).
fn check_div(image: &Image, pairs: &[(u32, u32)], divisor_comp: fn(usize) -> usize) -> usize {
    let mut checked = 0;
    for chunk in pairs.chunks(16) {
        let mut inputs = RunInputs::default();
        let mut a = [[0u32; 4]; 4];
        let mut b = [[0x3F80_0000u32; 4]; 4];
        for (i, &(x, y)) in chunk.iter().enumerate() {
            a[i / 4][i % 4] = x;
            b[i / 4][i % 4] = y;
        }
        inputs.inputs.insert(0, a);
        inputs.inputs.insert(1, b);
        let out = sim::core_model::run(image, &inputs).expect("runs");
        for l in 0..4 {
            let got = out.lanes[l].outputs[&0];
            for c in 0..4 {
                let want = arith::fdiv(a[l][c], b[l][divisor_comp(c)]);
                assert_eq!(
                    got[c],
                    want,
                    "{:#010x} / {:#010x}: got {:#010x}, want {want:#010x}",
                    a[l][c],
                    b[l][divisor_comp(c)],
                    got[c]
                );
                checked += 1;
            }
        }
    }
    checked
}

fn random_pairs(seed: u64, n: u32) -> Vec<(u32, u32)> {
    let mut rng = XorShift::new(seed);
    (0..n).map(|i| operand_pair(&mut rng, i)).collect()
}

#[test]
fn div_without_the_divider_is_correctly_rounded() {
    let image = compile(&div_program(0, ""), &CoreConfig::minimal())
        .expect("compiles")
        .image;
    assert_eq!(divider_ops(&image), 0, "no divider instruction");
    let edges = edge_operands();
    let mut pairs: Vec<(u32, u32)> = edges
        .iter()
        .flat_map(|&a| edges.iter().map(move |&b| (a, b)))
        .collect();
    pairs.extend(random_pairs(0xD17, 40_000));
    let checked = check_div(&image, &pairs, |c| c);
    assert!(checked >= pairs.len());
}

/// Programs that leave 7, 5 and 4 registers free divide in one group of four and in groups of
/// two and of one (into a result register); with 2 free the vec4 DIV keeps the divider's DIV.
/// A divisor read from one component shares its steps (four divisions in five registers, one
/// at a time in three).
#[test]
fn div_in_groups_where_registers_are_scarce() {
    let pairs = random_pairs(0x6A0, 4_000);
    // 16 registers: IN 2, OUT 1, the TEMPs, the rest free.
    for (temps, divisor, fits) in [
        (6, "", true),
        (8, "", true),
        (9, "", true),
        (11, "", false),
        (8, ".y", true),
        (10, ".y", true),
    ] {
        let image = compile(&div_program(temps, divisor), &CoreConfig::minimal())
            .expect("compiles")
            .image;
        if !fits {
            assert!(divider_ops(&image) > 0, "{temps} TEMPs: the divider's DIV");
            continue;
        }
        assert_eq!(divider_ops(&image), 0, "{temps} TEMPs, divisor {divisor}");
        let comp = if divisor.is_empty() {
            (|c| c) as fn(usize) -> usize
        } else {
            |_| 1
        };
        check_div(&image, &pairs, comp);
    }
}

/// A large sweep of random and hard operand pairs on the core model: forty million (about a
/// minute and a half: `cargo test --release -p sim --test div_sequence -- --ignored`).
#[test]
#[ignore = "large sweep; run explicitly"]
fn div_without_the_divider_on_forty_million_pairs() {
    let image = compile(&div_program(0, ""), &CoreConfig::minimal())
        .expect("compiles")
        .image;
    for seed in 0..10 {
        check_div(&image, &random_pairs(0x5EE9 + seed, 4_000_000), |c| c);
    }
}

/// Random inputs: the shared ones of `common` plus IN[0], IN[1] with hard division operands
/// in some lanes.
fn inputs(rng: &mut XorShift, i: u32) -> RunInputs {
    let mut inp = common::programs::random_inputs(rng);
    for l in 0..4 {
        if (i as usize + l).is_multiple_of(2) {
            let (a, b) = operand_pair(rng, i);
            let (c, d) = operand_pair(rng, i + 1);
            inp.set_input_lane(0, l, [a, c, b, d]);
            inp.set_input_lane(1, l, [b, d, a, c]);
        }
    }
    inp
}

/// Core model (built for `config`) and reference model agree on every output of `src`.
fn matches_reference(
    src: &str,
    config: &CoreConfig,
    runs: u32,
    texture: Option<sim::texture::Texture>,
) {
    let p = program(src);
    let image = compile(&p, config).expect("compiles").image;
    assert_eq!(divider_ops(&image), 0, "no divider instruction in\n{src}");
    let mut rng = XorShift::new(0x7E57);
    for i in 0..runs {
        let mut inp = inputs(&mut rng, i);
        if let Some(t) = &texture {
            inp.textures = vec![Some(Box::new(t.clone()))];
        }
        let core = sim::core_model::run(&image, &inp).expect("core runs");
        let reference = sim::reference::run(&p, &inp).expect("reference runs");
        for l in 0..4 {
            assert_eq!(
                core.lanes[l].outputs, reference.lanes[l].outputs,
                "{src}\nrun {i} lane {l}: inputs {:x?}",
                inp.inputs
            );
        }
    }
}

/// A 2x2 cube map of RGBA8 texels (every face different).
fn cube() -> sim::texture::Texture {
    use sim::texture::{Filter, Format, Texture};
    let texels: Vec<[u32; 4]> = (0..24u32)
        .map(|i| [0, 1, 2, 3].map(|c| arith::texel::unorm8((i * 41 + c * 13) as u8)))
        .collect();
    Texture::new_cube(2, Format::Rgba, texels)
        .expect("a valid cube")
        .with_filter(Filter::Bilinear)
}

#[test]
fn txp_cube_ext_divide_and_rfl_match_the_reference() {
    let m = CoreConfig::minimal();
    let head = "FRAG\nDCL IN[0..1]\nDCL OUT[0..1]\nDCL SAMP[0]\n";
    matches_reference(
        &format!("{head}MOV OUT[0], IN[0]/w\nMOV OUT[1], -|IN[1]{{x,y,z,1}}|/w\nEND\n"),
        &m,
        3000,
        None,
    );
    matches_reference(
        &format!("{head}RFL OUT[0], IN[0], IN[1]\nRFL OUT[1], IN[1], -IN[0].zyxw\nEND\n"),
        &m,
        3000,
        None,
    );
    matches_reference(
        &format!(
            "{head}TXP OUT[0], IN[0], SAMP[0], 2D\nTXP OUT[1], IN[1].yxwz, SAMP[0], 1D\nEND\n"
        ),
        &m,
        1000,
        Some(test_texture()),
    );
    matches_reference(
        &format!("{head}TEX OUT[0], IN[0], SAMP[0], CUBE\nTXP OUT[1], IN[1], SAMP[0], CUBE\nEND\n"),
        &m,
        1000,
        Some(cube()),
    );
    // ExtDivide on integer operands divides their bits as floats.
    matches_reference(
        &format!("{head}XOR OUT[0], IN[0]/w, IN[1]\nEND\n"),
        &no_divider(),
        1000,
        None,
    );
}

#[test]
fn mod_without_the_divider_matches_imod() {
    let p = program("FRAG\nDCL IN[0..1]\nDCL OUT[0]\nMOD OUT[0], IN[0], IN[1]\nEND\n");
    let image = compile(&p, &no_divider()).expect("compiles").image;
    assert_eq!(divider_ops(&image), 0);
    let special = [
        0u32,
        1,
        2,
        3,
        7,
        100,
        0x7FFF_FFFF,
        0x8000_0000,
        0x8000_0001,
        0xFFFF_FFFF,
        0xFFFF_FFFE,
        0xFFFF_FF9C,
        0x4000_0000,
        0xC000_0000,
        0x00FF_FFFF,
        0x0100_0001,
    ];
    let mut pairs: Vec<(u32, u32)> = special
        .iter()
        .flat_map(|&a| special.iter().map(move |&b| (a, b)))
        .collect();
    let mut rng = XorShift::new(0x30D);
    for i in 0..8000 {
        let a = rng.next_u32();
        let b = match i % 3 {
            0 => rng.next_u32(),
            1 => rng.next_u32() >> (rng.next_u32() % 32),
            _ => (rng.next_u32() >> 20).wrapping_neg(),
        };
        pairs.push((a, b));
    }
    for chunk in pairs.chunks(16) {
        let mut inputs = RunInputs::default();
        let (mut a, mut b) = ([[0u32; 4]; 4], [[1u32; 4]; 4]);
        for (i, &(x, y)) in chunk.iter().enumerate() {
            a[i / 4][i % 4] = x;
            b[i / 4][i % 4] = y;
        }
        inputs.inputs.insert(0, a);
        inputs.inputs.insert(1, b);
        let out = sim::core_model::run(&image, &inputs).expect("runs");
        for l in 0..4 {
            for c in 0..4 {
                let want = arith::imod(a[l][c], b[l][c]);
                assert_eq!(
                    out.lanes[l].outputs[&0][c], want,
                    "{:#x} % {:#x}",
                    a[l][c], b[l][c]
                );
            }
        }
    }
    // Write masks, integer modifiers, a shared divisor and the registers of the common
    // programs (groups of two) against the reference model.
    matches_reference(
        "FRAG\nDCL IN[0..1]\nDCL OUT[0..1]\nMOD OUT[0].xzw, -IN[0], |IN[1]|\nMOD OUT[1], IN[1].wzyx, IN[0].y\nEND\n",
        &no_divider(),
        1000,
        None,
    );
    matches_reference(
        &format!(
            "{}MOD OUT[1], IN[0], IN[1]\nEND\n",
            common::programs::HEADER
        ),
        &no_divider(),
        300,
        None,
    );
}

#[test]
fn unpack_divisions_match_the_reference_for_every_field() {
    for (op, fields) in [("UP2US", 1u32 << 16), ("UP4UB", 256), ("UP4B", 256)] {
        for config in [no_divider(), CoreConfig::default()] {
            let p = program(&format!(
                "FRAG\nDCL IN[0]\nDCL OUT[0]\n{op} OUT[0], IN[0]\nEND\n"
            ));
            let image = compile(&p, &config).expect("compiles").image;
            assert_eq!(
                divider_ops(&image),
                0,
                "{op}: constant divisors need no divider"
            );
            // Every field value: lane l of run i packs values 4i + l (in every field).
            for i in 0..fields.div_ceil(4) {
                let mut inputs = RunInputs::default();
                for l in 0..4u32 {
                    let f = (4 * i + l) % fields;
                    let x = if fields == 256 {
                        f * 0x0101_0101
                    } else {
                        f | f << 16
                    };
                    inputs.set_input_lane(0, l as usize, [x; 4]);
                }
                let core = sim::core_model::run(&image, &inputs).expect("runs");
                let reference = sim::reference::run(&p, &inputs).expect("runs");
                for l in 0..4 {
                    assert_eq!(
                        core.lanes[l].outputs, reference.lanes[l].outputs,
                        "{op} run {i}"
                    );
                }
            }
        }
    }
}

/// Four vec4 DIVs fit as inline sequences; five (260 instructions of the 256) call the shared
/// routine; and a program that cannot spare the routine's registers either keeps the divider's
/// DIV (which only the core model runs; the hardware engines refuse it, saying why) rather than
/// failing to compile.
#[test]
fn too_many_divisions_call_a_routine_or_keep_the_dividers_operations() {
    let body = |n: usize, temps: usize| {
        let mut s = format!(
            "FRAG\nDCL IN[0..1]\nDCL OUT[0]\nDCL TEMP[0..{}]\nMOV TEMP[0], IN[0]\n",
            temps - 1
        );
        for _ in 0..n {
            s.push_str("DIV TEMP[0], TEMP[0], IN[1]\n");
        }
        s.push_str("MOV OUT[0], TEMP[0]\nEND\n");
        program(&s)
    };
    let routine = |img: &Image| {
        img.origin
            .contains(&microcode::core::image::DIVISION_ORIGIN)
    };
    let compiled = |n, temps| {
        compile(&body(n, temps), &CoreConfig::minimal())
            .expect("compiles")
            .image
    };
    let inline = compiled(4, 1);
    assert_eq!(divider_ops(&inline), 0);
    assert!(!routine(&inline));
    let called = compiled(5, 1);
    assert_eq!(divider_ops(&called), 0);
    assert!(routine(&called));
    // 16 registers: IN 2, OUT 1, 11 TEMPs: two free, not the routine's three.
    let over = compiled(5, 11);
    assert_eq!(divider_ops(&over), 5);
    assert!(matches!(
        sim::hardware::check_supported(&over, "verilator"),
        Err(sim::hardware::HwError::Unsupported { op: "DIV", .. })
    ));
    // The chains of divisions through one register divide as the divider does.
    let mut inputs = RunInputs::default();
    inputs.set_input(0, [3.0f32, -7.5, 1e-30, 6.0].map(f32::to_bits));
    inputs.set_input(1, [1.1f32, 0.3, 3e-9, -0.0].map(f32::to_bits));
    let (a, b) = (inputs.inputs[&0][0], inputs.inputs[&1][0]);
    for (image, n) in [(&inline, 4), (&called, 5)] {
        let mut want = a;
        for _ in 0..n {
            want = std::array::from_fn(|c| arith::fdiv(want[c], b[c]));
        }
        let got = sim::core_model::run(image, &inputs).expect("runs");
        assert_eq!(got.lanes[0].outputs[&0], want, "{n} divisions");
    }
}

/// A program whose instructions cannot hold an inline sequence per division calls one shared
/// routine instead (six vec4 DIVs, a TXP and an RCC: far beyond 256 instructions inline), and
/// still divides as the divider does.
#[test]
fn many_divisions_share_one_routine() {
    let src = "FRAG\nDCL IN[0..1]\nDCL OUT[0..1]\nDCL TEMP[0..1]\nDCL SAMP[0]\nMOV TEMP[0], IN[0]\n\
               DIV TEMP[0], TEMP[0], IN[1]\nDIV TEMP[0], IN[1], TEMP[0].yzwx\nDIV TEMP[0].xy, TEMP[0], -IN[0]\n\
               DIV TEMP[0], TEMP[0], IN[1].x\nDIV TEMP[1], IN[0], TEMP[0]\nDIV TEMP[1].zw, TEMP[1], |IN[1]|\n\
               RCC TEMP[1].x, TEMP[0].w\nTXP OUT[1], IN[0], SAMP[0], 2D\nADD OUT[0], TEMP[0], TEMP[1]\nEND\n";
    let p = program(src);
    let image = compile(&p, &CoreConfig::minimal()).expect("compiles").image;
    assert_eq!(divider_ops(&image), 0, "no divider instruction");
    assert!(image.code.len() <= 256);
    let routine = image
        .origin
        .iter()
        .filter(|&&o| o == microcode::core::image::DIVISION_ORIGIN)
        .count();
    assert!(routine > 40, "the routine: {routine} instructions");
    let mut rng = XorShift::new(0x5A7);
    for i in 0..500 {
        let mut inp = inputs(&mut rng, i);
        inp.textures = vec![Some(Box::new(test_texture()))];
        let core = sim::core_model::run(&image, &inp).expect("core runs");
        let reference = sim::reference::run(&p, &inp).expect("reference runs");
        for l in 0..4 {
            assert_eq!(
                core.lanes[l].outputs, reference.lanes[l].outputs,
                "run {i} lane {l}"
            );
        }
    }
}

//! The later-Mesa integer opcodes as compiled for the core (`microcode/src/compile/imul.rs`,
//! `int.rs`): UMUL, UMUL_HI and IMUL_HI are exact multiply-add sequences (the core has no
//! integer multiplier), F2U and UCMP short select sequences. On the core model they give, bit for
//! bit, what plain host u64 / i64 / f64 arithmetic written here gives, on edge and random
//! operands; with source modifiers, saturate and write masks they agree with the reference model.
//! (The hardware engines run the same instructions: the per-opcode vectors in `conformance`.)

use microcode::compile::compile;
use microcode::core::image::Image;
use microcode::core::isa::Op;
use microcode::core::CoreConfig;
use microcode::rng::XorShift;
use microcode::tgsi::validate::{validate, Limits};
use microcode::tgsi::{text, Program};
use sim::run_io::RunInputs;

fn program(body: &str) -> Program {
    let src = format!("VERT\nDCL IN[0..1]\nDCL OUT[0..3]\n{body}");
    let p = text::parse(&src).unwrap_or_else(|e| panic!("{}", e.render(&src, "test")));
    validate(&p, &Limits::default()).expect("valid");
    p
}

fn image(p: &Program) -> Image {
    compile(p, &CoreConfig::default()).expect("compiles").image
}

/// Core instructions compiled for TGSI instruction `n`.
fn length(img: &Image, n: u16) -> usize {
    img.origin.iter().filter(|&&o| o == n).count()
}

/// Integer operands: the limb boundaries (11, 22 bits), the ends of both ranges, patterns,
/// then random words and small or near-boundary values.
fn words() -> Vec<u32> {
    let mut v = vec![
        0,
        1,
        2,
        3,
        0x7FF,
        0x800,
        0x801,
        0x3F_FFFF,
        0x40_0000,
        0x3F_F800,
        0xFFC0_0000,
        0x7FFF_FFFF,
        0x8000_0000,
        0x8000_0001,
        0xFFFF_FFFF,
        0xFFFF_FFFE,
        0xAAAA_AAAA,
        0x5555_5555,
        0x0001_0000,
        0xFFFF,
        0x4000_0000,
        0xC000_0000,
        0x3F80_0000,
        0xFFBF_FFFF,
    ];
    let mut rng = XorShift::new(0x1D0C);
    for i in 0..4000u32 {
        v.push(match i % 4 {
            0 | 1 => rng.next_u32(),
            2 => rng.next_u32() & 0xFFFF,
            _ => rng.next_u32() | 0xFFC0_0000,
        });
    }
    v
}

/// An output's name and its value for operands `(a, b)`.
type Expect = (&'static str, fn(u32, u32) -> u32);

/// Runs `p` on the core model with IN[0] = a and IN[1] = b (16 pairs per run: 4 lanes of 4
/// components) and checks OUT[k] against `want[k](a, b)`.
fn check_pairs(p: &Program, pairs: &[(u32, u32)], want: &[Expect]) {
    let img = image(p);
    for chunk in pairs.chunks(16) {
        let mut a = [[0u32; 4]; 4];
        let mut b = [[0u32; 4]; 4];
        for (k, &(x, y)) in chunk.iter().enumerate() {
            a[k / 4][k % 4] = x;
            b[k / 4][k % 4] = y;
        }
        let mut inputs = RunInputs::default();
        inputs.inputs.insert(0, a);
        inputs.inputs.insert(1, b);
        let out = sim::core_model::run(&img, &inputs).expect("runs");
        for (k, &(x, y)) in chunk.iter().enumerate() {
            for (o, (name, f)) in want.iter().enumerate() {
                let got = out.lanes[k / 4].outputs[&(o as u32)][k % 4];
                let w = f(x, y);
                assert_eq!(
                    got, w,
                    "{name}({x:#010x}, {y:#010x}): got {got:#010x}, want {w:#010x}"
                );
            }
        }
    }
}

fn all_pairs() -> Vec<(u32, u32)> {
    let w = words();
    let mut pairs = Vec::new();
    // Every pair of the edge values, then random pairs.
    for &x in &w[..24] {
        for &y in &w[..24] {
            pairs.push((x, y));
        }
    }
    for k in 0..w.len() {
        pairs.push((w[k], w[(k * 7 + 3) % w.len()]));
    }
    pairs
}

#[test]
fn products_equal_host_64_bit_arithmetic() {
    let p = program(
        "UMUL OUT[0], IN[0], IN[1]\nUMUL_HI OUT[1], IN[0], IN[1]\nIMUL_HI OUT[2], IN[0], IN[1]\nEND\n",
    );
    let img = image(&p);
    // The sequence lengths ARCHITECTURE.md gives, and no model-only operation in them.
    assert_eq!(
        [length(&img, 0), length(&img, 1), length(&img, 2)],
        [27, 34, 34]
    );
    assert!(img.code.iter().all(|i| i.op != Op::Dop && i.op != Op::Tex));
    check_pairs(
        &p,
        &all_pairs(),
        &[
            ("UMUL", |a, b| (u64::from(a) * u64::from(b)) as u32),
            ("UMUL_HI", |a, b| {
                ((u64::from(a) * u64::from(b)) >> 32) as u32
            }),
            ("IMUL_HI", |a, b| {
                ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32
            }),
        ],
    );
}

/// A product whose sources carry integer negate and absolute value, swizzles and a write mask,
/// into a destination that is also a source, agrees with the reference model.
#[test]
fn modified_products_match_the_reference() {
    let p = program(
        "DCL TEMP[0..1]\nMOV TEMP[0], IN[0]\nMOV TEMP[1], IN[1]\n\
         IMUL_HI TEMP[0].xzw, -TEMP[0].wzyx, |TEMP[1]|\nUMUL TEMP[1].yz, TEMP[0], -TEMP[1].x\n\
         UMUL_HI OUT[1], -|TEMP[1].yxwz|, TEMP[0]\nMOV OUT[0], TEMP[0]\nMOV OUT[2], TEMP[1]\nEND\n",
    );
    let img = image(&p);
    let w = words();
    for k in (0..w.len() - 8).step_by(8) {
        let mut inputs = RunInputs::default();
        inputs.inputs.insert(
            0,
            std::array::from_fn(|l| std::array::from_fn(|c| w[k + l + c])),
        );
        inputs.inputs.insert(
            1,
            std::array::from_fn(|l| std::array::from_fn(|c| w[k + 4 + (l ^ c)])),
        );
        let core = sim::core_model::run(&img, &inputs).expect("runs");
        let reference = sim::reference::run(&p, &inputs).expect("runs");
        for l in 0..4 {
            assert_eq!(
                core.lanes[l].outputs, reference.lanes[l].outputs,
                "lane {l}, operands from {k}"
            );
        }
    }
}

#[test]
fn uadd_wraps() {
    let p = program("UADD OUT[0], IN[0], IN[1]\nEND\n");
    assert_eq!(length(&image(&p), 0), 1);
    check_pairs(&p, &all_pairs(), &[("UADD", |a, b| a.wrapping_add(b))]);
}

/// F2U with the rule written out: NaN and everything below 1 give 0 (subnormals read as zero),
/// 2^32 and above 0xFFFFFFFF, else the truncated value.
fn f2u(bits: u32) -> u32 {
    let x = f64::from(f32::from_bits(bits));
    if x.is_nan() || x < 1.0 || bits & 0x7F80_0000 == 0 {
        0
    } else if x >= 4_294_967_296.0 {
        u32::MAX
    } else {
        x.trunc() as u64 as u32
    }
}

#[test]
fn f2u_truncates_and_saturates() {
    let p = program("F2U OUT[0], IN[0]\nEND\n");
    let img = image(&p);
    assert_eq!(length(&img, 0), 6);
    // No integer ALU and no divider: the build that fits runs it too.
    let minimal = compile(&p, &CoreConfig::minimal()).expect("compiles for the minimal core");
    assert_eq!(minimal.image.code, img.code);
    let mut v: Vec<u32> = vec![
        0,
        0x8000_0000,
        1,
        0x8000_0001,
        0x007F_FFFF,
        0x3F00_0000,
        0x3F7F_FFFF,
        0x3F80_0000,
        0x3FC0_0000,
        0xBF80_0000,
        0xBF7F_FFFF,
        0x4B7F_FFFF,
        0x4EFF_FFFF, // 2^31 - 128
        0x4F00_0000, // 2^31
        0x4F00_0001,
        0x4F7F_FFFF, // 2^32 - 256
        0x4F80_0000, // 2^32
        0x7F7F_FFFF,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0000,
        0xFFC0_0001,
        0x7F80_0001,
        0xCF00_0000,
    ];
    let mut rng = XorShift::new(0xF2);
    for i in 0..4000 {
        v.push(match i % 3 {
            0 => rng.next_u32(),
            // 2^24 .. 2^33, where the range splits.
            1 => 0x4B80_0000 + (rng.next_u32() % (0x5000_0000 - 0x4B80_0000)),
            _ => (rng.uniform(-10.0, 5e9) as f32).to_bits(),
        });
    }
    let pairs: Vec<(u32, u32)> = v.iter().map(|&x| (x, 0)).collect();
    check_pairs(&p, &pairs, &[("F2U", |a, _| f2u(a))]);
}

#[test]
fn ucmp_selects_raw_bits() {
    // IN[0] is the condition and src2, IN[1] src1: cond != 0 ? IN[1] : IN[0].zwxy.
    let p = program("UCMP OUT[0], IN[0], IN[1], IN[0].zwxy\nEND\n");
    let img = image(&p);
    assert_eq!(length(&img, 0), 5);
    let minimal = compile(&p, &CoreConfig::minimal()).expect("compiles for the minimal core");
    assert_eq!(minimal.image.code, img.code);
    let bits = [
        0u32,
        0x8000_0000,
        1,
        0x0000_0123,
        0x807F_FFFF,
        0x7FC0_0000,
        0xFFFF_FFFF,
        0x3F80_0000,
    ];
    let mut rng = XorShift::new(0xC3);
    for _ in 0..500 {
        let mut a = [[0u32; 4]; 4];
        let mut b = [[0u32; 4]; 4];
        for l in 0..4 {
            for c in 0..4 {
                a[l][c] = bits[rng.next_u32() as usize % bits.len()];
                b[l][c] = if rng.next_u32().is_multiple_of(2) {
                    bits[rng.next_u32() as usize % bits.len()]
                } else {
                    rng.next_u32()
                };
            }
        }
        let mut inputs = RunInputs::default();
        inputs.inputs.insert(0, a);
        inputs.inputs.insert(1, b);
        let out = sim::core_model::run(&img, &inputs).expect("runs");
        for l in 0..4 {
            let want: [u32; 4] = std::array::from_fn(|c| {
                if a[l][c] != 0 {
                    b[l][c]
                } else {
                    a[l][[2, 3, 0, 1][c]]
                }
            });
            assert_eq!(out.lanes[l].outputs[&0], want, "lane {l}: {a:x?} {b:x?}");
        }
    }
}

/// F2U and UCMP with float modifiers, saturate and write masks, UADD with integer modifiers,
/// aliasing their destination with a source: the reference model's bits.
#[test]
fn modified_selects_and_conversions_match_the_reference() {
    let p = program(
        "DCL TEMP[0..1]\nMOV TEMP[0], IN[0]\nMOV TEMP[1], IN[1]\n\
         UCMP_SAT TEMP[0].xyw, -TEMP[0].yxzw, |TEMP[1]|, -TEMP[0]\n\
         F2U TEMP[1].xz, -|TEMP[1].wzyx|\nUADD TEMP[1].yw, -TEMP[1], |IN[1].x|\n\
         F2U OUT[1], IN[0]\nUCMP OUT[3], IN[1], -|IN[0]|, IN[1].w\n\
         MOV OUT[0], TEMP[0]\nMOV OUT[2], TEMP[1]\nEND\n",
    );
    let img = image(&p);
    let pool = [
        0u32,
        0x8000_0000,
        1,
        0x8000_0123,
        0x3F80_0000,
        0xBF00_0000,
        0x4F00_0000,
        0xCF80_0000,
        0x7F80_0000,
        0x7FC0_0000,
        0xFFFF_FFFF,
        0x4E80_0001,
        0x4280_0000,
        0x3E80_0000,
    ];
    let mut rng = XorShift::new(0xAB);
    for _ in 0..400 {
        let mut pick = || -> [[u32; 4]; 4] {
            std::array::from_fn(|_| {
                std::array::from_fn(|_| match rng.next_u32() % 3 {
                    0 => rng.next_u32(),
                    _ => pool[rng.next_u32() as usize % pool.len()],
                })
            })
        };
        let mut inputs = RunInputs::default();
        inputs.inputs.insert(0, pick());
        inputs.inputs.insert(1, pick());
        let core = sim::core_model::run(&img, &inputs).expect("runs");
        let reference = sim::reference::run(&p, &inputs).expect("runs");
        for l in 0..4 {
            assert_eq!(
                core.lanes[l].outputs, reference.lanes[l].outputs,
                "lane {l}: {:x?}",
                inputs.inputs
            );
        }
    }
}

/// A million random pairs per product (outside the default suite: `cargo test --release -p sim
/// --test imul_sequences -- --ignored`).
#[test]
#[ignore = "sweep; run explicitly"]
fn products_random_sweep() {
    let p = program(
        "UMUL OUT[0], IN[0], IN[1]\nUMUL_HI OUT[1], IN[0], IN[1]\nIMUL_HI OUT[2], IN[0], IN[1]\nEND\n",
    );
    let mut rng = XorShift::new(0x5EE9);
    let pairs: Vec<(u32, u32)> = (0..1 << 20)
        .map(|k| {
            // Every fourth operand is short or has its top limb all ones, where carries meet.
            let (a, b) = (rng.next_u32(), rng.next_u32());
            match k % 4 {
                0 => (a >> (b & 31), b),
                1 => (a | 0xFFC0_0000, b | 0x003F_F800),
                _ => (a, b),
            }
        })
        .collect();
    check_pairs(
        &p,
        &pairs,
        &[
            ("UMUL", |a, b| (u64::from(a) * u64::from(b)) as u32),
            ("UMUL_HI", |a, b| {
                ((u64::from(a) * u64::from(b)) >> 32) as u32
            }),
            ("IMUL_HI", |a, b| {
                ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32
            }),
        ],
    );
}

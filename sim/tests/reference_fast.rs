//! The reference model's fast kernels against its general interpreter: random float programs
//! (every fast opcode, swizzles, EXT_SWZ selectors, negates, absolute values, saturate, write
//! masks, IF blocks that leave lanes idle or skip, KIL, and now and then an instruction only the
//! general path runs) on edge values (NaN payloads, infinities, subnormals, -0) give the same
//! outputs, killed lanes, counts and warnings on both paths, by `run` and by `run_flat`; and so
//! do arbitrary valid programs (every processor, file, addressing mode and opcode).

mod common;
mod reference_support;

use common::echo::Echo;

use microcode::rng::XorShift;
use microcode::tgsi::*;
use reference_support::*;
use sim::reference::Prepared;
use sim::run_io::batch::{BatchInputs, BatchOutputs};
use sim::run_io::RunInputs;

/// Values where the float rules matter.
const EDGES: [u32; 22] = [
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x3F80_0000, // 1
    0xBF80_0000, // -1
    0x3F00_0000, // 0.5
    0x4000_0000, // 2
    0x7FC0_0000, // canonical NaN
    0x7FC0_0001, // NaN with a payload
    0xFFC0_0000, // negative NaN
    0x7F80_0001, // signalling NaN
    0x7F80_0000, // inf
    0xFF80_0000, // -inf
    0x0000_0001, // smallest subnormal
    0x807F_FFFF, // largest negative subnormal
    0x0080_0000, // smallest normal
    0x7F7F_FFFF, // largest finite
    0xFF7F_FFFF, // most negative finite
    0x1F80_0000, // 2^-64
    0x5F80_0000, // 2^64
    0x3EAA_AAAB, // 1/3
    0x42C8_0000, // 100
    0xC2F0_0000, // -120
];

fn value(r: &mut XorShift) -> u32 {
    match r.below(4) {
        0 | 1 => r.pick(&EDGES),
        2 => ((r.below(2001) as f32 - 1000.0) / 128.0).to_bits(),
        _ => r.next_u32(),
    }
}

/// Every float arithmetic opcode of the table with one destination (the fast path's and the
/// general path's alike), so that a kernel added later is compared without a list to update.
fn float_ops() -> Vec<Opcode> {
    use microcode::tgsi::opcode::{Kind, OperandType, OPCODES};
    OPCODES
        .iter()
        .filter(|i| {
            i.kind == Kind::Alu
                && i.num_dst == 1
                && i.src_type == OperandType::Float
                && i.dst_type == OperandType::Float
        })
        .map(|i| i.opcode)
        .collect()
}

fn source(r: &mut XorShift) -> SrcOperand {
    let (file, count) = r.pick(&[
        (File::Temporary, 8),
        (File::Temporary, 8),
        (File::Input, 4),
        (File::Constant, 4),
        (File::Immediate, 4),
        (File::Output, 4),
    ]);
    // Now and then a register outside the declarations (the general path warns).
    let index = if r.chance(2) {
        9
    } else {
        r.below(count) as i32
    };
    let mut s = src(file, index);
    s.swizzle = std::array::from_fn(|_| r.below(4) as u8);
    s.negate = r.chance(25);
    if r.chance(15) {
        s.ext_swizzle = Some(ExtSwizzle {
            select: std::array::from_fn(|_| r.pick(&ExtSel::ALL)),
            negate: std::array::from_fn(|_| r.chance(30)),
            divide: if r.chance(10) { ExtSel::W } else { ExtSel::One },
        });
    }
    s.ext_mod.absolute = r.chance(20);
    s.ext_mod.negate = r.chance(15);
    // Modifiers only the general path applies.
    s.ext_mod.complement = r.chance(3);
    s.ext_mod.bias = r.chance(3);
    s.ext_mod.scale2x = r.chance(3);
    s
}

fn destination(r: &mut XorShift) -> DstOperand {
    let mut d = if r.chance(70) {
        tmpd(r.below(8) as i32)
    } else {
        out(r.below(4) as i32)
    };
    d.write_mask = 1 + r.below(15) as u8;
    if r.chance(3) {
        d.modulate = Modulate::X2;
    }
    d
}

fn instruction(r: &mut XorShift, ops: &[Opcode]) -> Instruction {
    let op = r.pick(ops);
    let info = op.info();
    let mut i = Instruction::new(op);
    i.dst = vec![destination(r)];
    i.src = (0..info.num_src).map(|_| source(r)).collect();
    i.saturate = r.pick(&[
        Saturate::None,
        Saturate::None,
        Saturate::ZeroOne,
        Saturate::MinusPlusOne,
    ]);
    if r.chance(3) {
        i.cond_update = Some(0);
    }
    if r.chance(3) {
        i.cond_flow = Some(CondTest {
            mask: CondMask::Gt,
            index: 0,
            swizzle: [0, 1, 2, 3],
        });
    }
    i
}

fn program(r: &mut XorShift, ops: &[Opcode]) -> Program {
    let mut b = Builder::frag();
    b.decl(File::Constant, 0, 3);
    for _ in 0..4 {
        let v = std::array::from_fn(|_| value(r));
        b.imm_bits(ImmType::Float32, v);
    }
    let n = 4 + r.below(28);
    let mut open_ifs = 0;
    for _ in 0..n {
        match r.below(20) {
            0 => {
                let s = if r.chance(50) {
                    source(r)
                } else {
                    let mut s = tmp(r.below(8) as i32);
                    s.swizzle = [r.below(4) as u8; 4];
                    s
                };
                b.op(Opcode::If, &[], &[s]);
                open_ifs += 1;
            }
            1 if open_ifs > 0 => {
                b.op(Opcode::EndIf, &[], &[]);
                open_ifs -= 1;
            }
            2 => {
                let s = source(r);
                b.op(Opcode::Kil, &[], &[s]);
            }
            _ => {
                let i = instruction(r, ops);
                b.push(i);
            }
        }
    }
    for _ in 0..open_ifs {
        b.op(Opcode::EndIf, &[], &[]);
    }
    b.op(Opcode::End, &[], &[]);
    b.p
}

fn inputs(r: &mut XorShift) -> RunInputs {
    let mut i = RunInputs::default();
    for n in 0..4 {
        for l in 0..4 {
            i.set_input_lane(n, l, std::array::from_fn(|_| value(r)));
        }
        i.set_const(0, n, std::array::from_fn(|_| value(r)));
    }
    i
}

#[test]
fn fast_kernels_match_the_general_interpreter() {
    let ops = float_ops();
    assert!(ops.len() >= 50, "{} float opcodes", ops.len());
    let mut r = XorShift::new(0x9E37_79B9_7F4A_7C15);
    let mut fast_instructions = 0;
    for case in 0..4000 {
        let p = program(&mut r, &ops);
        let i = inputs(&mut r);
        let fast = Prepared::new(&p).expect("prepared");
        let general = Prepared::general(&p).expect("prepared");
        assert_eq!(general.fast_instructions(), 0);
        fast_instructions += fast.fast_instructions();
        let a = fast.run(&i);
        let b = general.run(&i);
        assert_eq!(a, b, "case {case}: {p:#?}");

        let registers: Vec<u32> = (0..4).collect();
        let mut batch = BatchInputs::new(registers.clone());
        for _ in 0..3 {
            let q = batch.push_quad();
            for (k, v) in q.iter_mut().enumerate() {
                *v = i.inputs[&((k / 4) as u32)][k % 4];
                if r.chance(30) {
                    *v = std::array::from_fn(|_| value(&mut r));
                }
            }
        }
        let mut fa = BatchOutputs::new(registers.clone());
        let mut fb = BatchOutputs::new(registers);
        fast.run_flat(&i, &batch, &mut fa);
        general.run_flat(&i, &batch, &mut fb);
        for q in 0..batch.quads() {
            assert_eq!(fa.quad(q), fb.quad(q), "case {case} quad {q}: {p:#?}");
            assert_eq!(fa.killed(q), fb.killed(q), "case {case} quad {q}");
            assert_eq!(fa.count(q), fb.count(q), "case {case} quad {q}");
        }
        assert_eq!(fa.warnings(), fb.warnings(), "case {case}");
        assert_eq!(fa.errors(), fb.errors(), "case {case}");
    }
    // Most generated instructions are fast ones: the comparison is not vacuous.
    assert!(fast_instructions > 4000 * 8, "{fast_instructions}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 300, ..Default::default() })]

    /// Arbitrary valid programs (every processor, file, addressing mode and opcode): the fast
    /// path declines what it cannot run exactly, so both paths agree.
    #[test]
    fn arbitrary_programs_agree(
        p in microcode::tgsi::arbitrary::program(),
        seed in proptest::collection::vec(proptest::prelude::any::<u64>(), 1..4),
    ) {
        let mut r = XorShift::new(seed.iter().fold(0x243F_6A88_85A3_08D3, |a, &s| a ^ s.rotate_left(17)) | 1);
        let mut i = inputs(&mut r);
        i.budget = 20_000;
        for n in 4..8 {
            for l in 0..4 {
                i.set_input_lane(n, l, std::array::from_fn(|_| value(&mut r)));
            }
        }
        for v in 0..6u32 {
            for n in 0..8u32 {
                i.geometry_inputs.insert((v, n), std::array::from_fn(|_| value(&mut r)));
            }
        }
        for b in 0..4u32 {
            for n in 0..16u32 {
                i.set_const(b, n, std::array::from_fn(|_| value(&mut r)));
            }
        }
        i.textures = (0..16)
            .map(|_| Some(Box::new(Echo) as Box<dyn sim::run_io::Sampler>))
            .collect();
        let fast = Prepared::new(&p);
        let general = Prepared::general(&p);
        match (fast, general) {
            (Ok(fast), Ok(general)) => {
                proptest::prop_assert_eq!(fast.run(&i), general.run(&i));
            }
            (a, b) => proptest::prop_assert_eq!(a.err(), b.err()),
        }
    }
}

//! RCP on a core without the divider (`CoreConfig::minimal`, the board build that fits) is the
//! division sequence of `microcode/src/compile/div.rs` with a numerator of 1; on the core model it
//! gives the bits of `arith::frcp` (correctly rounded, the contract's flush rule), on edge cases
//! and random operands. (The hardware engines run the same instructions: `hw_cross.rs`; DIV and
//! the other divisions: `div_sequence.rs`.)

mod common;

use common::programs::{parse, F, POOL};
use microcode::arith;
use microcode::compile::compile;
use microcode::core::isa::Op;
use microcode::core::CoreConfig;
use microcode::rng::XorShift;
use sim::run_io::RunInputs;

/// Operands: the pool, the edges of the exponent range and of the significand, and random bits.
fn operands() -> Vec<u32> {
    let mut v: Vec<u32> = POOL.to_vec();
    for e in [
        1u32, 2, 3, 124, 125, 126, 127, 128, 129, 250, 251, 252, 253, 254,
    ] {
        for f in [
            0, 1, 2, 0x7F_FFFF, 0x7F_FFFE, 0x40_0000, 0x3F_FFFF, 0x55_5555, 0x2A_AAAB,
        ] {
            v.push(e << 23 | f);
            v.push(0x8000_0000 | e << 23 | f);
        }
    }
    v.extend([
        0,
        0x8000_0000,
        1,
        0x8000_0001,
        0x007F_FFFF,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0000,
        0xFF80_0001,
        0x7F7F_FFFF,
        0x0080_0000,
    ]);
    let mut rng = XorShift::new(0x5EC1);
    for i in 0..20_000 {
        v.push(match i % 4 {
            0 => rng.next_u32(),
            // Significands near 1 and 2, where the digits and the rounding are tightest.
            1 => 0x3F80_0000 | (rng.next_u32() & 0xFF),
            2 => 0x3FFF_FF00 | (rng.next_u32() & 0xFF),
            _ => F(rng.uniform(-1e4, 1e4) as f32),
        });
    }
    v
}

#[test]
fn rcp_without_the_divider_is_correctly_rounded() {
    let p = parse("RCP OUT[0], IN[0].x\nEND\n");
    let config = CoreConfig::minimal();
    let image = compile(&p, &config).expect("compiles").image;
    assert!(
        image
            .code
            .iter()
            .all(|i| i.op != Op::Rcp && i.op != Op::Div),
        "no divider instruction in the sequence"
    );
    let mut checked = 0;
    for quad in operands().chunks(4) {
        let mut inputs = RunInputs::default();
        let mut x = [[0u32; 4]; 4];
        for (l, &v) in quad.iter().enumerate() {
            x[l] = [v; 4];
        }
        inputs.inputs.insert(0, x);
        let out = sim::core_model::run(&image, &inputs).expect("runs");
        for (l, &v) in quad.iter().enumerate() {
            let got = out.lanes[l].outputs[&0];
            let want = arith::frcp(v);
            for c in got {
                assert_eq!(c, want, "RCP({v:#010x}): got {c:#010x}, want {want:#010x}");
            }
            checked += 1;
        }
    }
    assert!(checked > 20_000);
}

/// Every significand at the exponents where the sequence's cases meet: `x` in `[1, 2)`, and
/// `[2^126, 2^128)`, where the result crosses into the flushed range (a benchmark-style sweep,
/// about a minute and a half: `cargo test --release -p sim --test recip_sequence -- --ignored`).
#[test]
#[ignore = "exhaustive sweep; run explicitly"]
fn rcp_without_the_divider_every_significand() {
    let p = parse("RCP OUT[0], IN[0].x\nEND\n");
    let image = compile(&p, &CoreConfig::minimal()).expect("compiles").image;
    for e in [127u32, 253, 254] {
        for f0 in (0..1u32 << 23).step_by(4) {
            let mut inputs = RunInputs::default();
            let mut x = [[0u32; 4]; 4];
            for (l, lane) in x.iter_mut().enumerate() {
                *lane = [e << 23 | (f0 + l as u32); 4];
            }
            inputs.inputs.insert(0, x);
            let out = sim::core_model::run(&image, &inputs).expect("runs");
            for (l, lane) in x.iter().enumerate() {
                let (v, got) = (lane[0], out.lanes[l].outputs[&0][0]);
                assert_eq!(got, arith::frcp(v), "RCP({v:#010x})");
            }
        }
    }
}

/// RCC (two reciprocals, clamped) and RCP with modifiers on the same sequence agree with the
/// reference model.
#[test]
fn rcc_and_modified_rcp_without_the_divider_match_the_reference() {
    let p = parse("RCC OUT[0], IN[0].x\nRCP_SAT OUT[1].xz, -|IN[0].y|\nEND\n");
    let image = compile(&p, &CoreConfig::minimal()).expect("compiles").image;
    for quad in operands().chunks(4).take(2000) {
        let mut inputs = RunInputs::default();
        let mut x = [[0u32; 4]; 4];
        for (l, &v) in quad.iter().enumerate() {
            x[l] = [v, v ^ 0x8000_0000, 0, 0];
        }
        inputs.inputs.insert(0, x);
        let core = sim::core_model::run(&image, &inputs).expect("runs");
        let reference = sim::reference::run(&p, &inputs).expect("runs");
        for (l, v) in quad.iter().enumerate() {
            assert_eq!(
                core.lanes[l].outputs, reference.lanes[l].outputs,
                "lane {l}: {v:#010x}"
            );
        }
    }
}

//! The compiled transcendental sequences (`microcode/src/compile/trans.rs`) on the core model give
//! the bits of the `microcode::arith` functions they spell out, on edge cases and random operands.
//! (The hardware engines run the same instructions and are cross-checked with the core model in
//! `hw_cross.rs`.)

mod common;

use common::programs::{parse, F, POOL};
use microcode::arith;
use microcode::compile::compile;
use microcode::core::CoreConfig;
use microcode::rng::XorShift;
use sim::run_io::RunInputs;

/// Operands: the pool, values around every special range of the sequences, and random bits.
fn operands() -> Vec<u32> {
    let mut v: Vec<u32> = POOL.to_vec();
    v.extend([
        0x4300_0000, // 128: EX2 overflows from here
        0x42FF_FFFF, // just below 128
        0x42FF_FF00, // k rounds to 32768
        0xC2FE_0000, // -127
        0xC2FE_0001, // just below -127
        0x3F7F_FFFF, // LG2 just below 1
        0x3F80_8000, // LG2 index 1
        0x3FFF_8000, // LG2 wraps (index 255)
        0x0080_0000, // smallest normal
        0x7F7F_FFFF, // largest normal
        0x8000_0001, // negative subnormal
        0xFF80_0001, // a NaN with a payload
        F(std::f32::consts::FRAC_PI_2),
        F(-std::f32::consts::PI * 100.0),
        F(1e9),
    ]);
    let mut rng = XorShift::new(0x7AB5);
    for i in 0..3000 {
        v.push(match i % 3 {
            0 => rng.next_u32(),
            1 => F(rng.uniform(-40.0, 40.0) as f32),
            _ => F(rng.uniform(0.0, 4.0) as f32),
        });
    }
    v
}

#[test]
fn sequences_give_the_bits_of_the_arith_functions() {
    let p = parse(
        "RSQ OUT[0].x, IN[0].x\nEX2 OUT[0].y, IN[0].x\nLG2 OUT[0].z, IN[0].x\nPOW OUT[0].w, IN[0].x, IN[1].x\nSIN OUT[1].x, IN[0].x\nCOS OUT[1].y, IN[0].x\nSCS TEMP[0], IN[0].x\nMOV OUT[1].zw, TEMP[0].xxxy\nEND\n",
    );
    let image = compile(&p, &CoreConfig::default()).expect("compiles").image;
    let xs = operands();
    let mut rng = XorShift::new(99);
    for quad in xs.chunks(4) {
        let mut inputs = RunInputs::default();
        let mut x = [[0u32; 4]; 4];
        let mut y = [[0u32; 4]; 4];
        for (l, &v) in quad.iter().enumerate() {
            x[l] = [v; 4];
            y[l] = [F(rng.uniform(-3.0, 3.0) as f32); 4];
        }
        inputs.inputs.insert(0, x);
        inputs.inputs.insert(1, y);
        let out = sim::core_model::run(&image, &inputs).expect("runs");
        for (l, &v) in quad.iter().enumerate() {
            let o = &out.lanes[l].outputs;
            let (a, b) = (o[&0], o[&1]);
            let yv = y[l][0];
            let (s, c) = arith::fsincos(v);
            let want = [
                ("RSQ", a[0], arith::frsq(v)),
                ("EX2", a[1], arith::fex2(v)),
                ("LG2", a[2], arith::flg2(v)),
                ("POW", a[3], arith::fpow(v, yv)),
                ("SIN", b[0], s),
                ("COS", b[1], c),
                ("SCS.x (cos)", b[2], c),
                ("SCS.y (sin)", b[3], s),
            ];
            for (name, got, exp) in want {
                assert_eq!(
                    got, exp,
                    "{name} of {v:#010x} (y {yv:#010x}): core {got:#010x}, arith {exp:#010x}"
                );
            }
        }
    }
}

#[test]
fn sequence_lengths_are_as_documented() {
    // One instruction per step (trans.rs), plus one where a step reads two constants (the
    // constant rule): RSQ 14, EX2 10, LG2 25, SIN 22, POW 36, each 16 clocks.
    for (body, n) in [
        ("RSQ OUT[0].x, IN[0].x\nEND\n", 14),
        ("EX2 OUT[0].x, IN[0].x\nEND\n", 10),
        ("LG2 OUT[0].x, IN[0].x\nEND\n", 25),
        ("SIN OUT[0].x, IN[0].x\nEND\n", 22),
        ("POW OUT[0].x, IN[0].x, IN[1].x\nEND\n", 36),
    ] {
        let image = compile(&parse(body), &CoreConfig::default())
            .expect("compiles")
            .image;
        // The sequence plus END.
        assert_eq!(image.code.len(), n + 1, "{body}");
    }
}

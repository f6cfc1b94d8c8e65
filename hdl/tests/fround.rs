//! `FRound` in rust-hdl simulation and in Verilator against host f32 rounding and
//! `microcode::arith::fround_integral`.
mod common;

use common::model::{flush_in, flush_out, random_fadd_vectors, SPECIALS};
use common::sim::tick;
use common::tools::{verilator_lint, verilator_model, verilator_run, yosys_check, Port};
use hdl::fround::{FRound, RoundMode};
use microcode::arith::{fround_integral, IntegralMode};
use rust_hdl::core::check_error::check_all;
use rust_hdl::prelude::*;

const LATENCY: usize = 3;
const MODES: [RoundMode; 4] = [
    RoundMode::Floor,
    RoundMode::Ceil,
    RoundMode::Trunc,
    RoundMode::NearestEven,
];

fn host(x: u32, mode: usize) -> u32 {
    let v = flush_in(x);
    flush_out(match mode {
        0 => v.floor(),
        1 => v.ceil(),
        2 => v.trunc(),
        _ => v.round_ties_even(),
    })
}

fn arith(x: u32, mode: usize) -> u32 {
    let m = [
        IntegralMode::Floor,
        IntegralMode::Ceil,
        IntegralMode::Trunc,
        IntegralMode::NearestEven,
    ];
    fround_integral(x, m[mode])
}

/// Operands: the specials, halves and near-halves, and random values of every magnitude.
fn vectors() -> Vec<(u32, usize)> {
    let mut xs: Vec<u32> = SPECIALS.to_vec();
    for k in 0..24u32 {
        for base in [0x3F00_0000u32, 0x3FC0_0000, 0x4020_0000] {
            // x.5-style values and their neighbours at every exponent up to 2^23.
            let x = base + (k << 23);
            xs.extend([x, x + 1, x - 1, x | 0x8000_0000, (x + 1) | 0x8000_0000]);
        }
    }
    xs.extend(
        random_fadd_vectors(0x000F_1004, 30_000)
            .into_iter()
            .map(|(a, _, _)| a),
    );
    let mut v = Vec::new();
    for (i, &x) in xs.iter().enumerate() {
        v.push((x, i % 4));
        v.push((x, (i + 1) % 4));
    }
    v
}

#[test]
fn fround_hand_checked_and_models_agree() {
    assert_eq!(host(0xBF00_0000, 0), 0xBF80_0000); // floor(-0.5) = -1
    assert_eq!(host(0xBF00_0000, 1), 0x8000_0000); // ceil(-0.5) = -0
    assert_eq!(host(0x4020_0000, 3), 0x4000_0000); // round(2.5) = 2
    assert_eq!(host(0x3FC0_0000, 3), 0x4000_0000); // round(1.5) = 2
    assert_eq!(host(0x8000_0001, 0), 0x8000_0000); // subnormal counts as -0
    for (x, m) in vectors() {
        assert_eq!(host(x, m), arith(x, m), "mode {m} of {x:08x}");
    }
}

#[test]
fn fround_simulation() {
    let v = vectors();
    let mut uut = FRound::default();
    uut.connect_all();
    check_all(&uut).expect("FRound passes rust-hdl's checks");
    let mut got = Vec::new();
    for i in 0..v.len() + LATENCY - 1 {
        let (x, m) = v.get(i).copied().unwrap_or((0, 0));
        uut.a.next = (x as u64).into();
        uut.mode.next = MODES[m];
        tick(&mut uut, |u| &mut u.clock);
        if i + 1 >= LATENCY {
            got.push(uut.result.val().index() as u32);
        }
    }
    for (g, &(x, m)) in got.iter().zip(&v) {
        assert_eq!(*g, host(x, m), "mode {m} of {x:08x}");
    }
}

#[test]
fn fround_verilog() {
    let mut uut = FRound::default();
    uut.connect_all();
    let verilog = generate_verilog(&uut);
    let Some(_) = verilator_lint("fround", &verilog) else {
        return;
    };
    yosys_check("fround", &verilog);
    let ins = [
        Port {
            name: "a",
            width: 32,
        },
        Port {
            name: "mode",
            width: 2,
        },
    ];
    let Some(exe) = verilator_model(
        "fround",
        &verilog,
        &ins,
        &[Port {
            name: "result",
            width: 32,
        }],
    ) else {
        return;
    };
    let v = vectors();
    let mut rows: Vec<Vec<u64>> = v.iter().map(|&(x, m)| vec![x as u64, m as u64]).collect();
    rows.extend((1..LATENCY).map(|_| vec![0, 0]));
    let got = verilator_run(&exe, &rows);
    for (r, &(x, m)) in got[LATENCY - 1..].iter().zip(&v) {
        assert_eq!(r[0] as u32, host(x, m), "Verilator mode {m} of {x:08x}");
    }
}

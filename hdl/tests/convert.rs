//! `F2I` and `I2F` in rust-hdl simulation and in Verilator against host conversions (Rust's
//! `as` saturates and maps NaN to 0, exactly the project's rule) and `microcode::arith`.
mod common;

use common::model::{flush_in, random_fadd_vectors, Rng, SPECIALS};
use common::sim::tick;
use common::tools::{verilator_lint, verilator_model, verilator_run, yosys_check, Port};
use hdl::f2i::F2I;
use hdl::fround::RoundMode;
use hdl::i2f::I2F;
use rust_hdl::core::check_error::check_all;
use rust_hdl::prelude::*;

const F2I_LATENCY: usize = 5;
const I2F_LATENCY: usize = 4;
const MODES: [RoundMode; 4] = [
    RoundMode::Floor,
    RoundMode::Ceil,
    RoundMode::Trunc,
    RoundMode::NearestEven,
];

fn host_f2i(x: u32, mode: usize) -> u32 {
    let v = flush_in(x);
    (match mode {
        0 => v.floor(),
        1 => v.ceil(),
        2 => v.trunc(),
        _ => v.round_ties_even(),
    } as i32) as u32
}

fn host_i2f(i: u32) -> u32 {
    (i as i32 as f32).to_bits()
}

fn f2i_vectors() -> Vec<(u32, usize)> {
    let mut xs: Vec<u32> = SPECIALS.to_vec();
    // Around +-2^31 and +-2^24, halves.
    xs.extend([
        0x4F00_0000,
        0x4EFF_FFFF,
        0x4F00_0001,
        0xCF00_0000,
        0xCF00_0001,
        0xCEFF_FFFF,
    ]);
    xs.extend([
        0x4B80_0000,
        0x4B7F_FFFF,
        0x3F00_0000,
        0xBF00_0000,
        0x4020_0000,
        0xC020_0000,
    ]);
    let mut r = Rng::new(0xF21);
    for _ in 0..20_000 {
        // Exponents 120..160: the interesting range of the conversion.
        xs.push((r.next_u32() & 0x807F_FFFF) | ((120 + r.below(40)) << 23));
    }
    xs.extend(
        random_fadd_vectors(0xF22, 5_000)
            .into_iter()
            .map(|(a, _, _)| a),
    );
    xs.iter()
        .enumerate()
        .flat_map(|(i, &x)| [(x, i % 4), (x, (i + 2) % 4)])
        .collect()
}

fn i2f_vectors() -> Vec<u32> {
    let mut v = vec![
        0,
        1,
        0xFFFF_FFFF,
        0x8000_0000,
        0x7FFF_FFFF,
        0x0100_0000,
        0x0100_0001,
    ];
    v.extend([
        0x0100_0003,
        0x01FF_FFFF,
        0xFEFF_FFFF,
        0x7FFF_FFC0,
        0x7FFF_FF80,
        0x7FFF_FF7F,
    ]);
    let mut r = Rng::new(0x12F);
    for _ in 0..30_000 {
        // Random magnitudes of every width.
        v.push(r.next_u32() >> r.below(32));
        v.push((r.next_u32() >> r.below(32)).wrapping_neg());
    }
    v
}

#[test]
fn conversion_models_agree_with_arith() {
    use microcode::arith::{f2i_floor, f2i_round, f2i_trunc, i2f};
    assert_eq!(host_f2i(0x7FC0_0000, 0), 0);
    assert_eq!(host_f2i(0xCF00_0001, 2), 0x8000_0000);
    assert_eq!(host_f2i(0x4020_0000, 3), 2);
    assert_eq!(host_i2f(0x0100_0001), 0x4B80_0000);
    for (x, m) in f2i_vectors() {
        let want = match m {
            0 => Some(f2i_floor(x)),
            2 => Some(f2i_trunc(x)),
            3 => Some(f2i_round(x)),
            _ => None,
        };
        if let Some(w) = want {
            assert_eq!(host_f2i(x, m), w as u32, "mode {m} of {x:08x}");
        }
    }
    for i in i2f_vectors() {
        assert_eq!(host_i2f(i), i2f(i as i32), "i2f({i:08x})");
    }
}

#[test]
fn f2i_simulation_and_verilog() {
    let v = f2i_vectors();
    let mut uut = F2I::default();
    uut.connect_all();
    check_all(&uut).expect("F2I passes rust-hdl's checks");
    let verilog = generate_verilog(&uut);
    let mut got = Vec::new();
    for i in 0..v.len() + F2I_LATENCY - 1 {
        let (x, m) = v.get(i).copied().unwrap_or((0, 0));
        uut.a.next = (x as u64).into();
        uut.mode.next = MODES[m];
        tick(&mut uut, |u| &mut u.clock);
        if i + 1 >= F2I_LATENCY {
            got.push(uut.result.val().index() as u32);
        }
    }
    for (g, &(x, m)) in got.iter().zip(&v) {
        assert_eq!(*g, host_f2i(x, m), "mode {m} of {x:08x}");
    }
    let Some(_) = verilator_lint("f2i", &verilog) else {
        return;
    };
    yosys_check("f2i", &verilog);
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
        "f2i",
        &verilog,
        &ins,
        &[Port {
            name: "result",
            width: 32,
        }],
    ) else {
        return;
    };
    let mut rows: Vec<Vec<u64>> = v.iter().map(|&(x, m)| vec![x as u64, m as u64]).collect();
    rows.extend((1..F2I_LATENCY).map(|_| vec![0, 0]));
    let out = verilator_run(&exe, &rows);
    for (r, &(x, m)) in out[F2I_LATENCY - 1..].iter().zip(&v) {
        assert_eq!(r[0] as u32, host_f2i(x, m), "Verilator mode {m} of {x:08x}");
    }
}

#[test]
fn i2f_simulation_and_verilog() {
    let v = i2f_vectors();
    let mut uut = I2F::default();
    uut.connect_all();
    check_all(&uut).expect("I2F passes rust-hdl's checks");
    let verilog = generate_verilog(&uut);
    let mut got = Vec::new();
    for i in 0..v.len() + I2F_LATENCY - 1 {
        uut.a.next = (v.get(i).copied().unwrap_or(0) as u64).into();
        tick(&mut uut, |u| &mut u.clock);
        if i + 1 >= I2F_LATENCY {
            got.push(uut.result.val().index() as u32);
        }
    }
    for (g, &x) in got.iter().zip(&v) {
        assert_eq!(*g, host_i2f(x), "i2f({x:08x})");
    }
    let Some(_) = verilator_lint("i2f", &verilog) else {
        return;
    };
    yosys_check("i2f", &verilog);
    let ins = [Port {
        name: "a",
        width: 32,
    }];
    let Some(exe) = verilator_model(
        "i2f",
        &verilog,
        &ins,
        &[Port {
            name: "result",
            width: 32,
        }],
    ) else {
        return;
    };
    let mut rows: Vec<Vec<u64>> = v.iter().map(|&x| vec![x as u64]).collect();
    rows.extend((1..I2F_LATENCY).map(|_| vec![0]));
    let out = verilator_run(&exe, &rows);
    for (r, &x) in out[I2F_LATENCY - 1..].iter().zip(&v) {
        assert_eq!(r[0] as u32, host_i2f(x), "Verilator i2f({x:08x})");
    }
}

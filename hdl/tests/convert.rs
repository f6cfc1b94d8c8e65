//! The conversions of `FAdd` (round to integral, float to int32, int32 and uint32 to float,
//! `EXPX`) in rust-hdl simulation and in the emitted Verilog under Verilator, against host f32
//! arithmetic (Rust's float-to-int `as` saturates and maps NaN to 0, exactly the project's rule)
//! and `microcode::arith`.
mod common;

use common::model::{flush_in, flush_out, random_fadd_vectors, SPECIALS};
use common::sim::{tick, LATENCY};
use common::tools::{verilator_lint, verilator_model, verilator_run, yosys_check, Port};
use hdl::fadd::{AddOp, FAdd, RoundMode};
use microcode::arith::{
    f2i_floor, f2i_round, fexp2_floor, fround_integral, i2f, u2f, IntegralMode,
};
use microcode::rng::XorShift;
use rust_hdl::core::check_error::check_all;
use rust_hdl::prelude::*;

const MODES: [RoundMode; 4] = [
    RoundMode::Floor,
    RoundMode::Ceil,
    RoundMode::Trunc,
    RoundMode::NearestEven,
];

/// One conversion: the operation, the rounding direction (index into [`MODES`]), the operand.
#[derive(Clone, Copy, Debug)]
struct Conv {
    op: AddOp,
    mode: usize,
    x: u32,
}

/// The host's answer, computed without the project's code: f32 rounding, saturating casts.
fn host(c: Conv) -> u32 {
    let v = flush_in(c.x);
    let rounded = |m: usize| match m {
        0 => v.floor(),
        1 => v.ceil(),
        2 => v.trunc(),
        _ => v.round_ties_even(),
    };
    match c.op {
        AddOp::Integral => flush_out(rounded(c.mode)),
        AddOp::F2i => rounded(c.mode) as i32 as u32,
        AddOp::I2fS => (c.x as i32 as f32).to_bits(),
        AddOp::I2fU => (c.x as f32).to_bits(),
        AddOp::Expx => {
            if v.is_nan() {
                0x7FC0_0000
            } else {
                // 2^n in f64 (exact), then the flush rule below the normal range.
                flush_out(2f64.powi(v.floor().clamp(-200.0, 200.0) as i32) as f32)
            }
        }
        AddOp::Add => unreachable!("not a conversion"),
    }
}

/// What `microcode::arith` computes (the models' functions).
fn arith(c: Conv) -> u32 {
    let m = [
        IntegralMode::Floor,
        IntegralMode::Ceil,
        IntegralMode::Trunc,
        IntegralMode::NearestEven,
    ];
    match c.op {
        AddOp::Integral => fround_integral(c.x, m[c.mode]),
        AddOp::F2i if c.mode == 0 => f2i_floor(c.x) as u32,
        AddOp::F2i => f2i_round(c.x) as u32,
        AddOp::I2fS => i2f(c.x as i32),
        AddOp::I2fU => u2f(c.x),
        AddOp::Expx => fexp2_floor(c.x),
        AddOp::Add => unreachable!("not a conversion"),
    }
}

fn float_operands() -> Vec<u32> {
    let mut xs: Vec<u32> = SPECIALS.to_vec();
    // Around +-2^31, +-2^24 and +-2^23, halves and near-halves at every exponent up to 2^23.
    xs.extend([
        0x4F00_0000,
        0x4EFF_FFFF,
        0x4F00_0001,
        0xCF00_0000,
        0xCF00_0001,
        0xCEFF_FFFF,
        0x4B80_0000,
        0x4B7F_FFFF,
        0x4B00_0000,
        0xCB00_0000,
        0x4AFF_FFFF,
    ]);
    for k in 0..24u32 {
        for base in [0x3F00_0000u32, 0x3FC0_0000, 0x4020_0000] {
            let x = base + (k << 23);
            xs.extend([x, x + 1, x - 1, x | 0x8000_0000, (x + 1) | 0x8000_0000]);
        }
    }
    // EXPX's range edges: 2^-127 .. 2^128 around the exponents that flush or overflow.
    for n in [-128i32, -127, -126, -125, 126, 127, 128, 129] {
        let f = n as f32;
        xs.extend([f.to_bits(), (f + 0.5).to_bits(), (f - 0.25).to_bits()]);
    }
    let mut r = XorShift::new(0xF21);
    for _ in 0..15_000 {
        // Exponents 100..165: the interesting range of the conversions.
        xs.push((r.next_u32() & 0x807F_FFFF) | ((100 + r.below_u32(65)) << 23));
    }
    xs.extend(
        random_fadd_vectors(0xF22, 5_000)
            .into_iter()
            .map(|(a, _, _)| a),
    );
    xs
}

fn int_operands() -> Vec<u32> {
    let mut v = vec![
        0,
        1,
        0xFFFF_FFFF,
        0x8000_0000,
        0x7FFF_FFFF,
        0x0100_0000,
        0x0100_0001,
        0x0100_0003,
        0x01FF_FFFF,
        0xFEFF_FFFF,
        0x7FFF_FFC0,
        0x7FFF_FF80,
        0x7FFF_FF7F,
        0xFFFF_FF80,
        0x8000_0080,
    ];
    let mut r = XorShift::new(0x12F);
    for _ in 0..15_000 {
        // Random magnitudes of every width.
        v.push(r.next_u32() >> r.below_u32(32));
        v.push((r.next_u32() >> r.below_u32(32)).wrapping_neg());
    }
    v
}

/// Every conversion over its operands, interleaved so that the pipeline sees changing
/// operations back to back.
fn vectors() -> Vec<Conv> {
    let mut v = Vec::new();
    for (i, x) in float_operands().into_iter().enumerate() {
        v.push(Conv {
            op: AddOp::Integral,
            mode: i % 4,
            x,
        });
        v.push(Conv {
            op: AddOp::Integral,
            mode: (i + 2) % 4,
            x,
        });
        v.push(Conv {
            op: AddOp::F2i,
            mode: if i % 2 == 0 { 0 } else { 3 },
            x,
        });
        v.push(Conv {
            op: AddOp::Expx,
            mode: 0,
            x,
        });
    }
    for (i, x) in int_operands().into_iter().enumerate() {
        let op = if i % 2 == 0 { AddOp::I2fS } else { AddOp::I2fU };
        v.push(Conv { op, mode: 0, x });
    }
    v
}

#[test]
fn the_host_agrees_with_arith() {
    assert_eq!(
        host(Conv {
            op: AddOp::F2i,
            mode: 2,
            x: 0xCF00_0001
        }),
        0x8000_0000
    );
    assert_eq!(
        host(Conv {
            op: AddOp::Integral,
            mode: 1,
            x: 0xBF00_0000
        }),
        0x8000_0000,
        "ceil(-0.5) = -0"
    );
    let expx = |x: f32| {
        host(Conv {
            op: AddOp::Expx,
            mode: 0,
            x: x.to_bits(),
        })
    };
    assert_eq!(expx(-127.0), 0, "2^-127 flushes");
    assert_eq!(expx(-125.5), 0x0080_0000, "floor(-125.5) = -126");
    assert_eq!(expx(127.9), 0x7F00_0000);
    assert_eq!(expx(128.0), 0x7F80_0000);
    for c in vectors() {
        assert_eq!(host(c), arith(c), "{c:?}");
    }
}

/// Streams the conversions into a fresh `FAdd`, one per clock.
fn run(v: &[Conv]) -> Vec<u32> {
    let mut uut = FAdd::default();
    uut.connect_all();
    check_all(&uut).expect("FAdd passes rust-hdl's checks");
    let mut out = Vec::with_capacity(v.len());
    for i in 0..v.len() + LATENCY - 1 {
        let c = v.get(i).copied().unwrap_or(Conv {
            op: AddOp::I2fS,
            mode: 0,
            x: 0,
        });
        uut.a.next = 0x3F80_0000u64.into();
        uut.b.next = u64::from(c.x).into();
        uut.op.next = c.op;
        uut.round.next = MODES[c.mode];
        tick(&mut uut, |u| &mut u.clock);
        if i + 1 >= LATENCY {
            out.push(uut.result.val().index() as u32);
        }
    }
    out
}

#[test]
fn conversions_in_simulation() {
    let v = vectors();
    let got = run(&v);
    for (g, c) in got.iter().zip(&v) {
        assert_eq!(*g, host(*c), "{c:?}: got {g:08x}");
    }
}

/// The operation's Verilog encoding: the enum's order.
fn op_code(op: AddOp) -> u64 {
    match op {
        AddOp::Add => 0,
        AddOp::Integral => 1,
        AddOp::F2i => 2,
        AddOp::I2fS => 3,
        AddOp::I2fU => 4,
        AddOp::Expx => 5,
    }
}

#[test]
fn conversions_in_verilog() {
    let v = vectors();
    let mut uut = FAdd::default();
    uut.connect_all();
    let verilog = generate_verilog(&uut);
    let Some(_) = verilator_lint("fadd_convert", &verilog) else {
        return;
    };
    yosys_check("fadd_convert", &verilog);
    let ins = [
        Port {
            name: "a",
            width: 32,
        },
        Port {
            name: "b",
            width: 32,
        },
        Port {
            name: "sub",
            width: 1,
        },
        Port {
            name: "op",
            width: 3,
        },
        Port {
            name: "round",
            width: 2,
        },
    ];
    let Some(exe) = verilator_model(
        "fadd_convert",
        &verilog,
        &ins,
        &[Port {
            name: "result",
            width: 32,
        }],
    ) else {
        return;
    };
    let mut rows: Vec<Vec<u64>> = v
        .iter()
        .map(|c| vec![0x3F80_0000, u64::from(c.x), 0, op_code(c.op), c.mode as u64])
        .collect();
    rows.extend((1..LATENCY).map(|_| vec![0, 0, 0, 0, 0]));
    let out = verilator_run(&exe, &rows);
    for (r, c) in out[LATENCY - 1..].iter().zip(&v) {
        assert_eq!(r[0] as u32, host(*c), "Verilator {c:?}");
    }
}

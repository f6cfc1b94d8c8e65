//! `FDiv` against `microcode::arith::{fdiv, frcp, imod}`: edge cases and random operands in
//! rust-hdl's simulation (direct drive), the exact `done` timing, and the same vectors on the
//! emitted Verilog under Verilator; lint and yosys checks.

mod common;

use common::sim::tick;
use common::tools::{verilator_lint, verilator_model, verilator_run, yosys_check, Port};
use hdl::fdiv::{FDiv, DIV_LATENCY, IMOD_LATENCY};
use microcode::arith::accuracy::XorShift;
use microcode::arith::{fdiv, frcp, imod};
use rust_hdl::core::check_error::check_all;
use rust_hdl::prelude::*;

const EDGES: [u32; 24] = [
    0,
    0x8000_0000,
    1,
    0x807F_FFFF,
    0x0080_0000,
    0x3F80_0000,
    0xBF80_0000,
    0x4000_0000,
    0x4040_0000,
    0x7F7F_FFFF,
    0x7F80_0000,
    0xFF80_0000,
    0x7FC0_0000,
    0xFFC0_0001,
    0x3FFF_FFFF,
    0x3F7F_FFFF,
    0x0100_0000,
    0x7E80_0000,
    0x7F00_0000,
    0x8000_0001,
    0xFFFF_FFFF,
    0x7FFF_FFFF,
    0x0000_0007,
    0xFFFF_FFF9,
];

fn model(op: u8, a: u32, b: u32) -> u32 {
    match op {
        0 => fdiv(a, b),
        1 => frcp(a),
        _ => imod(a, b),
    }
}

/// Runs the operations one after another; checks `done` arrives exactly on time.
fn run_rtl(ops: &[(u8, u32, u32)]) -> Vec<u32> {
    let mut uut = FDiv::default();
    uut.connect_all();
    check_all(&uut).expect("FDiv passes rust-hdl's checks");
    let mut out = Vec::with_capacity(ops.len());
    for &(op, a, b) in ops {
        uut.op.next = u64::from(op).to_bits();
        uut.a.next = u64::from(a).to_bits();
        uut.b.next = u64::from(b).to_bits();
        uut.start.next = true;
        tick(&mut uut, |u| &mut u.clock);
        uut.start.next = false;
        let latency = if op == 2 { IMOD_LATENCY } else { DIV_LATENCY };
        for edge in 1..latency {
            assert!(
                !uut.done.val(),
                "done too early (edge {edge}) for {op} {a:#x} {b:#x}"
            );
            tick(&mut uut, |u| &mut u.clock);
        }
        assert!(uut.done.val(), "done not on time for {op} {a:#x} {b:#x}");
        out.push(uut.result.val().index() as u32);
        tick(&mut uut, |u| &mut u.clock);
        assert!(!uut.done.val(), "done longer than one clock");
    }
    out
}

fn vectors(random: usize) -> Vec<(u8, u32, u32)> {
    let mut v = Vec::new();
    for op in 0..3u8 {
        for &a in &EDGES {
            for &b in &EDGES {
                v.push((op, a, b));
            }
        }
    }
    let mut rng = XorShift::new(99);
    for i in 0..random {
        let op = (i % 3) as u8;
        let (a, b) = (rng.next_u32(), rng.next_u32());
        // Near-range exponents make rounding, overflow and underflow cases frequent.
        let b = if i % 5 == 0 {
            (b & 0x807F_FFFF) | (a & 0x7F80_0000)
        } else {
            b
        };
        v.push((op, a, b));
    }
    v
}

#[test]
fn matches_the_model_in_rust_hdl() {
    let n: usize = std::env::var("FDIV_RANDOM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(30_000);
    let v = vectors(n);
    let got = run_rtl(&v);
    for (&(op, a, b), &g) in v.iter().zip(&got) {
        assert_eq!(
            g,
            model(op, a, b),
            "op {op} a {a:#010x} b {b:#010x}: got {g:#010x}"
        );
    }
}

#[test]
fn emitted_verilog_matches_under_verilator() {
    let mut uut = FDiv::default();
    uut.connect_all();
    let verilog = generate_verilog(&uut);
    let Some(_) = verilator_lint("fdiv", &verilog) else {
        return;
    };
    yosys_check("fdiv", &verilog);
    let inputs = [
        Port {
            name: "start",
            width: 1,
        },
        Port {
            name: "op",
            width: 2,
        },
        Port {
            name: "a",
            width: 32,
        },
        Port {
            name: "b",
            width: 32,
        },
    ];
    let outputs = [
        Port {
            name: "result",
            width: 32,
        },
        Port {
            name: "done",
            width: 1,
        },
    ];
    let Some(exe) = verilator_model("fdiv", &verilog, &inputs, &outputs) else {
        return;
    };
    let v = vectors(3_000);
    let mut rows = Vec::new();
    for &(op, a, b) in &v {
        rows.push(vec![1, u64::from(op), u64::from(a), u64::from(b)]);
        for _ in 0..IMOD_LATENCY {
            rows.push(vec![0, u64::from(op), u64::from(a), u64::from(b)]);
        }
    }
    let out = verilator_run(&exe, &rows);
    let per = IMOD_LATENCY as usize + 1;
    for (k, &(op, a, b)) in v.iter().enumerate() {
        let latency = if op == 2 { IMOD_LATENCY } else { DIV_LATENCY } as usize;
        // Row r's outputs are printed after its clock edge: done shows after edge `latency`.
        let row = &out[k * per + latency - 1];
        assert_eq!(row[1], 1, "done for op {op} {a:#x} {b:#x}");
        assert_eq!(
            row[0] as u32,
            model(op, a, b),
            "op {op} a {a:#010x} b {b:#010x}"
        );
    }
}

//! `FCmp` in rust-hdl simulation and in Verilator against host f32 comparisons.
mod common;

use common::model::{flush_in, random_fadd_vectors, special_pairs};
use common::sim::tick;
use common::tools::{verilator_lint, verilator_model, verilator_run, yosys_check, Port};
use hdl::fcmp::FCmp;
use rust_hdl::core::check_error::check_all;
use rust_hdl::prelude::*;

/// Flushes a subnormal to a zero of its sign, keeping every other bit pattern (NaNs too).
fn flush_bits(x: u32) -> u32 {
    if x & 0x7F80_0000 == 0 {
        x & 0x8000_0000
    } else {
        x
    }
}

/// (flags = lt | eq << 1 | gt << 2 | unordered << 3, min, max) from host comparisons.
fn reference(a: u32, b: u32) -> (u64, u32, u32) {
    let (x, y) = (flush_in(a), flush_in(b));
    let (lt, eq, gt) = (x < y, x == y, x > y);
    let un = x.is_nan() || y.is_nan();
    let flags = lt as u64 | (eq as u64) << 1 | (gt as u64) << 2 | (un as u64) << 3;
    let min = flush_bits(if lt { a } else { b });
    let max = flush_bits(if gt { a } else { b });
    (flags, min, max)
}

/// The same tuple from `microcode::arith::compare`, the project's reference functions.
fn arith(a: u32, b: u32) -> (u64, u32, u32) {
    use microcode::arith::{fcmp, FCmp};
    let flags = match fcmp(a, b) {
        FCmp::Lt => 1,
        FCmp::Eq => 2,
        FCmp::Gt => 4,
        FCmp::Unordered => 8,
    };
    (
        flags,
        microcode::arith::fmin(a, b),
        microcode::arith::fmax(a, b),
    )
}

#[test]
fn host_model_agrees_with_arith() {
    for (a, b) in vectors() {
        assert_eq!(reference(a, b), arith(a, b), "({a:08x}, {b:08x})");
    }
}

fn vectors() -> Vec<(u32, u32)> {
    let mut v = special_pairs();
    v.extend(
        random_fadd_vectors(0xC0_4D, 50_000)
            .into_iter()
            .map(|(a, b, _)| (a, b)),
    );
    // Equal operands and operands that differ only in sign.
    v.extend(
        random_fadd_vectors(0xC0_4E, 2_000)
            .into_iter()
            .flat_map(|(a, _, _)| [(a, a), (a, a ^ 0x8000_0000)]),
    );
    v
}

/// The flags and what `pick` gives in `mode` (0 MIN, 1 MAX, 2 SEL of b, 3 SEL of a).
fn expected(a: u32, b: u32, mode: usize) -> (u64, u32) {
    let (flags, min, max) = reference(a, b);
    let pick = [min, max, flush_bits(b), flush_bits(a)][mode];
    (flags, pick)
}

#[test]
fn fcmp_hand_checked() {
    assert_eq!(
        reference(0x8000_0000, 0x0000_0000),
        (0b010, 0x0000_0000, 0x0000_0000)
    );
    assert_eq!(
        reference(0x7FC0_0001, 0x3F80_0000),
        (0b1000, 0x3F80_0000, 0x3F80_0000)
    );
    assert_eq!(
        reference(0x3F80_0000, 0x7FC0_0001),
        (0b1000, 0x7FC0_0001, 0x7FC0_0001)
    );
    assert_eq!(
        reference(0xC000_0000, 0xBF80_0000),
        (0b001, 0xC000_0000, 0xBF80_0000)
    );
    assert_eq!(
        reference(0x8000_0001, 0x8000_0002),
        (0b010, 0x8000_0000, 0x8000_0000)
    );
}

#[test]
fn fcmp_simulation_matches_host() {
    let v = vectors();
    let mut uut = FCmp::default();
    uut.connect_all();
    check_all(&uut).expect("FCmp passes rust-hdl's checks");
    for (n, &(a, b)) in v.iter().enumerate() {
        // Each pair once per select: MIN, MAX, SEL taking b, SEL taking a.
        let mode = n % 4;
        uut.a.next = (a as u64).into();
        uut.b.next = (b as u64).into();
        // The registered operands the caller provides after the edge (held across it here).
        uut.a1.next = (a as u64).into();
        uut.b1.next = (b as u64).into();
        uut.mode.next = (mode as u64).into();
        tick(&mut uut, |u| &mut u.clock);
        let flags = uut.lt.val() as u64
            | (uut.eq.val() as u64) << 1
            | (uut.gt.val() as u64) << 2
            | (uut.unordered.val() as u64) << 3;
        let got = (flags, uut.pick.val().index() as u32);
        assert_eq!(
            got,
            expected(a, b, mode),
            "fcmp({a:08x}, {b:08x}) mode {mode}"
        );
    }
}

#[test]
fn fcmp_verilog() {
    let mut uut = FCmp::default();
    uut.connect_all();
    let v = generate_verilog(&uut);
    let Some(_) = verilator_lint("fcmp", &v) else {
        return;
    };
    yosys_check("fcmp", &v);
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
            name: "a1",
            width: 32,
        },
        Port {
            name: "b1",
            width: 32,
        },
        Port {
            name: "mode",
            width: 2,
        },
    ];
    let outs = [
        Port {
            name: "lt",
            width: 1,
        },
        Port {
            name: "eq",
            width: 1,
        },
        Port {
            name: "gt",
            width: 1,
        },
        Port {
            name: "unordered",
            width: 1,
        },
        Port {
            name: "pick",
            width: 32,
        },
    ];
    let Some(exe) = verilator_model("fcmp", &v, &ins, &outs) else {
        return;
    };
    let vecs = vectors();
    let rows: Vec<Vec<u64>> = vecs
        .iter()
        .enumerate()
        .map(|(n, &(a, b))| vec![a as u64, b as u64, a as u64, b as u64, (n % 4) as u64])
        .collect();
    for (n, (r, &(a, b))) in verilator_run(&exe, &rows).iter().zip(&vecs).enumerate() {
        let got = (r[0] | r[1] << 1 | r[2] << 2 | r[3] << 3, r[4] as u32);
        assert_eq!(
            got,
            expected(a, b, n % 4),
            "Verilator fcmp({a:08x}, {b:08x}) mode {}",
            n % 4
        );
    }
}

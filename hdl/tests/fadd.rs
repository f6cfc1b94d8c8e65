//! `FAdd` in rust-hdl simulation against the independent host-f32 model.
mod common;

use common::model::{random_fadd_vectors, ref_fadd, special_pairs};
use common::sim::{compare, run_fadd};

/// Results of `microcode::arith::{fadd, fsub}`, the project's reference bit-level functions.
fn arith(v: &[(u32, u32, bool)]) -> Vec<u32> {
    v.iter()
        .map(|&(a, b, sub)| {
            if sub {
                microcode::arith::fsub(a, b)
            } else {
                microcode::arith::fadd(a, b)
            }
        })
        .collect()
}

#[test]
fn fadd_special_pairs() {
    let mut v = Vec::new();
    for (a, b) in special_pairs() {
        v.push((a, b, false));
        v.push((a, b, true));
    }
    let want: Vec<u32> = v.iter().map(|&(a, b, s)| ref_fadd(a, b, s)).collect();
    let got = run_fadd(&v);
    compare("fadd specials", &v, &got, &want);
    compare("fadd specials vs microcode::arith", &v, &got, &arith(&v));
}

#[test]
fn fadd_hand_checked() {
    let v = vec![
        (0x3F80_0000, 0x3F80_0000, true),  // 1 - 1 = +0
        (0x8000_0000, 0x0000_0000, true),  // -0 - +0 = -0
        (0x8000_0000, 0x0000_0000, false), // -0 + +0 = +0
        (0x7F80_0000, 0x7F80_0000, true),  // inf - inf = NaN
        (0x3F80_0000, 0x3380_0000, false), // 1 + 2^-24: tie, stays 1
        (0x3F80_0000, 0x33C0_0000, false), // 1 + 1.5*2^-24: rounds up
        (0x00C0_0000, 0x0080_0000, true),  // 2^-127: flushed
        (0x7F7F_FFFF, 0x7F7F_FFFF, false), // overflow
        (0x0080_0000, 0x0000_0001, false), // subnormal operand is zero
        (0x4040_0000, 0x40A0_0000, true),  // 3 - 5 = -2
    ];
    let want = vec![
        0x0000_0000,
        0x8000_0000,
        0x0000_0000,
        0x7FC0_0000,
        0x3F80_0000,
        0x3F80_0001,
        0x0000_0000,
        0x7F80_0000,
        0x0080_0000,
        0xC000_0000,
    ];
    compare("fadd hand-checked", &v, &run_fadd(&v), &want);
}

#[test]
fn fadd_random_1e5() {
    let v = random_fadd_vectors(0xADD5_0001, 100_000);
    let want: Vec<u32> = v.iter().map(|&(a, b, s)| ref_fadd(a, b, s)).collect();
    let got = run_fadd(&v);
    compare("fadd random", &v, &got, &want);
    compare("fadd random vs microcode::arith", &v, &got, &arith(&v));
}

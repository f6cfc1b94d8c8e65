//! `FMul` in rust-hdl simulation against the independent host-f32 model.
mod common;

use common::model::{random_fmul_pairs, ref_fmul, self_check, special_pairs};
use common::sim::{compare, run_fmul, run_fmul_on};
use hdl::fmul::FMul;

#[test]
fn model_self_check() {
    self_check();
}

/// Results of `microcode::arith::fmul`, the project's reference bit-level function.
fn arith(v: &[(u32, u32)]) -> Vec<u32> {
    v.iter()
        .map(|&(a, b)| microcode::arith::fmul(a, b))
        .collect()
}

#[test]
fn fmul_special_pairs() {
    let v = special_pairs();
    let want: Vec<u32> = v.iter().map(|&(a, b)| ref_fmul(a, b)).collect();
    let got = run_fmul(&v);
    compare("fmul specials", &v, &got, &want);
    compare("fmul specials vs microcode::arith", &v, &got, &arith(&v));
}

#[test]
fn fmul_hand_checked() {
    // (inputs, expected) worked out by hand, not by the model.
    let v = vec![
        (0x3F80_0800, 0x3F80_0800), // tie, to even: 1 + 2^-11
        (0x3F7F_FFFF, 0x0080_0000), // rounds up to the smallest normal
        (0x3F7F_FFFE, 0x0080_0000), // stays subnormal: flushed
        (0xBF00_0000, 0x0080_0000), // 2^-127: flushed, sign kept
        (0x7F7F_FFFF, 0x4000_0000), // overflow
        (0x8000_0000, 0x7F80_0000), // -0 * inf
        (0x4040_0000, 0xC0A0_0000), // 3 * -5
        (0x0000_0001, 0xFF80_0000), // subnormal (zero) * -inf
    ];
    let want = vec![
        0x3F80_1000,
        0x0080_0000,
        0x0000_0000,
        0x8000_0000,
        0x7F80_0000,
        0x7FC0_0000,
        0xC170_0000,
        0x7FC0_0000,
    ];
    compare("fmul hand-checked", &v, &run_fmul(&v), &want);
}

#[test]
fn fmul_random_1e5() {
    let v = random_fmul_pairs(0x5EED_F00D, 100_000);
    let want: Vec<u32> = v.iter().map(|&(a, b)| ref_fmul(a, b)).collect();
    let got = run_fmul(&v);
    compare("fmul random", &v, &got, &want);
    compare("fmul random vs microcode::arith", &v, &got, &arith(&v));
}

/// The ECP5's multiplier (its significand product on multiplier blocks, `FMul::with_dsp`)
/// gives the same bits as the iCE40's, clock for clock.
#[test]
fn fmul_on_multiplier_blocks_equals_the_radix4_one() {
    let mut v = special_pairs();
    v.extend(random_fmul_pairs(0xD5B_0001, 50_000));
    let want: Vec<u32> = v.iter().map(|&(a, b)| ref_fmul(a, b)).collect();
    let got = run_fmul_on(FMul::with_dsp(), &v);
    compare("fmul with_dsp", &v, &got, &want);
    compare("fmul with_dsp vs radix-4", &v, &got, &run_fmul(&v));
}

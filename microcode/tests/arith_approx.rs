//! Approximated operations (RSQ, EX2, LG2, SIN, COS, POW, NRM): special values and measured error
//! bounds against host binary64.

use microcode::arith::accuracy::{
    measure_ex2, measure_lg2, measure_nrm, measure_pow, measure_rsq, measure_sincos,
};
use microcode::arith::{accuracy_report, fcos, fex2, flg2, fpow, frsq, fsin, AccuracyRow};

const NAN: u32 = 0x7FC0_0000;
const INF: u32 = 0x7F80_0000;
const NINF: u32 = 0xFF80_0000;

fn check(row: AccuracyRow) {
    println!(
        "{:4} worst {:e} ({:?}) at {:08x?}, bound {:e}, {} samples",
        row.op, row.worst, row.unit, row.at, row.bound, row.samples
    );
    assert!(row.passes(), "{} exceeds its bound: {row:?}", row.op);
}

#[test]
fn rsq_specials() {
    assert_eq!(frsq(0), INF);
    assert_eq!(frsq(0x8000_0000), INF);
    assert_eq!(frsq(0x0000_0001), INF); // subnormal counts as zero
    assert_eq!(frsq(INF), 0);
    assert_eq!(frsq(NINF), 0);
    assert_eq!(frsq(0xFFC1_2345), NAN);
    assert_eq!(frsq(0x4080_0000), 0x3F00_0000); // 1/sqrt(4) = 0.5
    assert_eq!(frsq(0xC080_0000), 0x3F00_0000); // reads |x|
}

#[test]
fn ex2_specials() {
    assert_eq!(fex2(NINF), 0);
    assert_eq!(fex2(INF), INF);
    assert_eq!(fex2(NAN), NAN);
    assert_eq!(fex2(0), 0x3F80_0000);
    assert_eq!(fex2(0x8000_0000), 0x3F80_0000);
    assert_eq!(fex2(0x4300_0000), INF); // 2^128 overflows
    assert_eq!(fex2(0x42FE_0000), 0x7F00_0000); // 2^127
    assert_eq!(fex2(0xC2FC_0000), 0x0080_0000); // 2^-126
    assert_eq!(fex2(0xC2FE_0000), 0); // 2^-127 flushes
    assert_eq!(fex2(0x4040_0000), 0x4100_0000); // 2^3 = 8
}

#[test]
fn lg2_specials() {
    assert_eq!(flg2(0), NINF);
    assert_eq!(flg2(0x8000_0000), NINF);
    assert_eq!(flg2(0x8000_0001), NINF);
    assert_eq!(flg2(0xBF80_0000), NAN);
    assert_eq!(flg2(NINF), NAN);
    assert_eq!(flg2(INF), INF);
    assert_eq!(flg2(0x3F80_0000), 0); // LG2(1) = +0 exactly
    assert_eq!(flg2(0x4100_0000), 0x4040_0000); // log2(8) = 3
    assert_eq!(flg2(0x3E80_0000), 0xC000_0000); // log2(0.25) = -2
}

#[test]
fn lg2_next_to_one_is_relatively_accurate() {
    // The neighbours of 1: log2(1 + 2^-23) and log2(1 - 2^-24), within 2 ULP relative.
    for (x, exact) in [
        (0x3F80_0001u32, (1.0f64 + 2f64.powi(-23)).log2()),
        (0x3F7F_FFFF, (1.0f64 - 2f64.powi(-24)).log2()),
    ] {
        let got = f32::from_bits(flg2(x)) as f64;
        assert!(
            ((got - exact) / exact).abs() < 2.0 * 2f64.powi(-23),
            "{x:08x}: {got} vs {exact}"
        );
    }
}

#[test]
fn sin_cos_specials() {
    for x in [INF, NINF, NAN, 0x7F80_0001] {
        assert_eq!(fsin(x), NAN);
        assert_eq!(fcos(x), NAN);
    }
    assert_eq!(fsin(0), 0);
    assert_eq!(fcos(0), 0x3F80_0000);
    // Beyond 100 pi the results stay finite and bounded.
    for x in [
        0x7F7F_FFFFu32,
        0xFF7F_FFFF,
        0x5000_0000,
        0x4F00_0000,
        0x4B80_0001,
    ] {
        for r in [fsin(x), fcos(x)] {
            let v = f32::from_bits(r);
            assert!(v.is_finite() && v.abs() <= 1.001, "{x:08x} -> {v}");
        }
    }
}

#[test]
fn pow_specials() {
    assert_eq!(fpow(0, 0), NAN); // 0 * -inf
    assert_eq!(fpow(0x4000_0000, 0x4040_0000), 0x4100_0000); // 2^3
    assert_eq!(fpow(0xC000_0000, 0x4000_0000), NAN); // negative base
    assert_eq!(fpow(0, 0x3F80_0000), 0); // 0^1 = 2^-inf
}

#[test]
fn rsq_within_1_ulp() {
    check(measure_rsq(60_000, 11));
}

#[test]
fn ex2_within_2_ulp() {
    check(measure_ex2(60_000, 12));
}

#[test]
fn lg2_within_2_ulp() {
    check(measure_lg2(60_000, 13));
}

#[test]
fn sin_cos_within_2_pow_minus_20() {
    check(measure_sincos(40_000, 14, false));
    check(measure_sincos(40_000, 15, true));
}

#[test]
fn pow_within_2_pow_minus_16() {
    check(measure_pow(30_000, 16));
}

#[test]
fn nrm_within_4_ulp() {
    check(measure_nrm(30_000, 17));
}

#[test]
fn report_rows_and_bounds() {
    let rows = accuracy_report(2_000);
    let names: Vec<_> = rows.iter().map(|r| r.op).collect();
    assert_eq!(names, ["RSQ", "EX2", "LG2", "SIN", "COS", "POW", "NRM"]);
    for row in rows {
        assert_eq!(row.samples, 2_000);
        check(row);
    }
}

/// Dense sweeps: every binary32 in [1, 4) for RSQ, every 16th pattern over the whole positive
/// range for RSQ and LG2, every pattern in [0.9375, 1.0625) for LG2, a 2^-12 grid over [-127, 128)
/// for EX2. Run with `cargo test -p microcode --test arith_approx -- --ignored` (a few minutes).
#[test]
#[ignore]
fn dense_sweeps() {
    use microcode::arith::accuracy::{reference_bits, ulp_distance};
    let mut worst = (0.0f64, 0u32);
    for x in (0x3F80_0000u32..0x4080_0000).chain((0x0080_0000..0x7F80_0000).step_by(16)) {
        let e = ulp_distance(
            frsq(x),
            reference_bits(1.0 / (f32::from_bits(x) as f64).sqrt()),
        );
        if e > worst.0 {
            worst = (e, x);
        }
    }
    println!("RSQ dense: {worst:?}");
    assert!(worst.0 <= 1.0);
    let mut worst = (0.0f64, 0u32);
    for x in (0x3F70_0000u32..0x3F88_0000).chain((0x0080_0000..0x7F80_0000).step_by(16)) {
        let e = ulp_distance(flg2(x), reference_bits((f32::from_bits(x) as f64).log2()));
        if e > worst.0 {
            worst = (e, x);
        }
    }
    println!("LG2 dense: {worst:?}");
    assert!(worst.0 <= 2.0);
    let mut worst = (0.0f64, 0u32);
    for i in -(127 << 12)..(128 << 12) {
        let x = (i as f32 / 4096.0).to_bits();
        let e = ulp_distance(fex2(x), reference_bits((f32::from_bits(x) as f64).exp2()));
        if e > worst.0 {
            worst = (e, x);
        }
    }
    println!("EX2 dense: {worst:?}");
    assert!(worst.0 <= 2.0);
}

/// SIN and COS on every multiple of 2^-8 in [-100 pi, 100 pi] (about 160,000 points each), and
/// every binary32 in [1, 2). Run with `-- --ignored`.
#[test]
#[ignore]
fn dense_sin_cos() {
    let limit = 100.0 * std::f64::consts::PI;
    let grid =
        (-(limit * 256.0) as i32..=(limit * 256.0) as i32).map(|i| (i as f32 / 256.0).to_bits());
    let mut worst = (0.0f64, 0u32);
    for x in grid.chain(0x3F80_0000u32..0x4000_0000) {
        let v = f32::from_bits(x) as f64;
        let e = (f32::from_bits(fsin(x)) as f64 - v.sin())
            .abs()
            .max((f32::from_bits(fcos(x)) as f64 - v.cos()).abs());
        if e > worst.0 {
            worst = (e, x);
        }
    }
    println!("SIN/COS dense: {worst:?}");
    assert!(worst.0 <= 2f64.powi(-20));
}

//! Compare/select, saturate, integral rounding, conversions and the LOG/EXP helpers against host
//! binary32 with the flush/NaN rules applied around it.

mod arith_common;

use arith_common::{edge_cases, fin, flush_bits, fout, NAN};
use microcode::arith::{
    f2i_floor, f2i_round, f2i_trunc, fceil, fcmp, feq, fexp2_floor, fexp_part, ffloor, ffrac, fge,
    fgt, fldexp, fle, flt, fmant_part, fmax, fmin, fne, fround, fsat01, fsat11, ftrunc, i2f, u2f,
    FCmp,
};
use microcode::rng::XorShift;

const RANDOM: usize = 100_000;

fn inputs(seed: u64) -> impl Iterator<Item = u32> {
    let mut rng = XorShift::new(seed);
    edge_cases()
        .into_iter()
        .chain((0..RANDOM).map(move |_| rng.float()))
}

fn pairs(seed: u64) -> Vec<(u32, u32)> {
    let edges = edge_cases();
    let mut v: Vec<(u32, u32)> = edges
        .iter()
        .flat_map(|&a| edges.iter().map(move |&b| (a, b)))
        .collect();
    let mut rng = XorShift::new(seed);
    for i in 0..RANDOM {
        let a = rng.float();
        let b = if i % 3 == 0 {
            a ^ (rng.next_u32() & 0x8000_0003)
        } else {
            rng.float()
        };
        v.push((a, b));
    }
    v
}

#[test]
fn comparisons_match_host() {
    for (a, b) in pairs(1) {
        let (x, y) = (fin(a), fin(b));
        let ctx = format!("({a:08x}, {b:08x})");
        assert_eq!(flt(a, b), x < y, "flt{ctx}");
        assert_eq!(fle(a, b), x <= y, "fle{ctx}");
        assert_eq!(fgt(a, b), x > y, "fgt{ctx}");
        assert_eq!(fge(a, b), x >= y, "fge{ctx}");
        assert_eq!(feq(a, b), x == y, "feq{ctx}");
        assert_eq!(fne(a, b), x != y, "fne{ctx}");
        let expected = match x.partial_cmp(&y) {
            None => FCmp::Unordered,
            Some(std::cmp::Ordering::Less) => FCmp::Lt,
            Some(std::cmp::Ordering::Equal) => FCmp::Eq,
            Some(std::cmp::Ordering::Greater) => FCmp::Gt,
        };
        assert_eq!(fcmp(a, b), expected, "fcmp{ctx}");
        assert_eq!(
            fmin(a, b),
            flush_bits(if x < y { a } else { b }),
            "fmin{ctx}"
        );
        assert_eq!(
            fmax(a, b),
            flush_bits(if x > y { a } else { b }),
            "fmax{ctx}"
        );
    }
}

#[test]
fn saturate_matches_definition() {
    for x in inputs(2) {
        let v = fin(x);
        let sat01 = if v.is_nan() || v <= 0.0 {
            0.0f32.to_bits()
        } else if v >= 1.0 {
            1.0f32.to_bits()
        } else {
            v.to_bits()
        };
        assert_eq!(fsat01(x), sat01, "fsat01({x:08x})");
        let sat11 = if v.is_nan() || v == 0.0 {
            0.0f32.to_bits()
        } else {
            v.clamp(-1.0, 1.0).to_bits()
        };
        assert_eq!(fsat11(x), sat11, "fsat11({x:08x})");
    }
}

#[test]
fn integral_rounding_matches_host() {
    for x in inputs(3) {
        let v = fin(x);
        assert_eq!(ffloor(x), fout(v.floor()), "ffloor({x:08x})");
        assert_eq!(fceil(x), fout(v.ceil()), "fceil({x:08x})");
        assert_eq!(ftrunc(x), fout(v.trunc()), "ftrunc({x:08x})");
        assert_eq!(fround(x), fout(v.round_ties_even()), "fround({x:08x})");
        assert_eq!(ffrac(x), fout(v - v.floor()), "ffrac({x:08x})");
    }
    // Signs of zero results are kept; halves go to even.
    assert_eq!(fround(0xBF00_0000), 0x8000_0000); // -0.5 -> -0
    assert_eq!(fround(0x3FC0_0000), 0x4000_0000); // 1.5 -> 2
    assert_eq!(ffrac(0x7F80_0000), NAN);
    assert_eq!(ffrac(0xB300_0000), 0x3F80_0000); // -2^-25 - (-1) ties to 1.0
    assert_eq!(ffrac(0xB380_0000), 0x3F7F_FFFF); // -2^-24 - (-1) is exact
}

#[test]
fn float_to_int_matches_host() {
    for x in inputs(4) {
        let v = fin(x);
        // Rust's float -> int casts saturate and map NaN to 0, as the contract asks.
        assert_eq!(f2i_floor(x), v.floor() as i32, "f2i_floor({x:08x})");
        assert_eq!(
            f2i_round(x),
            v.round_ties_even() as i32,
            "f2i_round({x:08x})"
        );
        assert_eq!(f2i_trunc(x), v as i32, "f2i_trunc({x:08x})");
    }
}

#[test]
fn int_to_float_matches_host() {
    let mut rng = XorShift::new(5);
    let specials = [
        0u32,
        1,
        0x7FFF_FFFF,
        0x8000_0000,
        0xFFFF_FFFF,
        0x0100_0001,
        0x0100_0003,
    ];
    for u in specials
        .into_iter()
        .chain((0..RANDOM).map(|i| rng.next_u32() >> (i % 32)))
    {
        assert_eq!(i2f(u as i32), (u as i32 as f32).to_bits(), "i2f({u:08x})");
        assert_eq!(u2f(u), (u as f32).to_bits(), "u2f({u:08x})");
    }
}

#[test]
fn ldexp_matches_host() {
    let mut rng = XorShift::new(6);
    for x in inputs(7) {
        let n = (rng.next_u32() % 601) as i32 - 300;
        let exact = fin(x) as f64 * 2f64.powi(n);
        assert_eq!(fldexp(x, n), fout(exact as f32), "fldexp({x:08x}, {n})");
    }
}

#[test]
fn exp_log_helpers() {
    for x in inputs(8) {
        let v = fin(x).abs();
        let (e, m) = if v.is_nan() {
            (NAN, NAN)
        } else if v == 0.0 {
            (f32::NEG_INFINITY.to_bits(), NAN)
        } else if v.is_infinite() {
            (f32::INFINITY.to_bits(), NAN)
        } else {
            let e = (v as f64).log2().floor();
            (
                (e as f32).to_bits(),
                ((v as f64 / 2f64.powf(e)) as f32).to_bits(),
            )
        };
        assert_eq!(fexp_part(x), e, "fexp_part({x:08x})");
        assert_eq!(fmant_part(x), m, "fmant_part({x:08x})");
        let p = fin(x);
        let exp_x = if p.is_nan() {
            NAN
        } else {
            fout((2f64.powf(p.floor() as f64)) as f32)
        };
        assert_eq!(fexp2_floor(x), exp_x, "fexp2_floor({x:08x})");
    }
}

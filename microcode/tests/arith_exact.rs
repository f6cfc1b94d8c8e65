//! Exact float operations against host binary32 arithmetic with the flush/NaN rules applied
//! around it: edge cases pairwise and 10^5 random inputs per operation.

mod arith_common;

use arith_common::{edge_cases, fin, flush_bits, fout, NAN};
use microcode::arith::{fadd, fdiv, fmad, fmul, frcp, fsub};
use microcode::rng::XorShift;

const RANDOM: usize = 100_000;

fn check2(name: &str, op: fn(u32, u32) -> u32, reference: fn(f32, f32) -> f32, seed: u64) {
    let edges = edge_cases();
    for &a in &edges {
        for &b in &edges {
            assert_eq!(
                op(a, b),
                fout(reference(fin(a), fin(b))),
                "{name}({a:08x}, {b:08x})"
            );
        }
    }
    let mut rng = XorShift::new(seed);
    for i in 0..RANDOM {
        let a = rng.float();
        // Every other pair has nearby magnitudes (cancellation, close exponents).
        let b = if i % 2 == 0 {
            rng.float()
        } else {
            let delta = rng.next_u32() % (1 << 25);
            (a & 0x8000_0000 ^ rng.next_u32() & 0x8000_0000)
                | (a & 0x7FFF_FFFF).wrapping_add(delta) & 0x7FFF_FFFF
        };
        assert_eq!(
            op(a, b),
            fout(reference(fin(a), fin(b))),
            "{name}({a:08x}, {b:08x})"
        );
    }
}

#[test]
fn add_matches_host() {
    check2("fadd", fadd, |a, b| a + b, 1);
}

#[test]
fn sub_matches_host() {
    check2("fsub", fsub, |a, b| a - b, 2);
}

#[test]
fn mul_matches_host() {
    check2("fmul", fmul, |a, b| a * b, 3);
}

#[test]
fn div_matches_host() {
    check2("fdiv", fdiv, |a, b| a / b, 4);
}

#[test]
fn rcp_matches_host() {
    for x in edge_cases() {
        assert_eq!(frcp(x), fout(1.0 / fin(x)), "frcp({x:08x})");
    }
    let mut rng = XorShift::new(5);
    for _ in 0..RANDOM {
        let x = rng.float();
        assert_eq!(frcp(x), fout(1.0 / fin(x)), "frcp({x:08x})");
    }
}

#[test]
fn mad_rounds_twice() {
    let mut rng = XorShift::new(6);
    for _ in 0..RANDOM {
        let (a, b, c) = (rng.float(), rng.float(), rng.float());
        let p = fin(fout(fin(a) * fin(b)));
        assert_eq!(
            fmad(a, b, c),
            fout(p + fin(c)),
            "fmad({a:08x}, {b:08x}, {c:08x})"
        );
    }
    // (1 + 2^-12)^2 - (1 + 2^-11): fused would give 2^-24, two roundings give 0.
    assert_eq!(fmad(0x3F80_0800, 0x3F80_0800, 0xBF80_1000), 0);
}

#[test]
fn results_at_the_subnormal_boundary() {
    // (1 - 2^-24) * 2^-126 = 2^-126 - 2^-150: a tie on the subnormal grid, rounds to 2^-126.
    assert_eq!(fmul(0x3F7F_FFFF, 0x0080_0000), 0x0080_0000);
    assert_eq!(fmul(0xBF7F_FFFF, 0x0080_0000), 0x8080_0000);
    // (1 - 2^-23) * 2^-126 is below the tie: subnormal, flushed with its sign.
    assert_eq!(fmul(0x3F7F_FFFE, 0x0080_0000), 0);
    assert_eq!(fmul(0xBF7F_FFFE, 0x0080_0000), 0x8000_0000);
    // (1 - 2^-24) / 2^126 is the same tie; 2^-126 / (1 + 2^-23) lies just above the largest
    // subnormal and flushes.
    assert_eq!(fdiv(0x3F7F_FFFF, 0x7E80_0000), 0x0080_0000);
    assert_eq!(fdiv(0x0080_0000, 0x3F80_0001), 0);
    // A difference of normals that is subnormal flushes; NaN inputs give the canonical NaN.
    assert_eq!(fsub(0x0080_0001, 0x0080_0000), 0);
    assert_eq!(fadd(0xFFC1_2345, 0x3F80_0000), NAN);
    assert_eq!(flush_bits(0x8000_0005), 0x8000_0000);
}

/// Every binary32 divisor for RCP, and every binary32 as dividend and as divisor of fdiv against
/// a rotating set of partners. Run with `cargo test -p microcode --test arith_exact -- --ignored`
/// (measured: 30 minutes in the dev profile on one shared core of this machine; it passes).
#[test]
#[ignore]
fn exhaustive_rcp_and_div() {
    let partners: Vec<u32> = edge_cases()
        .into_iter()
        .chain([
            0x4040_0000,
            0x3DCC_CCCD,
            0x4120_0000,
            0x3F7F_FFFF,
            0x3F80_0001,
        ])
        .collect();
    let start = std::time::Instant::now();
    for x in 0..=u32::MAX {
        if x & 0x0FFF_FFFF == 0 {
            eprintln!("at {x:08x} after {:?}", start.elapsed());
        }
        assert_eq!(frcp(x), fout(1.0 / fin(x)), "frcp({x:08x})");
        let c = partners[x as usize % partners.len()];
        assert_eq!(fdiv(x, c), fout(fin(x) / fin(c)), "fdiv({x:08x}, {c:08x})");
        assert_eq!(fdiv(c, x), fout(fin(c) / fin(x)), "fdiv({c:08x}, {x:08x})");
    }
}

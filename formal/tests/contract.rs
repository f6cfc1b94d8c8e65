//! The reference definitions (`formal/smt/contract.smt2`) on known values: the contract's own
//! examples, and the project's model (`microcode::arith`, itself tested against the host's
//! IEEE arithmetic) on special and random operands. The proofs compare the hardware with these
//! definitions, so a slip in them must show here.
use formal::{decide, Verdict};
use microcode::arith::{fadd, fmul, fsub};
use microcode::rng::XorShift;

/// Asserts that every `(term, expected)` holds, in one query (unsat = all hold).
fn all_hold(name: &'static str, facts: &[String]) {
    let mut text = String::from("(assert (not (and true\n");
    for f in facts {
        text += f;
        text.push('\n');
    }
    text += ")))\n";
    match decide(name, &text, &[]).unwrap_or_else(|e| panic!("{name}: {e}")) {
        Verdict::Proven => {}
        Verdict::Refuted(_) => panic!("{name}: some fact does not hold"),
    }
}

fn bv(x: u32) -> String {
    format!("#x{x:08x}")
}

/// The contract's words: flush of inputs and results, signed zeros, the one NaN, ties to even.
#[test]
fn contract_examples() {
    let add =
        |a: u32, b: u32, r: u32| format!("(encodes {} (ref_add {} {} false))", bv(r), bv(a), bv(b));
    let facts = vec![
        add(0x3f80_0000, 0x3f80_0000, 0x4000_0000), // 1 + 1 = 2
        add(0x0000_0001, 0x0000_0000, 0x0000_0000), // a subnormal input counts as +0
        add(0x8000_0001, 0x8000_0000, 0x8000_0000), // -subnormal + -0 = -0
        add(0x0080_0001, 0x8080_0000, 0x0000_0000), // a subnormal result flushes (+0)
        add(0x8080_0001, 0x0080_0000, 0x8000_0000), // ... with its sign
        add(0x3f80_0000, 0xbf80_0000, 0x0000_0000), // x - x = +0
        add(0x7f80_0000, 0xff80_0000, 0x7fc0_0000), // inf - inf = the one NaN
        add(0x7f80_0001, 0x3f80_0000, 0x7fc0_0000), // a NaN input gives the one NaN
        add(0x4b80_0000, 0x3f80_0000, 0x4b80_0000), // 2^24 + 1: a tie, to even
        add(0x4b80_0000, 0x4000_0000, 0x4b80_0001), // 2^24 + 2: exact
        add(0x7f7f_ffff, 0x7f7f_ffff, 0x7f80_0000), // overflow to infinity
        format!(
            "(encodes {} (ref_mul {} {}))",
            bv(0x0000_0000),
            bv(0x1e3c_e508),
            bv(0x1e3c_e508)
        ), // 1e-20^2 flushes
        format!(
            "(encodes {} (ref_mul {} {}))",
            bv(0x7fc0_0000),
            bv(0x0000_0000),
            bv(0xff80_0000)
        ), // 0 * -inf
        format!(
            "(encodes {} (ref_integral ROUND_FLOOR {}))",
            bv(0xbf80_0000),
            bv(0xbf00_0000)
        ), // floor(-0.5) = -1
        format!(
            "(encodes {} (ref_integral ROUND_CEIL {}))",
            bv(0x8000_0000),
            bv(0xbf00_0000)
        ), // ceil(-0.5) = -0
        format!(
            "(encodes {} (ref_integral ROUND_NEAREST_EVEN {}))",
            bv(0x4000_0000),
            bv(0x4020_0000)
        ), // round(2.5) = 2
        format!(
            "(= {} (ref_f2i ROUND_FLOOR {}))",
            bv(0x7fff_ffff),
            bv(0x4f00_0000)
        ), // 2^31 saturates
        format!(
            "(= {} (ref_f2i ROUND_FLOOR {}))",
            bv(0x8000_0000),
            bv(0xff80_0000)
        ), // -inf saturates
        format!("(= {} (ref_f2i ROUND_FLOOR {}))", bv(0), bv(0x7fc0_0000)), // NaN gives 0
        format!(
            "(= {} (ref_f2i ROUND_FLOOR {}))",
            bv(0xffff_fffe),
            bv(0xbfc0_0000)
        ), // floor(-1.5) = -2
        format!(
            "(encodes {} (ref_expx {}))",
            bv(0x0080_0000),
            bv(0xc2fc_0000)
        ), // 2^-126
        format!(
            "(encodes {} (ref_expx {}))",
            bv(0x0000_0000),
            bv(0xc2fe_0000)
        ), // 2^-127 flushes
        format!(
            "(encodes {} (ref_expx {}))",
            bv(0x7f80_0000),
            bv(0x4300_0000)
        ), // 2^128 = inf
        format!(
            "(encodes {} (ref_expn {}))",
            bv(0xc2fc_0000),
            bv(0x0080_0000)
        ), // LOG.x(2^-126) = -126
        format!(
            "(encodes {} (ref_mant {}))",
            bv(0x3fc0_0000),
            bv(0x40c0_0000)
        ), // LOG.y(6) = 1.5
        format!(
            "(encodes {} (ref_sign true {}))",
            bv(0xbf80_0000),
            bv(0xffff_fff0)
        ),
        format!(
            "(encodes {} (ref_sign false {}))",
            bv(0x3f80_0000),
            bv(0xffff_fff0)
        ),
        format!(
            "(= {} (ref_int INT_SHR {} {}))",
            bv(0xffff_fff8),
            bv(0xffff_ff80),
            bv(0x24)
        ), // -128 >> (36 & 31)
        "(ref_cond COND_NE #x7fc00000 #x7fc00000)".to_string(), // NaN != NaN
        "(not (ref_cond COND_GE #x7fc00000 #x3f800000))".to_string(),
        "(ref_cond COND_EQ #x80000000 #x00000001)".to_string(), // -0 == a subnormal
    ];
    all_hold("contract-examples", &facts);
}

/// ref_add, SUB through ref_add, ref_mul against the model on special and random operands.
#[test]
fn contract_agrees_with_the_model() {
    let special = [
        0u32,
        0x8000_0000,
        1,
        0x8000_0001,
        0x007f_ffff,
        0x0080_0000,
        0x8080_0000,
        0x0080_0001,
        0x3f80_0000,
        0xbf80_0000,
        0x3f80_0001,
        0x4b80_0000,
        0x3400_0000,
        0x7f7f_ffff,
        0xff7f_ffff,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0x7f80_0001,
        0xffff_ffff,
        0x1f80_0000,
        0x2000_0000,
    ];
    let mut pairs: Vec<(u32, u32)> = special
        .iter()
        .flat_map(|&a| special.iter().map(move |&b| (a, b)))
        .collect();
    let mut rng = XorShift::new(0x5EED_F0A1);
    for _ in 0..400 {
        let a = rng.next_u32();
        // Nearby exponents too, where cancellation and rounding happen.
        let b = if rng.next_u32() & 1 == 0 {
            rng.next_u32()
        } else {
            a ^ (rng.next_u32() & 0x80ff_ffff)
        };
        pairs.push((a, b));
    }
    let facts: Vec<String> = pairs
        .iter()
        .map(|&(a, b)| {
            format!(
                "(encodes {} (ref_add {a2} {b2} false)) (encodes {} (ref_add {a2} {b2} true)) (encodes {} (ref_mul {a2} {b2}))",
                bv(fadd(a, b)),
                bv(fsub(a, b)),
                bv(fmul(a, b)),
                a2 = bv(a),
                b2 = bv(b)
            )
        })
        .collect();
    all_hold("contract-model", &facts);
}

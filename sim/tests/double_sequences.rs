//! The binary64 library (`microcode/src/compile/binary64.rs`): DADD, DMUL, DMAD, DDIV, DRCP,
//! DSQRT, DFRAC, DFRACEXP and DLDEXP compiled to integer sequences give, on the core model, the
//! bits host IEEE binary64 arithmetic gives (through the reference model), on edge cases and
//! random operands. (The hardware engines run the same instructions: `hw_cross.rs`.)

mod common;

use microcode::compile::compile;
use microcode::core::isa::Op;
use microcode::core::CoreConfig;
use microcode::rng::XorShift;
use sim::run_io::RunInputs;

/// Edge values: zeros, subnormals, normals at the ends of the range, infinities, NaNs, and
/// values whose sums and products cancel, round to even or cross into the subnormal range.
fn edges() -> Vec<u64> {
    let mut v = vec![
        0,
        1 << 63,
        1,
        (1 << 63) | 1,
        0x000F_FFFF_FFFF_FFFF,
        0x0010_0000_0000_0000,
        0x0010_0000_0000_0001,
        0x001F_FFFF_FFFF_FFFF,
        0x7FEF_FFFF_FFFF_FFFF,
        0xFFEF_FFFF_FFFF_FFFF,
        0x7FF0_0000_0000_0000,
        0xFFF0_0000_0000_0000,
        0x7FF8_0000_0000_0000,
        0x7FF0_0000_0000_0001,
        0xFFF8_0000_0000_0123,
        0x0008_0000_0000_0000,
        0x0000_0000_8000_0000,
        0x0000_0001_0000_0000,
    ];
    for x in [
        1.0f64,
        -1.0,
        0.5,
        2.0,
        3.0,
        0.1,
        -0.1,
        1.5,
        1e300,
        -1e300,
        1e-300,
        1e-310,
        7.0,
        1e16,
        -2.5,
        4503599627370496.5,
        9007199254740993.0,
        0.75,
        1.0 + f64::EPSILON,
        1.0 - 1e-16,
    ] {
        v.push(x.to_bits());
    }
    v
}

/// Random operands: raw bits, exponents near each other, values near 1.
fn random(n: usize, seed: u64) -> Vec<u64> {
    let mut rng = XorShift::new(seed);
    let mut r64 = || u64::from(rng.next_u32()) << 32 | u64::from(rng.next_u32());
    (0..n)
        .map(|i| {
            let x = r64();
            match i % 4 {
                0 => x,
                1 => (x & 0x800F_FFFF_FFFF_FFFF) | (0x3F0u64 + (x >> 56) % 32) << 52,
                2 => (x & 0x800F_FFFF_FFFF_FFFF) | (x >> 53 & 0x3F) << 52,
                _ => (x & 0x800F_FFFF_FFFF_FFFF) | 0x3FF0_0000_0000_0000,
            }
        })
        .collect()
}

/// Runs `text` on the core model and the reference model for operand tuples; both pairs of
/// every lane carry a tuple. Returns the number of tuples compared.
fn check(text: &str, sources: usize, tuples: &[Vec<u64>]) -> usize {
    let outs = if text.contains("OUT[1]") { 1 } else { 0 };
    let src = format!(
        "FRAG\nDCL IN[0..{}]\nDCL OUT[0..{outs}]\n{text}",
        sources.max(1) - 1
    );
    let p =
        microcode::tgsi::text::parse(&src).unwrap_or_else(|e| panic!("{}", e.render(&src, "test")));
    let image = compile(&p, &CoreConfig::default()).expect("compiles").image;
    assert!(
        image.code.iter().all(|i| i.op != Op::Dop),
        "{text}: no model-only DOP"
    );
    let pair = |a: u64, b: u64| [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32];
    let mut n = 0;
    for chunk in tuples.chunks(8) {
        let mut inputs = RunInputs::default();
        for s in 0..sources {
            let mut x = [[0u32; 4]; 4];
            for (l, lane) in x.iter_mut().enumerate() {
                let t0 = chunk.get(2 * l).unwrap_or(&chunk[0]);
                let t1 = chunk.get(2 * l + 1).unwrap_or(&chunk[0]);
                *lane = pair(t0[s], t1[s]);
            }
            inputs.inputs.insert(s as u32, x);
        }
        let core = sim::core_model::run(&image, &inputs).expect("core model runs");
        let reference = sim::reference::run(&p, &inputs).expect("reference runs");
        for l in 0..4 {
            assert!(
                !reference.lanes[l].outputs.is_empty(),
                "{text}: no outputs to compare"
            );
            for (o, want) in &reference.lanes[l].outputs {
                let got = core.lanes[l].outputs[o];
                assert_eq!(
                    got,
                    *want,
                    "{text} lane {l} OUT[{o}] operands {:x?}: got {got:08x?}, want {want:08x?}",
                    &chunk[2 * l.min(chunk.len() / 2)..]
                );
            }
        }
        n += chunk.len();
    }
    n
}

fn pairs(v: &[u64], w: &[u64]) -> Vec<Vec<u64>> {
    v.iter()
        .flat_map(|&a| w.iter().map(move |&b| vec![a, b]))
        .collect()
}

#[test]
fn dadd() {
    let e = edges();
    let mut t = pairs(&e, &e);
    let r = random(4000, 0xD0);
    t.extend(r.chunks(2).map(|c| c.to_vec()));
    check("DADD OUT[0], IN[0], IN[1]\nEND\n", 2, &t);
}

fn binary(text: &str, seed: u64) {
    let e = edges();
    let mut t = pairs(&e, &e);
    let r = random(4000, seed);
    t.extend(r.chunks(2).map(|c| c.to_vec()));
    let n = check(text, 2, &t);
    assert!(n > 3000, "{n} operand pairs compared");
}

fn unary(text: &str, seed: u64) {
    let mut t: Vec<Vec<u64>> = edges().into_iter().map(|x| vec![x]).collect();
    t.extend(random(3000, seed).into_iter().map(|x| vec![x]));
    let n = check(text, 1, &t);
    assert!(n > 3000, "{n} operands compared");
}

#[test]
fn dmul() {
    binary("DMUL OUT[0], IN[0], IN[1]\nEND\n", 0xD1);
}

#[test]
fn ddiv() {
    binary("DDIV OUT[0], IN[0], IN[1]\nEND\n", 0xD2);
}

#[test]
fn drcp() {
    unary("DRCP OUT[0], IN[0]\nEND\n", 0xD3);
}

#[test]
fn dsqrt() {
    unary("DSQRT OUT[0], IN[0]\nEND\n", 0xD4);
}

#[test]
fn dfrac() {
    unary("DFRAC OUT[0], IN[0]\nEND\n", 0xD5);
}

#[test]
fn dfracexp() {
    unary("DFRACEXP OUT[0], OUT[1], IN[0]\nEND\n", 0xD6);
}

#[test]
fn dldexp() {
    let e = edges();
    let exps: Vec<u64> = [
        0.0f64, -0.0, 1.0, -1.0, 2.9, -2.9, 52.0, -1074.0, -1075.0, 1023.0, 1024.0, 2098.0,
        -2098.0, 5000.0, -5000.0, 8191.0, 1e300, -1e300, 0.5,
    ]
    .iter()
    .map(|x| x.to_bits())
    .chain([
        0x7FF0_0000_0000_0000,
        0xFFF0_0000_0000_0000,
        0x7FF8_0000_0000_0000,
        1,
    ])
    .collect();
    let mut t = pairs(&e, &exps);
    let mut rng = XorShift::new(0xD7);
    for x in random(3000, 0xD8) {
        let n = (rng.next_u32() % 4400) as f64 - 2200.0;
        t.push(vec![x, n.to_bits()]);
    }
    check("DLDEXP OUT[0], IN[0], IN[1]\nEND\n", 2, &t);
}

#[test]
fn dmad() {
    let e = edges();
    let mut t: Vec<Vec<u64>> = Vec::new();
    for (i, &a) in e.iter().enumerate() {
        for (j, &b) in e.iter().enumerate() {
            t.push(vec![a, b, e[(i * 7 + j * 3) % e.len()]]);
        }
    }
    let r = random(3000, 0xD9);
    t.extend(r.chunks(3).map(|c| c.to_vec()));
    // Cancellation: c = -(a*b) rounded.
    for c in random(600, 0xDA).chunks(2) {
        let p = f64::from_bits(c[0]) * f64::from_bits(c[1]);
        t.push(vec![c[0], c[1], (-p).to_bits()]);
    }
    check("DMAD OUT[0], IN[0], IN[1], IN[2]\nEND\n", 3, &t);
}

/// One copy of the library serves every double instruction of a program; a program that cannot
/// hold it beside its own instructions gets the model-only DOP, which still equals the
/// reference on the core model.
#[test]
fn the_library_is_shared_and_gives_way_when_it_does_not_fit() {
    let size = |body: &str| {
        let src = format!("FRAG\nDCL IN[0..1]\nDCL OUT[0]\n{body}END\n");
        let p = microcode::tgsi::text::parse(&src).expect("parses");
        let image = compile(&p, &CoreConfig::default()).expect("compiles").image;
        let dops = image.code.iter().filter(|i| i.op == Op::Dop).count();
        (image.code.len(), dops, p, image)
    };
    let (one, dops, p, image) = size("DADD OUT[0], IN[0], IN[1]\n");
    assert_eq!(dops, 0);
    // The routines follow END; the listings name them as the library's, not a TGSI line's.
    let end = image
        .code
        .iter()
        .position(|i| i.op == Op::End)
        .expect("END");
    assert!(image.origin[end + 1..]
        .iter()
        .all(|&o| o == microcode::core::image::LIBRARY_ORIGIN));
    assert!(microcode::core::disasm::listing(&image).contains("; binary64 library"));
    let compiled = compile(&p, &CoreConfig::default()).expect("compiles");
    assert!(compiled.listing(&p).contains("; binary64 library"));
    let (two, dops, ..) = size("DADD OUT[0], IN[0], IN[1]\nDADD OUT[0].zw, OUT[0], -IN[0]\n");
    assert_eq!(dops, 0);
    assert!(
        two - one <= 8,
        "a second DADD costs its call only: {one} -> {two}"
    );
    let (len, dops, p, image) =
        size("DADD OUT[0], IN[0], IN[1]\nDDIV OUT[0], OUT[0], IN[0]\nDSQRT OUT[0], OUT[0]\n");
    assert_eq!(
        dops, 3,
        "three routines beside each other exceed 256 instructions"
    );
    assert!(len < 20);
    let mut rng = XorShift::new(0xDB);
    for _ in 0..50 {
        let mut inputs = RunInputs::default();
        for i in 0..2 {
            let mut x = [[0u32; 4]; 4];
            for lane in x.iter_mut() {
                *lane = std::array::from_fn(|_| rng.next_u32());
            }
            inputs.inputs.insert(i, x);
        }
        let core = sim::core_model::run(&image, &inputs).expect("core model runs");
        let reference = sim::reference::run(&p, &inputs).expect("reference runs");
        for l in 0..4 {
            assert_eq!(
                core.lanes[l].outputs, reference.lanes[l].outputs,
                "lane {l}"
            );
        }
    }
}

/// A longer sweep outside the default suite (benchmark-style, a few minutes in release:
/// `cargo test --release -p sim --test double_sequences -- --ignored`): a million random
/// operand tuples per operation.
#[test]
#[ignore = "long sweep; run explicitly"]
fn sweep_random_operands() {
    const N: usize = 1_000_000;
    for (k, (text, sources)) in [
        ("DADD OUT[0], IN[0], IN[1]\nEND\n", 2),
        ("DMUL OUT[0], IN[0], IN[1]\nEND\n", 2),
        ("DDIV OUT[0], IN[0], IN[1]\nEND\n", 2),
        ("DSQRT OUT[0], IN[0]\nEND\n", 1),
        ("DFRAC OUT[0], IN[0]\nEND\n", 1),
        ("DMAD OUT[0], IN[0], IN[1], IN[2]\nEND\n", 3),
    ]
    .into_iter()
    .enumerate()
    {
        let r = random(N * sources, 0xE0 + k as u64);
        let t: Vec<Vec<u64>> = r.chunks(sources).map(|c| c.to_vec()).collect();
        assert_eq!(check(text, sources, &t), N);
    }
}

/// Operand modifiers and swizzles reach the library as the contract says (negate and absolute
/// on a pair's sign, pairs swapped by swizzles), write masks keep the other pair, and
/// DFRACEXP's two results may land in registers its operand aliases.
#[test]
fn modifiers_swizzles_and_write_masks() {
    let e = edges();
    let mut t: Vec<Vec<u64>> = pairs(&e, &e[..12]);
    t.extend(random(3000, 0xDC).chunks(2).map(|c| c.to_vec()));
    for text in [
        "DADD OUT[0].zw, -IN[0].zwxy, |IN[1]|\nEND\n",
        "DMUL OUT[0].xy, -|IN[0]|, IN[1].zwzw\nEND\n",
        "DDIV OUT[0], IN[1].zwxy, -IN[0]\nEND\n",
        "DLDEXP OUT[0].zw, -IN[0], IN[1].xyxy\nEND\n",
        "MOV OUT[1], IN[0]\nDFRACEXP OUT[1], OUT[0], OUT[1].zwxy\nEND\n",
        "DSQRT OUT[0].xy, |IN[1]|\nEND\n",
        "DFRAC OUT[0].zw, -IN[0].zwzw\nEND\n",
    ] {
        check(text, 2, &t);
    }
}

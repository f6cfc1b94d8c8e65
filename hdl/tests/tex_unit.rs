//! `TexUnit` against `microcode::arith::texel`: the addressing steps (`TIDX` and `TIDXF` with
//! random power-of-two axis words, `TFRC`, `TSEL`) and texel fetches (the "outside" bit
//! included) from a texture memory filled with random RGBA8 texels through the write port, 10^5 operations streamed one per clock, on
//! rust-hdl's simulation driven directly and on the emitted Verilog under Verilator.

mod common;

use common::sim::tick;
use common::tools::{verilator_lint, verilator_model, verilator_run, yosys_check, Port};
use hdl::decoder::TexOp;
use hdl::tex_unit::{TexUnit, TEXELS};
use microcode::arith::texel::{self, axis};
use microcode::rng::XorShift;
use rust_hdl::core::check_error::check_all;
use rust_hdl::prelude::*;

const LATENCY: usize = 3;
const OPS: [TexOp; 6] = TexOp::ALL;

/// An operand with the special exponents (infinity, NaN) often enough to exercise the
/// non-finite coordinate rule.
fn coord(rng: &mut XorShift) -> u32 {
    match rng.next_u32() % 4 {
        0 => 0x7F80_0000 | (rng.next_u32() & 0x807F_FFFF),
        1 => (rng.uniform(-4.0, 4.0) as f32).to_bits(),
        _ => rng.next_u32(),
    }
}

/// An axis word with a power-of-two size (the hardware wraps by masking) and random other bits.
fn axis_word(rng: &mut XorShift) -> u32 {
    let log2 = rng.next_u32() % 15;
    // Bits 15 and 23..31 mean nothing.
    let garbage = rng.next_u32() & 0xFF80_8000;
    ((1 << log2) - 1)
        | (rng.next_u32() % 16) << axis::SHIFT_LSB
        | (rng.next_u32() & (axis::CLAMP | axis::PLUS1 | axis::LINEAR))
        | garbage
}

fn index(rng: &mut XorShift) -> u32 {
    match rng.next_u32() % 4 {
        0 => [0, 1, u32::MAX, 0x7FFF_FFFF, 0x8000_0000][(rng.next_u32() % 5) as usize],
        1 => (rng.next_u32() % 64).wrapping_sub(32),
        _ => rng.next_u32(),
    }
}

#[derive(Clone, Copy)]
struct Vector {
    op: usize,
    a: u32,
    b: u32,
    c: u32,
    comp: u32,
}

fn vectors(seed: u64, n: usize) -> (Vec<u32>, Vec<Vector>) {
    let mut rng = XorShift::new(seed);
    // The first 64 texels hold every channel value 0..=255 (texel k/4, channel k%4), so the
    // conversion to k/255 is checked for each byte.
    let memory: Vec<u32> = (0..TEXELS)
        .map(|i| match u32::try_from(i) {
            Ok(i) if i < 64 => {
                u32::from_le_bytes([4 * i, 4 * i + 1, 4 * i + 2, 4 * i + 3].map(|b| b as u8))
            }
            _ => rng.next_u32(),
        })
        .collect();
    let v = (0..n)
        .map(|i| {
            let op = i % OPS.len();
            let (a, b) = match OPS[op] {
                TexOp::Idx => (index(&mut rng), coord(&mut rng)),
                TexOp::IdxF => (index(&mut rng), axis_word(&mut rng)),
                TexOp::Fet => (rng.next_u32(), rng.next_u32()),
                _ => (rng.next_u32(), coord(&mut rng)),
            };
            Vector {
                op,
                a,
                b,
                c: axis_word(&mut rng),
                comp: rng.next_u32() % 4,
            }
        })
        .collect();
    (memory, v)
}

fn model(memory: &[u32], v: &Vector) -> u32 {
    match OPS[v.op] {
        TexOp::Idx => texel::tidx(v.a, v.b, v.c),
        TexOp::Frc => texel::tfrc(v.a, v.b, v.c),
        TexOp::Sel => texel::tsel(v.a, v.b, v.c),
        TexOp::IdxF => texel::tidx_fetch(v.a, v.b),
        TexOp::Or => v.a | v.b,
        TexOp::Fet if v.a & texel::OUTSIDE != 0 => 0,
        TexOp::Fet => {
            let t = memory[(v.a.wrapping_add(v.b) as usize) % TEXELS];
            texel::unorm8((t >> (8 * v.comp)) as u8)
        }
    }
}

fn check(memory: &[u32], vectors: &[Vector], got: impl Fn(usize) -> u32, engine: &str) {
    for (k, v) in vectors.iter().enumerate() {
        let (got, want) = (got(k), model(memory, v));
        assert_eq!(
            got, want,
            "{engine}: {:?} a {:#010x} b {:#010x} c {:#010x} comp {}: got {got:#010x} want {want:#010x}",
            OPS[v.op], v.a, v.b, v.c, v.comp
        );
    }
}

#[test]
fn tex_unit_matches_the_model() {
    let mut uut = TexUnit::default();
    uut.connect_all();
    check_all(&uut).expect("TexUnit passes rust-hdl's checks");
    let (memory, vectors) = vectors(1618, 100_000);
    for (i, &w) in memory.iter().enumerate() {
        uut.tw_we.next = true;
        uut.tw_addr.next = (i as u64).to_bits();
        uut.tw_data.next = u64::from(w).to_bits();
        tick(&mut uut, |u| &mut u.clock);
    }
    uut.tw_we.next = false;
    let mut got = Vec::with_capacity(vectors.len());
    for i in 0..vectors.len() + LATENCY - 1 {
        if let Some(v) = vectors.get(i) {
            uut.op.next = OPS[v.op];
            uut.comp.next = u64::from(v.comp).to_bits();
        }
        // The operands follow their step by a clock (the caller registers them).
        if let Some(v) = i.checked_sub(1).and_then(|j| vectors.get(j)) {
            uut.a1.next = u64::from(v.a).to_bits();
            uut.b1.next = u64::from(v.b).to_bits();
            uut.c1.next = u64::from(v.c).to_bits();
        }
        tick(&mut uut, |u| &mut u.clock);
        if i + 1 >= LATENCY {
            got.push(uut.result.val().index() as u32);
        }
    }
    check(&memory, &vectors, |k| got[k], "rust-hdl");
}

/// The same vectors on the emitted Verilog under Verilator.
#[test]
fn tex_unit_verilog_matches_the_model() {
    let mut uut = TexUnit::default();
    uut.connect_all();
    let verilog = generate_verilog(&uut);
    let Some(_) = verilator_lint("tex_unit", &verilog) else {
        return;
    };
    yosys_check("tex_unit", &verilog);
    let port = |name, width| Port { name, width };
    let inputs = [
        port("a1", 32),
        port("b1", 32),
        port("c1", 32),
        port("op", 3),
        port("comp", 2),
        port("tw_we", 1),
        port("tw_addr", 9),
        port("tw_data", 32),
    ];
    let Some(exe) = verilator_model("tex_unit", &verilog, &inputs, &[port("result", 32)]) else {
        return;
    };
    let (memory, vectors) = vectors(3141, 100_000);
    let mut rows: Vec<Vec<u64>> = memory
        .iter()
        .enumerate()
        .map(|(i, &w)| vec![0, 0, 0, 0, 0, 1, i as u64, u64::from(w)])
        .collect();
    let first = rows.len();
    // The operands follow their step by a row (the caller registers them).
    rows.extend(vectors.iter().enumerate().map(|(k, v)| {
        let prev = k.checked_sub(1).map(|j| vectors[j]);
        vec![
            prev.map_or(0, |p| u64::from(p.a)),
            prev.map_or(0, |p| u64::from(p.b)),
            prev.map_or(0, |p| u64::from(p.c)),
            v.op as u64,
            u64::from(v.comp),
            0,
            0,
            0,
        ]
    }));
    let last = vectors[vectors.len() - 1];
    rows.push(vec![
        u64::from(last.a),
        u64::from(last.b),
        u64::from(last.c),
        0,
        0,
        0,
        0,
        0,
    ]);
    rows.push(vec![0; 8]);
    let out = verilator_run(&exe, &rows);
    // Row k's outputs are printed after its clock edge: the result shows after edge k + 2.
    check(
        &memory,
        &vectors,
        |k| out[first + k + LATENCY - 1][0] as u32,
        "Verilog",
    );
}

//! The shader core's own datapath blocks against `microcode::arith`, in rust-hdl's simulation
//! driven directly: `MiscUnit` (every result it selects, the transcendental steps of its
//! `TransUnit` included, streamed one operation per clock and read `MISC_UNIT_LATENCY` clocks later), `Writeback` (MODULATE then saturate, combinational) and `FmadPipe`.
//! Edge values plus random operands: at least 10^5 vectors per block.

mod common;

use common::sim::tick;
use common::tools::{verilator_lint, verilator_model, verilator_run, yosys_check, Port};
use hdl::decoder::{control, deriv, rel, ExecKind, IntOp, ResultSel, TexOp, TransOp};
use hdl::fmad_pipe::{FmadPipe, ADDEND_DELAY, FMAD_LATENCY};
use hdl::misc_unit::MiscUnit;
use hdl::trans_unit::TransUnit;
use hdl::writeback::Writeback;
use microcode::arith;
use microcode::arith::texel;
use microcode::core::config::{CoreConfig, Features};
use microcode::core::eval::component;
use microcode::core::isa::{self, Cond};
use microcode::rng::XorShift;
use rust_hdl::core::check_error::check_all;
use rust_hdl::prelude::*;

const EDGES: [u32; 20] = [
    0,
    0x8000_0000,
    1,
    0x807F_FFFF,
    0x0080_0000,
    0x3F80_0000,
    0xBF80_0000,
    0x3F00_0000,
    0x4B00_0001,
    0xCB7F_FFFF,
    0x7F7F_FFFF,
    0x7F80_0000,
    0xFF80_0000,
    0x7FC0_0000,
    0xFFC0_1234,
    0x4F00_0000,
    0xCF00_0001,
    0x3FC0_0000,
    0xFFFF_FFFF,
    0x0000_001F,
];

fn operand(rng: &mut XorShift) -> u32 {
    match rng.next_u32() % 4 {
        0 => EDGES[(rng.next_u32() % 20) as usize],
        1 => (rng.uniform(-300.0, 300.0) as f32).to_bits(),
        _ => rng.next_u32(),
    }
}

/// One MiscUnit operation: an ISA operation and what the core's decoder presents for it (its
/// `hdl::decoder::control` fields, a condition and a predicate bit).
#[derive(Clone, Copy, Debug)]
struct Op {
    op: isa::Op,
    sel: ResultSel,
    int_op: IntOp,
    i2f: u64,
    cond: u64,
    p: bool,
    trans: TransOp,
    tex: TexOp,
}

const TRANS: [TransOp; 14] = [
    TransOp::Rsqr,
    TransOp::Rsqt,
    TransOp::Rsqf,
    TransOp::Ex2t,
    TransOp::Ex2f,
    TransOp::Lg2m,
    TransOp::Lg2h,
    TransOp::Lg2e,
    TransOp::Lg2i,
    TransOp::Lg2a,
    TransOp::Lg2b,
    TransOp::Lg2f,
    TransOp::Scq,
    TransOp::Scf,
];

/// A transcendental step's result: the ISA operation the decoder maps to `t`, through the shared
/// op -> arithmetic map (`microcode::core::eval::component`).
fn trans_model(t: TransOp, a: u32, b: u32, c: u32) -> u32 {
    let op = isa::OPS
        .iter()
        .map(|row| row.op)
        .find(|&op| {
            let c = control(op);
            c.kind == ExecKind::Alu && c.result == ResultSel::Trans && c.trans == t
        })
        .expect("every transcendental step is an ISA operation");
    component(op, Cond::Tr, a, b, c, false)
}

/// The model's answer for `o`: the shared op -> arithmetic map, except TFET's texel (the texture
/// memory holds zeros here; `tex_unit.rs` tests its contents).
fn model(o: &Op, a: u32, b: u32, c: u32) -> u32 {
    match o.op {
        isa::Op::Tfet if a & texel::OUTSIDE != 0 => 0,
        isa::Op::Tfet => texel::unorm8(0),
        op => component(op, Cond::ALL[o.cond as usize], a, b, c, o.p),
    }
}

/// The ISA operations whose result the misc unit selects (executed as ALU operations, not the
/// multiply-add pipe's, no relative addressing, address stack or derivative); `narrow`: a build
/// without the integer ALU and the transcendental steps.
fn misc_ops(narrow: bool) -> Vec<isa::Op> {
    isa::OPS
        .iter()
        .map(|row| row.op)
        .filter(|&op| {
            let c = control(op);
            c.kind == ExecKind::Alu
                && c.result != ResultSel::Fmad
                && c.rel == rel::NONE
                && c.astack == 0
                && c.deriv == deriv::NONE
                && !(narrow && matches!(c.result, ResultSel::Int | ResultSel::Trans))
        })
        .collect()
}

/// A random operation of `ops` ([`misc_ops`]) with the decoder's fields for it, a random
/// condition and predicate bit.
fn random_op(rng: &mut XorShift, ops: &[isa::Op]) -> Op {
    let op = ops[(rng.next_u32() % ops.len() as u32) as usize];
    let c = control(op);
    Op {
        op,
        sel: c.result,
        int_op: c.int_op,
        i2f: c.i2f_mode,
        cond: u64::from(rng.next_u32() % 8),
        p: rng.next_u32().is_multiple_of(2),
        trans: c.trans,
        tex: c.tex,
    }
}

/// Operands for a transcendental step: `b` often a significand in [1, 2) with a random exponent
/// and `c` a scale near the ends of the exponent range, so that `ldexp` reaches overflow, the
/// subnormal-grid rounding (all-ones significand at exponent 0) and the flush.
fn trans_operands(rng: &mut XorShift, a: u32, b: u32, c: u32) -> (u32, u32, u32) {
    if rng.next_u32().is_multiple_of(2) {
        return (a, b, c);
    }
    let frac = if rng.next_u32().is_multiple_of(3) {
        0x7F_FFFF
    } else {
        rng.next_u32() & 0x7F_FFFF
    };
    let exp = 1 + rng.next_u32() % 254;
    let b = (rng.next_u32() & 0x8000_0000) | (exp << 23) | frac;
    // n = -exp + small, or 255 - exp + small: around the flush and overflow boundaries.
    let small = (rng.next_u32() % 5) as i32 - 2;
    let n = if rng.next_u32().is_multiple_of(2) {
        -(exp as i32) + small
    } else {
        255 - exp as i32 + small
    };
    let c = ((n as u32) & 0x3FF) << 8 | (rng.next_u32() & 0xFFFC_00FF);
    (a, b, c)
}

#[test]
fn misc_unit_matches_the_model() {
    run_misc_unit(&CoreConfig::default(), false, 10 + TRANS.len());
}

/// A build without the integer ALU and the transcendental steps: what is left still matches.
#[test]
fn misc_unit_without_optional_units_matches_the_model() {
    let config = CoreConfig {
        features: Features::TEXTURE,
        ..CoreConfig::default()
    };
    run_misc_unit(&config, true, 9);
}

/// 10^5 random operations of the kinds the build has through `MiscUnit`, each compared with the
/// model; `kinds`: how many result kinds (and transcendental steps) must have been checked.
fn run_misc_unit(config: &CoreConfig, narrow: bool, kinds: usize) {
    const LATENCY: usize = hdl::misc_unit::MISC_UNIT_LATENCY as usize;
    let mut uut = MiscUnit::new(config);
    uut.connect_all();
    check_all(&uut).expect("MiscUnit passes rust-hdl's checks");
    let mut rng = XorShift::new(4242);
    let n = 100_000;
    let ops = misc_ops(narrow);
    let vectors: Vec<(Op, u32, u32, u32)> = (0..n)
        .map(|_| {
            let o = random_op(&mut rng, &ops);
            let (a, b, c) = (operand(&mut rng), operand(&mut rng), operand(&mut rng));
            let (a, b, c) = match o.sel {
                ResultSel::Trans => trans_operands(&mut rng, a, b, c),
                // The texture unit wraps by masking: axis words of power-of-two sizes.
                ResultSel::Tex => (
                    a,
                    (b & !0x7FFF) | ((1 << (b % 15)) - 1),
                    (c & !0x7FFF) | ((1 << (c % 15)) - 1),
                ),
                _ => (a, b, c),
            };
            (o, a, b, c)
        })
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    for i in 0..n + LATENCY - 1 {
        if let Some(&(o, a, b, c)) = vectors.get(i) {
            uut.a.next = u64::from(a).to_bits();
            uut.b.next = u64::from(b).to_bits();
            uut.c.next = u64::from(c).to_bits();
            uut.trans_op.next = o.trans;
            uut.tex_op.next = o.tex;
            uut.sel.next = o.sel;
            uut.int_op.next = o.int_op;
            uut.i2f_mode.next = o.i2f.to_bits();
            uut.cond.next = o.cond.to_bits();
            uut.p.next = o.p;
        }
        tick(&mut uut, |u| &mut u.clock);
        if i + 1 >= LATENCY {
            let (o, a, b, c) = vectors[i + 1 - LATENCY];
            let got = uut.result.val().index() as u32;
            let want = model(&o, a, b, c);
            assert_eq!(
                got, want,
                "{o:?} a {a:#010x} b {b:#010x} c {c:#010x}: got {got:#010x} want {want:#010x}"
            );
            if o.sel == ResultSel::Trans {
                seen.insert(format!("{:?}", o.trans));
            } else {
                seen.insert(format!("{:?}", o.sel));
            }
        }
    }
    assert_eq!(
        seen.len(),
        kinds,
        "every result kind and every transcendental step was checked: {seen:?}"
    );
}

/// The transcendental steps on the emitted Verilog of `TransUnit` under Verilator (rust-hdl's
/// simulation and the Verilog can disagree: a complement inside a sum is widened to 32 bits
/// there), one step per clock, each result read 2 clocks later.
#[test]
fn trans_unit_verilog_matches_the_model() {
    let mut uut = TransUnit::default();
    uut.connect_all();
    check_all(&uut).expect("TransUnit passes rust-hdl's checks");
    let verilog = generate_verilog(&uut);
    let Some(_) = verilator_lint("trans_unit", &verilog) else {
        return;
    };
    yosys_check("trans_unit", &verilog);
    let port = |name, width| Port { name, width };
    let inputs = [
        port("a", 32),
        port("c", 32),
        port("a1", 32),
        port("b1", 32),
        port("c1", 32),
        port("op", 4),
    ];
    let Some(exe) = verilator_model("trans_unit", &verilog, &inputs, &[port("result", 32)]) else {
        return;
    };
    let mut rng = XorShift::new(2718);
    let vectors: Vec<(usize, u32, u32, u32)> = (0..100_000)
        .map(|i| {
            let t = i % TRANS.len();
            let (a, b, c) = (operand(&mut rng), operand(&mut rng), operand(&mut rng));
            let (a, b, c) = trans_operands(&mut rng, a, b, c);
            (t, a, b, c)
        })
        .collect();
    // The registered operands (a1, b1, c1) follow their step by a row.
    let row = |k: usize| {
        let (t, a, _, c) = vectors[k];
        let (_, pa, pb, pc) = k.checked_sub(1).map_or((0, 0, 0, 0), |j| vectors[j]);
        vec![
            u64::from(a),
            u64::from(c),
            u64::from(pa),
            u64::from(pb),
            u64::from(pc),
            t as u64,
        ]
    };
    let mut rows: Vec<Vec<u64>> = (0..vectors.len()).map(row).collect();
    let (_, la, lb, lc) = vectors[vectors.len() - 1];
    rows.push(vec![0, 0, u64::from(la), u64::from(lb), u64::from(lc), 0]);
    let out = verilator_run(&exe, &rows);
    for (k, &(t, a, b, c)) in vectors.iter().enumerate() {
        // Row k's outputs are printed after its clock edge: the result shows after edge k + 1.
        let got = out[k + 1][0] as u32;
        let want = trans_model(TRANS[t], a, b, c);
        assert_eq!(
            got, want,
            "{:?} a {a:#010x} b {b:#010x} c {c:#010x}: Verilog {got:#010x} model {want:#010x}",
            TRANS[t]
        );
    }
}

#[test]
fn writeback_matches_the_model() {
    let mut uut = Writeback::default();
    uut.connect_all();
    check_all(&uut).expect("Writeback passes rust-hdl's checks");
    let mut rng = XorShift::new(77);
    for i in 0..100_000u32 {
        let mut v = operand(&mut rng);
        // Subnormals, values near 1 and the ends of the exponent range: the clamp's edges.
        if i % 4 == 0 {
            v = (v & 0x807F_FFFF)
                | ((rng.next_u32() % 4) << 23)
                | if i % 8 == 0 { 0x3E00_0000 } else { 0 };
        }
        let use_fmad = i % 2 == 0;
        let sat = rng.next_u32() % 3;
        let (fmad, misc) = if use_fmad { (v, !v) } else { (!v, v) };
        uut.fmad.next = u64::from(fmad).to_bits();
        uut.misc.next = u64::from(misc).to_bits();
        uut.use_fmad.next = use_fmad;
        uut.sat.next = u64::from(sat).to_bits();
        assert!(simulate(&mut uut, 100));
        let want = match sat {
            1 => arith::fsat01(v),
            2 => arith::fsat11(v),
            _ => v,
        };
        let got = uut.value.val().index() as u32;
        assert_eq!(
            got, want,
            "v {v:#010x} fmad {use_fmad} sat {sat}: got {got:#010x}"
        );
    }
}

#[test]
fn fmad_pipe_matches_the_model() {
    let mut uut = FmadPipe::default();
    uut.connect_all();
    check_all(&uut).expect("FmadPipe passes rust-hdl's checks");
    let mut rng = XorShift::new(5);
    let n = 100_000;
    let v: Vec<[u32; 3]> = (0..n).map(|_| [0; 3].map(|_| operand(&mut rng))).collect();
    let lat = FMAD_LATENCY as usize;
    for i in 0..n + lat - 1 {
        if let Some(x) = v.get(i) {
            uut.a.next = u64::from(x[0]).to_bits();
            uut.b.next = u64::from(x[1]).to_bits();
        }
        // The addend follows its factors by the multiplier's latency.
        if let Some(x) = i.checked_sub(ADDEND_DELAY as usize).and_then(|j| v.get(j)) {
            uut.c.next = u64::from(x[2]).to_bits();
        }
        tick(&mut uut, |u| &mut u.clock);
        if i + 1 >= lat {
            let [a, b, c] = v[i + 1 - lat];
            let got = uut.result.val().index() as u32;
            assert_eq!(got, arith::fmad(a, b, c), "{a:#x} {b:#x} {c:#x}");
        }
    }
}

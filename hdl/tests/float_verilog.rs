//! The EMITTED Verilog of `FMul` and `FAdd`: lint, yosys check, and Verilator runs that must
//! agree with both the rust-hdl simulation and the independent model (rust-hdl's simulation can
//! disagree with its own Verilog, so the Verilog is tested on its own).
mod common;

use common::model::{random_fadd_vectors, random_fmul_pairs, ref_fadd, ref_fmul, special_pairs};
use common::sim::{compare, run_fadd, run_fmul, LATENCY};
use common::tools::{verilator_lint, verilator_model, verilator_run, yosys_check, Port};
use hdl::fadd::FAdd;
use hdl::fmul::FMul;
use rust_hdl::prelude::*;

/// Run rows through a Verilator model and pick output column 0, aligned by the latency.
fn verilator_results(exe: &std::path::Path, rows: &[Vec<u64>]) -> Vec<u32> {
    let mut rows = rows.to_vec();
    let width = rows.first().map_or(0, Vec::len);
    for _ in 1..LATENCY {
        rows.push(vec![0; width]);
    }
    verilator_run(exe, &rows)
        .into_iter()
        .skip(LATENCY - 1)
        .map(|r| r[0] as u32)
        .collect()
}

#[test]
fn fmul_verilog() {
    fmul_verilog_of("fmul", FMul::default());
}

/// The ECP5's multiplier: its hand-written `*` Verilog (`hdl::mul24`) under Verilator.
#[test]
fn fmul_on_multiplier_blocks_verilog() {
    fmul_verilog_of("fmul-dsp", FMul::with_dsp());
}

/// The iCE40's multiplier is the radix-4 one alone: no multiplier block, no `*`.
#[test]
fn the_ice40_fmul_has_no_multiplication() {
    let mut uut = FMul::default();
    uut.connect_all();
    let v = generate_verilog(&uut);
    // (`always @(*)` aside.)
    let products = v.replace("@(*)", "");
    assert!(
        !products.contains('*') && !v.contains("dsp"),
        "a `*` in the iCE40 FMul"
    );
    let mut dsp = FMul::with_dsp();
    dsp.connect_all();
    assert!(generate_verilog(&dsp).contains("a[16:0] * b[16:0]"));
}

fn fmul_verilog_of(name: &str, mut uut: FMul) {
    uut.connect_all();
    let v = generate_verilog(&uut);
    let Some(_) = verilator_lint(name, &v) else {
        return;
    };
    yosys_check(name, &v);
    let ab = [
        Port {
            name: "a",
            width: 32,
        },
        Port {
            name: "b",
            width: 32,
        },
    ];
    let Some(exe) = verilator_model(
        name,
        &v,
        &ab,
        &[Port {
            name: "result",
            width: 32,
        }],
    ) else {
        return;
    };
    let mut vecs = special_pairs();
    vecs.extend(random_fmul_pairs(0xF00D_0002, 200_000));
    let rows: Vec<Vec<u64>> = vecs
        .iter()
        .map(|&(a, b)| vec![a as u64, b as u64])
        .collect();
    let got = verilator_results(&exe, &rows);
    let want: Vec<u32> = vecs.iter().map(|&(a, b)| ref_fmul(a, b)).collect();
    compare("fmul Verilator vs model", &vecs, &got, &want);
    let arith: Vec<u32> = vecs
        .iter()
        .map(|&(a, b)| microcode::arith::fmul(a, b))
        .collect();
    compare("fmul Verilator vs microcode::arith", &vecs, &got, &arith);
    let n = special_pairs().len() + 20_000;
    compare(
        "fmul Verilator vs rust-hdl",
        &vecs[..n],
        &got[..n],
        &run_fmul(&vecs[..n]),
    );
}

#[test]
fn fadd_verilog() {
    let mut uut = FAdd::default();
    uut.connect_all();
    let v = generate_verilog(&uut);
    let Some(_) = verilator_lint("fadd", &v) else {
        return;
    };
    yosys_check("fadd", &v);
    let ports = [
        Port {
            name: "a",
            width: 32,
        },
        Port {
            name: "b",
            width: 32,
        },
        Port {
            name: "sub",
            width: 1,
        },
        // Add (0) with the Floor (0) rounding direction, which Add ignores.
        Port {
            name: "op",
            width: 3,
        },
        Port {
            name: "round",
            width: 2,
        },
    ];
    let Some(exe) = verilator_model(
        "fadd",
        &v,
        &ports,
        &[Port {
            name: "result",
            width: 32,
        }],
    ) else {
        return;
    };
    let mut vecs: Vec<(u32, u32, bool)> = Vec::new();
    for (a, b) in special_pairs() {
        vecs.push((a, b, false));
        vecs.push((a, b, true));
    }
    let nspecial = vecs.len();
    vecs.extend(random_fadd_vectors(0xADD5_0002, 200_000));
    let rows: Vec<Vec<u64>> = vecs
        .iter()
        .map(|&(a, b, s)| vec![a as u64, b as u64, s as u64, 0, 0])
        .collect();
    let got = verilator_results(&exe, &rows);
    let want: Vec<u32> = vecs.iter().map(|&(a, b, s)| ref_fadd(a, b, s)).collect();
    compare("fadd Verilator vs model", &vecs, &got, &want);
    let arith: Vec<u32> = vecs
        .iter()
        .map(|&(a, b, s)| {
            if s {
                microcode::arith::fsub(a, b)
            } else {
                microcode::arith::fadd(a, b)
            }
        })
        .collect();
    compare("fadd Verilator vs microcode::arith", &vecs, &got, &arith);
    let n = nspecial + 20_000;
    compare(
        "fadd Verilator vs rust-hdl",
        &vecs[..n],
        &got[..n],
        &run_fadd(&vecs[..n]),
    );
}

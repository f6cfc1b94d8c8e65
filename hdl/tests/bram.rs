//! `Bram` in rust-hdl simulation and in Verilator against a plain array model.
mod common;

use common::model::Rng;
use common::sim::tick;
use common::tools::{verilator_lint, verilator_model, verilator_run, yosys_check, Port};
use hdl::bram::Bram;
use rust_hdl::core::check_error::check_all;
use rust_hdl::prelude::*;

/// One clock of stimulus: (we, wa, wd, ra). Never reads the address written at the same edge
/// (undefined in hardware).
fn stimulus(n: usize) -> Vec<(bool, u64, u64, u64)> {
    let mut r = Rng::new(0xB4A3);
    (0..n)
        .map(|_| {
            let we = r.below(2) == 1;
            let wa = r.below(256) as u64;
            let wd = r.below(1 << 16) as u64;
            let mut ra = r.below(256) as u64;
            if we && ra == wa {
                ra = (ra + 1) & 255;
            }
            (we, wa, wd, ra)
        })
        .collect()
}

/// Expected `rd` after each clock: the word at `ra` before that clock's write.
fn expected(stim: &[(bool, u64, u64, u64)]) -> Vec<u64> {
    let mut mem = [0u64; 256];
    stim.iter()
        .map(|&(we, wa, wd, ra)| {
            let rd = mem[ra as usize];
            if we {
                mem[wa as usize] = wd;
            }
            rd
        })
        .collect()
}

#[test]
fn bram_simulation_matches_array() {
    let stim = stimulus(20_000);
    let want = expected(&stim);
    let mut uut = Bram::<16, 8>::default();
    uut.connect_all();
    check_all(&uut).expect("Bram passes rust-hdl's checks");
    let mut got = Vec::new();
    for &(we, wa, wd, ra) in &stim {
        uut.we.next = we;
        uut.wa.next = wa.into();
        uut.wd.next = wd.into();
        uut.ra.next = ra.into();
        tick(&mut uut, |u| &mut u.clock);
        got.push(uut.rd.val().index() as u64);
    }
    assert_eq!(got, want);
}

#[test]
fn bram_verilog_lint_yosys_and_verilator() {
    let mut uut = Bram::<16, 8>::default();
    uut.connect_all();
    let v = generate_verilog(&uut);
    assert!(
        v.contains("no_rw_check"),
        "the attribute must reach the Verilog"
    );
    let Some(_) = verilator_lint("bram", &v) else {
        return;
    };
    yosys_check("bram", &v);
    let inputs = [
        Port {
            name: "we",
            width: 1,
        },
        Port {
            name: "wa",
            width: 8,
        },
        Port {
            name: "wd",
            width: 16,
        },
        Port {
            name: "ra",
            width: 8,
        },
    ];
    let Some(exe) = verilator_model(
        "bram",
        &v,
        &inputs,
        &[Port {
            name: "rd",
            width: 16,
        }],
    ) else {
        return;
    };
    let stim = stimulus(20_000);
    let rows: Vec<Vec<u64>> = stim
        .iter()
        .map(|&(we, wa, wd, ra)| vec![we as u64, wa, wd, ra])
        .collect();
    let got: Vec<u64> = verilator_run(&exe, &rows)
        .into_iter()
        .map(|r| r[0])
        .collect();
    assert_eq!(got, expected(&stim));
}

//! `Bram` in rust-hdl simulation and in Verilator against a plain array model.
mod common;

use common::sim::tick;
use common::tools::{verilator_lint, verilator_model, verilator_run, yosys_check, Port};
use hdl::bram::Bram;
use microcode::rng::XorShift;
use rust_hdl::core::check_error::check_all;
use rust_hdl::prelude::*;

/// One clock of stimulus: (we, wa, wd, ra). Never reads the address written at the same edge
/// (undefined in hardware).
fn stimulus(n: usize) -> Vec<(bool, u64, u64, u64)> {
    let mut r = XorShift::new(0xB4A3);
    (0..n)
        .map(|_| {
            let we = r.below_u32(2) == 1;
            let wa = r.below_u32(256) as u64;
            let wd = r.below_u32(1 << 16) as u64;
            let mut ra = r.below_u32(256) as u64;
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

/// A RAM with contents at configuration and fewer words than its address space (the loader's
/// firmware memory): reads see the contents, the words beyond the depth read zero and ignore
/// writes, and the Verilog declares only the depth with an `initial` block yosys maps to INIT.
#[test]
fn bram_with_contents_and_depth() {
    let mut uut: Bram<16, 10> = Bram::with_depth_and_contents(768, &[0x1234, 0, 0xBEEF]);
    uut.connect_all();
    check_all(&uut).unwrap();
    let read = |uut: &mut Bram<16, 10>, ra: u64, we: Option<(u64, u64)>| {
        uut.ra.next = ra.to_bits();
        uut.we.next = we.is_some();
        if let Some((wa, wd)) = we {
            uut.wa.next = wa.to_bits();
            uut.wd.next = wd.to_bits();
        }
        tick(uut, |u| &mut u.clock);
        uut.rd.val().index() as u64
    };
    assert_eq!(read(&mut uut, 0, None), 0x1234);
    assert_eq!(read(&mut uut, 2, None), 0xBEEF);
    assert_eq!(read(&mut uut, 1, Some((1, 0x5555))), 0);
    assert_eq!(read(&mut uut, 1, Some((900, 0x7777))), 0x5555);
    assert_eq!(read(&mut uut, 900, None), 0);
    let v = generate_verilog(&uut);
    assert!(v.contains("mem [0:767]"), "{v}");
    assert!(v.contains("mem[2] = 16'hbeef;"), "{v}");
    yosys_check("bram_init", &v);
}

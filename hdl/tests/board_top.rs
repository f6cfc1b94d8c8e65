//! The board top level ("MAD echo") end to end at the serial-line level: 12 bytes in, the MAD of
//! the three operands out, compared with `microcode::arith::fmad`.

mod common;

use common::sim::tick;
use hdl::baud::BaudDivisor;
use hdl::board_top::BoardTop;
use rust_hdl::core::check_error::check_all;
use rust_hdl::prelude::*;

const DIV: usize = 8;

struct Bench {
    uut: BoardTop,
}

impl Bench {
    fn new() -> Bench {
        let mut uut = BoardTop::new(BaudDivisor::new(DIV as u64).unwrap());
        uut.connect_all();
        check_all(&uut).unwrap();
        uut.reset_n.next = true;
        uut.rx.next = true;
        let mut b = Bench { uut };
        b.clocks(4 * DIV);
        b
    }

    fn clocks(&mut self, n: usize) -> Vec<bool> {
        (0..n)
            .map(|_| {
                tick(&mut self.uut, |u| &mut u.clock);
                self.uut.tx.val()
            })
            .collect()
    }

    /// Sends one 8N1 byte; returns the tx line sampled every clock meanwhile.
    fn send(&mut self, byte: u8) -> Vec<bool> {
        let mut line = Vec::new();
        let bits = std::iter::once(false)
            .chain((0..8).map(|i| byte >> i & 1 == 1))
            .chain(std::iter::once(true));
        for bit in bits {
            self.uut.rx.next = bit;
            line.extend(self.clocks(DIV));
        }
        line
    }
}

/// Bytes on a sampled 8N1 line (one sample per clock).
fn decode(line: &[bool]) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut i = 1;
    while i < line.len() {
        if line[i - 1] && !line[i] && i + 10 * DIV <= line.len() {
            let byte = (0..8).fold(0u8, |acc, b| {
                acc | (u8::from(line[i + (b + 1) * DIV + DIV / 2]) << b)
            });
            bytes.push(byte);
            i += 10 * DIV - DIV / 2;
        } else {
            i += 1;
        }
    }
    bytes
}

#[test]
fn computes_mad_over_the_serial_link() {
    let mut bench = Bench::new();
    let cases = [
        (1.5f32, 2.0f32, 0.25f32),
        (-3.0, 0.1, 1.0e-3),
        (1.0e30, 1.0e30, -1.0),
    ];
    for (a, b, c) in cases {
        let mut line = Vec::new();
        for word in [a, b, c] {
            for byte in word.to_bits().to_be_bytes() {
                line.extend(bench.send(byte));
            }
        }
        line.extend(bench.clocks(60 * DIV));
        let got = decode(&line);
        let want = microcode::arith::fmad(a.to_bits(), b.to_bits(), c.to_bits());
        assert_eq!(got, want.to_be_bytes(), "MAD({a}, {b}, {c})");
    }
    // LED 1 toggles per byte: 36 bytes leave it where it started; LED 2 (framing) stays dark.
    let leds = bench.uut.leds.val().index();
    assert_eq!(leds >> 1 & 1, 0);
    assert_eq!(leds >> 2 & 1, 0);
}

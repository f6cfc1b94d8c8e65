//! The board top level (UART, on-chip loader, shader core) at its pins, in rust-hdl's simulation:
//! INFO and STATUS requests sent bit by bit on `rx` come back as framed answers on `tx`; and its
//! emitted Verilog lints and passes yosys' checks. (The loader's every command is cross-checked
//! against the protocol model in `sim/tests/loader_cross.rs`; the whole board over a
//! pseudo-terminal in `tests/board_emulated.rs`.)

mod common;

use common::sim::tick;
use common::tools::{verilator_lint_with, yosys_check};
use hdl::baud::BaudDivisor;
use hdl::board_top::BoardTop;
use hdl::loader::{Loader, INFO_RECORD_BYTES};
use microcode::core::CoreConfig;
use rust_hdl::core::check_error::check_all;
use rust_hdl::prelude::*;

const DIV: usize = 8;

fn info() -> [u8; INFO_RECORD_BYTES] {
    let mut b = [0u8; INFO_RECORD_BYTES];
    for (i, x) in b.iter_mut().enumerate() {
        *x = (i as u8).wrapping_mul(37) ^ 0xC0; // includes bytes that need SLIP escapes
    }
    b
}

fn cfg() -> hdl::loader::DeviceConfig {
    let board = microcode::board::Board::AlchitryCu;
    hdl::loader::device_config(board, 1, &CoreConfig::default(), 50_000_000, 115_200)
}

fn board() -> BoardTop {
    let firmware = hdl::loader_firmware::firmware(&cfg(), false).expect("the firmware assembles");
    let loader = Loader::new(&info(), &firmware);
    let mut uut = BoardTop::new(
        &CoreConfig::default(),
        loader,
        BaudDivisor::new(DIV as u64).unwrap(),
    );
    uut.connect_all();
    check_all(&uut).expect("the board passes rust-hdl's checks");
    uut
}

/// SLIP-framed request: `len cmd seq payload crc`.
fn frame(cmd: u8, seq: u8, payload: &[u8]) -> Vec<u8> {
    let mut body = (payload.len() as u16).to_le_bytes().to_vec();
    body.extend([cmd, seq]);
    body.extend(payload);
    body.extend(crc32fast::hash(&body).to_le_bytes());
    let mut w = vec![0xC0];
    for b in body {
        match b {
            0xC0 => w.extend([0xDB, 0xDC]),
            0xDB => w.extend([0xDB, 0xDD]),
            _ => w.push(b),
        }
    }
    w.push(0xC0);
    w
}

/// Unstuffed bodies of the frames in `wire`.
fn bodies(wire: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    let mut esc = false;
    for &b in wire {
        match (b, esc) {
            (0xC0, _) => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            (0xDB, false) => esc = true,
            (x, true) => {
                cur.push(if x == 0xDC { 0xC0 } else { 0xDB });
                esc = false;
            }
            (x, false) => cur.push(x),
        }
    }
    out
}

struct Bench {
    uut: BoardTop,
    line: Vec<bool>,
}

impl Bench {
    fn clocks(&mut self, n: usize) {
        for _ in 0..n {
            tick(&mut self.uut, |u| &mut u.clock);
            self.line.push(self.uut.tx.val());
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            let bits = std::iter::once(false)
                .chain((0..8).map(|i| byte >> i & 1 == 1))
                .chain(std::iter::once(true));
            for bit in bits {
                self.uut.rx.next = bit;
                self.clocks(DIV);
            }
        }
    }

    /// Bytes on the sampled tx line so far (one sample per clock).
    fn received(&self) -> Vec<u8> {
        let line = &self.line;
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
}

#[test]
fn answers_info_and_status_at_its_pins() {
    let mut b = Bench {
        uut: board(),
        line: Vec::new(),
    };
    b.uut.reset_n.next = true;
    b.uut.rx.next = true;
    // The loader's firmware clears its state after configuration, then listens (LED 5 dark).
    b.clocks(4 * DIV);
    for _ in 0..1000 {
        if b.uut.leds.val().index() >> 5 & 1 == 0 {
            break;
        }
        b.clocks(1);
    }
    assert_eq!(b.uut.leds.val().index() >> 5 & 1, 0, "the loader listens");
    // One request at a time, as the host does: the loader discards bytes while it answers.
    b.send(&frame(0x01, 7, &[]));
    b.clocks(170 * 10 * DIV);
    b.send(&frame(0x02, 8, &[]));
    b.clocks(40 * 10 * DIV);
    let answers = bodies(&b.received());
    assert_eq!(answers.len(), 2, "two answers: {answers:02x?}");
    let mut want = vec![151, 0, 0x81, 7, 0];
    want.extend(info());
    // The record's tail: board, cores, the configuration (the firmware's table).
    want.extend(&hdl::loader::info_bytes(&cfg())[INFO_RECORD_BYTES..]);
    want.extend(crc32fast::hash(&want).to_le_bytes());
    assert_eq!(answers[0], want, "INFO answer");
    let s = &answers[1];
    assert_eq!(&s[..5], &[21, 0, 0x82, 8, 0], "STATUS header");
    assert_eq!(s[5], 0, "no image after power-up");
    // LED 1 (valid image) dark, LED 6 toggled once per received byte.
    let leds = b.uut.leds.val().index();
    assert_eq!(leds >> 1 & 1, 0);
}

#[test]
fn emitted_verilog_lints_and_passes_yosys_checks() {
    let v = generate_verilog(&board());
    for block in [
        "loader$frame_rx",
        "loader$crc",
        "loader$mem",
        "core$seq",
        "uart_rx",
    ] {
        assert!(
            v.contains(&format!("module top${block}")),
            "{block} missing"
        );
    }
    // -Wno-UNSIGNED as for the core (rust-hdl compares unsigned values with 0).
    let Some(_) = verilator_lint_with("board_top", &v, &["-Wno-UNSIGNED"]) else {
        return;
    };
    yosys_check("board_top", &v);
}

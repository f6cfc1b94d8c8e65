//! UartTx, driven directly: exact bit timing of back-to-back and spaced frames, the handshake, and
//! the emitted Verilog.

mod serial_common;

use hdl::baud::BaudDivisor;
use hdl::uart_tx::UartTx;
use microcode::rng::XorShift;
use rust_hdl::prelude::*;
use serial_common::{check_verilog, cycle, settle};

fn new_tx(divisor: u64) -> UartTx {
    let mut uut = UartTx::new(BaudDivisor::new(divisor).expect("valid divisor"));
    uut.connect_all();
    uut
}

fn clock(uut: &mut UartTx) -> &mut Signal<In, Clock> {
    &mut uut.clock
}

/// The line levels of one 8N1 frame, `divisor` samples per bit.
fn frame(byte: u8, divisor: usize) -> Vec<bool> {
    let mut bits = vec![false];
    bits.extend((0..8).map(|i| byte >> i & 1 == 1));
    bits.push(true);
    bits.iter()
        .flat_map(|&bit| std::iter::repeat_n(bit, divisor))
        .collect()
}

#[test]
fn idles_high_and_ready() {
    let mut uut = new_tx(10);
    for _ in 0..50 {
        cycle(&mut uut, clock);
        assert!(uut.tx.val());
        assert!(uut.ready.val());
    }
}

#[test]
fn back_to_back_bytes_make_gapless_frames_of_exact_bit_timing() {
    for divisor in [8usize, 13, 16] {
        let mut rng = XorShift::new(divisor as u64);
        let bytes: Vec<u8> = (0..20).map(|_| rng.byte()).collect();
        let mut uut = new_tx(divisor as u64);
        for _ in 0..5 {
            cycle(&mut uut, clock);
        }
        let mut line = Vec::new();
        let mut ready_log = Vec::new();
        let mut next = 0;
        let total = bytes.len() * 10 * divisor;
        while line.len() < total + 3 * divisor {
            uut.valid.next = next < bytes.len();
            uut.data.next = bytes.get(next).copied().unwrap_or(0).to_bits();
            settle(&mut uut);
            let accepted = uut.valid.val() && uut.ready.val();
            ready_log.push(uut.ready.val());
            cycle(&mut uut, clock);
            if accepted {
                next += 1;
            }
            // The line from the first accepting edge on.
            if next > 0 {
                line.push(uut.tx.val());
            }
        }
        assert_eq!(next, bytes.len(), "divisor {divisor}: every byte taken");
        let mut expected: Vec<bool> = bytes.iter().flat_map(|&b| frame(b, divisor)).collect();
        expected.resize(line.len(), true);
        assert_eq!(line, expected, "divisor {divisor}");
        // While streaming, ready is high exactly once per frame: its last clock.
        let streaming = &ready_log[..total];
        let highs: Vec<usize> = streaming
            .iter()
            .enumerate()
            .filter(|(_, &r)| r)
            .map(|(i, _)| i)
            .collect();
        let expected_highs: Vec<usize> = (0..bytes.len()).map(|k| k * 10 * divisor).collect();
        assert_eq!(highs, expected_highs, "divisor {divisor}");
    }
}

#[test]
fn spaced_bytes_each_start_at_their_accepting_edge() {
    let divisor = 11;
    let mut rng = XorShift::new(7);
    let mut uut = new_tx(divisor as u64);
    let mut line = Vec::new();
    let mut starts = Vec::new();
    let mut bytes = Vec::new();
    for _ in 0..30 {
        // Wait a random time, then offer one byte until it is taken.
        for _ in 0..rng.below(40) {
            uut.valid.next = false;
            cycle(&mut uut, clock);
            line.push(uut.tx.val());
        }
        let byte = rng.byte();
        loop {
            uut.valid.next = true;
            uut.data.next = byte.to_bits();
            settle(&mut uut);
            let accepted = uut.ready.val();
            cycle(&mut uut, clock);
            line.push(uut.tx.val());
            if accepted {
                starts.push(line.len() - 1);
                bytes.push(byte);
                break;
            }
        }
        uut.valid.next = false;
        // Garbage on `data` after acceptance must not matter.
        uut.data.next = 0xA5_u8.to_bits();
    }
    for _ in 0..10 * divisor {
        cycle(&mut uut, clock);
        line.push(uut.tx.val());
    }
    for (&start, &byte) in starts.iter().zip(&bytes) {
        let expected = frame(byte, divisor);
        assert_eq!(
            &line[start..start + expected.len()],
            &expected[..],
            "byte {byte:#04x}"
        );
    }
    // Everything outside the frames is idle (high).
    let mut in_frame = vec![false; line.len()];
    for &start in &starts {
        in_frame[start..start + 10 * divisor].fill(true);
    }
    assert!(line
        .iter()
        .zip(&in_frame)
        .all(|(&level, &framed)| framed || level));
}

#[test]
fn emitted_verilog_passes_lint_and_yosys_check() {
    let mut uut = new_tx(868);
    uut.clock.connect();
    uut.data.connect();
    uut.valid.connect();
    uut.connect_all();
    check_all(&uut).expect("rust-hdl checks");
    check_verilog("uart_tx", &generate_verilog(&uut));
}

//! UartRx, driven directly: random bytes at the divisor's rate and with +-2% baud error, the
//! start-bit check, framing errors and breaks, output timing, and the emitted Verilog.

mod serial_common;

use hdl::baud::BaudDivisor;
use hdl::uart_rx::UartRx;
use microcode::rng::XorShift;
use rust_hdl::prelude::*;
use serial_common::{check_verilog, cycle};

fn new_rx(divisor: u64) -> UartRx {
    let mut uut = UartRx::new(BaudDivisor::new(divisor).expect("valid divisor"));
    uut.connect_all();
    uut
}

fn clock(uut: &mut UartRx) -> &mut Signal<In, Clock> {
    &mut uut.clock
}

/// What the receiver reported.
#[derive(Debug, Default)]
struct Received {
    bytes: Vec<u8>,
    framing_errors: Vec<u8>,
    /// Cycle indices at which `valid` was seen high.
    valid_at: Vec<usize>,
}

/// Drives `line` (one level per clock cycle, applied before that cycle's edge) into the receiver.
fn receive(uut: &mut UartRx, line: &[bool]) -> Received {
    let mut got = Received::default();
    for (n, &level) in line.iter().enumerate() {
        uut.rx.next = level;
        cycle(uut, clock);
        let valid = uut.valid.val();
        let error = uut.framing_error.val();
        assert!(
            !(valid && error),
            "valid and framing_error together at cycle {n}"
        );
        if valid {
            got.bytes.push(uut.data.val().to_u64() as u8);
            got.valid_at.push(n);
        }
        if error {
            got.framing_errors.push(uut.data.val().to_u64() as u8);
        }
    }
    got
}

/// A serial line carrying `bytes` as 8N1 frames whose bits last `bit_clocks` clock cycles (not
/// necessarily whole), with random idle gaps and a random phase against the clock.
fn serial_line(bytes: &[u8], bit_clocks: f64, rng: &mut XorShift) -> Vec<bool> {
    // (start time, level) of every change, in clock cycles.
    let mut t = 5.0 + rng.next_f64() * bit_clocks;
    let mut edges = Vec::new();
    for &byte in bytes {
        let mut bits = vec![false];
        bits.extend((0..8).map(|i| byte >> i & 1 == 1));
        bits.push(true);
        for bit in bits {
            edges.push((t, bit));
            t += bit_clocks;
        }
        // Idle between frames: none, or up to three bit times.
        if rng.below(2) == 0 {
            t += rng.next_f64() * 3.0 * bit_clocks;
        }
    }
    let end = (t + 3.0 * bit_clocks).ceil() as usize;
    let mut line = vec![true; end];
    let mut k = 0;
    let mut level = true;
    for (n, slot) in line.iter_mut().enumerate() {
        while k < edges.len() && edges[k].0 <= n as f64 {
            level = edges[k].1;
            k += 1;
        }
        *slot = level;
    }
    line
}

#[test]
fn receives_random_bytes_at_nominal_and_plus_minus_two_percent_baud() {
    for (divisor, error) in [
        (16u64, 0.0),
        (16, 0.02),
        (16, -0.02),
        (27, 0.02),
        (27, -0.02),
        (100, 0.0),
    ] {
        let mut rng = XorShift::new(divisor * 1000 + (error * 100.0 + 50.0) as u64);
        let count = if divisor == 100 { 60 } else { 300 };
        let bytes: Vec<u8> = (0..count).map(|_| rng.byte()).collect();
        let bit_clocks = divisor as f64 * (1.0 + error);
        let line = serial_line(&bytes, bit_clocks, &mut rng);
        let mut uut = new_rx(divisor);
        let got = receive(&mut uut, &line);
        assert_eq!(
            got.framing_errors,
            Vec::<u8>::new(),
            "divisor {divisor}, error {error}"
        );
        assert_eq!(got.bytes, bytes, "divisor {divisor}, baud error {error}");
    }
}

#[test]
fn valid_is_a_one_clock_pulse_at_the_stated_time() {
    for divisor in [8u64, 16, 33] {
        let d = divisor as usize;
        let mut uut = new_rx(divisor);
        // Idle, then a frame whose start bit is applied before edge `lead`.
        let lead = 10;
        let mut line = vec![true; lead];
        line.extend(std::iter::repeat_n(false, d));
        for i in 0..8 {
            line.extend(std::iter::repeat_n(0x5Au8 >> i & 1 == 1, d));
        }
        line.extend(std::iter::repeat_n(true, 4 * d));
        let got = receive(&mut uut, &line);
        assert_eq!(got.bytes, vec![0x5A]);
        // The middle of the stop bit is sampled d/2 clocks into it, 9 bits after the start bit;
        // valid follows 3 edges later.
        assert_eq!(
            got.valid_at,
            vec![lead + 9 * d + d / 2 + 3],
            "divisor {divisor}"
        );
    }
}

#[test]
fn short_low_glitches_are_not_start_bits() {
    let divisor = 16;
    let mut rng = XorShift::new(3);
    let mut uut = new_rx(divisor);
    let mut line = vec![true; 20];
    // A 1-clock glitch (removed by the filter) and glitches shorter than half a bit (rejected by
    // the start-bit check), each followed by idle.
    for glitch in [1, 3, 5, 6] {
        line.extend(std::iter::repeat_n(false, glitch));
        line.extend(std::iter::repeat_n(true, 3 * divisor as usize));
    }
    let bytes = [0x00, 0xFF, 0x81];
    line.extend(serial_line(&bytes, divisor as f64, &mut rng));
    let got = receive(&mut uut, &line);
    assert_eq!(got.framing_errors, Vec::<u8>::new());
    assert_eq!(got.bytes, bytes);
}

#[test]
fn low_stop_bit_is_a_framing_error_and_a_break_is_waited_out() {
    let divisor = 16usize;
    let mut uut = new_rx(divisor as u64);
    let mut line = vec![true; 20];
    // 0x3C with a low stop bit, then the line held low (a break) for 30 bit times.
    line.extend(std::iter::repeat_n(false, divisor));
    for i in 0..8 {
        line.extend(std::iter::repeat_n(0x3Cu8 >> i & 1 == 1, divisor));
    }
    line.extend(std::iter::repeat_n(false, 31 * divisor));
    line.extend(std::iter::repeat_n(true, 2 * divisor));
    let mut rng = XorShift::new(9);
    line.extend(serial_line(&[0xC3, 0x42], divisor as f64, &mut rng));
    let got = receive(&mut uut, &line);
    assert_eq!(got.framing_errors, vec![0x3C]);
    assert_eq!(got.bytes, vec![0xC3, 0x42]);
}

#[test]
fn emitted_verilog_passes_lint_and_yosys_check() {
    let mut uut = new_rx(868);
    uut.clock.connect();
    uut.rx.connect();
    uut.connect_all();
    check_all(&uut).expect("rust-hdl checks");
    check_verilog("uart_rx", &generate_verilog(&uut));
}

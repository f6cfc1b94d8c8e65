//! Crc32, driven directly: the published check value, random messages against `crc32fast`, the
//! clear/valid timing, and the emitted Verilog.

mod serial_common;

use hdl::crc32::Crc32;
use microcode::rng::XorShift;
use rust_hdl::prelude::*;
use serial_common::{check_verilog, cycle};

fn new_crc() -> Crc32 {
    let mut uut = Crc32::default();
    uut.connect_all();
    uut
}

fn clock(uut: &mut Crc32) -> &mut Signal<In, Clock> {
    &mut uut.clock
}

fn crc_out(uut: &Crc32) -> u32 {
    uut.crc.val().to_u64() as u32
}

/// Feeds `message` after a clear, with random idle cycles between bytes; returns the CRC.
fn checksum(uut: &mut Crc32, message: &[u8], rng: &mut XorShift) -> u32 {
    uut.clear.next = true;
    uut.valid.next = false;
    cycle(uut, clock);
    uut.clear.next = false;
    for &byte in message {
        while rng.below(4) == 0 {
            uut.valid.next = false;
            uut.data.next = rng.byte().to_bits();
            cycle(uut, clock);
        }
        uut.valid.next = true;
        uut.data.next = byte.to_bits();
        cycle(uut, clock);
    }
    uut.valid.next = false;
    cycle(uut, clock);
    crc_out(uut)
}

#[test]
fn check_value_of_123456789() {
    // The CRC-32/ISO-HDLC catalogue's check value, from power-up without a clear.
    let mut uut = new_crc();
    assert_eq!(crc_out(&uut), 0);
    for &byte in b"123456789" {
        uut.valid.next = true;
        uut.data.next = byte.to_bits();
        cycle(&mut uut, clock);
    }
    assert_eq!(crc_out(&uut), 0xCBF4_3926);
}

#[test]
fn random_messages_match_crc32fast() {
    let mut rng = XorShift::new(32);
    let mut uut = new_crc();
    for round in 0..200 {
        let len = match round {
            0 => 0,
            1 => 1,
            _ => rng.below(300),
        };
        let message: Vec<u8> = (0..len).map(|_| rng.byte()).collect();
        let got = checksum(&mut uut, &message, &mut rng);
        assert_eq!(got, crc32fast::hash(&message), "message of {len} bytes");
    }
}

#[test]
fn clear_with_valid_starts_a_message_with_that_byte() {
    let mut rng = XorShift::new(5);
    let mut uut = new_crc();
    checksum(&mut uut, b"some earlier message", &mut rng);
    // Clear and the first byte at the same edge, then the rest back to back.
    let message = b"back to back";
    for (i, &byte) in message.iter().enumerate() {
        uut.clear.next = i == 0;
        uut.valid.next = true;
        uut.data.next = byte.to_bits();
        cycle(&mut uut, clock);
        // Registered: the CRC of the bytes so far is there right after each edge.
        assert_eq!(crc_out(&uut), crc32fast::hash(&message[..=i]));
    }
    // Idle cycles hold the value.
    uut.clear.next = false;
    uut.valid.next = false;
    for _ in 0..5 {
        cycle(&mut uut, clock);
        assert_eq!(crc_out(&uut), crc32fast::hash(message));
    }
}

#[test]
fn emitted_verilog_passes_lint_and_yosys_check() {
    let mut uut = Crc32::default();
    uut.clock.connect();
    uut.clear.connect();
    uut.data.connect();
    uut.valid.connect();
    uut.connect_all();
    check_all(&uut).expect("rust-hdl checks");
    check_verilog("crc32", &generate_verilog(&uut));
}

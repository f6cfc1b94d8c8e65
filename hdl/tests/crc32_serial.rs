//! Crc32Serial, driven directly: random messages against `crc32fast` (with `start` offered while
//! busy, which must be ignored), the residue after a message and its own CRC, the raw shift that
//! sends the CRC out byte by byte, and the emitted Verilog.

mod serial_common;

use hdl::crc32_serial::Crc32Serial;
use microcode::rng::XorShift;
use rust_hdl::prelude::*;
use serial_common::{check_verilog, cycle};

fn clock(uut: &mut Crc32Serial) -> &mut Signal<In, Clock> {
    &mut uut.clock
}

/// Offers `byte` until the unit takes it (not busy), then offers random bytes for the 7 clocks
/// of the 8 it is busy absorbing it, which it must ignore.
fn absorb(uut: &mut Crc32Serial, byte: u8, rng: &mut XorShift) {
    uut.data.next = byte.to_bits();
    uut.start.next = true;
    loop {
        settle(uut);
        let taken = !uut.busy.val();
        cycle(uut, clock);
        if taken {
            break;
        }
    }
    for _ in 0..7 {
        uut.data.next = rng.byte().to_bits();
        settle(uut);
        assert!(uut.busy.val());
        cycle(uut, clock);
    }
    uut.start.next = false;
}

fn settle(uut: &mut Crc32Serial) {
    assert!(simulate(uut, 20));
}

fn idle(uut: &mut Crc32Serial) {
    settle(uut);
    while uut.busy.val() {
        cycle(uut, clock);
        settle(uut);
    }
}

/// The published CRC, read out through `low` and the raw shift.
fn read_out(uut: &mut Crc32Serial) -> u32 {
    let mut v = 0u32;
    for i in 0..4 {
        idle(uut);
        v |= (uut.low.val().to_u64() as u32) << (8 * i);
        uut.shift.next = true;
        cycle(uut, clock);
        uut.shift.next = false;
    }
    idle(uut);
    v
}

#[test]
fn matches_crc32fast_and_checks_the_residue() {
    let mut uut = Crc32Serial::default();
    uut.connect_all();
    let mut rng = XorShift::new(5);
    for round in 0..40 {
        let n = if round == 0 { 9 } else { rng.below(40) };
        let message: Vec<u8> = if round == 0 {
            b"123456789".to_vec()
        } else {
            (0..n).map(|_| rng.byte()).collect()
        };
        uut.clear.next = true;
        cycle(&mut uut, clock);
        uut.clear.next = false;
        for &b in &message {
            absorb(&mut uut, b, &mut rng);
            for _ in 0..rng.below(3) {
                cycle(&mut uut, clock);
            }
        }
        idle(&mut uut);
        let want = crc32fast::hash(&message);
        if round == 0 {
            assert_eq!(want, 0xCBF4_3926);
        }
        assert_eq!(uut.residue.val(), want == 0x2144_DF1C, "round {round}");
        // Appending the CRC gives the residue; a wrong last byte does not.
        for (i, b) in want.to_le_bytes().iter().enumerate() {
            let b = if round % 2 == 1 && i == 3 { b ^ 1 } else { *b };
            absorb(&mut uut, b, &mut rng);
        }
        idle(&mut uut);
        assert_eq!(uut.residue.val(), round % 2 == 0, "round {round}");
        // Read out: the CRC of the message and its (possibly damaged) CRC.
        let mut whole = message.clone();
        let mut tail = want.to_le_bytes();
        if round % 2 == 1 {
            tail[3] ^= 1;
        }
        whole.extend_from_slice(&tail);
        assert_eq!(read_out(&mut uut), crc32fast::hash(&whole), "round {round}");
    }
}

#[test]
fn emitted_verilog_checks() {
    let mut uut = Crc32Serial::default();
    uut.connect_all();
    check_verilog("crc32_serial", &generate_verilog(&uut));
}

//! UartTx -> UartRx loopback of 10^4 random bytes, with random pauses between offers.

mod serial_common;

use hdl::baud::BaudDivisor;
use hdl::uart_rx::UartRx;
use hdl::uart_tx::UartTx;
use microcode::rng::XorShift;
use rust_hdl::prelude::*;
use serial_common::{cycle, settle};

#[test]
fn ten_thousand_random_bytes_survive_the_loopback() {
    let divisor = BaudDivisor::new(10).expect("valid divisor");
    let mut tx = UartTx::new(divisor);
    let mut rx = UartRx::new(divisor);
    tx.connect_all();
    rx.connect_all();
    let mut rng = XorShift::new(10_000);
    let bytes: Vec<u8> = (0..10_000).map(|_| rng.byte()).collect();

    let mut next = 0;
    let mut received = Vec::with_capacity(bytes.len());
    let mut framing_errors = 0;
    // Each frame takes 100 clocks; pauses add at most a few percent.
    let budget = bytes.len() * 130 + 1000;
    for _ in 0..budget {
        // Mostly streaming, sometimes pausing.
        tx.valid.next = next < bytes.len() && rng.below(8) != 0;
        tx.data.next = bytes.get(next).copied().unwrap_or(0).to_bits();
        settle(&mut tx);
        if tx.valid.val() && tx.ready.val() {
            next += 1;
        }
        rx.rx.next = tx.tx.val();
        cycle(&mut tx, |b| &mut b.clock);
        cycle(&mut rx, |b| &mut b.clock);
        if rx.valid.val() {
            received.push(rx.data.val().to_u64() as u8);
        }
        if rx.framing_error.val() {
            framing_errors += 1;
        }
        if received.len() == bytes.len() {
            break;
        }
    }
    assert_eq!(framing_errors, 0);
    assert_eq!(received.len(), bytes.len(), "bytes received");
    assert!(received == bytes, "received bytes differ from those sent");
}

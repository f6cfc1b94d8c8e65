//! Upload throughput against the line rate, from the frames actually sent and received.
//!
//! The line is half duplex in practice (the host waits for each ACK), so the time on the wire is the
//! bytes of both directions at 10 bit times per byte (8N1). Device turnaround is not counted.

mod common;

use common::*;

#[test]
fn upload_throughput_against_line_rate() {
    let (mut c, _served) = setup(fast());
    // A full-size image of the board configuration: 4 KiB program, 1 KiB constants, 4 KiB textures.
    let img = image(77, [4096, 1024, 4096]);
    let r = c.upload(&img, &mut |_, _| {}).unwrap();
    let wire = r.stats.bytes_sent + r.stats.bytes_received;
    let efficiency = r.bytes as f64 / wire as f64;
    println!(
        "upload of {} image bytes: {} requests, {} bytes sent, {} received, payload/wire = {:.3}",
        r.bytes, r.stats.requests, r.stats.bytes_sent, r.stats.bytes_received, efficiency
    );
    for baud in [115_200u32, 1_000_000, 3_000_000] {
        let line = f64::from(baud) / 10.0;
        let secs = wire as f64 / line;
        println!(
            "  at {baud} baud: line {line:.0} B/s, payload {:.0} B/s ({:.1}% of line), full image in {:.3} s",
            r.bytes as f64 / secs,
            100.0 * efficiency,
            secs
        );
    }
    // 251-byte chunks cost 266 request + 11 answer bytes plus stuffing: about 90% of the line.
    assert!(efficiency > 0.85 && efficiency < 0.95, "{efficiency}");
    assert_eq!(r.stats.attempts, r.stats.requests);
}

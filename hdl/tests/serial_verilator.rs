//! The emitted Verilog of UartTx -> UartRx -> Crc32, compiled with Verilator, against the rust-hdl
//! simulation of the same chain, cycle by cycle (rust-hdl's simulation and its Verilog can
//! disagree on widths). Skipped, with a note, when the toolchain is not installed.

mod serial_common;

use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;

use hdl::baud::BaudDivisor;
use hdl::crc32::Crc32;
use hdl::uart_rx::UartRx;
use hdl::uart_tx::UartTx;
use microcode::rng::XorShift;
use rust_hdl::prelude::*;
use serial_common::cycle;
use toolchain::{find, run_logged, Tool};

/// Bytes in through the transmitter, out of the receiver, into the CRC.
#[derive(LogicBlock)]
struct SerialChain {
    clock: Signal<In, Clock>,
    data: Signal<In, Bits<8>>,
    valid: Signal<In, Bit>,
    clear: Signal<In, Bit>,
    ready: Signal<Out, Bit>,
    line: Signal<Out, Bit>,
    rx_data: Signal<Out, Bits<8>>,
    rx_valid: Signal<Out, Bit>,
    rx_error: Signal<Out, Bit>,
    crc: Signal<Out, Bits<32>>,
    transmitter: UartTx,
    receiver: UartRx,
    checksum: Crc32,
}

impl SerialChain {
    fn new(divisor: BaudDivisor) -> Self {
        SerialChain {
            clock: Default::default(),
            data: Default::default(),
            valid: Default::default(),
            clear: Default::default(),
            ready: Default::default(),
            line: Default::default(),
            rx_data: Default::default(),
            rx_valid: Default::default(),
            rx_error: Default::default(),
            crc: Default::default(),
            transmitter: UartTx::new(divisor),
            receiver: UartRx::new(divisor),
            checksum: Crc32::default(),
        }
    }
}

impl Logic for SerialChain {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, transmitter, receiver, checksum);
        self.transmitter.data.next = self.data.val();
        self.transmitter.valid.next = self.valid.val();
        self.ready.next = self.transmitter.ready.val();
        self.line.next = self.transmitter.tx.val();
        self.receiver.rx.next = self.transmitter.tx.val();
        self.rx_data.next = self.receiver.data.val();
        self.rx_valid.next = self.receiver.valid.val();
        self.rx_error.next = self.receiver.framing_error.val();
        self.checksum.clear.next = self.clear.val();
        self.checksum.data.next = self.receiver.data.val();
        self.checksum.valid.next = self.receiver.valid.val();
        self.crc.next = self.checksum.crc.val();
    }
}

/// Reads "valid data clear" lines, applies each for one clock cycle, prints the outputs after it.
const HARNESS: &str = r#"
#include "Vtop.h"
#include "verilated.h"
#include <cstdio>

int main(int argc, char** argv) {
    if (argc != 3) return 2;
    VerilatedContext ctx;
    Vtop top{&ctx};
    FILE* in = std::fopen(argv[1], "r");
    FILE* out = std::fopen(argv[2], "w");
    if (!in || !out) return 2;
    top.clock = 0;
    top.eval();
    unsigned valid, data, clear;
    while (std::fscanf(in, "%u %u %u", &valid, &data, &clear) == 3) {
        top.valid = valid;
        top.data = data;
        top.clear = clear;
        top.eval();
        top.clock = 1;
        top.eval();
        top.clock = 0;
        top.eval();
        std::fprintf(out, "%u %u %u %u %u %08x\n", (unsigned)top.ready, (unsigned)top.line,
                     (unsigned)top.rx_valid, (unsigned)top.rx_error, (unsigned)top.rx_data,
                     (unsigned)top.crc);
    }
    top.final();
    std::fclose(out);
    return 0;
}
"#;

#[test]
fn verilator_runs_the_emitted_verilog_cycle_for_cycle_like_rust_hdl() {
    let Some(verilator) = toolchain::or_missing(find(Tool::Verilator)) else {
        return;
    };
    let divisor = BaudDivisor::new(8).expect("valid divisor");
    let mut rng = XorShift::new(0x5E41);

    // Stimulus: 250 random bytes offered with random pauses, a CRC clear now and then.
    let mut stimulus = Vec::new();
    for _ in 0..250 * 90 {
        let valid = rng.below(3) != 0;
        stimulus.push((valid, rng.byte(), rng.below(500) == 0));
    }

    let mut chain = SerialChain::new(divisor);
    chain.connect_all();
    check_all(&chain).expect("rust-hdl checks");
    let mut expected = String::new();
    let mut bytes_received = 0;
    for &(valid, data, clear) in &stimulus {
        chain.valid.next = valid;
        chain.data.next = data.to_bits();
        chain.clear.next = clear;
        cycle(&mut chain, |c| &mut c.clock);
        bytes_received += usize::from(chain.rx_valid.val());
        let _ = writeln!(
            expected,
            "{} {} {} {} {} {:08x}",
            u8::from(chain.ready.val()),
            u8::from(chain.line.val()),
            u8::from(chain.rx_valid.val()),
            u8::from(chain.rx_error.val()),
            chain.rx_data.val().to_u64(),
            chain.crc.val().to_u64()
        );
    }
    assert!(
        bytes_received > 200,
        "the stimulus must move bytes through ({bytes_received})"
    );

    let mut top = SerialChain::new(divisor);
    top.clock.connect();
    top.data.connect();
    top.valid.connect();
    top.clear.connect();
    top.connect_all();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("serial-verilator");
    fs::create_dir_all(&dir).expect("create the build directory");
    fs::write(dir.join("top.v"), generate_verilog(&top)).expect("write the Verilog");
    fs::write(dir.join("harness.cpp"), HARNESS).expect("write the harness");
    let lines: String = stimulus
        .iter()
        .map(|&(v, d, c)| format!("{} {} {}\n", u8::from(v), d, u8::from(c)))
        .collect();
    fs::write(dir.join("stimulus.txt"), lines).expect("write the stimulus");

    if let Err(error) = run_logged(
        verilator
            .command()
            .args(["--cc", "--exe", "--build", "-j", "2", "-Wno-WIDTH", "-O1"])
            .args([
                "--top-module",
                "top",
                "top.v",
                "harness.cpp",
                "-o",
                "serial_chain",
            ])
            .current_dir(&dir),
        &dir.join("verilator-build.log"),
    ) {
        panic!("{error}");
    }
    let model = dir.join("obj_dir").join("serial_chain");
    if let Err(error) = run_logged(
        std::process::Command::new(&model)
            .args(["stimulus.txt", "trace.txt"])
            .current_dir(&dir),
        &dir.join("run.log"),
    ) {
        panic!("{error}");
    }
    let actual = fs::read_to_string(dir.join("trace.txt")).expect("read the Verilator trace");
    let first_difference = expected
        .lines()
        .zip(actual.lines())
        .position(|(e, a)| e != a);
    assert_eq!(
        first_difference,
        None,
        "rust-hdl and Verilator differ (ready line rx_valid rx_error rx_data crc); see {}",
        dir.display()
    );
    assert_eq!(expected.lines().count(), actual.lines().count());
}

//! `Rom`: a read-only block RAM with contents fixed when the design is built (one registered read
//! port), for the transcendental tables of [`crate::trans_unit::TransUnit`].
//!
//! The Verilog is a memory with an `initial` block and a registered read, which yosys maps onto
//! iCE40 `SB_RAM40_4K` with its `INIT` parameters (no logic cells) and Verilator runs as written.
//!
//! Ports and timing (one clock, rising edge): `rd <= mem[ra]` at every edge (latency 1).
//! Sizes: `W` data bits, `2^A` words; one `SB_RAM40_4K` holds 256x16.
use rust_hdl::core::timing::TimingInfo;
use rust_hdl::prelude::*;
use std::fmt::Write;

/// Read-only block RAM; see the module documentation.
#[derive(LogicBlock)]
pub struct Rom<const W: usize, const A: usize> {
    /// Clock of the read port.
    pub clock: Signal<In, Clock>,
    /// Read address, sampled at every rising edge.
    pub ra: Signal<In, Bits<A>>,
    /// Read data: the word at `ra` as of the previous rising edge.
    pub rd: Signal<Out, Bits<W>>,
    _mem: Vec<u64>,
}

impl<const W: usize, const A: usize> Rom<W, A> {
    /// A ROM holding `words` (missing words are zero; bits above `W` are dropped).
    pub fn new(words: &[u64]) -> Self {
        let mask = if W >= 64 { u64::MAX } else { (1u64 << W) - 1 };
        let mut mem = vec![0u64; 1 << A];
        for (m, w) in mem.iter_mut().zip(words) {
            *m = w & mask;
        }
        Self {
            clock: Default::default(),
            ra: Default::default(),
            rd: Default::default(),
            _mem: mem,
        }
    }
}

impl<const W: usize, const A: usize> Logic for Rom<W, A> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.rd.next = self._mem[self.ra.val().index()].to_bits();
        }
    }

    fn connect(&mut self) {
        self.rd.connect();
    }

    fn hdl(&self) -> Verilog {
        let mut init = String::new();
        for (i, w) in self._mem.iter().enumerate() {
            let _ = writeln!(init, "   mem[{i}] = {W}'h{w:x};");
        }
        Verilog::Custom(format!(
            "\
reg [{msb}:0] mem [0:{last}];

initial begin
{init}end

always @(posedge clock) begin
   rd <= mem[ra];
end
",
            msb = W - 1,
            last = (1usize << A) - 1
        ))
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "rom".into(),
            clock: "clock".into(),
            inputs: vec!["ra".into()],
            outputs: vec!["rd".into()],
        }]
    }
}

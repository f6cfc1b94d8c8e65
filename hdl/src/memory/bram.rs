//! `Bram`: a simple dual-port block RAM (one write port, one registered read port, one clock)
//! whose Verilog maps onto iCE40 `SB_RAM40_4K` without yosys' read-first emulation.
//!
//! The stock rust-hdl `RAM` makes yosys add about 110 cells of collision logic; this block's
//! Verilog carries `(* no_rw_check *)`, which tells yosys that a read of the address being
//! written in the same cycle may return anything (hardware-and-tools.md, pitfall 10).
//!
//! Ports and timing (one clock, rising edge):
//! - write: when `we` is set, `mem[wa] <= wd` at the edge;
//! - read: `rd <= mem[ra]` at every edge (latency 1, one read per clock).
//!
//! A read of the address written at the same edge is **undefined** in hardware; this model
//! returns the old contents. Callers must not rely on either. Contents start at zero, or at the
//! words given to [`Bram::with_contents`].
//! Sizes: `W` data bits, `2^A` words; one `SB_RAM40_4K` holds 256x16 (or 512x8, 1024x4,
//! 2048x2), yosys uses as many as the shape needs, and every memory takes at least one.
use rust_hdl::core::timing::TimingInfo;
use rust_hdl::prelude::*;
use std::fmt::Write;

/// Simple dual-port block RAM with `2^A` words of `W` bits; see the module documentation.
#[derive(LogicBlock)]
pub struct Bram<const W: usize, const A: usize> {
    /// Clock of both ports.
    pub clock: Signal<In, Clock>,
    /// Write enable, sampled at the rising edge.
    pub we: Signal<In, Bit>,
    /// Write address.
    pub wa: Signal<In, Bits<A>>,
    /// Write data.
    pub wd: Signal<In, Bits<W>>,
    /// Read address, sampled at every rising edge.
    pub ra: Signal<In, Bits<A>>,
    /// Read data: the word at `ra` as of the previous rising edge.
    pub rd: Signal<Out, Bits<W>>,
    _mem: Vec<Bits<W>>,
    // The contents at configuration are not all zero (an `initial` block in the Verilog).
    _init: bool,
    // Words that exist (at most 2^A): yosys builds a 768-word memory from 3 block RAMs.
    _depth: usize,
}

impl<const W: usize, const A: usize> Bram<W, A> {
    /// A RAM whose contents at configuration are `words` (the rest zero; bits above `W`
    /// dropped): yosys puts them in the block RAMs' `INIT` parameters.
    pub fn with_contents(words: &[u64]) -> Self {
        Self::with_depth_and_contents(1 << A, words)
    }

    /// A RAM of only `depth` words (at most `2^A`; addresses beyond it read zero and write
    /// nothing) whose contents at configuration are `words`.
    pub fn with_depth_and_contents(depth: usize, words: &[u64]) -> Self {
        let depth = depth.clamp(1, 1 << A);
        let mut mem = vec![Bits::<W>::default(); depth];
        for (m, &w) in mem.iter_mut().zip(words) {
            *m = w.to_bits();
        }
        Self {
            _mem: mem,
            _init: words.iter().any(|&w| w != 0),
            _depth: depth,
            ..Default::default()
        }
    }
}

impl<const W: usize, const A: usize> Default for Bram<W, A> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            we: Default::default(),
            wa: Default::default(),
            wd: Default::default(),
            ra: Default::default(),
            rd: Default::default(),
            _mem: vec![Bits::<W>::default(); 1 << A],
            _init: false,
            _depth: 1 << A,
        }
    }
}

impl<const W: usize, const A: usize> Logic for Bram<W, A> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            // Read before write: the model's answer for a same-address collision (undefined in
            // hardware).
            self.rd.next = self
                ._mem
                .get(self.ra.val().index())
                .copied()
                .unwrap_or_default();
            if self.we.val() {
                if let Some(m) = self._mem.get_mut(self.wa.val().index()) {
                    *m = self.wd.val();
                }
            }
        }
    }

    fn connect(&mut self) {
        self.rd.connect();
    }

    fn hdl(&self) -> Verilog {
        let mut init = String::new();
        if self._init {
            init.push_str("initial begin\n");
            for (i, w) in self._mem.iter().enumerate() {
                let v: u64 = w.to_u64();
                let _ = writeln!(init, "   mem[{i}] = {W}'h{v:x};");
            }
            init.push_str("end\n\n");
        }
        Verilog::Custom(format!(
            "\
(* no_rw_check *)
reg [{msb}:0] mem [0:{last}];

{init}always @(posedge clock) begin
   if (we) mem[wa] <= wd;
   rd <= mem[ra];
end
",
            msb = W - 1,
            last = self._depth - 1
        ))
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "bram".into(),
            clock: "clock".into(),
            inputs: vec!["we".into(), "wa".into(), "wd".into(), "ra".into()],
            outputs: vec!["rd".into()],
        }]
    }
}

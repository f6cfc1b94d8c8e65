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
//! returns the old contents. Callers must not rely on either. Contents start at zero.
//! Sizes: `W` data bits, `2^A` words; one `SB_RAM40_4K` holds 256x16 (or 512x8, 1024x4,
//! 2048x2), yosys uses as many as the shape needs, and every memory takes at least one.
use rust_hdl::core::timing::TimingInfo;
use rust_hdl::prelude::*;

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
        }
    }
}

impl<const W: usize, const A: usize> Logic for Bram<W, A> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            // Read before write: the model's answer for a same-address collision (undefined in
            // hardware).
            self.rd.next = self._mem[self.ra.val().index()];
            if self.we.val() {
                let wa = self.wa.val().index();
                self._mem[wa] = self.wd.val();
            }
        }
    }

    fn connect(&mut self) {
        self.rd.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "\
(* no_rw_check *)
reg [{msb}:0] mem [0:{last}];

always @(posedge clock) begin
   if (we) mem[wa] <= wd;
   rd <= mem[ra];
end
",
            msb = W - 1,
            last = (1usize << A) - 1
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

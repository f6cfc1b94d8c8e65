//! `DelayRam`: a fixed delay of `delay` clocks for a `W`-bit value, kept in a block RAM instead of
//! a chain of flip-flops.
//!
//! On the HX8K every flip-flop that has no LUT in front of it still takes a whole logic cell, so
//! a 32-bit value carried 5 clocks costs 160 cells as a register chain and 2 block RAMs here. The
//! block is a circular buffer: each clock writes `d` at the counter and reads the word written
//! `delay - 1` clocks earlier (the read is registered, which adds the last clock).
//!
//! Ports and timing: `q` shows, in every cycle, the `d` of exactly `delay` cycles earlier
//! (`delay` from 2 to 256). Contents start at zero, so the first `delay` cycles read zero.
use crate::bram::Bram;
use rust_hdl::prelude::*;

/// A `delay`-clock delay line of `W` bits in block RAM; see the module documentation.
#[derive(LogicBlock)]
pub struct DelayRam<const W: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Input.
    pub d: Signal<In, Bits<W>>,
    /// `d` of `delay` clocks earlier.
    pub q: Signal<Out, Bits<W>>,
    mem: Bram<W, 8>,
    count: DFF<Bits<8>>,
    back: Constant<Bits<8>>,
}

impl<const W: usize> DelayRam<W> {
    /// A delay line of `delay` clocks (2..=256).
    pub fn new(delay: u32) -> Self {
        let back = delay.clamp(2, 256) - 1;
        DelayRam {
            clock: Default::default(),
            d: Default::default(),
            q: Default::default(),
            mem: Default::default(),
            count: Default::default(),
            back: Constant::new(u64::from(back).to_bits()),
        }
    }
}

impl<const W: usize> Logic for DelayRam<W> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count);
        clock!(self, clock, mem);
        self.count.d.next = self.count.q.val() + 1;
        self.mem.we.next = true;
        self.mem.wa.next = self.count.q.val();
        self.mem.wd.next = self.d.val();
        self.mem.ra.next = self.count.q.val() - self.back.val();
        self.q.next = self.mem.rd.val();
    }
}

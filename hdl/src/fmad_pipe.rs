//! `FmadPipe`: the core's one multiply-add pipeline, `fadd(fmul(a, b), c)` with two roundings
//! (never fused, as decisions.md demands): [`FMul`] followed by [`FAdd`], with `c` delayed to
//! meet the product.
//!
//! Timing: **latency 10 clocks, one operation per clock.** Operands presented before rising edge
//! *n* give `result` right after edge *n + 9*. ADD and SUB are `a * 1 + c` (exact: a product with
//! 1.0 only flushes and canonicalises, which the adder does anyway), MUL is `a * b + -0`.
use crate::delay_ram::DelayRam;
use crate::fadd::FAdd;
use crate::fmul::FMul;
use rust_hdl::prelude::*;

/// Latency of [`FmadPipe`] in clocks.
pub const FMAD_LATENCY: u32 = 10;

/// The multiply-add pipeline; see the module documentation.
#[derive(LogicBlock)]
pub struct FmadPipe {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Multiplicand.
    pub a: Signal<In, Bits<32>>,
    /// Multiplier.
    pub b: Signal<In, Bits<32>>,
    /// Addend.
    pub c: Signal<In, Bits<32>>,
    /// `fadd(fmul(a, b), c)`, [`FMAD_LATENCY`] clocks later.
    pub result: Signal<Out, Bits<32>>,
    mul: FMul,
    add: FAdd,
    // The addend waits for the product in block RAM (160 flip-flops otherwise).
    c_delay: DelayRam<32>,
}

impl Default for FmadPipe {
    fn default() -> Self {
        FmadPipe {
            clock: Default::default(),
            a: Default::default(),
            b: Default::default(),
            c: Default::default(),
            result: Default::default(),
            mul: Default::default(),
            add: Default::default(),
            c_delay: DelayRam::new(5),
        }
    }
}

impl Logic for FmadPipe {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, mul, add, c_delay);
        self.mul.a.next = self.a.val();
        self.mul.b.next = self.b.val();
        self.c_delay.d.next = self.c.val();
        self.add.a.next = self.mul.result.val();
        self.add.b.next = self.c_delay.q.val();
        self.add.sub.next = false;
        self.result.next = self.add.result.val();
    }
}

//! `FmadPipe`: the core's one multiply-add pipeline, `fadd(fmul(a, b), c)` with two roundings
//! (never fused, as decisions.md demands): [`FMul`] followed by [`FAdd`]. The addend meets the
//! product 5 clocks after the factors: the core delays it in a block RAM it shares with the
//! address stack (`shader_core.rs`). The conversions of [`FAdd`] (round to integral, float to
//! int, int to float, `EXPX`) convert the addend and ignore the product: the core routes their
//! operand to `c`.
//!
//! Timing: **latency 10 clocks, one operation per clock.** `a` and `b` presented before rising
//! edge *n* and `c` before edge *n + 5* give `result` right after edge *n + 9*. ADD and SUB are
//! `a * 1 + c` (exact: a product with 1.0 only flushes and canonicalises, which the adder does
//! anyway), MUL is `a * b + -0`.
use crate::fadd::{AddOp, FAdd, RoundMode};
use crate::fmul::FMul;
use rust_hdl::prelude::*;

/// Latency of [`FmadPipe`] in clocks.
pub const FMAD_LATENCY: u32 = 10;

/// Clocks from the factors to the addend: the multiplier's latency.
pub const ADDEND_DELAY: u32 = 5;

/// The multiply-add pipeline; see the module documentation.
#[derive(LogicBlock, Default)]
pub struct FmadPipe {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Multiplicand.
    pub a: Signal<In, Bits<32>>,
    /// Multiplier.
    pub b: Signal<In, Bits<32>>,
    /// Addend, [`ADDEND_DELAY`] clocks after `a` and `b`.
    pub c: Signal<In, Bits<32>>,
    /// What the adder does ([`FAdd::op`]), with `a` and `b`.
    pub op: Signal<In, AddOp>,
    /// Rounding direction of a conversion ([`FAdd::round`]), with `a` and `b`.
    pub round: Signal<In, RoundMode>,
    /// `fadd(fmul(a, b), c)`, [`FMAD_LATENCY`] clocks later.
    pub result: Signal<Out, Bits<32>>,
    mul: FMul,
    add: FAdd,
    // The adder's controls wait for the product with the addend.
    op_q: [DFF<AddOp>; ADDEND_DELAY as usize],
    round_q: [DFF<RoundMode>; ADDEND_DELAY as usize],
}

impl FmadPipe {
    /// The pipeline with its multiplier's product on multiplier blocks ([`FMul::with_dsp`]).
    pub fn with_dsp() -> FmadPipe {
        FmadPipe {
            mul: FMul::with_dsp(),
            ..FmadPipe::default()
        }
    }
}

impl Logic for FmadPipe {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, mul, add);
        for i in 0..5 {
            self.op_q[i].clock.next = self.clock.val();
            self.round_q[i].clock.next = self.clock.val();
        }
        self.op_q[0].d.next = self.op.val();
        self.round_q[0].d.next = self.round.val();
        for i in 1..5 {
            self.op_q[i].d.next = self.op_q[i - 1].q.val();
            self.round_q[i].d.next = self.round_q[i - 1].q.val();
        }
        self.mul.a.next = self.a.val();
        self.mul.b.next = self.b.val();
        self.add.a.next = self.mul.result.val();
        self.add.b.next = self.c.val();
        self.add.op.next = self.op_q[4].q.val();
        self.add.round.next = self.round_q[4].q.val();
        self.add.sub.next = false;
        self.result.next = self.add.result.val();
    }
}

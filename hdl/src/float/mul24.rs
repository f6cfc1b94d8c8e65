//! `Mul24`: the 24x24-bit unsigned product of the float multiplier's significands on the ECP5's
//! 18x18 multipliers (`MULT18X18D`), for [`crate::fmul::FMul::with_dsp`]. Its Verilog is written
//! by hand (`Verilog::Custom`) because rust-hdl multiplies only 16x16: four products of 17-bit
//! and 7-bit pieces (`a = ah 2^17 + al`, likewise `b`), each a `*` that yosys `synth_ecp5` maps
//! onto one multiplier block, registered; their sum is combinational.
//!
//! Timing: `a` and `b` presented before rising edge *n* give `p = a * b` after edge *n*
//! (the registered pieces, summed), stable for the clock that follows: one register stage,
//! where the radix-4 rows of [`crate::fmul::FMul`] take two (its stage 3 registers `p`).
use rust_hdl::core::timing::TimingInfo;
use rust_hdl::prelude::*;

/// Width of a low piece: 17 bits, so that every piece fits an 18x18 signed multiplier as an
/// unsigned number.
pub const PIECE: u32 = 17;

/// The 24x24 product on multiplier blocks; see the module documentation.
#[derive(LogicBlock, Default)]
pub struct Mul24 {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// A 24-bit factor.
    pub a: Signal<In, Bits<24>>,
    /// The other.
    pub b: Signal<In, Bits<24>>,
    /// `a * b`, one rising edge after the factors.
    pub p: Signal<Out, Bits<48>>,
    // The registered pieces: al*bl, al*bh, ah*bl, ah*bh.
    _pieces: [u64; 4],
}

impl Logic for Mul24 {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            let mask = (1u64 << PIECE) - 1;
            let (a, b) = (self.a.val().to_u64(), self.b.val().to_u64());
            let (al, ah, bl, bh) = (a & mask, a >> PIECE, b & mask, b >> PIECE);
            self._pieces = [al * bl, al * bh, ah * bl, ah * bh];
        }
        let [ll, lh, hl, hh] = self._pieces;
        let sum = ll + ((lh + hl) << PIECE) + (hh << (2 * PIECE));
        self.p.next = sum.to_bits();
    }

    fn connect(&mut self) {
        self.p.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(
            "\
reg [33:0] ll;
reg [23:0] lh;
reg [23:0] hl;
reg [13:0] hh;

always @(posedge clock) begin
   ll <= a[16:0] * b[16:0];
   lh <= a[16:0] * b[23:17];
   hl <= a[23:17] * b[16:0];
   hh <= a[23:17] * b[23:17];
end

always @(*) begin
   p = {14'd0, ll} + ({24'd0, lh} << 17) + ({24'd0, hl} << 17) + ({34'd0, hh} << 34);
end
"
            .into(),
        )
    }

    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "mul24".into(),
            clock: "clock".into(),
            inputs: vec!["a".into(), "b".into()],
            outputs: vec!["p".into()],
        }]
    }
}

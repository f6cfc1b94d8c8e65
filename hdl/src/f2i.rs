//! `F2I`: binary32 to int32 in a chosen rounding direction (`ARL` = floor, `ARR` = nearest even,
//! truncation), saturating, pipelined.
//!
//! Semantics (decisions.md section 2, the same as `microcode::arith::{f2i_floor, f2i_round,
//! f2i_trunc}`): the operand is first rounded to an integral float by [`FRound`] (subnormals are
//! zero), then converted: NaN gives 0, values beyond int32 saturate to `i32::MIN`/`i32::MAX`.
//!
//! Timing: **latency 5 clocks, throughput one operand per clock**: three [`FRound`] stages, a
//! 5-level right shifter placing the significand (stage 4), a 32-bit negation chain and the
//! saturation select (stage 5).
use crate::fround::{FRound, RoundMode};
use rust_hdl::prelude::*;

/// Float to saturating int32 converter; see the module documentation.
#[derive(LogicBlock, Default)]
pub struct F2I {
    /// Clock; everything happens on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Operand (binary32 bits).
    pub a: Signal<In, Bits<32>>,
    /// Rounding direction for this operand.
    pub mode: Signal<In, RoundMode>,
    /// The int32 result (two's complement bits), 5 rising edges after the operand.
    pub result: Signal<Out, Bits<32>>,
    /// The integral float of the inner [`FRound`] (`FLR`/`CEIL`/`TRUNC`/`ROUND`), 3 rising edges
    /// after the operand: the core shares one rounding unit between both uses.
    pub integral: Signal<Out, Bits<32>>,

    round: FRound,
    s4c_sig: Signal<Local, Bits<32>>,
    s4c_shift: Signal<Local, Bits<8>>,
    s4_mag: DFF<Bits<32>>,
    s4_sign: DFF<Bit>,
    // The integral value is zero or NaN (result 0), or at least 2^31 in magnitude (saturate).
    s4_zero: DFF<Bit>,
    s4_sat: DFF<Bit>,
    s5c_neg: Signal<Local, Bits<32>>,
    s5_result: DFF<Bits<32>>,
}

impl Logic for F2I {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, s4_mag, s4_sign, s4_zero, s4_sat, s5_result);
        self.integral.next = self.round.result.val();
        self.round.clock.next = self.clock.val();
        self.round.a.next = self.a.val();
        self.round.mode.next = self.mode.val();

        // ---- Stage 4: magnitude = significand (hidden bit at 31) >> (158 - exp).
        self.s4c_sig.next = (bit_cast::<32, 23>(self.round.result.val().get_bits::<23>(0)) << 8)
            | !bits::<32>(0x7FFF_FFFF);
        self.s4c_shift.next = bits::<8>(158) - self.round.result.val().get_bits::<8>(23);
        self.s4_mag.d.next = self.s4c_sig.val() >> self.s4c_shift.val().get_bits::<5>(0);
        self.s4_sign.d.next = self.round.result.val().get_bit(31);
        // exp < 127: |x| < 1 (an integral value, so zero); exp = 255 with a fraction: NaN.
        self.s4_zero.d.next = (self.round.result.val().get_bits::<8>(23) < 127)
            | ((self.round.result.val().get_bits::<8>(23) == 255)
                & (self.round.result.val().get_bits::<23>(0) != 0));
        self.s4_sat.d.next = self.round.result.val().get_bits::<8>(23) >= 158;

        // ---- Stage 5: sign, saturation.
        self.s5c_neg.next = bits::<32>(0) - self.s4_mag.q.val();
        self.s5_result.d.next = self.s4_mag.q.val();
        if self.s4_sign.q.val() {
            self.s5_result.d.next = self.s5c_neg.val();
        }
        if self.s4_sat.q.val() {
            self.s5_result.d.next = bits::<32>(0x7FFF_FFFF);
            if self.s4_sign.q.val() {
                self.s5_result.d.next = !bits::<32>(0x7FFF_FFFF);
            }
        }
        if self.s4_zero.q.val() {
            self.s5_result.d.next = bits::<32>(0);
        }
        self.result.next = self.s5_result.q.val();
    }
}

//! `FRound`: binary32 round to integral (`FLR`, `CEIL`, `TRUNC`, `ROUND`), pipelined.
//!
//! Semantics (decisions.md section 2, the same as `microcode::arith::fround_integral`): IEEE
//! roundToIntegral in the selected direction, keeping the sign of a zero result
//! (`floor(-0.5)` = -1, `ceil(-0.5)` = -0); `ROUND` rounds half to even; subnormal inputs count as
//! zeros of their sign; infinities pass; every NaN becomes `0x7FC00000`.
//!
//! Timing: **latency 3 clocks, throughput one operand per clock** (operand presented before
//! rising edge *n*, result right after edge *n + 2*).
//!
//! Method: with `e = exp - 127` in 0..=22 the low `23 - e` fraction bits are the fraction. Stage 1
//! builds that mask and the one-hot step `1 << (23 - e)` (two 5-level constant shifters);
//! stage 2 clears the fraction and decides the increment; stage 3 adds the step to the whole
//! 31-bit magnitude (one chain), so a carry out of the significand bumps the exponent for free.
//! `|x| < 1` and `|x| >= 2^23` are decided on the side.
use rust_hdl::prelude::*;

/// Rounding direction of [`FRound`].
#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum RoundMode {
    /// Toward minus infinity (`FLR`).
    Floor,
    /// Toward plus infinity (`CEIL`).
    Ceil,
    /// Toward zero (`TRUNC`).
    Trunc,
    /// To nearest, ties to even (`ROUND`).
    NearestEven,
}

/// Round-to-integral unit; see the module documentation.
#[derive(LogicBlock, Default)]
pub struct FRound {
    /// Clock; everything happens on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Operand (binary32 bits).
    pub a: Signal<In, Bits<32>>,
    /// Rounding direction for this operand.
    pub mode: Signal<In, RoundMode>,
    /// The integral value (binary32 bits), 3 rising edges after the operand was presented.
    pub result: Signal<Out, Bits<32>>,

    s1c_e: Signal<Local, Bits<8>>,
    s1_mag: DFF<Bits<31>>,
    s1_sign: DFF<Bit>,
    s1_mode: DFF<RoundMode>,
    // Fraction bits (below the binary point) within the 23-bit field, and 1 << (23 - e).
    s1_mask: DFF<Bits<23>>,
    s1_step: DFF<Bits<24>>,
    s1_nan: DFF<Bit>,
    // |x| >= 2^23 or infinite: already integral.
    s1_big: DFF<Bit>,
    // |x| < 1 (zero and subnormal included).
    s1_small: DFF<Bit>,
    s1_zero: DFF<Bit>,
    // e = 0: the integer part is the hidden bit alone (odd).
    s1_one: DFF<Bit>,
    // |x| > 1/2 (`ROUND` below 1; exactly 1/2 is a tie that goes to the even zero).
    s1_gt_half: DFF<Bit>,

    s2c_frac: Signal<Local, Bits<23>>,
    s2c_not_mask: Signal<Local, Bits<31>>,
    s2c_half_mask: Signal<Local, Bits<23>>,
    s2c_lsb_mask: Signal<Local, Bits<23>>,
    s2c_inv23: Signal<Local, Bits<23>>,
    s2c_any: Signal<Local, Bit>,
    s2c_half: Signal<Local, Bit>,
    s2c_rest: Signal<Local, Bit>,
    s2c_lsb: Signal<Local, Bit>,
    s2c_inc: Signal<Local, Bit>,
    s2c_sign32: Signal<Local, Bits<32>>,
    s2_cleared: DFF<Bits<31>>,
    s2_addend: DFF<Bits<31>>,
    s2_sign: DFF<Bit>,
    // The whole result when it is decided without the adder.
    s2_force: DFF<Bit>,
    s2_forced: DFF<Bits<32>>,

    s3c_sum: Signal<Local, Bits<31>>,
    s3_result: DFF<Bits<32>>,
}

impl Logic for FRound {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, s1_mag, s1_sign, s1_mode, s1_mask, s1_step, s1_nan, s1_big, s1_small,
            s1_zero, s1_one, s1_gt_half, s2_cleared, s2_addend, s2_sign, s2_force, s2_forced,
            s3_result
        );
        // ---- Stage 1: classify, build the masks.
        self.s1c_e.next = self.a.val().get_bits::<8>(23) - 127;
        self.s1_mag.d.next = self.a.val().get_bits::<31>(0);
        self.s1_sign.d.next = self.a.val().get_bit(31);
        self.s1_mode.d.next = self.mode.val();
        self.s1_mask.d.next = bits::<23>(0x7F_FFFF) >> self.s1c_e.val().get_bits::<5>(0);
        self.s1_step.d.next = bits::<24>(0x80_0000) >> self.s1c_e.val().get_bits::<5>(0);
        self.s1_nan.d.next =
            (self.a.val().get_bits::<8>(23) == 255) & (self.a.val().get_bits::<23>(0) != 0);
        self.s1_big.d.next = self.a.val().get_bits::<8>(23) >= 150;
        self.s1_small.d.next = self.a.val().get_bits::<8>(23) < 127;
        self.s1_zero.d.next = self.a.val().get_bits::<8>(23) == 0;
        self.s1_one.d.next = self.a.val().get_bits::<8>(23) == 127;
        self.s1_gt_half.d.next =
            (self.a.val().get_bits::<8>(23) == 126) & (self.a.val().get_bits::<23>(0) != 0);

        // ---- Stage 2: fraction bits, increment decision, the cleared magnitude.
        self.s2c_frac.next = self.s1_mag.q.val().get_bits::<23>(0);
        self.s2c_inv23.next = !self.s1_mask.q.val();
        self.s2c_not_mask.next = !bit_cast::<31, 23>(self.s1_mask.q.val());
        self.s2c_half_mask.next = self.s1_mask.q.val() ^ (self.s1_mask.q.val() >> 1);
        self.s2c_lsb_mask.next = self.s2c_inv23.val() & ((self.s1_mask.q.val() << 1) | 1);
        self.s2c_any.next = (self.s2c_frac.val() & self.s1_mask.q.val()).any();
        self.s2c_half.next = (self.s2c_frac.val() & self.s2c_half_mask.val()).any();
        self.s2c_rest.next = (self.s2c_frac.val() & (self.s1_mask.q.val() >> 1)).any();
        self.s2c_lsb.next =
            self.s1_one.q.val() | (self.s2c_frac.val() & self.s2c_lsb_mask.val()).any();
        match self.s1_mode.q.val() {
            RoundMode::Floor => self.s2c_inc.next = self.s1_sign.q.val() & self.s2c_any.val(),
            RoundMode::Ceil => self.s2c_inc.next = !self.s1_sign.q.val() & self.s2c_any.val(),
            RoundMode::Trunc => self.s2c_inc.next = false,
            _ => {
                self.s2c_inc.next = self.s2c_half.val() & (self.s2c_rest.val() | self.s2c_lsb.val())
            }
        }
        self.s2_cleared.d.next = self.s1_mag.q.val() & self.s2c_not_mask.val();
        self.s2_addend.d.next = bits::<31>(0);
        if self.s2c_inc.val() {
            self.s2_addend.d.next = bit_cast::<31, 24>(self.s1_step.q.val());
        }
        self.s2_sign.d.next = self.s1_sign.q.val();
        self.s2c_sign32.next = bit_cast::<32, 1>(self.s1_sign.q.val().into()) << 31;
        // |x| < 1: a zero of x's sign, or 1.0 of x's sign when rounding away from zero.
        self.s2_force.d.next = self.s1_nan.q.val() | self.s1_big.q.val() | self.s1_small.q.val();
        self.s2_forced.d.next = self.s2c_sign32.val();
        match self.s1_mode.q.val() {
            RoundMode::Floor => {
                if self.s1_sign.q.val() & !self.s1_zero.q.val() {
                    self.s2_forced.d.next = self.s2c_sign32.val() | bits::<32>(0x3F80_0000);
                }
            }
            RoundMode::Ceil => {
                if !self.s1_sign.q.val() & !self.s1_zero.q.val() {
                    self.s2_forced.d.next = self.s2c_sign32.val() | bits::<32>(0x3F80_0000);
                }
            }
            RoundMode::Trunc => {}
            _ => {
                if self.s1_gt_half.q.val() {
                    self.s2_forced.d.next = self.s2c_sign32.val() | bits::<32>(0x3F80_0000);
                }
            }
        }
        if self.s1_big.q.val() {
            self.s2_forced.d.next = self.s2c_sign32.val() | bit_cast::<32, 31>(self.s1_mag.q.val());
        }
        if self.s1_nan.q.val() {
            self.s2_forced.d.next = bits::<32>(0x7FC0_0000);
        }

        // ---- Stage 3: add the step (a carry out of the significand bumps the exponent).
        self.s3c_sum.next = self.s2_cleared.q.val() + self.s2_addend.q.val();
        self.s3_result.d.next = (bit_cast::<32, 1>(self.s2_sign.q.val().into()) << 31)
            | bit_cast::<32, 31>(self.s3c_sum.val());
        if self.s2_force.q.val() {
            self.s3_result.d.next = self.s2_forced.q.val();
        }
        self.result.next = self.s3_result.q.val();
    }
}

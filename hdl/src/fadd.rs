//! `FAdd`: a fully pipelined IEEE-754 binary32 adder/subtractor (flush-to-zero, one NaN).
//!
//! Semantics (decisions.md section 2): subnormal inputs count as zero with their sign; the sum
//! is rounded to nearest-even; a subnormal result is flushed to zero with its sign (a sum of two
//! binary32 numbers below 2^-126 is always exact, so no result rounds up into the normal range);
//! every NaN result is `0x7FC00000`; `inf - inf` is NaN; an exact zero sum is `+0` unless both
//! operands are (effectively) `-0`.
//!
//! Timing: **latency 5 clocks, throughput one operation per clock.** Operands presented on
//! `a`/`b`/`sub` before rising edge *n* produce `result` right after rising edge *n + 4*.
//!
//! Pipeline:
//! 1. unpack, 31-bit magnitude compare, both exponent differences; swap so that `big` has the
//!    larger magnitude; clamp the alignment distance to 31; special operands;
//! 2. align the smaller significand (5-level right shifter) with guard, round and sticky bits;
//! 3. add or subtract (one 29-bit chain) and count the leading zeros of the 28-bit sum
//!    ([`Lzc32`], four LUT levels): the longest stage, which limits Fmax (89-97 MHz measured);
//! 4. normalise (5-level left shifter), the result exponent and its range flags, and the whole
//!    result when it does not depend on rounding (NaN, infinity, exact zero, flush);
//! 5. round to nearest even (23-bit increment chain, an AND tree for its carry-out), overflow,
//!    pack.
use crate::lzc::Lzc32;
use rust_hdl::prelude::*;

/// Pipelined binary32 adder/subtractor; see the module documentation for semantics and timing.
#[derive(LogicBlock, Default)]
pub struct FAdd {
    /// Clock; everything happens on its rising edge.
    pub clock: Signal<In, Clock>,
    /// First operand (binary32 bits).
    pub a: Signal<In, Bits<32>>,
    /// Second operand (binary32 bits).
    pub b: Signal<In, Bits<32>>,
    /// When set, compute `a - b` (the sign of `b` is flipped before anything else).
    pub sub: Signal<In, Bit>,
    /// `a + b` or `a - b` (binary32 bits), 5 rising edges after the operands were presented.
    pub result: Signal<Out, Bits<32>>,

    // Stage 1 combinational values.
    s1c_sb: Signal<Local, Bit>,
    s1c_a_zero: Signal<Local, Bit>,
    s1c_b_zero: Signal<Local, Bit>,
    s1c_a_inf: Signal<Local, Bit>,
    s1c_b_inf: Signal<Local, Bit>,
    s1c_a_nan: Signal<Local, Bit>,
    s1c_b_nan: Signal<Local, Bit>,
    s1c_ma: Signal<Local, Bits<24>>,
    s1c_mb: Signal<Local, Bits<24>>,
    s1c_a_ge_b: Signal<Local, Bit>,
    s1c_dab: Signal<Local, Bits<8>>,
    s1c_dba: Signal<Local, Bits<8>>,
    s1_e_big: DFF<Bits<8>>,
    s1_m_big: DFF<Bits<24>>,
    s1_m_small: DFF<Bits<24>>,
    s1_dist: DFF<Bits<5>>,
    s1_sign: DFF<Bit>,
    s1_eff_sub: DFF<Bit>,
    s1_nan: DFF<Bit>,
    s1_inf: DFF<Bit>,
    s1_inf_sign: DFF<Bit>,
    s1_zero_sign: DFF<Bit>,

    // Stage 2: alignment, one shift level (16, 8, 4, 2, 1) after the other, collecting sticky.
    s2c_v0: Signal<Local, Bits<27>>,
    s2c_v1: Signal<Local, Bits<27>>,
    s2c_v2: Signal<Local, Bits<27>>,
    s2c_v3: Signal<Local, Bits<27>>,
    s2c_v4: Signal<Local, Bits<27>>,
    s2c_v5: Signal<Local, Bits<27>>,
    s2c_sticky: Signal<Local, Bit>,
    s2_e_big: DFF<Bits<8>>,
    s2_m_big: DFF<Bits<24>>,
    s2_aligned: DFF<Bits<27>>,
    s2_sign: DFF<Bit>,
    s2_eff_sub: DFF<Bit>,
    s2_nan: DFF<Bit>,
    s2_inf: DFF<Bit>,
    s2_inf_sign: DFF<Bit>,
    s2_zero_sign: DFF<Bit>,

    // Stage 3: add/subtract, leading zeros.
    s3c_not_aligned: Signal<Local, Bits<27>>,
    s3c_x: Signal<Local, Bits<29>>,
    s3c_y: Signal<Local, Bits<29>>,
    s3c_sum29: Signal<Local, Bits<29>>,
    s3c_sum: Signal<Local, Bits<28>>,
    lzc: Lzc32,
    s3_sum: DFF<Bits<28>>,
    s3_lz: DFF<Bits<5>>,
    s3_e_big: DFF<Bits<8>>,
    s3_sign: DFF<Bit>,
    s3_nan: DFF<Bit>,
    s3_inf: DFF<Bit>,
    s3_inf_sign: DFF<Bit>,
    s3_zero_sign: DFF<Bit>,

    // Stage 4: normalise; the result exponent is e_big + 1 - lz (10-bit two's complement).
    s4c_e: Signal<Local, Bits<10>>,
    s4_norm: DFF<Bits<28>>,
    s4_exp: DFF<Bits<8>>,
    s4_exp_inc: DFF<Bits<8>>,
    s4c_le0: Signal<Local, Bit>,
    s4c_is_zero: Signal<Local, Bit>,
    s4_ovf: DFF<Bit>,
    s4_max: DFF<Bit>,
    s4_sign: DFF<Bit>,
    // The whole result when it does not depend on rounding (NaN, infinity, exact zero, flush),
    // and whether it applies.
    s4_force: DFF<Bit>,
    s4_special: DFF<Bits<32>>,

    // Stage 5: round and pack.
    s5c_frac: Signal<Local, Bits<23>>,
    s5c_finc: Signal<Local, Bits<23>>,
    s5c_ones: Signal<Local, Bit>,
    s5c_round: Signal<Local, Bit>,
    s5c_carry: Signal<Local, Bit>,
    s5c_mant: Signal<Local, Bits<32>>,
    s5c_exp: Signal<Local, Bits<32>>,
    s5c_sign32: Signal<Local, Bits<32>>,
    s5_result: DFF<Bits<32>>,
}

impl Logic for FAdd {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            s1_e_big,
            s1_m_big,
            s1_m_small,
            s1_dist,
            s1_sign,
            s1_eff_sub,
            s1_nan,
            s1_inf,
            s1_inf_sign,
            s1_zero_sign,
            s2_e_big,
            s2_m_big,
            s2_aligned,
            s2_sign,
            s2_eff_sub,
            s2_nan,
            s2_inf,
            s2_inf_sign,
            s2_zero_sign,
            s3_sum,
            s3_lz,
            s3_e_big,
            s3_sign,
            s3_nan,
            s3_inf,
            s3_inf_sign,
            s3_zero_sign,
            s4_norm,
            s4_exp,
            s4_exp_inc,
            s4_ovf,
            s4_max,
            s4_sign,
            s4_force,
            s4_special,
            s5_result
        );

        // ---- Stage 1. A zero exponent field (zero or subnormal) is a zero operand.
        self.s1c_sb.next = self.b.val().get_bit(31) ^ self.sub.val();
        self.s1c_a_zero.next = self.a.val().get_bits::<8>(23) == 0;
        self.s1c_b_zero.next = self.b.val().get_bits::<8>(23) == 0;
        self.s1c_a_inf.next =
            (self.a.val().get_bits::<8>(23) == 255) & (self.a.val().get_bits::<23>(0) == 0);
        self.s1c_b_inf.next =
            (self.b.val().get_bits::<8>(23) == 255) & (self.b.val().get_bits::<23>(0) == 0);
        self.s1c_a_nan.next =
            (self.a.val().get_bits::<8>(23) == 255) & (self.a.val().get_bits::<23>(0) != 0);
        self.s1c_b_nan.next =
            (self.b.val().get_bits::<8>(23) == 255) & (self.b.val().get_bits::<23>(0) != 0);
        self.s1c_ma.next =
            bit_cast::<24, 23>(self.a.val().get_bits::<23>(0)) | bits::<24>(0x800000);
        if self.s1c_a_zero.val() {
            self.s1c_ma.next = bits::<24>(0);
        }
        self.s1c_mb.next =
            bit_cast::<24, 23>(self.b.val().get_bits::<23>(0)) | bits::<24>(0x800000);
        if self.s1c_b_zero.val() {
            self.s1c_mb.next = bits::<24>(0);
        }
        // Comparing the raw magnitudes orders the values (a subnormal only ever meets another
        // zero-valued operand or a larger normal, so its flushed significand is harmless).
        self.s1c_a_ge_b.next = self.a.val().get_bits::<31>(0) >= self.b.val().get_bits::<31>(0);
        self.s1c_dab.next = self.a.val().get_bits::<8>(23) - self.b.val().get_bits::<8>(23);
        self.s1c_dba.next = self.b.val().get_bits::<8>(23) - self.a.val().get_bits::<8>(23);
        if self.s1c_a_ge_b.val() {
            self.s1_e_big.d.next = self.a.val().get_bits::<8>(23);
            self.s1_m_big.d.next = self.s1c_ma.val();
            self.s1_m_small.d.next = self.s1c_mb.val();
            self.s1_sign.d.next = self.a.val().get_bit(31);
            self.s1_dist.d.next = self.s1c_dab.val().get_bits::<5>(0);
            if self.s1c_dab.val().get_bits::<3>(5).any() {
                self.s1_dist.d.next = bits::<5>(31);
            }
        } else {
            self.s1_e_big.d.next = self.b.val().get_bits::<8>(23);
            self.s1_m_big.d.next = self.s1c_mb.val();
            self.s1_m_small.d.next = self.s1c_ma.val();
            self.s1_sign.d.next = self.s1c_sb.val();
            self.s1_dist.d.next = self.s1c_dba.val().get_bits::<5>(0);
            if self.s1c_dba.val().get_bits::<3>(5).any() {
                self.s1_dist.d.next = bits::<5>(31);
            }
        }
        self.s1_eff_sub.d.next = self.a.val().get_bit(31) ^ self.s1c_sb.val();
        self.s1_nan.d.next = self.s1c_a_nan.val()
            | self.s1c_b_nan.val()
            | (self.s1c_a_inf.val()
                & self.s1c_b_inf.val()
                & (self.a.val().get_bit(31) ^ self.s1c_sb.val()));
        self.s1_inf.d.next = self.s1c_a_inf.val() | self.s1c_b_inf.val();
        self.s1_inf_sign.d.next = self.s1c_sb.val();
        if self.s1c_a_inf.val() {
            self.s1_inf_sign.d.next = self.a.val().get_bit(31);
        }
        // IEEE round-to-nearest: an exact zero sum is -0 only for (-0) + (-0).
        self.s1_zero_sign.d.next = self.a.val().get_bit(31) & self.s1c_sb.val();

        // ---- Stage 2: the 27-bit window is significand, guard, round, sticky.
        self.s2c_v0.next = bit_cast::<27, 24>(self.s1_m_small.q.val()) << 3;
        self.s2c_sticky.next = false;
        self.s2c_v1.next = self.s2c_v0.val();
        if self.s1_dist.q.val().get_bit(4) {
            self.s2c_v1.next = self.s2c_v0.val() >> 16;
        }
        self.s2c_v2.next = self.s2c_v1.val();
        if self.s1_dist.q.val().get_bit(3) {
            self.s2c_v2.next = self.s2c_v1.val() >> 8;
        }
        self.s2c_v3.next = self.s2c_v2.val();
        if self.s1_dist.q.val().get_bit(2) {
            self.s2c_v3.next = self.s2c_v2.val() >> 4;
        }
        self.s2c_v4.next = self.s2c_v3.val();
        if self.s1_dist.q.val().get_bit(1) {
            self.s2c_v4.next = self.s2c_v3.val() >> 2;
        }
        self.s2c_v5.next = self.s2c_v4.val();
        if self.s1_dist.q.val().get_bit(0) {
            self.s2c_v5.next = self.s2c_v4.val() >> 1;
        }
        // Bits that fall off the bottom at each level.
        if (self.s1_dist.q.val().get_bit(4) & self.s2c_v0.val().get_bits::<16>(0).any())
            | (self.s1_dist.q.val().get_bit(3) & self.s2c_v1.val().get_bits::<8>(0).any())
            | (self.s1_dist.q.val().get_bit(2) & self.s2c_v2.val().get_bits::<4>(0).any())
            | (self.s1_dist.q.val().get_bit(1) & self.s2c_v3.val().get_bits::<2>(0).any())
            | (self.s1_dist.q.val().get_bit(0) & self.s2c_v4.val().get_bit(0))
        {
            self.s2c_sticky.next = true;
        }
        self.s2_aligned.d.next =
            self.s2c_v5.val() | bit_cast::<27, 1>(self.s2c_sticky.val().into());
        self.s2_e_big.d.next = self.s1_e_big.q.val();
        self.s2_m_big.d.next = self.s1_m_big.q.val();
        self.s2_sign.d.next = self.s1_sign.q.val();
        self.s2_eff_sub.d.next = self.s1_eff_sub.q.val();
        self.s2_nan.d.next = self.s1_nan.q.val();
        self.s2_inf.d.next = self.s1_inf.q.val();
        self.s2_inf_sign.d.next = self.s1_inf_sign.q.val();
        self.s2_zero_sign.d.next = self.s1_zero_sign.q.val();

        // ---- Stage 3: sum = big +/- aligned in a 28-bit frame (hidden bit of big at bit 26).
        // Subtraction adds the complement plus one; the +1 enters through an extra low bit
        // (1 + eff_sub) so that the whole operation is a single 29-bit carry chain.
        self.s3c_x.next = (bit_cast::<29, 24>(self.s2_m_big.q.val()) << 4) | bits::<29>(1);
        self.s3c_y.next = bit_cast::<29, 27>(self.s2_aligned.q.val()) << 1;
        // A sized local: `~` inside a wider Verilog expression would complement the extension.
        self.s3c_not_aligned.next = !self.s2_aligned.q.val();
        if self.s2_eff_sub.q.val() {
            self.s3c_y.next =
                (bit_cast::<29, 27>(self.s3c_not_aligned.val()) << 1) | bits::<29>(0x1000_0001);
        }
        self.s3c_sum29.next = self.s3c_x.val() + self.s3c_y.val();
        self.s3c_sum.next = self.s3c_sum29.val().get_bits::<28>(1);
        self.s3_sum.d.next = self.s3c_sum.val();
        // Leading zeros of the 28-bit sum (meaningless for an all-zero sum, caught later).
        self.lzc.x.next = bit_cast::<32, 28>(self.s3c_sum.val()) << 4;
        self.s3_lz.d.next = self.lzc.count.val();
        self.s3_e_big.d.next = self.s2_e_big.q.val();
        self.s3_sign.d.next = self.s2_sign.q.val();
        self.s3_nan.d.next = self.s2_nan.q.val();
        self.s3_inf.d.next = self.s2_inf.q.val();
        self.s3_inf_sign.d.next = self.s2_inf_sign.q.val();
        self.s3_zero_sign.d.next = self.s2_zero_sign.q.val();

        // ---- Stage 4: shift the leading one to bit 27; exponent e_big + 1 - lz.
        self.s4_norm.d.next = self.s3_sum.q.val() << self.s3_lz.q.val();
        self.s4c_e.next =
            (bit_cast::<10, 8>(self.s3_e_big.q.val()) + 1) - bit_cast::<10, 5>(self.s3_lz.q.val());
        self.s4_exp.d.next = self.s4c_e.val().get_bits::<8>(0);
        self.s4_exp_inc.d.next = self.s4c_e.val().get_bits::<8>(0) + 1;
        // e <= 0: negative (bit 9) or zero; e >= 255 can only be 255 (e_big = 254, carry out).
        self.s4c_le0.next = self.s4c_e.val().get_bit(9) | (self.s4c_e.val() == 0);
        self.s4_ovf.d.next =
            !self.s4c_e.val().get_bit(9) & (self.s4c_e.val().get_bits::<9>(0) >= 255);
        self.s4_max.d.next = self.s4c_e.val() == 254;
        self.s4c_is_zero.next = !self.s3_sum.q.val().any();
        self.s4_sign.d.next = self.s3_sign.q.val();
        self.s4_force.d.next =
            self.s3_nan.q.val() | self.s3_inf.q.val() | self.s4c_is_zero.val() | self.s4c_le0.val();
        // Later assignments win: flush, exact zero, infinity, NaN.
        self.s4_special.d.next = bit_cast::<32, 1>(self.s3_sign.q.val().into()) << 31;
        if self.s4c_is_zero.val() {
            self.s4_special.d.next = bit_cast::<32, 1>(self.s3_zero_sign.q.val().into()) << 31;
        }
        if self.s3_inf.q.val() {
            self.s4_special.d.next = (bit_cast::<32, 1>(self.s3_inf_sign.q.val().into()) << 31)
                | bits::<32>(0x7F80_0000);
        }
        if self.s3_nan.q.val() {
            self.s4_special.d.next = bits::<32>(0x7FC0_0000);
        }

        // ---- Stage 5: significand norm[27:4], guard norm[3], sticky |norm[2:0].
        self.s5c_round.next = self.s4_norm.q.val().get_bit(3)
            & (self.s4_norm.q.val().get_bits::<3>(0).any() | self.s4_norm.q.val().get_bit(4));
        self.s5c_frac.next = self.s4_norm.q.val().get_bits::<23>(4);
        self.s5c_finc.next = self.s5c_frac.val() + 1;
        // Rounding carries into the exponent only from an all-ones fraction (the leading one at
        // bit 27 is always set); an AND tree says so sooner than the increment chain.
        self.s5c_ones.next = self.s5c_frac.val().all();
        self.s5c_carry.next = self.s5c_round.val() & self.s5c_ones.val();
        self.s5c_mant.next = bit_cast::<32, 23>(self.s4_norm.q.val().get_bits::<23>(4));
        if self.s5c_round.val() {
            self.s5c_mant.next = bit_cast::<32, 23>(self.s5c_finc.val());
        }
        self.s5c_exp.next = bit_cast::<32, 8>(self.s4_exp.q.val()) << 23;
        if self.s5c_carry.val() {
            self.s5c_exp.next = bit_cast::<32, 8>(self.s4_exp_inc.q.val()) << 23;
        }
        self.s5c_sign32.next = bit_cast::<32, 1>(self.s4_sign.q.val().into()) << 31;
        self.s5_result.d.next = self.s5c_sign32.val() | self.s5c_exp.val() | self.s5c_mant.val();
        if self.s4_ovf.q.val() | (self.s4_max.q.val() & self.s5c_carry.val()) {
            self.s5_result.d.next = self.s5c_sign32.val() | bits::<32>(0x7F80_0000);
        }
        if self.s4_force.q.val() {
            self.s5_result.d.next = self.s4_special.q.val();
        }
        self.result.next = self.s5_result.q.val();
    }
}

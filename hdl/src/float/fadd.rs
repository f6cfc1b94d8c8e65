//! `FAdd`: a fully pipelined IEEE-754 binary32 adder/subtractor (flush-to-zero, one NaN) that
//! also converts: round to integral (`FLR`, `CEIL`, `TRNC`, `RNDE`), float to int32 (`F2IF`,
//! `F2IR`), int32 and uint32 to float (`I2F`, `U2F`) and `EXPX` (`2^floor(x)`). The conversions
//! need the adder's own parts, an alignment shifter, a leading-zero count, a normalising shifter
//! and a rounding increment, so they cost a few multiplexers here instead of a unit of their own.
//!
//! Semantics (decisions.md section 2, the same as `microcode::arith`): `Add`: subnormal inputs
//! count as zero with their sign; the sum is rounded to nearest-even; a subnormal result is
//! flushed to zero with its sign (a sum of two binary32 numbers below 2^-126 is always exact, so
//! no result rounds up into the normal range); every NaN result is `0x7FC00000`; `inf - inf` is
//! NaN; an exact zero sum is `+0` unless both operands are (effectively) `-0`. The conversions
//! read their operand on `b` (`a` is ignored): `Integral` is `fround_integral` in the `round`
//! direction, `F2i` is `f2i_floor` (`Floor`) or `f2i_round` (`NearestEven`), `I2fS`/`I2fU` are
//! `i2f`/`u2f`, `Expx` is `fexp2_floor`.
//!
//! Timing: **latency 5 clocks, throughput one operation per clock.** Operands presented on
//! `a`/`b`/`sub`/`op`/`round` before rising edge *n* produce `result` right after rising edge
//! *n + 4*.
//!
//! Pipeline:
//! 1. unpack, 31-bit magnitude compare, both exponent differences; swap so that `big` has the
//!    larger magnitude; clamp the alignment distance to 31; special operands. A rounding
//!    conversion adds `x` to a phantom `big` of exponent 150 and significand 0, so that the
//!    alignment puts `x`'s units digit at the window's bit 3 (guard, round and sticky below
//!    it); an int-to-float conversion takes the int's bits into `big` (bits 31..8) and `small`
//!    (bits 7..0) with exponent 157;
//! 2. align the smaller significand (5-level right shifter) with guard, round and sticky bits;
//! 3. add or subtract (one 33-bit chain into a 32-bit frame; a rounding conversion adds its
//!    rounding increment at the units digit and drops the fraction bits; an int-to-float
//!    conversion negates a negative int here) and count the leading zeros of the frame
//!    ([`Lzc32`], four LUT levels): the longest stage;
//! 4. normalise (5-level left shifter; a float-to-int conversion shifts its integer left by the
//!    exponent above 150 instead), the result exponent and its range flags, and the whole
//!    result when it does not depend on rounding (NaN, infinity, exact zero, flush);
//! 5. round to nearest even (23-bit increment chain, an AND tree for its carry-out), overflow,
//!    pack; or negate and saturate the integer (`F2i`), or make `2^n` of it (`Expx`).
use crate::float_unpack::FloatUnpack;
use crate::lzc::Lzc32;
use rust_hdl::prelude::*;

/// Rounding direction of [`AddOp::Integral`] and [`AddOp::F2i`].
#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum RoundMode {
    /// Toward minus infinity (`FLR`, `F2IF`, `EXPX`).
    Floor,
    /// Toward plus infinity (`CEIL`).
    Ceil,
    /// Toward zero (`TRNC`).
    Trunc,
    /// To nearest, ties to even (`RNDE`, `F2IR`).
    NearestEven,
}

/// What [`FAdd`] computes.
#[derive(Copy, Clone, Debug, PartialEq, LogicState)]
pub enum AddOp {
    /// `a + b` (or `a - b` with `sub`).
    Add,
    /// `b` rounded to an integral float in the `round` direction.
    Integral,
    /// `b` rounded in the `round` direction to a saturating int32 (NaN gives 0).
    F2i,
    /// `b` as int32 to float.
    I2fS,
    /// `b` as uint32 to float.
    I2fU,
    /// `2^floor(b)` (NaN gives NaN, the flush rule below 2^-126, infinity above 2^127).
    Expx,
}

/// Pipelined binary32 adder/subtractor and converter; see the module documentation for
/// semantics and timing.
#[derive(LogicBlock, Default)]
pub struct FAdd {
    /// Clock; everything happens on its rising edge.
    pub clock: Signal<In, Clock>,
    /// First operand (binary32 bits); unused by the conversions.
    pub a: Signal<In, Bits<32>>,
    /// Second operand (binary32 bits), or the operand of a conversion (int bits for `I2fS` and
    /// `I2fU`).
    pub b: Signal<In, Bits<32>>,
    /// When set, compute `a - b` (the sign of `b` is flipped before anything else; `Add` only).
    pub sub: Signal<In, Bit>,
    /// The operation.
    pub op: Signal<In, AddOp>,
    /// Rounding direction of `Integral` and `F2i` (`Floor` for `Expx`).
    pub round: Signal<In, RoundMode>,
    /// The result (binary32 bits, or int32 bits for `F2i`), 5 rising edges after the operands.
    pub result: Signal<Out, Bits<32>>,

    // Stage 1 combinational values.
    s1c_conv: Signal<Local, Bit>,
    s1c_i2f: Signal<Local, Bit>,
    s1c_aa: Signal<Local, Bits<32>>,
    s1c_sb: Signal<Local, Bit>,
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
    s1_op: DFF<AddOp>,
    s1_round: DFF<RoundMode>,

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
    s2_op: DFF<AddOp>,
    s2_round: DFF<RoundMode>,

    // Stage 3: add/subtract (or round a conversion), leading zeros of the 32-bit frame.
    s3c_rconv: Signal<Local, Bit>,
    s3c_frac: Signal<Local, Bit>,
    s3c_inc: Signal<Local, Bit>,
    s3c_i2f: Signal<Local, Bit>,
    s3c_neg: Signal<Local, Bit>,
    s3c_aligned: Signal<Local, Bits<27>>,
    s3c_frame_y: Signal<Local, Bits<32>>,
    s3c_not_frame_y: Signal<Local, Bits<32>>,
    s3c_ilo: Signal<Local, Bits<8>>,
    s3c_ihi: Signal<Local, Bits<24>>,
    s3c_x: Signal<Local, Bits<33>>,
    s3c_y: Signal<Local, Bits<33>>,
    s3c_sum33: Signal<Local, Bits<33>>,
    s3c_frame: Signal<Local, Bits<32>>,
    s3c_sum32: Signal<Local, Bits<32>>,
    unpack_a: FloatUnpack,
    unpack_b: FloatUnpack,
    lzc: Lzc32,
    s3_sum: DFF<Bits<32>>,
    s3_lz: DFF<Bits<5>>,
    s3_e_big: DFF<Bits<8>>,
    s3_sign: DFF<Bit>,
    s3_nan: DFF<Bit>,
    s3_inf: DFF<Bit>,
    s3_inf_sign: DFF<Bit>,
    s3_zero_sign: DFF<Bit>,
    s3_op: DFF<AddOp>,

    // Stage 4: normalise; the result exponent is e_big + 1 - lz (10-bit two's complement). A
    // float-to-int conversion shifts by the exponent above 150 instead.
    s4c_int: Signal<Local, Bit>,
    s4c_e: Signal<Local, Bits<10>>,
    s4c_k: Signal<Local, Bits<8>>,
    s4c_shift: Signal<Local, Bits<5>>,
    s4_norm: DFF<Bits<32>>,
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
    // The integer result: saturate (|b| >= 2^31 or infinite), NaN (0); which result leaves.
    s4_isat: DFF<Bit>,
    s4_inan: DFF<Bit>,
    s4_op: DFF<AddOp>,

    // Stage 5: round and pack, or the integer and 2^n.
    s5c_frac: Signal<Local, Bits<23>>,
    s5c_finc: Signal<Local, Bits<23>>,
    s5c_ones: Signal<Local, Bit>,
    s5c_round: Signal<Local, Bit>,
    s5c_carry: Signal<Local, Bit>,
    s5c_mant: Signal<Local, Bits<32>>,
    s5c_exp: Signal<Local, Bits<32>>,
    s5c_sign32: Signal<Local, Bits<32>>,
    s5c_float: Signal<Local, Bits<32>>,
    s5c_ineg: Signal<Local, Bits<32>>,
    s5c_int: Signal<Local, Bits<32>>,
    s5c_n8: Signal<Local, Bits<8>>,
    s5c_e2: Signal<Local, Bits<8>>,
    s5c_high: Signal<Local, Bit>,
    s5c_expx: Signal<Local, Bits<32>>,
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
            s1_op,
            s1_round,
            s2_e_big,
            s2_m_big,
            s2_aligned,
            s2_sign,
            s2_eff_sub,
            s2_nan,
            s2_inf,
            s2_inf_sign,
            s2_zero_sign,
            s2_op,
            s2_round,
            s3_sum,
            s3_lz,
            s3_e_big,
            s3_sign,
            s3_nan,
            s3_inf,
            s3_inf_sign,
            s3_zero_sign,
            s3_op,
            s4_norm,
            s4_exp,
            s4_exp_inc,
            s4_ovf,
            s4_max,
            s4_sign,
            s4_force,
            s4_special,
            s4_isat,
            s4_inan,
            s4_op,
            s5_result
        );

        // ---- Stage 1. A zero exponent field (zero or subnormal) is a zero operand. A rounding
        // conversion replaces `a` by the phantom +-0x4B000000 (exponent 150, the sign of `b`,
        // no hidden bit), so that `b` aligns with its units digit at the window's bit 3.
        self.s1c_conv.next = (self.op.val() == AddOp::Integral)
            | (self.op.val() == AddOp::F2i)
            | (self.op.val() == AddOp::Expx);
        self.s1c_i2f.next = (self.op.val() == AddOp::I2fS) | (self.op.val() == AddOp::I2fU);
        self.s1c_aa.next = self.a.val();
        if self.s1c_conv.val() {
            self.s1c_aa.next = (self.b.val() & !bits::<32>(0x7FFF_FFFF)) | bits::<32>(0x4B00_0000);
        }
        self.s1c_sb.next = self.b.val().get_bit(31) ^ self.sub.val();
        self.unpack_a.x.next = self.s1c_aa.val();
        self.unpack_b.x.next = self.b.val();
        self.s1c_ma.next = self.unpack_a.sig.val();
        if self.unpack_a.zero.val() | self.s1c_conv.val() {
            self.s1c_ma.next = bits::<24>(0);
        }
        self.s1c_mb.next = self.unpack_b.sig.val();
        if self.unpack_b.zero.val() {
            self.s1c_mb.next = bits::<24>(0);
        }
        // Comparing the raw magnitudes orders the values (a subnormal only ever meets another
        // zero-valued operand or a larger normal, so its flushed significand is harmless).
        self.s1c_a_ge_b.next =
            self.s1c_aa.val().get_bits::<31>(0) >= self.b.val().get_bits::<31>(0);
        self.s1c_dab.next = self.s1c_aa.val().get_bits::<8>(23) - self.b.val().get_bits::<8>(23);
        self.s1c_dba.next = self.b.val().get_bits::<8>(23) - self.s1c_aa.val().get_bits::<8>(23);
        if self.s1c_a_ge_b.val() {
            self.s1_e_big.d.next = self.s1c_aa.val().get_bits::<8>(23);
            self.s1_m_big.d.next = self.s1c_ma.val();
            self.s1_m_small.d.next = self.s1c_mb.val();
            self.s1_sign.d.next = self.s1c_aa.val().get_bit(31);
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
        self.s1_eff_sub.d.next = self.s1c_aa.val().get_bit(31) ^ self.s1c_sb.val();
        self.s1_nan.d.next = self.unpack_a.nan.val()
            | self.unpack_b.nan.val()
            | (self.unpack_a.inf.val()
                & self.unpack_b.inf.val()
                & (self.s1c_aa.val().get_bit(31) ^ self.s1c_sb.val()));
        self.s1_inf.d.next = self.unpack_a.inf.val() | self.unpack_b.inf.val();
        self.s1_inf_sign.d.next = self.s1c_sb.val();
        if self.unpack_a.inf.val() {
            self.s1_inf_sign.d.next = self.s1c_aa.val().get_bit(31);
        }
        // IEEE round-to-nearest: an exact zero sum is -0 only for (-0) + (-0); a rounding
        // conversion keeps the sign of its operand (`floor(-0.5)` = -1, `ceil(-0.5)` = -0).
        self.s1_zero_sign.d.next = self.s1c_aa.val().get_bit(31) & self.s1c_sb.val();
        if self.s1c_conv.val() {
            self.s1_zero_sign.d.next = self.b.val().get_bit(31);
        }
        // An int-to-float conversion: its bits in the big (bits 31..8) and small (7..0)
        // significands, which stage 3 puts together (negated for a negative int32) as a 32-bit
        // frame (exponent 157: the frame's bit 31 weighs 2^31).
        if self.s1c_i2f.val() {
            self.s1_e_big.d.next = bits::<8>(157);
            self.s1_m_big.d.next = self.b.val().get_bits::<24>(8);
            self.s1_m_small.d.next = bit_cast::<24, 8>(self.b.val().get_bits::<8>(0));
            self.s1_dist.d.next = bits::<5>(0);
            self.s1_sign.d.next = (self.op.val() == AddOp::I2fS) & self.b.val().get_bit(31);
            self.s1_eff_sub.d.next = false;
            self.s1_nan.d.next = false;
            self.s1_inf.d.next = false;
            self.s1_zero_sign.d.next = false;
        }
        self.s1_op.d.next = self.op.val();
        self.s1_round.d.next = self.round.val();

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
        self.s2_op.d.next = self.s1_op.q.val();
        self.s2_round.d.next = self.s1_round.q.val();

        // ---- Stage 3: sum = big +/- aligned. A rounding conversion (big is 0) drops the
        // fraction (guard, round, sticky) and adds its rounding increment at the units digit,
        // bit 3 of the aligned window.
        self.s3c_rconv.next = (self.s2_op.q.val() == AddOp::Integral)
            | (self.s2_op.q.val() == AddOp::F2i)
            | (self.s2_op.q.val() == AddOp::Expx);
        self.s3c_frac.next = self.s2_aligned.q.val().get_bits::<3>(0).any();
        match self.s2_round.q.val() {
            RoundMode::Floor => {
                self.s3c_inc.next = self.s2_sign.q.val() & self.s3c_frac.val();
            }
            RoundMode::Ceil => {
                self.s3c_inc.next = !self.s2_sign.q.val() & self.s3c_frac.val();
            }
            RoundMode::Trunc => {
                self.s3c_inc.next = false;
            }
            _ => {
                self.s3c_inc.next = self.s2_aligned.q.val().get_bit(2)
                    & (self.s2_aligned.q.val().get_bits::<2>(0).any()
                        | self.s2_aligned.q.val().get_bit(3));
            }
        }
        self.s3c_aligned.next = self.s2_aligned.q.val();
        if self.s3c_rconv.val() {
            self.s3c_aligned.next = self.s2_aligned.q.val() & !bits::<27>(7);
        } else {
            self.s3c_inc.next = false;
        }
        // One 33-bit chain gives the 32-bit frame (the sum at bits 31..4, big's hidden bit at
        // 30); its bit 0 takes the carry-in (1 + cin). Subtraction adds the complement of the
        // aligned frame plus one. An int-to-float conversion adds its two parts, both
        // complemented with a carry-in for a negative int32: its magnitude.
        self.s3c_i2f.next =
            (self.s2_op.q.val() == AddOp::I2fS) | (self.s2_op.q.val() == AddOp::I2fU);
        self.s3c_neg.next = self.s3c_i2f.val() & self.s2_sign.q.val();
        self.s3c_frame_y.next = bit_cast::<32, 27>(self.s3c_aligned.val()) << 4;
        // A sized local: `~` inside a wider Verilog expression would complement the extension.
        self.s3c_not_frame_y.next = !self.s3c_frame_y.val();
        self.s3c_ilo.next = self.s2_aligned.q.val().get_bits::<8>(3);
        self.s3c_ihi.next = self.s2_m_big.q.val();
        if self.s3c_neg.val() {
            self.s3c_ilo.next = !self.s2_aligned.q.val().get_bits::<8>(3);
            self.s3c_ihi.next = !self.s2_m_big.q.val();
        }
        self.s3c_x.next = (bit_cast::<33, 24>(self.s2_m_big.q.val()) << 8)
            | (bit_cast::<33, 1>(self.s3c_inc.val().into()) << 8)
            | bits::<33>(1);
        self.s3c_y.next = bit_cast::<33, 32>(self.s3c_frame_y.val()) << 1;
        if self.s2_eff_sub.q.val() {
            self.s3c_y.next = (bit_cast::<33, 32>(self.s3c_not_frame_y.val()) << 1) | bits::<33>(1);
        }
        if self.s3c_i2f.val() {
            self.s3c_x.next = (bit_cast::<33, 24>(self.s3c_ihi.val()) << 9) | bits::<33>(1);
            self.s3c_y.next = (bit_cast::<33, 8>(self.s3c_ilo.val()) << 1)
                | bit_cast::<33, 1>(self.s3c_neg.val().into());
        }
        self.s3c_sum33.next = self.s3c_x.val() + self.s3c_y.val();
        self.s3c_frame.next = self.s3c_sum33.val().get_bits::<32>(1);
        // What stage 4 shifts: the frame, or a float-to-int conversion's integer (bits 31..7).
        self.s3c_sum32.next = self.s3c_frame.val();
        if (self.s2_op.q.val() == AddOp::F2i) | (self.s2_op.q.val() == AddOp::Expx) {
            self.s3c_sum32.next = self.s3c_frame.val() >> 7;
        }
        self.s3_sum.d.next = self.s3c_sum32.val();
        // Leading zeros of the frame (meaningless for an all-zero frame, caught later).
        self.lzc.x.next = self.s3c_frame.val();
        self.s3_lz.d.next = self.lzc.count.val();
        self.s3_e_big.d.next = self.s2_e_big.q.val();
        self.s3_sign.d.next = self.s2_sign.q.val();
        self.s3_nan.d.next = self.s2_nan.q.val();
        self.s3_inf.d.next = self.s2_inf.q.val();
        self.s3_inf_sign.d.next = self.s2_inf_sign.q.val();
        self.s3_zero_sign.d.next = self.s2_zero_sign.q.val();
        self.s3_op.d.next = self.s2_op.q.val();

        // ---- Stage 4: shift the leading one to bit 31; exponent e_big + 1 - lz. A float-to-
        // int conversion shifts its integer left by e_big - 150 (0..7 below saturation).
        self.s4c_int.next =
            (self.s3_op.q.val() == AddOp::F2i) | (self.s3_op.q.val() == AddOp::Expx);
        self.s4c_k.next = self.s3_e_big.q.val() - bits::<8>(150);
        self.s4c_shift.next = self.s3_lz.q.val();
        if self.s4c_int.val() {
            self.s4c_shift.next = bit_cast::<5, 3>(self.s4c_k.val().get_bits::<3>(0));
        }
        self.s4_norm.d.next = self.s3_sum.q.val() << self.s4c_shift.val();
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
        // |b| >= 2^31 (exponent 158 and up) or infinite: the int saturates.
        self.s4_isat.d.next = self.s3_inf.q.val() | (self.s3_e_big.q.val() >= bits::<8>(158));
        self.s4_inan.d.next = self.s3_nan.q.val();
        self.s4_op.d.next = self.s3_op.q.val();

        // ---- Stage 5: significand norm[31:8], guard norm[7], sticky |norm[6:0].
        self.s5c_round.next = self.s4_norm.q.val().get_bit(7)
            & (self.s4_norm.q.val().get_bits::<7>(0).any() | self.s4_norm.q.val().get_bit(8));
        self.s5c_frac.next = self.s4_norm.q.val().get_bits::<23>(8);
        self.s5c_finc.next = self.s5c_frac.val() + 1;
        // Rounding carries into the exponent only from an all-ones fraction (the leading one at
        // bit 31 is always set); an AND tree says so sooner than the increment chain.
        self.s5c_ones.next = self.s5c_frac.val().all();
        self.s5c_carry.next = self.s5c_round.val() & self.s5c_ones.val();
        self.s5c_mant.next = bit_cast::<32, 23>(self.s5c_frac.val());
        if self.s5c_round.val() {
            self.s5c_mant.next = bit_cast::<32, 23>(self.s5c_finc.val());
        }
        self.s5c_exp.next = bit_cast::<32, 8>(self.s4_exp.q.val()) << 23;
        if self.s5c_carry.val() {
            self.s5c_exp.next = bit_cast::<32, 8>(self.s4_exp_inc.q.val()) << 23;
        }
        self.s5c_sign32.next = bit_cast::<32, 1>(self.s4_sign.q.val().into()) << 31;
        self.s5c_float.next = self.s5c_sign32.val() | self.s5c_exp.val() | self.s5c_mant.val();
        if self.s4_ovf.q.val() | (self.s4_max.q.val() & self.s5c_carry.val()) {
            self.s5c_float.next = self.s5c_sign32.val() | bits::<32>(0x7F80_0000);
        }
        if self.s4_force.q.val() {
            self.s5c_float.next = self.s4_special.q.val();
        }
        // The int: the magnitude negated for a negative operand, saturated, 0 for NaN.
        self.s5c_ineg.next = bits::<32>(0) - self.s4_norm.q.val();
        self.s5c_int.next = self.s4_norm.q.val();
        if self.s4_sign.q.val() {
            self.s5c_int.next = self.s5c_ineg.val();
        }
        if self.s4_isat.q.val() {
            self.s5c_int.next = bits::<32>(0x7FFF_FFFF);
            if self.s4_sign.q.val() {
                self.s5c_int.next = !bits::<32>(0x7FFF_FFFF);
            }
        }
        if self.s4_inan.q.val() {
            self.s5c_int.next = bits::<32>(0);
        }
        // 2^n for n = +-magnitude: the exponent field 127 + n while -126 <= n <= 127, else 0
        // (flushed) or infinity.
        self.s5c_n8.next = self.s4_norm.q.val().get_bits::<8>(0);
        self.s5c_high.next = self.s4_norm.q.val().get_bits::<25>(7).any();
        self.s5c_e2.next = bits::<8>(127) + self.s5c_n8.val();
        if self.s4_sign.q.val() {
            self.s5c_e2.next = bits::<8>(127) - self.s5c_n8.val();
        }
        self.s5c_expx.next = bit_cast::<32, 8>(self.s5c_e2.val()) << 23;
        if self.s4_sign.q.val() {
            if self.s5c_high.val() | (self.s5c_n8.val() == bits::<8>(127)) | self.s4_isat.q.val() {
                self.s5c_expx.next = bits::<32>(0);
            }
        } else if self.s5c_high.val() | self.s4_isat.q.val() {
            self.s5c_expx.next = bits::<32>(0x7F80_0000);
        }
        if self.s4_inan.q.val() {
            self.s5c_expx.next = bits::<32>(0x7FC0_0000);
        }
        self.s5_result.d.next = self.s5c_float.val();
        if self.s4_op.q.val() == AddOp::F2i {
            self.s5_result.d.next = self.s5c_int.val();
        }
        if self.s4_op.q.val() == AddOp::Expx {
            self.s5_result.d.next = self.s5c_expx.val();
        }
        self.result.next = self.s5_result.q.val();
    }
}

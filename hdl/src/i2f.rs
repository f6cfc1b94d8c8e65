//! `I2F`: int32 (or uint32) to binary32, rounding to nearest even (`I2F`), pipelined.
//!
//! Semantics (decisions.md section 2, the same as `microcode::arith::i2f`): 0 gives +0; every
//! other value is exact up to 2^24 in magnitude and rounded to nearest even beyond (never
//! subnormal, never overflows).
//!
//! Timing: **latency 4 clocks, throughput one operand per clock**: absolute value (32-bit chain),
//! leading-zero count ([`Lzc32`], four LUT levels), normalising shift (5 levels) with the
//! exponent `158 - lz`, then rounding (guard bit 7, sticky bits 6..0, a 23-bit increment chain)
//! and packing.
use crate::lzc::Lzc32;
use rust_hdl::prelude::*;

/// int32 to float converter; see the module documentation.
#[derive(LogicBlock, Default)]
pub struct I2F {
    /// Clock; everything happens on its rising edge.
    pub clock: Signal<In, Clock>,
    /// The int32 operand (two's complement bits), or uint32 with `unsigned`.
    pub a: Signal<In, Bits<32>>,
    /// Read `a` as uint32 (`U2F`).
    pub as_unsigned: Signal<In, Bit>,
    /// The binary32 result, 4 rising edges after the operand.
    pub result: Signal<Out, Bits<32>>,

    s1c_neg: Signal<Local, Bits<32>>,
    s1_mag: DFF<Bits<32>>,
    s1_sign: DFF<Bit>,
    lzc: Lzc32,
    s2_mag: DFF<Bits<32>>,
    s2_lz: DFF<Bits<5>>,
    s2_sign: DFF<Bit>,
    s2_zero: DFF<Bit>,
    s3_norm: DFF<Bits<32>>,
    s3_exp: DFF<Bits<8>>,
    s3_exp_inc: DFF<Bits<8>>,
    s3_sign: DFF<Bit>,
    s3_zero: DFF<Bit>,
    s4c_round: Signal<Local, Bit>,
    s4c_frac: Signal<Local, Bits<23>>,
    s4c_finc: Signal<Local, Bits<23>>,
    s4c_mant: Signal<Local, Bits<32>>,
    s4c_exp: Signal<Local, Bits<32>>,
    s4_result: DFF<Bits<32>>,
}

impl Logic for I2F {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, s1_mag, s1_sign, s2_mag, s2_lz, s2_sign, s2_zero, s3_norm, s3_exp,
            s3_exp_inc, s3_sign, s3_zero, s4_result
        );
        // ---- Stage 1: |a| (i32::MIN stays 0x80000000, the right magnitude as unsigned).
        self.s1c_neg.next = bits::<32>(0) - self.a.val();
        self.s1_mag.d.next = self.a.val();
        if self.a.val().get_bit(31) & !self.as_unsigned.val() {
            self.s1_mag.d.next = self.s1c_neg.val();
        }
        self.s1_sign.d.next = self.a.val().get_bit(31) & !self.as_unsigned.val();

        // ---- Stage 2: leading zeros.
        self.lzc.x.next = self.s1_mag.q.val();
        self.s2_lz.d.next = self.lzc.count.val();
        self.s2_mag.d.next = self.s1_mag.q.val();
        self.s2_sign.d.next = self.s1_sign.q.val();
        self.s2_zero.d.next = !self.s1_mag.q.val().any();

        // ---- Stage 3: leading one to bit 31; biased exponent 127 + 31 - lz.
        self.s3_norm.d.next = self.s2_mag.q.val() << self.s2_lz.q.val();
        self.s3_exp.d.next = bits::<8>(158) - bit_cast::<8, 5>(self.s2_lz.q.val());
        self.s3_exp_inc.d.next = bits::<8>(159) - bit_cast::<8, 5>(self.s2_lz.q.val());
        self.s3_sign.d.next = self.s2_sign.q.val();
        self.s3_zero.d.next = self.s2_zero.q.val();

        // ---- Stage 4: significand norm[31:8], guard norm[7], sticky |norm[6:0].
        self.s4c_round.next = self.s3_norm.q.val().get_bit(7)
            & (self.s3_norm.q.val().get_bits::<7>(0).any() | self.s3_norm.q.val().get_bit(8));
        self.s4c_frac.next = self.s3_norm.q.val().get_bits::<23>(8);
        self.s4c_finc.next = self.s4c_frac.val() + 1;
        self.s4c_mant.next = bit_cast::<32, 23>(self.s4c_frac.val());
        self.s4c_exp.next = bit_cast::<32, 8>(self.s3_exp.q.val()) << 23;
        if self.s4c_round.val() {
            self.s4c_mant.next = bit_cast::<32, 23>(self.s4c_finc.val());
            // An all-ones significand rounds up to the next power of two.
            if self.s4c_frac.val().all() {
                self.s4c_exp.next = bit_cast::<32, 8>(self.s3_exp_inc.q.val()) << 23;
            }
        }
        self.s4_result.d.next = (bit_cast::<32, 1>(self.s3_sign.q.val().into()) << 31)
            | self.s4c_exp.val()
            | self.s4c_mant.val();
        if self.s3_zero.q.val() {
            self.s4_result.d.next = bits::<32>(0);
        }
        self.result.next = self.s4_result.q.val();
    }
}

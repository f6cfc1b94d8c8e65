//! `FMul`: a fully pipelined IEEE-754 binary32 multiplier (flush-to-zero, one NaN).
//!
//! Semantics (decisions.md section 2): subnormal inputs count as zero with their sign; the
//! product is rounded to nearest-even on the binary32 grid *including the subnormal grid*, and a
//! subnormal result is then flushed to zero with its sign (so a product that rounds up to the
//! smallest normal stays normal); every NaN result is `0x7FC00000`; `0 * inf` is NaN.
//!
//! Timing: **latency 5 clocks, throughput one product per clock.** The operands presented on
//! `a`/`b` before rising edge *n* produce `result` right after rising edge *n + 4* (the output is
//! the stage-5 register, so it is stable for the whole following cycle).
//!
//! Pipeline (every stage is at most one carry chain plus a few LUT levels):
//! 1. unpack, operand classes, `3*ma` (26-bit chain), exponent sum `ea + eb`;
//! 2. twelve radix-4 partial-product rows `digit * ma` (digit in 0..=3, a 4-way select each),
//!    added in pairs (six 26-bit chains);
//! 3. the six sums added in pairs (three 28-bit chains);
//! 4. the three sums reduced by one carry-save level and one 40-bit chain: the product `P[47:8]`;
//!    the two sticky bits (off the early low end of that chain), the exponent candidates and
//!    range flags, and the result for special operands;
//! 5. normalise (`P[47]` selects the window), round to nearest even (23-bit increment chain; an
//!    AND tree tells whether it carries out), apply the subnormal/overflow rules, pack.
//!
//! The 24x24 significand product is never written as `*`: rust-hdl only multiplies 16x16 and
//! yosys' generic multiplier is neither pipelined nor small on a LUT4 fabric. On an FPGA with
//! multiplier blocks (the ECP5) [`FMul::with_dsp`] takes stages 2 and 3 from a [`Mul24`]
//! instead: its registered 18x18 pieces, summed, give the product `P` for stage 3's registers
//! as `t0 = P[31:0]`, `t1 = 0`, `t2 = P[47:32] << 16` (so stage 4's sum `t0 + t1 2^8 + t2 2^16`
//! is `P` again); the rows are then unused and synthesis drops them. [`FMul::default`] (the
//! iCE40's) has no `Mul24`, and its Verilog is the radix-4 multiplier alone.
use crate::float_unpack::FloatUnpack;
use crate::mul24::Mul24;
use rust_hdl::prelude::*;

/// Pipelined binary32 multiplier; see the module documentation for semantics and timing.
#[derive(LogicBlock, Default)]
pub struct FMul {
    /// Clock; everything happens on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Multiplicand (binary32 bits), sampled every rising edge.
    pub a: Signal<In, Bits<32>>,
    /// Multiplier (binary32 bits), sampled every rising edge.
    pub b: Signal<In, Bits<32>>,
    /// `a * b` (binary32 bits), 5 rising edges after the operands were presented.
    pub result: Signal<Out, Bits<32>>,

    // Stage 1 combinational values.
    s1c_ma: Signal<Local, Bits<24>>,
    s1c_ma26: Signal<Local, Bits<26>>,
    // Stage 1 registers.
    s1_ma: DFF<Bits<24>>,
    s1_ma3: DFF<Bits<26>>,
    s1_mb: DFF<Bits<24>>,
    s1_es: DFF<Bits<9>>,
    s1_nan: DFF<Bit>,
    s1_inf: DFF<Bit>,
    s1_zero: DFF<Bit>,
    s1_sign: DFF<Bit>,

    // Stage 2: radix-4 rows (digit k of mb times ma) and their pairwise sums.
    s2c_r0: Signal<Local, Bits<26>>,
    s2c_r1: Signal<Local, Bits<26>>,
    s2c_r2: Signal<Local, Bits<26>>,
    s2c_r3: Signal<Local, Bits<26>>,
    s2c_r4: Signal<Local, Bits<26>>,
    s2c_r5: Signal<Local, Bits<26>>,
    s2c_r6: Signal<Local, Bits<26>>,
    s2c_r7: Signal<Local, Bits<26>>,
    s2c_r8: Signal<Local, Bits<26>>,
    s2c_r9: Signal<Local, Bits<26>>,
    s2c_r10: Signal<Local, Bits<26>>,
    s2c_r11: Signal<Local, Bits<26>>,
    s2c_ma2: Signal<Local, Bits<26>>,
    s2_p0: DFF<Bits<28>>,
    s2_p1: DFF<Bits<28>>,
    s2_p2: DFF<Bits<28>>,
    s2_p3: DFF<Bits<28>>,
    s2_p4: DFF<Bits<28>>,
    s2_p5: DFF<Bits<28>>,
    s2_es: DFF<Bits<9>>,
    s2_nan: DFF<Bit>,
    s2_inf: DFF<Bit>,
    s2_zero: DFF<Bit>,
    s2_sign: DFF<Bit>,

    // Stage 3: three 32-bit sums (ma times 8 bits of mb each) and exponent candidates.
    s3_t0: DFF<Bits<32>>,
    s3_t1: DFF<Bits<32>>,
    s3_t2: DFF<Bits<32>>,
    s3_es: DFF<Bits<9>>,
    s3_nan: DFF<Bit>,
    s3_inf: DFF<Bit>,
    s3_zero: DFF<Bit>,
    s3_sign: DFF<Bit>,

    // Stage 4: carry-save reduction and the final product chain.
    s4c_x: Signal<Local, Bits<40>>,
    s4c_y: Signal<Local, Bits<40>>,
    s4c_z: Signal<Local, Bits<40>>,
    s4c_sum: Signal<Local, Bits<40>>,
    s4c_carry: Signal<Local, Bits<40>>,
    s4c_es8: Signal<Local, Bits<8>>,
    s4c_p: Signal<Local, Bits<40>>,
    s4c_sign32: Signal<Local, Bits<32>>,
    s4_p: DFF<Bits<40>>,
    // Sticky bits below the guard bit for P[47] = 1 (|P[22:0]) and P[47] = 0 (|P[21:0]); the low
    // end of the stage-4 chain settles early, so they are computed there.
    s4_sticky47: DFF<Bit>,
    s4_sticky46: DFF<Bit>,
    // The result when an operand is special (NaN, infinity, zero), and whether it applies.
    s4_force: DFF<Bit>,
    s4_special: DFF<Bits<32>>,
    // Biased result exponent, low 8 bits, for P[47] = 0 (e0), 1 (e1) and one more (e2).
    s4_e0: DFF<Bits<8>>,
    s4_e1: DFF<Bits<8>>,
    s4_e2: DFF<Bits<8>>,
    // Exponent range flags: `le0` = subnormal range, `eq0` = just below the normal range,
    // `ovf` = overflow before rounding, `max` = 254 (overflows if rounding carries out).
    s4_e0_le0: DFF<Bit>,
    s4_e0_eq0: DFF<Bit>,
    s4_e0_ovf: DFF<Bit>,
    s4_e0_max: DFF<Bit>,
    s4_e1_le0: DFF<Bit>,
    s4_e1_eq0: DFF<Bit>,
    s4_e1_ovf: DFF<Bit>,
    s4_e1_max: DFF<Bit>,
    s4_sign: DFF<Bit>,

    // Stage 5: normalise, round, pack.
    s5c_m: Signal<Local, Bits<24>>,
    s5c_frac: Signal<Local, Bits<23>>,
    s5c_finc: Signal<Local, Bits<23>>,
    s5c_p47: Signal<Local, Bit>,
    s5c_round47: Signal<Local, Bit>,
    s5c_round46: Signal<Local, Bit>,
    s5c_round: Signal<Local, Bit>,
    s5c_ones: Signal<Local, Bit>,
    s5c_carry: Signal<Local, Bit>,
    s5c_mant: Signal<Local, Bits<32>>,
    s5c_exp: Signal<Local, Bits<32>>,
    // Result below the normal range, rounds up to the smallest normal, overflows.
    s5c_le0: Signal<Local, Bit>,
    s5c_eq0: Signal<Local, Bit>,
    s5c_ovf: Signal<Local, Bit>,
    s5c_sign32: Signal<Local, Bits<32>>,
    s5_result: DFF<Bits<32>>,

    unpack_a: FloatUnpack,
    unpack_b: FloatUnpack,
    // The product on multiplier blocks (none, or one: `with_dsp`).
    dsp: Vec<Mul24>,
}

impl FMul {
    /// The multiplier with its significand product on multiplier blocks ([`Mul24`]): the same
    /// results and latency.
    pub fn with_dsp() -> FMul {
        FMul {
            dsp: vec![Mul24::default()],
            ..FMul::default()
        }
    }
}

impl Logic for FMul {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            s1_ma,
            s1_ma3,
            s1_mb,
            s1_es,
            s1_nan,
            s1_inf,
            s1_zero,
            s1_sign,
            s2_p0,
            s2_p1,
            s2_p2,
            s2_p3,
            s2_p4,
            s2_p5,
            s2_es,
            s2_nan,
            s2_inf,
            s2_zero,
            s2_sign,
            s3_t0,
            s3_t1,
            s3_t2,
            s3_es,
            s3_nan,
            s3_inf,
            s3_zero,
            s3_sign,
            s4_p,
            s4_sticky47,
            s4_sticky46,
            s4_force,
            s4_special,
            s4_e0,
            s4_e1,
            s4_e2,
            s4_e0_le0,
            s4_e0_eq0,
            s4_e0_ovf,
            s4_e0_max,
            s4_e1_le0,
            s4_e1_eq0,
            s4_e1_ovf,
            s4_e1_max,
            s4_sign,
            s5_result
        );

        // ---- Stage 1: unpack. A zero exponent field (zero or subnormal) is a zero operand.
        self.unpack_a.x.next = self.a.val();
        self.unpack_b.x.next = self.b.val();
        // The hidden bit is always set: a zero operand's significand is never used.
        self.s1c_ma.next = self.unpack_a.sig.val();
        self.s1c_ma26.next = bit_cast::<26, 24>(self.s1c_ma.val());
        self.s1_ma.d.next = self.s1c_ma.val();
        self.s1_ma3.d.next = (self.s1c_ma26.val() << 1) + self.s1c_ma26.val();
        self.s1_mb.d.next = self.unpack_b.sig.val();
        self.s1_es.d.next = bit_cast::<9, 8>(self.a.val().get_bits::<8>(23))
            + bit_cast::<9, 8>(self.b.val().get_bits::<8>(23));
        self.s1_nan.d.next = self.unpack_a.nan.val()
            | self.unpack_b.nan.val()
            | (self.unpack_a.inf.val() & self.unpack_b.zero.val())
            | (self.unpack_a.zero.val() & self.unpack_b.inf.val());
        self.s1_inf.d.next = self.unpack_a.inf.val() | self.unpack_b.inf.val();
        self.s1_zero.d.next = self.unpack_a.zero.val() | self.unpack_b.zero.val();
        self.s1_sign.d.next = self.a.val().get_bit(31) ^ self.b.val().get_bit(31);

        // ---- Stage 2: row k = (2-bit digit k of mb) * ma, a 4-way select per bit.
        self.s2c_ma2.next = bit_cast::<26, 24>(self.s1_ma.q.val()) << 1;
        self.s2c_r0.next = bits::<26>(0);
        self.s2c_r1.next = bits::<26>(0);
        self.s2c_r2.next = bits::<26>(0);
        self.s2c_r3.next = bits::<26>(0);
        self.s2c_r4.next = bits::<26>(0);
        self.s2c_r5.next = bits::<26>(0);
        self.s2c_r6.next = bits::<26>(0);
        self.s2c_r7.next = bits::<26>(0);
        self.s2c_r8.next = bits::<26>(0);
        self.s2c_r9.next = bits::<26>(0);
        self.s2c_r10.next = bits::<26>(0);
        self.s2c_r11.next = bits::<26>(0);
        match self.s1_mb.q.val().get_bits::<2>(0).index() {
            1 => self.s2c_r0.next = bit_cast::<26, 24>(self.s1_ma.q.val()),
            2 => self.s2c_r0.next = self.s2c_ma2.val(),
            3 => self.s2c_r0.next = self.s1_ma3.q.val(),
            _ => {}
        }
        match self.s1_mb.q.val().get_bits::<2>(2).index() {
            1 => self.s2c_r1.next = bit_cast::<26, 24>(self.s1_ma.q.val()),
            2 => self.s2c_r1.next = self.s2c_ma2.val(),
            3 => self.s2c_r1.next = self.s1_ma3.q.val(),
            _ => {}
        }
        match self.s1_mb.q.val().get_bits::<2>(4).index() {
            1 => self.s2c_r2.next = bit_cast::<26, 24>(self.s1_ma.q.val()),
            2 => self.s2c_r2.next = self.s2c_ma2.val(),
            3 => self.s2c_r2.next = self.s1_ma3.q.val(),
            _ => {}
        }
        match self.s1_mb.q.val().get_bits::<2>(6).index() {
            1 => self.s2c_r3.next = bit_cast::<26, 24>(self.s1_ma.q.val()),
            2 => self.s2c_r3.next = self.s2c_ma2.val(),
            3 => self.s2c_r3.next = self.s1_ma3.q.val(),
            _ => {}
        }
        match self.s1_mb.q.val().get_bits::<2>(8).index() {
            1 => self.s2c_r4.next = bit_cast::<26, 24>(self.s1_ma.q.val()),
            2 => self.s2c_r4.next = self.s2c_ma2.val(),
            3 => self.s2c_r4.next = self.s1_ma3.q.val(),
            _ => {}
        }
        match self.s1_mb.q.val().get_bits::<2>(10).index() {
            1 => self.s2c_r5.next = bit_cast::<26, 24>(self.s1_ma.q.val()),
            2 => self.s2c_r5.next = self.s2c_ma2.val(),
            3 => self.s2c_r5.next = self.s1_ma3.q.val(),
            _ => {}
        }
        match self.s1_mb.q.val().get_bits::<2>(12).index() {
            1 => self.s2c_r6.next = bit_cast::<26, 24>(self.s1_ma.q.val()),
            2 => self.s2c_r6.next = self.s2c_ma2.val(),
            3 => self.s2c_r6.next = self.s1_ma3.q.val(),
            _ => {}
        }
        match self.s1_mb.q.val().get_bits::<2>(14).index() {
            1 => self.s2c_r7.next = bit_cast::<26, 24>(self.s1_ma.q.val()),
            2 => self.s2c_r7.next = self.s2c_ma2.val(),
            3 => self.s2c_r7.next = self.s1_ma3.q.val(),
            _ => {}
        }
        match self.s1_mb.q.val().get_bits::<2>(16).index() {
            1 => self.s2c_r8.next = bit_cast::<26, 24>(self.s1_ma.q.val()),
            2 => self.s2c_r8.next = self.s2c_ma2.val(),
            3 => self.s2c_r8.next = self.s1_ma3.q.val(),
            _ => {}
        }
        match self.s1_mb.q.val().get_bits::<2>(18).index() {
            1 => self.s2c_r9.next = bit_cast::<26, 24>(self.s1_ma.q.val()),
            2 => self.s2c_r9.next = self.s2c_ma2.val(),
            3 => self.s2c_r9.next = self.s1_ma3.q.val(),
            _ => {}
        }
        match self.s1_mb.q.val().get_bits::<2>(20).index() {
            1 => self.s2c_r10.next = bit_cast::<26, 24>(self.s1_ma.q.val()),
            2 => self.s2c_r10.next = self.s2c_ma2.val(),
            3 => self.s2c_r10.next = self.s1_ma3.q.val(),
            _ => {}
        }
        match self.s1_mb.q.val().get_bits::<2>(22).index() {
            1 => self.s2c_r11.next = bit_cast::<26, 24>(self.s1_ma.q.val()),
            2 => self.s2c_r11.next = self.s2c_ma2.val(),
            3 => self.s2c_r11.next = self.s1_ma3.q.val(),
            _ => {}
        }
        // p_m = ma * (4 bits of mb) < 2^28.
        self.s2_p0.d.next =
            bit_cast::<28, 26>(self.s2c_r0.val()) + (bit_cast::<28, 26>(self.s2c_r1.val()) << 2);
        self.s2_p1.d.next =
            bit_cast::<28, 26>(self.s2c_r2.val()) + (bit_cast::<28, 26>(self.s2c_r3.val()) << 2);
        self.s2_p2.d.next =
            bit_cast::<28, 26>(self.s2c_r4.val()) + (bit_cast::<28, 26>(self.s2c_r5.val()) << 2);
        self.s2_p3.d.next =
            bit_cast::<28, 26>(self.s2c_r6.val()) + (bit_cast::<28, 26>(self.s2c_r7.val()) << 2);
        self.s2_p4.d.next =
            bit_cast::<28, 26>(self.s2c_r8.val()) + (bit_cast::<28, 26>(self.s2c_r9.val()) << 2);
        self.s2_p5.d.next =
            bit_cast::<28, 26>(self.s2c_r10.val()) + (bit_cast::<28, 26>(self.s2c_r11.val()) << 2);
        self.s2_es.d.next = self.s1_es.q.val();
        self.s2_nan.d.next = self.s1_nan.q.val();
        self.s2_inf.d.next = self.s1_inf.q.val();
        self.s2_zero.d.next = self.s1_zero.q.val();
        self.s2_sign.d.next = self.s1_sign.q.val();

        // ---- Stage 3: t_n = ma * (8 bits of mb) < 2^32.
        self.s3_t0.d.next =
            bit_cast::<32, 28>(self.s2_p0.q.val()) + (bit_cast::<32, 28>(self.s2_p1.q.val()) << 4);
        self.s3_t1.d.next =
            bit_cast::<32, 28>(self.s2_p2.q.val()) + (bit_cast::<32, 28>(self.s2_p3.q.val()) << 4);
        self.s3_t2.d.next =
            bit_cast::<32, 28>(self.s2_p4.q.val()) + (bit_cast::<32, 28>(self.s2_p5.q.val()) << 4);
        self.s3_es.d.next = self.s2_es.q.val();
        self.s3_nan.d.next = self.s2_nan.q.val();
        self.s3_inf.d.next = self.s2_inf.q.val();
        self.s3_zero.d.next = self.s2_zero.q.val();
        self.s3_sign.d.next = self.s2_sign.q.val();
        // The product from the multiplier blocks instead (`with_dsp`): the same sum in stage 4.
        for i in 0..self.dsp.len() {
            self.dsp[i].clock.next = self.clock.val();
            self.dsp[i].a.next = self.s1_ma.q.val();
            self.dsp[i].b.next = self.s1_mb.q.val();
            self.s3_t0.d.next = self.dsp[i].p.val().get_bits::<32>(0);
            self.s3_t1.d.next = bits::<32>(0);
            // P[47:32] << 16, as P[47:16] with its low half cleared.
            self.s3_t2.d.next = (self.dsp[i].p.val().get_bits::<32>(16) >> 16) << 16;
        }

        // ---- Stage 4: P >> 8 = (t0 >> 8) + t1 + (t2 << 8), one carry-save level then a chain.
        // P[7:0] = t0[7:0] only matters for the sticky bit.
        self.s4c_x.next = bit_cast::<40, 24>(self.s3_t0.q.val().get_bits::<24>(8));
        self.s4c_y.next = bit_cast::<40, 32>(self.s3_t1.q.val());
        self.s4c_z.next = bit_cast::<40, 32>(self.s3_t2.q.val()) << 8;
        self.s4c_sum.next = self.s4c_x.val() ^ self.s4c_y.val() ^ self.s4c_z.val();
        self.s4c_carry.next = ((self.s4c_x.val() & self.s4c_y.val())
            | (self.s4c_x.val() & self.s4c_z.val())
            | (self.s4c_y.val() & self.s4c_z.val()))
            << 1;
        self.s4c_p.next = self.s4c_sum.val() + self.s4c_carry.val();
        self.s4_p.d.next = self.s4c_p.val();
        // s4c_p holds P[47:8]; P[7:0] = t0[7:0].
        self.s4_sticky47.d.next =
            self.s4c_p.val().get_bits::<15>(0).any() | self.s3_t0.q.val().get_bits::<8>(0).any();
        self.s4_sticky46.d.next =
            self.s4c_p.val().get_bits::<14>(0).any() | self.s3_t0.q.val().get_bits::<8>(0).any();
        self.s4c_sign32.next = bit_cast::<32, 1>(self.s3_sign.q.val().into()) << 31;
        self.s4_force.d.next = self.s3_nan.q.val() | self.s3_inf.q.val() | self.s3_zero.q.val();
        self.s4_special.d.next = self.s4c_sign32.val();
        if self.s3_inf.q.val() {
            self.s4_special.d.next = self.s4c_sign32.val() | bits::<32>(0x7F80_0000);
        }
        if self.s3_nan.q.val() {
            self.s4_special.d.next = bits::<32>(0x7FC0_0000);
        }
        // Biased exponent E = es - 127 (+1 when P[47] is set, +1 more if rounding carries out).
        // Flags from es directly: E0 = es - 127 <= 0 <=> es <= 127, and so on.
        self.s4c_es8.next = self.s3_es.q.val().get_bits::<8>(0);
        self.s4_e0.d.next = self.s4c_es8.val() + 129;
        self.s4_e1.d.next = self.s4c_es8.val() + 130;
        self.s4_e2.d.next = self.s4c_es8.val() + 131;
        self.s4_e0_le0.d.next = self.s3_es.q.val() <= 127;
        self.s4_e0_eq0.d.next = self.s3_es.q.val() == 127;
        self.s4_e0_ovf.d.next = self.s3_es.q.val() >= 382;
        self.s4_e0_max.d.next = self.s3_es.q.val() == 381;
        self.s4_e1_le0.d.next = self.s3_es.q.val() <= 126;
        self.s4_e1_eq0.d.next = self.s3_es.q.val() == 126;
        self.s4_e1_ovf.d.next = self.s3_es.q.val() >= 381;
        self.s4_e1_max.d.next = self.s3_es.q.val() == 380;
        self.s4_sign.d.next = self.s3_sign.q.val();

        // ---- Stage 5: s4_p holds P[47:8] (bit 39 = P[47], bit 15 = P[23]). P[47] picks the
        // 24-bit window. The decisions are written flat, one per window, and selected last,
        // which keeps the path to the output register short.
        self.s5c_p47.next = self.s4_p.q.val().get_bit(39);
        self.s5c_m.next = self.s4_p.q.val().get_bits::<24>(15);
        if self.s5c_p47.val() {
            self.s5c_m.next = self.s4_p.q.val().get_bits::<24>(16);
        }
        // Nearest even: guard & (sticky | lsb), for either window.
        self.s5c_round47.next = self.s4_p.q.val().get_bit(15)
            & (self.s4_sticky47.q.val() | self.s4_p.q.val().get_bit(16));
        self.s5c_round46.next = self.s4_p.q.val().get_bit(14)
            & (self.s4_sticky46.q.val() | self.s4_p.q.val().get_bit(15));
        // The increment carries out only when m is all ones (then the significand is 1.0 again);
        // an AND tree says so sooner than the end of the increment chain. P[46:24] is common
        // to both windows; the remaining bit is P[47] (set in its window) or P[23].
        self.s5c_ones.next = self.s4_p.q.val().get_bits::<23>(16).all()
            & (self.s5c_p47.val() | self.s4_p.q.val().get_bit(15));
        self.s5c_round.next = (self.s5c_p47.val() & self.s5c_round47.val())
            | (!self.s5c_p47.val() & self.s5c_round46.val());
        self.s5c_carry.next = self.s5c_round.val() & self.s5c_ones.val();
        self.s5c_ovf.next = (self.s5c_p47.val()
            & (self.s4_e1_ovf.q.val()
                | (self.s4_e1_max.q.val() & self.s5c_round47.val() & self.s5c_ones.val())))
            | (!self.s5c_p47.val()
                & (self.s4_e0_ovf.q.val()
                    | (self.s4_e0_max.q.val() & self.s5c_round46.val() & self.s5c_ones.val())));
        self.s5c_le0.next = (self.s5c_p47.val() & self.s4_e1_le0.q.val())
            | (!self.s5c_p47.val() & self.s4_e0_le0.q.val());
        self.s5c_eq0.next = ((self.s5c_p47.val() & self.s4_e1_eq0.q.val())
            | (!self.s5c_p47.val() & self.s4_e0_eq0.q.val()))
            & self.s5c_ones.val();
        self.s5c_frac.next = self.s5c_m.val().get_bits::<23>(0);
        self.s5c_finc.next = self.s5c_frac.val() + 1;
        self.s5c_mant.next = bit_cast::<32, 23>(self.s5c_frac.val());
        if self.s5c_round.val() {
            self.s5c_mant.next = bit_cast::<32, 23>(self.s5c_finc.val());
        }
        if self.s5c_p47.val() {
            self.s5c_exp.next = bit_cast::<32, 8>(self.s4_e1.q.val()) << 23;
            if self.s5c_carry.val() {
                self.s5c_exp.next = bit_cast::<32, 8>(self.s4_e2.q.val()) << 23;
            }
        } else {
            self.s5c_exp.next = bit_cast::<32, 8>(self.s4_e0.q.val()) << 23;
            if self.s5c_carry.val() {
                self.s5c_exp.next = bit_cast::<32, 8>(self.s4_e1.q.val()) << 23;
            }
        }
        self.s5c_sign32.next = bit_cast::<32, 1>(self.s4_sign.q.val().into()) << 31;
        // Priority: NaN, infinite operand, zero operand, overflow, rounds up to the smallest
        // normal (only from just below it, with an all-ones significand), flush, normal.
        self.s5_result.d.next = self.s5c_sign32.val() | self.s5c_exp.val() | self.s5c_mant.val();
        if self.s5c_le0.val() {
            self.s5_result.d.next = self.s5c_sign32.val();
            if self.s5c_eq0.val() {
                self.s5_result.d.next = self.s5c_sign32.val() | bits::<32>(0x0080_0000);
            }
        }
        if self.s5c_ovf.val() {
            self.s5_result.d.next = self.s5c_sign32.val() | bits::<32>(0x7F80_0000);
        }
        if self.s4_force.q.val() {
            self.s5_result.d.next = self.s4_special.q.val();
        }
        self.result.next = self.s5_result.q.val();
    }
}

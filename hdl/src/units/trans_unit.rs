//! `TransUnit`: the bit operations and tables of the transcendental sequences (`RSQR` ... `SCF`,
//! `microcode::arith::transcendental::steps`): exponent and significand field operations, the
//! table reads, an exponent adder for the final scale (`ldexp` with the subnormal-grid rule), and
//! the special operands. RSQ, EX2, LG2, SIN, COS and POW are compiled sequences of these steps and
//! ordinary multiply-adds (`microcode/src/compile/trans.rs`), so this block is all the hardware
//! they need beyond the float pipeline.
//!
//! Ports: operands `a`, `c` and the step `op` in, and one clock later the operands `a1`, `b1`,
//! `c1` registered by the caller (the compare unit registers its operands once for all its
//! parts); `result` out.
//! Timing: **latency 2, one operation per clock**: operands presented before rising edge *n* give
//! `result` right after edge *n + 1*. The first clock computes the table index (the four tables
//! are three [`Rom`]s: 5 block RAMs), the special-operand flags and the scale exponent; the second
//! adds the exponents and selects the result.
use crate::decoder::TransOp;
use crate::rom::Rom;
use microcode::arith::tables::{EX2_TABLE, LG2_INV, LG2_LOG, RSQ_SEED};
use rust_hdl::prelude::*;

/// The transcendental step unit; see the module documentation.
#[derive(LogicBlock)]
pub struct TransUnit {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Operand A (the function's argument `x`, or `k` for `EX2T`/`SCQ`).
    pub a: Signal<In, Bits<32>>,
    /// Operand C.
    pub c: Signal<In, Bits<32>>,
    /// Operand A one clock after `a` (the misc unit's register).
    pub a1: Signal<In, Bits<32>>,
    /// Operand B, presented with `a1`.
    pub b1: Signal<In, Bits<32>>,
    /// Operand C one clock after `c`.
    pub c1: Signal<In, Bits<32>>,
    /// Which step.
    pub op: Signal<In, TransOp>,
    /// The step's result, 2 clocks later.
    pub result: Signal<Out, Bits<32>>,
    rsq_rom: Rom<12, 8>,
    // EX2_TABLE's 23 fraction bits and LG2_INV's 9 share one 32-bit word (bits 0..22 and 23..31): a step
    // reads one table, and the pair fills two block RAMs exactly where apart they took three.
    ex2_inv_rom: Rom<32, 8>,
    log_rom: Rom<32, 8>,
    // First clock.
    index: Signal<Local, Bits<8>>,
    a_exp: Signal<Local, Bits<8>>,
    a_mag: Signal<Local, Bits<31>>,
    rsq_p: Signal<Local, Bit>,
    rsq_s: Signal<Local, Bits<10>>,
    n0: Signal<Local, Bits<10>>,
    op1: DFF<TransOp>,
    n1: DFF<Bits<10>>,
    nan1: DFF<Bit>,
    exp0_1: DFF<Bit>,
    exp255_1: DFF<Bit>,
    big1: DFF<Bit>,
    small1: DFF<Bit>,
    // Second clock.
    y_exp: Signal<Local, Bits<8>>,
    y_sign: Signal<Local, Bits<32>>,
    e_sum: Signal<Local, Bits<11>>,
    ldexp: Signal<Local, Bits<32>>,
    wrap: Signal<Local, Bit>,
    lg2_e: Signal<Local, Bits<9>>,
    lg2_m: Signal<Local, Bits<32>>,
    pick: Signal<Local, Bits<32>>,
    res: Signal<Local, Bits<32>>,
    r2: DFF<Bits<32>>,
}

impl Default for TransUnit {
    fn default() -> Self {
        let words = |t: &[u32]| t.iter().map(|&w| u64::from(w)).collect::<Vec<_>>();
        let rsq: Vec<u32> = RSQ_SEED.iter().map(|&w| u32::from(w)).collect();
        let ex2_inv: Vec<u32> = EX2_TABLE
            .iter()
            .zip(LG2_INV.iter())
            .map(|(&e, &i)| (e & 0x7F_FFFF) | (u32::from(i) << 23))
            .collect();
        TransUnit {
            clock: Default::default(),
            a: Default::default(),
            c: Default::default(),
            a1: Default::default(),
            b1: Default::default(),
            c1: Default::default(),
            op: Default::default(),
            result: Default::default(),
            rsq_rom: Rom::new(&words(&rsq)),
            ex2_inv_rom: Rom::new(&words(&ex2_inv)),
            log_rom: Rom::new(&words(&LG2_LOG)),
            index: Default::default(),
            a_exp: Default::default(),
            a_mag: Default::default(),
            rsq_p: Default::default(),
            rsq_s: Default::default(),
            n0: Default::default(),
            op1: Default::default(),
            n1: Default::default(),
            nan1: Default::default(),
            exp0_1: Default::default(),
            exp255_1: Default::default(),
            big1: Default::default(),
            small1: Default::default(),
            y_exp: Default::default(),
            y_sign: Default::default(),
            e_sum: Default::default(),
            ldexp: Default::default(),
            wrap: Default::default(),
            lg2_e: Default::default(),
            lg2_m: Default::default(),
            pick: Default::default(),
            res: Default::default(),
            r2: Default::default(),
        }
    }
}

impl Logic for TransUnit {
    #[allow(clippy::collapsible_match)]
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, op1, n1, nan1, exp0_1, exp255_1, big1, small1, r2);
        clock!(self, clock, rsq_rom, ex2_inv_rom, log_rom);

        // ---- First clock: table index, flags of A, the scale exponent.
        self.a_exp.next = self.a.val().get_bits::<8>(23);
        self.a_mag.next = self.a.val().get_bits::<31>(0);
        // LG2's index f[22:15]; RSQ's {p, f[22:16]} with p = !a[23]; EX2's k[7:0].
        self.index.next = self.a.val().get_bits::<8>(15);
        match self.op.val() {
            TransOp::Rsqt => {
                self.index.next = self.a.val().get_bits::<8>(16) ^ bits::<8>(0x80);
            }
            TransOp::Ex2t => {
                self.index.next = self.a.val().get_bits::<8>(0);
            }
            _ => {}
        }
        self.rsq_rom.ra.next = self.index.val();
        self.ex2_inv_rom.ra.next = self.index.val();
        self.log_rom.ra.next = self.index.val();
        // The scale: RSQF's -((E - p) / 2) = ((127 + p) - exp) >> 1 (an even difference), EX2F's
        // C[17:8]; both 10-bit two's complement. (p gets a signal of its own: a complement inside
        // the sum would be widened to 32 bits in the emitted Verilog.)
        self.rsq_p.next = !self.a.val().get_bit(23);
        self.rsq_s.next = bits::<10>(127) + bit_cast::<10, 1>(self.rsq_p.val().into())
            - bit_cast::<10, 8>(self.a_exp.val());
        self.n0.next = self.c.val().get_bits::<10>(8);
        if self.op.val() == TransOp::Rsqf {
            self.n0.next = bit_cast::<10, 9>(self.rsq_s.val().get_bits::<9>(1))
                | (bit_cast::<10, 1>(self.rsq_s.val().get_bit(9).into()) << 9);
        }
        self.op1.d.next = self.op.val();
        self.n1.d.next = self.n0.val();
        self.exp0_1.d.next = self.a_exp.val() == 0;
        self.exp255_1.d.next = self.a_exp.val() == 255;
        self.nan1.d.next = (self.a_exp.val() == 255) & self.a.val().get_bits::<23>(0).any();
        self.big1.d.next =
            !self.a.val().get_bit(31) & (self.a_mag.val() >= bits::<31>(0x4300_0000));
        self.small1.d.next =
            self.a.val().get_bit(31) & (self.a_mag.val() > bits::<31>(0x42FE_0000));

        // ---- Second clock: ldexp(B, n), the field operations, the select.
        self.y_exp.next = self.b1.val().get_bits::<8>(23);
        self.y_sign.next = bit_cast::<32, 1>(self.b1.val().get_bit(31).into()) << 31;
        self.e_sum.next = bit_cast::<11, 8>(self.y_exp.val())
            + (bit_cast::<11, 10>(self.n1.q.val())
                | (bit_cast::<11, 1>(self.n1.q.val().get_bit(9).into()) << 10));
        // Below the normal range: a signed zero, except that an exponent of 0 with an all-ones
        // significand rounds up to 2^-126 (the subnormal grid, then the flush).
        self.ldexp.next = self.y_sign.val();
        if !self.e_sum.val().get_bit(10) {
            if self.e_sum.val().get_bits::<2>(8).any() | (self.e_sum.val().get_bits::<8>(0) == 255)
            {
                self.ldexp.next = self.y_sign.val() | bits::<32>(0x7F80_0000);
            } else if self.e_sum.val().get_bits::<8>(0).any() {
                self.ldexp.next = self.y_sign.val()
                    | (bit_cast::<32, 8>(self.e_sum.val().get_bits::<8>(0)) << 23)
                    | (self.b1.val() & bits::<32>(0x007F_FFFF));
            } else if self.b1.val().get_bits::<23>(0) == bits::<23>(0x7F_FFFF) {
                self.ldexp.next = self.y_sign.val() | bits::<32>(0x0080_0000);
            }
        }
        if self.y_exp.val() == 0 {
            self.ldexp.next = self.y_sign.val();
        }
        if self.y_exp.val() == 255 {
            self.ldexp.next = self.b1.val();
            if self.b1.val().get_bits::<23>(0).any() {
                self.ldexp.next = bits::<32>(0x7FC0_0000);
            }
        }
        self.wrap.next = self.a1.val().get_bits::<4>(19) == bits::<4>(15);
        self.lg2_e.next = bit_cast::<9, 8>(self.a1.val().get_bits::<8>(23)) - bits::<9>(127)
            + bit_cast::<9, 1>(self.wrap.val().into());
        self.lg2_m.next = bits::<32>(0x3F80_0000) | (self.a1.val() & bits::<32>(0x007F_FFFF));
        if self.wrap.val() {
            self.lg2_m.next = bits::<32>(0x3F00_0000) | (self.a1.val() & bits::<32>(0x007F_FFFF));
        }
        self.pick.next = self.b1.val();
        if self.a1.val().get_bit(0) {
            self.pick.next = self.c1.val();
        }
        if self.a1.val().get_bit(1) {
            self.pick.next = self.pick.val() ^ !bits::<32>(0x7FFF_FFFF);
        }

        self.res.next = self.b1.val();
        match self.op1.q.val() {
            TransOp::Rsqr => {
                self.res.next = bits::<32>(0x3F80_0000) | (self.a1.val() & bits::<32>(0x007F_FFFF));
                if !self.a1.val().get_bit(23) {
                    self.res.next =
                        bits::<32>(0x4000_0000) | (self.a1.val() & bits::<32>(0x007F_FFFF));
                }
            }
            TransOp::Rsqt => {
                self.res.next = bit_cast::<32, 12>(self.rsq_rom.rd.val());
            }
            TransOp::Rsqf => {
                self.res.next = self.ldexp.val();
                if self.exp255_1.q.val() {
                    self.res.next = bits::<32>(0);
                }
                if self.exp0_1.q.val() {
                    self.res.next = bits::<32>(0x7F80_0000);
                }
                if self.nan1.q.val() {
                    self.res.next = bits::<32>(0x7FC0_0000);
                }
            }
            TransOp::Ex2t => {
                self.res.next = bits::<32>(0x3F80_0000)
                    | bit_cast::<32, 23>(self.ex2_inv_rom.rd.val().get_bits::<23>(0));
            }
            TransOp::Ex2f => {
                self.res.next = self.ldexp.val();
                if self.small1.q.val() {
                    self.res.next = bits::<32>(0);
                }
                if self.big1.q.val() {
                    self.res.next = bits::<32>(0x7F80_0000);
                }
                if self.nan1.q.val() {
                    self.res.next = bits::<32>(0x7FC0_0000);
                }
            }
            TransOp::Lg2m => {
                self.res.next = self.lg2_m.val();
            }
            TransOp::Lg2h => {
                self.res.next = self.lg2_m.val() & !bits::<32>(0xFF);
            }
            TransOp::Lg2e => {
                // -127..=128 as int32: a 9-bit difference, sign-extended.
                self.res.next = bit_cast::<32, 9>(self.lg2_e.val());
                if self.lg2_e.val().get_bit(8) {
                    self.res.next = bit_cast::<32, 9>(self.lg2_e.val()) | !bits::<32>(0x1FF);
                }
            }
            TransOp::Lg2i => {
                self.res.next = bit_cast::<32, 9>(self.ex2_inv_rom.rd.val().get_bits::<9>(23));
            }
            TransOp::Lg2a => {
                self.res.next = bit_cast::<32, 16>(self.log_rom.rd.val().get_bits::<16>(16));
            }
            TransOp::Lg2b => {
                self.res.next = bit_cast::<32, 16>(self.log_rom.rd.val().get_bits::<16>(0));
            }
            TransOp::Lg2f => {
                if self.exp255_1.q.val() {
                    self.res.next = bits::<32>(0x7F80_0000);
                }
                if self.a1.val().get_bit(31) {
                    self.res.next = bits::<32>(0x7FC0_0000);
                }
                if self.exp0_1.q.val() {
                    self.res.next = !bits::<32>(0x007F_FFFF);
                }
                if self.nan1.q.val() {
                    self.res.next = bits::<32>(0x7FC0_0000);
                }
            }
            TransOp::Scq => {
                self.res.next = self.pick.val();
            }
            TransOp::Scf => {
                if self.exp255_1.q.val() {
                    self.res.next = bits::<32>(0x7FC0_0000);
                }
            }
        }
        self.r2.d.next = self.res.val();
        self.result.next = self.r2.q.val();
    }
}

//! `FDiv`: the iterative divider: `fdiv` and `frcp` correctly rounded, and the integer `imod`,
//! bit-exact with `microcode::arith::{fdiv, frcp, imod}`.
//!
//! Float: radix-2 restoring recurrence on the 24-bit significands (the dividend doubled when it
//! is the smaller, so the quotient lies in [1, 2)), two steps per clock. It runs 26 steps where
//! the model runs 25: the 26th quotient bit and the final remainder together say whether the
//! model's 25-step remainder is non-zero (its sticky bit), so both give the same rounding. Integer:
//! 32 restoring steps on the magnitudes (bring down a dividend bit, subtract when the divisor
//! fits), two per clock, then the dividend's sign; by 0 gives `0xFFFFFFFF`.
//!
//! Ports: `start` latches `op` (0 `fdiv(a, b)`, 1 `frcp(a)`, 2 `imod(a, b)`), `a` and `b` at a
//! rising edge; one operation at a time.
//!
//! Timing, fixed whatever the operands: `done` is high (and `result` valid) for one clock,
//! [`DIV_LATENCY`] rising edges after the start edge for `fdiv`/`frcp` (13 iteration clocks, then
//! one for rounding into the result register), [`IMOD_LATENCY`] for `imod` (16 + 1). Area: two 34-bit subtractors and their selects, the
//! remainder, quotient and divisor registers, the rounding increment.
use rust_hdl::prelude::*;

/// Edges from the start edge until `done` is high, for `fdiv` and `frcp`.
pub const DIV_LATENCY: u32 = 15;
/// Edges from the start edge until `done` is high, for `imod`.
pub const IMOD_LATENCY: u32 = 18;

/// The iterative divider; see the module documentation.
#[derive(LogicBlock, Default)]
pub struct FDiv {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Latch the operands and begin.
    pub start: Signal<In, Bit>,
    /// 0 divide, 1 reciprocal, 2 integer remainder.
    pub op: Signal<In, Bits<2>>,
    /// Dividend (reciprocal: the operand).
    pub a: Signal<In, Bits<32>>,
    /// Divisor.
    pub b: Signal<In, Bits<32>>,
    /// The result, while `done`.
    pub result: Signal<Out, Bits<32>>,
    /// One clock: `result` is valid.
    pub done: Signal<Out, Bit>,
    // Start-cycle values.
    fa: Signal<Local, Bits<32>>,
    fb: Signal<Local, Bits<32>>,
    ea: Signal<Local, Bits<10>>,
    eb: Signal<Local, Bits<10>>,
    ma: Signal<Local, Bits<34>>,
    mb: Signal<Local, Bits<34>>,
    a_zero: Signal<Local, Bit>,
    b_zero: Signal<Local, Bit>,
    a_inf: Signal<Local, Bit>,
    b_inf: Signal<Local, Bit>,
    a_nan: Signal<Local, Bit>,
    b_nan: Signal<Local, Bit>,
    ua: Signal<Local, Bits<32>>,
    ub: Signal<Local, Bits<32>>,
    // State.
    count: DFF<Bits<5>>,
    int_mode: DFF<Bit>,
    rem: DFF<Bits<34>>,
    quot: DFF<Bits<32>>,
    divisor: DFF<Bits<34>>,
    exp: DFF<Bits<10>>,
    sign: DFF<Bit>,
    special: DFF<Bit>,
    special_val: DFF<Bits<32>>,
    done_reg: DFF<Bit>,
    // The result, registered: rounding and the result select get a clock of their own, so the
    // core's writeback stage starts from a register.
    res_reg: DFF<Bits<32>>,
    out_done: DFF<Bit>,
    // Iteration values.
    x1: Signal<Local, Bits<34>>,
    d1: Signal<Local, Bits<35>>,
    y1: Signal<Local, Bits<34>>,
    x2: Signal<Local, Bits<34>>,
    d2: Signal<Local, Bits<35>>,
    y2: Signal<Local, Bits<34>>,
    r1: Signal<Local, Bits<34>>,
    r2: Signal<Local, Bits<34>>,
    q1: Signal<Local, Bit>,
    q2: Signal<Local, Bit>,
    // Rounding.
    sig: Signal<Local, Bits<24>>,
    guard: Signal<Local, Bit>,
    sticky: Signal<Local, Bit>,
    inc: Signal<Local, Bits<25>>,
    e1: Signal<Local, Bits<10>>,
    rounded: Signal<Local, Bits<32>>,
    int_res: Signal<Local, Bits<32>>,
}

impl Logic for FDiv {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            count,
            int_mode,
            rem,
            quot,
            divisor,
            exp,
            sign,
            special,
            special_val,
            done_reg,
            res_reg,
            out_done
        );
        // ---- Start: unpack, specials, alignment.
        self.fa.next = self.a.val();
        self.fb.next = self.b.val();
        if self.op.val() == 1 {
            self.fa.next = bits::<32>(0x3F80_0000);
            self.fb.next = self.a.val();
        }
        self.ea.next = bit_cast::<10, 8>(self.fa.val().get_bits::<8>(23));
        self.eb.next = bit_cast::<10, 8>(self.fb.val().get_bits::<8>(23));
        self.a_zero.next = !self.fa.val().get_bits::<8>(23).any();
        self.b_zero.next = !self.fb.val().get_bits::<8>(23).any();
        self.a_inf.next =
            self.fa.val().get_bits::<8>(23).all() & !self.fa.val().get_bits::<23>(0).any();
        self.b_inf.next =
            self.fb.val().get_bits::<8>(23).all() & !self.fb.val().get_bits::<23>(0).any();
        self.a_nan.next =
            self.fa.val().get_bits::<8>(23).all() & self.fa.val().get_bits::<23>(0).any();
        self.b_nan.next =
            self.fb.val().get_bits::<8>(23).all() & self.fb.val().get_bits::<23>(0).any();
        self.ma.next = bit_cast::<34, 23>(self.fa.val().get_bits::<23>(0)) | bits::<34>(0x80_0000);
        self.mb.next = bit_cast::<34, 23>(self.fb.val().get_bits::<23>(0)) | bits::<34>(0x80_0000);
        self.ua.next = self.a.val();
        if self.a.val().get_bit(31) {
            self.ua.next = bits::<32>(0) - self.a.val();
        }
        self.ub.next = self.b.val();
        if self.b.val().get_bit(31) {
            self.ub.next = bits::<32>(0) - self.b.val();
        }

        // ---- Iteration: two restoring steps (float: subtract, then double; integer: bring
        // down a dividend bit, then subtract). One subtractor per step serves both modes, and its
        // borrow is the comparison.
        self.x1.next = self.rem.q.val();
        if self.int_mode.q.val() {
            self.x1.next =
                (self.rem.q.val() << 1) | bit_cast::<34, 1>(self.quot.q.val().get_bit(31).into());
        }
        self.d1.next = bit_cast::<35, 34>(self.x1.val()) - bit_cast::<35, 34>(self.divisor.q.val());
        self.q1.next = !self.d1.val().get_bit(34);
        self.y1.next = self.x1.val();
        if self.q1.val() {
            self.y1.next = self.d1.val().get_bits::<34>(0);
        }
        self.r1.next = self.y1.val() << 1;
        self.x2.next = self.r1.val();
        if self.int_mode.q.val() {
            self.r1.next = self.y1.val();
            self.x2.next =
                (self.y1.val() << 1) | bit_cast::<34, 1>(self.quot.q.val().get_bit(30).into());
        }
        self.d2.next = bit_cast::<35, 34>(self.x2.val()) - bit_cast::<35, 34>(self.divisor.q.val());
        self.q2.next = !self.d2.val().get_bit(34);
        self.y2.next = self.x2.val();
        if self.q2.val() {
            self.y2.next = self.d2.val().get_bits::<34>(0);
        }
        self.r2.next = self.y2.val() << 1;
        if self.int_mode.q.val() {
            self.r2.next = self.y2.val();
        }

        self.done_reg.d.next = false;
        if self.count.q.val().any() {
            self.count.d.next = self.count.q.val() - 1;
            self.rem.d.next = self.r2.val();
            if self.int_mode.q.val() {
                // The dividend shifts out of `quot` from the top.
                self.quot.d.next = self.quot.q.val() << 2;
            } else {
                self.quot.d.next = (self.quot.q.val() << 2)
                    | (bit_cast::<32, 1>(self.q1.val().into()) << 1)
                    | bit_cast::<32, 1>(self.q2.val().into());
            }
            if self.count.q.val() == 1 {
                self.done_reg.d.next = true;
            }
        }

        if self.start.val() {
            self.int_mode.d.next = self.op.val() == 2;
            self.quot.d.next = bits::<32>(0);
            self.sign.d.next = self.fa.val().get_bit(31) ^ self.fb.val().get_bit(31);
            self.special.d.next = false;
            self.special_val.d.next = bits::<32>(0);
            if self.op.val() == 2 {
                self.count.d.next = bits::<5>(16);
                self.rem.d.next = bits::<34>(0);
                self.quot.d.next = self.ua.val();
                self.divisor.d.next = bit_cast::<34, 32>(self.ub.val());
                // Remembered for the end: by 0 gives all ones, the sign follows the dividend.
                self.special.d.next = !self.b.val().any();
                self.special_val.d.next = !bits::<32>(0);
                self.sign.d.next = self.a.val().get_bit(31);
            } else {
                self.count.d.next = bits::<5>(13);
                self.divisor.d.next = self.mb.val();
                self.exp.d.next = self.ea.val() - self.eb.val() + bits::<10>(127);
                self.rem.d.next = self.ma.val();
                if self.ma.val() < self.mb.val() {
                    self.rem.d.next = self.ma.val() << 1;
                    self.exp.d.next = self.ea.val() - self.eb.val() + bits::<10>(126);
                }
                if self.a_inf.val() | self.b_zero.val() {
                    self.special.d.next = true;
                    self.special_val.d.next = bits::<32>(0x7F80_0000);
                    if self.fa.val().get_bit(31) ^ self.fb.val().get_bit(31) {
                        self.special_val.d.next = !bits::<32>(0x007F_FFFF);
                    }
                } else if self.a_zero.val() | self.b_inf.val() {
                    self.special.d.next = true;
                    self.special_val.d.next = bits::<32>(0);
                    if self.fa.val().get_bit(31) ^ self.fb.val().get_bit(31) {
                        self.special_val.d.next = !bits::<32>(0x7FFF_FFFF);
                    }
                }
                if self.a_nan.val()
                    | self.b_nan.val()
                    | (self.a_inf.val() & self.b_inf.val())
                    | (self.a_zero.val() & self.b_zero.val())
                {
                    self.special.d.next = true;
                    self.special_val.d.next = bits::<32>(0x7FC0_0000);
                }
            }
        }

        // ---- Result: round and pack (float), sign (integer).
        self.sig.next = self.quot.q.val().get_bits::<24>(2);
        self.guard.next = self.quot.q.val().get_bit(1);
        self.sticky.next = self.quot.q.val().get_bit(0) | self.rem.q.val().any();
        self.inc.next = bit_cast::<25, 24>(self.sig.val());
        if self.guard.val() & (self.sticky.val() | self.sig.val().get_bit(0)) {
            self.inc.next = bit_cast::<25, 24>(self.sig.val()) + bits::<25>(1);
        }
        self.e1.next = self.exp.q.val();
        if self.inc.val().get_bit(24) {
            self.e1.next = self.exp.q.val() + bits::<10>(1);
        }
        self.rounded.next = (bit_cast::<32, 1>(self.sign.q.val().into()) << 31)
            | (bit_cast::<32, 8>(self.e1.val().get_bits::<8>(0)) << 23)
            | bit_cast::<32, 23>(self.inc.val().get_bits::<23>(0));
        if self.inc.val().get_bit(24) {
            self.rounded.next = (bit_cast::<32, 1>(self.sign.q.val().into()) << 31)
                | (bit_cast::<32, 8>(self.e1.val().get_bits::<8>(0)) << 23);
        }
        if !self.e1.val().get_bit(9) & (self.e1.val() >= bits::<10>(255)) {
            self.rounded.next =
                (bit_cast::<32, 1>(self.sign.q.val().into()) << 31) | bits::<32>(0x7F80_0000);
        }
        // At or below the normal range (judged before rounding, as the model's round_pack).
        if self.exp.q.val().get_bit(9) | !self.exp.q.val().any() {
            self.rounded.next = bit_cast::<32, 1>(self.sign.q.val().into()) << 31;
            if !self.exp.q.val().any() & self.sig.val().all() {
                self.rounded.next =
                    (bit_cast::<32, 1>(self.sign.q.val().into()) << 31) | bits::<32>(0x0080_0000);
            }
        }
        self.int_res.next = self.rem.q.val().get_bits::<32>(0);
        if self.sign.q.val() {
            self.int_res.next = bits::<32>(0) - self.rem.q.val().get_bits::<32>(0);
        }
        self.res_reg.d.next = self.rounded.val();
        if self.int_mode.q.val() {
            self.res_reg.d.next = self.int_res.val();
        }
        if self.special.q.val() {
            self.res_reg.d.next = self.special_val.q.val();
        }
        self.out_done.d.next = self.done_reg.q.val();
        self.result.next = self.res_reg.q.val();
        self.done.next = self.out_done.q.val();
    }
}

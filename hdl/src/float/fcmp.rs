//! `FCmp`: binary32 comparison and the selects of `MIN`, `MAX` and `SEL`, pipelined (one pair
//! per clock).
//!
//! Semantics (decisions.md section 2, the same as `microcode::arith::compare`): both operands
//! are flushed first (a subnormal is a zero of its sign); a NaN makes the pair unordered (`lt`,
//! `eq`, `gt` all clear); two zeros are equal whatever their signs. `pick` is one operand's bits
//! with a subnormal made a zero of its sign: by `mode`, `lt ? a : b` (`MIN`), `gt ? a : b`
//! (`MAX`, so `min(NaN, x) = x`, `min(x, NaN)` = that NaN's bits), `b` or `a` (`SEL`'s choice,
//! made by the caller's predicate).
//!
//! Timing: **latency 1 clock, throughput one pair per clock**: operands presented on `a`/`b`
//! before rising edge *n*, and the same operands registered by the caller on `a1`/`b1` (with
//! `mode`) after it, give all outputs right after edge *n*. Logic: a 31-bit magnitude
//! comparator (one carry chain) and sign logic before the edge, registered; one 32-bit 2:1
//! select and its flush after it, from the caller's registered operands (the comparator's path
//! from the operand block RAMs is the core's longest without the select in it, and a register
//! of the flushed operands here would be 64 flip-flops beside the caller's, each a logic cell
//! of its own). One select serves the three operations: a select each, and their flushes, were
//! about 100 logic cells more.
use rust_hdl::prelude::*;

/// Float comparator and min/max select; see the module documentation.
#[derive(LogicBlock, Default)]
pub struct FCmp {
    /// Clock; outputs are registered on its rising edge.
    pub clock: Signal<In, Clock>,
    /// First operand (binary32 bits).
    pub a: Signal<In, Bits<32>>,
    /// Second operand (binary32 bits).
    pub b: Signal<In, Bits<32>>,
    /// `a`, registered by the caller (one clock after `a`).
    pub a1: Signal<In, Bits<32>>,
    /// `b`, registered by the caller.
    pub b1: Signal<In, Bits<32>>,
    /// What `pick` takes, with `a1`/`b1`: 0 `lt ? a : b`, 1 `gt ? a : b`, 2 `b`, 3 `a`.
    pub mode: Signal<In, Bits<2>>,
    /// `a < b`.
    pub lt: Signal<Out, Bit>,
    /// `a == b` (`-0 == +0`, subnormals equal zero).
    pub eq: Signal<Out, Bit>,
    /// `a > b`.
    pub gt: Signal<Out, Bit>,
    /// At least one operand is NaN.
    pub unordered: Signal<Out, Bit>,
    /// The operand `mode` takes, flushed.
    pub pick: Signal<Out, Bits<32>>,

    fa: Signal<Local, Bits<32>>,
    fb: Signal<Local, Bits<32>>,
    take_a: Signal<Local, Bit>,
    chosen: Signal<Local, Bits<32>>,
    nan: Signal<Local, Bit>,
    zeros: Signal<Local, Bit>,
    mag_lt: Signal<Local, Bit>,
    mag_eq: Signal<Local, Bit>,
    c_lt: Signal<Local, Bit>,
    c_eq: Signal<Local, Bit>,
    c_gt: Signal<Local, Bit>,
    lt_q: DFF<Bit>,
    eq_q: DFF<Bit>,
    gt_q: DFF<Bit>,
    unordered_q: DFF<Bit>,
}

impl Logic for FCmp {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, lt_q, eq_q, gt_q, unordered_q);
        self.fa.next = self.a.val();
        if self.a.val().get_bits::<8>(23) == 0 {
            self.fa.next = bit_cast::<32, 1>(self.a.val().get_bit(31).into()) << 31;
        }
        self.fb.next = self.b.val();
        if self.b.val().get_bits::<8>(23) == 0 {
            self.fb.next = bit_cast::<32, 1>(self.b.val().get_bit(31).into()) << 31;
        }
        self.nan.next = ((self.a.val().get_bits::<8>(23) == 255)
            & (self.a.val().get_bits::<23>(0) != 0))
            | ((self.b.val().get_bits::<8>(23) == 255) & (self.b.val().get_bits::<23>(0) != 0));
        // The raw magnitudes order the flushed values too, except that two zero-or-subnormal
        // operands are equal: comparing raw bits keeps the flush out of the carry chain's path.
        self.zeros.next =
            (self.a.val().get_bits::<8>(23) == 0) & (self.b.val().get_bits::<8>(23) == 0);
        self.mag_lt.next = self.a.val().get_bits::<31>(0) < self.b.val().get_bits::<31>(0);
        self.mag_eq.next = self.a.val().get_bits::<31>(0) == self.b.val().get_bits::<31>(0);
        // Sign-magnitude order: a negative is below a positive (two zeros were caught above);
        // among negatives the larger magnitude is the smaller value.
        match (bit_cast::<2, 1>(self.a.val().get_bit(31).into()) << 1
            | bit_cast::<2, 1>(self.b.val().get_bit(31).into()))
        .index()
        {
            0 => self.c_lt.next = self.mag_lt.val(),
            1 => self.c_lt.next = false,
            2 => self.c_lt.next = true,
            _ => self.c_lt.next = !self.mag_lt.val() & !self.mag_eq.val(),
        }
        self.c_eq.next = (self.mag_eq.val()
            & (self.fa.val().get_bit(31) == self.fb.val().get_bit(31)))
            | self.zeros.val();
        if self.zeros.val() | self.nan.val() {
            self.c_lt.next = false;
        }
        if self.nan.val() {
            self.c_eq.next = false;
        }
        self.c_gt.next = !self.c_lt.val() & !self.c_eq.val() & !self.nan.val();
        self.lt_q.d.next = self.c_lt.val();
        self.eq_q.d.next = self.c_eq.val();
        self.gt_q.d.next = self.c_gt.val();
        self.unordered_q.d.next = self.nan.val();
        self.lt.next = self.lt_q.q.val();
        self.eq.next = self.eq_q.q.val();
        self.gt.next = self.gt_q.q.val();
        self.unordered.next = self.unordered_q.q.val();
        // After the edge: the registered operand chosen, flushed.
        match self.mode.val().index() {
            0 => self.take_a.next = self.lt_q.q.val(),
            1 => self.take_a.next = self.gt_q.q.val(),
            2 => self.take_a.next = false,
            _ => self.take_a.next = true,
        }
        self.chosen.next = self.b1.val();
        if self.take_a.val() {
            self.chosen.next = self.a1.val();
        }
        self.pick.next = self.chosen.val();
        if self.chosen.val().get_bits::<8>(23) == 0 {
            self.pick.next = bit_cast::<32, 1>(self.chosen.val().get_bit(31).into()) << 31;
        }
    }
}

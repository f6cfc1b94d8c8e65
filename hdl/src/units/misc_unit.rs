//! `MiscUnit`: every pipelined result that is not the multiply-add pipeline's (which also does
//! the rounding and int/float conversions, `crate::fadd`): moves, compares and selects
//! ([`FCmp`]), the exponent and significand of `EXPN`/`MANT`, the integer ALU, the
//! transcendental steps ([`TransUnit`]) and the texture unit ([`TexUnit`]), merged into one
//! result on the core's short write path.
//!
//! Timing: **latency [`MISC_UNIT_LATENCY`] = 4 clocks, one operation per clock**, 6 fewer than
//! [`crate::fmad_pipe::FmadPipe`] (the core's short write path, `isa::MISC_LATENCY`):
//! operands and controls presented before rising edge *n* give `result` right after edge
//! *n + 3*. Results join a single 32-bit chain where their unit delivers them (moves, compares,
//! the integer ALU and `EXPN` after 1 clock, the transcendental steps after 2, the texture unit
//! after 3).
//!
//! `SETP` uses [`ResultSel::Set`]: the predicate is bit 29 of `result` (set in 1.0, clear in 0).
use crate::decoder::{IntOp, ResultSel, TexOp, TransOp};
use crate::fcmp::FCmp;
use crate::tex_unit::TexUnit;
use crate::trans_unit::TransUnit;
use microcode::core::config::{CoreConfig, Features};
use rust_hdl::prelude::*;

/// Clocks from the operands to [`MiscUnit::result`].
pub const MISC_UNIT_LATENCY: u32 = 4;

/// The non-multiply-add results; see the module documentation.
#[derive(LogicBlock)]
pub struct MiscUnit {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Operand A.
    pub a: Signal<In, Bits<32>>,
    /// Operand B.
    pub b: Signal<In, Bits<32>>,
    /// Operand C (the transcendental steps `EX2F`, `SCQ`, the texture steps).
    pub c: Signal<In, Bits<32>>,
    /// Which result.
    pub sel: Signal<In, ResultSel>,
    /// Integer operation of `Int`.
    pub int_op: Signal<In, IntOp>,
    /// Signedness of `Sign` (`decoder::i2f_mode`: 0 int32, 1 uint32; literals here because a
    /// Rust constant would reach the Verilog as a bare name).
    pub i2f_mode: Signal<In, Bits<2>>,
    /// Comparison of `Set` (`isa::Cond` number).
    pub cond: Signal<In, Bits<3>>,
    /// The slot's predicate bit (`SEL`).
    pub p: Signal<In, Bit>,
    /// Step of [`ResultSel::Trans`].
    pub trans_op: Signal<In, TransOp>,
    /// Step of [`ResultSel::Tex`].
    pub tex_op: Signal<In, TexOp>,
    /// The slot's component (the channel of a texel fetch).
    pub comp: Signal<In, Bits<2>>,
    /// Texture memory write port ([`TexUnit`]): write `tw_data` at `tw_addr` at this edge.
    pub tw_we: Signal<In, Bit>,
    /// Texel address of the host's write or read.
    pub tw_addr: Signal<In, Bits<9>>,
    /// The written texel, RGBA8.
    pub tw_data: Signal<In, Bits<32>>,
    /// The host reads texture memory at `tw_addr` ([`TexUnit`]); the texel one edge later.
    pub tr_en: Signal<In, Bit>,
    /// The texel read (one edge after `tr_en`).
    pub tr_data: Signal<Out, Bits<32>>,
    /// The result, [`MISC_UNIT_LATENCY`] clocks later.
    pub result: Signal<Out, Bits<32>>,
    /// Operand A one clock later, as registered here (the core's address stack stores it).
    pub a1: Signal<Out, Bits<32>>,
    /// Operand C one clock later, as registered here (the core's addend line stores it).
    pub c1: Signal<Out, Bits<32>>,
    fcmp: FCmp,
    trans: TransUnit,
    tex: TexUnit,
    // Combinational values of the input cycle.
    exp: Signal<Local, Bits<8>>,
    early: Signal<Local, Bits<32>>,
    // The integer ALU and EXPN (one clock later, from the registered operands).
    shift: Signal<Local, Bits<32>>,
    add_x: Signal<Local, Bits<32>>,
    add_y: Signal<Local, Bits<32>>,
    add_c: Signal<Local, Bit>,
    sum: Signal<Local, Bits<32>>,
    flip: Signal<Local, Bits<32>>,
    rev_in: Signal<Local, Bits<32>>,
    sh_in: Signal<Local, Bits<32>>,
    sh_out: Signal<Local, Bits<32>>,
    rev_out: Signal<Local, Bits<32>>,
    int_res: Signal<Local, Bits<32>>,
    ia: DFF<Bits<32>>,
    ib: DFF<Bits<32>>,
    ic: DFF<Bits<32>>,
    iop: DFF<IntOp>,
    // EXPN: |unbiased exponent| (7 bits), its sign, its leading zeros, the float.
    xe: Signal<Local, Bits<8>>,
    xd: Signal<Local, Bits<8>>,
    xneg: Signal<Local, Bit>,
    xm: Signal<Local, Bits<7>>,
    xlz: Signal<Local, Bits<8>>,
    xn: Signal<Local, Bits<7>>,
    xres: Signal<Local, Bits<32>>,
    // The chain: r3 is the early result after one clock, d[0..3] carry the result on.
    r3: DFF<Bits<32>>,
    d: [DFF<Bits<32>>; 3],
    s: [DFF<ResultSel>; 3],
    cond3: DFF<Bits<3>>,
    pmode: DFF<Bits<2>>,
    c3: Signal<Local, Bits<32>>,
    cmp_true: Signal<Local, Bit>,
    c5: Signal<Local, Bits<32>>,
    has_int: Constant<Bit>,
    has_trans: Constant<Bit>,
    has_tex: Constant<Bit>,
}

impl MiscUnit {
    /// The unit for a build: the integer ALU only with the `INTEGER` feature, the
    /// transcendental steps only with `TRANSCENDENTAL`, the texture unit (with the build's
    /// `texture_texels`) only with `TEXTURE`. A left-out part's result is never selected and
    /// synthesis removes it.
    pub fn new(config: &CoreConfig) -> MiscUnit {
        MiscUnit {
            clock: Default::default(),
            a: Default::default(),
            b: Default::default(),
            c: Default::default(),
            sel: Default::default(),
            int_op: Default::default(),
            i2f_mode: Default::default(),
            cond: Default::default(),
            p: Default::default(),
            trans_op: Default::default(),
            tex_op: Default::default(),
            comp: Default::default(),
            tw_we: Default::default(),
            tw_addr: Default::default(),
            tw_data: Default::default(),
            tr_en: Default::default(),
            tr_data: Default::default(),
            result: Default::default(),
            a1: Default::default(),
            c1: Default::default(),
            fcmp: Default::default(),
            trans: Default::default(),
            tex: TexUnit::new(usize::from(config.texture_texels)),
            exp: Default::default(),
            early: Default::default(),
            shift: Default::default(),
            add_x: Default::default(),
            add_y: Default::default(),
            add_c: Default::default(),
            sum: Default::default(),
            flip: Default::default(),
            rev_in: Default::default(),
            sh_in: Default::default(),
            sh_out: Default::default(),
            rev_out: Default::default(),
            int_res: Default::default(),
            ia: Default::default(),
            ib: Default::default(),
            ic: Default::default(),
            iop: Default::default(),
            xe: Default::default(),
            xd: Default::default(),
            xneg: Default::default(),
            xm: Default::default(),
            xlz: Default::default(),
            xn: Default::default(),
            xres: Default::default(),
            r3: Default::default(),
            d: Default::default(),
            s: Default::default(),
            cond3: Default::default(),
            pmode: Default::default(),
            c3: Default::default(),
            cmp_true: Default::default(),
            c5: Default::default(),
            has_int: Constant::new(config.has(Features::INTEGER)),
            has_trans: Constant::new(config.has(Features::TRANSCENDENTAL)),
            has_tex: Constant::new(config.has(Features::TEXTURE)),
        }
    }
}

impl Logic for MiscUnit {
    // hdl_gen has no match guards, so the ifs stay inside the arms.
    #[allow(clippy::collapsible_match)]
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r3, cond3, pmode, ia, ib, ic, iop);
        clock!(self, clock, fcmp, trans, tex);
        for i in 0..3 {
            self.d[i].clock.next = self.clock.val();
            self.s[i].clock.next = self.clock.val();
        }

        // ---- Input cycle: start the units, compute the one-clock results.
        self.fcmp.a.next = self.a.val();
        self.fcmp.b.next = self.b.val();
        self.fcmp.a1.next = self.ia.q.val();
        self.fcmp.b1.next = self.ib.q.val();
        self.exp.next = self.a.val().get_bits::<8>(23);
        self.trans.a.next = self.a.val();
        self.trans.c.next = self.c.val();
        self.trans.a1.next = self.ia.q.val();
        self.trans.b1.next = self.ib.q.val();
        self.trans.c1.next = self.ic.q.val();
        self.trans.op.next = self.trans_op.val();
        self.tex.a1.next = self.ia.q.val();
        self.tex.b1.next = self.ib.q.val();
        self.tex.c1.next = self.ic.q.val();
        self.tex.op.next = self.tex_op.val();
        self.tex.comp.next = self.comp.val();
        self.tex.tw_we.next = self.tw_we.val();
        self.tex.tw_addr.next = self.tw_addr.val();
        self.tex.tw_data.next = self.tw_data.val();
        self.tex.tr_en.next = self.tr_en.val();
        // Without the texture unit nothing reads texture memory, so synthesis drops it.
        self.tr_data.next = 0.into();
        if self.has_tex.val() {
            self.tr_data.next = self.tex.tr_data.val();
        }

        // The integer ALU and EXPN work one clock later, from registered operands (the
        // operands come straight from the block RAMs; an adder and a shifter behind them would
        // be the core's longest path), and so do the transcendental and texture steps: one copy
        // of the operands for all of them.
        self.ia.d.next = self.a.val();
        self.ib.d.next = self.b.val();
        self.ic.d.next = self.c.val();
        self.a1.next = self.ia.q.val();
        self.c1.next = self.ic.q.val();
        self.iop.d.next = self.int_op.val();
        self.early.next = bits::<32>(0);
        match self.sel.val() {
            ResultSel::Mov => {
                self.early.next = self.a.val();
            }
            ResultSel::Sign => {
                self.early.next = bits::<32>(0x3F80_0000);
                if self.a.val().get_bit(31) & (self.i2f_mode.val() == 0) {
                    self.early.next = bits::<32>(0x3F80_0000) | (bits::<32>(1) << 31);
                }
                if !self.a.val().any() {
                    self.early.next = bits::<32>(0);
                }
            }
            ResultSel::Mant => {
                self.early.next =
                    bits::<32>(0x3F80_0000) | (self.a.val() & bits::<32>(0x007F_FFFF));
                if (self.exp.val() == 0) | (self.exp.val() == 255) {
                    self.early.next = bits::<32>(0x7FC0_0000);
                }
            }
            _ => {}
        }
        self.r3.d.next = self.early.val();
        // MIN, MAX and SEL are one select of the compare unit (flush(p ? a : b) for SEL).
        self.pmode.d.next = bits::<2>(0);
        match self.sel.val() {
            ResultSel::Max => {
                self.pmode.d.next = bits::<2>(1);
            }
            ResultSel::Sel => {
                self.pmode.d.next = bits::<2>(2) | bit_cast::<2, 1>(self.p.val().into());
            }
            _ => {}
        }
        self.fcmp.mode.next = self.pmode.q.val();
        self.s[0].d.next = self.sel.val();
        self.cond3.d.next = self.cond.val();

        // ---- After 1 clock: compares.
        self.cmp_true.next = false;
        match self.cond3.q.val().index() {
            0 => {
                self.cmp_true.next = self.fcmp.lt.val();
            }
            1 => {
                self.cmp_true.next = self.fcmp.gt.val() | self.fcmp.eq.val();
            }
            2 => {
                self.cmp_true.next = self.fcmp.eq.val();
            }
            3 => {
                self.cmp_true.next = !self.fcmp.eq.val();
            }
            4 => {
                self.cmp_true.next = self.fcmp.gt.val();
            }
            5 => {
                self.cmp_true.next = self.fcmp.lt.val() | self.fcmp.eq.val();
            }
            6 => {
                self.cmp_true.next = false;
            }
            _ => {
                self.cmp_true.next = true;
            }
        }
        // The integer ALU: one adder (x + y + carry-in) for IADD and ISUB (the compiler negates
        // with ISUB from 0 and takes magnitudes with a shift, XOR and ISUB), one
        // logical right shifter for both shifts (SHL through bit reversal, SHR through the
        // sign XOR: `!(!a >> s)` fills with ones).
        self.shift.next = bit_cast::<32, 5>(self.ib.q.val().get_bits::<5>(0));
        self.add_x.next = self.ia.q.val();
        self.add_y.next = self.ib.q.val();
        self.add_c.next = false;
        if self.iop.q.val() == IntOp::Isub {
            self.add_y.next = !self.ib.q.val();
            self.add_c.next = true;
        }
        self.sum.next =
            self.add_x.val() + self.add_y.val() + bit_cast::<32, 1>(self.add_c.val().into());
        self.flip.next = bits::<32>(0);
        if (self.iop.q.val() == IntOp::Shr) & self.ia.q.val().get_bit(31) {
            self.flip.next = !bits::<32>(0);
        }
        self.rev_in.next = bits::<32>(0);
        for i in 0..32 {
            self.rev_in.next = self
                .rev_in
                .val()
                .replace_bit(i, self.ia.q.val().get_bit(31 - i));
        }
        self.sh_in.next = self.ia.q.val() ^ self.flip.val();
        if self.iop.q.val() == IntOp::Shl {
            self.sh_in.next = self.rev_in.val();
        }
        self.sh_out.next = (self.sh_in.val() >> self.shift.val()) ^ self.flip.val();
        self.rev_out.next = bits::<32>(0);
        for i in 0..32 {
            self.rev_out.next = self
                .rev_out
                .val()
                .replace_bit(i, self.sh_out.val().get_bit(31 - i));
        }
        self.int_res.next = self.sum.val();
        match self.iop.q.val() {
            IntOp::And => {
                self.int_res.next = self.ia.q.val() & self.ib.q.val();
            }
            IntOp::Or => {
                self.int_res.next = self.ia.q.val() | self.ib.q.val();
            }
            IntOp::Xor => {
                self.int_res.next = self.ia.q.val() ^ self.ib.q.val();
            }
            IntOp::Not => {
                self.int_res.next = !self.ia.q.val();
            }
            IntOp::Shl => {
                self.int_res.next = self.rev_out.val();
            }
            IntOp::Shr => {
                self.int_res.next = self.sh_out.val();
            }
            _ => {}
        }

        // EXPN: the unbiased exponent |e - 127| (7 bits for exponents 1..=254) as a float, its
        // leading one the hidden bit; zero (and subnormals) give -inf, infinity +inf, NaN NaN.
        self.xe.next = self.ia.q.val().get_bits::<8>(23);
        self.xd.next = self.xe.val() - bits::<8>(127);
        self.xneg.next = false;
        if self.xe.val() < bits::<8>(127) {
            self.xd.next = bits::<8>(127) - self.xe.val();
            self.xneg.next = true;
        }
        self.xm.next = self.xd.val().get_bits::<7>(0);
        self.xlz.next = bits::<8>(0);
        if !self.xm.val().get_bit(6) {
            self.xlz.next = bits::<8>(1);
            if !self.xm.val().get_bit(5) {
                self.xlz.next = bits::<8>(2);
                if !self.xm.val().get_bit(4) {
                    self.xlz.next = bits::<8>(3);
                    if !self.xm.val().get_bit(3) {
                        self.xlz.next = bits::<8>(4);
                        if !self.xm.val().get_bit(2) {
                            self.xlz.next = bits::<8>(5);
                            if !self.xm.val().get_bit(1) {
                                self.xlz.next = bits::<8>(6);
                            }
                        }
                    }
                }
            }
        }
        self.xn.next = self.xm.val() << bit_cast::<7, 3>(self.xlz.val().get_bits::<3>(0));
        self.xres.next = (bit_cast::<32, 1>(self.xneg.val().into()) << 31)
            | (bit_cast::<32, 8>(bits::<8>(133) - self.xlz.val()) << 23)
            | (bit_cast::<32, 6>(self.xn.val().get_bits::<6>(0)) << 17);
        if !self.xm.val().any() {
            self.xres.next = bits::<32>(0);
        }
        if self.xe.val() == 0 {
            self.xres.next = !bits::<32>(0x007F_FFFF);
        }
        if self.xe.val() == 255 {
            self.xres.next = bits::<32>(0x7F80_0000);
            if self.ia.q.val().get_bits::<23>(0).any() {
                self.xres.next = bits::<32>(0x7FC0_0000);
            }
        }

        self.c3.next = self.r3.q.val();
        match self.s[0].q.val() {
            ResultSel::Int => {
                if self.has_int.val() {
                    self.c3.next = self.int_res.val();
                }
            }
            ResultSel::Expn => {
                self.c3.next = self.xres.val();
            }
            ResultSel::Min => {
                self.c3.next = self.fcmp.pick.val();
            }
            ResultSel::Max => {
                self.c3.next = self.fcmp.pick.val();
            }
            ResultSel::Sel => {
                self.c3.next = self.fcmp.pick.val();
            }
            ResultSel::Set => {
                self.c3.next = bits::<32>(0);
                if self.cmp_true.val() {
                    self.c3.next = bits::<32>(0x3F80_0000);
                }
            }
            _ => {}
        }
        self.d[0].d.next = self.c3.val();
        self.s[1].d.next = self.s[0].q.val();
        // ---- After 2 clocks: the transcendental steps.
        self.d[1].d.next = self.d[0].q.val();
        if (self.s[1].q.val() == ResultSel::Trans) & self.has_trans.val() {
            self.d[1].d.next = self.trans.result.val();
        }
        self.s[2].d.next = self.s[1].q.val();
        // ---- After 3 clocks: the texture unit.
        self.c5.next = self.d[1].q.val();
        if (self.s[2].q.val() == ResultSel::Tex) & self.has_tex.val() {
            self.c5.next = self.tex.result.val();
        }
        self.d[2].d.next = self.c5.val();
        self.result.next = self.d[2].q.val();
    }
}

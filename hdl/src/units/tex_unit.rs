//! `TexUnit`: the texture unit: texture memory (RGBA8 texels in block RAM, written through the
//! host port), the unorm-to-float conversion, and the addressing steps of the TEX and TXF sequences
//! (`TIDX`, `TIDXF`, `TFRC`, `TSEL`, `TFET`; `microcode::arith::texel`). Sampling on 1D, 2D and RECT targets is a
//! compiled sequence of these steps and ordinary multiply-adds (`microcode/src/compile/texture.rs`),
//! so this block and the float pipeline are all the hardware it needs.
//!
//! Ports: the step `op` and the slot's component `comp` (the channel a `TFET` returns) in, and
//! one clock later the operands `a1`, `b1`, `c1`, registered by the caller (the compare unit
//! registers its operands once for all its parts: a copy each would be 96 flip-flops without a
//! LUT, a logic cell apiece); `result` out; the texture memory's write port `tw_we`, `tw_addr`,
//! `tw_data` (texel `i` at address `i`, channel c in bits `8c .. 8c+7`); the host's read of it:
//! `tr_en` (the core is idle: the read port follows `tw_addr`) and `tr_data` (the texel, one
//! edge after the address).
//!
//! Timing: **latency 3, one operation per clock**: operands presented before rising edge *n* give
//! `result` right after edge *n + 2*. Clock 1 registers the operands (the caller); clock 2 adds the "+1" of
//! `TIDX` (33 bits, so `i32::MAX + 1` does not wrap) and reads the texel at `A + B`; clock 3 wraps
//! the index (repeat as a mask: the hardware's textures have power-of-two sizes; clamp by
//! comparison) and shifts it to its place, or registers the channel's byte `k` and converts it
//! to `k/255`, correctly rounded (see [`TexUnit`]'s `update`: no table). Texture memory:
//! [`TEXELS`] texels (4 block RAMs) or fewer ([`TexUnit::new`]; 256 texels take 2).
use crate::bram::Bram;
use crate::decoder::TexOp;
use rust_hdl::prelude::*;

/// Most texels of texture memory (its 9-bit address); a build may have fewer
/// (`CoreConfig::texture_texels`, [`TexUnit::new`]).
pub const TEXELS: usize = 512;

/// The texture unit; see the module documentation.
#[derive(LogicBlock)]
pub struct TexUnit {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Operand A, one clock after `op` (`TIDX`: floor as int32; `TFRC`/`TSEL`: the value;
    /// `TFET`: the texel address).
    pub a1: Signal<In, Bits<32>>,
    /// Operand B, one clock after `op` (`TIDX`/`TFRC`: the coordinate; `TSEL`: the texel;
    /// `TFET`: the texture's base).
    pub b1: Signal<In, Bits<32>>,
    /// Operand C, one clock after `op` (the axis word, `arith::texel::axis`).
    pub c1: Signal<In, Bits<32>>,
    /// Which step.
    pub op: Signal<In, TexOp>,
    /// The slot's component: the channel `TFET` returns.
    pub comp: Signal<In, Bits<2>>,
    /// Texture memory write enable (host port).
    pub tw_we: Signal<In, Bit>,
    /// Texture memory write address.
    pub tw_addr: Signal<In, Bits<9>>,
    /// Texture memory write data (RGBA8).
    pub tw_data: Signal<In, Bits<32>>,
    /// The host reads texture memory at `tw_addr` (only while no texture step runs).
    pub tr_en: Signal<In, Bit>,
    /// The texel the host reads, one edge after `tw_addr`.
    pub tr_data: Signal<Out, Bits<32>>,
    /// The step's result, 3 clocks later.
    pub result: Signal<Out, Bits<32>>,
    mem: Bram<32, 9>,
    // Clock 1.
    op1: DFF<TexOp>,
    comp1: DFF<Bits<2>>,
    // Clock 2.
    fin1: Signal<Local, Bit>,
    out2: DFF<Bit>,
    out3: DFF<Bit>,
    n_eff: Signal<Local, Bits<33>>,
    v1: Signal<Local, Bits<32>>,
    sum2: DFF<Bits<33>>,
    c2: DFF<Bits<32>>,
    v2: DFF<Bits<32>>,
    op2: DFF<TexOp>,
    comp2: DFF<Bits<2>>,
    // Clock 3.
    size_m1: Signal<Local, Bits<15>>,
    wrapped: Signal<Local, Bits<15>>,
    placed: Signal<Local, Bits<32>>,
    v3: DFF<Bits<32>>,
    op3: DFF<TexOp>,
    k3: DFF<Bits<8>>,
    lz: Signal<Local, Bits<8>>,
    sh: Signal<Local, Bits<3>>,
    rot: Signal<Local, Bits<16>>,
    r: Signal<Local, Bits<8>>,
    low7: Signal<Local, Bits<7>>,
    unorm: Signal<Local, Bits<32>>,
}

impl Default for TexUnit {
    fn default() -> Self {
        Self::new(TEXELS)
    }
}

impl TexUnit {
    /// A texture unit with `texels` texels of texture memory (at most [`TEXELS`]; addresses
    /// beyond read zero and write nothing).
    pub fn new(texels: usize) -> Self {
        TexUnit {
            clock: Default::default(),
            a1: Default::default(),
            b1: Default::default(),
            c1: Default::default(),
            op: Default::default(),
            comp: Default::default(),
            tw_we: Default::default(),
            tw_addr: Default::default(),
            tw_data: Default::default(),
            tr_en: Default::default(),
            tr_data: Default::default(),
            result: Default::default(),
            mem: Bram::with_depth_and_contents(texels.clamp(1, TEXELS), &[]),
            op1: Default::default(),
            comp1: Default::default(),
            fin1: Default::default(),
            out2: Default::default(),
            out3: Default::default(),
            n_eff: Default::default(),
            v1: Default::default(),
            sum2: Default::default(),
            c2: Default::default(),
            v2: Default::default(),
            op2: Default::default(),
            comp2: Default::default(),
            size_m1: Default::default(),
            wrapped: Default::default(),
            placed: Default::default(),
            v3: Default::default(),
            op3: Default::default(),
            k3: Default::default(),
            lz: Default::default(),
            sh: Default::default(),
            rot: Default::default(),
            r: Default::default(),
            low7: Default::default(),
            unorm: Default::default(),
        }
    }
}

impl Logic for TexUnit {
    // hdl_gen has no match guards, so the ifs stay inside the arms.
    #[allow(clippy::collapsible_match)]
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, op1, comp1, sum2, c2, v2, op2, comp2, v3, op3, out2, out3, k3);
        clock!(self, clock, mem);

        // ---- Clock 1: the operands arrive registered by the caller.
        self.op1.d.next = self.op.val();
        self.comp1.d.next = self.comp.val();

        // ---- Clock 2: the index plus one, the weight and select, the texel read.
        self.fin1.next = self.b1.val().get_bits::<8>(23) != bits::<8>(255);
        self.n_eff.next = bits::<33>(0);
        if self.fin1.val() | (self.op1.q.val() == TexOp::IdxF) {
            self.n_eff.next = bit_cast::<33, 32>(self.a1.val())
                | (bit_cast::<33, 1>(self.a1.val().get_bit(31).into()) << 32);
        }
        self.sum2.d.next = self.n_eff.val();
        if self.op1.q.val() == TexOp::Idx {
            self.sum2.d.next =
                self.n_eff.val() + bit_cast::<33, 1>(self.c1.val().get_bit(21).into());
        }
        self.v1.next = self.b1.val();
        match self.op1.q.val() {
            TexOp::Frc => {
                self.v1.next = bits::<32>(0);
                if self.fin1.val() & self.c1.val().get_bit(22) {
                    self.v1.next = self.a1.val();
                }
            }
            TexOp::Sel => {
                if self.c1.val().get_bit(22) {
                    self.v1.next = self.a1.val();
                }
            }
            TexOp::Or => {
                self.v1.next = self.a1.val() | self.b1.val();
            }
            _ => {}
        }
        self.v2.d.next = self.v1.val();
        self.c2.d.next = self.c1.val();
        if self.op1.q.val() == TexOp::IdxF {
            self.c2.d.next = self.b1.val();
        }
        // TFET: an address with bit 31 set reads zeros.
        self.out2.d.next = self.a1.val().get_bit(31);
        self.op2.d.next = self.op1.q.val();
        self.comp2.d.next = self.comp1.q.val();
        self.mem.ra.next = self.a1.val().get_bits::<9>(0) + self.b1.val().get_bits::<9>(0);
        if self.tr_en.val() {
            self.mem.ra.next = self.tw_addr.val();
        }
        self.tr_data.next = self.mem.rd.val();
        self.mem.we.next = self.tw_we.val();
        self.mem.wa.next = self.tw_addr.val();
        self.mem.wd.next = self.tw_data.val();

        // ---- Clock 3: wrap and place the index; the channel's byte.
        self.size_m1.next = self.c2.q.val().get_bits::<15>(0);
        self.wrapped.next = self.sum2.q.val().get_bits::<15>(0) & self.size_m1.val();
        if self.c2.q.val().get_bit(20) {
            self.wrapped.next = self.sum2.q.val().get_bits::<15>(0);
            if self.sum2.q.val().get_bits::<18>(15).any()
                | (self.sum2.q.val().get_bits::<15>(0) > self.size_m1.val())
            {
                self.wrapped.next = self.size_m1.val();
            }
            if self.sum2.q.val().get_bit(32) {
                self.wrapped.next = bits::<15>(0);
            }
        }
        self.placed.next = bit_cast::<32, 15>(self.wrapped.val())
            << bit_cast::<32, 4>(self.c2.q.val().get_bits::<4>(16));
        self.v3.d.next = self.v2.q.val();
        if self.op2.q.val() == TexOp::Idx {
            self.v3.d.next = self.placed.val();
        }
        if self.op2.q.val() == TexOp::IdxF {
            self.v3.d.next = self.placed.val();
            if self.sum2.q.val().get_bits::<18>(15).any()
                | (self.sum2.q.val().get_bits::<15>(0) > self.size_m1.val())
            {
                self.v3.d.next = bits::<32>(1) << 31;
            }
        }
        self.out3.d.next = self.out2.q.val();
        self.op3.d.next = self.op2.q.val();
        self.k3.d.next = self.mem.rd.val().get_bits::<8>(0);
        match self.comp2.q.val().index() {
            1 => {
                self.k3.d.next = self.mem.rd.val().get_bits::<8>(8);
            }
            2 => {
                self.k3.d.next = self.mem.rd.val().get_bits::<8>(16);
            }
            3 => {
                self.k3.d.next = self.mem.rd.val().get_bits::<8>(24);
            }
            _ => {}
        }
        // k/255 in binary is k's eight bits repeated forever: with the leading one at bit 7 - lz,
        // the significand is the byte rotated left by lz + 1, three times over (23 bits), and
        // the first bit left out decides the rounding (the infinite rest is never zero, so there
        // are no ties). The increment stays inside the last seven bits unless they and the
        // rounding bit are all ones, which only 255 (exactly 1.0) gives.
        self.lz.next = bits::<8>(0);
        if !self.k3.q.val().get_bit(7) {
            self.lz.next = bits::<8>(1);
            if !self.k3.q.val().get_bit(6) {
                self.lz.next = bits::<8>(2);
                if !self.k3.q.val().get_bit(5) {
                    self.lz.next = bits::<8>(3);
                    if !self.k3.q.val().get_bit(4) {
                        self.lz.next = bits::<8>(4);
                        if !self.k3.q.val().get_bit(3) {
                            self.lz.next = bits::<8>(5);
                            if !self.k3.q.val().get_bit(2) {
                                self.lz.next = bits::<8>(6);
                                if !self.k3.q.val().get_bit(1) {
                                    self.lz.next = bits::<8>(7);
                                }
                            }
                        }
                    }
                }
            }
        }
        self.sh.next = self.lz.val().get_bits::<3>(0) + bits::<3>(1);
        self.rot.next = bit_cast::<16, 8>(self.k3.q.val()) << bit_cast::<16, 3>(self.sh.val());
        self.r.next = self.rot.val().get_bits::<8>(0) | self.rot.val().get_bits::<8>(8);
        self.low7.next =
            self.r.val().get_bits::<7>(1) + bit_cast::<7, 1>(self.r.val().get_bit(0).into());
        self.unorm.next = (bit_cast::<32, 8>(bits::<8>(126) - self.lz.val()) << 23)
            | (bit_cast::<32, 8>(self.r.val()) << 15)
            | (bit_cast::<32, 8>(self.r.val()) << 7)
            | bit_cast::<32, 7>(self.low7.val());
        if !self.k3.q.val().any() {
            self.unorm.next = bits::<32>(0);
        }
        if self.k3.q.val().all() {
            self.unorm.next = bits::<32>(0x3F80_0000);
        }
        self.result.next = self.v3.q.val();
        if self.op3.q.val() == TexOp::Fet {
            self.result.next = self.unorm.val();
            if self.out3.q.val() {
                self.result.next = bits::<32>(0);
            }
        }
    }
}

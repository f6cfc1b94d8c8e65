//! `ShaderCore`: the shader core's top level: instruction memory, [`Decoder`], [`Sequencer`],
//! three [`OperandRead`] copies of the register file and the one copy of the constant file, the
//! [`FmadPipe`] and [`MiscUnit`] side by side, the [`Writeback`] stage, and the host port of
//! [`crate::host_port`].
//!
//! Pipeline of one slot issued in cycle t: t address the operand memories; t+1 read, literal and
//! swizzle select, modifiers, straight into both units (which register their inputs). The long
//! path: at t+11 the multiply-add's result is there and the writeback stage scales and
//! saturates into a register; the word is written at the edge ending t+12, so a read issued at
//! t+13 sees it: the ISA's read-to-writeback latency of 13 clocks, which the 16-slot issue order
//! covers without hazard logic. The short path (every other unit): the result is there at t+5
//! and written at the edge ending t+6 (`isa::MISC_LATENCY`); the sequencer delays a short-path
//! instruction that would overtake a multiply-add's writes (`isa::retire_wait`), so one write
//! port serves both. The slot's controls (write enable after the write mask, the execution
//! mask and the predicated-write test; destination; scale; saturate; result select) travel with
//! it: two clocks in flip-flops, then a block RAM read at either tap.
//!
//! Ports: the host port ([`crate::host_port`]). Timing: see above and the sequencer.
use crate::address_stack::AddressStack;
use crate::bram::Bram;
use crate::decoder::{deriv, rel, Decoder, ExecKind, IntOp, ResultSel, TexOp, TransOp};
use crate::fadd::{AddOp, RoundMode};
use crate::fmad_pipe::FmadPipe;
use crate::host_port::{HostBus, CONST_BASE, REG_BASE, TEXTURE_BASE};
use crate::misc_unit::MiscUnit;
use crate::operand_read::OperandRead;
use crate::rel_index::RelIndex;
use crate::sequencer::Sequencer;
use crate::slot_ring::SlotRing;
use crate::writeback::Writeback;
use microcode::core::CoreConfig;
use rust_hdl::prelude::*;

/// Stages from issue to the writeback stage: the long path's result is written at the edge
/// ending `isa::LATENCY - 1` clocks after issue.
pub const WRITEBACK_STAGE: usize = microcode::core::isa::LATENCY as usize - 1;
/// Words of instruction memory (its block RAMs' 8-bit address).
pub const PROGRAM_WORDS: usize = 1 << 8;

/// The shader core; see the module documentation.
#[derive(LogicBlock)]
pub struct ShaderCore {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The host port ([`crate::host_port`]).
    pub host: HostBus,
    /// Debug: the address of the executing instruction (traces; unused on the board).
    pub dbg_pc: Signal<Out, Bits<8>>,
    /// Debug: high in the first clock of each executed instruction.
    pub dbg_first: Signal<Out, Bit>,
    imem: [Bram<32, 8>; 4],
    dec: Decoder,
    seq: Sequencer,
    opa: OperandRead,
    opb: OperandRead,
    opc: OperandRead,
    // The constant file K (64 vec4, `4s + c`): one copy, read at the address of the
    // instruction's one K view (A's, else B's, else C's: the ISA's constant rule).
    kmem: Bram<32, 8>,
    hr_const: DFF<Bit>,
    fmad: FmadPipe,
    misc: MiscUnit,
    wb: Writeback,
    // Controls of the units, one and two clocks after issue.
    x1_sel: DFF<ResultSel>,
    x1_round: DFF<RoundMode>,
    x1_add_op: DFF<AddOp>,
    x1_int: DFF<IntOp>,
    x1_trans: DFF<TransOp>,
    x1_tex: DFF<TexOp>,
    x1_comp: DFF<Bits<2>>,
    x1_i2f: DFF<Bits<2>>,
    x1_cond: DFF<Bits<3>>,
    x1_p: DFF<Bit>,
    // The slot's controls, to the writeback stage through the ring.
    slots: SlotRing,
    meta_in: Signal<Local, Bits<16>>,
    // The registered writeback: write enable, R word, value; predicate write and value.
    wb_we: DFF<Bit>,
    wb_wa: DFF<Bits<8>>,
    wb_wd: DFF<Bits<32>>,
    wb_pwe: DFF<Bit>,
    wb_pval: DFF<Bit>,
    // Relative moves: the clock within the instruction, each lane's index and whether it is in
    // range, read in clocks 12..15 (after the previous instruction's last write).
    pclk: DFF<Bits<5>>,
    cur_clk: Signal<Local, Bits<5>>,
    rd_valid: DFF<Bit>,
    rd_lane: DFF<Bits<2>>,
    // Each lane's relative-move index and range flag.
    rel: RelIndex,
    lane_i: Signal<Local, Bits<8>>,
    lane_ok: Signal<Local, Bit>,
    dst_eff: Signal<Local, Bits<8>>,
    // One block RAM pair holds the multiply-add's addend delay line (words 0..7: the addend of
    // the slot issued at t, written at t+2, read back for the adder at t+6) and the address
    // stack of PUSHA / POPA (per lane up to 15 vec4 entries, entry e at word
    // `16 * (e + 1) + 4 * lane + component`). They never need a port in the same clock: a
    // PUSHA slot writes two clocks after issue, when the line's word would belong to that
    // (non-multiply-add) slot; a POPA slot reads at issue, which the retire rule puts at least
    // 5 clocks after the last multiply-add slot, whose addend the line read 4 clocks after it.
    // The stack's control ([`AddressStack`]): each lane's depth, the push write two clocks
    // after issue (with the operand), the pop read at issue into the misc unit's operand A.
    ast: Bram<32, 8>,
    acnt: DFF<Bits<3>>,
    // The line's read word (a sized local: the emitted Verilog would widen `acnt - 4` to 32
    // bits before the cast to the address width).
    aread: Signal<Local, Bits<3>>,
    astack: AddressStack,
    ext_fault: Signal<Local, Bits<4>>,
    // Issue.
    lane: Signal<Local, Bits<2>>,
    comp: Signal<Local, Bits<2>>,
    pass: Signal<Local, Bit>,
    we_slot: Signal<Local, Bit>,
    wp_slot: Signal<Local, Bit>,
    // Memory write port shared by the three register-file copies and K (bit 8 of the address
    // selects K).
    mem_we: Signal<Local, Bit>,
    mem_wa: Signal<Local, Bits<9>>,
    mem_wd: Signal<Local, Bits<32>>,
    // Host port decode.
    region_prog: Signal<Local, Bit>,
    region_const: Signal<Local, Bit>,
    region_registers: Signal<Local, Bit>,
    region_tex: Signal<Local, Bit>,
    // The host map's regions (`host_port::CONST_BASE`, `REG_BASE`: 256-word pages;
    // `TEXTURE_BASE`: a 512-word page).
    page_const: Constant<Bits<8>>,
    page_registers: Constant<Bits<8>>,
    page_tex: Constant<Bits<7>>,
    // The decoder's encodings (`decoder::rel`, `decoder::deriv`).
    rel_read: Constant<Bits<2>>,
    rel_write: Constant<Bits<2>>,
    deriv_x: Constant<Bits<2>>,
    hr_prog: DFF<Bit>,
    hr_tex: DFF<Bit>,
    hr_bank: DFF<Bits<2>>,
    rdata: DFF<Bits<32>>,
    all_one: Constant<Bits<12>>,
}

impl ShaderCore {
    /// A core built for `config` on an FPGA of `family` (the iCE40's is [`ShaderCore::new`]).
    ///
    /// On the ECP5 the float multiplier's significand product runs on the multiplier blocks
    /// (`FMul::with_dsp`) and the slot controls' ring is 16 words of LUT RAM instead of a block
    /// RAM; results and timing are the same.
    pub fn for_family(config: &CoreConfig, family: microcode::board::Family) -> ShaderCore {
        let mut core = ShaderCore::new(config);
        if family == microcode::board::Family::Ecp5 {
            core.fmad = FmadPipe::with_dsp();
            core.slots = SlotRing::lut_ram();
        }
        core
    }

    /// A core built for `config`: literal set, stack depths and the optional units of
    /// `config.features` (an operation of a left-out unit faults `MISSING_UNIT`); the memory
    /// sizes are those of the board build.
    pub fn new(config: &CoreConfig) -> ShaderCore {
        let lits = &config.literals[..];
        ShaderCore {
            clock: Default::default(),
            host: Default::default(),
            dbg_pc: Default::default(),
            dbg_first: Default::default(),
            imem: Default::default(),
            dec: Decoder::new(config.features),
            seq: Sequencer::new(config.call_stack_depth, config.mask_stack_depth),
            opa: OperandRead::new(lits),
            opb: OperandRead::new(lits),
            opc: OperandRead::new(lits),
            kmem: Default::default(),
            hr_const: Default::default(),
            fmad: Default::default(),
            misc: MiscUnit::new(config),
            wb: Default::default(),
            x1_sel: Default::default(),
            x1_round: Default::default(),
            x1_add_op: Default::default(),
            x1_int: Default::default(),
            x1_trans: Default::default(),
            x1_tex: Default::default(),
            x1_comp: Default::default(),
            pclk: Default::default(),
            cur_clk: Default::default(),
            rd_valid: Default::default(),
            rd_lane: Default::default(),
            rel: Default::default(),
            lane_i: Default::default(),
            lane_ok: Default::default(),
            dst_eff: Default::default(),
            ast: Default::default(),
            acnt: Default::default(),
            aread: Default::default(),
            astack: AddressStack::new(config.address_stack_depth),
            ext_fault: Default::default(),
            x1_i2f: Default::default(),
            x1_cond: Default::default(),
            x1_p: Default::default(),
            slots: SlotRing::block_ram(),
            meta_in: Default::default(),
            wb_we: Default::default(),
            wb_wa: Default::default(),
            wb_wd: Default::default(),
            wb_pwe: Default::default(),
            wb_pval: Default::default(),
            lane: Default::default(),
            comp: Default::default(),
            pass: Default::default(),
            we_slot: Default::default(),
            wp_slot: Default::default(),
            mem_we: Default::default(),
            mem_wa: Default::default(),
            mem_wd: Default::default(),
            region_prog: Default::default(),
            region_const: Default::default(),
            region_registers: Default::default(),
            region_tex: Default::default(),
            page_const: Constant::new(u64::from(CONST_BASE >> 8).to_bits()),
            page_registers: Constant::new(u64::from(REG_BASE >> 8).to_bits()),
            page_tex: Constant::new(u64::from(TEXTURE_BASE >> 9).to_bits()),
            rel_read: Constant::new(rel::READ.to_bits()),
            rel_write: Constant::new(rel::WRITE.to_bits()),
            deriv_x: Constant::new(deriv::X.to_bits()),
            hr_prog: Default::default(),
            hr_tex: Default::default(),
            hr_bank: Default::default(),
            rdata: Default::default(),
            // Four SWZ_ONE selectors: the derivatives' B operand is 1.0.
            all_one: Constant::new(0xB6D_u64.to_bits()),
        }
    }
}

impl Logic for ShaderCore {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, x1_sel, x1_round, x1_add_op, x1_int, x1_trans, x1_tex, x1_comp, x1_i2f,
            x1_cond, x1_p, hr_prog, hr_tex, hr_const, hr_bank, rdata, wb_we, wb_wa, wb_wd, wb_pwe,
            wb_pval, pclk, rd_valid, rd_lane, acnt
        );
        clock!(self, clock, ast, kmem, astack);
        clock!(self, clock, seq, opa, opb, opc, fmad, misc, slots);
        for i in 0..4 {
            self.imem[i].clock.next = self.clock.val();
        }

        // ---- Host port decode.
        self.region_prog.next = !self.host.addr.val().get_bits::<6>(10).any();
        self.region_const.next = self.host.addr.val().get_bits::<8>(8) == self.page_const.val();
        self.region_registers.next =
            self.host.addr.val().get_bits::<8>(8) == self.page_registers.val();
        self.region_tex.next = self.host.addr.val().get_bits::<7>(9) == self.page_tex.val();

        // ---- Instruction memory and decoder.
        for i in 0..4 {
            self.imem[i].ra.next = self.host.addr.val().get_bits::<8>(2);
            if self.seq.busy.val() {
                self.imem[i].ra.next = self.seq.imem_addr.val();
            }
            self.imem[i].wa.next = self.host.addr.val().get_bits::<8>(2);
            self.imem[i].wd.next = self.host.wdata.val();
            self.imem[i].we.next = self.host.we.val()
                & !self.seq.busy.val()
                & self.region_prog.val()
                & (self.host.addr.val().get_bits::<2>(0).index() == i);
        }
        // Bits 112..127 of a word are zero (`isa::WORD_BITS`) and not stored, so the fourth
        // bank is one block RAM wide.
        self.imem[3].wd.next = self.host.wdata.val() & bits::<32>(0xFFFF);
        self.dec.w0.next = self.imem[0].rd.val();
        self.dec.w1.next = self.imem[1].rd.val();
        self.dec.w2.next = self.imem[2].rd.val();
        self.dec.w3.next = self.imem[3].rd.val();

        // ---- Sequencer.
        self.seq.start.next = self.host.start.val();
        self.seq.clear.next = self.host.clear.val();
        self.seq.resume.next = self.host.resume.val();
        self.host.lanes.next = self.seq.e.val();
        self.seq.budget.next = self.host.budget.val();
        self.seq.kind.next = self.dec.seq.kind.val();
        self.seq.flow.next = self.dec.seq.flow.val();
        self.seq.issue.next = self.dec.seq.issue.val();
        self.seq.short_write.next = self.dec.seq.short_write.val();
        self.seq.long_write.next = self.dec.seq.long_write.val();
        self.seq.wmask.next = self.dec.write.wmask.val();
        self.seq.target.next = self.dec.seq.target.val();
        self.host.busy.next = self.seq.busy.val();
        self.host.done.next = self.seq.done.val();
        self.host.fault.next = self.seq.fault.val();
        self.host.killed.next = self.seq.killed.val();
        self.host.cycles.next = self.seq.cycles.val();
        self.dbg_pc.next = self.seq.cur_pc.val();
        self.dbg_first.next = self.seq.first.val();

        // ---- Relative moves (MOVR, MOVW): lane l's index register is read in clock 12 + l of
        // the instruction, when the previous instruction's writes of that lane have landed; the
        // index i = R[B.index].(B.swz[0]) + sext(target) and its range test 0 <= i <= C.index
        // are latched per lane before the slots issue (clocks 16..31).
        self.cur_clk.next = self.pclk.q.val();
        if self.seq.first.val() {
            self.cur_clk.next = bits::<5>(0);
        }
        self.pclk.d.next = self.cur_clk.val() + bits::<5>(1);
        self.rd_valid.d.next = false;
        self.rd_lane.d.next = self.cur_clk.val().get_bits::<2>(0);
        self.opb.use_raw.next = false;
        self.opb.raw_addr.next = (bit_cast::<8, 4>(self.dec.b.index.val().get_bits::<4>(0)) << 4)
            | (bit_cast::<8, 2>(self.cur_clk.val().get_bits::<2>(0)) << 2)
            | bit_cast::<8, 2>(self.dec.b.swz.val().get_bits::<2>(0));
        if self.dec.unit.rel.val().any()
            & self.seq.busy.val()
            & (self.cur_clk.val().get_bits::<3>(2) == bits::<3>(3))
        {
            self.opb.use_raw.next = true;
            self.rd_valid.d.next = true;
        }
        self.rel.clock.next = self.clock.val();
        self.rel.x.next = self.opb.raw.val();
        self.rel.target.next = self.dec.seq.target.val();
        self.rel.limit.next = self.dec.c.index.val();
        self.rel.capture.next = self.rd_valid.q.val();
        self.rel.capture_lane.next = self.rd_lane.q.val();

        // ---- The address stack: the depth checks in the instruction's first clock (a fault
        // stops the run before any lane pushes or pops, as in the model); the depths change
        // after the last slot.
        self.astack.clear_depths.next = self.host.start.val() & !self.seq.busy.val();
        self.astack.check.next = self.seq.first.val() & (self.dec.seq.kind.val() == ExecKind::Alu);
        self.astack.op.next = self.dec.unit.astack.val();
        self.astack.e.next = self.seq.e.val();
        self.astack.slot_valid.next = self.seq.slot_valid.val();
        self.astack.slot.next = self.seq.slot.val();
        self.ext_fault.next = self.astack.fault.val();
        self.seq.ext_fault.next = self.ext_fault.val();

        // ---- Issue (cycle t).
        self.lane.next = self.seq.slot.val().get_bits::<2>(2);
        self.comp.next = self.seq.slot.val().get_bits::<2>(0);
        self.rel.lane.next = self.lane.val();
        self.lane_i.next = self.rel.index.val();
        self.lane_ok.next = self.rel.ok.val();
        self.dst_eff.next = self.dec.write.dst.val();
        if self.dec.unit.rel.val() == self.rel_write.val() {
            self.dst_eff.next = self.dec.write.dst.val() + self.lane_i.val();
        }
        // The addend line: written every clock (at t+2, the operand C of the slot issued at t,
        // as the misc unit registered it: the operand's own logic then feeds one flip-flop,
        // which the iCE40 packs with it) and read 3 words back (the registered read gives it to
        // the adder at t+6).
        self.acnt.d.next = self.acnt.q.val() + 1;
        self.ast.we.next = true;
        self.ast.wa.next = bit_cast::<8, 3>(self.acnt.q.val());
        self.ast.wd.next = self.misc.c1.val();
        self.aread.next = self.acnt.q.val() - bits::<3>(3);
        self.ast.ra.next = bit_cast::<8, 3>(self.aread.val());
        if self.astack.pop_read.val() {
            self.ast.ra.next = self.astack.pop_addr.val();
        }
        // The push writes when the line would write the PUSHA slot's own word (t+2), the
        // operand A as the misc unit registered it.
        if self.astack.push_we.val() {
            self.ast.wa.next = self.astack.push_addr.val();
            self.ast.wd.next = self.misc.a1.val();
        }
        self.opa.file.next = self.dec.a.file.val();
        self.opa.index.next = self.dec.a.index.val();
        self.opa.zero.next = false;
        if self.dec.unit.rel.val() == self.rel_read.val() {
            self.opa.index.next = self.dec.a.index.val() + self.lane_i.val();
            self.opa.zero.next = !self.lane_ok.val();
        }
        self.opa.swz.next = self.dec.a.swz.val();
        self.opa.neg.next = self.dec.a.neg.val();
        self.opa.abs.next = self.dec.a.abs.val();
        self.opa.lane.next = self.lane.val();
        self.opa.comp.next = self.comp.val();
        self.opa.extra_neg.next = false;
        self.opb.file.next = self.dec.b.file.val();
        self.opb.index.next = self.dec.b.index.val();
        self.opb.swz.next = self.dec.b.swz.val();
        self.opb.neg.next = self.dec.b.neg.val();
        self.opb.abs.next = self.dec.b.abs.val();
        self.opb.lane.next = self.lane.val();
        self.opb.comp.next = self.comp.val();
        self.opb.extra_neg.next = false;
        self.opb.zero.next = false;
        self.opc.file.next = self.dec.c.file.val();
        self.opc.index.next = self.dec.c.index.val();
        self.opc.swz.next = self.dec.c.swz.val();
        self.opc.neg.next = self.dec.c.neg.val();
        self.opc.abs.next = self.dec.c.abs.val();
        self.opc.lane.next = self.lane.val();
        self.opc.comp.next = self.comp.val();
        self.opc.extra_neg.next = false;
        self.opc.zero.next = false;
        if self.dec.unit.conv.val() {
            // A conversion's operand A reaches the adder as the addend.
            self.opc.file.next = self.dec.a.file.val();
            self.opc.index.next = self.dec.a.index.val();
            self.opc.swz.next = self.dec.a.swz.val();
            self.opc.neg.next = self.dec.a.neg.val();
            self.opc.abs.next = self.dec.a.abs.val();
        }
        if self.dec.unit.deriv.val().any() {
            // d = A(neighbour) * 1.0 + -A(this lane's pair base): fsub, exactly.
            self.opb.file.next = bits::<2>(2);
            self.opb.swz.next = self.all_one.val();
            self.opb.neg.next = bits::<4>(0);
            self.opb.abs.next = false;
            self.opc.file.next = self.dec.a.file.val();
            self.opc.index.next = self.dec.a.index.val();
            self.opc.swz.next = self.dec.a.swz.val();
            self.opc.neg.next = self.dec.a.neg.val();
            self.opc.abs.next = self.dec.a.abs.val();
            self.opc.extra_neg.next = true;
            if self.dec.unit.deriv.val() == self.deriv_x.val() {
                self.opa.lane.next = self.lane.val() | bits::<2>(1);
                self.opc.lane.next = self.lane.val() & bits::<2>(2);
            } else {
                self.opa.lane.next = self.lane.val() | bits::<2>(2);
                self.opc.lane.next = self.lane.val() & bits::<2>(1);
            }
        }
        // The one K read of the slot (the constant rule makes every K operand name this word).
        self.kmem.ra.next = self.opc.kaddr.val();
        if self.opb.is_k.val() {
            self.kmem.ra.next = self.opb.kaddr.val();
        }
        if self.opa.is_k.val() {
            self.kmem.ra.next = self.opa.kaddr.val();
        }
        if !self.seq.busy.val() {
            self.kmem.ra.next = self.host.addr.val().get_bits::<8>(0);
        }
        self.opa.kdata.next = self.kmem.rd.val();
        self.opb.kdata.next = self.kmem.rd.val();
        self.opc.kdata.next = self.kmem.rd.val();

        self.pass.next = true;
        if self.dec.write.pw.val() == 1 {
            self.pass.next = self.seq.p.val().get_bit(self.seq.slot.val().index());
        }
        if self.dec.write.pw.val() == 2 {
            self.pass.next = !self.seq.p.val().get_bit(self.seq.slot.val().index());
        }
        self.we_slot.next = self.seq.slot_valid.val()
            & self.dec.write.writes_reg.val()
            & self.dec.write.wmask.val().get_bit(self.comp.val().index())
            & self.seq.e.val().get_bit(self.lane.val().index())
            & self.pass.val()
            & ((self.dec.unit.rel.val() != self.rel_write.val()) | self.lane_ok.val())
            & !self.ext_fault.val().any();
        self.wp_slot.next = self.seq.slot_valid.val()
            & self.dec.write.writes_pred.val()
            & self.dec.write.wmask.val().get_bit(self.comp.val().index())
            & self.seq.e.val().get_bit(self.lane.val().index());
        self.meta_in.next = bit_cast::<16, 1>(self.we_slot.val().into())
            | (bit_cast::<16, 1>(self.wp_slot.val().into()) << 1)
            | (bit_cast::<16, 1>((self.dec.write.result.val() == ResultSel::Fmad).into()) << 2)
            | (bit_cast::<16, 2>(self.dec.write.sat.val()) << 6)
            | (bit_cast::<16, 4>(self.dst_eff.val().get_bits::<4>(0)) << 12)
            | (bit_cast::<16, 4>(self.seq.slot.val()) << 8);
        self.slots.meta_in.next = self.meta_in.val();
        self.slots.short_slot.next = self.seq.slot_valid.val() & self.dec.seq.short_write.val();
        self.x1_sel.d.next = self.dec.write.result.val();
        self.x1_round.d.next = self.dec.unit.round.val();
        self.x1_add_op.d.next = self.dec.unit.add_op.val();
        self.x1_int.d.next = self.dec.unit.int_op.val();
        self.x1_trans.d.next = self.dec.unit.trans_op.val();
        self.x1_tex.d.next = self.dec.unit.tex_op.val();
        self.x1_comp.d.next = self.comp.val();
        self.x1_i2f.d.next = self.dec.unit.i2f_mode.val();
        self.x1_cond.d.next = self.dec.unit.cond.val();
        self.x1_p.d.next = self.seq.p.val().get_bit(self.seq.slot.val().index());

        // ---- Units (cycle t+2).
        self.fmad.a.next = self.opa.value.val();
        self.fmad.b.next = self.opb.value.val();
        self.fmad.c.next = self.ast.rd.val();
        self.fmad.op.next = self.x1_add_op.q.val();
        self.fmad.round.next = self.x1_round.q.val();
        self.misc.a.next = self.opa.value.val();
        if self.astack.pop_sel.val() {
            self.misc.a.next = self.ast.rd.val();
        }
        self.misc.b.next = self.opb.value.val();
        self.misc.c.next = self.opc.value.val();
        self.misc.sel.next = self.x1_sel.q.val();
        self.misc.int_op.next = self.x1_int.q.val();
        self.misc.trans_op.next = self.x1_trans.q.val();
        self.misc.tex_op.next = self.x1_tex.q.val();
        self.misc.comp.next = self.x1_comp.q.val();
        // Texture memory is written by the host only (and cannot be read back).
        self.misc.tw_we.next = self.host.we.val() & !self.seq.busy.val() & self.region_tex.val();
        self.misc.tw_addr.next = self.host.addr.val().get_bits::<9>(0);
        self.misc.tw_data.next = self.host.wdata.val();
        self.misc.tr_en.next = !self.seq.busy.val() & self.region_tex.val();
        self.misc.i2f_mode.next = self.x1_i2f.q.val();
        self.misc.cond.next = self.x1_cond.q.val();
        self.misc.p.next = self.x1_p.q.val();

        // ---- Writeback (cycle t+11 on the long path, t+5 on the short one).
        self.wb.fmad.next = self.fmad.result.val();
        self.wb.misc.next = self.misc.result.val();
        self.wb.use_fmad.next = self.slots.meta_out.val().get_bit(2);
        self.wb.sat.next = self.slots.meta_out.val().get_bits::<2>(6);
        // The writeback stage's output is registered: the write happens one clock later, at
        // the edge ending t+12 (t+6 on the short path; the units start at t+1).
        self.wb_we.d.next = self.slots.meta_out.val().get_bit(0) & self.slots.take.val();
        self.wb_wa.d.next = self.slots.meta_out.val().get_bits::<8>(8);
        self.wb_wd.d.next = self.wb.value.val();
        self.wb_pwe.d.next = self.slots.meta_out.val().get_bit(1) & self.slots.take.val();
        self.wb_pval.d.next = self.misc.result.val().get_bit(29);
        self.seq.p_we.next = self.wb_pwe.q.val();
        self.seq.p_idx.next = self.wb_wa.q.val().get_bits::<4>(0);
        self.seq.p_val.next = self.wb_pval.q.val();

        // ---- Operand memory write port: writeback, clear, or the host.
        self.mem_we.next = self.wb_we.q.val();
        self.mem_wa.next = bit_cast::<9, 8>(self.wb_wa.q.val());
        self.mem_wd.next = self.wb_wd.q.val();
        if self.seq.clear_we.val() {
            self.mem_we.next = true;
            self.mem_wa.next = bit_cast::<9, 8>(self.seq.clear_addr.val());
            self.mem_wd.next = bits::<32>(0);
        }
        if !self.seq.busy.val() {
            self.mem_we.next =
                self.host.we.val() & (self.region_const.val() | self.region_registers.val());
            self.mem_wa.next = bit_cast::<9, 8>(self.host.addr.val().get_bits::<8>(0));
            if self.region_const.val() {
                self.mem_wa.next =
                    bits::<9>(256) | bit_cast::<9, 8>(self.host.addr.val().get_bits::<8>(0));
            }
            self.mem_wd.next = self.host.wdata.val();
        }
        self.opa.we.next = self.mem_we.val() & !self.mem_wa.val().get_bit(8);
        self.opa.wa.next = self.mem_wa.val().get_bits::<8>(0);
        self.opa.wd.next = self.mem_wd.val();
        self.opb.we.next = self.mem_we.val() & !self.mem_wa.val().get_bit(8);
        self.opb.wa.next = self.mem_wa.val().get_bits::<8>(0);
        self.opb.wd.next = self.mem_wd.val();
        self.opc.we.next = self.mem_we.val() & !self.mem_wa.val().get_bit(8);
        self.opc.wa.next = self.mem_wa.val().get_bits::<8>(0);
        self.opc.wd.next = self.mem_wd.val();
        self.kmem.we.next = self.mem_we.val() & self.mem_wa.val().get_bit(8);
        self.kmem.wa.next = self.mem_wa.val().get_bits::<8>(0);
        self.kmem.wd.next = self.mem_wd.val();

        // ---- Host reads through register-file copy A, K and the instruction memory.
        self.opa.use_raw.next = !self.seq.busy.val();
        self.opa.raw_addr.next = self.host.addr.val().get_bits::<8>(0);
        self.opc.use_raw.next = false;
        self.opc.raw_addr.next = bits::<8>(0);
        self.hr_prog.d.next = self.region_prog.val();
        self.hr_tex.d.next = self.region_tex.val();
        self.hr_const.d.next = self.region_const.val();
        self.hr_bank.d.next = self.host.addr.val().get_bits::<2>(0);
        self.rdata.d.next = self.opa.raw.val();
        if self.hr_const.q.val() {
            self.rdata.d.next = self.kmem.rd.val();
        }
        if self.hr_prog.q.val() {
            match self.hr_bank.q.val().index() {
                0 => {
                    self.rdata.d.next = self.imem[0].rd.val();
                }
                1 => {
                    self.rdata.d.next = self.imem[1].rd.val();
                }
                2 => {
                    self.rdata.d.next = self.imem[2].rd.val();
                }
                _ => {
                    self.rdata.d.next = self.imem[3].rd.val() & bits::<32>(0xFFFF);
                }
            }
        }
        if self.hr_tex.q.val() {
            self.rdata.d.next = self.misc.tr_data.val();
        }
        self.host.rdata.next = self.rdata.q.val();
    }
}

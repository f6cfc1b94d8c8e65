//! `Sequencer`: instruction fetch, the per-instruction clock count of the ISA table, slot issue,
//! the execution and kill masks, predicates, flow control over the [`MaskStack`] (the decision
//! per flow operation is [`crate::flow_eval::FlowEval`]'s), the instruction budget and the fault
//! flags.
//!
//! Every instruction takes exactly `OpInfo::cycles` clocks (the decoder's `issue`; the ISA's
//! cycle model, `isa::Timing`), plus the retire wait of a pipelined instruction that writes
//! through the short path within 7 clocks of the multiply-add pipeline's last slot
//! (`isa::retire_wait`: writes land in issue order): it issues its 16 slots
//! `s = 4*lane + component` in its last 16 clocks (derivatives wait their bubble first); a flow
//! instruction acts in its last clock. In
//! that last clock the next address goes to the instruction memory (read latency 1), so the next
//! instruction's word is there in its first clock. Before each instruction the sequencer checks,
//! in the core model's order, that a lane is still live (else the run ends) and that the budget
//! is not spent (else the `BUDGET` fault). `cycles` counts the clocks of executed instructions,
//! exactly the core model's `cycles`; the initial fetch and the final drain (the last writes
//! reaching the registers) are not counted.
//!
//! EMIT and ENDPRIM pause the run after their last clock (and the drain): `done` pulses with the
//! pause code on `fault` (`fault_code::EMIT`, `fault_code::ENDPRIM`), `busy` is low so the host can
//! read the outputs of the lanes in `e`, and `resume` continues with the next instruction, every
//! mask, stack, budget and the cycle count kept (the pause's clocks are not counted). `start` or
//! `clear` instead abandon the run.
//!
//! Ports: see the field documentation. Timing: `start` and `clear` act at the edge where they are
//! seen while idle (or paused); `done` is a registered one-clock pulse.
use crate::decoder::{ExecKind, FlowOp};
use crate::flow_eval::FlowEval;
use crate::host_port::fault_code;
use crate::mask_stack::{MaskStack, StackCmd};
use rust_hdl::prelude::*;

/// Clocks from the last executed clock until `done`: the pipeline drains, its longest path being
/// the multiply-add's (`isa::LATENCY`).
pub const DRAIN_CLOCKS: u32 = microcode::core::isa::LATENCY;

/// Sequencer state.
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum SeqState {
    /// No run: the host owns the memories.
    Idle,
    /// Zeroing the register file, one word per clock (`clear_we`, `clear_addr`).
    Clear,
    /// The clock after `start`: instruction 0 is being read and the budget loaded.
    Fetch,
    /// Executing instructions.
    Exec,
    /// The run stopped: waiting [`DRAIN_CLOCKS`] for the last writes before `done`.
    Drain,
    /// Stopped after EMIT or ENDPRIM with the run's state kept (the host reads the outputs).
    Paused,
    /// Fetching the instruction after the pause (`resume`).
    Resume,
}

/// The sequencer; see the module documentation.
#[derive(LogicBlock)]
pub struct Sequencer {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Start a run at instruction 0 (while idle).
    pub start: Signal<In, Bit>,
    /// Zero the register file (while idle).
    pub clear: Signal<In, Bit>,
    /// Continue a run paused at EMIT / ENDPRIM (while paused).
    pub resume: Signal<In, Bit>,
    /// Instruction budget of a run.
    pub budget: Signal<In, Bits<32>>,
    /// From the decoder: how the current instruction executes.
    pub kind: Signal<In, ExecKind>,
    /// From the decoder: the flow operation, acted on in the instruction's last clock.
    pub flow: Signal<In, FlowOp>,
    /// From the decoder: the instruction's clocks (`OpInfo::issue`), before the retire wait.
    pub issue: Signal<In, Bits<9>>,
    /// The instruction writes through the short path (`isa::MISC_LATENCY`).
    pub short_write: Signal<In, Bit>,
    /// The instruction writes through the multiply-add pipeline (`isa::LATENCY`).
    pub long_write: Signal<In, Bit>,
    /// From the decoder: the components a predicate test looks at (IF's, KILP's, ... `P.c`
    /// of any set component passes).
    pub wmask: Signal<In, Bits<4>>,
    /// From the decoder: the branch target (instruction index; 256 and above end the run).
    pub target: Signal<In, Bits<10>>,
    /// Predicate write from the writeback stage: write `p_val` to bit `p_idx` at this edge.
    pub p_we: Signal<In, Bit>,
    /// The predicate bit written (`4 * lane + component`).
    pub p_idx: Signal<In, Bits<4>>,
    /// The value written.
    pub p_val: Signal<In, Bit>,
    /// A fault the datapath detects in an instruction's first clock (the address stack's
    /// overflow and underflow codes); nonzero stops the run before the instruction, like a
    /// missing unit.
    pub ext_fault: Signal<In, Bits<4>>,
    /// Instruction memory read address.
    pub imem_addr: Signal<Out, Bits<8>>,
    /// A slot issues in this clock.
    pub slot_valid: Signal<Out, Bit>,
    /// The slot (`4 * lane + component`).
    pub slot: Signal<Out, Bits<4>>,
    /// Execution mask.
    pub e: Signal<Out, Bits<4>>,
    /// Predicates, bit `4 * lane + component`.
    pub p: Signal<Out, Bits<16>>,
    /// A clear or a run is in progress (low while paused).
    pub busy: Signal<Out, Bit>,
    /// One-clock pulse: the run ended or paused.
    pub done: Signal<Out, Bit>,
    /// Fault or pause code of the last run (`microcode::core::fault_code`; valid from `done`).
    pub fault: Signal<Out, Bits<4>>,
    /// Lanes killed in the run (KIL, KILP).
    pub killed: Signal<Out, Bits<4>>,
    /// Clocks of the executed instructions (the core model's `cycles`).
    pub cycles: Signal<Out, Bits<32>>,
    /// Address of the executing instruction.
    pub cur_pc: Signal<Out, Bits<8>>,
    /// First clock of an executed instruction.
    pub first: Signal<Out, Bit>,
    /// Register-file clear port.
    pub clear_we: Signal<Out, Bit>,
    /// The register-file word the clear writes (zero) this clock.
    pub clear_addr: Signal<Out, Bits<8>>,
    stack: MaskStack,
    flow_eval: FlowEval,
    state: DFF<SeqState>,
    pc: DFF<Bits<8>>,
    // First clock of an instruction; clocks left after this one; the next pipelined slot and
    // the derivative bubble still to wait (all registered, so that the end-of-instruction
    // decision and the slot number come from registers).
    first_q: DFF<Bit>,
    // Clocks left after this one (6 bits: the longest instruction the hardware runs is a
    // relative move, 32 clocks, plus a retire wait).
    remain: DFF<Bits<6>>,
    aslot: DFF<Bits<5>>,
    await_: DFF<Bits<5>>,
    e_q: DFF<Bits<4>>,
    killed_q: DFF<Bits<4>>,
    main_live: DFF<Bits<4>>,
    p_q: DFF<Bits<16>>,
    calls: DFF<Bits<4>>,
    // Instructions the budget still allows; the budget was spent when the next one came.
    left: DFF<Bits<32>>,
    spent: DFF<Bit>,
    // The decoded fields of the current instruction, registered (valid from its second clock).
    kind_q: DFF<ExecKind>,
    flow_q: DFF<FlowOp>,
    target_q: DFF<Bits<10>>,
    wmask_q: DFF<Bits<4>>,
    cycles_q: DFF<Bits<32>>,
    fault_q: DFF<Bits<4>>,
    timer: DFF<Bits<9>>,
    done_q: DFF<Bit>,
    // Clocks since the last slot of a long-path writer (saturating at 7) and the retire wait
    // it gives the instruction starting now.
    since: DFF<Bits<3>>,
    extra: Signal<Local, Bits<3>>,
    issue6: Signal<Local, Bits<6>>,
    wait_total: Signal<Local, Bits<6>>,
    wait_m1: Signal<Local, Bits<6>>,
    stack_depth: Constant<Bits<5>>,
    drain: Constant<Bits<9>>,
    // The fault codes raised here (`microcode::core::fault_code`; the flow operations' are
    // `FlowEval`'s): constants so that the Verilog names them (localparams).
    code_none: Constant<Bits<4>>,
    code_budget: Constant<Bits<4>>,
    code_missing_unit: Constant<Bits<4>>,
    // Combinational values of the last clock of an instruction.
    last: Signal<Local, Bit>,
    dead: Signal<Local, Bit>,
    stop_now: Signal<Local, Bit>,
    n_clocks: Signal<Local, Bits<6>>,
    cond: Signal<Local, Bits<4>>,
    px: Signal<Local, Bits<4>>,
    next_pc: Signal<Local, Bits<9>>,
    e_next: Signal<Local, Bits<4>>,
    killed_next: Signal<Local, Bits<4>>,
    live_next: Signal<Local, Bits<4>>,
    calls_next: Signal<Local, Bits<4>>,
    fault_now: Signal<Local, Bits<4>>,
    end_now: Signal<Local, Bit>,
    // Geometry output: the pause code of EMIT or ENDPRIM in its last clock, and the
    // one taken at the end of the drain.
    pause_now: Signal<Local, Bits<4>>,
    pause: DFF<Bits<4>>,
    full: Signal<Local, Bit>,
}

impl Sequencer {
    /// A sequencer for a core whose call stack holds `call_depth` calls (the mask stack holds
    /// [`crate::mask_stack::DEPTH`] frames).
    pub fn new(call_depth: u16, mask_depth: u16) -> Sequencer {
        Sequencer {
            clock: Default::default(),
            start: Default::default(),
            clear: Default::default(),
            resume: Default::default(),
            budget: Default::default(),
            kind: Default::default(),
            flow: Default::default(),
            issue: Default::default(),
            short_write: Default::default(),
            long_write: Default::default(),
            wmask: Default::default(),
            target: Default::default(),
            p_we: Default::default(),
            p_idx: Default::default(),
            p_val: Default::default(),
            ext_fault: Default::default(),
            imem_addr: Default::default(),
            slot_valid: Default::default(),
            slot: Default::default(),
            e: Default::default(),
            p: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            fault: Default::default(),
            killed: Default::default(),
            cycles: Default::default(),
            cur_pc: Default::default(),
            first: Default::default(),
            clear_we: Default::default(),
            clear_addr: Default::default(),
            stack: MaskStack::new(usize::from(mask_depth)),
            flow_eval: FlowEval::new(call_depth),
            state: Default::default(),
            pc: Default::default(),
            first_q: Default::default(),
            remain: Default::default(),
            aslot: Default::default(),
            await_: Default::default(),
            e_q: Default::default(),
            killed_q: Default::default(),
            main_live: Default::default(),
            p_q: Default::default(),
            calls: Default::default(),
            left: Default::default(),
            spent: Default::default(),
            kind_q: Default::default(),
            flow_q: Default::default(),
            target_q: Default::default(),
            wmask_q: Default::default(),
            cycles_q: Default::default(),
            fault_q: Default::default(),
            timer: Default::default(),
            done_q: Default::default(),
            since: Default::default(),
            extra: Default::default(),
            issue6: Default::default(),
            wait_total: Default::default(),
            wait_m1: Default::default(),
            stack_depth: Constant::new(
                u64::from(mask_depth.min(crate::mask_stack::DEPTH as u16)).to_bits(),
            ),
            drain: Constant::new(u64::from(DRAIN_CLOCKS).to_bits()),
            code_none: Constant::new(u64::from(fault_code::NONE).to_bits()),
            code_budget: Constant::new(u64::from(fault_code::BUDGET).to_bits()),
            code_missing_unit: Constant::new(u64::from(fault_code::MISSING_UNIT).to_bits()),
            last: Default::default(),
            dead: Default::default(),
            stop_now: Default::default(),
            n_clocks: Default::default(),
            cond: Default::default(),
            px: Default::default(),
            next_pc: Default::default(),
            e_next: Default::default(),
            killed_next: Default::default(),
            live_next: Default::default(),
            calls_next: Default::default(),
            fault_now: Default::default(),
            end_now: Default::default(),
            pause_now: Default::default(),
            pause: Default::default(),
            full: Default::default(),
        }
    }
}

impl Logic for Sequencer {
    // hdl_gen has no match guards, so the ifs stay inside the arms.
    #[allow(clippy::collapsible_match)]
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, state, pc, first_q, remain, aslot, await_, e_q, killed_q, main_live, p_q,
            calls, left, spent, kind_q, flow_q, target_q, wmask_q, cycles_q, fault_q, timer,
            done_q, since, pause
        );
        clock!(self, clock, stack);
        self.e.next = self.e_q.q.val();
        self.p.next = self.p_q.q.val();
        self.killed.next = self.killed_q.q.val();
        self.cycles.next = self.cycles_q.q.val();
        self.fault.next = self.fault_q.q.val();
        self.done.next = self.done_q.q.val();
        self.done_q.d.next = false;
        self.busy.next =
            (self.state.q.val() != SeqState::Idle) & (self.state.q.val() != SeqState::Paused);
        self.clear_we.next = self.state.q.val() == SeqState::Clear;
        self.clear_addr.next = self.timer.q.val().get_bits::<8>(0);
        self.imem_addr.next = self.pc.q.val();
        self.cur_pc.next = self.pc.q.val();
        self.kind_q.d.next = self.kind.val();
        self.flow_q.d.next = self.flow.val();
        self.target_q.d.next = self.target.val();
        self.wmask_q.d.next = self.wmask.val();
        // In an instruction's first clock: stop before it when no lane is live or the budget is
        // spent (the model checks both before counting the instruction).
        self.dead.next = !(self.main_live.q.val() & !self.killed_q.q.val()).any();
        self.stop_now.next = (self.state.q.val() == SeqState::Exec)
            & self.first_q.q.val()
            & (self.dead.val() | self.spent.q.val());
        self.first.next =
            (self.state.q.val() == SeqState::Exec) & self.first_q.q.val() & !self.stop_now.val();

        // Predicate writes from the writeback stage.
        if self.p_we.val() {
            self.p_q.d.next = (self.p_q.q.val()
                & !(bits::<16>(1) << bit_cast::<16, 4>(self.p_idx.val())))
                | (bit_cast::<16, 1>(self.p_val.val().into())
                    << bit_cast::<16, 4>(self.p_idx.val()));
        }

        // The retire wait of an instruction starting now (`isa::retire_wait` with the long path's
        // 13 clocks and the short path's 7: a short-path writer's first slot comes at least 7
        // clocks after the last long-path slot; only back-to-back 16-clock instructions can be
        // that close, a derivative or a relative move waits longer anyway).
        self.extra.next = bits::<3>(0);
        if self.short_write.val() & (self.issue.val() == 16) {
            self.extra.next = bits::<3>(7) - self.since.q.val();
        }
        // Slot issue of pipelined instructions: the last 16 clocks (a derivative first waits
        // its bubble, `issue - 16` clocks, a short-path writer its retire wait).
        self.slot.next = self.aslot.q.val().get_bits::<4>(0);
        // (An operation longer than 63 clocks is model-only: it faults in its first clock.)
        self.issue6.next = self.issue.val().get_bits::<6>(0);
        self.wait_total.next =
            self.issue6.val() - bits::<6>(16) + bit_cast::<6, 3>(self.extra.val());
        self.wait_m1.next = self.wait_total.val() - bits::<6>(1);
        self.slot_valid.next = false;
        if (self.state.q.val() == SeqState::Exec)
            & (self.kind.val() == ExecKind::Alu)
            & !self.stop_now.val()
        {
            if self.first_q.q.val() {
                self.slot.next = bits::<4>(0);
                if !self.wait_total.val().any() {
                    self.slot_valid.next = true;
                    self.aslot.d.next = bits::<5>(1);
                    // A wait left by a run that stopped in the first clock of a waiting
                    // instruction (an address-stack fault) must not delay these slots.
                    self.await_.d.next = bits::<5>(0);
                } else {
                    self.await_.d.next = self.wait_m1.val().get_bits::<5>(0);
                    self.aslot.d.next = bits::<5>(0);
                }
            } else if self.await_.q.val().any() {
                self.await_.d.next = self.await_.q.val() - 1;
            } else {
                self.slot_valid.next = true;
                self.aslot.d.next = self.aslot.q.val() + 1;
            }
        }
        if self.slot_valid.val() & self.long_write.val() {
            self.since.d.next = bits::<3>(1);
        } else if self.since.q.val() != bits::<3>(7) {
            self.since.d.next = self.since.q.val() + 1;
        }
        // Clocks of the instruction: the ISA's cycles and the retire wait.
        self.n_clocks.next = self.issue6.val() + bit_cast::<6, 3>(self.extra.val());
        // The last clock: a one-clock instruction in its first clock, otherwise when no clock is
        // left (`remain` was loaded in the first clock).
        self.last.next = !self.remain.q.val().any();
        if self.first_q.q.val() {
            self.last.next = self.issue.val() == 1;
        }

        // Lanes whose predicates pass the write mask (any component), and P.x per lane.
        self.cond.next = bit_cast::<4, 1>(
            (self.p_q.q.val().get_bits::<4>(0) & self.wmask_q.q.val())
                .any()
                .into(),
        ) | (bit_cast::<4, 1>(
            (self.p_q.q.val().get_bits::<4>(4) & self.wmask_q.q.val())
                .any()
                .into(),
        ) << 1)
            | (bit_cast::<4, 1>(
                (self.p_q.q.val().get_bits::<4>(8) & self.wmask_q.q.val())
                    .any()
                    .into(),
            ) << 2)
            | (bit_cast::<4, 1>(
                (self.p_q.q.val().get_bits::<4>(12) & self.wmask_q.q.val())
                    .any()
                    .into(),
            ) << 3);
        self.px.next = bit_cast::<4, 1>(self.p_q.q.val().get_bit(0).into())
            | (bit_cast::<4, 1>(self.p_q.q.val().get_bit(4).into()) << 1)
            | (bit_cast::<4, 1>(self.p_q.q.val().get_bit(8).into()) << 2)
            | (bit_cast::<4, 1>(self.p_q.q.val().get_bit(12).into()) << 3);
        self.full.next = self.stack.sp.val() >= self.stack_depth.val();

        // The flow decision (`FlowEval`), acted on in a flow instruction's last clock; flow
        // instructions never act in their first (all but NOP take two clocks or more), so it
        // reads the decoded fields from registers.
        self.flow_eval.active.next =
            (self.kind_q.q.val() == ExecKind::Flow) & self.last.val() & !self.first_q.q.val();
        self.flow_eval.flow.next = self.flow_q.q.val();
        self.flow_eval.pc.next = self.pc.q.val();
        self.flow_eval.target.next = self.target_q.q.val();
        self.flow_eval.e.next = self.e_q.q.val();
        self.flow_eval.killed.next = self.killed_q.q.val();
        self.flow_eval.live.next = self.main_live.q.val();
        self.flow_eval.calls.next = self.calls.q.val();
        self.flow_eval.cond.next = self.cond.val();
        self.flow_eval.px.next = self.px.val();
        self.flow_eval.full.next = self.full.val();
        self.flow_eval.top_kind.next = self.stack.top_kind.val();
        self.flow_eval.top_entry.next = self.stack.top_entry.val();
        self.flow_eval.top_live.next = self.stack.top_live.val();
        self.flow_eval.call_found.next = self.stack.call_found.val();
        self.flow_eval.call_live.next = self.stack.call_live.val();
        self.flow_eval.call_entry.next = self.stack.call_entry.val();
        self.flow_eval.call_ret.next = self.stack.call_ret.val();
        self.next_pc.next = self.flow_eval.next_pc.val();
        self.e_next.next = self.flow_eval.e_next.val();
        self.killed_next.next = self.flow_eval.killed_next.val();
        self.live_next.next = self.flow_eval.live_next.val();
        self.calls_next.next = self.flow_eval.calls_next.val();
        self.fault_now.next = self.flow_eval.fault.val();
        self.end_now.next = self.flow_eval.end_run.val();
        self.pause_now.next = self.flow_eval.pause.val();
        self.stack.cmd.next = self.flow_eval.cmd.val();
        self.stack.push_kind.next = self.flow_eval.push_kind.val();
        self.stack.push_entry.next = self.flow_eval.push_entry.val();
        self.stack.push_live.next = self.flow_eval.push_live.val();
        self.stack.push_ret.next = self.flow_eval.push_ret.val();
        self.stack.lanes.next = self.flow_eval.stack_lanes.val();

        // Idle or paused: a clear, a new run, or (paused) the rest of the run.
        // A flow decision moves the stack only while executing: after a run stops in the first
        // clock of a two-clock flow instruction, `first_q` and `remain` keep saying "last
        // clock", and the stale decision would push or pop while draining, clearing and
        // fetching (a pop in the fetch after a start in the clock of `done` wrapped the empty
        // stack: formal/, core-stacks). Overriding the command here keeps the check off the
        // flow decision's path to the fault and timer registers.
        if self.state.q.val() != SeqState::Exec {
            self.stack.cmd.next = StackCmd::Hold;
        }
        if (self.state.q.val() == SeqState::Idle) | (self.state.q.val() == SeqState::Paused) {
            // Paused, the frames stay for the resumed run; a new run or a clear drops them.
            if (self.state.q.val() == SeqState::Idle) | self.start.val() | self.clear.val() {
                self.stack.cmd.next = StackCmd::Reset;
            }
            if (self.state.q.val() == SeqState::Paused) & self.resume.val() {
                self.state.d.next = SeqState::Resume;
                self.fault_q.d.next = self.code_none.val();
            } else if self.clear.val() {
                self.state.d.next = SeqState::Clear;
                self.timer.d.next = bits::<9>(0);
            } else if self.start.val() {
                self.state.d.next = SeqState::Fetch;
                self.pc.d.next = bits::<8>(0);
                self.e_q.d.next = bits::<4>(15);
                self.killed_q.d.next = bits::<4>(0);
                self.main_live.d.next = bits::<4>(15);
                self.p_q.d.next = bits::<16>(0);
                self.calls.d.next = bits::<4>(0);
                self.cycles_q.d.next = bits::<32>(0);
                self.fault_q.d.next = self.code_none.val();
            }
        }
        match self.state.q.val() {
            SeqState::Idle => {}
            SeqState::Paused => {}
            SeqState::Clear => {
                self.timer.d.next = self.timer.q.val() + 1;
                if self.timer.q.val() == 255 {
                    self.state.d.next = SeqState::Idle;
                }
            }
            SeqState::Resume => {
                // As `Fetch`, at the instruction after the pause, with the budget left as it was.
                self.first_q.d.next = true;
                self.state.d.next = SeqState::Exec;
            }
            SeqState::Fetch => {
                self.imem_addr.next = bits::<8>(0);
                self.first_q.d.next = true;
                self.since.d.next = bits::<3>(7);
                self.spent.d.next = false;
                if self.budget.val().any() {
                    self.state.d.next = SeqState::Exec;
                    self.left.d.next = self.budget.val() - 1;
                } else {
                    self.fault_q.d.next = self.code_budget.val();
                    self.state.d.next = SeqState::Drain;
                    self.timer.d.next = self.drain.val();
                }
            }
            SeqState::Exec => {
                self.cycles_q.d.next = self.cycles_q.q.val() + 1;
                self.first_q.d.next = false;
                self.remain.d.next = self.remain.q.val() - 1;
                if self.first_q.q.val() {
                    self.remain.d.next = self.n_clocks.val() - 2;
                }
                if self.stop_now.val() {
                    // In the model's order: no live lane left ends the run (this clock is not an
                    // instruction's); otherwise the budget is spent.
                    self.cycles_q.d.next = self.cycles_q.q.val();
                    self.stack.cmd.next = StackCmd::Hold;
                    if !self.dead.val() {
                        self.fault_q.d.next = self.code_budget.val();
                    }
                    self.state.d.next = SeqState::Drain;
                    self.timer.d.next = self.drain.val();
                } else if self.kind.val() == ExecKind::Missing {
                    self.stack.cmd.next = StackCmd::Hold;
                    self.fault_q.d.next = self.code_missing_unit.val();
                    self.state.d.next = SeqState::Drain;
                    self.timer.d.next = self.drain.val();
                } else if self.ext_fault.val().any() {
                    self.stack.cmd.next = StackCmd::Hold;
                    self.fault_q.d.next = self.ext_fault.val();
                    self.state.d.next = SeqState::Drain;
                    self.timer.d.next = self.drain.val();
                } else if self.last.val() {
                    self.imem_addr.next = self.next_pc.val().get_bits::<8>(0);
                    self.e_q.d.next = self.e_next.val();
                    self.killed_q.d.next = self.killed_next.val();
                    self.main_live.d.next = self.live_next.val();
                    self.calls.d.next = self.calls_next.val();
                    self.pc.d.next = self.next_pc.val().get_bits::<8>(0);
                    self.first_q.d.next = true;
                    // Whether the next instruction may run is decided in its first clock, from
                    // registers (see `stop_now`).
                    self.spent.d.next = !self.left.q.val().any();
                    if self.left.q.val().any() {
                        self.left.d.next = self.left.q.val() - 1;
                    }
                    if self.fault_now.val().any() {
                        self.stack.cmd.next = StackCmd::Hold;
                        self.fault_q.d.next = self.fault_now.val();
                        self.state.d.next = SeqState::Drain;
                        self.timer.d.next = self.drain.val();
                    } else if self.end_now.val() | self.next_pc.val().get_bit(8) {
                        self.state.d.next = SeqState::Drain;
                        self.timer.d.next = self.drain.val();
                    } else if self.pause_now.val().any() {
                        self.pause.d.next = self.pause_now.val();
                        self.state.d.next = SeqState::Drain;
                        self.timer.d.next = self.drain.val();
                    }
                }
            }
            SeqState::Drain => {
                self.timer.d.next = self.timer.q.val() - 1;
                if self.timer.q.val() == 1 {
                    self.state.d.next = SeqState::Idle;
                    self.done_q.d.next = true;
                    if self.pause.q.val().any() {
                        self.state.d.next = SeqState::Paused;
                        self.fault_q.d.next = self.pause.q.val();
                        self.pause.d.next = self.code_none.val();
                    }
                }
            }
        }
    }
}

//! `FlowEval`: the flow decision of the [`crate::sequencer::Sequencer`]: for the flow operation
//! of the instruction in its last clock, the next instruction's address, the new execution,
//! kill, live and call state, the fault or pause it raises and the [`MaskStack`] command, in the
//! core model's order of checks (a push onto a full stack is `STACK_OVERFLOW`, a frame of the
//! wrong kind `STACK_MISMATCH`, a CAL past the call depth `CALL_OVERFLOW`, a JMPP whose lanes
//! disagree `DIVERGENT`).
//!
//! Ports: see the field documentation; the sequencer commits the outputs at the edge ending
//! the instruction unless the run stops first. Timing: combinational.
//!
//! [`MaskStack`]: crate::mask_stack::MaskStack
use crate::decoder::FlowOp;
use crate::host_port::fault_code;
use crate::mask_stack::{StackCmd, KIND_CALL, KIND_IF, KIND_LOOP};
use rust_hdl::prelude::*;

/// The flow decision; see the module documentation.
#[derive(LogicBlock)]
pub struct FlowEval {
    /// Evaluate `flow`: a flow instruction's last clock (otherwise every output keeps its
    /// default: no change, no fault).
    pub active: Signal<In, Bit>,
    /// The flow operation (the decoder's, registered in the instruction's first clock).
    pub flow: Signal<In, FlowOp>,
    /// Address of the executing instruction.
    pub pc: Signal<In, Bits<8>>,
    /// The instruction's branch target.
    pub target: Signal<In, Bits<10>>,
    /// The execution mask.
    pub e: Signal<In, Bits<4>>,
    /// The killed lanes.
    pub killed: Signal<In, Bits<4>>,
    /// The main program's live lanes (RET in the main program clears them).
    pub live: Signal<In, Bits<4>>,
    /// Calls on the stack.
    pub calls: Signal<In, Bits<4>>,
    /// Per lane: any predicate component in the write mask is set.
    pub cond: Signal<In, Bits<4>>,
    /// Per lane: `P.x`.
    pub px: Signal<In, Bits<4>>,
    /// The mask stack holds as many frames as this build allows.
    pub full: Signal<In, Bit>,
    /// The mask stack's top frame: its kind (`mask_stack::KIND_*`, 0 when empty).
    pub top_kind: Signal<In, Bits<2>>,
    /// The top frame's entry mask.
    pub top_entry: Signal<In, Bits<4>>,
    /// The top frame's live mask.
    pub top_live: Signal<In, Bits<4>>,
    /// A call frame is on the stack.
    pub call_found: Signal<In, Bit>,
    /// The innermost call frame's live mask.
    pub call_live: Signal<In, Bits<4>>,
    /// The innermost call frame's entry mask.
    pub call_entry: Signal<In, Bits<4>>,
    /// The innermost call frame's return address.
    pub call_ret: Signal<In, Bits<8>>,
    /// The next instruction's address (bit 8: past the end of instruction memory: the run ends).
    pub next_pc: Signal<Out, Bits<9>>,
    /// The execution mask after the instruction.
    pub e_next: Signal<Out, Bits<4>>,
    /// The killed lanes after the instruction.
    pub killed_next: Signal<Out, Bits<4>>,
    /// The main program's live lanes after the instruction.
    pub live_next: Signal<Out, Bits<4>>,
    /// Calls on the stack after the instruction.
    pub calls_next: Signal<Out, Bits<4>>,
    /// The fault the instruction raises (`fault_code`; `NONE` if none).
    pub fault: Signal<Out, Bits<4>>,
    /// END: the run ends.
    pub end_run: Signal<Out, Bit>,
    /// The pause code of EMIT or ENDPRIM (`NONE` otherwise).
    pub pause: Signal<Out, Bits<4>>,
    /// The mask stack's command.
    pub cmd: Signal<Out, StackCmd>,
    /// Kind of a pushed frame.
    pub push_kind: Signal<Out, Bits<2>>,
    /// Entry mask of a pushed frame.
    pub push_entry: Signal<Out, Bits<4>>,
    /// Live mask of a pushed frame.
    pub push_live: Signal<Out, Bits<4>>,
    /// Return address of a pushed frame (the next instruction's).
    pub push_ret: Signal<Out, Bits<8>>,
    /// Lanes of the stack's clear and kill commands; the new live mask of `SetTopLive`.
    pub stack_lanes: Signal<Out, Bits<4>>,
    // The next address in sequence.
    pc_inc: Signal<Local, Bits<9>>,
    // Lanes a predicated operation acts on.
    lanes: Signal<Local, Bits<4>>,
    // Calls the build's call stack holds.
    call_depth: Constant<Bits<4>>,
    // The codes raised here (`microcode::core::fault_code`) and the frame kinds pushed
    // (`mask_stack::KIND_*`): constants so that the Verilog names them.
    code_none: Constant<Bits<4>>,
    code_stack_overflow: Constant<Bits<4>>,
    code_call_overflow: Constant<Bits<4>>,
    code_stack_mismatch: Constant<Bits<4>>,
    code_divergent: Constant<Bits<4>>,
    code_emit: Constant<Bits<4>>,
    code_endprim: Constant<Bits<4>>,
    kind_if: Constant<Bits<2>>,
    kind_loop: Constant<Bits<2>>,
    kind_call: Constant<Bits<2>>,
}

impl FlowEval {
    /// The decision for a core whose call stack holds `call_depth` calls (at most 15).
    pub fn new(call_depth: u16) -> FlowEval {
        FlowEval {
            active: Default::default(),
            flow: Default::default(),
            pc: Default::default(),
            target: Default::default(),
            e: Default::default(),
            killed: Default::default(),
            live: Default::default(),
            calls: Default::default(),
            cond: Default::default(),
            px: Default::default(),
            full: Default::default(),
            top_kind: Default::default(),
            top_entry: Default::default(),
            top_live: Default::default(),
            call_found: Default::default(),
            call_live: Default::default(),
            call_entry: Default::default(),
            call_ret: Default::default(),
            next_pc: Default::default(),
            e_next: Default::default(),
            killed_next: Default::default(),
            live_next: Default::default(),
            calls_next: Default::default(),
            fault: Default::default(),
            end_run: Default::default(),
            pause: Default::default(),
            cmd: Default::default(),
            push_kind: Default::default(),
            push_entry: Default::default(),
            push_live: Default::default(),
            push_ret: Default::default(),
            stack_lanes: Default::default(),
            pc_inc: Default::default(),
            lanes: Default::default(),
            call_depth: Constant::new(u64::from(call_depth.min(15)).to_bits()),
            code_none: Constant::new(u64::from(fault_code::NONE).to_bits()),
            code_stack_overflow: Constant::new(u64::from(fault_code::STACK_OVERFLOW).to_bits()),
            code_call_overflow: Constant::new(u64::from(fault_code::CALL_OVERFLOW).to_bits()),
            code_stack_mismatch: Constant::new(u64::from(fault_code::STACK_MISMATCH).to_bits()),
            code_divergent: Constant::new(u64::from(fault_code::DIVERGENT).to_bits()),
            code_emit: Constant::new(u64::from(fault_code::EMIT).to_bits()),
            code_endprim: Constant::new(u64::from(fault_code::ENDPRIM).to_bits()),
            kind_if: Constant::new(KIND_IF.to_bits()),
            kind_loop: Constant::new(KIND_LOOP.to_bits()),
            kind_call: Constant::new(KIND_CALL.to_bits()),
        }
    }
}

impl Logic for FlowEval {
    // hdl_gen has no match guards, so the ifs stay inside the arms.
    #[allow(clippy::collapsible_match)]
    #[hdl_gen]
    fn update(&mut self) {
        // Defaults: no flow operation.
        self.pc_inc.next = bit_cast::<9, 8>(self.pc.val()) + bits::<9>(1);
        self.next_pc.next = self.pc_inc.val();
        self.e_next.next = self.e.val();
        self.killed_next.next = self.killed.val();
        self.live_next.next = self.live.val();
        self.calls_next.next = self.calls.val();
        self.fault.next = self.code_none.val();
        self.end_run.next = false;
        self.pause.next = self.code_none.val();
        self.lanes.next = self.e.val();
        self.cmd.next = StackCmd::Hold;
        self.push_kind.next = bits::<2>(0);
        self.push_entry.next = self.e.val();
        self.push_live.next = self.e.val();
        self.push_ret.next = self.pc_inc.val().get_bits::<8>(0);
        self.stack_lanes.next = self.e.val();

        if self.active.val() {
            match self.flow.val() {
                FlowOp::If => {
                    if self.full.val() {
                        self.fault.next = self.code_stack_overflow.val();
                    } else {
                        self.cmd.next = StackCmd::Push;
                        self.push_kind.next = self.kind_if.val();
                        self.push_live.next = self.cond.val();
                        self.e_next.next = self.e.val() & self.cond.val();
                        if !(self.e.val() & self.cond.val()).any() {
                            self.next_pc.next = self.target.val().get_bits::<9>(0);
                        }
                    }
                }
                FlowOp::Else => {
                    if self.top_kind.val() != self.kind_if.val() {
                        self.fault.next = self.code_stack_mismatch.val();
                    } else {
                        self.e_next.next = self.top_entry.val() & !self.top_live.val();
                        if !(self.top_entry.val() & !self.top_live.val()).any() {
                            self.next_pc.next = self.target.val().get_bits::<9>(0);
                        }
                    }
                }
                FlowOp::Endif => {
                    if self.top_kind.val() != self.kind_if.val() {
                        self.fault.next = self.code_stack_mismatch.val();
                    } else {
                        self.cmd.next = StackCmd::Pop;
                        self.e_next.next = self.top_entry.val();
                    }
                }
                FlowOp::Loop => {
                    if self.full.val() {
                        self.fault.next = self.code_stack_overflow.val();
                    } else {
                        self.cmd.next = StackCmd::Push;
                        self.push_kind.next = self.kind_loop.val();
                    }
                }
                FlowOp::Endloop => {
                    if self.top_kind.val() != self.kind_loop.val() {
                        self.fault.next = self.code_stack_mismatch.val();
                    } else if self.top_live.val().any() {
                        self.e_next.next = self.top_live.val();
                        self.next_pc.next = self.target.val().get_bits::<9>(0);
                    } else {
                        self.e_next.next = self.top_entry.val();
                        self.cmd.next = StackCmd::Pop;
                    }
                }
                FlowOp::Brk => {
                    self.e_next.next = bits::<4>(0);
                    self.cmd.next = StackCmd::ClearBrk;
                }
                FlowOp::Brkp => {
                    self.e_next.next = self.e.val() & !self.px.val();
                    self.stack_lanes.next = self.e.val() & self.px.val();
                    self.cmd.next = StackCmd::ClearBrk;
                }
                FlowOp::Cont => {
                    self.e_next.next = bits::<4>(0);
                    self.cmd.next = StackCmd::ClearCont;
                }
                FlowOp::Kilp => {
                    self.lanes.next = self.e.val() & self.cond.val();
                    self.killed_next.next = self.killed.val() | self.lanes.val();
                    self.e_next.next = self.e.val() & !self.lanes.val();
                    self.stack_lanes.next = self.lanes.val();
                    self.cmd.next = StackCmd::Kill;
                }
                FlowOp::Kill => {
                    self.killed_next.next = self.killed.val() | self.e.val();
                    self.e_next.next = bits::<4>(0);
                    self.cmd.next = StackCmd::Kill;
                }
                FlowOp::End => {
                    self.end_run.next = true;
                }
                FlowOp::Emit => {
                    self.pause.next = self.code_emit.val();
                }
                FlowOp::Endprim => {
                    self.pause.next = self.code_endprim.val();
                }
                FlowOp::Cal => {
                    if self.e.val().any() {
                        if self.calls.val() >= self.call_depth.val() {
                            self.fault.next = self.code_call_overflow.val();
                        } else if self.full.val() {
                            self.fault.next = self.code_stack_overflow.val();
                        } else {
                            self.cmd.next = StackCmd::Push;
                            self.push_kind.next = self.kind_call.val();
                            self.calls_next.next = self.calls.val() + 1;
                            self.next_pc.next = self.target.val().get_bits::<9>(0);
                        }
                    }
                }
                FlowOp::Calp => {
                    self.lanes.next = self.e.val() & self.px.val();
                    if self.lanes.val().any() {
                        if self.calls.val() >= self.call_depth.val() {
                            self.fault.next = self.code_call_overflow.val();
                        } else if self.full.val() {
                            self.fault.next = self.code_stack_overflow.val();
                        } else {
                            self.cmd.next = StackCmd::Push;
                            self.push_kind.next = self.kind_call.val();
                            self.push_live.next = self.lanes.val();
                            self.e_next.next = self.lanes.val();
                            self.calls_next.next = self.calls.val() + 1;
                            self.next_pc.next = self.target.val().get_bits::<9>(0);
                        }
                    }
                }
                FlowOp::Ret => {
                    self.e_next.next = bits::<4>(0);
                    if self.call_found.val() {
                        if (self.call_live.val() & !self.e.val() & !self.killed.val()).any() {
                            self.cmd.next = StackCmd::ClearRet;
                        } else {
                            self.cmd.next = StackCmd::PopToCall;
                            self.e_next.next = self.call_entry.val() & !self.killed.val();
                            self.next_pc.next = bit_cast::<9, 8>(self.call_ret.val());
                            self.calls_next.next = self.calls.val() - 1;
                        }
                    } else {
                        self.cmd.next = StackCmd::ClearRet;
                        self.live_next.next = self.live.val() & !self.e.val();
                    }
                }
                FlowOp::Endsub => {
                    if self.call_found.val() {
                        self.cmd.next = StackCmd::PopToCall;
                        self.e_next.next = self.call_entry.val() & !self.killed.val();
                        self.next_pc.next = bit_cast::<9, 8>(self.call_ret.val());
                        self.calls_next.next = self.calls.val() - 1;
                    }
                }
                FlowOp::Loopp => {
                    if self.full.val() {
                        self.fault.next = self.code_stack_overflow.val();
                    } else {
                        self.cmd.next = StackCmd::Push;
                        self.push_kind.next = self.kind_loop.val();
                        self.push_live.next = self.e.val() & self.px.val();
                        self.e_next.next = self.e.val() & self.px.val();
                        if !(self.e.val() & self.px.val()).any() {
                            self.next_pc.next = self.target.val().get_bits::<9>(0);
                        }
                    }
                }
                FlowOp::Next => {
                    if self.top_kind.val() != self.kind_loop.val() {
                        self.fault.next = self.code_stack_mismatch.val();
                    } else {
                        self.e_next.next = self.top_live.val();
                    }
                }
                FlowOp::Endloopp => {
                    self.lanes.next = self.top_live.val() & self.px.val();
                    if self.top_kind.val() != self.kind_loop.val() {
                        self.fault.next = self.code_stack_mismatch.val();
                    } else if self.lanes.val().any() {
                        self.cmd.next = StackCmd::SetTopLive;
                        self.stack_lanes.next = self.lanes.val();
                        self.e_next.next = self.lanes.val();
                        self.next_pc.next = self.target.val().get_bits::<9>(0);
                    } else {
                        self.e_next.next = self.top_entry.val();
                        self.cmd.next = StackCmd::Pop;
                    }
                }
                FlowOp::Jmp => {
                    self.next_pc.next = self.target.val().get_bits::<9>(0);
                }
                FlowOp::Jmpp => {
                    self.lanes.next = self.e.val() & !self.killed.val();
                    if (self.lanes.val() & self.cond.val()).any() {
                        if (self.lanes.val() & !self.cond.val()).any() {
                            self.fault.next = self.code_divergent.val();
                        } else {
                            self.next_pc.next = self.target.val().get_bits::<9>(0);
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

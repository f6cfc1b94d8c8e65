//! `MaskStack`: the sequencer's stack of IF, loop and call frames (16 frames of registers), with
//! the whole-stack updates that BRK, CONT, RET and KIL need in one clock.
//!
//! A frame holds its kind ([`KIND_IF`], [`KIND_LOOP`], [`KIND_CALL`]), an entry mask, a second
//! mask (IF: the condition; loop and call: the live lanes) and a return address (calls). The
//! updates follow the core model (`sim::core_model`) literally:
//! - `ClearBrk` (BRK, BRKP): from the top down to the innermost loop or call, IF frames lose the
//!   lanes from their entry mask; an innermost loop loses them from its live mask.
//! - `ClearCont`: the same without the loop's live mask.
//! - `ClearRet` (RET that stays in the function or returns from main): from the top down to the
//!   innermost call, IF frames lose the lanes from their entry, loops from entry and live; the
//!   call frame from its live mask.
//! - `Kill`: every frame loses the lanes (IF: entry; loop and call: entry and live).
//! - `PopToCall`: pops every frame up to and including the innermost call.
//!
//! Timing: commands act at the rising edge; every output is combinational from the registers.
//! Overflow and kind checks are the sequencer's (it never pushes onto a full stack).
use rust_hdl::prelude::*;

/// Frame kind of an IF.
pub const KIND_IF: u64 = 1;
/// Frame kind of a loop.
pub const KIND_LOOP: u64 = 2;
/// Frame kind of a call.
pub const KIND_CALL: u64 = 3;
/// Frames held.
pub const DEPTH: usize = 16;

/// What the stack does at the next edge.
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum StackCmd {
    Hold,
    Reset,
    Push,
    Pop,
    PopToCall,
    SetTopLive,
    ClearBrk,
    ClearCont,
    ClearRet,
    Kill,
}

/// The frame stack; see the module documentation.
#[derive(LogicBlock, Default)]
pub struct MaskStack {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Command for this edge.
    pub cmd: Signal<In, StackCmd>,
    /// Kind of the pushed frame.
    pub push_kind: Signal<In, Bits<2>>,
    /// Entry mask of the pushed frame.
    pub push_entry: Signal<In, Bits<4>>,
    /// Condition / live mask of the pushed frame.
    pub push_live: Signal<In, Bits<4>>,
    /// Return address of the pushed frame.
    pub push_ret: Signal<In, Bits<8>>,
    /// Lanes of the clear and kill commands; the new live mask of `SetTopLive`.
    pub lanes: Signal<In, Bits<4>>,
    /// Frames on the stack.
    pub sp: Signal<Out, Bits<5>>,
    /// Kind of the top frame (0 when empty).
    pub top_kind: Signal<Out, Bits<2>>,
    pub top_entry: Signal<Out, Bits<4>>,
    pub top_live: Signal<Out, Bits<4>>,
    /// A call frame is on the stack.
    pub call_found: Signal<Out, Bit>,
    /// The innermost call frame's entry mask, live mask and return address.
    pub call_entry: Signal<Out, Bits<4>>,
    pub call_live: Signal<Out, Bits<4>>,
    pub call_ret: Signal<Out, Bits<8>>,
    kind: [DFF<Bits<2>>; 16],
    entry: [DFF<Bits<4>>; 16],
    live: [DFF<Bits<4>>; 16],
    ret: [DFF<Bits<8>>; 16],
    count: DFF<Bits<5>>,
    top_idx: Signal<Local, Bits<5>>,
    inner_lc: Signal<Local, Bits<5>>,
    lc_found: Signal<Local, Bit>,
    inner_call: Signal<Local, Bits<5>>,
}

impl Logic for MaskStack {
    // hdl_gen has no match guards, so the ifs stay inside the arms.
    #[allow(clippy::collapsible_match)]
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, count);
        for i in 0..16 {
            self.kind[i].clock.next = self.clock.val();
            self.entry[i].clock.next = self.clock.val();
            self.live[i].clock.next = self.clock.val();
            self.ret[i].clock.next = self.clock.val();
        }
        self.top_idx.next = self.count.q.val() - 1;
        self.sp.next = self.count.q.val();

        // Innermost loop-or-call and innermost call (the last match wins).
        self.inner_lc.next = bits::<5>(0);
        self.lc_found.next = false;
        self.inner_call.next = bits::<5>(0);
        self.call_found.next = false;
        for i in 0..16 {
            if (i < self.count.q.val().index()) & (self.kind[i].q.val().get_bit(1)) {
                self.inner_lc.next = i.to_bits();
                self.lc_found.next = true;
            }
            if (i < self.count.q.val().index()) & (self.kind[i].q.val() == 3) {
                self.inner_call.next = i.to_bits();
                self.call_found.next = true;
            }
        }

        self.top_kind.next = bits::<2>(0);
        self.top_entry.next = bits::<4>(0);
        self.top_live.next = bits::<4>(0);
        self.call_entry.next = bits::<4>(0);
        self.call_live.next = bits::<4>(0);
        self.call_ret.next = bits::<8>(0);
        for i in 0..16 {
            if self.count.q.val().any() & (self.top_idx.val().index() == i) {
                self.top_kind.next = self.kind[i].q.val();
                self.top_entry.next = self.entry[i].q.val();
                self.top_live.next = self.live[i].q.val();
            }
            if self.call_found.val() & (self.inner_call.val().index() == i) {
                self.call_entry.next = self.entry[i].q.val();
                self.call_live.next = self.live[i].q.val();
                self.call_ret.next = self.ret[i].q.val();
            }
        }

        self.count.d.next = self.count.q.val();
        match self.cmd.val() {
            StackCmd::Reset => {
                self.count.d.next = bits::<5>(0);
            }
            StackCmd::Push => {
                self.count.d.next = self.count.q.val() + 1;
            }
            StackCmd::Pop => {
                self.count.d.next = self.count.q.val() - 1;
            }
            StackCmd::PopToCall => {
                self.count.d.next = self.inner_call.val();
            }
            _ => {}
        }

        for i in 0..16 {
            self.kind[i].d.next = self.kind[i].q.val();
            self.entry[i].d.next = self.entry[i].q.val();
            self.live[i].d.next = self.live[i].q.val();
            self.ret[i].d.next = self.ret[i].q.val();
            match self.cmd.val() {
                StackCmd::Push => {
                    if self.count.q.val().index() == i {
                        self.kind[i].d.next = self.push_kind.val();
                        self.entry[i].d.next = self.push_entry.val();
                        self.live[i].d.next = self.push_live.val();
                        self.ret[i].d.next = self.push_ret.val();
                    }
                }
                StackCmd::SetTopLive => {
                    if self.top_idx.val().index() == i {
                        self.live[i].d.next = self.lanes.val();
                    }
                }
                StackCmd::ClearBrk => {
                    if (i < self.count.q.val().index())
                        & (!self.lc_found.val() | (i > self.inner_lc.val().index()))
                        & (self.kind[i].q.val() == 1)
                    {
                        self.entry[i].d.next = self.entry[i].q.val() & !self.lanes.val();
                    }
                    if self.lc_found.val()
                        & (i == self.inner_lc.val().index())
                        & (self.kind[i].q.val() == 2)
                    {
                        self.live[i].d.next = self.live[i].q.val() & !self.lanes.val();
                    }
                }
                StackCmd::ClearCont => {
                    if (i < self.count.q.val().index())
                        & (!self.lc_found.val() | (i > self.inner_lc.val().index()))
                        & (self.kind[i].q.val() == 1)
                    {
                        self.entry[i].d.next = self.entry[i].q.val() & !self.lanes.val();
                    }
                }
                StackCmd::ClearRet => {
                    if (i < self.count.q.val().index())
                        & (!self.call_found.val() | (i > self.inner_call.val().index()))
                    {
                        self.entry[i].d.next = self.entry[i].q.val() & !self.lanes.val();
                        if self.kind[i].q.val() == 2 {
                            self.live[i].d.next = self.live[i].q.val() & !self.lanes.val();
                        }
                    }
                    if self.call_found.val() & (i == self.inner_call.val().index()) {
                        self.live[i].d.next = self.live[i].q.val() & !self.lanes.val();
                    }
                }
                StackCmd::Kill => {
                    if i < self.count.q.val().index() {
                        self.entry[i].d.next = self.entry[i].q.val() & !self.lanes.val();
                        if self.kind[i].q.val().get_bit(1) {
                            self.live[i].d.next = self.live[i].q.val() & !self.lanes.val();
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

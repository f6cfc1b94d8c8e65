//! `MaskStack`: the sequencer's stack of IF, loop and call frames (8 frames of registers), with
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
//! Timing: commands act at the rising edge; the outputs are registered, one clock behind the
//! frames (the sequencer evaluates flow instructions in their last clock, never the first).
//! Overflow and kind checks are the sequencer's (it never pushes onto a full stack).
use rust_hdl::prelude::*;

/// Frame kind of an IF.
pub const KIND_IF: u64 = 1;
/// Frame kind of a loop.
pub const KIND_LOOP: u64 = 2;
/// Frame kind of a call.
pub const KIND_CALL: u64 = 3;
/// Most frames held; a build may keep fewer ([`MaskStack::new`]).
pub const DEPTH: usize = 8;

/// What the stack does at the next edge.
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum StackCmd {
    /// Nothing changes.
    Hold,
    /// Empty the stack (a run starts or is abandoned).
    Reset,
    /// Push a frame (`push_kind`, `push_entry`, `push_live`, `push_ret`).
    Push,
    /// Pop the top frame.
    Pop,
    /// Pop every frame down to and including the innermost call frame (return).
    PopToCall,
    /// Replace the top frame's live mask with `lanes` (a predicated loop end).
    SetTopLive,
    /// BRK, BRKP: the `lanes` leave the innermost loop (see the module documentation).
    ClearBrk,
    /// CONT: the `lanes` wait for the loop's next iteration.
    ClearCont,
    /// RET: the `lanes` leave the function (or, in the main program, stop).
    ClearRet,
    /// KIL, KILP: every frame loses the `lanes`.
    Kill,
}

/// The frame stack; see the module documentation.
///
/// Frame membership is a thermometer code (`valid`, bit i = frame i exists) and the frames a
/// command touches are bit masks computed with a few 8-bit OR-smears, not index comparisons:
/// "some loop or call above frame i" is `smear(is_lc >> 1)` where `smear` ORs every bit into all
/// lower ones. The two frames read out (top, innermost call) go through 8-way multiplexers.
#[derive(LogicBlock)]
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
    /// Entry mask of the top frame (the execution mask when it was pushed).
    pub top_entry: Signal<Out, Bits<4>>,
    /// Live mask of the top frame (an IF's condition, a loop's lanes still looping).
    pub top_live: Signal<Out, Bits<4>>,
    /// A call frame is on the stack.
    pub call_found: Signal<Out, Bit>,
    /// The innermost call frame's entry mask.
    pub call_entry: Signal<Out, Bits<4>>,
    /// The innermost call frame's live mask (lanes that have not returned).
    pub call_live: Signal<Out, Bits<4>>,
    /// The innermost call frame's return address.
    pub call_ret: Signal<Out, Bits<8>>,
    kind: [DFF<Bits<2>>; 8],
    entry: [DFF<Bits<4>>; 8],
    live: [DFF<Bits<4>>; 8],
    ret: [DFF<Bits<8>>; 8],
    count: DFF<Bits<5>>,
    valid: DFF<Bits<8>>,
    top_idx: Signal<Local, Bits<5>>,
    is_lc: Signal<Local, Bits<8>>,
    is_call: Signal<Local, Bits<8>>,
    is_loop: Signal<Local, Bits<8>>,
    s1: Signal<Local, Bits<8>>,
    s2: Signal<Local, Bits<8>>,
    s3: Signal<Local, Bits<8>>,
    blocked_lc: Signal<Local, Bits<8>>,
    c1: Signal<Local, Bits<8>>,
    c2: Signal<Local, Bits<8>>,
    c3: Signal<Local, Bits<8>>,
    blocked_call: Signal<Local, Bits<8>>,
    inner_lc: Signal<Local, Bits<8>>,
    inner_call: Signal<Local, Bits<8>>,
    b1: Signal<Local, Bits<8>>,
    b2: Signal<Local, Bits<8>>,
    b3: Signal<Local, Bits<8>>,
    below_call: Signal<Local, Bits<8>>,
    call_idx: Signal<Local, Bits<5>>,
    push_at: Signal<Local, Bits<8>>,
    top_at: Signal<Local, Bits<8>>,
    clear_if: Signal<Local, Bits<8>>,
    clear_ret: Signal<Local, Bits<8>>,
    c_sp: Signal<Local, Bits<5>>,
    sp_q: DFF<Bits<5>>,
    c_top_kind: Signal<Local, Bits<2>>,
    top_kind_q: DFF<Bits<2>>,
    c_top_entry: Signal<Local, Bits<4>>,
    top_entry_q: DFF<Bits<4>>,
    c_top_live: Signal<Local, Bits<4>>,
    top_live_q: DFF<Bits<4>>,
    c_call_found: Signal<Local, Bit>,
    call_found_q: DFF<Bit>,
    c_call_entry: Signal<Local, Bits<4>>,
    call_entry_q: DFF<Bits<4>>,
    c_call_live: Signal<Local, Bits<4>>,
    call_live_q: DFF<Bits<4>>,
    c_call_ret: Signal<Local, Bits<8>>,
    call_ret_q: DFF<Bits<8>>,
    // The frames this build has (a thermometer code): the others are never valid nor written,
    // so synthesis turns their registers into constants and drops them.
    frames: Constant<Bits<8>>,
    kind_loop: Constant<Bits<2>>,
    kind_call: Constant<Bits<2>>,
}

impl Default for MaskStack {
    fn default() -> Self {
        Self::new(DEPTH)
    }
}

impl MaskStack {
    /// A stack of `frames` frames (1..=[`DEPTH`]); the sequencer never pushes onto a full one.
    pub fn new(frames: usize) -> Self {
        let frames = frames.clamp(1, DEPTH);
        MaskStack {
            clock: Default::default(),
            cmd: Default::default(),
            push_kind: Default::default(),
            push_entry: Default::default(),
            push_live: Default::default(),
            push_ret: Default::default(),
            lanes: Default::default(),
            sp: Default::default(),
            top_kind: Default::default(),
            top_entry: Default::default(),
            top_live: Default::default(),
            call_found: Default::default(),
            call_entry: Default::default(),
            call_live: Default::default(),
            call_ret: Default::default(),
            kind: Default::default(),
            entry: Default::default(),
            live: Default::default(),
            ret: Default::default(),
            count: Default::default(),
            valid: Default::default(),
            top_idx: Default::default(),
            is_lc: Default::default(),
            is_call: Default::default(),
            is_loop: Default::default(),
            s1: Default::default(),
            s2: Default::default(),
            s3: Default::default(),
            blocked_lc: Default::default(),
            c1: Default::default(),
            c2: Default::default(),
            c3: Default::default(),
            blocked_call: Default::default(),
            inner_lc: Default::default(),
            inner_call: Default::default(),
            b1: Default::default(),
            b2: Default::default(),
            b3: Default::default(),
            below_call: Default::default(),
            call_idx: Default::default(),
            push_at: Default::default(),
            top_at: Default::default(),
            clear_if: Default::default(),
            clear_ret: Default::default(),
            c_sp: Default::default(),
            sp_q: Default::default(),
            c_top_kind: Default::default(),
            top_kind_q: Default::default(),
            c_top_entry: Default::default(),
            top_entry_q: Default::default(),
            c_top_live: Default::default(),
            top_live_q: Default::default(),
            c_call_found: Default::default(),
            call_found_q: Default::default(),
            c_call_entry: Default::default(),
            call_entry_q: Default::default(),
            c_call_live: Default::default(),
            call_live_q: Default::default(),
            c_call_ret: Default::default(),
            call_ret_q: Default::default(),
            frames: Constant::new(((1u64 << frames) - 1).to_bits()),
            kind_loop: Constant::new(KIND_LOOP.to_bits()),
            kind_call: Constant::new(KIND_CALL.to_bits()),
        }
    }
}

impl Logic for MaskStack {
    // hdl_gen has no match guards, so the ifs stay inside the arms.
    #[allow(clippy::collapsible_match)]
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            count,
            valid,
            sp_q,
            top_kind_q,
            top_entry_q,
            top_live_q,
            call_found_q,
            call_entry_q,
            call_live_q,
            call_ret_q
        );
        for i in 0..8 {
            self.kind[i].clock.next = self.clock.val();
            self.entry[i].clock.next = self.clock.val();
            self.live[i].clock.next = self.clock.val();
            self.ret[i].clock.next = self.clock.val();
        }
        self.c_sp.next = self.count.q.val();
        self.top_idx.next = self.count.q.val() - 1;

        // Frame classes as bit masks.
        self.is_lc.next = bits::<8>(0);
        self.is_call.next = bits::<8>(0);
        self.is_loop.next = bits::<8>(0);
        for i in 0..8 {
            // Bit 1 set: KIND_LOOP or KIND_CALL.
            if self.kind[i].q.val().get_bit(1) {
                self.is_lc.next = self.is_lc.val().replace_bit(i, true);
            }
            if self.kind[i].q.val() == self.kind_call.val() {
                self.is_call.next = self.is_call.val().replace_bit(i, true);
            }
            if self.kind[i].q.val() == self.kind_loop.val() {
                self.is_loop.next = self.is_loop.val().replace_bit(i, true);
            }
        }
        self.is_lc.next = self.is_lc.val() & self.valid.q.val();
        self.is_call.next = self.is_call.val() & self.valid.q.val();
        // blocked_lc[i]: a loop or call frame lies above frame i.
        self.s1.next = (self.is_lc.val() >> 1) | (self.is_lc.val() >> 2);
        self.s2.next = self.s1.val() | (self.s1.val() >> 2);
        self.s3.next = self.s2.val() | (self.s2.val() >> 4);
        self.blocked_lc.next = self.s3.val();
        self.c1.next = (self.is_call.val() >> 1) | (self.is_call.val() >> 2);
        self.c2.next = self.c1.val() | (self.c1.val() >> 2);
        self.c3.next = self.c2.val() | (self.c2.val() >> 4);
        self.blocked_call.next = self.c3.val();
        self.inner_lc.next = self.is_lc.val() & !self.blocked_lc.val();
        self.inner_call.next = self.is_call.val() & !self.blocked_call.val();
        self.c_call_found.next = self.is_call.val().any();
        // Frames strictly below the innermost call (what PopToCall keeps).
        self.b1.next = (self.inner_call.val() >> 1) | (self.inner_call.val() >> 2);
        self.b2.next = self.b1.val() | (self.b1.val() >> 2);
        self.b3.next = self.b2.val() | (self.b2.val() >> 4);
        self.below_call.next = self.b3.val();
        self.push_at.next =
            !self.valid.q.val() & ((self.valid.q.val() << 1) | bits::<8>(1)) & self.frames.val();
        self.top_at.next = self.valid.q.val() & !(self.valid.q.val() >> 1) & self.frames.val();
        // IF frames above the innermost loop or call; frames above the innermost call.
        self.clear_if.next = self.valid.q.val() & !self.blocked_lc.val() & !self.is_lc.val();
        self.clear_ret.next = self.valid.q.val() & !self.blocked_call.val() & !self.is_call.val();

        // The innermost call's index (for its frame and for PopToCall).
        self.call_idx.next = bits::<5>(0);
        for i in 0..8 {
            if self.inner_call.val().get_bit(i) {
                self.call_idx.next = i.to_bits();
            }
        }

        self.c_top_kind.next = bits::<2>(0);
        self.c_top_entry.next = bits::<4>(0);
        self.c_top_live.next = bits::<4>(0);
        self.c_call_entry.next = bits::<4>(0);
        self.c_call_live.next = bits::<4>(0);
        self.c_call_ret.next = bits::<8>(0);
        if self.count.q.val().any() {
            match self.top_idx.val().get_bits::<3>(0).index() {
                0 => {
                    self.c_top_kind.next = self.kind[0].q.val();
                    self.c_top_entry.next = self.entry[0].q.val();
                    self.c_top_live.next = self.live[0].q.val();
                }
                1 => {
                    self.c_top_kind.next = self.kind[1].q.val();
                    self.c_top_entry.next = self.entry[1].q.val();
                    self.c_top_live.next = self.live[1].q.val();
                }
                2 => {
                    self.c_top_kind.next = self.kind[2].q.val();
                    self.c_top_entry.next = self.entry[2].q.val();
                    self.c_top_live.next = self.live[2].q.val();
                }
                3 => {
                    self.c_top_kind.next = self.kind[3].q.val();
                    self.c_top_entry.next = self.entry[3].q.val();
                    self.c_top_live.next = self.live[3].q.val();
                }
                4 => {
                    self.c_top_kind.next = self.kind[4].q.val();
                    self.c_top_entry.next = self.entry[4].q.val();
                    self.c_top_live.next = self.live[4].q.val();
                }
                5 => {
                    self.c_top_kind.next = self.kind[5].q.val();
                    self.c_top_entry.next = self.entry[5].q.val();
                    self.c_top_live.next = self.live[5].q.val();
                }
                6 => {
                    self.c_top_kind.next = self.kind[6].q.val();
                    self.c_top_entry.next = self.entry[6].q.val();
                    self.c_top_live.next = self.live[6].q.val();
                }
                _ => {
                    self.c_top_kind.next = self.kind[7].q.val();
                    self.c_top_entry.next = self.entry[7].q.val();
                    self.c_top_live.next = self.live[7].q.val();
                }
            }
        }
        for i in 0..8 {
            if self.call_idx.val().index() == i {
                self.c_call_entry.next = self.entry[i].q.val();
                self.c_call_live.next = self.live[i].q.val();
                self.c_call_ret.next = self.ret[i].q.val();
            }
        }
        if !self.c_call_found.val() {
            self.c_call_entry.next = bits::<4>(0);
            self.c_call_live.next = bits::<4>(0);
            self.c_call_ret.next = bits::<8>(0);
        }

        match self.cmd.val() {
            StackCmd::Reset => {
                self.count.d.next = bits::<5>(0);
                self.valid.d.next = bits::<8>(0);
            }
            StackCmd::Push => {
                self.count.d.next = self.count.q.val() + 1;
                self.valid.d.next = ((self.valid.q.val() << 1) | bits::<8>(1)) & self.frames.val();
            }
            StackCmd::Pop => {
                self.count.d.next = self.count.q.val() - 1;
                self.valid.d.next = (self.valid.q.val() >> 1) & self.frames.val();
            }
            StackCmd::PopToCall => {
                self.count.d.next = self.call_idx.val();
                self.valid.d.next = self.valid.q.val() & self.below_call.val() & self.frames.val();
            }
            _ => {}
        }

        // A frame the build leaves out is never written: its registers stay zero and synthesis
        // removes them with every path that reads them.
        for i in 0..8 {
            self.kind[i].d.next = self.kind[i].q.val();
            self.entry[i].d.next = self.entry[i].q.val();
            self.live[i].d.next = self.live[i].q.val();
            self.ret[i].d.next = self.ret[i].q.val();
            match self.cmd.val() {
                StackCmd::Push => {
                    if self.push_at.val().get_bit(i) {
                        self.kind[i].d.next = self.push_kind.val();
                        self.entry[i].d.next = self.push_entry.val();
                        self.live[i].d.next = self.push_live.val();
                        self.ret[i].d.next = self.push_ret.val();
                    }
                }
                StackCmd::SetTopLive => {
                    if self.top_at.val().get_bit(i) {
                        self.live[i].d.next = self.lanes.val();
                    }
                }
                StackCmd::ClearBrk => {
                    if self.clear_if.val().get_bit(i) {
                        self.entry[i].d.next = self.entry[i].q.val() & !self.lanes.val();
                    }
                    if self.inner_lc.val().get_bit(i) & self.is_loop.val().get_bit(i) {
                        self.live[i].d.next = self.live[i].q.val() & !self.lanes.val();
                    }
                }
                StackCmd::ClearCont => {
                    if self.clear_if.val().get_bit(i) {
                        self.entry[i].d.next = self.entry[i].q.val() & !self.lanes.val();
                    }
                }
                StackCmd::ClearRet => {
                    if self.clear_ret.val().get_bit(i) {
                        self.entry[i].d.next = self.entry[i].q.val() & !self.lanes.val();
                        if self.is_loop.val().get_bit(i) {
                            self.live[i].d.next = self.live[i].q.val() & !self.lanes.val();
                        }
                    }
                    if self.inner_call.val().get_bit(i) {
                        self.live[i].d.next = self.live[i].q.val() & !self.lanes.val();
                    }
                }
                StackCmd::Kill => {
                    if self.valid.q.val().get_bit(i) {
                        self.entry[i].d.next = self.entry[i].q.val() & !self.lanes.val();
                        // Bit 1 set: KIND_LOOP or KIND_CALL.
                        if self.kind[i].q.val().get_bit(1) {
                            self.live[i].d.next = self.live[i].q.val() & !self.lanes.val();
                        }
                    }
                }
                _ => {}
            }
            if !self.frames.val().get_bit(i) {
                self.kind[i].d.next = bits::<2>(0);
                self.entry[i].d.next = bits::<4>(0);
                self.live[i].d.next = bits::<4>(0);
                self.ret[i].d.next = bits::<8>(0);
            }
        }
        // Registered outputs: a flow instruction acts in its last clock, at least its second,
        // so it always sees the stack as the previous instruction left it.
        self.sp_q.d.next = self.c_sp.val();
        self.sp.next = self.sp_q.q.val();
        self.top_kind_q.d.next = self.c_top_kind.val();
        self.top_kind.next = self.top_kind_q.q.val();
        self.top_entry_q.d.next = self.c_top_entry.val();
        self.top_entry.next = self.top_entry_q.q.val();
        self.top_live_q.d.next = self.c_top_live.val();
        self.top_live.next = self.top_live_q.q.val();
        self.call_found_q.d.next = self.c_call_found.val();
        self.call_found.next = self.call_found_q.q.val();
        self.call_entry_q.d.next = self.c_call_entry.val();
        self.call_entry.next = self.call_entry_q.q.val();
        self.call_live_q.d.next = self.c_call_live.val();
        self.call_live.next = self.call_live_q.q.val();
        self.call_ret_q.d.next = self.c_call_ret.val();
        self.call_ret.next = self.call_ret_q.q.val();
    }
}

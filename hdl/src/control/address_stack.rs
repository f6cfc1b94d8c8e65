//! `AddressStack`: the control of the address stack of PUSHA / POPA (feature `ADDRESS_STACK`):
//! each lane's depth, the overflow and underflow checks, and the entry addresses of the pushes
//! and pops. The entries themselves live in the shader core's addend-line block RAM pair (per
//! lane up to [`ADDRESS_STACK_ENTRIES`] vec4 entries, entry e at word
//! `16 * (e + 1) + 4 * lane + component`), which the core shares with the multiply-add's addend
//! line: the two never need a port in the same clock (see `shader_core.rs`).
//!
//! Ports and timing:
//! - `check` (the instruction's first clock of an ALU instruction), `op` (the decoder's
//!   `unit.astack`, [`astack`]: none, PUSHA or POPA) and `e` (the execution mask) give `fault`
//!   combinationally: `fault_code::ADDRESS_OVERFLOW` when a PUSHA finds an executing lane's stack
//!   full, `ADDRESS_UNDERFLOW` when a POPA finds one empty, else 0. A fault stops the run before
//!   any lane pushes or pops, as in the model.
//! - `slot_valid` and `slot` (lane in bits 2..3, component in 0..1) of the slot issued this clock:
//!   a POPA slot reads at issue (`pop_read` with `pop_addr`, combinational); a PUSHA slot of an
//!   executing lane writes two clocks after issue (`push_we`, `push_addr`: registered), when the
//!   misc unit has registered its operand A; `pop_sel` (registered) tells the core that the word
//!   its memory returns this clock is a popped entry for the misc unit's operand A.
//! - The depths change at the edge ending the instruction's last slot (15), for the executing
//!   lanes, unless it faulted; `clear_depths` (a run's start) empties every lane's stack at the
//!   next edge.
use crate::decoder::astack;
use microcode::core::config::ADDRESS_STACK_ENTRIES;
use microcode::core::fault_code;
use rust_hdl::prelude::*;

/// The address stack's control; see the module documentation.
#[derive(LogicBlock)]
pub struct AddressStack {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Empty every lane's stack at the next edge (a run starts).
    pub clear_depths: Signal<In, Bit>,
    /// Check the depths this clock (the first clock of an ALU instruction).
    pub check: Signal<In, Bit>,
    /// The instruction's stack operation ([`astack`]: none, PUSHA or POPA).
    pub op: Signal<In, Bits<2>>,
    /// The execution mask (one bit per lane).
    pub e: Signal<In, Bits<4>>,
    /// A slot issues this clock.
    pub slot_valid: Signal<In, Bit>,
    /// The issued slot: lane in bits 2..3, component in bits 0..1.
    pub slot: Signal<In, Bits<4>>,
    /// 0, or the fault code (address stack overflow or underflow) of this clock's check.
    pub fault: Signal<Out, Bits<4>>,
    /// Read the stack's memory at `pop_addr` this clock (a POPA slot issues).
    pub pop_read: Signal<Out, Bit>,
    /// The popped entry's word (the lane's top).
    pub pop_addr: Signal<Out, Bits<8>>,
    /// The memory's read word this clock is a popped entry (the misc unit's operand A).
    pub pop_sel: Signal<Out, Bit>,
    /// Write the pushed operand at `push_addr` this clock (two clocks after its slot issued).
    pub push_we: Signal<Out, Bit>,
    /// The pushed entry's word (one above the lane's top).
    pub push_addr: Signal<Out, Bits<8>>,

    // Each lane's depth.
    depth: [DFF<Bits<4>>; 4],
    // Entries built (`CoreConfig::address_stack_depth`, at most `ADDRESS_STACK_ENTRIES`).
    entries: Constant<Bits<4>>,
    // The codes of `fault` (`microcode::core::fault_code`).
    code_none: Constant<Bits<4>>,
    code_overflow: Constant<Bits<4>>,
    code_underflow: Constant<Bits<4>>,
    // The decoder's encoding of `op` (`decoder::astack`).
    op_push: Constant<Bits<2>>,
    op_pop: Constant<Bits<2>>,
    lane: Signal<Local, Bits<2>>,
    lane_depth: Signal<Local, Bits<4>>,
    lane_depth_p1: Signal<Local, Bits<4>>,
    full: Signal<Local, Bits<4>>,
    empty: Signal<Local, Bits<4>>,
    fault_any: Signal<Local, Bit>,
    // The push, one and two clocks after issue.
    push1_we: DFF<Bit>,
    push1_addr: DFF<Bits<8>>,
    push2_we: DFF<Bit>,
    push2_addr: DFF<Bits<8>>,
    pop_sel_q: DFF<Bit>,
}

impl AddressStack {
    /// A stack of `entries` entries per lane (at most [`ADDRESS_STACK_ENTRIES`]).
    pub fn new(entries: u16) -> AddressStack {
        AddressStack {
            clock: Default::default(),
            clear_depths: Default::default(),
            check: Default::default(),
            op: Default::default(),
            e: Default::default(),
            slot_valid: Default::default(),
            slot: Default::default(),
            fault: Default::default(),
            pop_read: Default::default(),
            pop_addr: Default::default(),
            pop_sel: Default::default(),
            push_we: Default::default(),
            push_addr: Default::default(),
            depth: Default::default(),
            entries: Constant::new(u64::from(entries.min(ADDRESS_STACK_ENTRIES)).to_bits()),
            code_none: Constant::new(u64::from(fault_code::NONE).to_bits()),
            code_overflow: Constant::new(u64::from(fault_code::ADDRESS_OVERFLOW).to_bits()),
            code_underflow: Constant::new(u64::from(fault_code::ADDRESS_UNDERFLOW).to_bits()),
            op_push: Constant::new(astack::PUSH.to_bits()),
            op_pop: Constant::new(astack::POP.to_bits()),
            lane: Default::default(),
            lane_depth: Default::default(),
            lane_depth_p1: Default::default(),
            full: Default::default(),
            empty: Default::default(),
            fault_any: Default::default(),
            push1_we: Default::default(),
            push1_addr: Default::default(),
            push2_we: Default::default(),
            push2_addr: Default::default(),
            pop_sel_q: Default::default(),
        }
    }
}

impl Logic for AddressStack {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, push1_we, push1_addr, push2_we, push2_addr, pop_sel_q);
        for i in 0..4 {
            self.depth[i].clock.next = self.clock.val();
            self.depth[i].d.next = self.depth[i].q.val();
        }
        // The depth checks.
        self.full.next = bit_cast::<4, 1>((self.depth[0].q.val() >= self.entries.val()).into())
            | (bit_cast::<4, 1>((self.depth[1].q.val() >= self.entries.val()).into()) << 1)
            | (bit_cast::<4, 1>((self.depth[2].q.val() >= self.entries.val()).into()) << 2)
            | (bit_cast::<4, 1>((self.depth[3].q.val() >= self.entries.val()).into()) << 3);
        self.empty.next = bit_cast::<4, 1>((self.depth[0].q.val() == 0).into())
            | (bit_cast::<4, 1>((self.depth[1].q.val() == 0).into()) << 1)
            | (bit_cast::<4, 1>((self.depth[2].q.val() == 0).into()) << 2)
            | (bit_cast::<4, 1>((self.depth[3].q.val() == 0).into()) << 3);
        self.fault.next = self.code_none.val();
        if self.check.val() {
            if (self.op.val() == self.op_push.val()) & (self.full.val() & self.e.val()).any() {
                self.fault.next = self.code_overflow.val();
            }
            if (self.op.val() == self.op_pop.val()) & (self.empty.val() & self.e.val()).any() {
                self.fault.next = self.code_underflow.val();
            }
        }
        self.fault_any.next = self.fault.val().any();
        // The depths: emptied at a run's start, stepped after the last slot.
        if self.clear_depths.val() {
            for i in 0..4 {
                self.depth[i].d.next = bits::<4>(0);
            }
        }
        if self.slot_valid.val()
            & (self.slot.val() == 15)
            & self.op.val().any()
            & !self.fault_any.val()
        {
            for i in 0..4 {
                if self.e.val().get_bit(i) {
                    if self.op.val() == self.op_push.val() {
                        self.depth[i].d.next = self.depth[i].q.val() + 1;
                    } else {
                        self.depth[i].d.next = self.depth[i].q.val() - 1;
                    }
                }
            }
        }
        // The issued slot's lane and its depth.
        self.lane.next = self.slot.val().get_bits::<2>(2);
        match self.lane.val().index() {
            0 => {
                self.lane_depth.next = self.depth[0].q.val();
            }
            1 => {
                self.lane_depth.next = self.depth[1].q.val();
            }
            2 => {
                self.lane_depth.next = self.depth[2].q.val();
            }
            _ => {
                self.lane_depth.next = self.depth[3].q.val();
            }
        }
        self.lane_depth_p1.next = self.lane_depth.val() + 1;
        // A pop reads the lane's top entry at issue.
        self.pop_read.next = self.slot_valid.val() & (self.op.val() == self.op_pop.val());
        self.pop_addr.next =
            (bit_cast::<8, 4>(self.lane_depth.val()) << 4) | bit_cast::<8, 4>(self.slot.val());
        self.pop_sel_q.d.next = self.op.val() == self.op_pop.val();
        self.pop_sel.next = self.pop_sel_q.q.val();
        // A push writes one above the top, two clocks after issue.
        self.push1_addr.d.next =
            (bit_cast::<8, 4>(self.lane_depth_p1.val()) << 4) | bit_cast::<8, 4>(self.slot.val());
        self.push1_we.d.next = self.slot_valid.val()
            & (self.op.val() == self.op_push.val())
            & self.e.val().get_bit(self.lane.val().index())
            & !self.fault_any.val();
        self.push2_we.d.next = self.push1_we.q.val();
        self.push2_addr.d.next = self.push1_addr.q.val();
        self.push_we.next = self.push2_we.q.val();
        self.push_addr.next = self.push2_addr.q.val();
    }
}

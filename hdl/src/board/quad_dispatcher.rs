//! `QuadDispatcher`: RENDER (`firmware-loader/PROTOCOL.md` section 3.2) spread over the shader
//! cores of a board with several ([`crate::multi_board_top::MultiBoardTop`]): it hands the
//! quads of a render, in image order, to whichever core is idle, and keeps their records in a
//! reorder buffer from which the loader's firmware streams them in image order (or, for a
//! count-only render, lets them go).
//!
//! What the firmware does: the checks, the PARAMS copy into every core's constants, then three
//! register writes (`crate::host_port::ctl::RENDER_ROW_X`, `RENDER_Y_QUADS`, `RENDER_GO`: row
//! quads, first column and row, quads, lane words, the coordinate input's and the output's
//! registers); then, for each block frame, it waits until the records of the block are ready
//! ([`crate::host_port::ctl::RENDER_GO`] read), sends them from the head record
//! ([`crate::host_port::RECORD_BASE`]), consuming each (`RENDER_NEXT`), and finally sends the
//! end frame from the fault, quads and cycles read here.
//!
//! What the hardware does, per core (each core's state: ready with cleared registers,
//! clearing, running, finished): a **scan** visits the cores in turn; a finished core is
//! **collected** (its output words read into the quad's slot of the reorder buffer with its
//! kill mask and fault, its cycles and fault into the slot's metadata, then the core is
//! cleared for the next quad), a ready core is **launched** with the next quad (the eight
//! coordinate words `2^23 + px`, `2^23 + py` of its four lanes written into the coordinate
//! register, then `start`) when the quad's slot is free: a quad `q` uses slot `q mod SLOTS`,
//! free once quad `q - SLOTS` is consumed (count-only: once the frontier passed it). The
//! **frontier** walks the slots in image order as their records become ready, adding each
//! quad's cycles; a quad that faults stops it (that quad counts, no record is streamed for it
//! or after it) and stops launching. The render is finished when the frontier has reached the
//! last quad or a fault and every core is idle again.
//!
//! A core collected or launched takes about 12 and 10 clocks of the scan (the collect 2 more
//! per output word); the cores meanwhile shade on their own, so a board of N cores shades N
//! quads at once while the scan keeps up (a quad of the demo shader takes about 3,000 core
//! clocks).
//!
//! Timing: registers and block RAM; `win_rdata` one clock after `win_addr`.
use crate::bram::Bram;
use crate::host_port::{ctl, RECORD_WORDS};
use microcode::protocol::RENDER_COORD_BIAS;
use rust_hdl::prelude::*;

/// Slots of the reorder buffer (quads in flight or waiting to be streamed): at least twice the
/// cores of the largest board.
pub const SLOTS: usize = 32;

/// Where the scan is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum DispatchState {
    /// No render.
    Idle,
    /// Looking at core `c`.
    Scan,
    /// Reading core `c`'s record.
    Collect,
    /// Writing core `c`'s coordinates and starting it.
    Launch,
}

/// The dispatcher; see the module documentation.
#[derive(LogicBlock)]
pub struct QuadDispatcher {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// A register write (the offset from the control base, `crate::host_port::ctl`).
    pub reg_we: Signal<In, Bit>,
    /// The register's offset.
    pub reg_addr: Signal<In, Bits<3>>,
    /// The word written.
    pub reg_wdata: Signal<In, Bits<32>>,
    /// The loader's read address within the window (offset from `WINDOW_BASE`).
    pub win_addr: Signal<In, Bits<11>>,
    /// The word there, a clock later.
    pub win_rdata: Signal<Out, Bits<32>>,
    /// Per core: busy.
    pub core_busy: Signal<In, Bits<32>>,
    /// Per core: done.
    pub core_done: Signal<In, Bits<32>>,
    /// The picked core's read word ([`READ_LATENCY`](crate::host_port::READ_LATENCY) after
    /// its address).
    pub picked_rdata: Signal<In, Bits<32>>,
    /// The picked core's fault.
    pub picked_fault: Signal<In, Bits<4>>,
    /// The picked core's kill mask.
    pub picked_killed: Signal<In, Bits<4>>,
    /// The picked core's cycles.
    pub picked_cycles: Signal<In, Bits<32>>,
    /// A render is in progress: the dispatcher drives the cores.
    pub active: Signal<Out, Bit>,
    /// The core whose words and status come back (the one the scan is at).
    pub pick: Signal<Out, Bits<5>>,
    /// Word address for the cores.
    pub addr: Signal<Out, Bits<16>>,
    /// Write data for the cores.
    pub wdata: Signal<Out, Bits<32>>,
    /// Per core: write.
    pub we: Signal<Out, Bits<32>>,
    /// Per core: clear.
    pub clear: Signal<Out, Bits<32>>,
    /// Per core: start.
    pub start: Signal<Out, Bits<32>>,
    rec: Bram<32, 10>,
    meta: Bram<36, 5>,
    all: Constant<Bits<32>>,
    last_core: Constant<Bits<5>>,
    bias: Constant<Bits<32>>,
    reg_base: Constant<Bits<16>>,
    // Per core: state (0 ready, 1 clearing, 2 running, 3 finished) and its quad's slot.
    cst: Vec<DFF<Bits<2>>>,
    cslot: Vec<DFF<Bits<5>>>,
    st: DFF<DispatchState>,
    c: DFF<Bits<5>>,
    k: DFF<Bits<5>>,
    // The request.
    row: DFF<Bits<16>>,
    qx: DFF<Bits<16>>,
    qy: DFF<Bits<16>>,
    total: DFF<Bits<16>>,
    lw: DFF<Bits<3>>,
    in_w: DFF<Bits<16>>,
    out_w: DFF<Bits<16>>,
    // Progress: quads launched, consumed, in order (the frontier); the first fault.
    next_q: DFF<Bits<16>>,
    consumed: DFF<Bits<16>>,
    frontier: DFF<Bits<16>>,
    ph: DFF<Bit>,
    faulted: DFF<Bit>,
    fcode: DFF<Bits<4>>,
    sum: DFF<Bits<32>>,
    stop: DFF<Bit>,
    ready: DFF<Bits<32>>,
    ctl_word: DFF<Bits<32>>,
    ctl_rd: DFF<Bit>,
    // Combinational.
    cur: Signal<Local, Bits<2>>,
    nxt_c: Signal<Local, Bits<5>>,
    all_ready: Signal<Local, Bit>,
    count_only: Signal<Local, Bit>,
    words: Signal<Local, Bits<5>>,
    free_base: Signal<Local, Bits<16>>,
    in_flight: Signal<Local, Bits<16>>,
    can_launch: Signal<Local, Bit>,
    slot_c: Signal<Local, Bits<5>>,
    to_clear: Signal<Local, Bit>,
    to_run: Signal<Local, Bit>,
    go: Signal<Local, Bit>,
    set_ready: Signal<Local, Bits<32>>,
    clr_ready: Signal<Local, Bits<32>>,
    word_off: Signal<Local, Bits<16>>,
    km1: Signal<Local, Bits<5>>,
    lane: Signal<Local, Bits<2>>,
    coord: Signal<Local, Bits<16>>,
    f_slot: Signal<Local, Bits<5>>,
    f_end: Signal<Local, Bit>,
    sum_next: Signal<Local, Bits<33>>,
    avail: Signal<Local, Bits<16>>,
    counted: Signal<Local, Bits<16>>,
}

impl QuadDispatcher {
    /// A dispatcher for `cores` cores (1 to `crate::core_mux::MAX_CORES`).
    pub fn new(cores: usize) -> QuadDispatcher {
        let cores = cores.clamp(1, crate::core_mux::MAX_CORES);
        let all = if cores == 32 {
            u32::MAX
        } else {
            (1u32 << cores) - 1
        };
        QuadDispatcher {
            clock: Default::default(),
            reg_we: Default::default(),
            reg_addr: Default::default(),
            reg_wdata: Default::default(),
            win_addr: Default::default(),
            win_rdata: Default::default(),
            core_busy: Default::default(),
            core_done: Default::default(),
            picked_rdata: Default::default(),
            picked_fault: Default::default(),
            picked_killed: Default::default(),
            picked_cycles: Default::default(),
            active: Default::default(),
            pick: Default::default(),
            addr: Default::default(),
            wdata: Default::default(),
            we: Default::default(),
            clear: Default::default(),
            start: Default::default(),
            rec: Default::default(),
            meta: Default::default(),
            all: Constant::new(u64::from(all).to_bits()),
            last_core: Constant::new((cores as u64 - 1).to_bits()),
            bias: Constant::new(u64::from(RENDER_COORD_BIAS).to_bits()),
            reg_base: Constant::new(u64::from(crate::host_port::REG_BASE).to_bits()),
            cst: (0..cores).map(|_| DFF::default()).collect(),
            cslot: (0..cores).map(|_| DFF::default()).collect(),
            st: Default::default(),
            c: Default::default(),
            k: Default::default(),
            row: Default::default(),
            qx: Default::default(),
            qy: Default::default(),
            total: Default::default(),
            lw: Default::default(),
            in_w: Default::default(),
            out_w: Default::default(),
            next_q: Default::default(),
            consumed: Default::default(),
            frontier: Default::default(),
            ph: Default::default(),
            faulted: Default::default(),
            fcode: Default::default(),
            sum: Default::default(),
            stop: Default::default(),
            ready: Default::default(),
            ctl_word: Default::default(),
            ctl_rd: Default::default(),
            cur: Default::default(),
            nxt_c: Default::default(),
            all_ready: Default::default(),
            count_only: Default::default(),
            words: Default::default(),
            free_base: Default::default(),
            in_flight: Default::default(),
            can_launch: Default::default(),
            slot_c: Default::default(),
            to_clear: Default::default(),
            to_run: Default::default(),
            go: Default::default(),
            set_ready: Default::default(),
            clr_ready: Default::default(),
            word_off: Default::default(),
            km1: Default::default(),
            lane: Default::default(),
            coord: Default::default(),
            f_slot: Default::default(),
            f_end: Default::default(),
            sum_next: Default::default(),
            avail: Default::default(),
            counted: Default::default(),
        }
    }
}

impl Logic for QuadDispatcher {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, st, c, k, row, qx, qy, total, lw, in_w, out_w, next_q, consumed, frontier,
            ph, faulted, fcode, sum, stop, ready, ctl_word, ctl_rd
        );
        clock!(self, clock, rec, meta);
        self.count_only.next = !self.lw.q.val().any();
        // Output words per quad: 4 lanes of lane words (0, 1 or 4).
        self.words.next = bit_cast::<5, 3>(self.lw.q.val()) << 2;
        self.nxt_c.next = self.c.q.val() + 1;
        if self.c.q.val() == self.last_core.val() {
            self.nxt_c.next = bits::<5>(0);
        }
        self.free_base.next = self.consumed.q.val();
        if self.count_only.val() {
            self.free_base.next = self.frontier.q.val();
        }
        self.in_flight.next = self.next_q.q.val() - self.free_base.val();
        self.can_launch.next = !self.stop.q.val()
            & (self.next_q.q.val() != self.total.q.val())
            & (self.in_flight.val() < 32);
        self.go.next = self.reg_we.val() & (self.reg_addr.val() == 6);
        self.to_clear.next = false;
        self.to_run.next = false;
        self.set_ready.next = bits::<32>(0);
        self.clr_ready.next = bits::<32>(0);

        // ---- Per core: the state the core's own signals move on, and the scan's changes.
        self.cur.next = bits::<2>(0);
        self.slot_c.next = bits::<5>(0);
        self.all_ready.next = true;
        for i in 0..self.cst.len() {
            self.cst[i].clock.next = self.clock.val();
            self.cslot[i].clock.next = self.clock.val();
            self.cst[i].d.next = self.cst[i].q.val();
            self.cslot[i].d.next = self.cslot[i].q.val();
            if self.c.q.val().index() == i {
                self.cur.next = self.cst[i].q.val();
                self.slot_c.next = self.cslot[i].q.val();
            }
            if self.cst[i].q.val().any() {
                self.all_ready.next = false;
            }
        }

        // ---- The cores' port: nothing unless the scan drives it.
        self.active.next = self.st.q.val() != DispatchState::Idle;
        self.pick.next = self.c.q.val();
        self.addr.next = self.out_w.q.val();
        self.wdata.next = bits::<32>(0);
        self.we.next = bits::<32>(0);
        self.clear.next = bits::<32>(0);
        self.start.next = bits::<32>(0);
        self.rec.we.next = false;
        self.km1.next = self.k.q.val() - 1;
        self.rec.wa.next =
            (bit_cast::<10, 5>(self.slot_c.val()) << 5) | bit_cast::<10, 5>(self.km1.val());
        self.rec.wd.next = self.picked_rdata.val();
        self.meta.we.next = false;
        self.meta.wa.next = self.slot_c.val();
        self.meta.wd.next = bit_cast::<36, 32>(self.picked_cycles.val())
            | (bit_cast::<36, 4>(self.picked_fault.val()) << 32);
        // Lane words 1: word 4 * lane of the output register; 4: every word, lane-major.
        self.word_off.next = bit_cast::<16, 5>(self.k.q.val());
        if self.lw.q.val() == 1 {
            self.word_off.next = bit_cast::<16, 5>(self.k.q.val()) << 2;
        }
        self.lane.next = self.k.q.val().get_bits::<2>(1);
        self.coord.next =
            (self.qx.q.val() << 1) + bit_cast::<16, 1>(self.lane.val().get_bit(0).into());
        if self.k.q.val().get_bit(0) {
            self.coord.next =
                (self.qy.q.val() << 1) + bit_cast::<16, 1>(self.lane.val().get_bit(1).into());
        }

        match self.st.q.val() {
            DispatchState::Idle => {}
            DispatchState::Scan => {
                self.k.d.next = bits::<5>(0);
                if self.cur.val() == 3 {
                    self.st.d.next = DispatchState::Collect;
                } else if (self.cur.val() == 0) & self.can_launch.val() {
                    self.st.d.next = DispatchState::Launch;
                } else {
                    self.c.d.next = self.nxt_c.val();
                }
                if (self.faulted.q.val() | (self.frontier.q.val() == self.total.q.val()))
                    & self.all_ready.val()
                {
                    self.st.d.next = DispatchState::Idle;
                }
            }
            DispatchState::Collect => {
                // Address word k at step k, its data 2 clocks later into record word k - 1
                // (word 0 is the status, written at step 0).
                self.k.d.next = self.k.q.val() + 1;
                self.addr.next = self.out_w.q.val() + self.word_off.val();
                if self.k.q.val() == 0 {
                    self.rec.we.next = true;
                    self.rec.wa.next = bit_cast::<10, 5>(self.slot_c.val()) << 5;
                    self.rec.wd.next = bit_cast::<32, 4>(self.picked_fault.val())
                        | (bit_cast::<32, 4>(self.picked_killed.val()) << 24);
                }
                if (self.k.q.val() >= 2) & (self.k.q.val() < self.words.val() + 2) {
                    self.rec.we.next = true;
                }
                if self.k.q.val() == self.words.val() + 1 {
                    self.meta.we.next = true;
                    self.set_ready.next = bits::<32>(1) << bit_cast::<32, 5>(self.slot_c.val());
                    self.clear.next = bits::<32>(1) << bit_cast::<32, 5>(self.c.q.val());
                    self.to_clear.next = true;
                    if self.picked_fault.val().any() {
                        self.stop.d.next = true;
                    }
                    self.c.d.next = self.nxt_c.val();
                    self.st.d.next = DispatchState::Scan;
                }
            }
            DispatchState::Launch => {
                // Steps 0..7: lane k / 2, component k % 2 (x, then y); step 8: start.
                self.k.d.next = self.k.q.val() + 1;
                self.addr.next = self.in_w.q.val()
                    + (bit_cast::<16, 2>(self.lane.val()) << 2)
                    + bit_cast::<16, 1>(self.k.q.val().get_bit(0).into());
                self.wdata.next = self.bias.val() + bit_cast::<32, 16>(self.coord.val());
                if self.k.q.val() < 8 {
                    self.we.next = bits::<32>(1) << bit_cast::<32, 5>(self.c.q.val());
                } else {
                    self.start.next = bits::<32>(1) << bit_cast::<32, 5>(self.c.q.val());
                    self.to_run.next = true;
                    self.next_q.d.next = self.next_q.q.val() + 1;
                    self.qx.d.next = self.qx.q.val() + 1;
                    if self.qx.q.val() + 1 == self.row.q.val() {
                        self.qx.d.next = bits::<16>(0);
                        self.qy.d.next = self.qy.q.val() + 1;
                    }
                    self.c.d.next = self.nxt_c.val();
                    self.st.d.next = DispatchState::Scan;
                }
            }
        }
        for i in 0..self.cst.len() {
            if (self.cst[i].q.val() == 1) & !self.core_busy.val().get_bit(i) {
                self.cst[i].d.next = bits::<2>(0);
            }
            if (self.cst[i].q.val() == 2) & self.core_done.val().get_bit(i) {
                self.cst[i].d.next = bits::<2>(3);
            }
            if self.c.q.val().index() == i {
                if self.to_clear.val() {
                    self.cst[i].d.next = bits::<2>(1);
                }
                if self.to_run.val() {
                    self.cst[i].d.next = bits::<2>(2);
                    self.cslot[i].d.next = self.next_q.q.val().get_bits::<5>(0);
                }
            }
            if self.go.val() {
                self.cst[i].d.next = bits::<2>(1);
            }
        }
        if self.go.val() {
            self.clear.next = self.all.val();
        }

        // ---- The frontier: the next quad in image order, once its record is ready (a clock
        // to read its metadata, a clock to count it).
        self.f_slot.next = self.frontier.q.val().get_bits::<5>(0);
        self.meta.ra.next = self.f_slot.val();
        self.f_end.next = self.faulted.q.val() | (self.frontier.q.val() == self.total.q.val());
        self.sum_next.next = bit_cast::<33, 32>(self.sum.q.val())
            + bit_cast::<33, 32>(self.meta.rd.val().get_bits::<32>(0));
        if (self.st.q.val() != DispatchState::Idle) & !self.f_end.val() {
            if !self.ph.q.val() {
                // A slot's ready bit is its quad's only once that quad was launched (before,
                // it may still be the bit of the quad SLOTS earlier, not yet consumed).
                self.ph.d.next = self.ready.q.val().get_bit(self.f_slot.val().index())
                    & (self.frontier.q.val() != self.next_q.q.val());
            } else {
                self.ph.d.next = false;
                self.sum.d.next = self.sum_next.val().get_bits::<32>(0);
                if self.sum_next.val().get_bit(32) {
                    self.sum.d.next = !bits::<32>(0);
                }
                if self.meta.rd.val().get_bits::<4>(32).any() {
                    self.faulted.d.next = true;
                    self.fcode.d.next = self.meta.rd.val().get_bits::<4>(32);
                } else {
                    self.frontier.d.next = self.frontier.q.val() + 1;
                    if self.count_only.val() {
                        self.clr_ready.next = bits::<32>(1) << bit_cast::<32, 5>(self.f_slot.val());
                    }
                }
            }
        }

        // ---- The loader's registers.
        if self.reg_we.val() {
            match self.reg_addr.val().index() {
                4 => {
                    self.row.d.next = self.reg_wdata.val().get_bits::<16>(0);
                    self.qx.d.next = self.reg_wdata.val().get_bits::<16>(16);
                }
                5 => {
                    self.qy.d.next = self.reg_wdata.val().get_bits::<16>(0);
                    self.total.d.next = self.reg_wdata.val().get_bits::<16>(16);
                }
                6 => {
                    self.lw.d.next = self.reg_wdata.val().get_bits::<3>(0);
                    self.in_w.d.next = self.reg_base.val()
                        + (bit_cast::<16, 8>(self.reg_wdata.val().get_bits::<8>(8)) << 4);
                    self.out_w.d.next = self.reg_base.val()
                        + (bit_cast::<16, 8>(self.reg_wdata.val().get_bits::<8>(16)) << 4);
                    self.st.d.next = DispatchState::Scan;
                    self.c.d.next = bits::<5>(0);
                    self.next_q.d.next = bits::<16>(0);
                    self.consumed.d.next = bits::<16>(0);
                    self.frontier.d.next = bits::<16>(0);
                    self.ph.d.next = false;
                    self.faulted.d.next = false;
                    self.fcode.d.next = bits::<4>(0);
                    self.sum.d.next = bits::<32>(0);
                    self.stop.d.next = false;
                }
                7 => {
                    self.consumed.d.next = self.consumed.q.val() + 1;
                    self.clr_ready.next =
                        bits::<32>(1) << bit_cast::<32, 5>(self.consumed.q.val().get_bits::<5>(0));
                }
                _ => {}
            }
        }
        if self.go.val() {
            self.ready.d.next = bits::<32>(0);
        } else {
            self.ready.d.next = (self.ready.q.val() & !self.clr_ready.val()) | self.set_ready.val();
        }

        // ---- Reads: the head record (block RAM), or a register (a flip-flop), a clock later.
        self.rec.ra.next = (bit_cast::<10, 5>(self.consumed.q.val().get_bits::<5>(0)) << 5)
            | bit_cast::<10, 5>(self.win_addr.val().get_bits::<5>(0));
        self.avail.next = self.frontier.q.val() - self.consumed.q.val();
        self.counted.next = self.frontier.q.val() + bit_cast::<16, 1>(self.faulted.q.val().into());
        self.ctl_rd.d.next = self.win_addr.val().get_bit(10);
        self.ctl_word.d.next = bits::<32>(0);
        match self.win_addr.val().get_bits::<3>(0).index() {
            3 => self.ctl_word.d.next = self.sum.q.val(),
            6 => {
                self.ctl_word.d.next = bit_cast::<32, 16>(self.avail.val())
                    | (bit_cast::<32, 4>(self.fcode.q.val()) << 16)
                    | (bit_cast::<32, 1>((self.st.q.val() == DispatchState::Idle).into()) << 24)
            }
            7 => self.ctl_word.d.next = bit_cast::<32, 16>(self.counted.val()),
            _ => {}
        }
        self.win_rdata.next = self.rec.rd.val();
        if self.ctl_rd.q.val() {
            self.win_rdata.next = self.ctl_word.q.val();
        }
    }
}

/// The register offsets this block decodes are `crate::host_port::ctl`'s (checked here so
/// that a change there fails the build instead of the board).
const _: () = {
    assert!(ctl::RENDER_ROW_X == 4 && ctl::RENDER_Y_QUADS == 5);
    assert!(ctl::RENDER_GO == 6 && ctl::RENDER_NEXT == 7 && ctl::RENDER_CYCLES == 3);
    assert!(RECORD_WORDS as usize == 32 && SLOTS == 32);
};

//! `CoreMux`: the on-chip loader's host port ([`crate::host_port`]) spread over the shader cores
//! of a board with several ([`crate::multi_board_top::MultiBoardTop`]), and handed to the RENDER
//! dispatcher ([`crate::quad_dispatcher::QuadDispatcher`]) while it renders.
//!
//! The loader sees one core's port, as on a board with one core, plus the words of the control
//! window ([`crate::host_port::WINDOW_BASE`]), which no core decodes:
//! - **writes** (program, constants, textures, registers) go to every core: every core holds the
//!   image, and a RUN's inputs land in every core's registers (a core that does not run
//!   ignores them); `clear` goes to every core too;
//! - **`start` and `resume`** go to the selected core ([`crate::host_port::ctl::SELECT`]), or
//!   to every core when all are selected (`microcode::protocol::ALL_CORES`, the power-up
//!   state);
//! - **reads, `busy`, `done` and the status** (`fault`, `killed`, `cycles`, `lanes`) come from
//!   the selected core, core 0 when all are selected (then `busy` is any core's);
//! - **the check**: while all are selected the cores run in lock step, so every word read and
//!   every status must be core 0's: a read word that differs (outside the window), `done`
//!   from some cores but not others, or a status that differs at core 0's `done` sets a sticky
//!   flag (read with `SELECT`, cleared by `CLEAR_DIFFER`), which the loader's firmware turns
//!   into the fault `CORES_DIFFER` of a RUN or the CRC mismatch of a COMMIT.
//!
//! While the dispatcher is active it drives the cores (address, data, per-core write, clear and
//! start) and picks the core whose words and status come back; the loader then only reads and
//! writes the window.
//!
//! Timing: combinational from the loader's (or the dispatcher's) outputs to the cores; a word
//! of the window reaches `host.rdata` [`crate::host_port::READ_LATENCY`] edges after its address,
//! as a core's does.
use crate::host_port::{HostBus, CONTROL_BASE, WINDOW_BASE};
use microcode::protocol::ALL_CORES;
use rust_hdl::prelude::*;

/// The most cores one mux serves (its masks are 32 bits wide).
pub const MAX_CORES: usize = 32;

/// The mux; see the module documentation.
#[derive(LogicBlock)]
pub struct CoreMux {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// The loader's side of the host port.
    pub host: HostBus,
    /// Word address every core sees.
    pub core_addr: Signal<Out, Bits<16>>,
    /// Write data every core sees.
    pub core_wdata: Signal<Out, Bits<32>>,
    /// Per core (bit i: core i): write this clock.
    pub core_we: Signal<Out, Bits<32>>,
    /// Per core: the clear pulse.
    pub core_clear: Signal<Out, Bits<32>>,
    /// Per core: the start pulse.
    pub core_start: Signal<Out, Bits<32>>,
    /// Per core: the resume pulse.
    pub core_resume: Signal<Out, Bits<32>>,
    /// The core whose read word and status come back on the `picked_*` inputs.
    pub pick: Signal<Out, Bits<5>>,
    /// Per core: busy.
    pub core_busy: Signal<In, Bits<32>>,
    /// Per core: done.
    pub core_done: Signal<In, Bits<32>>,
    /// The picked core's read word.
    pub picked_rdata: Signal<In, Bits<32>>,
    /// The picked core's fault code.
    pub picked_fault: Signal<In, Bits<4>>,
    /// The picked core's kill mask.
    pub picked_killed: Signal<In, Bits<4>>,
    /// The picked core's cycles.
    pub picked_cycles: Signal<In, Bits<32>>,
    /// The picked core's paused lanes.
    pub picked_lanes: Signal<In, Bits<4>>,
    /// Some core's read word differs from core 0's this clock.
    pub rdata_differ: Signal<In, Bit>,
    /// Some core's fault, kill mask, cycles or lanes differ from core 0's this clock.
    pub status_differ: Signal<In, Bit>,
    /// The dispatcher drives the cores.
    pub d_active: Signal<In, Bit>,
    /// The core the dispatcher serves.
    pub d_pick: Signal<In, Bits<5>>,
    /// The dispatcher's word address.
    pub d_addr: Signal<In, Bits<16>>,
    /// The dispatcher's write data.
    pub d_wdata: Signal<In, Bits<32>>,
    /// The dispatcher's per-core writes.
    pub d_we: Signal<In, Bits<32>>,
    /// The dispatcher's per-core clears.
    pub d_clear: Signal<In, Bits<32>>,
    /// The dispatcher's per-core starts.
    pub d_start: Signal<In, Bits<32>>,
    /// A loader write to one of the dispatcher's registers (offset `reg_addr`).
    pub reg_we: Signal<Out, Bit>,
    /// Offset of that register from [`CONTROL_BASE`].
    pub reg_addr: Signal<Out, Bits<3>>,
    /// The word written.
    pub reg_wdata: Signal<Out, Bits<32>>,
    /// The loader's address within the window (offset from [`WINDOW_BASE`]).
    pub win_addr: Signal<Out, Bits<11>>,
    /// The dispatcher's word at `win_addr`, one clock later.
    pub win_rdata: Signal<In, Bits<32>>,
    // Every core's bit, and the count (read back by SELECT).
    all: Constant<Bits<32>>,
    cores: Constant<Bits<8>>,
    all_cores: Constant<Bits<8>>,
    window: Constant<Bits<16>>,
    control: Constant<Bits<16>>,
    // The selection XOR ALL_CORES: zero after configuration is every core.
    selx: DFF<Bits<8>>,
    sel: Signal<Local, Bits<8>>,
    differ: DFF<Bit>,
    // Whether the word read 1 and 2 clocks ago was in the window, and the mux's own word.
    win1: DFF<Bit>,
    win2: DFF<Bit>,
    own1: DFF<Bit>,
    own_word: DFF<Bits<32>>,
    win_word: DFF<Bits<32>>,
    in_win: Signal<Local, Bit>,
    is_ctl: Signal<Local, Bit>,
    all_sel: Signal<Local, Bit>,
    sel_mask: Signal<Local, Bits<32>>,
    done_some: Signal<Local, Bit>,
    done_all: Signal<Local, Bit>,
}

impl CoreMux {
    /// A mux for `cores` cores (1 to [`MAX_CORES`]).
    pub fn new(cores: usize) -> CoreMux {
        let cores = cores.clamp(1, MAX_CORES);
        let all = if cores == MAX_CORES {
            u32::MAX
        } else {
            (1u32 << cores) - 1
        };
        CoreMux {
            clock: Default::default(),
            host: Default::default(),
            core_addr: Default::default(),
            core_wdata: Default::default(),
            core_we: Default::default(),
            core_clear: Default::default(),
            core_start: Default::default(),
            core_resume: Default::default(),
            pick: Default::default(),
            core_busy: Default::default(),
            core_done: Default::default(),
            picked_rdata: Default::default(),
            picked_fault: Default::default(),
            picked_killed: Default::default(),
            picked_cycles: Default::default(),
            picked_lanes: Default::default(),
            rdata_differ: Default::default(),
            status_differ: Default::default(),
            d_active: Default::default(),
            d_pick: Default::default(),
            d_addr: Default::default(),
            d_wdata: Default::default(),
            d_we: Default::default(),
            d_clear: Default::default(),
            d_start: Default::default(),
            reg_we: Default::default(),
            reg_addr: Default::default(),
            reg_wdata: Default::default(),
            win_addr: Default::default(),
            win_rdata: Default::default(),
            all: Constant::new(u64::from(all).to_bits()),
            cores: Constant::new((cores as u64).to_bits()),
            all_cores: Constant::new(u64::from(ALL_CORES).to_bits()),
            window: Constant::new(u64::from(WINDOW_BASE).to_bits()),
            control: Constant::new(u64::from(CONTROL_BASE).to_bits()),
            selx: Default::default(),
            sel: Default::default(),
            differ: Default::default(),
            win1: Default::default(),
            win2: Default::default(),
            own1: Default::default(),
            own_word: Default::default(),
            win_word: Default::default(),
            in_win: Default::default(),
            is_ctl: Default::default(),
            all_sel: Default::default(),
            sel_mask: Default::default(),
            done_some: Default::default(),
            done_all: Default::default(),
        }
    }
}

impl Logic for CoreMux {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, selx, differ, win1, win2, own1, own_word, win_word);
        self.sel.next = self.selx.q.val() ^ self.all_cores.val();
        // The window: words from WINDOW_BASE on (the cores' own map ends below it); the
        // control registers from CONTROL_BASE on.
        self.in_win.next = self.host.addr.val() >= self.window.val();
        self.is_ctl.next = self.host.addr.val() >= self.control.val();
        self.all_sel.next = self.sel.val() == self.all_cores.val();
        self.sel_mask.next = bits::<32>(1) << bit_cast::<32, 5>(self.sel.val().get_bits::<5>(0));
        if self.all_sel.val() {
            self.sel_mask.next = self.all.val();
        }

        // ---- The cores: the loader's port, or the dispatcher's while it renders.
        self.core_addr.next = self.host.addr.val();
        self.core_wdata.next = self.host.wdata.val();
        self.core_we.next = bits::<32>(0);
        if self.host.we.val() & !self.in_win.val() {
            self.core_we.next = self.all.val();
        }
        self.core_clear.next = bits::<32>(0);
        if self.host.clear.val() {
            self.core_clear.next = self.all.val();
        }
        self.core_start.next = bits::<32>(0);
        if self.host.start.val() {
            self.core_start.next = self.sel_mask.val();
        }
        self.core_resume.next = bits::<32>(0);
        if self.host.resume.val() {
            self.core_resume.next = self.sel_mask.val();
        }
        self.pick.next = self.sel.val().get_bits::<5>(0);
        if self.all_sel.val() {
            self.pick.next = bits::<5>(0);
        }
        if self.d_active.val() {
            self.core_addr.next = self.d_addr.val();
            self.core_wdata.next = self.d_wdata.val();
            self.core_we.next = self.d_we.val();
            self.core_clear.next = self.d_clear.val();
            self.core_start.next = self.d_start.val();
            self.core_resume.next = bits::<32>(0);
            self.pick.next = self.d_pick.val();
        }

        // ---- Back to the loader: the picked core, `busy` of any core when all are selected.
        self.host.busy.next = self.core_busy.val().get_bit(self.pick.val().index());
        if self.all_sel.val() {
            self.host.busy.next = (self.core_busy.val() & self.all.val()).any();
        }
        self.host.done.next = self.core_done.val().get_bit(self.pick.val().index());
        self.host.fault.next = self.picked_fault.val();
        self.host.killed.next = self.picked_killed.val();
        self.host.cycles.next = self.picked_cycles.val();
        self.host.lanes.next = self.picked_lanes.val();

        // ---- The window: the mux's own register (SELECT), the dispatcher's (the others, and
        // the head record), both READ_LATENCY edges after the address as a core's words.
        self.win_addr.next = self.host.addr.val().get_bits::<11>(0);
        self.win1.d.next = self.in_win.val();
        self.win2.d.next = self.win1.q.val();
        self.own1.d.next = self.is_ctl.val() & (self.host.addr.val().get_bits::<3>(0) == 0);
        self.own_word.d.next = bit_cast::<32, 8>(self.sel.val())
            | (bit_cast::<32, 1>(self.differ.q.val().into()) << 8)
            | (bit_cast::<32, 8>(self.cores.val()) << 16);
        self.win_word.d.next = self.win_rdata.val();
        if self.own1.q.val() {
            self.win_word.d.next = self.own_word.q.val();
        }
        self.host.rdata.next = self.picked_rdata.val();
        if self.win2.q.val() {
            self.host.rdata.next = self.win_word.q.val();
        }
        self.reg_we.next = false;
        self.reg_addr.next = self.host.addr.val().get_bits::<3>(0);
        self.reg_wdata.next = self.host.wdata.val();
        if self.host.we.val() & self.is_ctl.val() {
            match self.host.addr.val().get_bits::<3>(0).index() {
                0 => {
                    self.selx.d.next = self.host.wdata.val().get_bits::<8>(0) ^ self.all_cores.val()
                }
                1 => self.differ.d.next = false,
                _ => self.reg_we.next = true,
            }
        }

        // ---- The check while every core is selected (and no render spreads them out).
        self.done_some.next = (self.core_done.val() & self.all.val()).any();
        self.done_all.next = (self.core_done.val() & self.all.val()) == self.all.val();
        if self.all_sel.val() & !self.d_active.val() {
            if self.rdata_differ.val() & !self.win2.q.val() {
                self.differ.d.next = true;
            }
            if self.done_some.val() & !self.done_all.val() {
                self.differ.d.next = true;
            }
            if self.core_done.val().get_bit(0) & self.status_differ.val() {
                self.differ.d.next = true;
            }
        }
    }
}

//! `MultiBoardTop`: the top level of a board with several shader cores behind one loader (the
//! ULX3S's ECP5 builds, `--cores N`): the UART, the on-chip loader ([`Loader`], with the
//! firmware for this board), the [`CoreMux`] that spreads the loader's host port over the cores,
//! the RENDER [`QuadDispatcher`], and N [`ShaderCore`]s, each the same core as the one-core
//! board's. Reset synchronisation and the LEDs are
//! [`crate::board_status::BoardStatus`], as on the one-core board.
//!
//! Ports: `clock`, `reset_n`, `rx`, `tx`, `leds`, as [`crate::board_top::BoardTop`].
//!
//! What the protocol sees (`firmware-loader/PROTOCOL.md`): INFO names the board, the core count
//! and the core configuration; uploads and PARAMS go to every core; CORE selects the core RUN,
//! RESUME and READ address (all of them by default: a RUN then runs each quad on every core at
//! once and faults `CORES_DIFFER` unless they agree, a COMMIT checks every core's image);
//! RENDER hands the quads to idle cores and streams the records back in image order.
//!
//! Timing: as its blocks; the cores run independently, the mux is combinational between the
//! loader (or the dispatcher) and the cores.
use crate::baud::BaudDivisor;
use crate::board_status::BoardStatus;
use crate::core_mux::CoreMux;
use crate::loader::Loader;
use crate::quad_dispatcher::QuadDispatcher;
use crate::shader_core::ShaderCore;
use crate::uart_rx::UartRx;
use crate::uart_tx::UartTx;
use microcode::board::Family;
use microcode::core::CoreConfig;
use rust_hdl::prelude::*;

/// The top level of a board with several cores; see the module documentation.
#[derive(LogicBlock)]
pub struct MultiBoardTop {
    /// The board clock (the PLL's output on the chip).
    pub clock: Signal<In, Clock>,
    /// Reset button, active low.
    pub reset_n: Signal<In, Bit>,
    /// Serial data from the host.
    pub rx: Signal<In, Bit>,
    /// Serial data to the host.
    pub tx: Signal<Out, Bit>,
    /// The eight LEDs (as the one-core board's).
    pub leds: Signal<Out, Bits<8>>,
    uart_rx: UartRx,
    uart_tx: UartTx,
    loader: Loader,
    mux: CoreMux,
    dispatch: QuadDispatcher,
    cores: Vec<ShaderCore>,
    status: BoardStatus,
    busy_bits: Signal<Local, Bits<32>>,
    done_bits: Signal<Local, Bits<32>>,
    rdata_differ: Signal<Local, Bit>,
    status_differ: Signal<Local, Bit>,
}

impl MultiBoardTop {
    /// A top level with `cores` cores built for `core` on an FPGA of `family`, the loader
    /// `loader` (`crate::loader::for_device`, with the firmware for this board) and a serial
    /// link of `divisor` clocks per bit.
    pub fn new(
        core: &CoreConfig,
        family: Family,
        cores: usize,
        loader: Loader,
        divisor: BaudDivisor,
    ) -> MultiBoardTop {
        let cores = cores.clamp(1, crate::core_mux::MAX_CORES);
        MultiBoardTop {
            clock: Default::default(),
            reset_n: Default::default(),
            rx: Default::default(),
            tx: Default::default(),
            leds: Default::default(),
            uart_rx: UartRx::new(divisor),
            uart_tx: UartTx::new(divisor),
            loader,
            mux: CoreMux::new(cores),
            dispatch: QuadDispatcher::new(cores),
            cores: (0..cores)
                .map(|_| ShaderCore::for_family(core, family))
                .collect(),
            status: BoardStatus::default(),
            busy_bits: Default::default(),
            done_bits: Default::default(),
            rdata_differ: Default::default(),
            status_differ: Default::default(),
        }
    }
}

impl Logic for MultiBoardTop {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, status, uart_rx, uart_tx, loader, mux, dispatch);
        // Reset synchroniser and LEDs.
        self.status.reset_n.next = self.reset_n.val();
        self.loader.reset.next = self.status.reset.val();
        self.status.rx_valid.next = self.uart_rx.valid.val();
        self.status.dropped.next = self.loader.dropped.val();
        self.status.load_state.next = self.loader.load_state.val();
        self.status.running.next = self.loader.running.val() | self.dispatch.active.val();
        self.status.faulted.next = self.loader.faulted.val();
        self.status.idle.next = self.loader.idle.val();
        self.leds.next = self.status.leds.val();

        // UART <-> loader.
        self.uart_rx.rx.next = self.rx.val();
        self.loader.rx_data.next = self.uart_rx.data.val();
        self.loader.rx_valid.next = self.uart_rx.valid.val();
        self.uart_tx.data.next = self.loader.tx_data.val();
        self.uart_tx.valid.next = self.loader.tx_valid.val();
        self.loader.tx_ready.next = self.uart_tx.ready.val();
        self.tx.next = self.uart_tx.tx.val();

        // Loader -> mux (the loader's port is the mux's host side).
        self.mux.host.addr.next = self.loader.host.addr.val();
        self.mux.host.wdata.next = self.loader.host.wdata.val();
        self.mux.host.we.next = self.loader.host.we.val();
        self.mux.host.clear.next = self.loader.host.clear.val();
        self.mux.host.start.next = self.loader.host.start.val();
        self.mux.host.resume.next = self.loader.host.resume.val();
        self.mux.host.budget.next = self.loader.host.budget.val();
        self.loader.host.rdata.next = self.mux.host.rdata.val();
        self.loader.host.busy.next = self.mux.host.busy.val();
        self.loader.host.done.next = self.mux.host.done.val();
        self.loader.host.fault.next = self.mux.host.fault.val();
        self.loader.host.killed.next = self.mux.host.killed.val();
        self.loader.host.cycles.next = self.mux.host.cycles.val();
        self.loader.host.lanes.next = self.mux.host.lanes.val();

        // Mux <-> dispatcher.
        self.mux.d_active.next = self.dispatch.active.val();
        self.mux.d_pick.next = self.dispatch.pick.val();
        self.mux.d_addr.next = self.dispatch.addr.val();
        self.mux.d_wdata.next = self.dispatch.wdata.val();
        self.mux.d_we.next = self.dispatch.we.val();
        self.mux.d_clear.next = self.dispatch.clear.val();
        self.mux.d_start.next = self.dispatch.start.val();
        self.dispatch.reg_we.next = self.mux.reg_we.val();
        self.dispatch.reg_addr.next = self.mux.reg_addr.val();
        self.dispatch.reg_wdata.next = self.mux.reg_wdata.val();
        self.dispatch.win_addr.next = self.mux.win_addr.val();
        self.mux.win_rdata.next = self.dispatch.win_rdata.val();

        // The cores: what the mux drives, and what comes back from the picked one.
        self.busy_bits.next = bits::<32>(0);
        self.done_bits.next = bits::<32>(0);
        self.rdata_differ.next = false;
        self.status_differ.next = false;
        self.mux.picked_rdata.next = bits::<32>(0);
        self.mux.picked_fault.next = bits::<4>(0);
        self.mux.picked_killed.next = bits::<4>(0);
        self.mux.picked_cycles.next = bits::<32>(0);
        self.mux.picked_lanes.next = bits::<4>(0);
        for i in 0..self.cores.len() {
            self.cores[i].clock.next = self.clock.val();
            self.cores[i].host.addr.next = self.mux.core_addr.val();
            self.cores[i].host.wdata.next = self.mux.core_wdata.val();
            self.cores[i].host.we.next = self.mux.core_we.val().get_bit(i);
            self.cores[i].host.clear.next = self.mux.core_clear.val().get_bit(i);
            self.cores[i].host.start.next = self.mux.core_start.val().get_bit(i);
            self.cores[i].host.resume.next = self.mux.core_resume.val().get_bit(i);
            self.cores[i].host.budget.next = self.loader.host.budget.val();
            self.busy_bits.next = self
                .busy_bits
                .val()
                .replace_bit(i, self.cores[i].host.busy.val());
            self.done_bits.next = self
                .done_bits
                .val()
                .replace_bit(i, self.cores[i].host.done.val());
            if self.cores[i].host.rdata.val() != self.cores[0].host.rdata.val() {
                self.rdata_differ.next = true;
            }
            if (self.cores[i].host.fault.val() != self.cores[0].host.fault.val())
                | (self.cores[i].host.killed.val() != self.cores[0].host.killed.val())
                | (self.cores[i].host.cycles.val() != self.cores[0].host.cycles.val())
                | (self.cores[i].host.lanes.val() != self.cores[0].host.lanes.val())
            {
                self.status_differ.next = true;
            }
            if self.mux.pick.val().index() == i {
                self.mux.picked_rdata.next = self.cores[i].host.rdata.val();
                self.mux.picked_fault.next = self.cores[i].host.fault.val();
                self.mux.picked_killed.next = self.cores[i].host.killed.val();
                self.mux.picked_cycles.next = self.cores[i].host.cycles.val();
                self.mux.picked_lanes.next = self.cores[i].host.lanes.val();
            }
        }
        self.mux.core_busy.next = self.busy_bits.val();
        self.mux.core_done.next = self.done_bits.val();
        self.mux.rdata_differ.next = self.rdata_differ.val();
        self.mux.status_differ.next = self.status_differ.val();
        self.dispatch.core_busy.next = self.busy_bits.val();
        self.dispatch.core_done.next = self.done_bits.val();
        self.dispatch.picked_rdata.next = self.mux.picked_rdata.val();
        self.dispatch.picked_fault.next = self.mux.picked_fault.val();
        self.dispatch.picked_killed.next = self.mux.picked_killed.val();
        self.dispatch.picked_cycles.next = self.mux.picked_cycles.val();
    }
}

/// The multi-core board's top level (`cores` cores for `core` on `family`, the loader for
/// `board` with this board's firmware, the UART at `baud` from a `clock_hz` clock), connected
/// and checked, with the device it implements.
pub fn build(
    board: microcode::board::Board,
    core: &CoreConfig,
    cores: u16,
    clock_hz: u32,
    baud: u32,
) -> Result<(MultiBoardTop, crate::loader::DeviceConfig), crate::board_top::BoardError> {
    use crate::board_top::BoardError;
    let divisor =
        BaudDivisor::for_rate(u64::from(clock_hz), u64::from(baud)).map_err(|source| {
            BoardError::Baud {
                baud,
                clock_hz,
                source,
            }
        })?;
    let cfg = crate::loader::device_config(board, cores, core, clock_hz, baud);
    let loader =
        crate::loader::for_device(&cfg, true).map_err(|e| BoardError::Check(e.to_string()))?;
    let mut top = MultiBoardTop::new(core, board.family(), usize::from(cores), loader, divisor);
    top.connect_all();
    rust_hdl::core::check_error::check_all(&top)
        .map_err(|e| BoardError::Check(format!("{e:?}")))?;
    Ok((top, cfg))
}

/// The Verilog of [`build`] (module `top`), with the identical cores emitted once
/// ([`crate::verilog::share_identical_instances`]).
pub fn verilog(
    board: microcode::board::Board,
    core: &CoreConfig,
    cores: u16,
    clock_hz: u32,
    baud: u32,
) -> Result<String, crate::board_top::BoardError> {
    let (top, _) = build(board, core, cores, clock_hz, baud)?;
    Ok(crate::verilog::share_identical_instances(
        &generate_verilog(&top),
        "cores",
    ))
}

//! The Alchitry Cu top level: the shader core, the on-chip serial loader and the UART, with reset
//! synchronisation and status LEDs. The host tools (`tgsi-core load`, `run --engine board`,
//! `selftest`) talk to it over the board's USB serial port with the protocol of
//! `firmware-loader/PROTOCOL.md`.
//!
//! Ports: `clock` (50 MHz from the PLL in [`crate::board_chip::BoardChip`]; the simulations drive
//! it directly), `reset_n` (active-low button, P8; synchronised by two
//! flip-flops; resets the loader: no image, counters cleared), `rx` (P14), `tx` (M9), `leds`
//! (J11 ... N14). The chip's ports carry their pads (`board_chip.rs`), which write
//! `constraints/alchitry_cu.pcf`.
//!
//! LEDs ([`crate::board_status::BoardStatus`], which also synchronises the button): 0 heartbeat
//! (about 0.75 Hz at 50 MHz), 1 a valid image is loaded, 2 a quad is running, 3 the last RUN
//! faulted, 4 an upload is in progress (or failed), 5 the loader is answering or working, 6
//! toggles per received byte, 7 toggles per dropped frame.
//!
//! Timing: the UART runs at the divisor given at construction (clocks per bit); everything else is
//! described by [`Loader`] and [`ShaderCore`].
use crate::baud::BaudDivisor;
use crate::board_status::BoardStatus;
use crate::host_port::HostBusDriver;
use crate::loader::Loader;
use crate::shader_core::ShaderCore;
use crate::uart_rx::UartRx;
use crate::uart_tx::UartTx;
use microcode::core::CoreConfig;
use microcode::protocol::DeviceConfig;
use rust_hdl::prelude::*;

/// The board's top level (see the module documentation).
#[derive(LogicBlock)]
pub struct BoardTop {
    /// The board clock (the PLL's output on the chip).
    pub clock: Signal<In, Clock>,
    /// Reset button, active low.
    pub reset_n: Signal<In, Bit>,
    /// Serial data from the host (FTDI TX).
    pub rx: Signal<In, Bit>,
    /// Serial data to the host (FTDI RX).
    pub tx: Signal<Out, Bit>,
    /// The eight LEDs, bit 0 = LED 0.
    pub leds: Signal<Out, Bits<8>>,
    uart_rx: UartRx,
    uart_tx: UartTx,
    loader: Loader,
    core: ShaderCore,
    status: BoardStatus,
}

impl BoardTop {
    /// A top level with a core built for `core`, the loader `loader` (see
    /// `crate::loader::for_device`) and a serial link of `divisor` clocks per bit.
    pub fn new(core: &CoreConfig, loader: Loader, divisor: BaudDivisor) -> BoardTop {
        BoardTop {
            clock: Default::default(),
            reset_n: Default::default(),
            rx: Default::default(),
            tx: Default::default(),
            leds: Default::default(),
            uart_rx: UartRx::new(divisor),
            uart_tx: UartTx::new(divisor),
            loader,
            core: ShaderCore::new(core),
            status: BoardStatus::default(),
        }
    }
}

impl Logic for BoardTop {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, status, uart_rx, uart_tx, loader, core);
        // Reset synchroniser and LEDs.
        self.status.reset_n.next = self.reset_n.val();
        self.loader.reset.next = self.status.reset.val();
        self.status.rx_valid.next = self.uart_rx.valid.val();
        self.status.dropped.next = self.loader.dropped.val();
        self.status.load_state.next = self.loader.load_state.val();
        self.status.running.next = self.loader.running.val();
        self.status.faulted.next = self.loader.faulted.val();
        self.status.idle.next = self.loader.idle.val();
        self.leds.next = self.status.leds.val();

        // UART <-> loader (the receiver synchronises `rx` itself).
        self.uart_rx.rx.next = self.rx.val();
        self.loader.rx_data.next = self.uart_rx.data.val();
        self.loader.rx_valid.next = self.uart_rx.valid.val();
        self.uart_tx.data.next = self.loader.tx_data.val();
        self.uart_tx.valid.next = self.loader.tx_valid.val();
        self.loader.tx_ready.next = self.uart_tx.ready.val();
        self.tx.next = self.uart_tx.tx.val();

        // Loader <-> core host port.
        HostBusDriver::join(&mut self.loader.host, &mut self.core.host);
    }
}

// ---- Building the board top for a core configuration, clock and line rate.

/// Why a board top level cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum BoardError {
    /// The line rate cannot be made from the clock.
    #[error("{baud} baud at {clock_hz} Hz: {source}")]
    Baud {
        /// The line rate asked for, in baud.
        baud: u32,
        /// The board clock, in Hz.
        clock_hz: u32,
        /// Why the divisor does not fit.
        source: crate::baud::BaudError,
    },
    /// rust-hdl's structural checks refused the design.
    #[error("the board top does not check: {0}")]
    Check(String),
}

/// The board's top level (core for `core`, the loader of `board`, UART at `baud` from a
/// `clock_hz` clock), connected and checked, with the device it implements.
pub fn build(
    board: microcode::board::Board,
    core: &CoreConfig,
    clock_hz: u32,
    baud: u32,
) -> Result<(BoardTop, DeviceConfig), BoardError> {
    let divisor =
        BaudDivisor::for_rate(u64::from(clock_hz), u64::from(baud)).map_err(|source| {
            BoardError::Baud {
                baud,
                clock_hz,
                source,
            }
        })?;
    let cfg = crate::loader::device_config(board, 1, core, clock_hz, baud);
    let loader =
        crate::loader::for_device(&cfg, false).map_err(|e| BoardError::Check(e.to_string()))?;
    let mut top = BoardTop::new(core, loader, divisor);
    top.connect_all();
    rust_hdl::core::check_error::check_all(&top)
        .map_err(|e| BoardError::Check(format!("{e:?}")))?;
    Ok((top, cfg))
}

/// The Verilog of [`build`] (module `top`), as Verilator and the netlist tests read it.
pub fn verilog(
    board: microcode::board::Board,
    core: &CoreConfig,
    clock_hz: u32,
    baud: u32,
) -> Result<String, BoardError> {
    let (top, _) = build(board, core, clock_hz, baud)?;
    Ok(generate_verilog(&top))
}

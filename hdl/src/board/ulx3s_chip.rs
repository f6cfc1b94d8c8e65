//! `Ulx3sChip`: what goes into the ULX3S's ECP5 (LFE5U-12F ... 85F, CABGA381). The board's
//! 25 MHz oscillator drives the ECP5 PLL ([`Ecp5Pll`]), whose output clocks the board top
//! ([`MultiBoardTop`]: UART, on-chip loader, N shader cores behind the core mux and the
//! RENDER dispatcher) at the board's clock (`microcode::board::Board::clock_hz`); the board is
//! held in reset until the PLL locks.
//!
//! Ports, named as in the board's own v2.0 constraints file (all LVCMOS33):
//!
//! | port | pad | what |
//! |---|---|---|
//! | `clk_25mhz` | G2 | the 25 MHz oscillator |
//! | `btn_pwr_n` | D6 | `btn[0]`, the power button: active low, with the pad's pull-up; resets the loader |
//! | `ftdi_txd` | M1 | serial data from the host (the FT231X bridge's TX: named from the bridge's side) |
//! | `ftdi_rxd` | L4 | serial data to the host (the bridge's RX) |
//! | `led` | B2 C2 C1 D2 D1 E2 E1 H3 | `led[0..7]`, as [`MultiBoardTop`]'s LEDs |
//!
//! [`Ulx3sChip::lpf`] writes the LPF (nextpnr-ecp5's constraints) from the pads the ports
//! carry; `constraints/ulx3s.lpf` is its output, checked by a test.
//!
//! Only synthesis uses this block: simulations run [`MultiBoardTop`] itself.
use crate::board_top::BoardError;
use crate::ecp5_pll::Ecp5Pll;
use crate::multi_board_top::MultiBoardTop;
use microcode::board::{Board, Family};
use rust_hdl::prelude::*;

/// The oscillator's pad.
pub const CLOCK_PAD: &str = "G2";
/// The power button (`btn[0]`, active low).
pub const RESET_PAD: &str = "D6";
/// Serial data from the host: the FT231X's TX (`ftdi_txd`).
pub const RX_PAD: &str = "M1";
/// Serial data to the host: the FT231X's RX (`ftdi_rxd`).
pub const TX_PAD: &str = "L4";
/// `led[0..7]`.
pub const LED_PADS: [&str; 8] = ["B2", "C2", "C1", "D2", "D1", "E2", "E1", "H3"];

/// A port at `pads` (bit i at `pads[i]`), LVCMOS33.
fn pads<D: Direction, T: Synth>(pads: &[&str]) -> Signal<D, T> {
    let mut s = Signal::default();
    for (i, p) in pads.iter().enumerate() {
        s.add_location(i, p);
        s.add_signal_type(i, SignalType::LowVoltageCMOS_3v3);
    }
    s
}

/// The FPGA's top level; see the module documentation.
#[derive(LogicBlock)]
pub struct Ulx3sChip {
    /// The 25 MHz oscillator.
    pub clk_25mhz: Signal<In, Clock>,
    /// The power button, active low (pull-up).
    pub btn_pwr_n: Signal<In, Bit>,
    /// Serial data from the host.
    pub ftdi_txd: Signal<In, Bit>,
    /// Serial data to the host.
    pub ftdi_rxd: Signal<Out, Bit>,
    /// The eight LEDs.
    pub led: Signal<Out, Bits<8>>,
    pll: Ecp5Pll,
    board: MultiBoardTop,
}

impl Ulx3sChip {
    /// The chip around `board`, built for `clock_hz` (made by the PLL from the 25 MHz
    /// oscillator, `oscillator_hz`); `None` when the PLL cannot make that clock exactly.
    pub fn new(board: MultiBoardTop, oscillator_hz: u64, clock_hz: u64) -> Option<Ulx3sChip> {
        let mut btn: Signal<In, Bit> = pads(&[RESET_PAD]);
        btn.add_constraint(PinConstraint {
            index: 0,
            constraint: Constraint::Custom("IOBUF PORT \"btn_pwr_n\" PULLMODE=UP".into()),
        });
        Some(Ulx3sChip {
            clk_25mhz: pads(&[CLOCK_PAD]),
            btn_pwr_n: btn,
            ftdi_txd: pads(&[RX_PAD]),
            ftdi_rxd: pads(&[TX_PAD]),
            led: pads(&LED_PADS),
            pll: Ecp5Pll::new(oscillator_hz, clock_hz)?,
            board,
        })
    }

    /// The pin constraints of the chip's ports (nextpnr-ecp5's LPF), from the pads they carry.
    pub fn lpf(&self) -> String {
        format!(
            "# ULX3S (ECP5, CABGA381): the pads of hdl::ulx3s_chip::Ulx3sChip's ports,\n\
             # written by Ulx3sChip::lpf from the design's own pin locations.\n{}",
            rust_hdl::fpga::toolchains::ecp5::generate_lpf(self)
        )
    }
}

impl Logic for Ulx3sChip {
    #[hdl_gen]
    fn update(&mut self) {
        self.pll.clock_in.next = self.clk_25mhz.val();
        self.board.clock.next = self.pll.clock_out.val();
        self.board.reset_n.next = self.btn_pwr_n.val() & self.pll.locked.val();
        self.board.rx.next = self.ftdi_txd.val();
        self.ftdi_rxd.next = self.board.tx.val();
        self.led.next = self.board.leds.val();
    }
}

/// The Verilog synthesis reads (module `top`: [`Ulx3sChip`], the PLL, and the board top with
/// `cores` cores of `board`'s configuration, built for its clock, below the instance `board`;
/// the identical cores emitted once) and the LPF, for a ULX3S `board` with its UART at `baud`.
pub fn files(board: Board, cores: u16, baud: u32) -> Result<(String, String), BoardError> {
    files_for(board, &board.core_config(), cores, baud)
}

/// [`files`] with cores for `core` instead of the board's own configuration (`synth`'s
/// `--no-*` options leave units out).
pub fn files_for(
    board: Board,
    core: &microcode::core::CoreConfig,
    cores: u16,
    baud: u32,
) -> Result<(String, String), BoardError> {
    if board.family() != Family::Ecp5 {
        return Err(BoardError::Check(format!(
            "{board} is no ULX3S (its FPGA is an {})",
            board.family().name()
        )));
    }
    let clock_hz = board.clock_hz();
    let (top, _) = crate::multi_board_top::build(board, core, cores, clock_hz, baud)?;
    let osc = u64::from(board.oscillator_hz());
    let mut chip = Ulx3sChip::new(top, osc, u64::from(clock_hz)).ok_or_else(|| {
        BoardError::Check(format!(
            "the ECP5 PLL cannot make {clock_hz} Hz from the 25 MHz oscillator"
        ))
    })?;
    chip.connect_all();
    rust_hdl::core::check_error::check_all(&chip)
        .map_err(|e| BoardError::Check(format!("{e:?}")))?;
    let verilog = crate::verilog::share_identical_instances(&generate_verilog(&chip), "cores");
    Ok((verilog, chip.lpf()))
}

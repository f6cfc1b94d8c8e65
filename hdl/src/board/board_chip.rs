//! `BoardChip`: what goes into the FPGA. The Alchitry Cu's 100 MHz oscillator drives the iCE40
//! PLL (rust-hdl's `ICE40PLLBlock`), whose 50 MHz output clocks the board top ([`BoardTop`]);
//! the board is held in reset until the PLL locks.
//!
//! Why a PLL: the smallest board build places at 52 to 55 MHz on the HX8K (nearly every logic
//! cell used, so routing is long), below the oscillator's 100 MHz; 50 MHz is the floor
//! and a clean division of the oscillator (VCO 800 MHz, divided by 16).
//!
//! Only synthesis uses this block: the PLL has no simulation model, so the simulations, the
//! emulator and the netlist tests run [`BoardTop`] itself, built for [`CORE_CLOCK_HZ`] where the
//! clock matters (line-rate divisor, inter-byte timeout, INFO's clock).
//!
//! Ports: as [`BoardTop`]. Each carries its pad: the oscillator and the LEDs from
//! `rust-hdl-bsp-alchitry-cu`, the reset button and the FTDI serial pair (which the board
//! support crate does not name) from [`RESET_PAD`], [`RX_PAD`] and [`TX_PAD`]; [`BoardChip::pcf`]
//! writes the constraints file from them (`constraints/alchitry_cu.pcf` is its output, checked by
//! a test).
use crate::board_top::{BoardError, BoardTop};
use microcode::core::CoreConfig;
use rust_hdl::fpga::lattice::ice40::ice_pll::ICE40PLLBlock;
use rust_hdl::prelude::*;

/// The board's oscillator.
pub const OSCILLATOR_HZ: u64 = 100_000_000;
/// The clock the PLL makes for the core, the loader and the UART.
pub const CORE_CLOCK_HZ: u64 = 50_000_000;
/// The Alchitry Cu's reset button (active low).
pub const RESET_PAD: &str = "P8";
/// Serial data from the host: the FTDI bridge's TX, which the board's schematic names from the
/// FTDI's side.
pub const RX_PAD: &str = "P14";
/// Serial data to the host (the FTDI's RX).
pub const TX_PAD: &str = "M9";

/// A one-bit port at `pad`.
fn pad<D: Direction>(pad: &str) -> Signal<D, Bit> {
    let mut s = Signal::default();
    s.add_location(0, pad);
    s
}

/// The FPGA's top level; see the module documentation.
#[derive(LogicBlock)]
pub struct BoardChip {
    /// 100 MHz oscillator (pad P7, from the board support crate).
    pub clock: Signal<In, Clock>,
    /// Reset button, active low.
    pub reset_n: Signal<In, Bit>,
    /// Serial data from the host.
    pub rx: Signal<In, Bit>,
    /// Serial data to the host.
    pub tx: Signal<Out, Bit>,
    /// The eight LEDs.
    pub leds: Signal<Out, Bits<8>>,
    pll: ICE40PLLBlock<OSCILLATOR_HZ, CORE_CLOCK_HZ>,
    board: BoardTop,
}

impl BoardChip {
    /// The chip around `board` (built for [`CORE_CLOCK_HZ`]).
    pub fn new(board: BoardTop) -> BoardChip {
        BoardChip {
            clock: rust_hdl_bsp_alchitry_cu::pins::clock(),
            reset_n: pad(RESET_PAD),
            rx: pad(RX_PAD),
            tx: pad(TX_PAD),
            leds: rust_hdl_bsp_alchitry_cu::pins::leds(),
            pll: Default::default(),
            board,
        }
    }
}

impl BoardChip {
    /// The pin constraints of the chip's ports (nextpnr's PCF), from the pads they carry.
    pub fn pcf(&self) -> String {
        format!(
            "# Alchitry Cu (iCE40 HX8K, CB132): the pads of hdl::board_chip::BoardChip's ports,\n\
             # written by BoardChip::pcf from the design's own pin locations.\n{}",
            rust_hdl::fpga::toolchains::icestorm::generate_pcf(self)
        )
    }
}

impl Logic for BoardChip {
    #[hdl_gen]
    fn update(&mut self) {
        self.pll.clock_in.next = self.clock.val();
        self.board.clock.next = self.pll.clock_out.val();
        self.board.reset_n.next = self.reset_n.val() & self.pll.locked.val();
        self.board.rx.next = self.rx.val();
        self.tx.next = self.board.tx.val();
        self.leds.next = self.board.leds.val();
    }
}

// ---- The chip's Verilog and pin constraints for a core configuration and line rate.

/// The Verilog synthesis reads (module `top`): [`BoardChip`], the PLL and the
/// board top built for the PLL's clock ([`CORE_CLOCK_HZ`]), whose blocks are
/// below the instance `board`.
pub fn verilog(core: &CoreConfig, baud: u32) -> Result<String, BoardError> {
    Ok(files(core, baud)?.0)
}

/// [`verilog`] and the chip's pin constraints ([`BoardChip::pcf`]).
pub fn files(core: &CoreConfig, baud: u32) -> Result<(String, String), BoardError> {
    let (top, _) = crate::board_top::build(
        microcode::board::Board::AlchitryCu,
        core,
        CORE_CLOCK_HZ as u32,
        baud,
    )?;
    let mut chip = BoardChip::new(top);
    chip.connect_all();
    rust_hdl::core::check_error::check_all(&chip)
        .map_err(|e| BoardError::Check(format!("{e:?}")))?;
    Ok((generate_verilog(&chip), chip.pcf()))
}

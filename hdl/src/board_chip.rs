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
//! Ports: as [`BoardTop`] (the names `constraints/alchitry_cu.pcf` uses).
use crate::board_top::BoardTop;
use rust_hdl::fpga::lattice::ice40::ice_pll::ICE40PLLBlock;
use rust_hdl::prelude::*;

/// The board's oscillator.
pub const OSCILLATOR_HZ: u64 = 100_000_000;
/// The clock the PLL makes for the core, the loader and the UART.
pub const CORE_CLOCK_HZ: u64 = 50_000_000;

/// The FPGA's top level; see the module documentation.
#[derive(LogicBlock)]
pub struct BoardChip {
    /// 100 MHz oscillator (pad P7).
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
            clock: Default::default(),
            reset_n: Default::default(),
            rx: Default::default(),
            tx: Default::default(),
            leds: Default::default(),
            pll: Default::default(),
            board,
        }
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

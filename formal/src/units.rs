//! The hardware under proof: each unit's Verilog exactly as rust-hdl emits it from the blocks in
//! `hdl` (the Verilog that synthesis and Verilator read), with `top` as its module name.
use microcode::core::config::{CoreConfig, Features};
use rust_hdl::prelude::*;

/// A block of `hdl` that proofs are about.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// `hdl::fadd::FAdd`: the adder and its conversions.
    FAdd,
    /// `hdl::fmul::FMul`: the multiplier.
    FMul,
    /// `hdl::fcmp::FCmp`: compares and the min/max/select pick.
    FCmp,
    /// `hdl::misc_unit::MiscUnit` of a build with the integer ALU (the core's short path:
    /// moves, compares, selects, `EXPN`, `MANT`, `ISGN`/`USGN`, the integer ALU).
    MiscUnit,
    /// `hdl::shader_core::ShaderCore` of the board build (`CoreConfig::default()`).
    ShaderCore,
    /// The loader's frame receiver with its CRC unit ([`FrameCheck`]).
    FrameCheck,
    /// `hdl::loader::Loader` of the HX8K board build ([`board_loader`]): the processor, its
    /// firmware ROM, the loader memory, the receiver and the CRC unit.
    Loader,
}

impl Unit {
    /// Every unit.
    pub const ALL: [Unit; 7] = [
        Unit::FAdd,
        Unit::FMul,
        Unit::FCmp,
        Unit::MiscUnit,
        Unit::ShaderCore,
        Unit::FrameCheck,
        Unit::Loader,
    ];

    /// The block's name as the reports print it.
    pub fn name(self) -> &'static str {
        match self {
            Unit::FAdd => "FAdd",
            Unit::FMul => "FMul",
            Unit::FCmp => "FCmp",
            Unit::MiscUnit => "MiscUnit",
            Unit::ShaderCore => "ShaderCore",
            Unit::FrameCheck => "FrameRx+Crc32Serial",
            Unit::Loader => "Loader",
        }
    }

    /// The Verilog rust-hdl emits for the block (top module `top`).
    pub fn verilog(self) -> String {
        match self {
            Unit::FAdd => emit(hdl::fadd::FAdd::default()),
            Unit::FMul => emit(hdl::fmul::FMul::default()),
            Unit::FCmp => emit(hdl::fcmp::FCmp::default()),
            Unit::MiscUnit => emit(hdl::misc_unit::MiscUnit::new(&misc_config())),
            Unit::ShaderCore => emit(hdl::shader_core::ShaderCore::new(&CoreConfig::default())),
            Unit::FrameCheck => emit(FrameCheck::default()),
            Unit::Loader => emit(board_loader()),
        }
    }
}

/// The misc unit's build for its proof: the board's configuration with the integer ALU and
/// without the transcendental and texture steps (whose results the proof does not select;
/// synthesis and yosys' `prep` remove them).
pub fn misc_config() -> CoreConfig {
    CoreConfig {
        features: Features::INTEGER,
        ..CoreConfig::default()
    }
}

/// The loader of the HX8K board build (`tgsi-core synth`: the board's core configuration, its
/// 50 MHz clock and the default line rate), as `hdl::board_top::build` makes it.
pub fn board_loader() -> hdl::loader::Loader {
    // The firmware for a fixed board assembles or hdl's own firmware tests fail first.
    hdl::loader::for_device(&board_device(), false)
        .expect("the Alchitry Cu firmware assembles (hdl::loader_firmware's tests)")
}

/// The device the HX8K board's loader implements (its INFO record).
pub fn board_device() -> microcode::protocol::DeviceConfig {
    let board = microcode::board::Board::AlchitryCu;
    hdl::loader::device_config(
        board,
        1,
        &board.core_config(),
        hdl::board_chip::CORE_CLOCK_HZ as u32,
        microcode::protocol::DEFAULT_BAUD,
    )
}

fn emit<B: Block>(mut block: B) -> String {
    block.connect_all();
    generate_verilog(&block)
}

/// The loader's frame receiver and its CRC unit, wired as `hdl::loader::Loader` wires them while
/// it waits for a request (the unit is the receiver's then), with the receiver's buffer writes
/// and verdict as outputs so that the proof can read them.
#[derive(LogicBlock, Default)]
pub struct FrameCheck {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Byte from the UART receiver.
    pub data: Signal<In, Bits<8>>,
    /// `data` is a received byte.
    pub valid: Signal<In, Bit>,
    /// Receive (high) or discard (low).
    pub enable: Signal<In, Bit>,
    /// The receiver's frame-buffer write enable: an unstuffed byte is written this clock.
    pub we: Signal<Out, Bit>,
    /// The write's frame-buffer address (512 bytes).
    pub wa: Signal<Out, Bits<9>>,
    /// The byte written.
    pub wd: Signal<Out, Bits<8>>,
    /// A segment ended; `body_len` its size if it passed, else 0.
    pub closed: Signal<Out, Bit>,
    /// Bytes of the segment's body (header, payload and CRC) when it passed its CRC, else 0.
    pub body_len: Signal<Out, Bits<9>>,
    /// The CRC unit is absorbing a byte.
    pub crc_busy: Signal<Out, Bit>,
    frame_rx: hdl::frame_rx::FrameRx,
    crc: hdl::crc32_serial::Crc32Serial,
}

impl Logic for FrameCheck {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, frame_rx, crc);
        self.frame_rx.data.next = self.data.val();
        self.frame_rx.valid.next = self.valid.val();
        self.frame_rx.enable.next = self.enable.val();
        self.frame_rx.crc_residue.next = self.crc.residue.val();
        self.crc.clear.next = self.frame_rx.crc_clear.val();
        self.crc.start.next = self.frame_rx.crc_start.val();
        self.crc.data.next = self.frame_rx.crc_data.val();
        self.crc.shift.next = false;
        self.we.next = self.frame_rx.we.val();
        self.wa.next = self.frame_rx.wa.val();
        self.wd.next = self.frame_rx.wd.val();
        self.closed.next = self.frame_rx.closed.val();
        self.body_len.next = self.frame_rx.body_len.val();
        self.crc_busy.next = self.crc.busy.val();
    }
}

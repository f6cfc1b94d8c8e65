//! The shader core's host port: the address map and handshake that the on-chip loader (and the
//! simulation engines in `sim`) use to load memories, start a quad and read its results.
//!
//! The port is a plain synchronous word bus on the core's clock, usable only while the core is
//! idle (`busy` low); writes while busy are ignored and reads return 0. Its signals are one
//! interface, [`HostBus`] (the core's side; [`HostBusDriver`] the loader's), named `host.NAME` in
//! Rust and `host$NAME` in the emitted Verilog.
//!
//! | port | dir | meaning |
//! |---|---|---|
//! | `addr` | in, 16 bits | word address, see the map below |
//! | `wdata` | in, 32 bits | write data |
//! | `we` | in | write `wdata` to `addr` at this rising edge |
//! | `rdata` | out, 32 bits | the word at the `addr` presented [`READ_LATENCY`] edges earlier |
//! | `clear` | in | pulse: zero the register file R ([`CLEAR_CLOCKS`] clocks, `busy` meanwhile) |
//! | `start` | in | pulse: run the program from instruction 0 on the current R and K |
//! | `resume` | in | pulse: continue a run paused at EMIT / ENDPRIM |
//! | `budget` | in, 32 bits | instruction budget of a run (held during the run) |
//! | `busy` | out | a clear or a run is in progress |
//! | `done` | out | one-clock pulse when a run ends (also after a fault) |
//! | `fault` | out, 4 bits | fault code of the last run ([`fault_code`]), 0 none; while paused, the pause code ([`fault_code::EMIT`], [`fault_code::ENDPRIM`]) |
//! | `lanes` | out, 4 bits | while paused: the lanes that executed the EMIT / ENDPRIM (bit L = lane L) |
//! | `killed` | out, 4 bits | kill mask of the last run (bit L = lane L) |
//! | `cycles` | out, 32 bits | clocks of the last run, equal to the core model's `cycles` |
//!
//! A quad is loaded as: `clear`, write the input registers, write the run-time constants, `start`,
//! wait for `done`, read the output registers. Program and constants stay loaded across runs.
//! Geometry programs pause at every EMIT and ENDPRIM: `done` pulses with the pause code on `fault`
//! and the lanes on `lanes`; the host reads the output registers of those lanes (a vertex) or
//! marks their last vertex as a primitive's end, then pulses `resume`; the run goes on with its
//! cycle count untouched, until a `done` with another code. A host that cannot stream vertices
//! (the on-chip loader) reports the pause code as the run's fault.
//!
//! Word address map (32-bit words; every image word is little-endian as in the image file):
//! - PROGRAM at [`PROGRAM_BASE`]: instruction `i`, bits `32k .. 32k+31` of its instruction word at
//!   `PROGRAM_BASE + 4i + k` (`k` in 0..4; bits above 111 are not stored and read as zero).
//! - CONSTANTS (K) at [`CONST_BASE`]: slot `s`, component `c` at `CONST_BASE + 4s + c`.
//! - REGISTERS (R) at [`REG_BASE`]: register `r`, lane `l`, component `c` at
//!   `REG_BASE + 16r + 4l + c`.
//! - TEXTURES at [`TEXTURE_BASE`]: texel `i` of texture memory at `TEXTURE_BASE + i` (RGBA8, red
//!   in bits 0..7; `CoreConfig::texture_texels` of them, at most `crate::tex_unit::TEXELS`;
//!   writes beyond are dropped, reads give zero), read and written while the core is
//!   idle (the texture unit's read port is the host's then). Where each sampler's
//!   texture lives is the host's choice, told to the program through the sampler descriptors in
//!   K (`microcode::arith::texel::descriptors`).

/// On a board with several cores ([`crate::multi_board_top`]) the loader's port reaches the
/// cores through [`crate::core_mux::CoreMux`], which keeps the words from [`WINDOW_BASE`] on
/// for itself and the RENDER dispatcher ([`crate::quad_dispatcher::QuadDispatcher`]); no core
/// decodes them:
/// - the head record of a render at [`RECORD_BASE`] (`RECORD_WORDS` words: the oldest record
///   the loader has not consumed yet: word 0 the fault code in bits 0..7 and the kill mask in
///   bits 24..31, words 1.. the output words, lane after lane);
/// - the control registers at [`CONTROL_BASE`] + [`ctl`]`::*`.
pub const WINDOW_BASE: u16 = 0x1800;
/// The render dispatcher's head record (see [`WINDOW_BASE`]).
pub const RECORD_BASE: u16 = 0x1800;
/// Words of a record (status, then up to 16 output words).
pub const RECORD_WORDS: u16 = 32;
/// The control registers of the multi-core board (see [`WINDOW_BASE`]).
pub const CONTROL_BASE: u16 = 0x1C00;

/// Word offsets from [`CONTROL_BASE`] of the multi-core board's control registers.
pub mod ctl {
    /// Write: the core RUN, RESUME and the reads address (bits 0..7: a core, or
    /// `microcode::protocol::ALL_CORES`). Read: bits 0..7 that selection, bit 8 the cores
    /// differed since the flag was last cleared, bits 16..23 the core count.
    pub const SELECT: u16 = 0;
    /// Write: clear the flag that the cores differed.
    pub const CLEAR_DIFFER: u16 = 1;
    /// Write: RENDER's row quads (bits 0..15) and first quad's column (16..31).
    pub const RENDER_ROW_X: u16 = 4;
    /// Write: RENDER's first quad's row (bits 0..15) and quads (16..31).
    pub const RENDER_Y_QUADS: u16 = 5;
    /// Write: RENDER's lane words (bits 0..7), the coordinate input's register (8..15) and the
    /// output's (16..23); starts the render. Read: the render's state: bits 0..15 records
    /// ready in image order and not yet consumed, 16..23 the fault that ends it (0 none),
    /// bit 24 finished (every record known, every core idle).
    pub const RENDER_GO: u16 = 6;
    /// Write: the head record is consumed (the next one becomes the head). Read: the quads
    /// the render counts (up to and with a faulting one).
    pub const RENDER_NEXT: u16 = 7;
    /// Read: the cycles of the quads the render counts (saturating).
    pub const RENDER_CYCLES: u16 = 3;
}

/// Base of the instruction memory (4 words per instruction).
pub const PROGRAM_BASE: u16 = 0x0000;
/// Base of the constant file K (4 words per slot).
pub const CONST_BASE: u16 = 0x0400;
/// Base of the register file R (16 words per register: 4 lanes x 4 components).
pub const REG_BASE: u16 = 0x0800;
/// Base of texture memory.
pub const TEXTURE_BASE: u16 = 0x1000;
/// Edges from presenting `addr` to the word on `rdata`.
pub const READ_LATENCY: u32 = 2;
/// Clocks a `clear` keeps the core busy.
pub const CLEAR_CLOCKS: u32 = 256;

/// Host address of word `k` of instruction `i`.
pub fn program_addr(i: usize, k: usize) -> u16 {
    PROGRAM_BASE + (4 * i + k) as u16
}

/// Host address of component `c` of constant slot `s`.
pub fn const_addr(s: usize, c: usize) -> u16 {
    CONST_BASE + (4 * s + c) as u16
}

/// Host address of texel `i` of texture memory.
pub fn texel_addr(i: usize) -> u16 {
    TEXTURE_BASE + i as u16
}

/// Host address of component `c` of lane `l` of register `r`.
pub fn reg_addr(r: usize, l: usize, c: usize) -> u16 {
    REG_BASE + (16 * r + 4 * l + c) as u16
}

/// Fault codes on the `fault` port: the core's codes, kept in `microcode` so that the serial
/// protocol's device model and host (`firmware_loader`, which does not depend on this crate) name
/// the same numbers.
pub use microcode::core::fault_code;

use rust_hdl::prelude::*;

pub use bus::{HostBus, HostBusDriver};

// The interfaces sit in a module of their own because the derive's `join` methods carry no
// documentation (the structs' and fields' do).
#[allow(missing_docs)]
mod bus {
    use super::*;

    /// The host port's signals as the core sees them (the table above, without the `host_` prefix:
    /// `addr`, `wdata`, `we`, `rdata`, then the run's handshake). One interface for the core, the
    /// loader ([`HostBusDriver`], the same signals in the other direction) and the board top, which
    /// joins the two; in the emitted Verilog a signal is `host$NAME` (Verilator: `host__024NAME`).
    #[derive(LogicInterface, Default)]
    #[join = "HostBusDriver"]
    pub struct HostBus {
        /// Word address.
        pub addr: Signal<In, Bits<16>>,
        /// Write data.
        pub wdata: Signal<In, Bits<32>>,
        /// Write `wdata` to `addr` at this rising edge.
        pub we: Signal<In, Bit>,
        /// The word at the `addr` presented [`READ_LATENCY`] edges earlier.
        pub rdata: Signal<Out, Bits<32>>,
        /// Pulse: zero the register file.
        pub clear: Signal<In, Bit>,
        /// Pulse: run the program.
        pub start: Signal<In, Bit>,
        /// Pulse: continue a run paused at EMIT / ENDPRIM.
        pub resume: Signal<In, Bit>,
        /// Instruction budget of a run.
        pub budget: Signal<In, Bits<32>>,
        /// A clear or a run is in progress.
        pub busy: Signal<Out, Bit>,
        /// One-clock pulse when a run ends or pauses.
        pub done: Signal<Out, Bit>,
        /// Fault or pause code of the last run ([`fault_code`]).
        pub fault: Signal<Out, Bits<4>>,
        /// Kill mask of the last run.
        pub killed: Signal<Out, Bits<4>>,
        /// Clocks of the last run.
        pub cycles: Signal<Out, Bits<32>>,
        /// While paused: the lanes that executed the EMIT / ENDPRIM.
        pub lanes: Signal<Out, Bits<4>>,
    }

    /// The host port from the side that drives it (the on-chip loader): [`HostBus`] with every
    /// direction reversed.
    #[derive(LogicInterface, Default)]
    #[join = "HostBus"]
    pub struct HostBusDriver {
        /// Word address.
        pub addr: Signal<Out, Bits<16>>,
        /// Write data.
        pub wdata: Signal<Out, Bits<32>>,
        /// Write `wdata` to `addr` at this rising edge.
        pub we: Signal<Out, Bit>,
        /// The word at the `addr` presented [`READ_LATENCY`] edges earlier.
        pub rdata: Signal<In, Bits<32>>,
        /// Pulse: zero the register file.
        pub clear: Signal<Out, Bit>,
        /// Pulse: run the program.
        pub start: Signal<Out, Bit>,
        /// Pulse: continue a run paused at EMIT / ENDPRIM.
        pub resume: Signal<Out, Bit>,
        /// Instruction budget of a run.
        pub budget: Signal<Out, Bits<32>>,
        /// A clear or a run is in progress.
        pub busy: Signal<In, Bit>,
        /// One-clock pulse when a run ends or pauses.
        pub done: Signal<In, Bit>,
        /// Fault or pause code of the last run ([`fault_code`]).
        pub fault: Signal<In, Bits<4>>,
        /// Kill mask of the last run.
        pub killed: Signal<In, Bits<4>>,
        /// Clocks of the last run.
        pub cycles: Signal<In, Bits<32>>,
        /// While paused: the lanes that executed the EMIT / ENDPRIM.
        pub lanes: Signal<In, Bits<4>>,
    }
}

//! `Loader`: the on-chip serial loader, the device side of `firmware-loader/PROTOCOL.md` in
//! hardware: a small processor ([`crate::loader_isa`]) running the protocol as firmware
//! ([`crate::loader_firmware`]), with the frame receiver ([`FrameRx`]) and transmitter
//! ([`FrameTx`]), one CRC-32 unit and the loader memory around it. It executes INFO, STATUS,
//! BEGIN, WRITE, COMMIT, RUN, READ, RESET and SET_BAUD exactly as the protocol's executable
//! model (`firmware_loader::device::Device`) does, and drives the shader core through its host
//! port ([`crate::host_port`]).
//!
//! Why a processor: the protocol's checks, region tables and register maps as a hard-wired
//! state machine took about 1,500 LUT4s of multiplexers and comparators (ARCHITECTURE.md, "Area");
//! as firmware they are block-RAM bits, and the processor that runs them is one 32-bit
//! accumulator with an adder, a few shifts and the input/output operations the loader needs.
//!
//! Memories: PROGRAM, CONSTANTS and TEXTURES are the core's own memories (instruction memory, K,
//! texture memory; written byte by byte with read-modify-write through the host port, read back
//! the same way). The loader memory is one 1.5 KiB block RAM ([`Bram`], 3 x `SB_RAM40_4K`)
//! holding the frame buffer and the INPUTS, OUTPUTS, RESULTS, PARAMS and MAPS regions
//! ([`layout`]). The
//! firmware memory (768 x 16, 3 x `SB_RAM40_4K`) holds the code with its tables and, from the
//! top down, the firmware's 32-bit variables. One CRC-32 unit serves the frame receiver (while the firmware waits for a
//! request), the transmitter (from the first answer byte until the frame is out) and COMMIT.
//!
//! Deviations from the model, both documented in `PROTOCOL.md`: the line rate is fixed per build
//! (SET_BAUD acknowledges only the current rate and refuses the others with BAD_BAUD); bytes that
//! arrive while a request is executed or answered are discarded (the host waits for each answer).
//!
//! Timing: an instruction takes a fetch clock and one or more execution clocks
//! ([`crate::loader_isa::OPS`]); a WRITE takes about 11 clocks per byte after its frame, a
//! COMMIT about 10 per image byte, a RUN about 65 per register word moved plus the core's
//! cycles, all far below the line's byte time (870 clocks at 115,200 baud and 100 MHz).
use crate::bram::Bram;
use crate::crc32::Crc32;
use crate::frame_rx::FrameRx;
use crate::frame_tx::FrameTx;
use crate::loader_isa::{decode_rom, io_rom, CpuOp, IoOp, MEMORY_WORDS};
use rust_hdl::prelude::*;
use std::collections::BTreeMap;

pub mod layout {
    /// PROGRAM: 256 instructions of 16 bytes (the core's instruction memory).
    pub const PROGRAM: u32 = 4096;
    /// CONSTANTS: 64 slots of 16 bytes (the core's K memory).
    pub const CONSTANTS: u32 = 1024;
    /// TEXTURES: the texture unit's memory, at most 512 RGBA8 texels of 4 bytes (a build's
    /// region is its `texture_texels` times 4, 0 without the unit).
    pub const TEXTURES: u32 = 2048;
    /// INPUTS region size (six input registers of a quad: 6 x 4 lanes x 16 bytes); base in the
    /// loader memory [`INPUTS_BASE`].
    pub const INPUTS: u32 = 384;
    /// OUTPUTS region size (six output registers of a quad).
    pub const OUTPUTS: u32 = 384;
    /// PARAMS: 16 K slots of run-time constants.
    pub const PARAMS: u32 = 256;
    /// MAPS region size: the 8-byte header and 42 entries.
    pub const MAPS: u32 = 176;
    /// Most quads per RUN (RESULTS holds one 8-byte record each).
    pub const MAX_QUADS: u16 = 8;
    /// Largest payload.
    pub const MAX_PAYLOAD: u16 = 256;
    /// Loader-memory base of RESULTS (the frame buffer is at 0).
    pub const RESULTS_BASE: u32 = 0x110;
    /// Loader-memory base of MAPS.
    pub const MAPS_BASE: u32 = 0x150;
    /// Loader-memory base of PARAMS.
    pub const PARAMS_BASE: u32 = 0x200;
    /// Loader-memory base of INPUTS.
    pub const INPUTS_BASE: u32 = 0x300;
    /// Loader-memory base of OUTPUTS (ends at the memory's end, [`MEMORY`]).
    pub const OUTPUTS_BASE: u32 = 0x480;
    /// Bytes of loader memory: three 512 x 8 block RAMs.
    pub const MEMORY: u32 = 0x600;
}

/// Instruction budget of every quad a RUN executes (the default of the software engines,
/// `sim::run_io::DEFAULT_BUDGET`).
pub const RUN_BUDGET: u64 = 1_000_000;

/// Length of the INFO record.
pub const INFO_BYTES: usize = 58;

/// Where the accumulator's next value comes from (one multiplexer, chosen by the operation).
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum ASrc {
    K,
    Ldh,
    Fw,
    Byte,
    Gather,
    Alu,
    Logic,
    Shift,
    Mov,
    Io,
}

/// The loader; see the module documentation.
#[derive(LogicBlock)]
pub struct Loader {
    /// The clock everything is synchronous to.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset (the board's button): the firmware restarts (no image, counters
    /// cleared). An answer being sent is finished first, so the line never carries half a frame.
    pub reset: Signal<In, Bit>,
    /// Byte from the UART receiver.
    pub rx_data: Signal<In, Bits<8>>,
    /// `rx_data` is a received byte.
    pub rx_valid: Signal<In, Bit>,
    /// Wire byte to the UART transmitter.
    pub tx_data: Signal<Out, Bits<8>>,
    /// `tx_data` is offered.
    pub tx_valid: Signal<Out, Bit>,
    /// The transmitter takes `tx_data` at this edge.
    pub tx_ready: Signal<In, Bit>,
    /// Host port of the core: word address.
    pub host_addr: Signal<Out, Bits<16>>,
    /// Host port: write data.
    pub host_wdata: Signal<Out, Bits<32>>,
    /// Host port: write enable.
    pub host_we: Signal<Out, Bit>,
    /// Host port: read data (two edges after the address).
    pub host_rdata: Signal<In, Bits<32>>,
    /// Core `clear` pulse.
    pub clear: Signal<Out, Bit>,
    /// Core `start` pulse.
    pub start: Signal<Out, Bit>,
    /// Core instruction budget.
    pub budget: Signal<Out, Bits<32>>,
    /// Core `busy`.
    pub busy: Signal<In, Bit>,
    /// Core `done` pulse.
    pub done: Signal<In, Bit>,
    /// Core fault code.
    pub fault: Signal<In, Bits<4>>,
    /// Core kill mask.
    pub killed: Signal<In, Bits<4>>,
    /// Core cycle count.
    pub cycles: Signal<In, Bits<32>>,
    /// Load state for the LEDs (0 no image, 1 uploading, 2 valid, 3 failed).
    pub load_state: Signal<Out, Bits<2>>,
    /// A quad is running.
    pub running: Signal<Out, Bit>,
    /// The last RUN faulted.
    pub faulted: Signal<Out, Bit>,
    /// Waiting for a request (nothing being executed or answered).
    pub idle: Signal<Out, Bit>,
    /// Pulse: a received segment was dropped (bad frame or inter-byte timeout).
    pub dropped: Signal<Out, Bit>,
    frame_rx: FrameRx,
    frame_tx: FrameTx,
    mem: Bram<8, 11>,
    fw: Bram<16, 10>,
    crc: Crc32,
    info: ROM<Bits<8>, 6>,
    dec: ROM<CpuOp, 5>,
    iodec: ROM<IoOp, 5>,
    run_budget: Constant<Bits<32>>,
    // The processor (registers as in `loader_isa`).
    pc: DFF<Bits<10>>,
    lr: DFF<Bits<10>>,
    ir: DFF<Bits<16>>,
    st: DFF<Bits<3>>,
    go: DFF<Bit>,
    fetch: DFF<Bit>,
    a: DFF<Bits<32>>,
    t: DFF<Bits<32>>,
    p: DFF<Bits<11>>,
    h: DFF<Bits<15>>,
    n: DFF<Bits<13>>,
    c: DFF<Bit>,
    e: DFF<Bit>,
    // An answer has begun and its frame is not yet out (reset waits for it).
    ans: DFF<Bit>,
    led_ld: DFF<Bits<2>>,
    led_fault: DFF<Bit>,
    bad_frames: DFF<Bits<16>>,
    clear_r: DFF<Bit>,
    start_r: DFF<Bit>,
    op: Signal<Local, CpuOp>,
    iop: Signal<Local, IoOp>,
    gin: Signal<Local, Bits<8>>,
    fin: Signal<Local, Bits<16>>,
    k: Signal<Local, Bits<11>>,
    next_pc: Signal<Local, Bits<10>>,
    taken: Signal<Local, Bit>,
    target: Signal<Local, Bits<10>>,
    adv: Signal<Local, Bit>,
    vaddr: Signal<Local, Bits<10>>,
    base: Signal<Local, Bits<11>>,
    maddr: Signal<Local, Bits<11>>,
    p_step: Signal<Local, Bits<11>>,
    p_next: Signal<Local, Bits<11>>,
    h_step: Signal<Local, Bits<15>>,
    h_next: Signal<Local, Bits<15>>,
    y: Signal<Local, Bits<32>>,
    sub: Signal<Local, Bit>,
    y2: Signal<Local, Bits<32>>,
    sum: Signal<Local, Bits<33>>,
    anded: Signal<Local, Bits<32>>,
    shifted: Signal<Local, Bits<32>>,
    moved: Signal<Local, Bits<32>>,
    io_in: Signal<Local, Bits<32>>,
    aw: Signal<Local, Bit>,
    asrc: Signal<Local, ASrc>,
    lane: Signal<Local, Bits<8>>,
    inserted: Signal<Local, Bits<32>>,
    armed: Signal<Local, Bit>,
    answering: Signal<Local, Bit>,
}

impl Loader {
    /// A loader for a core whose configuration hashes to `isa_hash`, answering INFO with `info`
    /// (the 58-byte record, built from [`layout`] by the caller) and working at `baud`, with a
    /// TEXTURES region of `textures` bytes ([`layout::TEXTURES`], or 0 for a core without the
    /// texture unit, as `info` says). Segments stall for `timeout_clocks` are dropped (20 ms at
    /// the core clock per the protocol).
    pub fn new(
        isa_hash: u32,
        baud: u32,
        textures: u32,
        info: &[u8; INFO_BYTES],
        timeout_clocks: u64,
    ) -> Loader {
        let rom: BTreeMap<Bits<6>, Bits<8>> = info
            .iter()
            .enumerate()
            .map(|(i, &b)| (i.to_bits(), u64::from(b).to_bits()))
            .collect();
        // The firmware is fixed; a test assembles it for every configuration shape.
        let firmware = crate::loader_firmware::firmware(isa_hash, baud, textures)
            .expect("the loader firmware assembles");
        let words: Vec<u64> = firmware.iter().map(|&w| u64::from(w)).collect();
        Loader {
            clock: Default::default(),
            reset: Default::default(),
            rx_data: Default::default(),
            rx_valid: Default::default(),
            tx_data: Default::default(),
            tx_valid: Default::default(),
            tx_ready: Default::default(),
            host_addr: Default::default(),
            host_wdata: Default::default(),
            host_we: Default::default(),
            host_rdata: Default::default(),
            clear: Default::default(),
            start: Default::default(),
            budget: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            fault: Default::default(),
            killed: Default::default(),
            cycles: Default::default(),
            load_state: Default::default(),
            running: Default::default(),
            faulted: Default::default(),
            idle: Default::default(),
            dropped: Default::default(),
            frame_rx: FrameRx::new(timeout_clocks),
            frame_tx: Default::default(),
            mem: Bram::with_depth_and_contents(layout::MEMORY as usize, &[]),
            fw: Bram::with_depth_and_contents(MEMORY_WORDS, &words),
            crc: Default::default(),
            info: ROM::new(rom),
            dec: decode_rom(),
            iodec: io_rom(),
            run_budget: Constant::new(RUN_BUDGET.to_bits()),
            pc: Default::default(),
            lr: Default::default(),
            ir: Default::default(),
            st: Default::default(),
            go: Default::default(),
            fetch: Default::default(),
            a: Default::default(),
            t: Default::default(),
            p: Default::default(),
            h: Default::default(),
            n: Default::default(),
            c: Default::default(),
            e: Default::default(),
            ans: Default::default(),
            led_ld: Default::default(),
            led_fault: Default::default(),
            bad_frames: Default::default(),
            clear_r: Default::default(),
            start_r: Default::default(),
            op: Default::default(),
            iop: Default::default(),
            gin: Default::default(),
            fin: Default::default(),
            k: Default::default(),
            next_pc: Default::default(),
            taken: Default::default(),
            target: Default::default(),
            adv: Default::default(),
            vaddr: Default::default(),
            base: Default::default(),
            maddr: Default::default(),
            p_step: Default::default(),
            p_next: Default::default(),
            h_step: Default::default(),
            h_next: Default::default(),
            y: Default::default(),
            sub: Default::default(),
            y2: Default::default(),
            sum: Default::default(),
            anded: Default::default(),
            shifted: Default::default(),
            moved: Default::default(),
            io_in: Default::default(),
            aw: Default::default(),
            asrc: Default::default(),
            lane: Default::default(),
            inserted: Default::default(),
            armed: Default::default(),
            answering: Default::default(),
        }
    }
}

impl Logic for Loader {
    #[hdl_gen]
    #[allow(clippy::collapsible_match, clippy::collapsible_else_if)]
    fn update(&mut self) {
        dff_setup!(
            self, clock, pc, lr, ir, st, go, fetch, a, t, p, h, n, c, e, ans, led_ld, led_fault,
            bad_frames, clear_r, start_r
        );
        clock!(self, clock, frame_rx, frame_tx, mem, fw, crc);

        // The instruction register: loaded in the fetch clock, decoded in the next ones (decoding
        // straight from the firmware memory's output made the board's longest path).
        if self.fetch.q.val() {
            self.ir.d.next = self.fw.rd.val();
        }
        self.dec.address.next = self.ir.q.val().get_bits::<5>(11);
        self.op.next = self.dec.data.val();
        self.iodec.address.next = self.ir.q.val().get_bits::<5>(0);
        self.iop.next = self.iodec.data.val();
        self.k.next = self.ir.q.val().get_bits::<11>(0);
        self.next_pc.next = self.pc.q.val() + 1;
        self.adv.next = false;
        // Variable k: firmware words 766 - 2k (low half) and 767 - 2k (`loader_isa::VARS`).
        self.vaddr.next =
            bits::<10>(0x2FE) ^ (bit_cast::<10, 5>(self.k.val().get_bits::<5>(0)) << 1);
        // One adder forms the loader-memory address of every access (base + step), one steps
        // P (by k, or 1 for INFO) and one steps H (by 1, or 4 for the word operations).
        self.base.next = self.p.q.val();
        if (self.op.val() == CpuOp::Ldw) | (self.op.val() == CpuOp::Ldb) {
            self.base.next = self.k.val();
        }
        if self.op.val() == CpuOp::Sbh {
            self.base.next = self.h.q.val().get_bits::<11>(0);
        }
        self.maddr.next = self.base.val() + bit_cast::<11, 3>(self.st.q.val());
        self.p_step.next = self.k.val();
        if self.op.val() == CpuOp::Io {
            self.p_step.next = 1.into();
        }
        self.p_next.next = self.p.q.val() + self.p_step.val();
        self.h_step.next = 1.into();
        if (self.iop.val() == IoOp::Hw4) | (self.iop.val() == IoOp::H4) {
            self.h_step.next = 4.into();
        }
        self.h_next.next = self.h.q.val() + self.h_step.val();
        self.y.next = bit_cast::<32, 11>(self.k.val());
        if (self.op.val() == CpuOp::Addt)
            | (self.op.val() == CpuOp::Subt)
            | (self.op.val() == CpuOp::Cmpt)
        {
            self.y.next = self.t.q.val();
        }
        // Byte `H & 3` of T, and T with that byte replaced by A's low byte.
        self.lane.next = self.t.q.val().get_bits::<8>(0);
        self.inserted.next = (self.t.q.val() & !bits::<32>(0xFF))
            | bit_cast::<32, 8>(self.a.q.val().get_bits::<8>(0));
        match self.h.q.val().get_bits::<2>(0).index() {
            1 => {
                self.lane.next = self.t.q.val().get_bits::<8>(8);
                self.inserted.next = (self.t.q.val() & !bits::<32>(0xFF00))
                    | (bit_cast::<32, 8>(self.a.q.val().get_bits::<8>(0)) << 8);
            }
            2 => {
                self.lane.next = self.t.q.val().get_bits::<8>(16);
                self.inserted.next = (self.t.q.val() & !bits::<32>(0xFF_0000))
                    | (bit_cast::<32, 8>(self.a.q.val().get_bits::<8>(0)) << 16);
            }
            3 => {
                self.lane.next = self.t.q.val().get_bits::<8>(24);
                self.inserted.next = (self.t.q.val() & bits::<32>(0xFF_FFFF))
                    | (bit_cast::<32, 8>(self.a.q.val().get_bits::<8>(0)) << 24);
            }
            _ => {}
        }

        // One adder: a - y is a + !y + 1, and its borrow the missing carry.
        self.sub.next = (self.op.val() == CpuOp::Sub)
            | (self.op.val() == CpuOp::Subt)
            | (self.op.val() == CpuOp::Cmp)
            | (self.op.val() == CpuOp::Cmpt);
        self.y2.next = self.y.val();
        if self.sub.val() {
            self.y2.next = !self.y.val();
        }
        self.sum.next = bit_cast::<33, 32>(self.a.q.val())
            + bit_cast::<33, 32>(self.y2.val())
            + bit_cast::<33, 1>(self.sub.val().into());
        self.anded.next = self.a.q.val() & self.y.val();
        // SHR8 and SHR16 go through the gather and variable paths with nothing shifted in.
        self.shifted.next = self.a.q.val() << 2;
        if self.k.val().get_bit(0) {
            self.shifted.next = self.a.q.val() << 4;
        }
        self.gin.next = self.mem.rd.val();
        self.fin.next = self.fw.rd.val();
        if self.op.val() == CpuOp::Sh {
            self.gin.next = 0.into();
            self.fin.next = 0.into();
        }
        if (self.op.val() == CpuOp::Ldx) & (self.st.q.val() == 2) {
            self.fin.next = 0.into();
        }
        match self.k.val().get_bits::<3>(0).index() {
            3 => self.moved.next = bit_cast::<32, 11>(self.p.q.val()),
            5 => self.moved.next = bit_cast::<32, 15>(self.h.q.val()),
            7 => self.moved.next = bit_cast::<32, 13>(self.n.q.val()),
            _ => self.moved.next = self.t.q.val(),
        }
        match self.iop.val() {
            IoOp::Waitf => self.io_in.next = bit_cast::<32, 9>(self.frame_rx.body_len.val()),
            IoOp::Info => self.io_in.next = bit_cast::<32, 8>(self.info.data.val()),
            IoOp::Xb => self.io_in.next = bit_cast::<32, 8>(self.lane.val()),
            IoOp::Flt => self.io_in.next = bit_cast::<32, 4>(self.fault.val()),
            IoOp::Kil => self.io_in.next = bit_cast::<32, 4>(self.killed.val()),
            _ => self.io_in.next = bit_cast::<32, 16>(self.bad_frames.q.val()),
        }
        self.aw.next = false;
        self.asrc.next = ASrc::Io;
        // Whether a jump is taken (`JMP 0x7FF` jumps to A).
        self.taken.next = false;
        self.target.next = self.k.val().get_bits::<10>(0);
        match self.op.val() {
            CpuOp::Jmp => {
                self.taken.next = true;
                if self.k.val() == 0x7FF {
                    self.target.next = self.a.q.val().get_bits::<10>(0);
                }
            }
            CpuOp::Jz => self.taken.next = !self.a.q.val().any(),
            CpuOp::Jnz => self.taken.next = self.a.q.val().any(),
            CpuOp::Jc => self.taken.next = self.c.q.val(),
            CpuOp::Jnc => self.taken.next = !self.c.q.val(),
            CpuOp::Je => self.taken.next = self.e.q.val(),
            CpuOp::Jne => self.taken.next = !self.e.q.val(),
            CpuOp::Djn => self.taken.next = self.n.q.val() != 1,
            CpuOp::Jnn => self.taken.next = self.n.q.val().any(),
            _ => {}
        }

        // ---- Defaults.
        self.fw.ra.next = self.pc.q.val();
        self.fw.we.next = false;
        self.fw.wa.next = self.vaddr.val();
        self.fw.wd.next = self.a.q.val().get_bits::<16>(0);
        self.mem.ra.next = self.maddr.val();
        self.mem.we.next = false;
        self.mem.wa.next = self.maddr.val();
        self.mem.wd.next = self.a.q.val().get_bits::<8>(0);
        self.info.address.next = self.p.q.val().get_bits::<6>(0);
        self.host_addr.next = bit_cast::<16, 13>(self.h.q.val().get_bits::<13>(2));
        self.host_wdata.next = self.a.q.val();
        self.host_we.next = false;
        // The core's clear and start come from registers: decoded straight from the firmware
        // memory they would reach the sequencer's stack in the same clock (the board's longest
        // path).
        self.clear_r.d.next = false;
        self.start_r.d.next = false;
        self.clear.next = self.clear_r.q.val();
        self.start.next = self.start_r.q.val();
        self.budget.next = self.run_budget.val();
        self.frame_tx.data.next = self.a.q.val().get_bits::<8>(0);
        self.frame_tx.valid.next = false;
        self.frame_tx.last.next = self.n.q.val() == 1;
        self.crc.clear.next = false;
        self.crc.valid.next = false;
        self.crc.data.next = self.a.q.val().get_bits::<8>(0);
        self.armed.next = false;
        self.running.next = false;

        // ---- Execution.
        if !self.go.q.val() {
            // Configuration or reset: fetch the first instruction.
            self.fw.ra.next = 0.into();
            self.pc.d.next = 0.into();
            self.st.d.next = 0.into();
            self.go.d.next = true;
            self.fetch.d.next = true;
        } else if self.fetch.q.val() {
            self.fetch.d.next = false;
        } else {
            match self.op.val() {
                CpuOp::Ldi => {
                    self.aw.next = true;
                    self.asrc.next = ASrc::K;
                    self.adv.next = true;
                }
                CpuOp::Ldh => {
                    self.aw.next = true;
                    self.asrc.next = ASrc::Ldh;
                    self.adv.next = true;
                }
                CpuOp::Ldv => {
                    self.st.d.next = self.st.q.val() + 1;
                    if self.st.q.val() == 0 {
                        self.fw.ra.next = self.vaddr.val();
                    } else if self.st.q.val() == 1 {
                        self.aw.next = true;
                        self.asrc.next = ASrc::Fw;
                        self.fw.ra.next = self.vaddr.val() | 1;
                    } else {
                        self.aw.next = true;
                        self.asrc.next = ASrc::Fw;
                        self.adv.next = true;
                    }
                }
                CpuOp::Stv => {
                    self.fw.we.next = true;
                    self.st.d.next = 1.into();
                    if self.st.q.val() == 1 {
                        self.fw.wa.next = self.vaddr.val() | 1;
                        self.fw.wd.next = self.a.q.val().get_bits::<16>(16);
                        self.adv.next = true;
                    }
                }
                CpuOp::Sbp => {
                    self.mem.we.next = true;
                    self.p.d.next = self.p_next.val();
                    self.adv.next = true;
                }
                CpuOp::Swp => {
                    // Byte s of A at step s.
                    self.mem.we.next = true;
                    match self.st.q.val().get_bits::<2>(0).index() {
                        1 => self.mem.wd.next = self.a.q.val().get_bits::<8>(8),
                        2 => self.mem.wd.next = self.a.q.val().get_bits::<8>(16),
                        3 => self.mem.wd.next = self.a.q.val().get_bits::<8>(24),
                        _ => {}
                    }
                    self.st.d.next = self.st.q.val() + 1;
                    if self.st.q.val() == 3 {
                        self.p.d.next = self.p_next.val();
                        self.adv.next = true;
                    }
                }
                CpuOp::Sbh => {
                    self.mem.we.next = true;
                    self.h.d.next = self.h_next.val();
                    self.adv.next = true;
                }
                CpuOp::And => {
                    self.aw.next = true;
                    self.asrc.next = ASrc::Logic;
                    self.e.d.next = !self.anded.val().any();
                    self.adv.next = true;
                }
                CpuOp::Sh => {
                    self.aw.next = true;
                    self.asrc.next = ASrc::Shift;
                    match self.k.val().get_bits::<2>(0).index() {
                        0 => self.asrc.next = ASrc::Gather,
                        1 => self.asrc.next = ASrc::Fw,
                        _ => {}
                    }
                    self.adv.next = true;
                }
                CpuOp::Ldx => {
                    // The table word arrives like a variable's low half, then shifts down.
                    self.st.d.next = self.st.q.val() + 1;
                    if self.st.q.val() == 0 {
                        self.fw.ra.next =
                            self.k.val().get_bits::<10>(0) + self.a.q.val().get_bits::<10>(0);
                    } else {
                        self.aw.next = true;
                        self.asrc.next = ASrc::Fw;
                        if self.st.q.val() == 2 {
                            self.adv.next = true;
                        }
                    }
                }
                CpuOp::Mov => {
                    self.asrc.next = ASrc::Mov;
                    match self.k.val().get_bits::<3>(0).index() {
                        0 => self.t.d.next = self.a.q.val(),
                        1 => self.aw.next = true,
                        2 => self.p.d.next = self.a.q.val().get_bits::<11>(0),
                        3 => self.aw.next = true,
                        4 => self.h.d.next = self.a.q.val().get_bits::<15>(0),
                        5 => self.aw.next = true,
                        6 => self.n.d.next = self.a.q.val().get_bits::<13>(0),
                        _ => self.aw.next = true,
                    }
                    self.adv.next = true;
                }
                CpuOp::Call => {
                    if self.k.val() == 0x7FF {
                        self.next_pc.next = self.lr.q.val();
                    } else {
                        self.lr.d.next = self.pc.q.val() + 1;
                        self.next_pc.next = self.k.val().get_bits::<10>(0);
                    }
                    self.adv.next = true;
                }
                CpuOp::Io => match self.iop.val() {
                    IoOp::Waitf => {
                        // The receiver owns the loader memory while armed.
                        if self.frame_tx.idle.val() {
                            self.ans.d.next = false;
                            self.armed.next = true;
                            if self.frame_rx.good.val() {
                                self.aw.next = true;
                                self.adv.next = true;
                            }
                        }
                    }
                    IoOp::Tx => {
                        self.frame_tx.valid.next = true;
                        if self.frame_tx.ready.val() {
                            self.n.d.next = self.n.q.val() - 1;
                            self.ans.d.next = true;
                            self.adv.next = true;
                        }
                    }
                    IoOp::Info => {
                        self.aw.next = true;
                        self.p.d.next = self.p_next.val();
                        self.adv.next = true;
                    }
                    IoOp::Hrd => {
                        // The word arrives two edges after the address.
                        self.st.d.next = self.st.q.val() + 1;
                        if self.st.q.val() == 2 {
                            self.t.d.next = self.host_rdata.val();
                            self.adv.next = true;
                        }
                    }
                    IoOp::Xb => {
                        self.aw.next = true;
                        self.h.d.next = self.h_next.val();
                        self.adv.next = true;
                    }
                    IoOp::Hw1 => {
                        self.host_we.next = true;
                        self.host_wdata.next = self.inserted.val();
                        self.h.d.next = self.h_next.val();
                        self.adv.next = true;
                    }
                    IoOp::Hw4 => {
                        self.host_we.next = true;
                        self.h.d.next = self.h_next.val();
                        self.adv.next = true;
                    }
                    IoOp::H4 => {
                        self.h.d.next = self.h_next.val();
                        self.adv.next = true;
                    }
                    IoOp::Crcc => {
                        self.crc.clear.next = true;
                        self.adv.next = true;
                    }
                    IoOp::Crc => {
                        self.crc.valid.next = true;
                        self.adv.next = true;
                    }
                    IoOp::Crcr => {
                        self.t.d.next = self.crc.crc.val();
                        self.adv.next = true;
                    }
                    IoOp::Clr => {
                        // The clear pulse, then the core settles.
                        if self.st.q.val() == 0 {
                            self.clear_r.d.next = true;
                        }
                        if self.st.q.val() != 5 {
                            self.st.d.next = self.st.q.val() + 1;
                        } else if !self.busy.val() {
                            self.adv.next = true;
                        }
                    }
                    IoOp::Go => {
                        // Start, then wait for done (the core holds fault, kill mask and cycles
                        // after it until the next start).
                        if self.st.q.val() == 0 {
                            self.start_r.d.next = true;
                            self.st.d.next = 1.into();
                        } else {
                            self.running.next = true;
                            if self.done.val() {
                                self.adv.next = true;
                            }
                        }
                    }
                    IoOp::Cyc => {
                        self.t.d.next = self.cycles.val();
                        self.adv.next = true;
                    }
                    IoOp::Led => {
                        self.led_ld.d.next = self.a.q.val().get_bits::<2>(0);
                        self.adv.next = true;
                    }
                    IoOp::Ledf => {
                        self.led_fault.d.next = self.a.q.val().any();
                        self.adv.next = true;
                    }
                    _ => {
                        // FLT, KIL, BADF: a core or loader status into A.
                        self.aw.next = true;
                        self.adv.next = true;
                    }
                },
                _ => {}
            }
            // The operations sharing one datapath (no or-patterns in hdl_gen matches).
            if (self.op.val() == CpuOp::Jmp)
                | (self.op.val() == CpuOp::Jz)
                | (self.op.val() == CpuOp::Jnz)
                | (self.op.val() == CpuOp::Jc)
                | (self.op.val() == CpuOp::Jnc)
                | (self.op.val() == CpuOp::Je)
                | (self.op.val() == CpuOp::Jne)
                | (self.op.val() == CpuOp::Djn)
                | (self.op.val() == CpuOp::Jnn)
            {
                if self.taken.val() {
                    self.next_pc.next = self.target.val();
                }
                if self.op.val() == CpuOp::Djn {
                    self.n.d.next = self.n.q.val() - 1;
                }
                self.adv.next = true;
            }
            if (self.op.val() == CpuOp::Ldb) | (self.op.val() == CpuOp::Lbp) {
                self.st.d.next = 1.into();
                if self.st.q.val() == 1 {
                    self.aw.next = true;
                    self.asrc.next = ASrc::Byte;
                    if self.op.val() == CpuOp::Lbp {
                        self.p.d.next = self.p_next.val();
                    }
                    self.adv.next = true;
                }
            }
            if (self.op.val() == CpuOp::Ldw) | (self.op.val() == CpuOp::Lwp) {
                // Byte s is read at step s and arrives at step s + 1.
                self.st.d.next = self.st.q.val() + 1;
                if self.st.q.val() != 0 {
                    self.aw.next = true;
                    self.asrc.next = ASrc::Gather;
                }
                if self.st.q.val() == 4 {
                    if self.op.val() == CpuOp::Lwp {
                        self.p.d.next = self.p_next.val();
                    }
                    self.adv.next = true;
                }
            }
            if (self.op.val() == CpuOp::Add) | (self.op.val() == CpuOp::Addt) {
                self.aw.next = true;
                self.asrc.next = ASrc::Alu;
                self.c.d.next = self.sum.val().get_bit(32);
                self.e.d.next = !self.sum.val().get_bits::<32>(0).any();
                self.adv.next = true;
            }
            if (self.op.val() == CpuOp::Sub)
                | (self.op.val() == CpuOp::Subt)
                | (self.op.val() == CpuOp::Cmp)
                | (self.op.val() == CpuOp::Cmpt)
            {
                if (self.op.val() == CpuOp::Sub) | (self.op.val() == CpuOp::Subt) {
                    self.aw.next = true;
                    self.asrc.next = ASrc::Alu;
                }
                self.c.d.next = !self.sum.val().get_bit(32);
                self.e.d.next = !self.sum.val().get_bits::<32>(0).any();
                self.adv.next = true;
            }
            if self.aw.val() {
                match self.asrc.val() {
                    ASrc::K => self.a.d.next = bit_cast::<32, 11>(self.k.val()),
                    ASrc::Ldh => {
                        self.a.d.next = (self.a.q.val() << 11) | bit_cast::<32, 11>(self.k.val())
                    }
                    // A variable's halves arrive low first; each shifts in from the top.
                    ASrc::Fw => {
                        self.a.d.next =
                            (bit_cast::<32, 16>(self.fin.val()) << 16) | (self.a.q.val() >> 16)
                    }
                    ASrc::Byte => self.a.d.next = bit_cast::<32, 8>(self.mem.rd.val()),
                    ASrc::Gather => {
                        self.a.d.next =
                            (bit_cast::<32, 8>(self.gin.val()) << 24) | (self.a.q.val() >> 8)
                    }
                    ASrc::Alu => self.a.d.next = self.sum.val().get_bits::<32>(0),
                    ASrc::Logic => self.a.d.next = self.anded.val(),
                    ASrc::Shift => self.a.d.next = self.shifted.val(),
                    ASrc::Mov => self.a.d.next = self.moved.val(),
                    ASrc::Io => self.a.d.next = self.io_in.val(),
                }
            }
            if self.adv.val() {
                self.pc.d.next = self.next_pc.val();
                self.fw.ra.next = self.next_pc.val();
                self.st.d.next = 0.into();
                self.fetch.d.next = true;
            }
        }

        // ---- The frame receiver (while armed) and the shared CRC unit.
        self.frame_rx.data.next = self.rx_data.val();
        self.frame_rx.valid.next = self.rx_valid.val();
        self.frame_rx.enable.next = self.armed.val() & !self.reset.val();
        self.frame_rx.crc.next = self.crc.crc.val();
        self.frame_tx.crc.next = self.crc.crc.val();
        self.frame_tx.tx_ready.next = self.tx_ready.val();
        self.tx_data.next = self.frame_tx.tx_data.val();
        self.tx_valid.next = self.frame_tx.tx_offer.val();
        self.answering.next = self.ans.q.val() | self.frame_tx.valid.val();
        if self.armed.val() {
            self.mem.we.next = self.frame_rx.we.val();
            self.mem.wa.next = bit_cast::<11, 9>(self.frame_rx.wa.val());
            self.mem.wd.next = self.frame_rx.wd.val();
            self.crc.clear.next = self.frame_rx.crc_clear.val();
            self.crc.valid.next = self.frame_rx.crc_valid.val();
            self.crc.data.next = self.frame_rx.crc_data.val();
        }
        if self.answering.val() {
            self.crc.clear.next = self.frame_tx.crc_clear.val();
            self.crc.valid.next = self.frame_tx.crc_valid.val();
            self.crc.data.next = self.frame_tx.crc_data.val();
        }
        self.load_state.next = self.led_ld.q.val();
        self.faulted.next = self.led_fault.q.val();
        self.idle.next = self.armed.val();
        self.dropped.next = self.frame_rx.bad.val();
        if self.frame_rx.bad.val() & (self.bad_frames.q.val() != 0xFFFF) {
            self.bad_frames.d.next = self.bad_frames.q.val() + 1;
        }
        if self.reset.val() & !self.answering.val() {
            self.go.d.next = false;
            self.bad_frames.d.next = 0.into();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::layout::*;

    #[test]
    fn the_regions_tile_the_loader_memory() {
        // The frame buffer (header and largest payload) at 0, then each region in address order.
        let regions = [
            (0, u32::from(MAX_PAYLOAD) + 16),
            (RESULTS_BASE, u32::from(MAX_QUADS) * 8),
            (MAPS_BASE, MAPS),
            (PARAMS_BASE, PARAMS),
            (INPUTS_BASE, INPUTS),
            (OUTPUTS_BASE, OUTPUTS),
        ];
        for w in regions.windows(2) {
            assert!(
                w[0].0 + w[0].1 <= w[1].0,
                "{:x?} overlaps {:x?}",
                w[0],
                w[1]
            );
        }
        let (base, size) = regions[regions.len() - 1];
        assert!(base + size <= MEMORY);
        // Three 512 x 8 block RAMs.
        assert_eq!(MEMORY, 3 * 512);
    }
}

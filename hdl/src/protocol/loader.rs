//! `Loader`: the on-chip serial loader, the device side of `firmware-loader/PROTOCOL.md` in
//! hardware: a small byte-serial processor ([`crate::loader_isa`]) running the protocol as
//! firmware ([`crate::loader_firmware`]), with the frame receiver ([`FrameRx`]), one bit-serial
//! CRC-32 unit ([`Crc32Serial`]), the answer's byte stuffing and the loader memory around it. It
//! executes INFO, STATUS, BEGIN, WRITE, COMMIT, RUN, READ, RESET and SET_BAUD exactly as the
//! protocol's executable model (`firmware_loader::device::Device`) does, and drives the shader
//! core through its host port ([`crate::host_port`]).
//!
//! Why a processor: the protocol's checks, region tables and register maps as a hard-wired
//! state machine took about 1,500 LUT4s of multiplexers and comparators (ARCHITECTURE.md, "Area");
//! as firmware they are block-RAM bits. Why byte-serial: on the HX8K every multiplexer bit is a
//! LUT4, and the processor's sources (memories, the core's words and status) arrive a byte at a
//! time through one 8-bit multiplexer into the accumulator, a shift register ([`ASel`]).
//!
//! Memories: PROGRAM, CONSTANTS and TEXTURES are the core's own memories (instruction memory, K,
//! texture memory; written a word at a time through the host port, read-modify-write for the
//! bytes before and after whole words, read back a byte at a time). The loader memory is one
//! 1.5 KiB block RAM ([`Bram`], 3 x `SB_RAM40_4K`) holding the frame buffer, the INPUTS,
//! OUTPUTS, RESULTS, PARAMS and MAPS regions, the firmware's variables and the INFO record
//! ([`layout`]; the record is the memory's initial contents). The firmware memory (1024 x 16, 4 x
//! `SB_RAM40_4K`) holds the code with its tables and is read-only. One CRC-32 unit serves the
//! frame receiver (while the firmware waits for a request), the answer (`TX` feeds it, `TXC`
//! sends it) and COMMIT.
//!
//! Deviations from the model, documented in `PROTOCOL.md`: the line rate is fixed per build
//! (SET_BAUD acknowledges only the current rate and refuses the others with BAD_BAUD); bytes that
//! arrive while a request is executed or answered are discarded (the host waits for each answer);
//! no inter-byte timer (the next request's `END` drops a cut segment, counted as the timeout
//! would count it); received bytes at least 64 clocks apart.
//!
//! Timing: an instruction takes a fetch clock and one or more execution clocks
//! ([`crate::loader_isa::OPS`]); a WRITE takes about 3 clocks per byte after its frame (17 for
//! the bytes before and after its whole words), a COMMIT about 12 per image byte, a RUN about
//! 100 per register word moved plus the core's cycles, all far below the line's byte time (333
//! clocks at 3 Mbaud and 100 MHz, 4,340 at 115,200 baud and 50 MHz).
use crate::bram::Bram;
use crate::crc32_serial::Crc32Serial;
use crate::frame_rx::FrameRx;
use crate::host_port::HostBusDriver;
use crate::loader_isa::{decode_rom, io_rom, CpuOp, IoOp, MEMORY_WORDS};
use crate::loader_layout as layout;
use rust_hdl::prelude::*;

/// Instruction budget of every quad a RUN executes (the default of the software engines,
/// `sim::run_io::DEFAULT_BUDGET`).
pub const RUN_BUDGET: u64 = 1_000_000;

pub use microcode::protocol::{DeviceConfig, INFO_BYTES, INFO_RECORD_BYTES};

/// Where the accumulator's next top byte comes from (one 8-bit multiplexer, chosen by the
/// operation and its step).
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum ASel {
    /// The adder's (or comparator's) byte.
    Alu,
    /// The AND's byte.
    And,
    /// A rotated: the shifts, one byte a clock.
    Rot,
    /// Zero.
    Zero,
    /// The loader memory's byte.
    Mem,
    /// The firmware memory's byte.
    Fw,
    /// An input/output operation's byte.
    Io,
}

/// The loader; see the module documentation.
#[derive(LogicBlock)]
pub struct Loader {
    /// The clock everything is synchronous to.
    pub clock: Signal<In, Clock>,
    /// The core's host port, driven by the firmware ([`crate::host_port`]).
    pub host: HostBusDriver,
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
    mem: Bram<8, 11>,
    fw: Bram<16, 10>,
    crc: Crc32Serial,
    dec: ROM<CpuOp, 5>,
    iodec: ROM<IoOp, 5>,
    run_budget: Constant<Bits<32>>,
    // The processor (registers as in `loader_isa`).
    pc: DFF<Bits<10>>,
    lr: DFF<Bits<10>>,
    ir: DFF<Bits<16>>,
    st: DFF<Bits<4>>,
    go: DFF<Bit>,
    fetch: DFF<Bit>,
    a: DFF<Bits<32>>,
    t: DFF<Bits<32>>,
    p: DFF<Bits<11>>,
    h: DFF<Bits<15>>,
    n: DFF<Bits<13>>,
    c: DFF<Bit>,
    e: DFF<Bit>,
    cy: DFF<Bit>,
    // An answer has begun and its frame is not yet out (reset waits for it).
    ans: DFF<Bit>,
    led_ld: DFF<Bits<2>>,
    led_fault: DFF<Bit>,
    clear_q: DFF<Bit>,
    start_q: DFF<Bit>,
    resume_q: DFF<Bit>,
    // The wire byte offered to the UART, and whether one is.
    txd: DFF<Bits<8>>,
    txv: DFF<Bit>,
    op: Signal<Local, CpuOp>,
    iop: Signal<Local, IoOp>,
    k: Signal<Local, Bits<11>>,
    b2: Signal<Local, Bits<2>>,
    next_pc: Signal<Local, Bits<10>>,
    taken: Signal<Local, Bit>,
    target: Signal<Local, Bits<10>>,
    adv: Signal<Local, Bit>,
    astep: Signal<Local, Bit>,
    asel: Signal<Local, ASel>,
    ab: Signal<Local, Bits<8>>,
    maddr: Signal<Local, Bits<11>>,
    h_step: Signal<Local, Bits<15>>,
    kbyte: Signal<Local, Bits<8>>,
    tbyte: Signal<Local, Bits<8>>,
    hsel: Signal<Local, Bits<2>>,
    ins_lane: Signal<Local, Bits<2>>,
    low2: Signal<Local, Bits<2>>,
    hbyte: Signal<Local, Bits<8>>,
    fwbyte: Signal<Local, Bits<8>>,
    iob: Signal<Local, Bits<8>>,
    ob: Signal<Local, Bits<8>>,
    ob2: Signal<Local, Bits<8>>,
    ain: Signal<Local, Bits<8>>,
    sub: Signal<Local, Bit>,
    cin: Signal<Local, Bit>,
    sum: Signal<Local, Bits<9>>,
    res: Signal<Local, Bits<8>>,
    flags: Signal<Local, Bit>,
    txbyte: Signal<Local, Bits<8>>,
    tx_free: Signal<Local, Bit>,
    tx_done: Signal<Local, Bit>,
    armed: Signal<Local, Bit>,
    answering: Signal<Local, Bit>,
    st_hold: Signal<Local, Bit>,
    p_inc: Signal<Local, Bit>,
    p_load: Signal<Local, Bit>,
    h_inc: Signal<Local, Bit>,
    h_load: Signal<Local, Bit>,
    n_dec: Signal<Local, Bit>,
    n_load: Signal<Local, Bit>,
}

impl Loader {
    /// A loader running `firmware` ([`crate::loader_firmware::firmware`]) whose memory holds
    /// the INFO record `info` (built from [`layout`] by the caller: its ISA hash, line rate and
    /// region sizes, the TEXTURES size included, are the ones the firmware checks against).
    pub fn new(info: &[u8; INFO_RECORD_BYTES], firmware: &[u16]) -> Loader {
        let words: Vec<u64> = firmware.iter().map(|&w| u64::from(w)).collect();
        // The loader memory starts with the INFO record and the RESULTS size in place (no
        // request writes there).
        let mut memory = vec![0u64; layout::INFO_BASE as usize];
        memory.extend(info.iter().map(|&b| u64::from(b)));
        memory.resize(layout::RESULTS_SIZE_WORD as usize, 0);
        let results = u32::from(layout::MAX_QUADS) * 8;
        memory.extend(results.to_le_bytes().iter().map(|&b| u64::from(b)));
        Loader {
            clock: Default::default(),
            host: Default::default(),
            reset: Default::default(),
            rx_data: Default::default(),
            rx_valid: Default::default(),
            tx_data: Default::default(),
            tx_valid: Default::default(),
            tx_ready: Default::default(),
            load_state: Default::default(),
            running: Default::default(),
            faulted: Default::default(),
            idle: Default::default(),
            dropped: Default::default(),
            frame_rx: FrameRx::new(),
            mem: Bram::with_depth_and_contents(layout::MEMORY as usize, &memory),
            fw: Bram::with_depth_and_contents(MEMORY_WORDS, &words),
            crc: Default::default(),
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
            cy: Default::default(),
            ans: Default::default(),
            led_ld: Default::default(),
            led_fault: Default::default(),
            clear_q: Default::default(),
            start_q: Default::default(),
            resume_q: Default::default(),
            txd: Default::default(),
            txv: Default::default(),
            op: Default::default(),
            iop: Default::default(),
            k: Default::default(),
            b2: Default::default(),
            next_pc: Default::default(),
            taken: Default::default(),
            target: Default::default(),
            adv: Default::default(),
            astep: Default::default(),
            asel: Default::default(),
            ab: Default::default(),
            maddr: Default::default(),
            h_step: Default::default(),
            kbyte: Default::default(),
            tbyte: Default::default(),
            hsel: Default::default(),
            ins_lane: Default::default(),
            low2: Default::default(),
            hbyte: Default::default(),
            fwbyte: Default::default(),
            iob: Default::default(),
            ob: Default::default(),
            ob2: Default::default(),
            ain: Default::default(),
            sub: Default::default(),
            cin: Default::default(),
            sum: Default::default(),
            res: Default::default(),
            flags: Default::default(),
            txbyte: Default::default(),
            tx_free: Default::default(),
            tx_done: Default::default(),
            armed: Default::default(),
            answering: Default::default(),
            st_hold: Default::default(),
            p_inc: Default::default(),
            p_load: Default::default(),
            h_inc: Default::default(),
            h_load: Default::default(),
            n_dec: Default::default(),
            n_load: Default::default(),
        }
    }
}

impl Logic for Loader {
    #[hdl_gen]
    #[allow(clippy::collapsible_match, clippy::collapsible_else_if)]
    fn update(&mut self) {
        dff_setup!(
            self, clock, pc, lr, ir, st, go, fetch, a, t, p, h, n, c, e, cy, ans, led_ld,
            led_fault, clear_q, start_q, resume_q, txd, txv
        );
        clock!(self, clock, frame_rx, mem, fw, crc);

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
        // The byte of a 32-bit value a step works on (steps 0..3 are bytes 0..3; the shifts'
        // later passes start over).
        self.b2.next = self.st.q.val().get_bits::<2>(0);
        self.next_pc.next = self.pc.q.val() + 1;
        self.adv.next = false;
        self.astep.next = false;
        self.st_hold.next = false;
        self.p_inc.next = false;
        self.p_load.next = false;
        self.h_inc.next = false;
        self.h_load.next = false;
        self.n_dec.next = false;
        self.n_load.next = false;
        self.ab.next = self.a.q.val().get_bits::<8>(0);
        self.asel.next = ASel::Rot;
        self.flags.next = false;
        // A 2-bit signal: Verilog would widen the sum.
        self.low2.next = self.k.val().get_bits::<2>(0) + self.b2.val();
        // Loader-memory address: k + the byte (LDB, LDH, LDW, STW), H (SBH) or P (the rest).
        self.maddr.next = self.p.q.val();
        if (self.op.val() == CpuOp::Ldb)
            | (self.op.val() == CpuOp::Ldh)
            | (self.op.val() == CpuOp::Ldw)
            | (self.op.val() == CpuOp::Stw)
        {
            // Words are aligned and halves do not cross a word (the assembler checks): the byte
            // is added to k's low two bits alone.
            self.maddr.next =
                (self.k.val() & bits::<11>(0x7FC)) | bit_cast::<11, 2>(self.low2.val());
        }
        if self.op.val() == CpuOp::Sbh {
            self.maddr.next = self.h.q.val().get_bits::<11>(0);
        }
        self.h_step.next = 1.into();
        if (self.iop.val() == IoOp::Hw4) | (self.iop.val() == IoOp::H4) {
            self.h_step.next = 4.into();
        }

        // ---- The byte sources.
        match self.b2.val().index() {
            0 => self.kbyte.next = self.k.val().get_bits::<8>(0),
            1 => self.kbyte.next = bit_cast::<8, 3>(self.k.val().get_bits::<3>(8)),
            _ => self.kbyte.next = 0.into(),
        }
        // T turns with A (below): at step s its low byte is byte s of the T the operation began
        // with.
        self.tbyte.next = self.t.q.val().get_bits::<8>(0);
        // A core word arrives two clocks after its address: HRD takes byte s at step s + 2; XB
        // takes lane H & 3.
        self.hsel.next = self.b2.val() ^ bits::<2>(2);
        // INS's step s + 1 works on byte s (a 2-bit signal: Verilog would widen `b2 - 1`).
        self.ins_lane.next = self.b2.val() - 1;
        if self.iop.val() == IoOp::Xb {
            self.hsel.next = self.h.q.val().get_bits::<2>(0);
        }
        match self.hsel.val().index() {
            0 => self.hbyte.next = self.host.rdata.val().get_bits::<8>(0),
            1 => self.hbyte.next = self.host.rdata.val().get_bits::<8>(8),
            2 => self.hbyte.next = self.host.rdata.val().get_bits::<8>(16),
            _ => self.hbyte.next = self.host.rdata.val().get_bits::<8>(24),
        }
        // A firmware word's low byte arrives at odd steps, its high byte at even ones.
        self.fwbyte.next = self.fw.rd.val().get_bits::<8>(8);
        if self.st.q.val().get_bit(0) {
            self.fwbyte.next = self.fw.rd.val().get_bits::<8>(0);
        }
        self.iob.next = self.hbyte.val();
        match self.iop.val() {
            IoOp::Waitf => {
                // The body length (9 bits) at steps 1 and 2.
                self.iob.next = 0.into();
                if self.st.q.val() == 1 {
                    self.iob.next = self.frame_rx.body_len.val().get_bits::<8>(0);
                }
                if self.st.q.val() == 2 {
                    self.iob.next = bit_cast::<8, 1>(self.frame_rx.body_len.val().get_bits::<1>(8));
                }
            }
            // A RESULTS record's first word: kill mask, fault, the lanes of a pause (10, 11:
            // the only codes with bits 3 and 1 set), 0.
            IoOp::Stat => match self.b2.val().index() {
                0 => self.iob.next = bit_cast::<8, 4>(self.host.killed.val()),
                1 => self.iob.next = bit_cast::<8, 4>(self.host.fault.val()),
                2 => {
                    self.iob.next = 0.into();
                    if self.host.fault.val().get_bit(3) & self.host.fault.val().get_bit(1) {
                        self.iob.next = bit_cast::<8, 4>(self.host.lanes.val());
                    }
                }
                _ => self.iob.next = 0.into(),
            },
            IoOp::Cyc => match self.b2.val().index() {
                0 => self.iob.next = self.host.cycles.val().get_bits::<8>(0),
                1 => self.iob.next = self.host.cycles.val().get_bits::<8>(8),
                2 => self.iob.next = self.host.cycles.val().get_bits::<8>(16),
                _ => self.iob.next = self.host.cycles.val().get_bits::<8>(24),
            },
            _ => {}
        }

        // ---- The byte adder: a - y is a + !y + 1, the carry kept between a value's bytes.
        self.ob.next = self.kbyte.val();
        if (self.op.val() == CpuOp::Addt)
            | (self.op.val() == CpuOp::Subt)
            | (self.op.val() == CpuOp::Cmpt)
        {
            self.ob.next = self.tbyte.val();
        }
        self.ain.next = self.a.q.val().get_bits::<8>(0);
        if self.op.val() == CpuOp::Sh {
            // SHL2 and SHL4: passes of A + A.
            self.ob.next = self.a.q.val().get_bits::<8>(0);
        }
        if self.op.val() == CpuOp::Ldi {
            self.ain.next = 0.into();
        }
        self.sub.next = (self.op.val() == CpuOp::Sub)
            | (self.op.val() == CpuOp::Subt)
            | (self.op.val() == CpuOp::Cmp)
            | (self.op.val() == CpuOp::Cmpt);
        self.ob2.next = self.ob.val();
        if self.sub.val() {
            self.ob2.next = !self.ob.val();
        }
        self.cin.next = self.cy.q.val();
        if self.b2.val() == 0 {
            self.cin.next = self.sub.val();
        }
        self.sum.next = bit_cast::<9, 8>(self.ain.val())
            + bit_cast::<9, 8>(self.ob2.val())
            + bit_cast::<9, 1>(self.cin.val().into());
        self.cy.d.next = self.sum.val().get_bit(8);
        self.res.next = self.sum.val().get_bits::<8>(0);
        if self.op.val() == CpuOp::And {
            self.res.next = self.a.q.val().get_bits::<8>(0) & self.ob.val();
        }

        // Whether a jump is taken (`JMP 0x7FF` jumps to T).
        self.taken.next = false;
        self.target.next = self.k.val().get_bits::<10>(0);
        match self.op.val() {
            CpuOp::Jmp => {
                self.taken.next = true;
                if self.k.val() == 0x7FF {
                    self.target.next = self.t.q.val().get_bits::<10>(0);
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

        // ---- The transmitter's byte: SLIP-stuffed, one wire byte per UART handshake.
        self.txbyte.next = self.a.q.val().get_bits::<8>(0);
        if self.iop.val() == IoOp::Txc {
            self.txbyte.next = self.crc.low.val();
        }
        self.tx_free.next = !self.txv.q.val() | self.tx_ready.val();
        if self.txv.q.val() & self.tx_ready.val() {
            self.txv.d.next = false;
        }
        self.tx_done.next = false;

        // ---- Defaults.
        // The firmware memory is read-only (its contents are in the bitstream).
        self.fw.we.next = false;
        self.fw.wa.next = 0.into();
        self.fw.wd.next = 0.into();
        self.mem.ra.next = self.maddr.val();
        self.mem.we.next = false;
        self.mem.wa.next = self.maddr.val();
        self.mem.wd.next = self.a.q.val().get_bits::<8>(0);
        self.host.addr.next = bit_cast::<16, 13>(self.h.q.val().get_bits::<13>(2));
        self.host.wdata.next = self.a.q.val();
        self.host.we.next = false;
        // The core's clear, start and resume come from registers: decoded straight from the
        // firmware memory they would reach the sequencer's stack in the same clock (the board's
        // longest path).
        self.clear_q.d.next = false;
        self.start_q.d.next = false;
        self.resume_q.d.next = false;
        self.host.clear.next = self.clear_q.q.val();
        self.host.start.next = self.start_q.q.val();
        self.host.resume.next = self.resume_q.q.val();
        self.host.budget.next = self.run_budget.val();
        self.crc.clear.next = false;
        self.crc.start.next = false;
        self.crc.shift.next = false;
        self.crc.data.next = self.a.q.val().get_bits::<8>(0);
        self.armed.next = false;
        self.running.next = false;

        // ---- Execution.
        if !self.go.q.val() {
            // Configuration or reset: fetch the first instruction.
            self.next_pc.next = 0.into();
            self.pc.d.next = 0.into();
            self.st.d.next = 0.into();
            self.go.d.next = true;
            self.fetch.d.next = true;
        } else if self.fetch.q.val() {
            self.fetch.d.next = false;
        } else {
            match self.op.val() {
                CpuOp::Ldi => {
                    self.astep.next = true;
                    self.asel.next = ASel::Alu;
                    if self.st.q.val() == 3 {
                        self.adv.next = true;
                    }
                }
                CpuOp::Stw => {
                    // Byte s of A to k + s at step s.
                    self.mem.we.next = true;
                    self.astep.next = true;
                    if self.st.q.val() == 3 {
                        self.adv.next = true;
                    }
                }
                CpuOp::Lbp => {
                    if self.st.q.val() != 0 {
                        self.astep.next = true;
                        self.asel.next = ASel::Zero;
                    }
                    if self.st.q.val() == 1 {
                        self.asel.next = ASel::Mem;
                        self.p_inc.next = true;
                    }
                    if self.st.q.val() == 4 {
                        self.adv.next = true;
                    }
                }
                CpuOp::Lwp => {
                    // Byte s is read at step s and arrives at step s + 1.
                    if self.st.q.val() != 0 {
                        self.astep.next = true;
                        self.asel.next = ASel::Mem;
                    }
                    if self.st.q.val() == 4 {
                        self.adv.next = true;
                    } else {
                        self.p_inc.next = true;
                    }
                }
                CpuOp::Swp => {
                    self.mem.we.next = true;
                    self.p_inc.next = true;
                    self.astep.next = true;
                    if self.st.q.val() == 3 {
                        self.adv.next = true;
                    }
                }
                CpuOp::Sbh => {
                    self.mem.we.next = true;
                    self.h_inc.next = true;
                    self.adv.next = true;
                }
                CpuOp::And => {
                    self.astep.next = true;
                    self.asel.next = ASel::And;
                    self.flags.next = true;
                    if self.st.q.val() == 3 {
                        self.adv.next = true;
                    }
                }
                CpuOp::Sh => {
                    // SHR8 and SHR16: one or two steps shifting zeros in; SHL2 and SHL4: two
                    // or four passes of A + A.
                    self.astep.next = true;
                    self.asel.next = ASel::Zero;
                    match self.k.val().get_bits::<2>(0).index() {
                        0 => self.adv.next = true,
                        1 => {
                            if self.st.q.val() == 1 {
                                self.adv.next = true;
                            }
                        }
                        2 => {
                            self.asel.next = ASel::Alu;
                            if self.st.q.val() == 7 {
                                self.adv.next = true;
                            }
                        }
                        _ => {
                            self.asel.next = ASel::Alu;
                            if self.st.q.val() == 15 {
                                self.adv.next = true;
                            }
                        }
                    }
                }
                CpuOp::Mov => {
                    match self.k.val().get_bits::<2>(0).index() {
                        0 => {}
                        1 => self.p_load.next = true,
                        2 => self.h_load.next = true,
                        _ => self.n_load.next = true,
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
                        if self.st.q.val() == 0 {
                            self.st_hold.next = true;
                            if !self.txv.q.val() {
                                self.ans.d.next = false;
                                self.armed.next = true;
                                if self.frame_rx.closed.val() {
                                    self.st_hold.next = false;
                                }
                            }
                        } else {
                            self.astep.next = true;
                            self.asel.next = ASel::Io;
                            if self.st.q.val() == 4 {
                                self.adv.next = true;
                            }
                        }
                    }
                    // TX and TXC below, with the escape.
                    IoOp::Tx => {}
                    IoOp::Txc => {}
                    IoOp::Txe => {
                        self.st_hold.next = true;
                        if self.tx_free.val() {
                            self.txv.d.next = true;
                            self.txd.d.next = 0xC0.into();
                            self.ans.d.next = true;
                            self.adv.next = true;
                        }
                    }
                    IoOp::Hrd => {
                        if self.st.q.val() >= 2 {
                            self.astep.next = true;
                            self.asel.next = ASel::Io;
                        }
                        if self.st.q.val() == 5 {
                            self.adv.next = true;
                        }
                    }
                    IoOp::Xb => {
                        if self.st.q.val() >= 2 {
                            self.astep.next = true;
                            self.asel.next = ASel::Zero;
                        }
                        if self.st.q.val() == 2 {
                            self.asel.next = ASel::Io;
                            self.h_inc.next = true;
                        }
                        if self.st.q.val() == 5 {
                            self.adv.next = true;
                        }
                    }
                    IoOp::Ins => {
                        // Byte s of A at step s + 1: the memory's byte in lane H & 3.
                        if self.st.q.val() != 0 {
                            self.astep.next = true;
                            if self.ins_lane.val() == self.h.q.val().get_bits::<2>(0) {
                                self.asel.next = ASel::Mem;
                            }
                        }
                        if self.st.q.val() == 4 {
                            self.p_inc.next = true;
                            self.adv.next = true;
                        }
                    }
                    IoOp::Hw1 => {
                        self.host.we.next = true;
                        self.h_inc.next = true;
                        self.adv.next = true;
                    }
                    IoOp::Hw4 => {
                        self.host.we.next = true;
                        self.h_inc.next = true;
                        self.adv.next = true;
                    }
                    IoOp::H4 => {
                        self.h_inc.next = true;
                        self.adv.next = true;
                    }
                    IoOp::Crcc => {
                        self.crc.clear.next = true;
                        self.adv.next = true;
                    }
                    IoOp::Crc => {
                        self.st_hold.next = true;
                        if !self.crc.busy.val() {
                            self.crc.start.next = true;
                            self.adv.next = true;
                        }
                    }
                    IoOp::Crcw => {
                        self.st_hold.next = self.crc.busy.val();
                        if !self.crc.busy.val() {
                            self.crc.start.next = true;
                            self.astep.next = true;
                            if self.st.q.val() == 3 {
                                self.adv.next = true;
                            }
                        }
                    }
                    IoOp::Crcok => {
                        self.st_hold.next = true;
                        if !self.crc.busy.val() {
                            self.e.d.next = self.crc.residue.val();
                            self.adv.next = true;
                        }
                    }
                    IoOp::Clr => {
                        // The clear pulse, then the core settles.
                        if self.st.q.val() == 0 {
                            self.clear_q.d.next = true;
                        }
                        if self.st.q.val() == 5 {
                            self.st_hold.next = true;
                            if !self.host.busy.val() {
                                self.adv.next = true;
                            }
                        }
                    }
                    IoOp::Go => {
                        // Start, then wait for done (the core holds fault, kill mask and cycles
                        // after it until the next start).
                        if self.st.q.val() == 0 {
                            self.start_q.d.next = true;
                        } else {
                            self.st_hold.next = true;
                            self.running.next = true;
                            if self.host.done.val() {
                                self.adv.next = true;
                            }
                        }
                    }
                    IoOp::Res => {
                        if self.st.q.val() == 0 {
                            self.resume_q.d.next = true;
                        } else {
                            self.st_hold.next = true;
                            self.running.next = true;
                            if self.host.done.val() {
                                self.adv.next = true;
                            }
                        }
                    }
                    IoOp::Led => {
                        self.led_ld.d.next = self.a.q.val().get_bits::<2>(0);
                        self.adv.next = true;
                    }
                    IoOp::Ledf => {
                        self.led_fault.d.next = self.a.q.val().any();
                        self.adv.next = true;
                    }
                    IoOp::Fw => {
                        // A table word (16 bits): its address at steps 0 and 1, its bytes at
                        // steps 1 and 2, then zeros.
                        if self.st.q.val() != 0 {
                            self.astep.next = true;
                            self.asel.next = ASel::Fw;
                        }
                        if self.st.q.val() >= 3 {
                            self.asel.next = ASel::Zero;
                        }
                        if self.st.q.val() == 4 {
                            self.adv.next = true;
                        }
                    }
                    _ => {
                        // STAT, CYC: the core's status into A.
                        self.astep.next = true;
                        self.asel.next = ASel::Io;
                        if self.st.q.val() == 3 {
                            self.adv.next = true;
                        }
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
                    self.n_dec.next = true;
                }
                self.adv.next = true;
            }
            if (self.op.val() == CpuOp::Ldb)
                | (self.op.val() == CpuOp::Ldh)
                | (self.op.val() == CpuOp::Ldw)
            {
                // Byte s is read at step s and arrives at step s + 1; zeros past the width.
                if self.st.q.val() != 0 {
                    self.astep.next = true;
                    self.asel.next = ASel::Mem;
                    if (self.op.val() == CpuOp::Ldb) & (self.st.q.val() >= 2) {
                        self.asel.next = ASel::Zero;
                    }
                    if (self.op.val() == CpuOp::Ldh) & (self.st.q.val() >= 3) {
                        self.asel.next = ASel::Zero;
                    }
                }
                if self.st.q.val() == 4 {
                    self.adv.next = true;
                }
            }
            if (self.op.val() == CpuOp::Add)
                | (self.op.val() == CpuOp::Sub)
                | (self.op.val() == CpuOp::Addt)
                | (self.op.val() == CpuOp::Subt)
            {
                self.astep.next = true;
                self.asel.next = ASel::Alu;
                self.flags.next = true;
                if self.st.q.val() == 3 {
                    self.adv.next = true;
                }
            }
            if (self.op.val() == CpuOp::Cmp) | (self.op.val() == CpuOp::Cmpt) {
                self.astep.next = true;
                self.flags.next = true;
                if self.st.q.val() == 3 {
                    self.adv.next = true;
                }
            }
            if (self.op.val() == CpuOp::Io)
                & ((self.iop.val() == IoOp::Tx) | (self.iop.val() == IoOp::Txc))
            {
                // A byte that needs an escape goes out as ESC at step 0 and its code at step 1.
                self.st_hold.next = true;
                if self.st.q.val() == 0 {
                    if self.tx_free.val() & !self.crc.busy.val() {
                        self.txv.d.next = true;
                        self.ans.d.next = true;
                        self.txd.d.next = self.txbyte.val();
                        if (self.txbyte.val() == 0xC0) | (self.txbyte.val() == 0xDB) {
                            self.txd.d.next = 0xDB.into();
                            self.st_hold.next = false;
                        } else {
                            self.tx_done.next = true;
                        }
                    }
                } else if self.tx_free.val() {
                    self.txv.d.next = true;
                    self.txd.d.next = 0xDD.into();
                    if self.txbyte.val() == 0xC0 {
                        self.txd.d.next = 0xDC.into();
                    }
                    self.tx_done.next = true;
                }
                if self.tx_done.val() {
                    self.adv.next = true;
                    if self.iop.val() == IoOp::Tx {
                        self.crc.start.next = true;
                        self.n_dec.next = true;
                    } else {
                        self.crc.shift.next = true;
                    }
                }
            }
            if self.flags.val() {
                if self.b2.val() == 0 {
                    self.e.d.next = !self.res.val().any();
                } else {
                    self.e.d.next = self.e.q.val() & !self.res.val().any();
                }
                if (self.b2.val() == 3) & (self.op.val() != CpuOp::And) {
                    self.c.d.next = self.sum.val().get_bit(8) ^ self.sub.val();
                }
            }
            match self.asel.val() {
                ASel::Alu => self.ab.next = self.sum.val().get_bits::<8>(0),
                ASel::And => self.ab.next = self.res.val(),
                ASel::Rot => self.ab.next = self.a.q.val().get_bits::<8>(0),
                ASel::Zero => self.ab.next = 0.into(),
                ASel::Mem => self.ab.next = self.mem.rd.val(),
                ASel::Fw => self.ab.next = self.fwbyte.val(),
                ASel::Io => self.ab.next = self.iob.val(),
            }
            if self.astep.val() {
                self.a.d.next = (bit_cast::<32, 8>(self.ab.val()) << 24) | (self.a.q.val() >> 8);
                // T takes the bytes A drops: after the four steps of an operation T holds the
                // A it began with (the shifts, whose steps are not a word's four, leave T).
                if self.op.val() != CpuOp::Sh {
                    self.t.d.next = (bit_cast::<32, 8>(self.a.q.val().get_bits::<8>(0)) << 24)
                        | (self.t.q.val() >> 8);
                }
            }
            // One assignment per register, from the enables the operations set.
            if self.adv.val() {
                self.pc.d.next = self.next_pc.val();
                self.st.d.next = 0.into();
                self.fetch.d.next = true;
            } else if !self.st_hold.val() {
                self.st.d.next = self.st.q.val() + 1;
            }
            if self.p_load.val() {
                self.p.d.next = self.a.q.val().get_bits::<11>(0);
            } else if self.p_inc.val() {
                self.p.d.next = self.p.q.val() + 1;
            }
            if self.h_load.val() {
                self.h.d.next = self.a.q.val().get_bits::<15>(0);
            } else if self.h_inc.val() {
                self.h.d.next = self.h.q.val() + self.h_step.val();
            }
            if self.n_load.val() {
                self.n.d.next = self.a.q.val().get_bits::<13>(0);
            } else if self.n_dec.val() {
                self.n.d.next = self.n.q.val() - 1;
            }
        }

        // The firmware memory's address matters in the clock before a fetch (the next
        // instruction) and for FW's table word (read at steps 0 and 1).
        self.fw.ra.next = self.next_pc.val();
        if (self.op.val() == CpuOp::Io) & (self.iop.val() == IoOp::Fw) & (self.st.q.val() <= 1) {
            self.fw.ra.next = self.a.q.val().get_bits::<10>(0);
        }

        // ---- The frame receiver (while armed) and the shared CRC unit.
        self.frame_rx.data.next = self.rx_data.val();
        self.frame_rx.valid.next = self.rx_valid.val();
        self.frame_rx.enable.next = self.armed.val() & !self.reset.val();
        self.frame_rx.crc_residue.next = self.crc.residue.val();
        self.tx_data.next = self.txd.q.val();
        self.tx_valid.next = self.txv.q.val();
        self.answering.next = self.ans.q.val() | self.txv.q.val();
        if self.armed.val() {
            self.mem.we.next = self.frame_rx.we.val();
            self.mem.wa.next = bit_cast::<11, 9>(self.frame_rx.wa.val());
            self.mem.wd.next = self.frame_rx.wd.val();
            self.crc.clear.next = self.frame_rx.crc_clear.val();
            self.crc.start.next = self.frame_rx.crc_start.val();
            self.crc.data.next = self.frame_rx.crc_data.val();
        }
        self.load_state.next = self.led_ld.q.val();
        self.faulted.next = self.led_fault.q.val();
        self.idle.next = self.armed.val();
        self.dropped.next = self.frame_rx.bad.val();
        if self.reset.val() & !self.answering.val() {
            self.go.d.next = false;
        }
    }
}

// ---- The device this loader implements: `crate::loader_device` (re-exported here, where the
// host tools and tests have always found it).
pub use crate::loader_device::{device_config, info_bytes, info_record, CORE_VERSION};

/// The on-chip loader for `cfg`: its INFO record (the ISA hash, line rate and region sizes the
/// firmware checks against) and the firmware for the board (`cluster`: the multi-core board's,
/// which drives [`crate::core_mux::CoreMux`] and renders through
/// [`crate::quad_dispatcher::QuadDispatcher`]; otherwise the one-core board's).
pub fn for_device(
    cfg: &DeviceConfig,
    cluster: bool,
) -> Result<Loader, crate::loader_isa::AsmError> {
    let firmware = crate::loader_firmware::firmware(cfg, cluster)?;
    Ok(Loader::new(&info_record(cfg), &firmware))
}

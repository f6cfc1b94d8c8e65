//! `Loader`: the on-chip serial loader, the device side of `firmware-loader/PROTOCOL.md` in
//! hardware. It receives frames ([`FrameRx`]), executes INFO, STATUS, BEGIN, WRITE, COMMIT, RUN,
//! READ, RESET and SET_BAUD exactly as the protocol's executable model
//! (`firmware_loader::device::Device`) does, drives the shader core through its host port
//! ([`crate::host_port`]) and sends the answer ([`FrameTx`]).
//!
//! Memories: PROGRAM, CONSTANTS and TEXTURES are the core's own memories (instruction memory, K,
//! texture memory; written byte by byte with read-modify-write through the host port, read back
//! the same way). The loader's memory is one 2 KiB block RAM ([`Bram`], 4 x `SB_RAM40_4K`) holding the
//! frame buffer and the INPUTS, OUTPUTS, RESULTS, PARAMS and MAPS regions ([`layout`]). One CRC-32 unit serves the frame receiver, the
//! transmitter and COMMIT, which never overlap.
//!
//! Deviations from the model, both documented in `PROTOCOL.md`: the line rate is fixed per build
//! (SET_BAUD acknowledges only the current rate and refuses the others with BAD_BAUD); bytes that
//! arrive while a request is executed or answered are discarded (the host waits for each answer).
//!
//! Running a quad: `clear`, the INPUTS words of each MAPS input entry into its register (words
//! beyond the input stride are 0), then once per RUN the PARAMS slots into the core's K memory,
//! `start` with a budget of [`RUN_BUDGET`], wait for `done`; unless the quad faulted, each output
//! entry's register into OUTPUTS (words within the output stride); its RESULTS record. A MAPS region
//! too short for the counts it states makes the first quad fault with code 1 and 0 cycles.
//!
//! Timing: bytes are handled at UART speed; a WRITE takes about 5 clocks per byte after its frame,
//! a COMMIT about 4 clocks per image byte, a RUN about 10 clocks per register word moved plus the
//! core's cycles. The answer starts within a few clocks of the end of the work.
use crate::bram::Bram;
use crate::crc32::Crc32;
use crate::frame_rx::FrameRx;
use crate::frame_tx::FrameTx;
use rust_hdl::prelude::*;
use std::collections::BTreeMap;

/// Sizes of the regions (bytes) as INFO reports them, and where they live in the loader memory.
pub mod layout {
    /// PROGRAM: 256 instructions of 16 bytes (the core's instruction memory).
    pub const PROGRAM: u32 = 4096;
    /// CONSTANTS: 64 slots of 16 bytes (the core's K memory).
    pub const CONSTANTS: u32 = 1024;
    /// TEXTURES: the texture unit's memory, 512 RGBA8 texels of 4 bytes.
    pub const TEXTURES: u32 = 2048;
    /// INPUTS region size; base in the loader memory [`INPUTS_BASE`].
    pub const INPUTS: u32 = 640;
    /// OUTPUTS region size.
    pub const OUTPUTS: u32 = 640;
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
    /// Loader-memory base of OUTPUTS (ends at the memory's end, 0x800).
    pub const OUTPUTS_BASE: u32 = 0x580;
}

/// Instruction budget of every quad a RUN executes (the default of the software engines,
/// `sim::run_io::DEFAULT_BUDGET`).
pub const RUN_BUDGET: u64 = 1_000_000;

/// Length of the INFO record.
pub const INFO_BYTES: usize = 58;

/// The loader's control states.
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum LoaderState {
    /// Waiting for a good frame (the frame receiver owns the memory's write port).
    Idle,
    /// Reading the command byte.
    Head1,
    /// Reading the sequence byte.
    Head2,
    /// Reading up to 20 payload bytes into the field registers.
    Parse,
    /// Checking the request and choosing the work.
    Exec,
    /// Writing zeros to the loader memory from `mptr` to `zend`.
    Zero,
    /// Gathering four loader-memory bytes into `word` (little-endian).
    Gather,
    /// Storing `word` as four loader-memory bytes.
    Scatter,
    /// WRITE: reading the next data byte of the frame.
    WrByte,
    /// WRITE: storing it (loader memory) or reading the core word it lands in.
    WrUse,
    /// WRITE: the core word arrived: write it back with the byte merged.
    WrCore,
    /// COMMIT: next image byte or next region.
    CmtNext,
    /// COMMIT: reading an image byte.
    CmtByte,
    /// COMMIT: comparing the CRC.
    CmtCheck,
    /// RUN: reading an inline input byte.
    RunInline,
    /// RUN: storing it in INPUTS.
    RunInlineW,
    /// RUN: results and outputs cleared; reading the MAPS header.
    RunMaps,
    /// RUN: the MAPS header's second word.
    RunMaps2,
    /// RUN: checking the MAPS counts.
    RunMapsChk,
    /// RUN: next PARAMS slot.
    RunParam,
    /// RUN: the slot's K is in `word`.
    RunParamK,
    /// RUN: next PARAMS word to the core.
    RunParamWord,
    /// RUN: writing it.
    RunParamWr,
    /// RUN: starting a quad (`clear`).
    RunQuad,
    /// RUN: waiting for the clear.
    RunClear,
    /// RUN: next input entry.
    RunIn,
    /// RUN: the entry's register is in `word`.
    RunInReg,
    /// RUN: next input word.
    RunInWord,
    /// RUN: writing it to the core.
    RunInWr,
    /// RUN: `start`.
    RunGo,
    /// RUN: waiting for `done`.
    RunWait,
    /// RUN: next output entry.
    RunOut,
    /// RUN: the entry's register is in `word`.
    RunOutReg,
    /// RUN: next output word.
    RunOutWord,
    /// RUN: reading it from the core.
    RunOutRd,
    /// RUN: writing the quad's RESULTS record.
    RunRes,
    /// RUN: next quad or the end.
    RunNext,
    /// Answer: recording the NAK reason.
    AnsStart,
    /// Answer: the header and result bytes.
    AnsHead,
    /// Answer: addressing the next data byte.
    AnsFetch,
    /// Answer: offering it.
    AnsSend,
    /// Answer: waiting for the frame to leave.
    AnsDone,
}

/// What the data of an answer is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum AnswerKind {
    /// The INFO record (ROM).
    Info,
    /// The STATUS record.
    Status,
    /// The RUN summary.
    Run,
    /// READ of a core memory.
    ReadCore,
    /// READ of the loader memory.
    ReadMem,
}

/// The loader; see the module documentation.
#[derive(LogicBlock)]
pub struct Loader {
    /// The clock everything is synchronous to.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset (the board's button): back to waiting for a request, no image, counters
    /// cleared. An answer being sent is finished first, so the line never carries half a frame.
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
    crc: Crc32,
    info: ROM<Bits<8>, 6>,
    isa_hash: Constant<Bits<32>>,
    baud: Constant<Bits<32>>,
    run_budget: Constant<Bits<32>>,
    state: DFF<LoaderState>,
    ret: DFF<LoaderState>,
    kind: DFF<AnswerKind>,
    // Request: header, then the payload fields, narrowed as they arrive (flags for the values no
    // check lets through).
    cmd: DFF<Bits<8>>,
    seq: DFF<Bits<8>>,
    plen: DFF<Bits<9>>,
    pend: DFF<Bits<9>>,
    pidx: DFF<Bits<5>>,
    // The last four payload bytes (little-endian); later the word being moved.
    acc: DFF<Bits<32>>,
    region: DFF<Bits<3>>,
    region_bad: DFF<Bit>,
    addr: DFF<Bits<13>>,
    addr_big: DFF<Bit>,
    rlen: DFF<Bits<8>>,
    rlen_bad: DFF<Bit>,
    quads: DFF<Bits<4>>,
    quads_bad: DFF<Bit>,
    istride: DFF<Bits<10>>,
    istride_big: DFF<Bit>,
    ostride: DFF<Bits<10>>,
    ostride_big: DFF<Bit>,
    isa_ok: DFF<Bit>,
    baud_ok: DFF<Bit>,
    range_ok: DFF<Bit>,
    nl0: DFF<Bits<13>>,
    nl1: DFF<Bits<11>>,
    nl2: DFF<Bits<12>>,
    nl3: DFF<Bits<8>>,
    // Device state (STATUS).
    ld: DFF<Bits<2>>,
    len_prog: DFF<Bits<13>>,
    len_const: DFF<Bits<11>>,
    len_tex: DFF<Bits<12>>,
    len_maps: DFF<Bits<8>>,
    active_crc: DFF<Bits<32>>,
    staged: DFF<Bits<32>>,
    last_nak: DFF<Bits<4>>,
    quads_run: DFF<Bits<4>>,
    run_fault: DFF<Bits<4>>,
    run_cycles: DFF<Bits<32>>,
    bad_frames: DFF<Bits<16>>,
    // Work registers.
    reason: DFF<Bits<4>>,
    ans_len: DFF<Bits<9>>,
    aidx: DFF<Bits<3>>,
    didx: DFF<Bits<9>>,
    abyte: DFF<Bits<8>>,
    lat: DFF<Bits<2>>,
    ptr: DFF<Bits<13>>,
    cnt: DFF<Bits<13>>,
    fptr: DFF<Bits<9>>,
    mptr: DFF<Bits<11>>,
    zero_outputs: DFF<Bit>,
    eptr: DFF<Bits<11>>,
    caddr: DFF<Bits<13>>,
    gk: DFF<Bits<3>>,
    seg: DFF<Bits<2>>,
    q: DFF<Bits<4>>,
    qin: DFF<Bits<11>>,
    qout: DFF<Bits<11>>,
    mapn: DFF<Bits<6>>,
    mapm: DFF<Bits<6>>,
    mapp: DFF<Bits<6>>,
    maps_big: DFF<Bit>,
    ent: DFF<Bits<6>>,
    off: DFF<Bits<12>>,
    wk: DFF<Bits<5>>,
    kslot: DFF<Bits<6>>,
    k16: DFF<Bit>,
    k64: DFF<Bit>,
    creg: DFF<Bits<8>>,
    // Combinational helpers.
    accn: Signal<Local, Bits<32>>,
    rsize: Signal<Local, Bits<14>>,
    wlimit: Signal<Local, Bits<14>>,
    rbase: Signal<Local, Bits<11>>,
    rcore: Signal<Local, Bit>,
    cbase: Signal<Local, Bits<13>>,
    rbyte: Signal<Local, Bits<8>>,
    merged: Signal<Local, Bits<32>>,
    wend: Signal<Local, Bits<14>>,
    rend: Signal<Local, Bits<14>>,
    maps_need: Signal<Local, Bits<10>>,
    cyc_sum: Signal<Local, Bits<33>>,
    staged_sum: Signal<Local, Bits<33>>,
    status_byte: Signal<Local, Bits<8>>,
    run_byte: Signal<Local, Bits<8>>,
    head_byte: Signal<Local, Bits<8>>,
    shown_crc: Signal<Local, Bits<32>>,
    nj: Signal<Local, Bits<6>>,
    stride_max: Signal<Local, Bits<10>>,
}

impl Loader {
    /// A loader for a core whose configuration hashes to `isa_hash`, answering INFO with `info`
    /// (the 58-byte record, built from [`layout`] by the caller) and working at `baud`. Segments
    /// stall for `timeout_clocks` are dropped (20 ms at the core clock per the protocol).
    pub fn new(isa_hash: u32, baud: u32, info: &[u8; INFO_BYTES], timeout_clocks: u64) -> Loader {
        let rom: BTreeMap<Bits<6>, Bits<8>> = info
            .iter()
            .enumerate()
            .map(|(i, &b)| (i.to_bits(), u64::from(b).to_bits()))
            .collect();
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
            mem: Default::default(),
            crc: Default::default(),
            info: ROM::new(rom),
            isa_hash: Constant::new(u64::from(isa_hash).to_bits()),
            baud: Constant::new(u64::from(baud).to_bits()),
            run_budget: Constant::new(RUN_BUDGET.to_bits()),
            state: Default::default(),
            ret: Default::default(),
            kind: Default::default(),
            cmd: Default::default(),
            seq: Default::default(),
            plen: Default::default(),
            pend: Default::default(),
            pidx: Default::default(),
            acc: Default::default(),
            region: Default::default(),
            region_bad: Default::default(),
            addr: Default::default(),
            addr_big: Default::default(),
            rlen: Default::default(),
            rlen_bad: Default::default(),
            quads: Default::default(),
            quads_bad: Default::default(),
            istride: Default::default(),
            istride_big: Default::default(),
            ostride: Default::default(),
            ostride_big: Default::default(),
            isa_ok: Default::default(),
            baud_ok: Default::default(),
            range_ok: Default::default(),
            nl0: Default::default(),
            nl1: Default::default(),
            nl2: Default::default(),
            nl3: Default::default(),
            ld: Default::default(),
            len_prog: Default::default(),
            len_const: Default::default(),
            len_tex: Default::default(),
            len_maps: Default::default(),
            active_crc: Default::default(),
            staged: Default::default(),
            last_nak: Default::default(),
            quads_run: Default::default(),
            run_fault: Default::default(),
            run_cycles: Default::default(),
            bad_frames: Default::default(),
            reason: Default::default(),
            ans_len: Default::default(),
            aidx: Default::default(),
            didx: Default::default(),
            abyte: Default::default(),
            lat: Default::default(),
            ptr: Default::default(),
            cnt: Default::default(),
            fptr: Default::default(),
            mptr: Default::default(),
            zero_outputs: Default::default(),
            eptr: Default::default(),
            caddr: Default::default(),
            gk: Default::default(),
            seg: Default::default(),
            q: Default::default(),
            qin: Default::default(),
            qout: Default::default(),
            mapn: Default::default(),
            mapm: Default::default(),
            mapp: Default::default(),
            maps_big: Default::default(),
            ent: Default::default(),
            off: Default::default(),
            wk: Default::default(),
            kslot: Default::default(),
            k16: Default::default(),
            k64: Default::default(),
            creg: Default::default(),
            accn: Default::default(),
            rsize: Default::default(),
            wlimit: Default::default(),
            rbase: Default::default(),
            rcore: Default::default(),
            cbase: Default::default(),
            rbyte: Default::default(),
            merged: Default::default(),
            wend: Default::default(),
            rend: Default::default(),
            maps_need: Default::default(),
            cyc_sum: Default::default(),
            staged_sum: Default::default(),
            status_byte: Default::default(),
            run_byte: Default::default(),
            head_byte: Default::default(),
            shown_crc: Default::default(),
            nj: Default::default(),
            stride_max: Default::default(),
        }
    }
}

impl Logic for Loader {
    #[hdl_gen]
    #[allow(clippy::collapsible_match, clippy::collapsible_else_if)]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state,
            ret,
            kind,
            cmd,
            seq,
            plen,
            pend,
            pidx,
            acc,
            region,
            region_bad,
            addr,
            addr_big,
            rlen,
            rlen_bad,
            quads,
            quads_bad,
            istride,
            istride_big,
            ostride,
            ostride_big,
            isa_ok,
            baud_ok,
            range_ok,
            nl0,
            nl1,
            nl2,
            nl3,
            ld,
            len_prog,
            len_const,
            len_tex,
            len_maps,
            active_crc,
            staged,
            last_nak,
            quads_run,
            run_fault,
            run_cycles,
            bad_frames,
            reason,
            ans_len,
            aidx,
            didx,
            abyte,
            lat,
            ptr,
            cnt,
            fptr,
            mptr,
            zero_outputs,
            eptr,
            caddr,
            gk,
            seg,
            q,
            qin,
            qout,
            mapn,
            mapm,
            mapp,
            maps_big,
            ent,
            off,
            wk,
            kslot,
            k16,
            k64,
            creg
        );
        clock!(self, clock, frame_rx, frame_tx, mem, crc);

        // ---- Defaults.
        self.frame_rx.data.next = self.rx_data.val();
        self.frame_rx.valid.next = self.rx_valid.val();
        self.frame_rx.enable.next = (self.state.q.val() == LoaderState::Idle) & !self.reset.val();
        self.frame_rx.crc.next = self.crc.crc.val();
        self.frame_tx.crc.next = self.crc.crc.val();
        self.tx_data.next = self.frame_tx.tx_data.val();
        self.tx_valid.next = self.frame_tx.tx_offer.val();
        self.frame_tx.tx_ready.next = self.tx_ready.val();
        self.frame_tx.data.next = self.abyte.q.val();
        self.frame_tx.valid.next = false;
        self.frame_tx.last.next = false;
        self.mem.we.next = false;
        self.mem.wa.next = self.mptr.q.val();
        self.mem.wd.next = 0.into();
        self.mem.ra.next = self.mptr.q.val();
        self.crc.clear.next = false;
        self.crc.valid.next = false;
        self.info.address.next = self.didx.q.val().get_bits::<6>(0);
        self.host_addr.next = bit_cast::<16, 13>(self.caddr.q.val());
        self.host_wdata.next = self.acc.q.val();
        self.host_we.next = false;
        self.clear.next = false;
        self.start.next = false;
        self.budget.next = self.run_budget.val();
        self.load_state.next = self.ld.q.val();
        self.running.next = self.state.q.val() == LoaderState::RunWait;
        self.faulted.next = self.run_fault.q.val() != 0;
        self.idle.next = self.state.q.val() == LoaderState::Idle;
        self.dropped.next = self.frame_rx.bad.val();
        if self.frame_rx.bad.val() & (self.bad_frames.q.val() != 0xFFFF) {
            self.bad_frames.d.next = self.bad_frames.q.val() + 1;
        }

        // ---- Combinational helpers.
        self.accn.next = (bit_cast::<32, 8>(self.mem.rd.val()) << 24) | (self.acc.q.val() >> 8);
        self.wend.next =
            bit_cast::<14, 13>(self.addr.q.val()) + bit_cast::<14, 9>(self.plen.q.val()) - 5;
        self.rend.next =
            bit_cast::<14, 13>(self.addr.q.val()) + bit_cast::<14, 8>(self.rlen.q.val());
        self.staged_sum.next =
            bit_cast::<33, 32>(self.staged.q.val()) + bit_cast::<33, 9>(self.plen.q.val()) - 5;
        self.cyc_sum.next =
            bit_cast::<33, 32>(self.run_cycles.q.val()) + bit_cast::<33, 32>(self.cycles.val());
        self.maps_need.next = ((bit_cast::<10, 6>(self.mapn.q.val())
            + bit_cast::<10, 6>(self.mapm.q.val())
            + bit_cast::<10, 6>(self.mapp.q.val()))
            << 2)
            + 8;
        self.nj.next = self.mapn.q.val() + self.ent.q.val();
        // The largest stride `quads` quads of which fit 640 bytes.
        self.stride_max.next = 640.into();
        match self.quads.q.val().index() {
            2 => self.stride_max.next = 320.into(),
            3 => self.stride_max.next = 213.into(),
            4 => self.stride_max.next = 160.into(),
            5 => self.stride_max.next = 128.into(),
            6 => self.stride_max.next = 106.into(),
            7 => self.stride_max.next = 91.into(),
            8 => self.stride_max.next = 80.into(),
            _ => {}
        }
        self.rsize.next = 0.into();
        self.wlimit.next = 0.into();
        self.rbase.next = 0.into();
        self.rcore.next = false;
        self.cbase.next = 0.into();
        match self.region.q.val().index() {
            0 => {
                self.rsize.next = 4096.into();
                self.wlimit.next = bit_cast::<14, 13>(self.len_prog.q.val());
                self.rcore.next = true;
            }
            1 => {
                self.rsize.next = 1024.into();
                self.wlimit.next = bit_cast::<14, 11>(self.len_const.q.val());
                self.rcore.next = true;
                self.cbase.next = 0x400.into();
            }
            2 => {
                self.rsize.next = 2048.into();
                self.wlimit.next = bit_cast::<14, 12>(self.len_tex.q.val());
                self.rcore.next = true;
                self.cbase.next = 0x1000.into();
            }
            3 => {
                self.rsize.next = 640.into();
                self.wlimit.next = 640.into();
                self.rbase.next = 0x300.into();
            }
            4 => {
                self.rsize.next = 640.into();
                self.rbase.next = 0x580.into();
            }
            5 => {
                self.rsize.next = 64.into();
                self.rbase.next = 0x110.into();
            }
            6 => {
                self.rsize.next = 256.into();
                self.wlimit.next = 256.into();
                self.rbase.next = 0x200.into();
            }
            7 => {
                self.rsize.next = 176.into();
                self.wlimit.next = bit_cast::<14, 8>(self.len_maps.q.val());
                self.rbase.next = 0x150.into();
            }
            _ => {}
        }
        // The byte of the core word on `host_rdata` that `ptr` addresses.
        self.rbyte.next = self.host_rdata.val().get_bits::<8>(0);
        match self.ptr.q.val().get_bits::<2>(0).index() {
            1 => self.rbyte.next = self.host_rdata.val().get_bits::<8>(8),
            2 => self.rbyte.next = self.host_rdata.val().get_bits::<8>(16),
            3 => self.rbyte.next = self.host_rdata.val().get_bits::<8>(24),
            _ => {}
        }
        self.crc.data.next = self.rbyte.val();
        // That word with the byte `abyte` put in its place.
        self.merged.next =
            (self.host_rdata.val() & !bits::<32>(0xFF)) | bit_cast::<32, 8>(self.abyte.q.val());
        match self.ptr.q.val().get_bits::<2>(0).index() {
            1 => {
                self.merged.next = (self.host_rdata.val() & !bits::<32>(0xFF00))
                    | (bit_cast::<32, 8>(self.abyte.q.val()) << 8)
            }
            2 => {
                self.merged.next = (self.host_rdata.val() & !bits::<32>(0xFF_0000))
                    | (bit_cast::<32, 8>(self.abyte.q.val()) << 16)
            }
            3 => {
                self.merged.next = (self.host_rdata.val() & bits::<32>(0xFF_FFFF))
                    | (bit_cast::<32, 8>(self.abyte.q.val()) << 24)
            }
            _ => {}
        }
        // Answer bytes from registers.
        self.shown_crc.next = 0.into();
        if self.ld.q.val() == 2 {
            self.shown_crc.next = self.active_crc.q.val();
        }
        self.status_byte.next = 0.into();
        match self.didx.q.val().index() {
            0 => self.status_byte.next = bit_cast::<8, 2>(self.ld.q.val()),
            1 => self.status_byte.next = bit_cast::<8, 4>(self.last_nak.q.val()),
            2 => self.status_byte.next = self.shown_crc.val().get_bits::<8>(0),
            3 => self.status_byte.next = self.shown_crc.val().get_bits::<8>(8),
            4 => self.status_byte.next = self.shown_crc.val().get_bits::<8>(16),
            5 => self.status_byte.next = self.shown_crc.val().get_bits::<8>(24),
            6 => self.status_byte.next = self.staged.q.val().get_bits::<8>(0),
            7 => self.status_byte.next = self.staged.q.val().get_bits::<8>(8),
            8 => self.status_byte.next = self.staged.q.val().get_bits::<8>(16),
            9 => self.status_byte.next = self.staged.q.val().get_bits::<8>(24),
            10 => self.status_byte.next = bit_cast::<8, 4>(self.quads_run.q.val()),
            12 => self.status_byte.next = bit_cast::<8, 4>(self.run_fault.q.val()),
            14 => self.status_byte.next = self.run_cycles.q.val().get_bits::<8>(0),
            15 => self.status_byte.next = self.run_cycles.q.val().get_bits::<8>(8),
            16 => self.status_byte.next = self.run_cycles.q.val().get_bits::<8>(16),
            17 => self.status_byte.next = self.run_cycles.q.val().get_bits::<8>(24),
            18 => self.status_byte.next = self.bad_frames.q.val().get_bits::<8>(0),
            19 => self.status_byte.next = self.bad_frames.q.val().get_bits::<8>(8),
            _ => {}
        }
        self.run_byte.next = self.mem.rd.val();
        match self.didx.q.val().index() {
            0 => self.run_byte.next = bit_cast::<8, 4>(self.run_fault.q.val()),
            1 => self.run_byte.next = bit_cast::<8, 4>(self.quads_run.q.val()),
            2 => self.run_byte.next = 0.into(),
            3 => self.run_byte.next = self.run_cycles.q.val().get_bits::<8>(0),
            4 => self.run_byte.next = self.run_cycles.q.val().get_bits::<8>(8),
            5 => self.run_byte.next = self.run_cycles.q.val().get_bits::<8>(16),
            6 => self.run_byte.next = self.run_cycles.q.val().get_bits::<8>(24),
            _ => {}
        }
        self.head_byte.next = bit_cast::<8, 4>(self.reason.q.val());
        match self.aidx.q.val().index() {
            0 => self.head_byte.next = self.ans_len.q.val().get_bits::<8>(0),
            1 => self.head_byte.next = bit_cast::<8, 1>(self.ans_len.q.val().get_bit(8).into()),
            2 => self.head_byte.next = self.cmd.q.val() | 0x80,
            3 => self.head_byte.next = self.seq.q.val(),
            _ => {}
        }

        // ---- The state machine.
        match self.state.q.val() {
            LoaderState::Idle => {
                self.mem.we.next = self.frame_rx.we.val();
                self.mem.wa.next = bit_cast::<11, 9>(self.frame_rx.wa.val());
                self.mem.wd.next = self.frame_rx.wd.val();
                self.mem.ra.next = 2.into();
                if self.frame_rx.good.val() {
                    self.plen.d.next = self.frame_rx.body_len.val() - 8;
                    self.pend.d.next = self.frame_rx.body_len.val() - 8;
                    if self.frame_rx.body_len.val() > 28 {
                        self.pend.d.next = 20.into();
                    }
                    self.state.d.next = LoaderState::Head1;
                }
            }
            LoaderState::Head1 => {
                self.mem.ra.next = 3.into();
                self.cmd.d.next = self.mem.rd.val();
                self.state.d.next = LoaderState::Head2;
            }
            LoaderState::Head2 => {
                self.mem.ra.next = 4.into();
                self.seq.d.next = self.mem.rd.val();
                self.pidx.d.next = 0.into();
                self.range_ok.d.next = true;
                self.state.d.next = LoaderState::Parse;
            }
            LoaderState::Parse => {
                // At index i payload byte i is on `rd`; the read of byte i + 1 is issued.
                self.mem.ra.next = bit_cast::<11, 5>(self.pidx.q.val()) + 5;
                self.pidx.d.next = self.pidx.q.val() + 1;
                if bit_cast::<9, 5>(self.pidx.q.val()) != self.pend.q.val() {
                    self.acc.d.next = self.accn.val();
                    match self.pidx.q.val().index() {
                        0 => {
                            self.region.d.next = self.mem.rd.val().get_bits::<3>(0);
                            self.region_bad.d.next = self.mem.rd.val() > 7;
                        }
                        1 => {
                            self.quads.d.next = self.accn.val().get_bits::<4>(16);
                            self.quads_bad.d.next = (self.accn.val().get_bits::<16>(16) == 0)
                                | (self.accn.val().get_bits::<16>(16) > 8);
                        }
                        3 => {
                            self.isa_ok.d.next = self.accn.val() == self.isa_hash.val();
                            self.baud_ok.d.next = self.accn.val() == self.baud.val();
                            self.istride.d.next = self.accn.val().get_bits::<10>(16);
                            self.istride_big.d.next = self.accn.val().get_bits::<16>(16) > 640;
                        }
                        4 => {
                            self.addr.d.next = self.accn.val().get_bits::<13>(0);
                            self.addr_big.d.next = self.accn.val() > 4096;
                        }
                        5 => {
                            self.ostride.d.next = self.accn.val().get_bits::<10>(16);
                            self.ostride_big.d.next = self.accn.val().get_bits::<16>(16) > 640;
                        }
                        6 => {
                            self.rlen.d.next = self.accn.val().get_bits::<8>(16);
                            self.rlen_bad.d.next = (self.accn.val().get_bits::<16>(16) == 0)
                                | (self.accn.val().get_bits::<16>(16) > 255);
                        }
                        7 => {
                            self.nl0.d.next = self.accn.val().get_bits::<13>(0);
                            if self.accn.val() > 4096 {
                                self.range_ok.d.next = false;
                            }
                        }
                        11 => {
                            self.nl1.d.next = self.accn.val().get_bits::<11>(0);
                            if self.accn.val() > 1024 {
                                self.range_ok.d.next = false;
                            }
                        }
                        15 => {
                            self.nl2.d.next = self.accn.val().get_bits::<12>(0);
                            if self.accn.val() > 2048 {
                                self.range_ok.d.next = false;
                            }
                        }
                        19 => {
                            self.nl3.d.next = self.accn.val().get_bits::<8>(0);
                            if self.accn.val() > 176 {
                                self.range_ok.d.next = false;
                            }
                        }
                        _ => {}
                    }
                } else {
                    self.state.d.next = LoaderState::Exec;
                }
            }
            LoaderState::Exec => {
                self.reason.d.next = 0.into();
                self.ans_len.d.next = 1.into();
                self.state.d.next = LoaderState::AnsStart;
                match self.cmd.q.val().index() {
                    1 => {
                        if self.plen.q.val() != 0 {
                            self.reason.d.next = 1.into();
                        } else {
                            self.kind.d.next = AnswerKind::Info;
                            self.ans_len.d.next = 59.into();
                        }
                    }
                    2 => {
                        if self.plen.q.val() != 0 {
                            self.reason.d.next = 1.into();
                        } else {
                            self.kind.d.next = AnswerKind::Status;
                            self.ans_len.d.next = 21.into();
                        }
                    }
                    3 => {
                        if self.plen.q.val() != 20 {
                            self.reason.d.next = 1.into();
                        } else if !self.isa_ok.q.val() {
                            self.reason.d.next = 8.into();
                        } else if !self.range_ok.q.val() {
                            self.reason.d.next = 3.into();
                        } else {
                            self.ld.d.next = 1.into();
                            self.len_prog.d.next = self.nl0.q.val();
                            self.len_const.d.next = self.nl1.q.val();
                            self.len_tex.d.next = self.nl2.q.val();
                            self.len_maps.d.next = self.nl3.q.val();
                            self.active_crc.d.next = 0.into();
                            self.staged.d.next = 0.into();
                            self.quads_run.d.next = 0.into();
                            self.run_fault.d.next = 0.into();
                            self.run_cycles.d.next = 0.into();
                            self.mptr.d.next = 0x110.into();
                            self.zero_outputs.d.next = false;
                            self.ret.d.next = LoaderState::AnsStart;
                            self.state.d.next = LoaderState::Zero;
                        }
                    }
                    4 => {
                        if self.plen.q.val() <= 5 {
                            self.reason.d.next = 1.into();
                        } else if self.region_bad.q.val()
                            | (self.region.q.val() == 4)
                            | (self.region.q.val() == 5)
                        {
                            self.reason.d.next = 5.into();
                        } else if ((self.region.q.val() < 3) | (self.region.q.val() == 7))
                            & (self.ld.q.val() != 1)
                            & (self.ld.q.val() != 3)
                        {
                            self.reason.d.next = 4.into();
                        } else if self.addr_big.q.val() | (self.wend.val() > self.wlimit.val()) {
                            self.reason.d.next = 3.into();
                        } else {
                            self.ptr.d.next = self.addr.q.val();
                            self.fptr.d.next = 9.into();
                            self.cnt.d.next = bit_cast::<13, 9>(self.plen.q.val()) - 5;
                            self.state.d.next = LoaderState::WrByte;
                        }
                    }
                    5 => {
                        if self.plen.q.val() != 4 {
                            self.reason.d.next = 1.into();
                        } else if self.ld.q.val() == 0 {
                            self.reason.d.next = 4.into();
                        } else if self.ld.q.val() == 2 {
                            if self.acc.q.val() != self.active_crc.q.val() {
                                self.reason.d.next = 6.into();
                            }
                        } else {
                            self.crc.clear.next = true;
                            self.seg.d.next = 0.into();
                            self.ptr.d.next = 0.into();
                            self.cnt.d.next = self.len_prog.q.val();
                            self.state.d.next = LoaderState::CmtNext;
                        }
                    }
                    6 => {
                        if self.plen.q.val() < 6 {
                            self.reason.d.next = 1.into();
                        } else if self.ld.q.val() != 2 {
                            self.reason.d.next = 7.into();
                        } else if self.quads_bad.q.val()
                            | self.istride_big.q.val()
                            | self.ostride_big.q.val()
                            | (self.istride.q.val() > self.stride_max.val())
                            | (self.ostride.q.val() > self.stride_max.val())
                        {
                            self.reason.d.next = 10.into();
                        } else {
                            self.fptr.d.next = 10.into();
                            self.mptr.d.next = 0x300.into();
                            self.cnt.d.next = bit_cast::<13, 9>(self.plen.q.val()) - 6;
                            self.state.d.next = LoaderState::RunInline;
                        }
                    }
                    7 => {
                        if self.plen.q.val() != 7 {
                            self.reason.d.next = 1.into();
                        } else if self.region_bad.q.val() {
                            self.reason.d.next = 5.into();
                        } else if self.rlen_bad.q.val() {
                            self.reason.d.next = 1.into();
                        } else if self.addr_big.q.val() | (self.rend.val() > self.rsize.val()) {
                            self.reason.d.next = 3.into();
                        } else {
                            self.ptr.d.next = self.addr.q.val();
                            self.ans_len.d.next = bit_cast::<9, 8>(self.rlen.q.val()) + 1;
                            if self.rcore.val() {
                                self.kind.d.next = AnswerKind::ReadCore;
                            } else {
                                self.kind.d.next = AnswerKind::ReadMem;
                            }
                        }
                    }
                    8 => {
                        if self.plen.q.val() != 0 {
                            self.reason.d.next = 1.into();
                        } else {
                            if self.ld.q.val() != 2 {
                                self.ld.d.next = 0.into();
                            }
                            self.last_nak.d.next = 0.into();
                            self.quads_run.d.next = 0.into();
                            self.run_fault.d.next = 0.into();
                            self.run_cycles.d.next = 0.into();
                            self.mptr.d.next = 0x110.into();
                            self.zero_outputs.d.next = false;
                            self.ret.d.next = LoaderState::AnsStart;
                            self.state.d.next = LoaderState::Zero;
                        }
                    }
                    9 => {
                        if self.plen.q.val() != 4 {
                            self.reason.d.next = 1.into();
                        } else if !self.baud_ok.q.val() {
                            self.reason.d.next = 9.into();
                        }
                    }
                    _ => {
                        if self.cmd.q.val().get_bit(7) {
                            // An answer: ignored, never answered.
                            self.state.d.next = LoaderState::Idle;
                        } else {
                            self.reason.d.next = 2.into();
                        }
                    }
                }
            }
            LoaderState::Zero => {
                // RESULTS ends at 0x150; OUTPUTS at the end of the memory.
                if !self.zero_outputs.q.val() & (self.mptr.q.val() == 0x150) {
                    self.state.d.next = self.ret.q.val();
                } else {
                    self.mem.we.next = true;
                    self.mptr.d.next = self.mptr.q.val() + 1;
                    if self.zero_outputs.q.val() & (self.mptr.q.val() == 0x7FF) {
                        self.state.d.next = self.ret.q.val();
                    }
                }
            }
            LoaderState::Gather => {
                // Byte k is read at gk = k and arrives at gk = k + 1.
                if self.gk.q.val() != 0 {
                    self.acc.d.next = self.accn.val();
                }
                if self.gk.q.val() == 4 {
                    self.gk.d.next = 0.into();
                    self.state.d.next = self.ret.q.val();
                } else {
                    self.mptr.d.next = self.mptr.q.val() + 1;
                    self.gk.d.next = self.gk.q.val() + 1;
                }
            }
            LoaderState::Scatter => {
                self.mem.we.next = true;
                self.mem.wd.next = self.acc.q.val().get_bits::<8>(0);
                self.acc.d.next = self.acc.q.val() >> 8;
                self.mptr.d.next = self.mptr.q.val() + 1;
                if self.gk.q.val() == 3 {
                    self.gk.d.next = 0.into();
                    self.state.d.next = self.ret.q.val();
                } else {
                    self.gk.d.next = self.gk.q.val() + 1;
                }
            }
            // ---- WRITE.
            LoaderState::WrByte => {
                self.mem.ra.next = bit_cast::<11, 9>(self.fptr.q.val());
                self.fptr.d.next = self.fptr.q.val() + 1;
                self.lat.d.next = 0.into();
                self.state.d.next = LoaderState::WrUse;
            }
            LoaderState::WrUse => {
                self.abyte.d.next = self.mem.rd.val();
                self.caddr.d.next =
                    self.cbase.val() + bit_cast::<13, 11>(self.ptr.q.val().get_bits::<11>(2));
                if self.rcore.val() {
                    self.state.d.next = LoaderState::WrCore;
                } else {
                    self.mem.we.next = true;
                    self.mem.wa.next = self.rbase.val() + self.ptr.q.val().get_bits::<11>(0);
                    self.mem.wd.next = self.mem.rd.val();
                    self.ptr.d.next = self.ptr.q.val() + 1;
                    self.cnt.d.next = self.cnt.q.val() - 1;
                    self.state.d.next = LoaderState::WrByte;
                    if self.cnt.q.val() == 1 {
                        self.state.d.next = LoaderState::AnsStart;
                        if self.region.q.val() == 7 {
                            self.ld.d.next = 1.into();
                            self.staged.d.next = self.staged_sum.val().get_bits::<32>(0);
                            if self.staged_sum.val().get_bit(32) {
                                self.staged.d.next = !bits::<32>(0);
                            }
                        }
                    }
                }
            }
            LoaderState::WrCore => {
                self.lat.d.next = self.lat.q.val() + 1;
                if self.lat.q.val() == 2 {
                    self.host_we.next = true;
                    self.host_wdata.next = self.merged.val();
                    self.ptr.d.next = self.ptr.q.val() + 1;
                    self.cnt.d.next = self.cnt.q.val() - 1;
                    self.state.d.next = LoaderState::WrByte;
                    if self.cnt.q.val() == 1 {
                        self.state.d.next = LoaderState::AnsStart;
                        self.ld.d.next = 1.into();
                        self.staged.d.next = self.staged_sum.val().get_bits::<32>(0);
                        if self.staged_sum.val().get_bit(32) {
                            self.staged.d.next = !bits::<32>(0);
                        }
                    }
                }
            }
            // ---- COMMIT: CRC over PROGRAM, CONSTANTS, TEXTURES, MAPS.
            LoaderState::CmtNext => {
                self.lat.d.next = 0.into();
                self.caddr.d.next = bit_cast::<13, 11>(self.ptr.q.val().get_bits::<11>(2));
                if self.seg.q.val() == 1 {
                    self.caddr.d.next =
                        bit_cast::<13, 11>(self.ptr.q.val().get_bits::<11>(2)) + 0x400;
                }
                if self.seg.q.val() == 2 {
                    self.caddr.d.next =
                        bit_cast::<13, 11>(self.ptr.q.val().get_bits::<11>(2)) + 0x1000;
                }
                self.mptr.d.next = self.ptr.q.val().get_bits::<11>(0) + 0x150;
                if self.cnt.q.val() != 0 {
                    self.state.d.next = LoaderState::CmtByte;
                } else {
                    self.ptr.d.next = 0.into();
                    self.seg.d.next = self.seg.q.val() + 1;
                    if self.seg.q.val() == 0 {
                        self.cnt.d.next = bit_cast::<13, 11>(self.len_const.q.val());
                    } else if self.seg.q.val() == 1 {
                        self.cnt.d.next = bit_cast::<13, 12>(self.len_tex.q.val());
                    } else if self.seg.q.val() == 2 {
                        self.cnt.d.next = bit_cast::<13, 8>(self.len_maps.q.val());
                    } else {
                        self.state.d.next = LoaderState::CmtCheck;
                    }
                }
            }
            LoaderState::CmtByte => {
                self.lat.d.next = self.lat.q.val() + 1;
                if self.lat.q.val() == 2 {
                    self.crc.valid.next = true;
                    if self.seg.q.val() == 3 {
                        self.crc.data.next = self.mem.rd.val();
                    }
                    self.ptr.d.next = self.ptr.q.val() + 1;
                    self.cnt.d.next = self.cnt.q.val() - 1;
                    self.state.d.next = LoaderState::CmtNext;
                }
            }
            LoaderState::CmtCheck => {
                self.state.d.next = LoaderState::AnsStart;
                if self.crc.crc.val() == self.acc.q.val() {
                    self.ld.d.next = 2.into();
                    self.active_crc.d.next = self.acc.q.val();
                } else {
                    self.ld.d.next = 3.into();
                    self.reason.d.next = 6.into();
                }
            }
            // ---- RUN.
            LoaderState::RunInline => {
                self.mem.ra.next = bit_cast::<11, 9>(self.fptr.q.val());
                self.fptr.d.next = self.fptr.q.val() + 1;
                if self.cnt.q.val() == 0 {
                    // Clear the run: RESULTS, then OUTPUTS, then read MAPS.
                    self.quads_run.d.next = 0.into();
                    self.run_fault.d.next = 0.into();
                    self.run_cycles.d.next = 0.into();
                    self.mptr.d.next = 0x110.into();
                    self.zero_outputs.d.next = false;
                    self.ret.d.next = LoaderState::RunMaps;
                    self.state.d.next = LoaderState::Zero;
                } else {
                    self.state.d.next = LoaderState::RunInlineW;
                }
            }
            LoaderState::RunInlineW => {
                self.mem.we.next = true;
                self.mem.wd.next = self.mem.rd.val();
                self.mptr.d.next = self.mptr.q.val() + 1;
                self.cnt.d.next = self.cnt.q.val() - 1;
                self.state.d.next = LoaderState::RunInline;
            }
            LoaderState::RunMaps => {
                if !self.zero_outputs.q.val() {
                    self.mptr.d.next = 0x580.into();
                    self.zero_outputs.d.next = true;
                    self.state.d.next = LoaderState::Zero;
                } else {
                    self.mptr.d.next = 0x150.into();
                    self.ret.d.next = LoaderState::RunMaps2;
                    self.state.d.next = LoaderState::Gather;
                }
            }
            LoaderState::RunMaps2 => {
                // Counts of 64 or more never fit the 176-byte region: flag them.
                self.mapn.d.next = self.acc.q.val().get_bits::<6>(0);
                self.mapm.d.next = self.acc.q.val().get_bits::<6>(16);
                self.maps_big.d.next = (self.acc.q.val().get_bits::<10>(6) != 0)
                    | (self.acc.q.val().get_bits::<10>(22) != 0);
                self.ret.d.next = LoaderState::RunMapsChk;
                self.state.d.next = LoaderState::Gather;
            }
            LoaderState::RunMapsChk => {
                self.mapp.d.next = self.acc.q.val().get_bits::<6>(0);
                if self.acc.q.val().get_bits::<10>(6) != 0 {
                    self.maps_big.d.next = true;
                }
                self.ent.d.next = 0.into();
                self.state.d.next = LoaderState::RunParam;
            }
            LoaderState::RunParam => {
                if self.maps_big.q.val()
                    | (self.len_maps.q.val() < 8)
                    | (bit_cast::<10, 8>(self.len_maps.q.val()) < self.maps_need.val())
                {
                    // The first quad faults with code 1.
                    self.mem.we.next = true;
                    self.mem.wa.next = 0x111.into();
                    self.mem.wd.next = 1.into();
                    self.quads_run.d.next = 1.into();
                    self.run_fault.d.next = 1.into();
                    self.kind.d.next = AnswerKind::Run;
                    self.ans_len.d.next = 9.into();
                    self.state.d.next = LoaderState::AnsStart;
                } else if self.ent.q.val() == self.mapp.q.val() {
                    self.q.d.next = 0.into();
                    self.qin.d.next = 0x300.into();
                    self.qout.d.next = 0x580.into();
                    self.state.d.next = LoaderState::RunQuad;
                } else {
                    // Param entries follow the n + m register entries.
                    if self.ent.q.val() == 0 {
                        self.mptr.d.next = bit_cast::<11, 10>(self.maps_need.val())
                            - (bit_cast::<11, 6>(self.mapp.q.val()) << 2)
                            + 0x150;
                    } else {
                        self.mptr.d.next = self.eptr.q.val();
                    }
                    self.ret.d.next = LoaderState::RunParamK;
                    self.state.d.next = LoaderState::Gather;
                }
            }
            LoaderState::RunParamK => {
                self.eptr.d.next = self.mptr.q.val();
                self.kslot.d.next = self.acc.q.val().get_bits::<6>(0);
                self.k16.d.next = self.acc.q.val().get_bits::<16>(0) < 16;
                self.k64.d.next = self.acc.q.val().get_bits::<16>(0) < 64;
                self.mptr.d.next =
                    (bit_cast::<11, 6>(self.acc.q.val().get_bits::<6>(0)) << 4) + 0x200;
                self.wk.d.next = 0.into();
                self.ent.d.next = self.ent.q.val() + 1;
                self.state.d.next = LoaderState::RunParamWord;
            }
            LoaderState::RunParamWord => {
                if self.wk.q.val() == 4 {
                    self.state.d.next = LoaderState::RunParam;
                } else if self.k16.q.val() {
                    self.ret.d.next = LoaderState::RunParamWr;
                    self.state.d.next = LoaderState::Gather;
                } else {
                    self.acc.d.next = 0.into();
                    self.state.d.next = LoaderState::RunParamWr;
                }
                self.caddr.d.next = (bit_cast::<13, 6>(self.kslot.q.val()) << 2)
                    + bit_cast::<13, 5>(self.wk.q.val())
                    + 0x400;
            }
            LoaderState::RunParamWr => {
                self.host_we.next = self.k64.q.val();
                self.wk.d.next = self.wk.q.val() + 1;
                self.state.d.next = LoaderState::RunParamWord;
            }
            LoaderState::RunQuad => {
                self.clear.next = true;
                self.lat.d.next = 0.into();
                self.state.d.next = LoaderState::RunClear;
            }
            LoaderState::RunClear => {
                if self.lat.q.val() != 3 {
                    self.lat.d.next = self.lat.q.val() + 1;
                } else if !self.busy.val() {
                    self.ent.d.next = 0.into();
                    self.off.d.next = 0.into();
                    self.state.d.next = LoaderState::RunIn;
                }
            }
            LoaderState::RunIn => {
                if self.ent.q.val() == self.mapn.q.val() {
                    self.state.d.next = LoaderState::RunGo;
                } else {
                    self.mptr.d.next = (bit_cast::<11, 6>(self.ent.q.val()) << 2) + 0x158;
                    self.ret.d.next = LoaderState::RunInReg;
                    self.state.d.next = LoaderState::Gather;
                }
            }
            LoaderState::RunInReg => {
                self.creg.d.next = self.acc.q.val().get_bits::<8>(16);
                self.wk.d.next = 0.into();
                self.ent.d.next = self.ent.q.val() + 1;
                self.state.d.next = LoaderState::RunInWord;
            }
            LoaderState::RunInWord => {
                self.caddr.d.next = (bit_cast::<13, 8>(self.creg.q.val()) << 4)
                    + bit_cast::<13, 5>(self.wk.q.val())
                    + 0x800;
                self.mptr.d.next = self.qin.q.val() + self.off.q.val().get_bits::<11>(0);
                if self.wk.q.val() == 16 {
                    self.state.d.next = LoaderState::RunIn;
                } else if (self.off.q.val() + 4) <= bit_cast::<12, 10>(self.istride.q.val()) {
                    self.ret.d.next = LoaderState::RunInWr;
                    self.state.d.next = LoaderState::Gather;
                } else {
                    self.acc.d.next = 0.into();
                    self.state.d.next = LoaderState::RunInWr;
                }
            }
            LoaderState::RunInWr => {
                self.host_we.next = true;
                self.wk.d.next = self.wk.q.val() + 1;
                self.off.d.next = self.off.q.val() + 4;
                self.state.d.next = LoaderState::RunInWord;
            }
            LoaderState::RunGo => {
                self.start.next = true;
                self.state.d.next = LoaderState::RunWait;
            }
            LoaderState::RunWait => {
                // The core holds fault, kill mask and cycles after `done` until the next start.
                if self.done.val() {
                    self.ent.d.next = 0.into();
                    self.off.d.next = 0.into();
                    self.wk.d.next = 0.into();
                    self.state.d.next = LoaderState::RunOut;
                    if self.fault.val() != 0 {
                        self.state.d.next = LoaderState::RunRes;
                    }
                }
            }
            LoaderState::RunOut => {
                if self.ent.q.val() == self.mapm.q.val() {
                    self.wk.d.next = 0.into();
                    self.state.d.next = LoaderState::RunRes;
                } else {
                    self.mptr.d.next = (bit_cast::<11, 6>(self.nj.val()) << 2) + 0x158;
                    self.ret.d.next = LoaderState::RunOutReg;
                    self.state.d.next = LoaderState::Gather;
                }
            }
            LoaderState::RunOutReg => {
                self.creg.d.next = self.acc.q.val().get_bits::<8>(16);
                self.wk.d.next = 0.into();
                self.ent.d.next = self.ent.q.val() + 1;
                self.state.d.next = LoaderState::RunOutWord;
            }
            LoaderState::RunOutWord => {
                self.caddr.d.next = (bit_cast::<13, 8>(self.creg.q.val()) << 4)
                    + bit_cast::<13, 5>(self.wk.q.val())
                    + 0x800;
                self.mptr.d.next = self.qout.q.val() + self.off.q.val().get_bits::<11>(0);
                self.lat.d.next = 0.into();
                if self.wk.q.val() == 16 {
                    self.state.d.next = LoaderState::RunOut;
                } else if (self.off.q.val() + 4) <= bit_cast::<12, 10>(self.ostride.q.val()) {
                    self.state.d.next = LoaderState::RunOutRd;
                } else {
                    self.wk.d.next = self.wk.q.val() + 1;
                    self.off.d.next = self.off.q.val() + 4;
                }
            }
            LoaderState::RunOutRd => {
                self.lat.d.next = self.lat.q.val() + 1;
                if self.lat.q.val() == 2 {
                    self.acc.d.next = self.host_rdata.val();
                    self.wk.d.next = self.wk.q.val() + 1;
                    self.off.d.next = self.off.q.val() + 4;
                    self.ret.d.next = LoaderState::RunOutWord;
                    self.state.d.next = LoaderState::Scatter;
                }
            }
            LoaderState::RunRes => {
                // RESULTS record of quad q: kill mask, fault, 0, 0, cycles (little-endian).
                self.mem.we.next = true;
                self.mem.wa.next = (bit_cast::<11, 4>(self.q.q.val()) << 3)
                    + bit_cast::<11, 5>(self.wk.q.val())
                    + 0x110;
                self.wk.d.next = self.wk.q.val() + 1;
                match self.wk.q.val().index() {
                    0 => self.mem.wd.next = bit_cast::<8, 4>(self.killed.val()),
                    1 => self.mem.wd.next = bit_cast::<8, 4>(self.fault.val()),
                    2 => self.mem.we.next = false,
                    3 => self.mem.we.next = false,
                    4 => self.mem.wd.next = self.cycles.val().get_bits::<8>(0),
                    5 => self.mem.wd.next = self.cycles.val().get_bits::<8>(8),
                    6 => self.mem.wd.next = self.cycles.val().get_bits::<8>(16),
                    _ => {
                        self.mem.wd.next = self.cycles.val().get_bits::<8>(24);
                        self.state.d.next = LoaderState::RunNext;
                    }
                }
            }
            LoaderState::RunNext => {
                self.quads_run.d.next = self.quads_run.q.val() + 1;
                self.run_cycles.d.next = self.cyc_sum.val().get_bits::<32>(0);
                if self.cyc_sum.val().get_bit(32) {
                    self.run_cycles.d.next = !bits::<32>(0);
                }
                self.q.d.next = self.q.q.val() + 1;
                self.qin.d.next = self.qin.q.val() + bit_cast::<11, 10>(self.istride.q.val());
                self.qout.d.next = self.qout.q.val() + bit_cast::<11, 10>(self.ostride.q.val());
                if (self.fault.val() != 0) | ((self.q.q.val() + 1) == self.quads.q.val()) {
                    self.run_fault.d.next = self.fault.val();
                    self.kind.d.next = AnswerKind::Run;
                    self.ans_len.d.next = bit_cast::<9, 4>(self.q.q.val()) + 9;
                    self.state.d.next = LoaderState::AnsStart;
                } else {
                    self.state.d.next = LoaderState::RunQuad;
                }
            }
            // ---- The answer.
            LoaderState::AnsStart => {
                if self.reason.q.val() != 0 {
                    self.last_nak.d.next = self.reason.q.val();
                    self.ans_len.d.next = 1.into();
                }
                self.aidx.d.next = 0.into();
                self.didx.d.next = 0.into();
                self.state.d.next = LoaderState::AnsHead;
            }
            LoaderState::AnsHead => {
                self.frame_tx.data.next = self.head_byte.val();
                self.frame_tx.valid.next = true;
                self.frame_tx.last.next = (self.aidx.q.val() == 4) & (self.ans_len.q.val() == 1);
                if self.frame_tx.ready.val() {
                    self.aidx.d.next = self.aidx.q.val() + 1;
                    if self.aidx.q.val() == 4 {
                        if self.ans_len.q.val() == 1 {
                            self.state.d.next = LoaderState::AnsDone;
                        } else {
                            self.lat.d.next = 0.into();
                            self.mptr.d.next = 0x110.into();
                            self.state.d.next = LoaderState::AnsFetch;
                        }
                    }
                }
            }
            LoaderState::AnsFetch => {
                // Three clocks for the address to reach the data (core port or memory).
                self.caddr.d.next =
                    self.cbase.val() + bit_cast::<13, 11>(self.ptr.q.val().get_bits::<11>(2));
                self.mem.ra.next = self.rbase.val() + self.ptr.q.val().get_bits::<11>(0);
                if self.kind.q.val() == AnswerKind::Run {
                    self.mem.ra.next = self.mptr.q.val();
                }
                self.lat.d.next = self.lat.q.val() + 1;
                if self.lat.q.val() == 3 {
                    match self.kind.q.val() {
                        AnswerKind::Info => self.abyte.d.next = self.info.data.val(),
                        AnswerKind::Status => self.abyte.d.next = self.status_byte.val(),
                        AnswerKind::Run => self.abyte.d.next = self.run_byte.val(),
                        AnswerKind::ReadCore => self.abyte.d.next = self.rbyte.val(),
                        AnswerKind::ReadMem => self.abyte.d.next = self.mem.rd.val(),
                    }
                    self.state.d.next = LoaderState::AnsSend;
                }
            }
            LoaderState::AnsSend => {
                self.frame_tx.valid.next = true;
                self.frame_tx.last.next = (self.didx.q.val() + 2) == self.ans_len.q.val();
                self.lat.d.next = 0.into();
                if self.frame_tx.ready.val() {
                    self.didx.d.next = self.didx.q.val() + 1;
                    self.ptr.d.next = self.ptr.q.val() + 1;
                    if self.didx.q.val() >= 7 {
                        self.mptr.d.next = self.mptr.q.val() + 8;
                    }
                    if (self.didx.q.val() + 2) == self.ans_len.q.val() {
                        self.state.d.next = LoaderState::AnsDone;
                    } else {
                        self.state.d.next = LoaderState::AnsFetch;
                    }
                }
            }
            LoaderState::AnsDone => {
                if self.frame_tx.idle.val() {
                    self.state.d.next = LoaderState::Idle;
                }
            }
        }
        // One CRC-32 unit: the frame receiver's while waiting for a request, the transmitter's
        // while answering, COMMIT's in between (they never overlap).
        if self.state.q.val() == LoaderState::Idle {
            self.crc.clear.next = self.frame_rx.crc_clear.val();
            self.crc.valid.next = self.frame_rx.crc_valid.val();
            self.crc.data.next = self.frame_rx.crc_data.val();
        }
        if (self.state.q.val() == LoaderState::AnsHead)
            | (self.state.q.val() == LoaderState::AnsFetch)
            | (self.state.q.val() == LoaderState::AnsSend)
            | (self.state.q.val() == LoaderState::AnsDone)
        {
            self.crc.clear.next = self.frame_tx.crc_clear.val();
            self.crc.valid.next = self.frame_tx.crc_valid.val();
            self.crc.data.next = self.frame_tx.crc_data.val();
        }
        if self.reset.val()
            & (self.state.q.val() != LoaderState::AnsHead)
            & (self.state.q.val() != LoaderState::AnsFetch)
            & (self.state.q.val() != LoaderState::AnsSend)
            & (self.state.q.val() != LoaderState::AnsDone)
        {
            self.state.d.next = LoaderState::Idle;
            self.ld.d.next = 0.into();
            self.active_crc.d.next = 0.into();
            self.staged.d.next = 0.into();
            self.last_nak.d.next = 0.into();
            self.quads_run.d.next = 0.into();
            self.run_fault.d.next = 0.into();
            self.run_cycles.d.next = 0.into();
            self.bad_frames.d.next = 0.into();
            self.gk.d.next = 0.into();
        }
    }
}

//! The loader's firmware: the device side of `firmware-loader/PROTOCOL.md` as a program for the
//! loader processor ([`crate::loader_isa`]), assembled per board: the ISA hash, the line rate
//! and the region sizes are read from the INFO record, which the loader memory holds from
//! configuration on ([`layout::INFO_BASE`]); the board, core count and core configuration INFO
//! sends after it are a table of the firmware; and a board with several cores (`cluster`) gets
//! the code that drives [`crate::core_mux::CoreMux`] (CORE's selection in hardware, a RUN or
//! COMMIT on every core checked) and renders through
//! [`crate::quad_dispatcher::QuadDispatcher`] instead of quad by quad.
//!
//! It follows the protocol's executable model (`firmware_loader::device::Device`) request by
//! request: check the request's fields in the model's order (the first failing check is the NAK
//! reason), do the work, answer. Request fields are read straight from the frame buffer (the
//! body starts at loader-memory address 0: length, command, sequence, payload from 4). The
//! firmware also finishes the receiver's checks (at least 8 bytes, a length field that matches)
//! and counts dropped frames, and frames its answers: END, the body through `TX` (stuffed, into
//! the CRC), the CRC through `TXC`, END.
//!
//! Written for the processor's `T`: every operation that steps `A` (all but the shifts) leaves
//! the value `A` had before it in `T`, so `LDW x` then `LDW y` then `CMPT` compares `y` with `x`
//! (the comments say what `T` holds where it matters). The dispatcher enters a handler with the
//! payload length in `A`.
use crate::host_port::{ctl, fault_code};
use crate::loader_isa::{Asm, AsmError, CpuOp::*};
use crate::loader_layout::{self as layout, VARS};
use microcode::protocol::{
    Command, DeviceConfig, LoadState, Reason, Region, ALL_CORES, ANSWER_BIT, BEGIN_BYTES,
    COMMIT_BYTES, CORE_BYTES, IMAGE_REGIONS, INFO_BYTES, INFO_RECORD_BYTES, READ_BYTES,
    RENDER_BLOCK, RENDER_BLOCK_HEADER, RENDER_BYTES, RENDER_COORD_BIAS, RENDER_END,
    RENDER_END_BYTES, RESUME_BYTES, RUN_HEADER, RUN_SUMMARY_HEADER, SET_BAUD_BYTES, STATUS_BYTES,
    WRITE_HEADER,
};

/// The protocol's numbers as the firmware's immediates.
mod cluster;
mod render;

const fn reason(r: Reason) -> u32 {
    r as u32
}
const fn state(s: LoadState) -> u32 {
    s as u32
}
const fn region(r: Region) -> u32 {
    r as u32
}
const ANSWER: u32 = ANSWER_BIT as u32;

// Variables (32-bit each; `loader_layout::VARS` of them). The first ones live across requests (a
// RUN's through its RESUMEs); the last ones are per-command scratch.
/// Load state (`microcode::protocol::LoadState`).
const LD: u32 = 0;
/// The image lengths BEGIN latched (PROGRAM, CONSTANTS, TEXTURES, MAPS: consecutive).
const LENP: u32 = 1;
const LENC: u32 = 2;
const LENT: u32 = 3;
const LENM: u32 = 4;
/// The active image's CRC (0 unless valid).
const ACRC: u32 = 5;
/// Image bytes written since BEGIN (saturating).
const STAGED: u32 = 6;
/// The last NAK reason.
const NAK: u32 = 7;
/// Quads of the current RUN started (the running or paused one included).
const QRUN: u32 = 8;
/// The RUN's fault, or the pause code it stopped at.
const RFAULT: u32 = 9;
/// The RUN's cycles (saturating).
const RCYC: u32 = 10;
/// Pauses the RUN has stopped at.
const PAUSES: u32 = 11;
/// Dropped frames (saturating at 0xFFFF).
const BADF: u32 = 12;
/// The RUN's quads and strides.
const QUADS: u32 = 13;
const ISTR: u32 = 14;
const OSTR: u32 = 15;
/// Loader-memory addresses of the current quad's INPUTS and OUTPUTS blocks.
const QIN: u32 = 16;
const QOUT: u32 = 17;
/// The RUN's cycles before the current quad.
const RBASE: u32 = 18;
/// The result byte of the answer being framed (0 but while a NAK is answered).
const REASON: u32 = 19;
// Scratch.
/// WRITE, READ: the data length.
const CNT: u32 = 20;
/// WRITE, READ: the region.
const REGION: u32 = 21;
/// WRITE, READ: the limit (first the address of the u32 holding it).
const LIM: u32 = 22;
/// WRITE, READ: the request's u32 address (payload byte 1).
const ADDR: u32 = 23;
/// WRITE to a core memory: the bytes before the first whole word, the bytes after them.
const HEADN: u32 = 24;
const REM: u32 = 25;
/// RUN: entries left, the next MAPS entry, the next INPUTS / OUTPUTS block, the stride's bytes
/// left, the direction (0 inputs into the core, else outputs out of it), the PARAMS slot.
const ENT: u32 = CNT;
const EPTR: u32 = REGION;
const BLK: u32 = LIM;
const REMB: u32 = ADDR;
const DIR: u32 = HEADN;
const KSLOT: u32 = REM;
/// RUN: a stride while the quads are checked against it; a temporary.
const TMP: u32 = CNT;
/// RENDER (a RENDER leaves no run: it reuses the run's variables and clears them at its end):
/// quads left, quads per row, the quad's column and row, quads done, record bytes, quads per
/// block, words per lane, quads in the block being filled, the buffer's next byte, the core
/// byte addresses of the coordinate and the output register, the coordinate bias, the cycles.
const R_LEFT: u32 = QUADS;
const R_ROW: u32 = ISTR;
const R_X: u32 = OSTR;
const R_Y: u32 = QIN;
const R_DONE: u32 = QOUT;
const R_REC: u32 = RBASE;
const R_BQ: u32 = CNT;
const R_LW: u32 = REGION;
const R_NB: u32 = LIM;
const R_BP: u32 = ADDR;
const R_IN: u32 = HEADN;
const R_OUT: u32 = REM;
const R_BIAS: u32 = RFAULT;
const R_CYC: u32 = RCYC;
/// RENDER's per-quad temporaries: the lane-0 coordinate words, then the output word's core
/// address and the lanes left.
const R_T1: u32 = QRUN;
const R_T2: u32 = PAUSES;
/// The core RUN, RESUME and READ address (CORE; `ALL_CORES` after power-up and RESET).
const SEL: u32 = 26;
/// A RUN on every core: the quad's fault when the cores differed (0: they agreed).
const QDIFF: u32 = KSLOT;
const _: () = assert!((SEL as usize) < VARS);

/// Loader-memory address of the INFO record's ISA hash and line rate.
const INFO_ISA: u32 = layout::INFO_BASE + 10;
const INFO_BAUD: u32 = layout::INFO_BASE + 22;

/// Loader-memory address of the INFO record's size of region `i` (PROGRAM 0 ... MAPS 6).
const fn info_size(i: u32) -> u32 {
    layout::INFO_BASE + 26 + 4 * i
}
/// Loader-memory address of variable `v`.
const fn var(v: u32) -> u32 {
    layout::VARS_BASE + 4 * v
}
/// A WRITE limit below this address is an image length variable (an image region, which needs
/// an upload in progress); the buffer regions' limits are sizes in the INFO record above it.
const IMAGE_LIMIT_BELOW: u32 = layout::INFO_BASE;
const _: () = assert!(var(LENM) < IMAGE_LIMIT_BELOW && IMAGE_LIMIT_BELOW <= info_size(0));

/// Frame-buffer address of payload byte 0.
const PAY: u32 = 4;
/// Commands are 1..=12 (CORE the last); the table has an entry for each of 0..NCMD.
const NCMD: u32 = Command::Core as u32 + 1;
/// The handlers in command-code order (the table's entry 0 is "unknown").
const HANDLERS: [(Command, &str); NCMD as usize - 1] = [
    (Command::Info, "info"),
    (Command::Status, "status"),
    (Command::Begin, "begin"),
    (Command::Write, "write"),
    (Command::Commit, "commit"),
    (Command::Run, "run"),
    (Command::Read, "read"),
    (Command::Reset, "reset"),
    (Command::SetBaud, "baud"),
    (Command::Resume, "resume"),
    (Command::Render, "render"),
    (Command::Core, "core"),
];
const _: () = {
    let mut i = 0;
    while i < HANDLERS.len() {
        assert!(HANDLERS[i].0 as usize == i + 1);
        i += 1;
    }
};
/// Core byte address of the constant file K (host-port word address times 4) is 16 times
/// this: K slot s at `16 * (s + K_SLOT_BIAS)`.
const K_SLOT_BIAS: u32 = crate::host_port::CONST_BASE as u32 / 4;
/// Core byte address of the register file R is 64 times this: register r at
/// `64 * (r + REG_BIAS)` (16 words of 4 bytes per register).
const REG_BIAS: u32 = crate::host_port::REG_BASE as u32 / 16;
const _: () = assert!(K_SLOT_BIAS * 16 == crate::host_port::CONST_BASE as u32 * 4);
const _: () = assert!(REG_BIAS * 64 == crate::host_port::REG_BASE as u32 * 4);

/// Byte address (on the host port) of the multi-core board's control register `offset`
/// (`crate::host_port::ctl`), and of its head record's kill-mask byte.
const fn ctl_byte(offset: u16) -> u32 {
    4 * (crate::host_port::CONTROL_BASE as u32 + offset as u32)
}
const RECORD_KILL_BYTE: u32 = 4 * crate::host_port::RECORD_BASE as u32 + 3;
const _: () = assert!(ctl_byte(0) == 0x700 << 4 && RECORD_KILL_BYTE == (0x600 << 4) + 3);

/// The firmware of the loader for `cfg` (its INFO record's tail: board, core count,
/// configuration) on a board with several cores (`cluster`: the mux and the render dispatcher)
/// or one. The ISA hash, the line rate and the region sizes come from the INFO record in the
/// loader memory ([`layout::INFO_BASE`]).
pub fn firmware(cfg: &DeviceConfig, cluster: bool) -> Result<Vec<u16>, AsmError> {
    let mut a = Asm::new();
    // The routines in the order they are assembled (the order fixes every address).
    boot(&mut a, cluster);
    dispatch(&mut a);
    helpers(&mut a, cfg);
    status(&mut a);
    begin(&mut a);
    write(&mut a);
    commit(&mut a, cluster);
    run_checks(&mut a);
    params(&mut a);
    run_quads(&mut a, cluster);
    run_routines(&mut a);
    resume(&mut a);
    render(&mut a, cluster);
    read(&mut a);
    reset(&mut a, cfg, cluster);
    set_baud(&mut a, cluster);
    a.finish()
}

/// Configuration and the reset button.
fn boot(a: &mut Asm, cluster: bool) {
    // ---- Configuration and the reset button: no image, every variable cleared, every core
    // selected.
    a.emit(Ldi, layout::VARS_BASE).mov("PA");
    a.emit(Ldi, VARS as u32)
        .mov("NA")
        .emit(Ldi, 0)
        .call("zloop");
    a.io("LED").io("LEDF");
    a.emit(Ldi, u32::from(ALL_CORES)).stv(SEL);
    if cluster {
        a.call("hwsel");
    }
}

/// Waiting for a request and the command table; the NAK, ACK and answer framing routines.
fn dispatch(a: &mut Asm) {
    // ---- Waiting for a request; the receiver's remaining checks (at least 8 bytes, a length
    // field equal to the payload's), then the command's handler from the table, entered with
    // A = the payload length.
    a.label("idle").io("WAITF").to(Jz, "dropped");
    a.emit(Sub, 8).to(Jc, "dropped");
    // T = the payload length.
    a.emit(Ldh, 0).emit(Cmpt, 0).to(Jne, "dropped");
    a.emit(Ldb, 2).emit(Cmp, NCMD).to(Jnc, "unknown");
    // T = the handler's address.
    a.to(Add, "commands").io("FW").emit(Ldh, 0).ja();
    // A dropped frame: counted, saturating (a count of 0x10000 is not stored).
    a.label("dropped").emit(Ldh, var(BADF)).emit(Add, 1);
    a.sh("SHR16").to(Jnz, "idle");
    a.emit(Ldh, var(BADF))
        .emit(Add, 1)
        .stv(BADF)
        .to(Jmp, "idle");
    a.label("commands").data_label("unknown");
    for (_, label) in HANDLERS {
        a.data_label(label);
    }
    // `nakN`: NAK with reason N.
    for r in [
        Reason::BadLength,
        Reason::OutOfRange,
        Reason::BadState,
        Reason::BadRegion,
        Reason::TooManyQuads,
    ] {
        a.label(&format!("nak{}", reason(r)))
            .emit(Ldi, reason(r))
            .to(Jmp, "nak");
    }
    // An answer (bit 7) is ignored; anything else is unknown.
    a.label("unknown")
        .emit(Ldb, 2)
        .emit(And, ANSWER)
        .to(Jnz, "idle");
    a.emit(Ldi, reason(Reason::UnknownCommand));
    // NAK with reason A: remembered for STATUS.
    a.label("nak").stv(NAK).stv(REASON);
    a.emit(Ldi, 1).call("head").emit(Ldi, 0).stv(REASON);
    a.to(Jmp, "fin");
    // ACK without data.
    a.label("ack").emit(Ldi, 1).call("head").to(Jmp, "fin");
    // The answer's opening END, header and result byte (REASON) for A = the result byte plus
    // the data bytes; N counts every body byte still to send. Returns to the caller, which
    // sends the data.
    a.label("head").io("CRCC").io("TXE");
    a.emit(Add, 4).mov("NA").emit(Sub, 4);
    a.io("TX").sh("SHR8").io("TX");
    // Commands with bit 7 set are never answered, so adding sets it.
    a.emit(Ldb, 2).emit(Add, ANSWER).io("TX");
    a.emit(Ldb, 3).io("TX");
    a.ldv(REASON).io("TX").ret();
    // The answer's CRC and closing END.
    a.label("fin").io("TXC").io("TXC").io("TXC").io("TXC");
    a.io("TXE").to(Jmp, "idle");
    // Four (two) bytes of A, little-endian.
    a.label("tx4").io("TX").sh("SHR8").io("TX").sh("SHR8");
    a.label("tx2").io("TX").sh("SHR8").io("TX").ret();
}

/// Routines the handlers share: clearing the run, copies, region bases and range checks.
fn helpers(a: &mut Asm, cfg: &DeviceConfig) {
    let results = layout::RESULTS_BASE;
    // The run cleared: its summary, pauses and RESULTS.
    a.label("zrun").emit(Ldi, 0);
    for v in [QRUN, RFAULT, RCYC, PAUSES] {
        a.stv(v);
    }
    a.io("LEDF");
    a.emit(Ldi, results).mov("PA");
    a.emit(Ldi, u32::from(layout::MAX_QUADS) * 2).mov("NA");
    a.emit(Ldi, 0);
    // N words of A from P.
    a.label("zloop").emit(Swp, 0).to(Djn, "zloop").ret();
    // A bytes from P to H (none when A is 0).
    a.label("copy").mov("NA").to(Jz, "copied");
    a.label("copy1").emit(Lbp, 0).emit(Sbh, 0).to(Djn, "copy1");
    a.label("copied").ret();
    // H = P = the base of region A plus ADDR: a core byte address for PROGRAM, CONSTANTS and
    // TEXTURES, a loader-memory address for the others.
    a.label("base").to(Add, "btab").io("FW");
    a.ldv(ADDR).emit(Addt, 0).mov("HA").mov("PA").ret();
    a.label("btab").data(&[
        crate::host_port::PROGRAM_BASE as u32 * 4,
        crate::host_port::CONST_BASE as u32 * 4,
        crate::host_port::TEXTURE_BASE as u32 * 4,
        layout::INPUTS_BASE,
        layout::OUTPUTS_BASE,
        layout::RESULTS_BASE,
        layout::PARAMS_BASE,
        layout::MAPS_BASE,
    ]);
    // By region, the address of the u32 a WRITE must stay within: an image length variable,
    // the INFO record's size of INPUTS or PARAMS, 0 for the regions it cannot write.
    a.label("wtab").data(&[
        var(LENP),
        var(LENC),
        var(LENT),
        info_size(3),
        0,
        0,
        info_size(5),
        var(LENM),
    ]);
    // By region, the address of its size (READ): the INFO record's, RESULTS' after it.
    a.label("rtab").data(&[
        info_size(0),
        info_size(1),
        info_size(2),
        info_size(3),
        info_size(4),
        layout::RESULTS_SIZE_WORD,
        info_size(5),
        info_size(6),
    ]);
    // WRITE, READ: ADDR = the request's u32 address (payload byte 1); OUT_OF_RANGE unless
    // ADDR + CNT is within the u32 at address A.
    a.label("range").mov("PA").emit(Lwp, 0).stv(LIM);
    a.emit(Ldi, PAY + 1).mov("PA").emit(Lwp, 0).stv(ADDR);
    // T = ADDR; a carry is an end beyond 2^32.
    a.ldv(CNT).emit(Addt, 0).to(Jc, "nak3");
    // T = the end.
    a.ldv(LIM).emit(Cmpt, 0).to(Jc, "nak3").ret();

    info(a, cfg);
    // The rest of the answer from P.
    a.label("send").emit(Lbp, 0).io("TX").to(Jnn, "send");
    a.to(Jmp, "fin");
}

/// STATUS.
fn status(a: &mut Asm) {
    // ---- STATUS.
    a.label("status").to(Jnz, "nak1");
    a.emit(Ldi, STATUS_BYTES as u32 + 1).call("head");
    a.ldv(LD).io("TX").ldv(NAK).io("TX");
    // ACRC is 0 unless VALID: BEGIN clears it, only a matching COMMIT sets it.
    a.ldv(ACRC).call("tx4");
    a.ldv(STAGED).call("tx4");
    a.ldv(QRUN).call("tx2");
    a.ldv(RFAULT).io("TX").ldv(SEL).io("TX");
    a.ldv(RCYC).call("tx4");
    a.ldv(BADF).call("tx2").to(Jmp, "fin");
}

/// BEGIN.
fn begin(a: &mut Asm) {
    // ---- BEGIN: u32 isa, four u32 lengths.
    a.label("begin")
        .emit(Cmp, BEGIN_BYTES as u32)
        .to(Jne, "nak1");
    a.emit(Ldw, PAY).emit(Ldw, INFO_ISA).emit(Cmpt, 0);
    a.emit(Ldi, reason(Reason::IsaMismatch)).to(Jne, "nak");
    // Each length within its region's size (INFO's PROGRAM, CONSTANTS, TEXTURES, MAPS).
    for (i, region) in [0, 1, 2, 6].into_iter().enumerate() {
        // T = the length.
        a.emit(Ldw, PAY + 4 + 4 * i as u32)
            .emit(Ldw, info_size(region));
        a.emit(Cmpt, 0).to(Jc, "nak3");
    }
    a.emit(Ldi, PAY + 4)
        .mov("PA")
        .emit(Ldi, var(LENP))
        .mov("HA");
    a.emit(Ldi, 4 * IMAGE_REGIONS as u32).call("copy");
    a.emit(Ldi, state(LoadState::Uploading)).stv(LD).io("LED");
    a.emit(Ldi, 0).stv(ACRC).stv(STAGED);
    a.call("zrun").to(Jmp, "ack");
}

/// WRITE.
fn write(a: &mut Asm) {
    // ---- WRITE: u8 region, u32 address, data.
    a.label("write")
        .emit(Cmp, WRITE_HEADER as u32 + 1)
        .to(Jc, "nak1");
    a.emit(Sub, WRITE_HEADER as u32).stv(CNT);
    a.emit(Ldb, PAY)
        .stv(REGION)
        .emit(Cmp, Region::ALL.len() as u32)
        .to(Jnc, "nak5");
    a.to(Add, "wtab").io("FW").to(Jz, "nak5").stv(LIM);
    // An image region needs an upload in progress (UPLOADING or FAILED: the odd states).
    a.emit(Cmp, IMAGE_LIMIT_BELOW).to(Jnc, "wrange");
    a.ldv(LD).emit(And, 1).to(Jz, "nak4");
    a.ldv(LIM);
    a.label("wrange").call("range");
    a.ldv(REGION).call("base");
    a.emit(Ldi, PAY + 5).mov("PA");
    // The core's memories are the regions below INPUTS.
    a.ldv(REGION)
        .emit(Cmp, region(Region::Inputs))
        .to(Jc, "wcore");
    a.ldv(CNT).call("copy");
    a.ldv(REGION)
        .emit(Cmp, region(Region::Maps))
        .to(Jne, "ack")
        .to(Jmp, "wstaged");
    // Into a core memory: the bytes before the first whole word and after the last one by
    // read-modify-write, the whole words in between as they are. HEADN = (-ADDR) & 3 at most
    // CNT, REM = CNT - HEADN.
    a.label("wcore").ldv(ADDR).emit(Ldi, 0).emit(Subt, 0);
    a.emit(And, 3).stv(HEADN);
    // T = HEADN.
    a.ldv(CNT).emit(Subt, 0).to(Jnc, "wrem");
    a.ldv(CNT).stv(HEADN).emit(Ldi, 0);
    a.label("wrem").stv(REM);
    a.ldv(HEADN).call("rmw");
    // Whole words: REM >> 2 (REM < 256: times 64, then down by a byte).
    a.ldv(REM).sh("SHL4").sh("SHL2").sh("SHR8");
    a.mov("NA").to(Jz, "wtail");
    a.label("wm").emit(Lwp, 0).io("HW4").to(Djn, "wm");
    a.label("wtail").ldv(REM).emit(And, 3).call("rmw");
    a.label("wstaged")
        .emit(Ldi, state(LoadState::Uploading))
        .stv(LD)
        .io("LED");
    // T = CNT.
    a.ldv(CNT).ldv(STAGED).emit(Addt, 0).to(Jnc, "ws1");
    a.emit(Ldi, 0).emit(Sub, 1);
    a.label("ws1").stv(STAGED).to(Jmp, "ack");
    // A bytes from P into the core at H, each by read-modify-write of its word.
    a.label("rmw").mov("NA").to(Jz, "rmwd");
    a.label("rmw1")
        .io("HRD")
        .io("INS")
        .io("HW1")
        .to(Djn, "rmw1");
    a.label("rmwd").ret();
}

/// COMMIT.
fn commit(a: &mut Asm, cluster: bool) {
    // ---- COMMIT: u32 image CRC. The unit absorbs the image, then the expected CRC: the
    // residue says whether they match.
    a.label("commit")
        .emit(Cmp, COMMIT_BYTES as u32)
        .to(Jne, "nak1");
    a.ldv(LD)
        .to(Jz, "nak4")
        .emit(Cmp, state(LoadState::Valid))
        .to(Jne, "cmgo");
    a.emit(Ldw, PAY).ldv(ACRC).emit(Cmpt, 0).to(Je, "ack");
    a.emit(Ldi, reason(Reason::CrcMismatch)).to(Jmp, "nak");
    a.label("cmgo").io("CRCC").emit(Ldi, 0).stv(ADDR);
    if cluster {
        // Every core's memories are read at once: the mux flags any core whose words differ
        // from core 0's, whichever core CORE selected.
        a.emit(Ldi, u32::from(ALL_CORES)).stv(TMP).call("hwselt");
        a.emit(Ldi, 4 * u32::from(ctl::CLEAR_DIFFER))
            .call("ctla")
            .io("HW1");
    }
    for (i, len) in [LENP, LENC, LENT].into_iter().enumerate() {
        a.emit(Ldi, i as u32).call("base");
        a.ldv(len).call("crccore");
    }
    if cluster {
        a.emit(Ldi, 4 * u32::from(ctl::SELECT))
            .call("ctla")
            .io("HRD")
            .emit(And, 0x100)
            .stv(QDIFF);
        a.call("hwsel").ldv(QDIFF).to(Jnz, "cmbad");
    }
    a.emit(Ldi, region(Region::Maps)).call("base");
    a.ldv(LENM).mov("NA").to(Jz, "cmchk");
    a.label("cmmaps").emit(Lbp, 0).io("CRC").to(Djn, "cmmaps");
    a.label("cmchk")
        .emit(Ldw, PAY)
        .io("CRCW")
        .io("CRCOK")
        .to(Je, "cmok");
    a.label("cmbad")
        .emit(Ldi, state(LoadState::Failed))
        .stv(LD)
        .io("LED");
    a.emit(Ldi, reason(Reason::CrcMismatch)).to(Jmp, "nak");
    a.label("cmok").emit(Ldw, PAY).stv(ACRC);
    a.emit(Ldi, state(LoadState::Valid))
        .stv(LD)
        .io("LED")
        .to(Jmp, "ack");
    // The CRC of A bytes of core memory from byte address H.
    a.label("crccore").mov("NA").to(Jz, "crcdone");
    a.label("crc1").io("XB").io("CRC").to(Djn, "crc1");
    a.label("crcdone").ret();
}

/// RUN: the request's checks, the inputs, the cleared run and the MAPS check.
fn run_checks(a: &mut Asm) {
    let results = layout::RESULTS_BASE;
    let maps = layout::MAPS_BASE;
    // ---- RUN: u16 quads, u16 input stride, u16 output stride, inline input bytes.
    a.label("run").emit(Cmp, RUN_HEADER as u32).to(Jc, "nak1");
    a.ldv(LD)
        .emit(Cmp, state(LoadState::Valid))
        .emit(Ldi, reason(Reason::NoValidImage))
        .to(Jne, "nak");
    a.emit(Ldh, PAY).stv(QUADS).to(Jz, "nak10");
    a.emit(Cmp, u32::from(layout::MAX_QUADS) + 1)
        .to(Jnc, "nak10");
    // Strides times quads within INPUTS and OUTPUTS.
    for (field, v, size) in [
        (PAY + 2, ISTR, layout::INPUTS),
        (PAY + 4, OSTR, layout::OUTPUTS),
    ] {
        a.emit(Ldh, field).stv(v).call("mulq");
        a.emit(Cmp, size + 1).to(Jnc, "nak10");
    }
    // Inline inputs into INPUTS.
    a.emit(Ldi, PAY + RUN_HEADER as u32).mov("PA");
    a.emit(Ldi, layout::INPUTS_BASE).mov("HA");
    a.emit(Ldh, 0).emit(Sub, RUN_HEADER as u32).call("copy");
    // The run is cleared: summary, RESULTS, OUTPUTS.
    a.call("zrun");
    a.emit(Ldi, layout::OUTPUTS_BASE).mov("PA");
    a.emit(Ldi, layout::OUTPUTS / 4).mov("NA");
    a.emit(Ldi, 0).call("zloop");
    // MAPS: whether the region holds the entries its counts state. T = n, n + m, p, ...
    a.emit(Ldh, maps).emit(Ldh, maps + 2).emit(Addt, 0);
    a.emit(Ldh, maps + 4).emit(Addt, 0).sh("SHL2").emit(Add, 8);
    a.ldv(LENM).emit(Cmpt, 0).to(Jnc, "rparams");
    // MAPS too short: the first quad faults with code 1 (its RESULTS record's byte 1) and 0
    // cycles.
    a.emit(Ldi, u32::from(fault_code::BUDGET) << 8)
        .emit(Stw, results)
        .sh("SHR8");
    a.stv(QRUN).stv(RFAULT).io("LEDF").to(Jmp, "ranswer");
    a.label("rparams").call("params").to(Jmp, "rquads");
}

/// The PARAMS copy into K (RUN and RENDER).
fn params(a: &mut Asm) {
    let maps = layout::MAPS_BASE;
    // PARAMS slots into K, once per RUN or RENDER (slots past PARAMS read zeros: OUTPUTS, just
    // cleared; slots beyond K are skipped). EPTR points 2 bytes before an entry, so that its
    // u16 is a word's high half.
    a.label("params")
        .emit(Ldh, maps)
        .emit(Ldh, maps + 2)
        .emit(Addt, 0);
    a.sh("SHL2").emit(Add, maps + 6).stv(EPTR);
    a.emit(Ldh, maps + 4).stv(ENT).to(Jz, "pret");
    a.label("rp1").ldv(EPTR).mov("PA").emit(Add, 4).stv(EPTR);
    a.emit(Lwp, 0).sh("SHR16").stv(KSLOT);
    a.emit(Cmp, layout::CONSTANTS / 16).to(Jnc, "rpnext");
    a.emit(Add, K_SLOT_BIAS).sh("SHL4").mov("HA");
    // A slot past PARAMS copies zeros: OUTPUTS, just cleared.
    a.ldv(KSLOT).emit(Cmp, layout::PARAMS / 16);
    a.emit(Ldi, layout::OUTPUTS_BASE).to(Jnc, "rpz");
    a.ldv(KSLOT).sh("SHL4").emit(Add, layout::PARAMS_BASE);
    a.label("rpz").mov("PA").emit(Ldi, 4).mov("NA");
    a.label("rpw").emit(Lwp, 0).io("HW4").to(Djn, "rpw");
    a.label("rpnext")
        .ldv(ENT)
        .emit(Sub, 1)
        .stv(ENT)
        .to(Jnz, "rp1");
    a.label("pret").ret();
}

/// RUN: quad by quad, its RESULTS record, and the summary.
fn run_quads(a: &mut Asm, cluster: bool) {
    let results = layout::RESULTS_BASE;
    let maps = layout::MAPS_BASE;
    // The quads; QIN and QOUT start a stride before INPUTS and OUTPUTS.
    a.label("rquads").ldv(ISTR).emit(Ldi, layout::INPUTS_BASE);
    a.emit(Subt, 0).stv(QIN);
    a.ldv(OSTR)
        .emit(Ldi, layout::OUTPUTS_BASE)
        .emit(Subt, 0)
        .stv(QOUT);
    a.label("rq").ldv(QRUN).emit(Add, 1).stv(QRUN);
    a.ldv(ISTR).ldv(QIN).emit(Addt, 0).stv(QIN);
    a.ldv(OSTR).ldv(QOUT).emit(Addt, 0).stv(QOUT);
    a.ldv(RCYC).stv(RBASE);
    // Input entries: their registers from the quad's INPUTS block (the words within the
    // stride; the clear zeroed the rest).
    a.io("CLR").emit(Ldi, maps + 8).stv(EPTR);
    a.ldv(ISTR).stv(REMB).ldv(QIN).stv(BLK);
    a.emit(Ldi, 0).stv(DIR).emit(Ldh, maps).call("move");
    if cluster {
        // Every core's registers are cleared and hold the same inputs: from here on they must
        // agree (the mux flags what differs).
        a.emit(Ldi, 4 * u32::from(ctl::CLEAR_DIFFER))
            .call("ctla")
            .io("HW1");
    }
    a.io("GO");
    // The quad ended or paused (RESUME continues here): output entries into the quad's
    // OUTPUTS block (the words within the stride), unless it faulted.
    a.label("rdone").call("flt").to(Jz, "rout");
    a.emit(Cmp, u32::from(fault_code::EMIT)).to(Jc, "rrec");
    a.label("rout")
        .emit(Ldh, maps)
        .sh("SHL2")
        .emit(Add, maps + 8)
        .stv(EPTR);
    a.ldv(OSTR).stv(REMB).ldv(QOUT).stv(BLK);
    a.stv(DIR).emit(Ldh, maps + 2).call("move");
    // The quad's RESULTS record: kill mask, fault, pause lanes, 0, cycles (STAT's layout).
    a.label("rrec").ldv(QRUN).sh("SHL2").stv(TMP).emit(Addt, 0);
    a.emit(Add, results - 8).mov("PA");
    a.io("STAT");
    if cluster {
        cluster::run_check(a);
    }
    a.emit(Swp, 0).io("CYC").emit(Swp, 0);
    // T = the quad's cycles.
    a.ldv(RBASE).emit(Addt, 0).to(Jnc, "rn1");
    a.emit(Ldi, 0).emit(Sub, 1);
    a.label("rn1").stv(RCYC);
    if cluster {
        a.ldv(QDIFF).to(Jnz, "rdiff");
    }
    a.call("flt").to(Jz, "rnext").stv(RFAULT).io("LEDF");
    a.emit(Cmp, u32::from(fault_code::EMIT)).to(Jc, "ranswer");
    a.ldv(PAUSES).emit(Add, 1).stv(PAUSES).to(Jmp, "ranswer");
    // T = QUADS.
    a.label("rnext")
        .ldv(QUADS)
        .ldv(QRUN)
        .emit(Cmpt, 0)
        .to(Jne, "rq");
    a.emit(Ldi, 0).stv(RFAULT).io("LEDF");
    if cluster {
        a.to(Jmp, "ranswer");
        a.label("rdiff").stv(RFAULT).io("LEDF");
    }
    // The RUN summary: fault, quads, cycles, one kill mask per quad (from RESULTS).
    a.label("ranswer")
        .ldv(QRUN)
        .emit(Add, RUN_SUMMARY_HEADER as u32 + 1)
        .call("head");
    a.ldv(RFAULT).io("TX").ldv(QRUN).call("tx2");
    a.ldv(RCYC).call("tx4");
    a.emit(Ldi, results).mov("PA").to(Jmp, "rk2");
    a.label("rkill").emit(Lwp, 0).io("TX").emit(Lwp, 0);
    a.label("rk2").to(Jnn, "rkill").to(Jmp, "fin");
}

/// RUN's routines: the stride multiply, the fault code, the MAPS moves.
fn run_routines(a: &mut Asm) {
    // A = the stride from A times QUADS.
    a.label("mulq").stv(TMP).ldv(QUADS).mov("NA").emit(Ldi, 0);
    a.label("mulq1")
        .ldv(TMP)
        .emit(Addt, 0)
        .to(Djn, "mulq1")
        .ret();
    // A = the core's fault code.
    a.label("flt").io("STAT").sh("SHR8").emit(And, 0xFF).ret();
    // A MAPS entries from EPTR: register r's 16 words between the core (byte 64 * r + the
    // register file's base) and BLK (64 bytes per entry), in the direction DIR, each within the
    // stride (REMB bytes left).
    a.label("move").stv(ENT).to(Jz, "moved");
    a.label("move1").ldv(EPTR).mov("PA").emit(Add, 4).stv(EPTR);
    a.emit(Lwp, 0).sh("SHR16").emit(And, 0xFF);
    a.emit(Add, REG_BIAS).sh("SHL4").sh("SHL2").mov("HA");
    a.ldv(BLK).mov("PA").emit(Add, 64).stv(BLK);
    a.emit(Ldi, 16).mov("NA");
    a.label("move2")
        .ldv(REMB)
        .emit(Sub, 4)
        .to(Jc, "moved")
        .stv(REMB);
    a.ldv(DIR).to(Jnz, "moveo");
    a.emit(Lwp, 0).io("HW4").to(Jmp, "move3");
    a.label("moveo").io("HRD").emit(Swp, 0).io("H4");
    a.label("move3").to(Djn, "move2");
    a.ldv(ENT).emit(Sub, 1).stv(ENT).to(Jnz, "move1");
    a.label("moved").ret();
}

/// RESUME.
fn resume(a: &mut Asm) {
    // ---- RESUME: u32 pauses seen. At that pause: the quad continues; one pause further (the
    // answer was lost) or with nothing paused: the summary again; otherwise BAD_STATE.
    a.label("resume")
        .emit(Cmp, RESUME_BYTES as u32)
        .to(Jne, "nak1");
    // T = the count seen.
    a.emit(Ldw, PAY).ldv(PAUSES).emit(Subt, 0);
    a.emit(Cmp, 1).to(Je, "ranswer").to(Jnz, "nak4");
    a.ldv(RFAULT)
        .emit(Cmp, u32::from(fault_code::EMIT))
        .to(Jc, "ranswer");
    a.io("RES").to(Jmp, "rdone");
}

/// RENDER: the checks, then the board's quad loop.
fn render(a: &mut Asm, cluster: bool) {
    let maps = layout::MAPS_BASE;
    // ---- RENDER: u16 row quads, u16 x, u16 y, u16 quads, u8 lane words, u8 block quads.
    // Checked in the model's order; then quad by quad: the coordinate input written, the quad
    // run, its record (kill mask, lane words of the first output entry) appended to the block
    // built in the frame buffer from payload byte 4 (the request's fields are in variables by
    // then), a full, last or faulting block sent as a frame; then the end frame.
    a.label("render")
        .emit(Cmp, RENDER_BYTES as u32)
        .to(Jne, "nak1");
    a.ldv(LD)
        .emit(Cmp, state(LoadState::Valid))
        .emit(Ldi, reason(Reason::NoValidImage))
        .to(Jne, "nak");
    a.emit(Ldh, PAY + 6).to(Jz, "nak10");
    a.emit(Ldh, PAY).to(Jz, "nak10");
    // T = row quads: x below it.
    a.emit(Ldh, PAY + 2).emit(Cmpt, 0).to(Jnc, "nak10");
    // Lane words 0 (count only), 1 or 4.
    a.emit(Ldb, PAY + 8)
        .stv(R_LW)
        .to(Jz, "rlw")
        .emit(Cmp, 1)
        .to(Je, "rlw");
    a.emit(Cmp, 4).to(Jne, "nak10");
    // The record's bytes, 1 + 16 x lane words; block quads of them within the payload.
    a.label("rlw").ldv(R_LW).sh("SHL4").emit(Add, 1).stv(R_REC);
    a.emit(Ldb, PAY + 9).mov("NA").to(Jz, "nak10").emit(Ldi, 0);
    a.label("rmul").ldv(R_REC).emit(Addt, 0).to(Djn, "rmul");
    a.emit(
        Cmp,
        (microcode::protocol::MAX_PAYLOAD - RENDER_BLOCK_HEADER) as u32 + 1,
    )
    .to(Jnc, "nak10");
    // MAPS: an input and an output entry, within its length (T = n, n + m, p as for RUN).
    a.emit(Ldh, maps)
        .to(Jz, "nak4")
        .emit(Ldh, maps + 2)
        .to(Jz, "nak4");
    a.emit(Addt, 0)
        .emit(Ldh, maps + 4)
        .emit(Addt, 0)
        .sh("SHL2")
        .emit(Add, 8);
    a.ldv(LENM).emit(Cmpt, 0).to(Jc, "nak4");
    a.call("zrun");
    a.emit(Ldi, layout::OUTPUTS_BASE).mov("PA");
    a.emit(Ldi, layout::OUTPUTS / 4).mov("NA");
    a.emit(Ldi, 0).call("zloop").call("params");
    if cluster {
        cluster::render_cluster(a);
    } else {
        render::render_quads(a);
    }
}

/// READ.
fn read(a: &mut Asm) {
    // ---- READ: u8 region, u32 address, u16 length.
    a.label("read").emit(Cmp, READ_BYTES as u32).to(Jne, "nak1");
    a.emit(Ldb, PAY)
        .stv(REGION)
        .emit(Cmp, Region::ALL.len() as u32)
        .to(Jnc, "nak5");
    a.emit(Ldh, PAY + 5).stv(CNT).to(Jz, "nak1");
    // The answer (result byte and data) within the largest payload.
    a.emit(Cmp, u32::from(layout::MAX_PAYLOAD)).to(Jnc, "nak1");
    a.ldv(REGION).to(Add, "rtab").io("FW").call("range");
    a.ldv(CNT).emit(Add, 1).call("head");
    a.ldv(REGION).call("base");
    a.ldv(REGION)
        .emit(Cmp, region(Region::Inputs))
        .to(Jnc, "send");
    a.label("rdcore").io("XB").io("TX").to(Jnn, "rdcore");
    a.to(Jmp, "fin");
}

/// RESET (and CORE, the multi-core board's).
fn reset(a: &mut Asm, cfg: &DeviceConfig, cluster: bool) {
    // ---- RESET: an image stays valid; the run and the last NAK are cleared.
    a.label("reset").to(Jnz, "nak1");
    a.ldv(LD).emit(Cmp, state(LoadState::Valid)).to(Je, "rs1");
    a.emit(Ldi, state(LoadState::NoImage)).stv(LD).io("LED");
    a.label("rs1").emit(Ldi, 0).stv(NAK).call("zrun");
    a.emit(Ldi, u32::from(ALL_CORES)).stv(SEL);
    if cluster {
        a.call("hwsel");
    }
    a.to(Jmp, "ack");
    cluster::core(a, cfg.cores, cluster);
}

/// SET_BAUD (and the multi-core board's control routines).
fn set_baud(a: &mut Asm, cluster: bool) {
    // ---- SET_BAUD: only the current rate.
    a.label("baud")
        .emit(Cmp, SET_BAUD_BYTES as u32)
        .to(Jne, "nak1");
    a.emit(Ldw, PAY).emit(Ldw, INFO_BAUD).emit(Cmpt, 0);
    a.emit(Ldi, reason(Reason::BadBaud)).to(Jne, "nak");
    a.to(Jmp, "ack");

    if cluster {
        cluster::control(a);
    }
}

/// INFO: the record from the loader memory, then the board, the core count and the core
/// configuration from a table (two bytes a word); leaves the answer's tail to `send`'s caller.
fn info(a: &mut Asm, cfg: &DeviceConfig) {
    let mut tail = Vec::with_capacity(INFO_BYTES - INFO_RECORD_BYTES);
    tail.extend_from_slice(&cfg.board.to_le_bytes());
    tail.extend_from_slice(&cfg.cores.to_le_bytes());
    tail.extend_from_slice(&cfg.config);
    let words: Vec<u32> = tail
        .chunks(2)
        .map(|p| u32::from(p[0]) | u32::from(p.get(1).copied().unwrap_or(0)) << 8)
        .collect();
    a.label("info").to(Jnz, "nak1");
    a.emit(Ldi, INFO_BYTES as u32 + 1).call("head");
    a.emit(Ldi, layout::INFO_BASE).mov("PA");
    a.emit(Ldi, INFO_RECORD_BYTES as u32).stv(CNT);
    a.label("irec").emit(Lbp, 0).io("TX");
    a.ldv(CNT).emit(Sub, 1).stv(CNT).to(Jnz, "irec");
    // N counts what is left of the answer: the tail, two bytes per table word.
    a.to(Ldi, "itab").stv(ADDR);
    a.label("itail")
        .ldv(ADDR)
        .io("FW")
        .io("TX")
        .sh("SHR8")
        .io("TX");
    a.ldv(ADDR).emit(Add, 1).stv(ADDR).to(Jnn, "itail");
    a.to(Jmp, "fin");
    a.label("itab").data(&words);
}

#[cfg(test)]
mod tests {
    use crate::loader_isa::{disasm, MEMORY_WORDS};
    use microcode::board::Board;
    use microcode::protocol::DeviceConfig;

    /// The devices the boards build: the Alchitry Cu's one core, a ULX3S with sixteen.
    fn devices() -> [(DeviceConfig, bool); 2] {
        let cu = Board::AlchitryCu;
        let ulx = Board::Ulx3s85f;
        [
            (
                crate::loader::device_config(cu, 1, &cu.core_config(), 50_000_000, 115_200),
                false,
            ),
            (
                crate::loader::device_config(ulx, 16, &ulx.core_config(), 40_000_000, 115_200),
                true,
            ),
        ]
    }

    #[test]
    fn assembles_within_the_code_space() {
        for (cfg, cluster) in devices() {
            let fw = super::firmware(&cfg, cluster).unwrap();
            assert!(fw.len() <= MEMORY_WORDS, "{} words", fw.len());
            eprintln!(
                "the firmware ({}): {} words of {MEMORY_WORDS}",
                if cluster { "several cores" } else { "one core" },
                fw.len()
            );
        }
    }

    #[test]
    fn dispatches_through_a_table_of_handlers() {
        for (cfg, cluster) in devices() {
            let fw = super::firmware(&cfg, cluster).unwrap();
            let text: Vec<String> = fw.iter().map(|&w| disasm(w)).collect();
            let ja = text
                .iter()
                .position(|t| t == "JA")
                .expect("one computed jump");
            // The handler's address from the table reaches T through the load of the length.
            assert_eq!(text[ja - 1], "LDH 0x0");
            assert_eq!(text[ja - 2], "IO FW");
            assert!(text[ja - 3].starts_with("ADD"), "{}", text[ja - 3]);
        }
    }
}

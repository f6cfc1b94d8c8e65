//! The loader's firmware: the device side of `firmware-loader/PROTOCOL.md` as a program for the
//! loader processor ([`crate::loader_isa`]), assembled when the board is built (the TEXTURES
//! size is a constant in it; the ISA hash, the line rate and the other sizes are read from the
//! INFO record, which the loader memory holds from configuration on).
//!
//! It follows the protocol's executable model (`firmware_loader::device::Device`) request by
//! request: check the request's fields in the model's order (the first failing check is the NAK
//! reason), do the work, answer. Request fields are read straight from the frame buffer (the
//! body starts at loader-memory address 0: length, command, sequence, payload from 4). The
//! firmware also finishes the receiver's checks (at least 8 bytes, a length field that matches)
//! and counts dropped frames, and frames its answers: END, the body through `TX` (stuffed, into
//! the CRC), the CRC through `TXC`, END.
use crate::loader::{layout, INFO_BYTES};
use crate::loader_isa::VARS;
use crate::loader_isa::{Asm, AsmError, CpuOp::*};

// Variables (32-bit each; `loader_isa::VARS` of them). The first ones live across requests or
// through one; the rest are per-command scratch, some shared by commands that never overlap.
/// Load state (0 no image, 1 uploading, 2 valid, 3 failed).
const LD: u32 = 0;
const LENP: u32 = 1;
const LENC: u32 = 2;
const LENT: u32 = 3;
const LENM: u32 = 4;
const ACRC: u32 = 5;
const STAGED: u32 = 6;
const NAK: u32 = 7;
/// Quads run by the last RUN (and the index of the quad running).
const QRUN: u32 = 8;
const RFAULT: u32 = 9;
const RCYC: u32 = 10;
/// Dropped frames (saturating at 0xFFFF).
const BADF: u32 = 11;
const PLEN: u32 = 12;
const ALEN: u32 = 13;
const REASON: u32 = 14;
const QIN: u32 = 15;
/// WRITE, READ: the data length.
const CNT: u32 = QIN;
const QOUT: u32 = 16;
/// WRITE, READ: the region.
const REGION: u32 = QOUT;
const ENT: u32 = 17;
/// WRITE to the core: the bytes before the first whole word.
const HEADN: u32 = ENT;
const MAPN: u32 = 18;
/// WRITE to the core: the bytes after the head.
const REM: u32 = MAPN;
const MAPM: u32 = 19;
/// WRITE, READ: the u32 address (payload byte 1, read once: absolute word loads are aligned).
const ADDR: u32 = MAPM;
const MAPP: u32 = 20;
const ISTR: u32 = 21;
const OSTR: u32 = 22;
const QUADS: u32 = 23;
const EPTR: u32 = 24;
const OFF: u32 = 25;
/// RUN, before the quads: the PARAMS slot being loaded.
const KSLOT: u32 = OFF;
const _: () = assert!((OFF as usize) < VARS);

/// Loader-memory address of the INFO record's ISA hash, line rate and region sizes (u32 each:
/// PROGRAM, CONSTANTS, TEXTURES, INPUTS, OUTPUTS, PARAMS, MAPS).
const INFO_ISA: u32 = layout::INFO_BASE + 10;
const INFO_BAUD: u32 = layout::INFO_BASE + 22;
const INFO_SIZES: u32 = layout::INFO_BASE + 26;

/// Loader-memory address of the INFO record's size of region `i` (PROGRAM 0 ... MAPS 6).
const fn info_size(i: u32) -> u32 {
    INFO_SIZES + 4 * i
}
/// Frame-buffer address of payload byte 0.
const PAY: u32 = 4;
/// Core byte addresses (host-port word address times 4) of the core memories.
const CORE_K: u32 = crate::host_port::CONST_BASE as u32 * 4;
const CORE_TEX: u32 = crate::host_port::TEXTURE_BASE as u32 * 4;
const CORE_REGS: u32 = crate::host_port::REG_BASE as u32 * 4;

/// The firmware for a build with a TEXTURES region of `textures` bytes (0 when the build has no
/// texture unit, whose memory the region is). The ISA hash, the line rate and the region sizes
/// come from the INFO record in the loader memory ([`layout::INFO_BASE`]).
pub fn firmware(textures: u32) -> Result<Vec<u16>, AsmError> {
    let mut a = Asm::new();
    let results = layout::RESULTS_BASE;
    let maps = layout::MAPS_BASE;

    // ---- Configuration and the reset button: no image, counters cleared.
    a.emit(Ldi, 0);
    for v in [
        LD, LENP, LENC, LENT, LENM, ACRC, STAGED, NAK, QRUN, RFAULT, RCYC, BADF,
    ] {
        a.stv(v);
    }
    a.io("LED").io("LEDF");

    // ---- Waiting for a request; the receiver's remaining checks (at least 8 bytes, the
    // length field), then the command's handler from the table.
    a.label("idle").io("WAITF").to(Jz, "dropped");
    a.emit(Sub, 8).to(Jc, "dropped").stv(PLEN);
    a.emit(Ldh, 0).mov("TA").ldv(PLEN).emit(Cmpt, 0);
    a.to(Jne, "dropped");
    a.emit(Ldb, 2).emit(Cmp, 10).to(Jnc, "unknown");
    a.to(Add, "commands").io("FW").ja();
    // A dropped frame: counted, saturating (a count of 0x10000 is not stored; A + T is the
    // count again when its high half is zero).
    a.label("dropped").ldv(BADF).emit(Add, 1).mov("TA");
    a.sh("SHR16").to(Jnz, "idle").emit(Addt, 0);
    a.stv(BADF).to(Jmp, "idle");
    a.label("commands").data_label("unknown");
    for label in [
        "info", "status", "begin", "write", "commit", "run", "read", "reset", "baud",
    ] {
        a.data_label(label);
    }
    for reason in [1, 3, 4, 5, 6, 7, 8, 9, 10] {
        a.label(&format!("nak{reason}"))
            .emit(Ldi, reason)
            .to(Jmp, "nak");
    }
    // An answer (bit 7) is ignored; anything else is unknown.
    a.label("unknown")
        .emit(Ldb, 2)
        .emit(And, 0x80)
        .to(Jnz, "idle");
    a.emit(Ldi, 2);
    // NAK with reason A: remembered for STATUS.
    a.label("nak").stv(REASON).stv(NAK);
    a.emit(Ldi, 1).stv(ALEN).call("head").to(Jmp, "fin");
    // ACK without data.
    a.label("ack").emit(Ldi, 1).call("ackd").to(Jmp, "fin");
    // ACK with A - 1 data bytes to follow: the header; returns to the caller.
    a.label("ackd").stv(ALEN).emit(Ldi, 0).stv(REASON);
    // The answer's opening END, header and result byte (ALEN = result byte plus data); N counts
    // every body byte still to send.
    a.label("head").io("CRCC").io("TXE");
    a.ldv(ALEN).emit(Add, 4).mov("NA");
    a.ldv(ALEN).io("TX").sh("SHR8").io("TX");
    // Commands with bit 7 set are never answered, so adding sets it.
    a.emit(Ldb, 2).emit(Add, 0x80).io("TX");
    a.emit(Ldb, 3).io("TX");
    a.ldv(REASON).io("TX").ret();
    // The answer's CRC and closing END.
    a.label("fin").io("TXC").io("TXC").io("TXC").io("TXC");
    a.io("TXE").to(Jmp, "idle");
    // Four (two) bytes of A, little-endian.
    a.label("tx4").io("TX").sh("SHR8").io("TX").sh("SHR8");
    a.label("tx2").io("TX").sh("SHR8").io("TX").ret();
    // With A = 0: the last run's summary and RESULTS cleared.
    a.label("zrun").stv(QRUN).stv(RFAULT).stv(RCYC).io("LEDF");
    a.emit(Ldi, results).mov("PA");
    a.emit(Ldi, u32::from(layout::MAX_QUADS) * 2).mov("NA");
    a.emit(Ldi, 0);
    a.label("zres1").emit(Swp, 0).to(Djn, "zres1").ret();
    // A = the upload limit of region A (WRITE; not 4 or 5): an image region's length
    // variable, or the size of INPUTS or PARAMS in the INFO record.
    a.label("wlimit")
        .to(Add, "wlim")
        .io("FW")
        .mov("PA")
        .emit(Lwp, 0)
        .ret();
    let var = |v: u32| layout::VARS_BASE + 4 * v;
    a.label("wlim").data(&[
        var(LENP),
        var(LENC),
        var(LENT),
        info_size(3),
        0,
        0,
        info_size(5),
        var(LENM),
    ]);
    // By region: its size (READ), the loader-memory base of a buffer region, the core byte
    // address of an image region.
    a.label("rsize").data(&[
        layout::PROGRAM,
        layout::CONSTANTS,
        textures,
        layout::INPUTS,
        layout::OUTPUTS,
        u32::from(layout::MAX_QUADS) * 8,
        layout::PARAMS,
        layout::MAPS,
    ]);
    a.label("cbase").data(&[0, CORE_K, CORE_TEX, CORE_REGS]);
    a.label("rbase").data(&[
        layout::INPUTS_BASE,
        layout::OUTPUTS_BASE,
        layout::RESULTS_BASE,
        layout::PARAMS_BASE,
        layout::MAPS_BASE,
    ]);
    // ---- INFO: the record from the loader memory.
    a.label("info").ldv(PLEN).to(Jnz, "nak1");
    a.emit(Ldi, INFO_BYTES as u32 + 1).call("ackd");
    a.emit(Ldi, layout::INFO_BASE).mov("PA");
    a.label("info1").emit(Lbp, 0).io("TX").to(Jnn, "info1");
    a.to(Jmp, "fin");

    // ---- STATUS.
    a.label("status").ldv(PLEN).to(Jnz, "nak1");
    a.emit(Ldi, 21).call("ackd");
    a.ldv(LD).io("TX").ldv(NAK).io("TX");
    // ACRC is 0 unless VALID: BEGIN clears it, only a matching COMMIT sets it.
    a.ldv(ACRC).call("tx4");
    a.ldv(STAGED).call("tx4");
    a.ldv(QRUN).call("tx2");
    a.ldv(RFAULT).io("TX").emit(Ldi, 0).io("TX");
    a.ldv(RCYC).call("tx4");
    a.ldv(BADF).call("tx2").to(Jmp, "fin");

    // ---- BEGIN: u32 isa, four u32 lengths.
    a.label("begin").ldv(PLEN).emit(Cmp, 20).to(Jne, "nak1");
    a.emit(Ldw, PAY)
        .mov("TA")
        .emit(Ldw, INFO_ISA)
        .emit(Cmpt, 0)
        .to(Jne, "nak8");
    // Each length within its region's size (INFO's PROGRAM, CONSTANTS, TEXTURES, MAPS).
    for (i, region) in [0, 1, 2, 6].into_iter().enumerate() {
        a.emit(Ldw, PAY + 4 + 4 * i as u32).mov("TA");
        a.emit(Ldw, info_size(region)).emit(Cmpt, 0).to(Jc, "nak3");
    }
    for (i, v) in [LENP, LENC, LENT, LENM].into_iter().enumerate() {
        a.emit(Ldw, PAY + 4 + 4 * i as u32).stv(v);
    }
    a.emit(Ldi, 1).stv(LD).io("LED");
    a.emit(Ldi, 0).stv(ACRC).stv(STAGED);
    a.call("zrun").to(Jmp, "ack");

    // ---- WRITE: u8 region, u32 address, data.
    a.label("write").ldv(PLEN).emit(Cmp, 6).to(Jc, "nak1");
    a.emit(Ldb, PAY).stv(REGION);
    a.emit(Cmp, 8).to(Jnc, "nak5");
    a.emit(Cmp, 4).to(Je, "nak5").emit(Cmp, 5).to(Je, "nak5");
    a.emit(Cmp, 3).to(Jc, "wimg").emit(Cmp, 7).to(Jne, "wrange");
    a.label("wimg").ldv(LD).emit(Cmp, 1).to(Je, "wrange");
    a.emit(Cmp, 3).to(Jne, "nak4");
    // The address at most PROGRAM's size (the largest region): the sum below cannot wrap.
    a.label("wrange").call("addr").mov("TA");
    a.emit(Ldw, info_size(0)).emit(Cmpt, 0).to(Jc, "nak3");
    a.ldv(PLEN).emit(Sub, 5).stv(CNT).mov("TA");
    a.ldv(ADDR).emit(Addt, 0).mov("TA");
    a.ldv(REGION).call("wlimit").emit(Cmpt, 0).to(Jc, "nak3");
    a.emit(Ldi, PAY + 5).mov("PA");
    a.ldv(CNT).mov("NA");
    a.ldv(REGION).emit(Cmp, 3).to(Jc, "wcore");
    a.call("buffer").mov("HA");
    a.label("wbuf").emit(Lbp, 0).emit(Sbh, 0).to(Djn, "wbuf");
    a.ldv(REGION).emit(Cmp, 7).to(Jne, "ack").to(Jmp, "wstaged");
    // Into a core memory: the bytes before the first whole word and after the last one by
    // read-modify-write, the whole words in between as they are.
    a.label("wcore").call("core");
    a.mov("TA")
        .emit(Ldi, 0)
        .emit(Subt, 0)
        .emit(And, 3)
        .stv(HEADN);
    a.mov("TA").ldv(CNT).emit(Cmpt, 0).to(Jnc, "wh0");
    a.ldv(CNT).stv(HEADN);
    a.label("wh0").ldv(HEADN).mov("NA").to(Jz, "wmid");
    a.label("wh").io("HRD").io("INS").io("HW1").to(Djn, "wh");
    a.label("wmid").ldv(HEADN).mov("TA");
    a.ldv(CNT).emit(Subt, 0).stv(REM);
    // Whole words: REM >> 2 (REM < 256: shifted up by 14 and down by 16).
    a.sh("SHL4").sh("SHL4").sh("SHL4").sh("SHL2").sh("SHR16");
    a.mov("NA").to(Jz, "wtail");
    a.label("wm").emit(Lwp, 0).io("HW4").to(Djn, "wm");
    a.label("wtail")
        .ldv(REM)
        .emit(And, 3)
        .mov("NA")
        .to(Jz, "wstaged");
    a.label("wt").io("HRD").io("INS").io("HW1").to(Djn, "wt");
    a.label("wstaged").emit(Ldi, 1).stv(LD).io("LED");
    a.ldv(CNT)
        .mov("TA")
        .ldv(STAGED)
        .emit(Addt, 0)
        .to(Jnc, "ws1");
    a.emit(Ldi, 0).emit(Sub, 1);
    a.label("ws1").stv(STAGED).to(Jmp, "ack");
    // The request's u32 address (payload byte 1) plus the base of region A: A = loader-memory
    // address of a buffer region, A = H = core byte address of an image region.
    a.label("buffer")
        .to_at(Add, "rbase", -3)
        .io("FW")
        .to(Jmp, "plusaddr");
    a.label("core")
        .to(Add, "cbase")
        .io("FW")
        .mov("TA")
        .ldv(ADDR)
        .emit(Addt, 0);
    a.mov("HA").ret();
    a.label("plusaddr").mov("TA").ldv(ADDR).emit(Addt, 0).ret();

    // ---- COMMIT: u32 image CRC. The unit absorbs the image, then the expected CRC: the
    // residue says whether they match.
    a.label("commit").ldv(PLEN).emit(Cmp, 4).to(Jne, "nak1");
    a.ldv(LD).to(Jz, "nak4").emit(Cmp, 2).to(Jne, "cmgo");
    a.emit(Ldw, PAY)
        .mov("TA")
        .ldv(ACRC)
        .emit(Cmpt, 0)
        .to(Je, "ack");
    a.to(Jmp, "nak6");
    a.label("cmgo").io("CRCC");
    for (i, len) in [LENP, LENC, LENT].into_iter().enumerate() {
        a.emit(Ldi, i as u32).to(Add, "cbase").io("FW").mov("HA");
        a.ldv(len).call("crccore");
    }
    a.emit(Ldi, maps).mov("PA");
    a.ldv(LENM).mov("NA").to(Jz, "cmchk");
    a.label("cmmaps").emit(Lbp, 0).io("CRC").to(Djn, "cmmaps");
    a.label("cmchk")
        .emit(Ldw, PAY)
        .io("CRCW")
        .io("CRCOK")
        .to(Je, "cmok");
    a.emit(Ldi, 3).stv(LD).io("LED").to(Jmp, "nak6");
    a.label("cmok").emit(Ldw, PAY).stv(ACRC);
    a.emit(Ldi, 2).stv(LD).io("LED").to(Jmp, "ack");
    // The CRC of A bytes of core memory from byte address H.
    a.label("crccore").mov("NA").to(Jz, "crcdone");
    a.label("crc1").io("XB").io("CRC").to(Djn, "crc1");
    a.label("crcdone").ret();

    // ---- RUN: u16 quads, u16 input stride, u16 output stride, inline input bytes.
    a.label("run").ldv(PLEN).emit(Cmp, 6).to(Jc, "nak1");
    a.ldv(LD).emit(Cmp, 2).to(Jne, "nak7");
    a.emit(Ldh, PAY).stv(QUADS).to(Jz, "nak10");
    a.emit(Cmp, u32::from(layout::MAX_QUADS) + 1)
        .to(Jnc, "nak10");
    // Strides times quads within INPUTS and OUTPUTS.
    for (field, v, size) in [
        (PAY + 2, ISTR, layout::INPUTS),
        (PAY + 4, OSTR, layout::OUTPUTS),
    ] {
        a.emit(Ldh, field);
        a.stv(v).mov("TA").ldv(QUADS).mov("NA").emit(Ldi, 0);
        let l = format!("rmul{v}");
        a.label(&l).emit(Addt, 0).to(Djn, &l);
        a.emit(Cmp, size + 1).to(Jnc, "nak10");
    }
    // Inline inputs into INPUTS.
    a.emit(Ldi, PAY + 6)
        .mov("PA")
        .emit(Ldi, layout::INPUTS_BASE)
        .mov("HA");
    a.ldv(PLEN).emit(Sub, 6).mov("NA").to(Jz, "rclr");
    a.label("rinl").emit(Lbp, 0).emit(Sbh, 0).to(Djn, "rinl");
    // The run is cleared: summary, RESULTS, OUTPUTS.
    a.label("rclr").emit(Ldi, 0).call("zrun");
    a.emit(Ldi, layout::OUTPUTS_BASE).mov("PA");
    a.emit(Ldi, layout::OUTPUTS / 4).mov("NA").emit(Ldi, 0);
    a.label("zout").emit(Swp, 0).to(Djn, "zout");
    // MAPS: the counts, and whether the region holds their entries.
    a.emit(Ldh, maps).stv(MAPN).mov("TA");
    a.emit(Ldh, maps + 2).stv(MAPM).emit(Addt, 0).mov("TA");
    a.emit(Ldh, maps + 4).stv(MAPP).emit(Addt, 0);
    a.sh("SHL2").emit(Add, 8).mov("TA");
    a.ldv(LENM).emit(Cmpt, 0).to(Jnc, "rparams");
    // MAPS too short: the first quad faults with code 1 and 0 cycles.
    a.emit(Ldi, results + 1).mov("PA").emit(Ldi, 1).emit(Sbp, 0);
    a.stv(QRUN).stv(RFAULT);
    a.io("LEDF").to(Jmp, "ranswer");
    // PARAMS slots into K, once per RUN (slots past PARAMS read zeros, slots beyond K are
    // skipped). EPTR points 2 bytes before an entry, so that its u16 is a word's high half.
    a.label("rparams")
        .ldv(MAPN)
        .mov("TA")
        .ldv(MAPM)
        .emit(Addt, 0);
    a.sh("SHL2").emit(Add, maps + 6).stv(EPTR);
    a.ldv(MAPP).stv(ENT).to(Jz, "rquads");
    a.label("rp1").ldv(EPTR).mov("PA").emit(Add, 4).stv(EPTR);
    a.emit(Lwp, 0).sh("SHR16").stv(KSLOT);
    a.ldv(KSLOT)
        .emit(Cmp, layout::CONSTANTS / 16)
        .to(Jnc, "rpnext");
    a.sh("SHL4")
        .mov("TA")
        .emit(Ldi, 1)
        .to(Add, "cbase")
        .io("FW");
    a.emit(Addt, 0).mov("HA");
    a.emit(Ldi, 4).mov("NA");
    a.ldv(KSLOT)
        .emit(Cmp, layout::PARAMS / 16)
        .to(Jnc, "rpzero");
    a.sh("SHL4").emit(Add, layout::PARAMS_BASE).mov("PA");
    a.label("rpw")
        .emit(Lwp, 0)
        .io("HW4")
        .to(Djn, "rpw")
        .to(Jmp, "rpnext");
    a.label("rpzero").emit(Ldi, 0);
    a.label("rpz").io("HW4").to(Djn, "rpz");
    a.label("rpnext")
        .ldv(ENT)
        .emit(Sub, 1)
        .stv(ENT)
        .to(Jnz, "rp1");
    // The quads.
    a.label("rquads").emit(Ldi, layout::INPUTS_BASE).stv(QIN);
    a.emit(Ldi, layout::OUTPUTS_BASE).stv(QOUT);
    a.label("rq").io("CLR").emit(Ldi, 0).stv(OFF).stv(ENT);
    a.emit(Ldi, maps + 8).stv(EPTR);
    a.ldv(MAPN).to(Jz, "rgo");
    // Input entry: its register's 16 words from the quad's INPUTS block (zeros past the stride).
    a.label("ri1").call("entry");
    a.label("ri2").call("instride").ldv(ISTR);
    a.emit(Cmpt, 0).emit(Ldi, 0).to(Jc, "riw");
    a.ldv(QIN).call("plusoff").emit(Lwp, 0);
    a.label("riw").io("HW4").call("nextoff").to(Djn, "ri2");
    a.ldv(MAPN).call("nextent").to(Jne, "ri1");
    a.label("rgo").io("GO").call("flt").to(Jnz, "rres");
    // Output entry: its register's 16 words into the quad's OUTPUTS block (within the stride).
    a.emit(Ldi, 0).stv(OFF).stv(ENT);
    a.ldv(MAPN).sh("SHL2").emit(Add, maps + 8).stv(EPTR);
    a.ldv(MAPM).to(Jz, "rres");
    a.label("ro1").call("entry");
    a.label("ro2").call("instride").ldv(OSTR);
    a.emit(Cmpt, 0).to(Jc, "ronext");
    a.ldv(QOUT).call("plusoff");
    a.io("HRD").emit(Swp, 0);
    a.label("ronext").io("H4").call("nextoff").to(Djn, "ro2");
    a.ldv(MAPM).call("nextent").to(Jne, "ro1");
    // The quad's RESULTS record: kill mask, fault, 0, 0, cycles.
    a.label("rres").ldv(QRUN).sh("SHL2").mov("TA").emit(Addt, 0);
    a.emit(Add, results).mov("PA");
    a.io("STAT")
        .sh("SHR8")
        .emit(Sbp, 0)
        .call("flt")
        .emit(Sbp, 0)
        .emit(Ldi, 0)
        .emit(Sbp, 0)
        .emit(Sbp, 0)
        .io("CYC")
        .emit(Swp, 0);
    a.ldv(QRUN).emit(Add, 1).stv(QRUN);
    a.io("CYC").mov("TA").ldv(RCYC).emit(Addt, 0).to(Jnc, "rn1");
    a.emit(Ldi, 0).emit(Sub, 1);
    a.label("rn1").stv(RCYC);
    a.ldv(ISTR).mov("TA").ldv(QIN).emit(Addt, 0).stv(QIN);
    a.ldv(OSTR).mov("TA").ldv(QOUT).emit(Addt, 0).stv(QOUT);
    a.call("flt").to(Jnz, "rend");
    a.ldv(QUADS).mov("TA").ldv(QRUN).emit(Cmpt, 0).to(Jne, "rq");
    a.call("flt");
    a.label("rend").stv(RFAULT).io("LEDF");
    // The RUN summary: fault, quads, cycles, one kill mask per quad.
    a.label("ranswer").ldv(QRUN).emit(Add, 8).call("ackd");
    a.ldv(RFAULT).io("TX").ldv(QRUN).call("tx2");
    a.ldv(RCYC).call("tx4");
    a.emit(Ldi, results).mov("PA");
    a.label("rkill").emit(Lbp, 0).io("TX");
    a.emit(Lwp, 0).emit(Lbp, 0).emit(Lbp, 0).emit(Lbp, 0);
    a.to(Jnn, "rkill");
    a.to(Jmp, "fin");
    // Next MAPS entry: H = its register's core byte address, N = 16 words.
    a.label("entry").ldv(EPTR).mov("PA").emit(Add, 4).stv(EPTR);
    a.emit(Lwp, 0)
        .sh("SHR16")
        .emit(And, 0xFF)
        .sh("SHL4")
        .sh("SHL2");
    a.mov("TA").emit(Ldi, 3).to(Add, "cbase").io("FW");
    a.emit(Addt, 0).mov("HA");
    a.emit(Ldi, 16).mov("NA").ret();
    // A = ADDR = the request's u32 at payload byte 1 (WRITE, READ).
    a.label("addr")
        .emit(Ldi, PAY + 1)
        .mov("PA")
        .emit(Lwp, 0)
        .stv(ADDR)
        .ret();
    // A = the core's fault code.
    a.label("flt").io("STAT").emit(And, 0xFF).ret();
    // T = OFF + 4 (the stride must reach it for the word to be moved).
    a.label("instride").ldv(OFF).emit(Add, 4).mov("TA").ret();
    // P = A + OFF.
    a.label("plusoff")
        .mov("TA")
        .ldv(OFF)
        .emit(Addt, 0)
        .mov("PA")
        .ret();
    a.label("nextoff").ldv(OFF).emit(Add, 4).stv(OFF).ret();
    // ENT += 1; E = (ENT == A).
    a.label("nextent").mov("TA").ldv(ENT).emit(Add, 1).stv(ENT);
    a.emit(Cmpt, 0).ret();

    // ---- READ: u8 region, u32 address, u16 length.
    a.label("read").ldv(PLEN).emit(Cmp, 7).to(Jne, "nak1");
    a.emit(Ldb, PAY).stv(REGION).emit(Cmp, 8).to(Jnc, "nak5");
    a.emit(Ldh, PAY + 5).stv(CNT).to(Jz, "nak1");
    a.emit(Cmp, 256).to(Jnc, "nak1");
    a.call("addr").mov("TA");
    a.emit(Ldw, info_size(0)).emit(Cmpt, 0).to(Jc, "nak3");
    a.ldv(CNT).mov("TA").ldv(ADDR).emit(Addt, 0).mov("TA");
    a.ldv(REGION)
        .to(Add, "rsize")
        .io("FW")
        .emit(Cmpt, 0)
        .to(Jc, "nak3");
    a.ldv(CNT).emit(Add, 1).call("ackd");
    a.ldv(REGION).emit(Cmp, 3).to(Jc, "rdcore");
    a.call("buffer").mov("PA");
    a.label("rdmem")
        .emit(Lbp, 0)
        .io("TX")
        .to(Jnn, "rdmem")
        .to(Jmp, "fin");
    a.label("rdcore").call("core");
    a.label("rdc1").io("XB").io("TX").to(Jnn, "rdc1");
    a.to(Jmp, "fin");

    // ---- RESET: an image stays valid; the run and the last NAK are cleared.
    a.label("reset").ldv(PLEN).to(Jnz, "nak1");
    a.ldv(LD).emit(Cmp, 2).to(Je, "rs1");
    a.emit(Ldi, 0).stv(LD).io("LED");
    a.label("rs1")
        .emit(Ldi, 0)
        .stv(NAK)
        .call("zrun")
        .to(Jmp, "ack");

    // ---- SET_BAUD: only the current rate.
    a.label("baud").ldv(PLEN).emit(Cmp, 4).to(Jne, "nak1");
    a.emit(Ldw, PAY)
        .mov("TA")
        .emit(Ldw, INFO_BAUD)
        .emit(Cmpt, 0)
        .to(Jne, "nak9");
    a.to(Jmp, "ack");

    a.finish()
}

#[cfg(test)]
mod tests {
    use crate::loader_isa::{disasm, MEMORY_WORDS};

    #[test]
    fn assembles_within_the_code_space_for_every_constant() {
        for textures in [0, crate::loader::layout::TEXTURES] {
            let fw = super::firmware(textures).unwrap();
            assert!(fw.len() <= MEMORY_WORDS, "{} words", fw.len());
        }
    }

    #[test]
    fn dispatches_through_a_table_of_handlers() {
        let fw = super::firmware(0).unwrap();
        let text: Vec<String> = fw.iter().map(|&w| disasm(w)).collect();
        let ja = text
            .iter()
            .position(|t| t == "JA")
            .expect("one computed jump");
        assert_eq!(text[ja - 1], "IO FW");
        assert!(text[ja - 2].starts_with("ADD"), "{}", text[ja - 2]);
    }
}

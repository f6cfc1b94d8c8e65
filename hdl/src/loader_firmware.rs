//! The loader's firmware: the device side of `firmware-loader/PROTOCOL.md` as a program for the
//! loader processor ([`crate::loader_isa`]), assembled when the board is built (the ISA hash and
//! the line rate are constants in it).
//!
//! It follows the protocol's executable model (`firmware_loader::device::Device`) request by
//! request: check the request's fields in the model's order (the first failing check is the NAK
//! reason), do the work, answer. Request fields are read straight from the frame buffer (the
//! body starts at loader-memory address 0: length, command, sequence, payload from 4).
use crate::loader::layout;
use crate::loader_isa::{Asm, AsmError, CpuOp::*};

// Variables (32-bit each; `loader_isa::VARS` of them). The first 16 live across requests or
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
const CMD: u32 = 11;
const SEQ: u32 = 12;
const PLEN: u32 = 13;
const ALEN: u32 = 14;
const REASON: u32 = 15;
const QIN: u32 = 16;
/// WRITE, READ: the data length.
const CNT: u32 = QIN;
const QOUT: u32 = 17;
/// WRITE, READ: the region.
const REGION: u32 = QOUT;
const ENT: u32 = 18;
const MAPN: u32 = 19;
const MAPM: u32 = 20;
const MAPP: u32 = 21;
const ISTR: u32 = 22;
const OSTR: u32 = 23;
const QUADS: u32 = 24;
const EPTR: u32 = 25;
const OFF: u32 = 26;
/// RUN, before the quads: the PARAMS slot being loaded.
const KSLOT: u32 = OFF;

/// Frame-buffer address of payload byte 0.
const PAY: u32 = 4;
/// Core byte addresses (host-port word address times 4) of the core memories.
const CORE_K: u32 = 0x400 * 4;
const CORE_TEX: u32 = 0x1000 * 4;
const CORE_REGS: u32 = 0x800 * 4;

/// The firmware for a core whose configuration hashes to `isa_hash`, at line rate `baud`, with
/// a TEXTURES region of `textures` bytes (0 when the build has no texture unit, whose memory the
/// region is).
pub fn firmware(isa_hash: u32, baud: u32, textures: u32) -> Result<Vec<u16>, AsmError> {
    let mut a = Asm::new();
    let results = layout::RESULTS_BASE;
    let maps = layout::MAPS_BASE;

    // ---- Configuration and the reset button: no image, counters cleared (listening within
    // about 40 clocks).
    a.emit(Ldi, 0);
    for v in [
        LD, LENP, LENC, LENT, LENM, ACRC, STAGED, NAK, QRUN, RFAULT, RCYC,
    ] {
        a.emit(Stv, v);
    }
    a.io("LED").io("LEDF");

    // ---- Waiting for a request; the command's handler from the table.
    a.label("idle").io("WAITF");
    a.emit(Sub, 8).emit(Stv, PLEN);
    a.emit(Ldb, 2).emit(Stv, CMD);
    a.emit(Ldb, 3).emit(Stv, SEQ);
    a.emit(Ldv, CMD).emit(Cmp, 10).to(Jnc, "unknown");
    a.to(Ldx, "commands").ja();
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
        .emit(Ldv, CMD)
        .emit(And, 0x80)
        .to(Jnz, "idle");
    a.emit(Ldi, 2);
    // NAK with reason A: remembered for STATUS.
    a.label("nak").emit(Stv, REASON).emit(Stv, NAK);
    a.emit(Ldi, 1).emit(Stv, ALEN).call("head").to(Jmp, "idle");
    // ACK without data.
    a.label("ack").emit(Ldi, 1).call("ackd").to(Jmp, "idle");
    // ACK with A - 1 data bytes to follow: the header; returns to the caller.
    a.label("ackd")
        .emit(Stv, ALEN)
        .emit(Ldi, 0)
        .emit(Stv, REASON);
    // The answer's header and result byte (ALEN = result byte plus data); N counts every body
    // byte still to send, so the transmitter knows the last one.
    a.label("head").emit(Ldv, ALEN).emit(Add, 4).mov("NA");
    a.emit(Ldv, ALEN).io("TX").sh("SHR8").io("TX");
    // Commands with bit 7 set are never answered, so adding sets it.
    a.emit(Ldv, CMD).emit(Add, 0x80).io("TX");
    a.emit(Ldv, SEQ).io("TX");
    a.emit(Ldv, REASON).io("TX").ret();
    // Four (two) bytes of A, little-endian.
    a.label("tx4").io("TX").sh("SHR8").io("TX").sh("SHR8");
    a.label("tx2").io("TX").sh("SHR8").io("TX").ret();
    // With A = 0: the last run's summary and RESULTS cleared.
    a.label("zrun")
        .emit(Stv, QRUN)
        .emit(Stv, RFAULT)
        .emit(Stv, RCYC)
        .io("LEDF");
    a.emit(Ldi, results).mov("PA");
    a.label("zres1").emit(Ldi, 0).emit(Sbp, 1).mov("AP");
    a.emit(Cmp, maps).to(Jne, "zres1").ret();
    // A = the upload limit of region A (WRITE).
    a.label("wlimit");
    a.emit(Cmp, 0).to(Je, "wl0").emit(Cmp, 1).to(Je, "wl1");
    a.emit(Cmp, 2).to(Je, "wl2").emit(Cmp, 3).to(Je, "wl3");
    a.emit(Cmp, 6).to(Je, "wl6").emit(Ldv, LENM).ret();
    a.label("wl0").emit(Ldv, LENP).ret();
    a.label("wl1").emit(Ldv, LENC).ret();
    a.label("wl2").emit(Ldv, LENT).ret();
    a.label("wl3").emit(Ldi, layout::INPUTS).ret();
    a.label("wl6").emit(Ldi, layout::PARAMS).ret();
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
    a.label("cbase").data(&[0, CORE_K, CORE_TEX]);
    a.label("rbase").data(&[
        layout::INPUTS_BASE,
        layout::OUTPUTS_BASE,
        layout::RESULTS_BASE,
        layout::PARAMS_BASE,
        layout::MAPS_BASE,
    ]);

    // ---- INFO.
    a.label("info").emit(Ldv, PLEN).to(Jnz, "nak1");
    a.emit(Ldi, crate::loader::INFO_BYTES as u32 + 1)
        .call("ackd");
    a.emit(Ldi, 0).mov("PA");
    a.label("info1").io("INFO").io("TX").to(Jnn, "info1");
    a.to(Jmp, "idle");

    // ---- STATUS.
    a.label("status").emit(Ldv, PLEN).to(Jnz, "nak1");
    a.emit(Ldi, 21).call("ackd");
    a.emit(Ldv, LD).io("TX").emit(Ldv, NAK).io("TX");
    a.emit(Ldv, LD)
        .emit(Cmp, 2)
        .emit(Ldi, 0)
        .to(Jne, "st1")
        .emit(Ldv, ACRC);
    a.label("st1").call("tx4");
    a.emit(Ldv, STAGED).call("tx4");
    a.emit(Ldv, QRUN).call("tx2");
    a.emit(Ldv, RFAULT).io("TX").emit(Ldi, 0).io("TX");
    a.emit(Ldv, RCYC).call("tx4");
    a.io("BADF").call("tx2").to(Jmp, "idle");

    // ---- BEGIN: u32 isa, four u32 lengths.
    a.label("begin")
        .emit(Ldv, PLEN)
        .emit(Cmp, 20)
        .to(Jne, "nak1");
    a.emit(Ldw, PAY)
        .mov("TA")
        .ld32(isa_hash)
        .emit(Cmpt, 0)
        .to(Jne, "nak8");
    for (i, limit) in [layout::PROGRAM, layout::CONSTANTS, textures, layout::MAPS]
        .into_iter()
        .enumerate()
    {
        a.ld32(limit + 1).mov("TA");
        a.emit(Ldw, PAY + 4 + 4 * i as u32)
            .emit(Cmpt, 0)
            .to(Jnc, "nak3");
    }
    for (i, v) in [LENP, LENC, LENT, LENM].into_iter().enumerate() {
        a.emit(Ldw, PAY + 4 + 4 * i as u32).emit(Stv, v);
    }
    a.emit(Ldi, 1).emit(Stv, LD).io("LED");
    a.emit(Ldi, 0).emit(Stv, ACRC).emit(Stv, STAGED);
    a.call("zrun").to(Jmp, "ack");

    // ---- WRITE: u8 region, u32 address, data.
    a.label("write").emit(Ldv, PLEN).emit(Cmp, 6).to(Jc, "nak1");
    a.emit(Ldb, PAY).emit(Stv, REGION);
    a.emit(Cmp, 8).to(Jnc, "nak5");
    a.emit(Cmp, 4).to(Je, "nak5").emit(Cmp, 5).to(Je, "nak5");
    a.emit(Cmp, 3).to(Jc, "wimg").emit(Cmp, 7).to(Jne, "wrange");
    a.label("wimg").emit(Ldv, LD).emit(Cmp, 1).to(Je, "wrange");
    a.emit(Cmp, 3).to(Jne, "nak4");
    a.label("wrange").ld32(layout::PROGRAM + 1).mov("TA");
    a.emit(Ldw, PAY + 1).emit(Cmpt, 0).to(Jnc, "nak3");
    a.emit(Ldv, PLEN).emit(Sub, 5).emit(Stv, CNT).mov("TA");
    a.emit(Ldw, PAY + 1).emit(Addt, 0).mov("TA");
    a.emit(Ldv, REGION)
        .call("wlimit")
        .emit(Cmpt, 0)
        .to(Jc, "nak3");
    a.emit(Ldi, PAY + 5).mov("PA");
    a.emit(Ldv, CNT).mov("NA");
    a.emit(Ldv, REGION).emit(Cmp, 3).to(Jc, "wcore");
    a.call("buffer").mov("HA");
    a.label("wbuf").emit(Lbp, 1).emit(Sbh, 0).to(Djn, "wbuf");
    a.emit(Ldv, REGION)
        .emit(Cmp, 7)
        .to(Jne, "ack")
        .to(Jmp, "wstaged");
    a.label("wcore").call("core");
    a.label("wcore1")
        .io("HRD")
        .emit(Lbp, 1)
        .io("HW1")
        .to(Djn, "wcore1");
    a.label("wstaged").emit(Ldi, 1).emit(Stv, LD).io("LED");
    a.emit(Ldv, CNT)
        .mov("TA")
        .emit(Ldv, STAGED)
        .emit(Addt, 0)
        .to(Jnc, "ws1");
    a.emit(Ldi, 0).emit(Sub, 1);
    a.label("ws1").emit(Stv, STAGED).to(Jmp, "ack");
    // The request's u32 address (payload byte 1) plus the base of region A: A = loader-memory
    // address of a buffer region, H = core byte address of an image region.
    a.label("buffer")
        .to_at(Ldx, "rbase", -3)
        .to(Jmp, "plusaddr");
    a.label("core")
        .to(Ldx, "cbase")
        .mov("TA")
        .emit(Ldw, PAY + 1)
        .emit(Addt, 0);
    a.mov("HA").ret();
    a.label("plusaddr")
        .mov("TA")
        .emit(Ldw, PAY + 1)
        .emit(Addt, 0)
        .ret();

    // ---- COMMIT: u32 image CRC.
    a.label("commit")
        .emit(Ldv, PLEN)
        .emit(Cmp, 4)
        .to(Jne, "nak1");
    a.emit(Ldv, LD).to(Jz, "nak4").emit(Cmp, 2).to(Jne, "cmgo");
    a.emit(Ldw, PAY)
        .mov("TA")
        .emit(Ldv, ACRC)
        .emit(Cmpt, 0)
        .to(Je, "ack");
    a.to(Jmp, "nak6");
    a.label("cmgo").io("CRCC");
    for (base, len) in [(0, LENP), (CORE_K, LENC), (CORE_TEX, LENT)] {
        a.ld32(base).mov("HA").emit(Ldv, len).call("crccore");
    }
    a.emit(Ldi, maps).mov("PA");
    a.emit(Ldv, LENM).mov("NA").to(Jz, "cmchk");
    a.label("cmmaps").emit(Lbp, 1).io("CRC").to(Djn, "cmmaps");
    a.label("cmchk")
        .io("CRCR")
        .emit(Ldw, PAY)
        .emit(Cmpt, 0)
        .to(Je, "cmok");
    a.emit(Ldi, 3).emit(Stv, LD).io("LED").to(Jmp, "nak6");
    a.label("cmok").emit(Ldw, PAY).emit(Stv, ACRC);
    a.emit(Ldi, 2).emit(Stv, LD).io("LED").to(Jmp, "ack");
    // The CRC of A bytes of core memory from byte address H.
    a.label("crccore").mov("NA").to(Jz, "crcdone");
    a.label("crc1").io("HRD").io("XB").io("CRC").to(Djn, "crc1");
    a.label("crcdone").ret();

    // ---- RUN: u16 quads, u16 input stride, u16 output stride, inline input bytes. A u16 at x
    // is the high half of the word at x - 2.
    a.label("run").emit(Ldv, PLEN).emit(Cmp, 6).to(Jc, "nak1");
    a.emit(Ldv, LD).emit(Cmp, 2).to(Jne, "nak7");
    a.emit(Ldw, PAY - 2)
        .sh("SHR16")
        .emit(Stv, QUADS)
        .to(Jz, "nak10");
    a.emit(Cmp, u32::from(layout::MAX_QUADS) + 1)
        .to(Jnc, "nak10");
    // Strides times quads within INPUTS and OUTPUTS.
    for (field, v, size) in [
        (PAY + 2, ISTR, layout::INPUTS),
        (PAY + 4, OSTR, layout::OUTPUTS),
    ] {
        a.emit(Ldw, field - 2).sh("SHR16");
        a.emit(Stv, v)
            .mov("TA")
            .emit(Ldv, QUADS)
            .mov("NA")
            .emit(Ldi, 0);
        let l = format!("rmul{v}");
        a.label(&l).emit(Addt, 0).to(Djn, &l);
        a.emit(Cmp, size + 1).to(Jnc, "nak10");
    }
    // Inline inputs into INPUTS.
    a.emit(Ldi, PAY + 6)
        .mov("PA")
        .emit(Ldi, layout::INPUTS_BASE)
        .mov("HA");
    a.emit(Ldv, PLEN).emit(Sub, 6).mov("NA").to(Jz, "rclr");
    a.label("rinl").emit(Lbp, 1).emit(Sbh, 0).to(Djn, "rinl");
    // The run is cleared: summary, RESULTS, OUTPUTS.
    a.label("rclr").emit(Ldi, 0).call("zrun");
    a.emit(Ldi, layout::OUTPUTS_BASE).mov("PA");
    a.label("zout")
        .emit(Ldi, 0)
        .emit(Sbp, 1)
        .mov("AP")
        .to(Jnz, "zout");
    // MAPS: the counts, and whether the region holds their entries.
    a.emit(Ldw, maps - 2).sh("SHR16").emit(Stv, MAPN).mov("TA");
    a.emit(Ldw, maps)
        .sh("SHR16")
        .emit(Stv, MAPM)
        .emit(Addt, 0)
        .mov("TA");
    a.emit(Ldw, maps + 2)
        .sh("SHR16")
        .emit(Stv, MAPP)
        .emit(Addt, 0);
    a.sh("SHL2").emit(Add, 8).mov("TA");
    a.emit(Ldv, LENM).emit(Cmpt, 0).to(Jnc, "rparams");
    // MAPS too short: the first quad faults with code 1 and 0 cycles.
    a.emit(Ldi, results + 1).mov("PA").emit(Ldi, 1).emit(Sbp, 0);
    a.emit(Stv, QRUN).emit(Stv, RFAULT);
    a.io("LEDF").to(Jmp, "ranswer");
    // PARAMS slots into K, once per RUN (slots 16..63 read zeros, slots beyond K are skipped).
    // EPTR points 2 bytes before an entry, so that its u16 is a word's high half.
    a.label("rparams")
        .emit(Ldv, MAPN)
        .mov("TA")
        .emit(Ldv, MAPM)
        .emit(Addt, 0);
    a.sh("SHL2").emit(Add, maps + 6).emit(Stv, EPTR);
    a.emit(Ldv, MAPP).emit(Stv, ENT).to(Jz, "rquads");
    a.label("rp1")
        .emit(Ldv, EPTR)
        .mov("PA")
        .emit(Lwp, 4)
        .sh("SHR16");
    a.emit(Stv, KSLOT).mov("AP").emit(Stv, EPTR);
    a.emit(Ldv, KSLOT).emit(Cmp, 64).to(Jnc, "rpnext");
    a.sh("SHL4").mov("TA").ld32(CORE_K).emit(Addt, 0).mov("HA");
    a.emit(Ldi, 4).mov("NA");
    a.emit(Ldv, KSLOT).emit(Cmp, 16).to(Jnc, "rpzero");
    a.sh("SHL4").emit(Add, layout::PARAMS_BASE).mov("PA");
    a.label("rpw")
        .emit(Lwp, 4)
        .io("HW4")
        .to(Djn, "rpw")
        .to(Jmp, "rpnext");
    a.label("rpzero").emit(Ldi, 0);
    a.label("rpz").io("HW4").to(Djn, "rpz");
    a.label("rpnext")
        .emit(Ldv, ENT)
        .emit(Sub, 1)
        .emit(Stv, ENT)
        .to(Jnz, "rp1");
    // The quads.
    a.label("rquads")
        .emit(Ldi, layout::INPUTS_BASE)
        .emit(Stv, QIN);
    a.emit(Ldi, layout::OUTPUTS_BASE).emit(Stv, QOUT);
    a.label("rq")
        .io("CLR")
        .emit(Ldi, 0)
        .emit(Stv, OFF)
        .emit(Stv, ENT);
    a.emit(Ldi, maps + 8).emit(Stv, EPTR);
    a.emit(Ldv, MAPN).to(Jz, "rgo");
    // Input entry: its register's 16 words from the quad's INPUTS block (zeros past the stride).
    a.label("ri1").call("entry");
    a.label("ri2").call("instride").emit(Ldv, ISTR);
    a.emit(Cmpt, 0).emit(Ldi, 0).to(Jc, "riw");
    a.emit(Ldv, QIN).call("plusoff").emit(Lwp, 0);
    a.label("riw").io("HW4").call("nextoff").to(Djn, "ri2");
    a.emit(Ldv, MAPN).call("nextent").to(Jne, "ri1");
    a.label("rgo").io("GO").io("FLT").to(Jnz, "rres");
    // Output entry: its register's 16 words into the quad's OUTPUTS block (within the stride).
    a.emit(Ldi, 0).emit(Stv, OFF).emit(Stv, ENT);
    a.emit(Ldv, MAPN)
        .sh("SHL2")
        .emit(Add, maps + 8)
        .emit(Stv, EPTR);
    a.emit(Ldv, MAPM).to(Jz, "rres");
    a.label("ro1").call("entry");
    a.label("ro2").call("instride").emit(Ldv, OSTR);
    a.emit(Cmpt, 0).to(Jc, "ronext");
    a.emit(Ldv, QOUT).call("plusoff");
    a.io("HRD").mov("AT").emit(Swp, 0);
    a.label("ronext").io("H4").call("nextoff").to(Djn, "ro2");
    a.emit(Ldv, MAPM).call("nextent").to(Jne, "ro1");
    // The quad's RESULTS record: kill mask, fault, 0, 0, cycles.
    a.label("rres")
        .emit(Ldv, QRUN)
        .sh("SHL2")
        .mov("TA")
        .emit(Addt, 0);
    a.emit(Add, results).mov("PA");
    a.io("KIL")
        .emit(Sbp, 1)
        .io("FLT")
        .emit(Sbp, 3)
        .io("CYC")
        .mov("AT")
        .emit(Swp, 0);
    a.emit(Ldv, QRUN).emit(Add, 1).emit(Stv, QRUN);
    a.io("CYC").emit(Ldv, RCYC).emit(Addt, 0).to(Jnc, "rn1");
    a.emit(Ldi, 0).emit(Sub, 1);
    a.label("rn1").emit(Stv, RCYC);
    a.emit(Ldv, ISTR)
        .mov("TA")
        .emit(Ldv, QIN)
        .emit(Addt, 0)
        .emit(Stv, QIN);
    a.emit(Ldv, OSTR)
        .mov("TA")
        .emit(Ldv, QOUT)
        .emit(Addt, 0)
        .emit(Stv, QOUT);
    a.io("FLT").to(Jnz, "rend");
    a.emit(Ldv, QUADS)
        .mov("TA")
        .emit(Ldv, QRUN)
        .emit(Cmpt, 0)
        .to(Jne, "rq");
    a.io("FLT");
    a.label("rend").emit(Stv, RFAULT).io("LEDF");
    // The RUN summary: fault, quads, cycles, one kill mask per quad.
    a.label("ranswer").emit(Ldv, QRUN).emit(Add, 8).call("ackd");
    a.emit(Ldv, RFAULT).io("TX").emit(Ldv, QRUN).call("tx2");
    a.emit(Ldv, RCYC).call("tx4");
    a.emit(Ldi, results).mov("PA");
    a.label("rkill").emit(Lbp, 8).io("TX").to(Jnn, "rkill");
    a.to(Jmp, "idle");
    // Next MAPS entry: H = its register's core byte address, N = 16 words.
    a.label("entry")
        .emit(Ldv, EPTR)
        .mov("PA")
        .emit(Lwp, 4)
        .mov("TA")
        .mov("AP");
    a.emit(Stv, EPTR)
        .mov("AT")
        .sh("SHR16")
        .emit(And, 0xFF)
        .sh("SHL4")
        .sh("SHL2");
    a.mov("TA").ld32(CORE_REGS).emit(Addt, 0).mov("HA");
    a.emit(Ldi, 16).mov("NA").ret();
    // T = OFF + 4 (the stride must reach it for the word to be moved).
    a.label("instride")
        .emit(Ldv, OFF)
        .emit(Add, 4)
        .mov("TA")
        .ret();
    // P = A + OFF.
    a.label("plusoff")
        .mov("TA")
        .emit(Ldv, OFF)
        .emit(Addt, 0)
        .mov("PA")
        .ret();
    a.label("nextoff")
        .emit(Ldv, OFF)
        .emit(Add, 4)
        .emit(Stv, OFF)
        .ret();
    // ENT += 1; E = (ENT == A).
    a.label("nextent")
        .mov("TA")
        .emit(Ldv, ENT)
        .emit(Add, 1)
        .emit(Stv, ENT);
    a.emit(Cmpt, 0).ret();

    // ---- READ: u8 region, u32 address, u16 length.
    a.label("read").emit(Ldv, PLEN).emit(Cmp, 7).to(Jne, "nak1");
    a.emit(Ldb, PAY)
        .emit(Stv, REGION)
        .emit(Cmp, 8)
        .to(Jnc, "nak5");
    a.emit(Ldw, PAY + 3)
        .sh("SHR16")
        .emit(Stv, CNT)
        .to(Jz, "nak1");
    a.emit(Cmp, 256).to(Jnc, "nak1");
    a.ld32(layout::PROGRAM + 1)
        .mov("TA")
        .emit(Ldw, PAY + 1)
        .emit(Cmpt, 0);
    a.to(Jnc, "nak3");
    a.emit(Ldv, CNT)
        .mov("TA")
        .emit(Ldw, PAY + 1)
        .emit(Addt, 0)
        .mov("TA");
    a.emit(Ldv, REGION)
        .to(Ldx, "rsize")
        .emit(Cmpt, 0)
        .to(Jc, "nak3");
    a.emit(Ldv, CNT).emit(Add, 1).call("ackd");
    a.emit(Ldv, REGION).emit(Cmp, 3).to(Jc, "rdcore");
    a.call("buffer").mov("PA");
    a.label("rdmem")
        .emit(Lbp, 1)
        .io("TX")
        .to(Jnn, "rdmem")
        .to(Jmp, "idle");
    a.label("rdcore").call("core");
    a.label("rdc1").io("HRD").io("XB").io("TX").to(Jnn, "rdc1");
    a.to(Jmp, "idle");

    // ---- RESET: an image stays valid; the run and the last NAK are cleared.
    a.label("reset").emit(Ldv, PLEN).to(Jnz, "nak1");
    a.emit(Ldv, LD).emit(Cmp, 2).to(Je, "rs1");
    a.emit(Ldi, 0).emit(Stv, LD).io("LED");
    a.label("rs1")
        .emit(Ldi, 0)
        .emit(Stv, NAK)
        .call("zrun")
        .to(Jmp, "ack");

    // ---- SET_BAUD: only the current rate.
    a.label("baud").emit(Ldv, PLEN).emit(Cmp, 4).to(Jne, "nak1");
    a.emit(Ldw, PAY)
        .mov("TA")
        .ld32(baud)
        .emit(Cmpt, 0)
        .to(Jne, "nak9");
    a.to(Jmp, "ack");

    a.finish()
}

#[cfg(test)]
mod tests {
    use crate::loader_isa::{disasm, VAR_BASE};

    #[test]
    fn assembles_within_the_code_space_for_every_constant() {
        // The ISA hash and the line rate are immediates of 1 to 3 instructions.
        for (isa, baud) in [(0, 0), (0xDEAD_BEEF, 115_200), (u32::MAX, u32::MAX)] {
            let fw = super::firmware(isa, baud, crate::loader::layout::TEXTURES).unwrap();
            assert!(fw.len() <= VAR_BASE, "{} words", fw.len());
        }
    }

    #[test]
    fn dispatches_through_a_table_of_handlers() {
        let fw = super::firmware(1, 115_200, 0).unwrap();
        let text: Vec<String> = fw.iter().map(|&w| disasm(w)).collect();
        let ja = text
            .iter()
            .position(|t| t == "JA")
            .expect("one computed jump");
        assert!(text[ja - 1].starts_with("LDX"), "{}", text[ja - 1]);
    }
}

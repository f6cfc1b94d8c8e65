//! The loader firmware's parts for a board with several cores (`crate::multi_board_top`):
//! RENDER through the dispatcher, CORE, a RUN's lock-step check and the mux's control
//! registers. The variables, layout and helpers are the parent's (`super`).
use super::*;

/// RENDER on a board with several cores, after the checks and the PARAMS copy: the request
/// handed to the dispatcher (`crate::quad_dispatcher`), then block by block: wait until its
/// records are ready in image order (or a fault cut it short), send them from the head record,
/// consuming each; wait until the dispatcher is finished (every core idle) and send the end
/// frame from its fault, quads and cycles. A count-only render only waits.
pub(super) fn render_cluster(a: &mut Asm) {
    let maps = layout::MAPS_BASE;
    let go = 4 * u32::from(ctl::RENDER_GO);
    for (reg, field) in [(ctl::RENDER_ROW_X, PAY), (ctl::RENDER_Y_QUADS, PAY + 4)] {
        a.emit(Ldi, 4 * u32::from(reg))
            .call("ctla")
            .emit(Ldw, field)
            .io("HW1");
    }
    // The registers of the first input and the first output entry (u16 each, the output's
    // the high half of P's word), then lane words | input << 8 | output << 16.
    a.emit(Ldh, maps).sh("SHL2").emit(Add, maps + 8).mov("PA");
    a.emit(Lwp, 0).sh("SHR16").emit(And, 0xFF).stv(R_OUT);
    a.emit(Ldh, maps + 10).emit(And, 0xFF).stv(R_IN);
    // T = the input register; A = the output register, shifted.
    a.ldv(R_OUT).sh("SHL4").sh("SHL4").emit(Addt, 0);
    a.sh("SHL4").sh("SHL4").stv(R_T1);
    a.emit(Ldb, PAY + 8).ldv(R_T1).emit(Addt, 0).stv(R_T1);
    a.emit(Ldi, go).call("ctla").ldv(R_T1).io("HW1");
    a.emit(Ldb, PAY + 8).stv(R_LW).emit(Ldb, PAY + 9).stv(R_BQ);
    a.emit(Ldh, PAY + 6).stv(R_LEFT).emit(Ldi, 0).stv(R_DONE);
    a.ldv(R_LW).to(Jz, "rcend");
    // A block: NB = min(block quads, quads left) records once that many are ready; fewer (and
    // then the end) when a fault cut the render short.
    a.label("rcblk")
        .ldv(R_BQ)
        .ldv(R_LEFT)
        .emit(Cmpt, 0)
        .to(Jc, "rck");
    a.ldv(R_BQ);
    a.label("rck").stv(R_NB);
    a.label("rcpoll")
        .emit(Ldi, go)
        .call("ctla")
        .io("HRD")
        .stv(R_T2);
    // T = the records ready (at most the reorder buffer's slots).
    a.emit(And, 0x7FF)
        .ldv(R_NB)
        .emit(Cmpt, 0)
        .to(Jc, "rcsend")
        .to(Je, "rcsend");
    a.ldv(R_T2).sh("SHR16").emit(And, 0xFF).to(Jz, "rcpoll");
    a.ldv(R_T2).emit(And, 0x7FF).stv(R_NB).to(Jz, "rcend");
    // The frame: payload 4 + NB records (R_REC bytes each).
    a.label("rcsend").ldv(R_NB).mov("NA").emit(Ldi, 0);
    a.label("rcm").ldv(R_REC).emit(Addt, 0).to(Djn, "rcm");
    a.emit(Add, RENDER_BLOCK_HEADER as u32).call("head");
    a.emit(Ldi, u32::from(RENDER_BLOCK)).io("TX");
    a.ldv(R_DONE).io("TX").sh("SHR8").io("TX");
    // A record: the kill mask (byte 3 of the head record's word 0), then 4 x lane words
    // words; consumed.
    a.label("rcrec")
        .emit(Ldi, RECORD_KILL_BYTE >> 4)
        .sh("SHL4")
        .emit(Add, RECORD_KILL_BYTE & 0xF)
        .mov("HA");
    a.io("XB").io("TX").ldv(R_LW).sh("SHL2").stv(R_T1);
    a.label("rcw");
    for _ in 0..4 {
        a.io("XB").io("TX");
    }
    a.ldv(R_T1).emit(Sub, 1).stv(R_T1).to(Jnz, "rcw");
    a.emit(Ldi, 4 * u32::from(ctl::RENDER_NEXT))
        .call("ctla")
        .io("HW1");
    a.ldv(R_DONE).emit(Add, 1).stv(R_DONE);
    a.ldv(R_LEFT).emit(Sub, 1).stv(R_LEFT);
    a.ldv(R_NB).emit(Sub, 1).stv(R_NB).to(Jnz, "rcrec");
    a.io("TXC").io("TXC").io("TXC").io("TXC").io("TXE");
    // The next block (whose poll ends the render when a fault cut this one short).
    a.ldv(R_LEFT).to(Jnz, "rcblk");
    // The end: once the dispatcher is finished (bit 24), its fault, quads and cycles.
    a.label("rcend").emit(Ldi, go).call("ctla");
    a.label("rcf")
        .io("HRD")
        .sh("SHR16")
        .sh("SHR8")
        .emit(And, 1)
        .to(Jz, "rcf");
    a.emit(Ldi, RENDER_END_BYTES as u32).call("head");
    a.emit(Ldi, u32::from(RENDER_END)).io("TX");
    a.emit(Ldi, go).call("ctla").io("HRD").sh("SHR16").io("TX");
    a.emit(Ldi, 4 * u32::from(ctl::RENDER_NEXT))
        .call("ctla")
        .io("HRD")
        .call("tx2");
    a.emit(Ldi, 4 * u32::from(ctl::RENDER_CYCLES))
        .call("ctla")
        .io("HRD")
        .call("tx4");
    a.call("zrun").to(Jmp, "fin");
}

/// CORE: u8 core, below the board's count, or `ALL_CORES`; kept for STATUS and (on a board
/// with several cores) written to the mux.
pub(super) fn core(a: &mut Asm, cores: u16, cluster: bool) {
    a.label("core").emit(Cmp, CORE_BYTES as u32).to(Jne, "nak1");
    a.emit(Ldb, PAY)
        .emit(Cmp, u32::from(ALL_CORES))
        .to(Je, "core1");
    a.emit(Cmp, u32::from(cores)).to(Jnc, "nak3");
    a.label("core1").emit(Ldb, PAY).stv(SEL);
    if cluster {
        a.call("hwsel");
    }
    a.to(Jmp, "ack");
}

/// A RUN's quad on a board with several cores, entered with A = the core's status word (STAT:
/// kill mask, fault << 8, ...): with every core selected and the mux's flag up, the fault
/// byte becomes `CORES_DIFFER` and QDIFF says so (0 otherwise); A as it was or so changed.
pub(super) fn run_check(a: &mut Asm) {
    a.stv(TMP).emit(Ldi, 0).stv(QDIFF);
    a.ldv(SEL)
        .emit(Cmp, u32::from(ALL_CORES))
        .ldv(TMP)
        .to(Jne, "rchk");
    a.emit(Ldi, 4 * u32::from(ctl::SELECT))
        .call("ctla")
        .io("HRD")
        .emit(And, 0x100);
    a.ldv(TMP).to(Je, "rchk");
    // The fault byte (bits 8..15) becomes CORES_DIFFER: 12 << 8 as two immediates.
    const DIFFER: u32 = fault_code::CORES_DIFFER as u32;
    const _: () = assert!(DIFFER << 8 == 2 * 0x600);
    a.emit(And, 0xFF).emit(Add, 0x600).emit(Add, 0x600);
    a.stv(TMP).emit(Ldi, DIFFER).stv(QDIFF).ldv(TMP);
    a.label("rchk");
}

/// The multi-core board's control registers: `ctla` (H = the byte address of register A / 4,
/// entered with A = 4 x its offset), `hwsel` (the mux selects core SEL), `hwselt` (the mux
/// selects core TMP).
pub(super) fn control(a: &mut Asm) {
    // T = the offset; A = the control base, then the sum.
    a.label("ctla")
        .emit(Ldi, ctl_byte(0) >> 4)
        .sh("SHL4")
        .emit(Addt, 0)
        .mov("HA")
        .ret();
    a.label("hwsel").ldv(SEL).stv(TMP);
    a.label("hwselt")
        .emit(Ldi, ctl_byte(0) >> 4)
        .sh("SHL4")
        .mov("HA");
    a.ldv(TMP).io("HW1").ret();
}

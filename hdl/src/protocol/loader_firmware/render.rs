//! The loader firmware's RENDER for a board with one core (the multi-core board's is
//! `cluster.rs`). The variables, layout and helpers are the parent's (`super`).
use super::*;

/// RENDER on a board with one core, after the checks and the PARAMS copy: quad by quad, the
/// coordinate input written, the quad run, its record (kill mask, lane words of the first
/// output entry) appended to the block built in the frame buffer from payload byte 4 (the
/// request's fields are in variables by then), a full, last or faulting block sent as a frame
/// (none for a count-only render); then the end frame.
pub(super) fn render_quads(a: &mut Asm) {
    let maps = layout::MAPS_BASE;
    // The fields (PARAMS used the scratch variables).
    for (field, v) in [
        (PAY, R_ROW),
        (PAY + 2, R_X),
        (PAY + 4, R_Y),
        (PAY + 6, R_LEFT),
    ] {
        a.emit(Ldh, field).stv(v);
    }
    a.emit(Ldb, PAY + 8).stv(R_LW).emit(Ldb, PAY + 9).stv(R_BQ);
    a.emit(Ldi, 0).stv(R_DONE).stv(R_NB);
    // The registers of the first input and the first output entry, as core byte addresses.
    a.emit(Ldh, maps + 10).call("rreg").stv(R_IN);
    a.emit(Ldh, maps).sh("SHL2").emit(Add, maps + 10).stv(R_T1);
    a.emit(Ldi, maps + 8).mov("PA");
    // (the output entry's u16 register: a word's high half, P's word)
    a.ldv(R_T1)
        .emit(Sub, 2)
        .mov("PA")
        .emit(Lwp, 0)
        .sh("SHR16")
        .call("rreg")
        .stv(R_OUT);
    a.emit(Ldi, RENDER_COORD_BIAS >> 24);
    for _ in 0..6 {
        a.sh("SHL4");
    }
    a.stv(R_BIAS);
    // A quad; a block begins with its header word (0, BLOCK, u16 quads done) at byte 4.
    a.label("rquad").ldv(R_NB).to(Jnz, "rq1");
    a.ldv(R_DONE).sh("SHL4").sh("SHL4").sh("SHL4").sh("SHL4");
    a.emit(Stw, PAY)
        .emit(Ldi, PAY + RENDER_BLOCK_HEADER as u32)
        .stv(R_BP);
    // The coordinate words of lane 0 (lanes 1 and 3 add 1 to x, lanes 2 and 3 to y).
    a.label("rq1").io("CLR");
    for (c, v) in [(R_X, R_T1), (R_Y, R_T2)] {
        a.ldv(c)
            .ldv(c)
            .emit(Addt, 0)
            .ldv(R_BIAS)
            .emit(Addt, 0)
            .stv(v);
    }
    a.ldv(R_IN).mov("HA");
    for lane in 0..4u32 {
        if lane > 0 {
            a.io("H4").io("H4");
        }
        a.ldv(R_T1);
        if lane & 1 == 1 {
            a.emit(Add, 1);
        }
        a.io("HW4").ldv(R_T2);
        if lane >> 1 == 1 {
            a.emit(Add, 1);
        }
        a.io("HW4");
    }
    a.io("GO");
    // T = the quad's cycles: added, saturating.
    a.io("CYC").ldv(R_CYC).emit(Addt, 0).to(Jnc, "rc1");
    a.emit(Ldi, 0).emit(Sub, 1);
    a.label("rc1").stv(R_CYC);
    a.ldv(R_DONE).emit(Add, 1).stv(R_DONE);
    a.call("flt").to(Jnz, "rfault");
    // The record: kill mask, then each lane's words.
    a.ldv(R_BP).mov("HA").io("STAT").emit(Sbh, 0);
    a.ldv(R_BP).emit(Add, 1).mov("PA");
    a.ldv(R_OUT).stv(R_T1).emit(Ldi, 4).stv(R_T2);
    a.label("rlane").ldv(R_T1).mov("HA").emit(Add, 16).stv(R_T1);
    a.ldv(R_LW).mov("NA").to(Jz, "rlnext");
    a.label("rword")
        .io("HRD")
        .emit(Swp, 0)
        .io("H4")
        .to(Djn, "rword");
    a.label("rlnext")
        .ldv(R_T2)
        .emit(Sub, 1)
        .stv(R_T2)
        .to(Jnz, "rlane");
    a.ldv(R_BP).ldv(R_REC).emit(Addt, 0).stv(R_BP);
    a.ldv(R_NB).emit(Add, 1).stv(R_NB);
    // The next quad's position.
    a.ldv(R_X)
        .emit(Add, 1)
        .stv(R_X)
        .ldv(R_ROW)
        .emit(Cmpt, 0)
        .to(Jne, "rnx");
    a.emit(Ldi, 0).stv(R_X).ldv(R_Y).emit(Add, 1).stv(R_Y);
    a.label("rnx")
        .ldv(R_LEFT)
        .emit(Sub, 1)
        .stv(R_LEFT)
        .to(Jz, "rflush");
    // T = block quads.
    a.ldv(R_BQ).ldv(R_NB).emit(Cmpt, 0).to(Jne, "rquad");
    a.to(Jmp, "rflush");
    a.label("rfault").ldv(R_NB).to(Jz, "rend");
    // The block as a frame: the payload from byte 4 (the result byte from REASON, 0).
    // (A count-only render sends no block frames.)
    a.label("rflush").ldv(R_LW).to(Jz, "rsent");
    a.ldv(R_BP).emit(Sub, PAY).call("head");
    a.emit(Ldi, PAY + 1).mov("PA");
    a.label("rsend").emit(Lbp, 0).io("TX").to(Jnn, "rsend");
    a.io("TXC").io("TXC").io("TXC").io("TXC").io("TXE");
    a.label("rsent").emit(Ldi, 0).stv(R_NB);
    a.call("flt").to(Jnz, "rend");
    a.ldv(R_LEFT).to(Jnz, "rquad");
    // The end frame; the run's variables cleared.
    a.label("rend")
        .emit(Ldi, RENDER_END_BYTES as u32)
        .call("head");
    a.emit(Ldi, u32::from(RENDER_END)).io("TX");
    a.call("flt").io("TX").ldv(R_DONE).call("tx2");
    a.ldv(R_CYC).call("tx4").call("zrun").to(Jmp, "fin");
    // A = the core byte address of register A & 0xFF.
    a.label("rreg")
        .emit(And, 0xFF)
        .emit(Add, REG_BIAS)
        .sh("SHL4")
        .sh("SHL2")
        .ret();
}

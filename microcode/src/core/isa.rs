//! THE table of core operations and THE table of instruction fields.
//!
//! The compiler, the core model (`sim::core_model`), the disassembler / trace printer and the HDL
//! decoder all read [`OPS`] and [`FIELDS`]; nothing else restates an opcode number, a bit position
//! or a cycle count.
//!
//! Cycle model (one quad, four lanes, lane-major slots `s = 4*lane + component`): an instruction
//! costs `issue + per_slot * enabled_slots` clocks, where `enabled_slots = 4 * popcount(wmask)`.
//! Pipelined operations issue one slot per clock, all 16 slots whatever the write mask, so a lane's
//! next instruction reads its registers 13 clocks after the lane's last slot issued: a
//! read-to-writeback latency L <= 13 needs no hazard logic. The iterative divider stalls issue for
//! 15 clocks per enabled slot; a build without it runs DIV, RCP and IMOD's work as compiled
//! sequences of the other units' operations (`compile/div.rs`). The transcendentals (RSQ, EX2, LG2, SIN, COS, POW) are compiled
//! sequences of ordinary operations and the `Trans` unit's bit operations, 16 clocks each. Flow instructions that read predicates wait L clocks for the last SETP slot to reach
//! writeback. END waits L clocks for the last write.

use std::fmt;
use thiserror::Error;

/// Read-to-writeback latency of the pipeline in clocks (the board build; `CoreConfig::latency`):
/// the long path, the multiply-add pipeline (FMAD, DDX, DDY, and its adder's conversions:
/// FLR, CEIL, TRNC, RNDE, EXPX, F2IF, F2IR, I2F, U2F).
pub const LATENCY: u32 = 13;

/// Read-to-writeback latency of the short path: every operation that writes R or P and is not
/// the multiply-add pipeline's takes its result from the compare unit (moves, compares,
/// selects, the integer ALU, the transcendental and texture steps), whose slowest step is ready
/// 6 clocks before the multiply-add's (a slot issued at t is written at the edge ending t + 6).
/// Writes retire in issue order ([`retire_wait`]).
pub const MISC_LATENCY: u32 = 7;

/// Clocks a pipelined instruction that writes with `latency` waits before its first slot
/// (candidate issue clock `first_slot`) so that its first write lands after every earlier
/// write, `last_write` being the clock at which the last earlier write is readable (its
/// slot's issue clock plus its latency): the register files have one write port, and the
/// short path ([`MISC_LATENCY`]) would otherwise overtake the long one ([`LATENCY`]). A
/// short-path instruction right after a multiply-add waits 6 clocks.
#[inline]
pub fn retire_wait(last_write: u64, first_slot: u64, latency: u32) -> u64 {
    (last_write + 1).saturating_sub(first_slot + u64::from(latency))
}

/// Slots of one quad instruction: 4 lanes x 4 components.
pub const SLOTS: u32 = 16;

/// Which unit executes an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// The float multiply-add pipeline (and its bypass for moves).
    Fmad,
    /// The misc unit (`hdl::misc_unit::MiscUnit`): compare, select, convert and the short
    /// path's other operations; it also hosts the integer, transcendental and texture units.
    Misc,
    /// Integer ALU.
    Int,
    /// Iterative digit-recurrence divider (stalls issue).
    Div,
    /// The transcendental step unit: the bit operations and tables of the RSQ, EX2, LG2 and
    /// SIN/COS sequences (`microcode::arith::transcendental::steps`), pipelined like the others.
    Trans,
    /// Sequencer flow control: masks, stacks, branches, kills.
    Flow,
    /// Texture unit: the addressing steps and texel fetch from texture memory (`TIDX`, `TFRC`,
    /// `TFET`, `TSEL`), and the model-only TEX / TXF / TXQ.
    Tex,
    /// The per-lane address stack of PUSHA / POPA.
    Stack,
    /// binary64 arithmetic (the model-only DOP): no hardware unit builds it yet.
    Double,
}

/// What an operation writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DstKind {
    /// A register of R, through the write mask, saturate and predicated-write fields.
    Reg,
    /// The predicate bits `P[lane][c]` for the enabled components.
    Pred,
    /// Nothing.
    None,
}

/// One row of the operation table.
#[derive(Clone, Copy, Debug)]
pub struct OpInfo {
    /// The operation this row describes.
    pub op: Op,
    /// Its name in disassembly, traces and ARCHITECTURE.md's table.
    pub mnemonic: &'static str,
    /// Value of the `op` field.
    pub number: u8,
    /// The unit that executes it; decides which `CoreConfig` feature a build needs for it.
    pub unit: Unit,
    /// Number of source operands read (A, B, C in order).
    pub sources: u8,
    /// What it writes: a register of R, predicate bits or nothing.
    pub dst: DstKind,
    /// Fixed issue clocks.
    pub issue: u32,
    /// Extra clocks per enabled slot (iterative units).
    pub per_slot: u32,
    /// Clocks from the last issued slot until its result is written back.
    pub latency: u32,
    /// What the model computes (the functions are `microcode::arith`).
    pub semantics: &'static str,
}

impl Unit {
    /// The `CoreConfig::features` bits of which a build needs one for this unit (0: always
    /// built); `CoreConfig::has` tests them.
    pub fn feature(self) -> u32 {
        use crate::core::config::Features;
        match self {
            Unit::Div => Features::DIVIDER,
            Unit::Trans => Features::TRANSCENDENTAL,
            Unit::Int => Features::INTEGER,
            Unit::Tex => Features::TEXTURE,
            Unit::Stack => Features::ADDRESS_STACK,
            // DOP runs on the core model whatever the build; the hardware refuses it.
            Unit::Fmad | Unit::Misc | Unit::Flow | Unit::Double => 0,
        }
    }
}

impl OpInfo {
    /// Clocks the instruction takes with this write mask.
    pub fn cycles(&self, wmask: u8) -> u64 {
        u64::from(self.issue) + u64::from(self.per_slot) * 4 * u64::from(wmask.count_ones())
    }
}

macro_rules! op_table {
    ($( $v:ident = $n:literal, $mn:literal, $unit:ident, $ns:literal, $dst:ident, $issue:expr,
        $per:literal, $lat:expr, $sem:literal; )*) => {
        /// A core operation; the discriminant is the `op` field value.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Op { $(
            #[doc = concat!("`", $mn, "`: `` ", $sem, " ``")]
            $v = $n,
        )* }

        /// Every core operation, grouped by unit (table order, not number order: look a row up
        /// by number with [`Op::info`]).
        pub static OPS: &[OpInfo] = &[ $( OpInfo {
            op: Op::$v, mnemonic: $mn, number: $n, unit: Unit::$unit, sources: $ns,
            dst: DstKind::$dst, issue: $issue, per_slot: $per, latency: $lat, semantics: $sem,
        }, )* ];
    };
}

/// The cycle model of a run: executed instructions in order, each taking
/// [`OpInfo::cycles`] clocks plus the [`retire_wait`] of a pipelined instruction that writes
/// (slots in its last 16 clocks). The core model counts with it; the hardware's sequencer
/// implements the same rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Timing {
    clocks: u64,
    /// When the last write issued so far is readable (0: none yet).
    last_write: u64,
}

/// One instruction's row of the cycle model, looked up once (a model that runs an instruction
/// many times keeps it with the instruction): its own clocks and, for a pipelined instruction
/// that writes, when its first slot issues and its result latency.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepTiming {
    clocks: u64,
    /// (clocks from the instruction's start to its first slot, latency) of a pipelined write.
    pipelined: Option<(u64, u32)>,
}

impl StepTiming {
    /// The cycle model's row for `i`.
    pub fn of(i: &Instr) -> StepTiming {
        let info = i.op.info();
        let pipelined = (info.dst != DstKind::None && info.per_slot == 0 && info.issue >= SLOTS)
            .then(|| (u64::from(info.issue - SLOTS), info.latency));
        StepTiming {
            clocks: info.cycles(i.wmask),
            pipelined,
        }
    }
}

impl Timing {
    /// Counts one executed instruction; returns its clocks.
    pub fn step(&mut self, i: &Instr) -> u64 {
        self.step_row(&StepTiming::of(i))
    }

    /// Counts one executed instruction by its row ([`StepTiming::of`]); returns its clocks.
    #[inline]
    pub fn step_row(&mut self, row: &StepTiming) -> u64 {
        let mut clocks = row.clocks;
        if let Some((to_first, latency)) = row.pipelined {
            let first_slot = self.clocks + to_first;
            clocks += retire_wait(self.last_write, first_slot, latency);
            let last_slot = self.clocks + clocks - 1;
            self.last_write = self.last_write.max(last_slot + u64::from(latency));
        }
        self.clocks += clocks;
        clocks
    }

    /// Clocks counted so far.
    pub fn clocks(&self) -> u64 {
        self.clocks
    }
}

/// Clocks per slot of the model-only texture operations TEX and TXF (TXF on the UNKNOWN target,
/// sampling in a program that leaves too few registers for the sequence): a nominal figure.
/// Sampling is otherwise compiled to `TIDX` / `TFRC` / `TFET` / `TSEL` sequences.
const TEX_STEPS: u32 = 8;

/// Clocks per slot of the model-only binary64 operation DOP: a nominal figure.
const DOUBLE_STEPS: u32 = 8;

/// DOP's `target` bit that selects DFRACEXP's second result (the significand).
pub const DOP_SECOND: u16 = 0x100;

/// Clocks a derivative waits before issue: its lane reads a neighbour up to two lanes later,
/// whose component c was written `4*2 - 3` clocks too late for a back-to-back issue (see the
/// module comment); 8 covers it with margin.
pub const DERIV_BUBBLE: u32 = 8;

op_table! {
    Nop = 0, "NOP", Flow, 0, None, 1, 0, 0, "nothing";
    Mov = 1, "MOV", Fmad, 1, Reg, SLOTS, 0, MISC_LATENCY, "d.c = A.c (bits kept; bypass of the pipeline)";
    Fmad = 2, "FMAD", Fmad, 3, Reg, SLOTS, 0, LATENCY, "d.c = fmad(A.c, B.c, C.c) = round(round(A*B) + C)";
    Min = 3, "MIN", Misc, 2, Reg, SLOTS, 0, MISC_LATENCY, "d.c = fmin(A.c, B.c)";
    Max = 4, "MAX", Misc, 2, Reg, SLOTS, 0, MISC_LATENCY, "d.c = fmax(A.c, B.c)";
    Set = 5, "SET", Misc, 2, Reg, SLOTS, 0, MISC_LATENCY, "d.c = cond(A.c, B.c) ? 1.0 : 0.0";
    Setp = 6, "SETP", Misc, 2, Pred, SLOTS, 0, MISC_LATENCY, "P.c = cond(A.c, B.c)";
    Sel = 7, "SEL", Misc, 2, Reg, SLOTS, 0, MISC_LATENCY, "d.c = flush(P.c ? A.c : B.c)";
    Flr = 8, "FLR", Fmad, 1, Reg, SLOTS, 0, LATENCY, "d.c = ffloor(A.c)";
    Ceil = 9, "CEIL", Fmad, 1, Reg, SLOTS, 0, LATENCY, "d.c = fceil(A.c)";
    Trnc = 10, "TRNC", Fmad, 1, Reg, SLOTS, 0, LATENCY, "d.c = ftrunc(A.c)";
    Rnde = 11, "RNDE", Fmad, 1, Reg, SLOTS, 0, LATENCY, "d.c = fround(A.c) (half to even)";
    Expx = 12, "EXPX", Fmad, 1, Reg, SLOTS, 0, LATENCY, "d.c = fexp2_floor(A.c) = 2^floor(A.c)";
    Expn = 13, "EXPN", Misc, 1, Reg, SLOTS, 0, MISC_LATENCY, "d.c = fexp_part(A.c) (unbiased exponent as float)";
    Mant = 14, "MANT", Misc, 1, Reg, SLOTS, 0, MISC_LATENCY, "d.c = fmant_part(A.c) (significand in [1,2))";
    F2if = 15, "F2IF", Fmad, 1, Reg, SLOTS, 0, LATENCY, "d.c = f2i_floor(A.c) as bits";
    F2ir = 16, "F2IR", Fmad, 1, Reg, SLOTS, 0, LATENCY, "d.c = f2i_round(A.c) as bits";
    I2f = 17, "I2F", Fmad, 1, Reg, SLOTS, 0, LATENCY, "d.c = i2f(A.c as int32)";
    U2f = 18, "U2F", Fmad, 1, Reg, SLOTS, 0, LATENCY, "d.c = u2f(A.c)";
    Isgn = 86, "ISGN", Misc, 1, Reg, SLOTS, 0, MISC_LATENCY, "d.c = isgn(A.c as int32): -1.0, 0.0 or 1.0";
    Usgn = 87, "USGN", Misc, 1, Reg, SLOTS, 0, MISC_LATENCY, "d.c = usgn(A.c): 1.0 unless A.c is 0";
    Movr = 19, "MOVR", Misc, 3, Reg, 2 * SLOTS, 0, MISC_LATENCY, "i = int32(R[B.index].(B.swz[0])) + sext10(target); d.c = (0 <= i <= C.index) ? A[A.index + i].c : A of an all-zero vector (relative read; the first 16 clocks read each lane's i; A.index + C.index lies inside A's file)";
    Movw = 43, "MOVW", Misc, 3, Reg, 2 * SLOTS, 0, MISC_LATENCY, "i = int32(R[B.index].(B.swz[0])) + sext10(target); if 0 <= i <= C.index: R[dst + i].c = A.c (relative write; the first 16 clocks read each lane's i; dst + C.index lies inside R), else dropped";
    Ddx = 22, "DDX", Fmad, 1, Reg, SLOTS + DERIV_BUBBLE, 0, LATENCY, "d.c = fsub(A(lane | 1).c, A(lane & 2).c): lanes 0,1 get 1 - 0, lanes 2,3 get 3 - 2";
    Ddy = 23, "DDY", Fmad, 1, Reg, SLOTS + DERIV_BUBBLE, 0, LATENCY, "d.c = fsub(A(lane | 2).c, A(lane & 1).c): lanes 0,2 get 2 - 0, lanes 1,3 get 3 - 1";
    Rcp = 20, "RCP", Div, 1, Reg, SLOTS, 15, LATENCY, "d.c = frcp(A.c), correctly rounded; slots issue one after another, so d must not be a register A reads (the core model's divider, `Features::DIVIDER`; the hardware has none: its builds run RCP as a multiply-add sequence, compile/div.rs)";
    Div = 21, "DIV", Div, 2, Reg, SLOTS, 15, LATENCY, "d.c = fdiv(A.c, B.c), correctly rounded; d must not be a register A or B reads (the core model's divider; on the hardware a multiply-add sequence, compile/div.rs)";
    Rsqr = 24, "RSQR", Trans, 1, Reg, SLOTS, 0, MISC_LATENCY, "d.c = rsq_reduce(A.c): 1.f * 2^p in [1, 4), p the parity of exp - 127 (arith::transcendental::steps)";
    Rsqt = 25, "RSQT", Trans, 1, Reg, SLOTS, 0, MISC_LATENCY, "d.c = rsq_seed(A.c): RSQ_SEED[p << 7 | f[22:16]] as an integer";
    Rsqf = 26, "RSQF", Trans, 2, Reg, SLOTS, 0, MISC_LATENCY, "d.c = rsq_finish(A.c, B.c): specials of |A|, else ldexp(B, -(E - p)/2)";
    Ex2t = 27, "EX2T", Trans, 1, Reg, SLOTS, 0, MISC_LATENCY, "d.c = ex2_table(A.c): EX2_TABLE[A & 255] (a float in [1, 2))";
    Ex2f = 28, "EX2F", Trans, 3, Reg, SLOTS, 0, MISC_LATENCY, "d.c = ex2_finish(A.c, B.c, C.c): specials of A (x), else ldexp(B, C[17:8] sign-extended)";
    Lg2m = 29, "LG2M", Trans, 1, Reg, SLOTS, 0, MISC_LATENCY, "d.c = lg2_reduce(A.c): the reduced significand m";
    Lg2h = 30, "LG2H", Trans, 1, Reg, SLOTS, 0, MISC_LATENCY, "d.c = lg2_reduce_hi(A.c): m with its low 8 bits cleared";
    Lg2e = 31, "LG2E", Trans, 1, Reg, SLOTS, 0, MISC_LATENCY, "d.c = lg2_exponent(A.c): the reduced exponent as int32";
    Lg2i = 74, "LG2I", Trans, 1, Reg, SLOTS, 0, MISC_LATENCY, "d.c = lg2_inv(A.c): LG2_INV[f[22:15]] as an integer";
    Lg2a = 75, "LG2A", Trans, 1, Reg, SLOTS, 0, MISC_LATENCY, "d.c = lg2_log_hi(A.c): LG2_LOG[f[22:15]] >> 16";
    Lg2b = 76, "LG2B", Trans, 1, Reg, SLOTS, 0, MISC_LATENCY, "d.c = lg2_log_lo(A.c): LG2_LOG[f[22:15]] & 0xFFFF";
    Lg2f = 77, "LG2F", Trans, 2, Reg, SLOTS, 0, MISC_LATENCY, "d.c = lg2_finish(A.c, B.c): specials of A (x), else B";
    Scq = 78, "SCQ", Trans, 3, Reg, SLOTS, 0, MISC_LATENCY, "d.c = sincos_pick(A.c, B.c, C.c): by A & 3: B, C, -B, -C";
    Scf = 79, "SCF", Trans, 2, Reg, SLOTS, 0, MISC_LATENCY, "d.c = sincos_finish(A.c, B.c): NaN when A is NaN or infinite, else B";
    Iadd = 32, "IADD", Int, 2, Reg, SLOTS, 0, MISC_LATENCY, "d.c = iadd(A.c, B.c) (wrapping; operand sign bits unused on integer operations)";
    Isub = 33, "ISUB", Int, 2, Reg, SLOTS, 0, MISC_LATENCY, "d.c = isub(A.c, B.c)";
    And = 36, "AND", Int, 2, Reg, SLOTS, 0, MISC_LATENCY, "d.c = A.c & B.c";
    Or = 37, "OR", Int, 2, Reg, SLOTS, 0, MISC_LATENCY, "d.c = A.c | B.c";
    Xor = 38, "XOR", Int, 2, Reg, SLOTS, 0, MISC_LATENCY, "d.c = A.c ^ B.c";
    Not = 39, "NOT", Int, 1, Reg, SLOTS, 0, MISC_LATENCY, "d.c = !A.c";
    Shl = 40, "SHL", Int, 2, Reg, SLOTS, 0, MISC_LATENCY, "d.c = ishl(A.c, B.c) (by B.c & 31)";
    Shr = 41, "SHR", Int, 2, Reg, SLOTS, 0, MISC_LATENCY, "d.c = ishr(A.c, B.c) (arithmetic, by B.c & 31)";
    Imod = 42, "IMOD", Div, 2, Reg, SLOTS, 17, LATENCY, "d.c = imod(A.c, B.c): signed remainder (urem_steps, 32 steps); by 0 gives 0xFFFFFFFF; d must not be a register A or B reads (the core model's divider; on the hardware the same steps on the integer ALU, compile/div.rs)";
    Tex = 44, "TEX", Tex, 1, Reg, SLOTS * TEX_STEPS, 0, LATENCY, "d = sample(unit B.index, target C.index, A as float coordinates) (decisions.md section 6)";
    Txf = 45, "TXF", Tex, 1, Reg, SLOTS * 2, 0, LATENCY, "d = texel(unit B.index, A as int32 coordinates)";
    Txq = 46, "TXQ", Tex, 1, Reg, SLOTS, 0, MISC_LATENCY, "d.c = A.c: the size descriptor of sampler unit `target` (width, height, depth, levels as int32; a move on the hardware); the model faults when no texture is bound";
    Tidx = 80, "TIDX", Tex, 3, Reg, SLOTS, 0, MISC_LATENCY, "d.c = tidx(A.c, B.c, C.c): int32 A wrapped by axis word C (size, wrap, +1, stride shift); index 0 (+1) when coordinate B is not finite (arith::texel)";
    Tfrc = 81, "TFRC", Tex, 3, Reg, SLOTS, 0, MISC_LATENCY, "d.c = tfrc(A.c, B.c, C.c): the weight A when coordinate B is finite and axis word C filters bilinearly, else +0";
    Tfet = 82, "TFET", Tex, 2, Reg, SLOTS, 0, MISC_LATENCY, "d.c = channel c of the texel at address A.c of sampler unit `target` (B.c: the texture's base in texture memory); A.c must be an address TIDX / TIDXF formed (the hardware reads texture memory at A + B); bit 31 set reads 0";
    Tidxf = 84, "TIDXF", Tex, 2, Reg, SLOTS, 0, MISC_LATENCY, "d.c = tidx_fetch(A.c, B.c): int32 A unwrapped, shifted by axis word B, or 0x80000000 when outside the axis (TXF)";
    Dop = 85, "DOP", Double, 3, Reg, SLOTS * DOUBLE_STEPS, 0, LATENCY, "d = the double opcode numbered target & 0xFF (200 DADD .. 212 DSQRT) on A, B, C as binary64 pairs (xy, zw; x, z the low words), as the reference model computes it; the neg bit of y (w) and abs act on the pair's sign; target bit 8: DFRACEXP's significand instead of its exponent (model only)";
    Tor = 88, "TOR", Tex, 2, Reg, SLOTS, 0, MISC_LATENCY, "d.c = A.c | B.c: a texel address from its row and column indices (the texture unit's own OR: sampling needs no integer ALU)";
    Tsel = 83, "TSEL", Tex, 3, Reg, SLOTS, 0, MISC_LATENCY, "d.c = tsel(A.c, B.c, C.c): A when axis word C filters bilinearly, else B";
    If = 48, "IF", Flow, 0, None, 1 + LATENCY, 0, 0, "cond = any P.c for c in wmask; push (entry E, cond); E &= cond; if E == 0 jump to target (its ELSE or ENDIF, which then runs)";
    Else = 49, "ELSE", Flow, 0, None, 2, 0, 0, "E = entry & !cond of the IF frame; if E == 0 jump to target (ENDIF)";
    Endif = 50, "ENDIF", Flow, 0, None, 2, 0, 0, "pop the IF frame; E = its entry mask";
    Loop = 51, "LOOP", Flow, 0, None, 2, 0, 0, "push a loop frame (entry = live = E, start = pc + 1)";
    Endloop = 52, "ENDLOOP", Flow, 0, None, 2, 0, 0, "if live != 0: E = live, jump to start; else pop, E = entry";
    Brk = 53, "BRK", Flow, 0, None, 2, 0, 0, "active lanes leave the innermost loop (cleared from E, IF frames and live)";
    Cont = 54, "CONT", Flow, 0, None, 2, 0, 0, "active lanes skip to the next iteration (cleared from E and IF frames)";
    Kilp = 55, "KILP", Flow, 0, None, 1 + LATENCY, 0, 0, "kill active lanes with any P.c set for c in wmask";
    Kill = 56, "KILL", Flow, 0, None, 2, 0, 0, "kill every active lane";
    End = 57, "END", Flow, 0, None, 1 + LATENCY, 0, 0, "stop after the last write reaches writeback";
    Cal = 58, "CAL", Flow, 0, None, 2, 0, 0, "if E != 0: push a call frame (entry = live = E, return = pc + 1), jump to target";
    Calp = 59, "CALP", Flow, 0, None, 1 + LATENCY, 0, 0, "CAL for the active lanes with P.x (E &= P.x inside; the frame keeps the full entry)";
    Ret = 60, "RET", Flow, 0, None, 2, 0, 0, "active lanes leave the function (cleared from E, frames and live); when none is live: pop, E = entry, jump to return. In main: those lanes stop; END when none is left";
    Endsub = 61, "ENDSUB", Flow, 0, None, 2, 0, 0, "return from the innermost call (pop to its frame, E = entry, jump to return)";
    Brkp = 62, "BRKP", Flow, 0, None, 1 + LATENCY, 0, 0, "BRK for the active lanes with P.x";
    Loopp = 63, "LOOPP", Flow, 0, None, 1 + LATENCY, 0, 0, "push a loop frame (entry = E, live = E & P.x), E = live; if E == 0 jump to target (its ENDLOOPP)";
    Next = 64, "NEXT", Flow, 0, None, 2, 0, 0, "end of a loop body: E = live of the innermost loop (CONT lanes come back)";
    Emit = 66, "EMIT", Flow, 0, None, SLOTS, 0, 0, "active lanes append a vertex: the output registers (OMAP), streamed to the host";
    Endprim = 67, "ENDPRIM", Flow, 0, None, 2, 0, 0, "active lanes mark their last vertex as the end of a primitive";
    Pusha = 70, "PUSHA", Stack, 1, None, SLOTS, 0, 0, "active lanes push A (4 words) on their address stack (overflow: fault, before any lane pushes)";
    Popa = 71, "POPA", Stack, 0, Reg, SLOTS, 0, MISC_LATENCY, "active lanes pop their address stack into d (empty: fault, before any lane pops)";
    Jmp = 72, "JMP", Flow, 0, None, 2, 0, 0, "jump to target for the whole quad (BRA)";
    Jmpp = 73, "JMPP", Flow, 0, None, 1 + LATENCY, 0, 0, "jump when every active lane has any P.c (c in wmask), fall through when none has; lanes that disagree: fault";
    Endloopp = 65, "ENDLOOPP", Flow, 0, None, 1 + LATENCY, 0, 0, "live &= P.x; then as ENDLOOP";
}

impl Op {
    /// The table row.
    pub fn info(self) -> &'static OpInfo {
        // The table is complete by construction (the macro emits one row per variant). The
        // models look rows up several times per executed instruction: a table by number, built
        // once, replaces the search.
        static BY_NUMBER: std::sync::OnceLock<[u8; 256]> = std::sync::OnceLock::new();
        let index = BY_NUMBER.get_or_init(|| {
            let mut t = [0u8; 256];
            for (k, row) in OPS.iter().enumerate() {
                t[usize::from(row.number)] = k as u8;
            }
            t
        });
        match OPS.get(usize::from(index[usize::from(self as u8)])) {
            Some(row) if row.op == self => row,
            _ => OPS.iter().find(|i| i.op == self).unwrap_or(&OPS[0]),
        }
    }

    /// Looks an operation up by its `op` field value.
    pub fn from_number(n: u8) -> Option<Op> {
        OPS.iter().find(|i| i.number == n).map(|i| i.op)
    }

    /// Mnemonic.
    pub fn mnemonic(self) -> &'static str {
        self.info().mnemonic
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mnemonic())
    }
}

/// Comparison of SET / SETP (the `cond` field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    /// Less than (false when either is NaN).
    Lt = 0,
    /// Greater than or equal (false when either is NaN).
    Ge = 1,
    /// Equal; +0.0 equals -0.0 and subnormals compare as zeros; NaN equals nothing.
    Eq = 2,
    /// Not equal (true when either is NaN).
    Ne = 3,
    /// Greater than (false when either is NaN).
    Gt = 4,
    /// Less than or equal (false when either is NaN).
    Le = 5,
    /// Never true: SETP with it clears predicates.
    Fl = 6,
    /// Always true: SETP with it sets predicates.
    Tr = 7,
}

impl Cond {
    /// All conditions in field order.
    pub const ALL: [Cond; 8] = [
        Cond::Lt,
        Cond::Ge,
        Cond::Eq,
        Cond::Ne,
        Cond::Gt,
        Cond::Le,
        Cond::Fl,
        Cond::Tr,
    ];
    /// Text name.
    pub fn name(self) -> &'static str {
        ["LT", "GE", "EQ", "NE", "GT", "LE", "FL", "TR"][self as usize]
    }
}

/// Source register files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum SrcFile {
    /// Per-lane register file.
    #[default]
    R = 0,
    /// Shared constant file.
    K = 1,
    /// Literal set (`CoreConfig::literals`).
    L = 2,
}

/// Swizzle selectors 0-3 pick x, y, z, w; these two give literal 0.0 and 1.0 (EXT_SWZ).
pub const SWZ_ZERO: u8 = 4;
/// The swizzle selector that reads a literal 1.0 (EXT_SWZ's ONE).
pub const SWZ_ONE: u8 = 5;

/// A source operand: read address (file, index, per-component swizzle) and sign-bit modifiers
/// (absolute first, then the per-component negate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Operand {
    /// Which file the operand reads: per-lane registers, the shared constants or the literal set.
    pub file: SrcFile,
    /// The register, constant or literal number within `file` (below `1 << INDEX_BITS`).
    pub index: u8,
    /// Per component c, the component read (0-3 for x-w, [`SWZ_ZERO`] or [`SWZ_ONE`] for a
    /// literal).
    pub swz: [u8; 4],
    /// Bit c negates component c.
    pub neg: u8,
    /// Clears the sign bits before `neg` applies: TGSI's absolute value.
    pub abs: bool,
}

impl Default for Operand {
    fn default() -> Self {
        Operand {
            file: SrcFile::L,
            index: 0,
            swz: [0, 1, 2, 3],
            neg: 0,
            abs: false,
        }
    }
}

/// One core instruction, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Instr {
    /// The operation; [`Op::info`] gives its unit, sources and timing.
    pub op: Op,
    /// Destination register of R.
    pub dst: u8,
    /// Bit c enables component c (for SETP: the predicate components; for KILP: those tested).
    pub wmask: u8,
    /// 0 none, 1 [0, 1], 2 [-1, 1].
    pub sat: u8,
    /// The comparison of SET and SETP; ignored by every other operation.
    pub cond: Cond,
    /// Predicated write: 0 always, 1 where P.c, 2 where !P.c.
    pub pw: u8,
    /// Branch target (instruction index).
    pub target: u16,
    /// Operands A, B and C; an operation reads the first [`OpInfo::sources`] of them (MOVR and
    /// MOVW read only A's value: B names their index register, C.index is their limit).
    pub src: [Operand; 3],
}

impl Instr {
    /// MOVR's and MOVW's signed offset: the target field sign-extended from [`TARGET_BITS`].
    pub fn offset(&self) -> i32 {
        const SHIFT: u32 = 16 - TARGET_BITS;
        i32::from(((self.target << SHIFT) as i16) >> SHIFT)
    }

    /// Writes MOVR's and MOVW's signed offset into the target field (its low
    /// [`TARGET_BITS`] bits, two's complement; the caller keeps it in range).
    pub fn set_offset(&mut self, offset: i32) {
        self.target = (offset as u16) & TARGET_MASK;
    }

    /// The divider's rule: its slots issue one after another, each reading its operands when
    /// it issues, so a divider instruction must not write a register of R that it reads.
    pub fn breaks_divider_rule(&self) -> bool {
        let info = self.op.info();
        info.unit == Unit::Div
            && self
                .src
                .iter()
                .take(usize::from(info.sources))
                .any(|o| o.file == SrcFile::R && o.index == self.dst)
    }

    /// The operands whose values pass through the operand read ports, in A, B, C order: the
    /// first `sources` of them, except that MOVR and MOVW read only A there (B names the index
    /// register, read on a port of its own; C.index is a limit).
    pub fn value_operands(&self) -> impl Iterator<Item = (usize, &Operand)> {
        let n = match self.op {
            Op::Movr | Op::Movw => 1,
            op => usize::from(op.info().sources),
        };
        self.src.iter().enumerate().take(n)
    }

    /// The constant rule: the core keeps one copy of the constant file K, read once per clock,
    /// so every K operand an instruction reads must name the same vector view (index and all
    /// four swizzle selectors; the sign-bit modifiers may differ). The compiler moves any other
    /// K operand into a scratch register first.
    pub fn breaks_constant_rule(&self) -> bool {
        let mut view = None;
        for (_, o) in self.value_operands() {
            if o.file == SrcFile::K {
                match view {
                    None => view = Some((o.index, o.swz)),
                    Some(v) if v != (o.index, o.swz) => return true,
                    Some(_) => {}
                }
            }
        }
        false
    }

    /// An instruction with nothing but the operation set (write mask xyzw).
    pub fn new(op: Op) -> Instr {
        Instr {
            op,
            dst: 0,
            wmask: 0xF,
            sat: 0,
            cond: Cond::Lt,
            pw: 0,
            target: 0,
            src: [Operand::default(); 3],
        }
    }
}

/// Instruction fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// `op`: the operation number (7 bits).
    Op,
    /// `dst`: the destination register of R.
    Dst,
    /// `wmask`: the write mask, bit c for component c.
    Wmask,
    /// `sat`: 0 none, 1 clamp to [0, 1], 2 clamp to [-1, 1].
    Sat,
    /// `cond`: the SET / SETP comparison ([`Cond`]).
    Cond,
    /// `pw`: the predicated write (0 always, 1 where P.c, 2 where !P.c).
    Pw,
    /// `target`: a branch target, a sampler unit, DOP's double opcode or MOVR/MOVW's signed
    /// offset.
    Target,
    /// An operand's `file` (0 A, 1 B, 2 C).
    File(u8),
    /// An operand's `index` (0 A, 1 B, 2 C).
    Index(u8),
    /// An operand's `swz`: four 3-bit selectors, x in the lowest bits (0 A, 1 B, 2 C).
    Swz(u8),
    /// An operand's `neg`: one negate bit per component (0 A, 1 B, 2 C).
    Neg(u8),
    /// An operand's `abs` bit (0 A, 1 B, 2 C).
    Abs(u8),
}

/// One row of the field table.
#[derive(Clone, Copy, Debug)]
pub struct FieldInfo {
    /// Which field.
    pub field: Field,
    /// The field's name in disassembly, error messages and ARCHITECTURE.md (`a.swz`).
    pub name: &'static str,
    /// The field's lowest bit in the instruction word.
    pub lsb: u32,
    /// The field's width in bits.
    pub width: u32,
}

const fn fi(field: Field, name: &'static str, lsb: u32, width: u32) -> FieldInfo {
    FieldInfo {
        field,
        name,
        lsb,
        width,
    }
}

/// Width of a register index (`dst` and each operand's `index`): 64 registers of R, 64 constants
/// of K (`CoreConfig::registers` and `constants` may not exceed it). Six bits rather than eight
/// make the word 109 bits, seven block RAMs of instruction memory instead of eight.
pub const INDEX_BITS: u32 = 6;

/// Width of the branch target field (MOVR, MOVW: a signed offset in it), so programs are at most
/// `1 << TARGET_BITS` instructions.
pub const TARGET_BITS: u32 = 10;
/// The target field's bits, for an offset written into it.
pub const TARGET_MASK: u16 = (1 << TARGET_BITS) - 1;

/// Bits of one operand's fields.
const OPERAND_BITS: u32 = 2 + INDEX_BITS + 12 + 4 + 1;
const A: u32 = 34;
const B: u32 = A + OPERAND_BITS;
const C: u32 = B + OPERAND_BITS;

/// Width of an instruction word in bits (the rest of the u128 is zero).
pub const WORD_BITS: u32 = C + OPERAND_BITS;

/// THE field table: name, lowest bit, width. `encode` and `decode` are driven by it only.
pub static FIELDS: &[FieldInfo] = &[
    fi(Field::Op, "op", 0, 7),
    fi(Field::Dst, "dst", 7, INDEX_BITS),
    fi(Field::Wmask, "wmask", 13, 4),
    fi(Field::Sat, "sat", 17, 2),
    fi(Field::Cond, "cond", 19, 3),
    fi(Field::Pw, "pw", 22, 2),
    fi(Field::Target, "target", 24, TARGET_BITS),
    fi(Field::File(0), "a.file", A, 2),
    fi(Field::Index(0), "a.index", A + 2, INDEX_BITS),
    fi(Field::Swz(0), "a.swz", A + 8, 12),
    fi(Field::Neg(0), "a.neg", A + 20, 4),
    fi(Field::Abs(0), "a.abs", A + 24, 1),
    fi(Field::File(1), "b.file", B, 2),
    fi(Field::Index(1), "b.index", B + 2, INDEX_BITS),
    fi(Field::Swz(1), "b.swz", B + 8, 12),
    fi(Field::Neg(1), "b.neg", B + 20, 4),
    fi(Field::Abs(1), "b.abs", B + 24, 1),
    fi(Field::File(2), "c.file", C, 2),
    fi(Field::Index(2), "c.index", C + 2, INDEX_BITS),
    fi(Field::Swz(2), "c.swz", C + 8, 12),
    fi(Field::Neg(2), "c.neg", C + 20, 4),
    fi(Field::Abs(2), "c.abs", C + 24, 1),
];

/// A word that is not an instruction.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// The `op` field holds a number that no row of [`OPS`] has (a corrupt image or a word from
    /// another build).
    #[error("unknown operation number {0}")]
    UnknownOp(u32),
    /// A field holds a value no instruction uses: `sat` or `pw` above 2, `file` 3, or a
    /// swizzle selector above [`SWZ_ONE`].
    #[error("field {field} holds {value}, which is not valid")]
    BadField {
        /// The field's name in [`FIELDS`].
        field: &'static str,
        /// The value it holds.
        value: u32,
    },
    /// Bits at or above [`WORD_BITS`] are set: the word is not one this ISA encodes.
    #[error("bits above bit {} are set", WORD_BITS - 1)]
    HighBits,
}

fn get(i: &Instr, f: Field) -> u32 {
    let o = |k: u8| &i.src[usize::from(k)];
    match f {
        Field::Op => i.op as u32,
        Field::Dst => u32::from(i.dst),
        Field::Wmask => u32::from(i.wmask),
        Field::Sat => u32::from(i.sat),
        Field::Cond => i.cond as u32,
        Field::Pw => u32::from(i.pw),
        Field::Target => u32::from(i.target),
        Field::File(k) => o(k).file as u32,
        Field::Index(k) => u32::from(o(k).index),
        Field::Swz(k) => o(k)
            .swz
            .iter()
            .enumerate()
            .map(|(c, &s)| u32::from(s & 7) << (3 * c))
            .sum(),
        Field::Neg(k) => u32::from(o(k).neg),
        Field::Abs(k) => u32::from(o(k).abs),
    }
}

fn set(i: &mut Instr, f: &FieldInfo, v: u32) -> Result<(), DecodeError> {
    let bad = || DecodeError::BadField {
        field: f.name,
        value: v,
    };
    // Field widths bound every value below, so the narrowing casts cannot lose bits.
    match f.field {
        Field::Op => i.op = Op::from_number(v as u8).ok_or(DecodeError::UnknownOp(v))?,
        Field::Dst => i.dst = v as u8,
        Field::Wmask => i.wmask = v as u8,
        Field::Sat => {
            if v > 2 {
                return Err(bad());
            }
            i.sat = v as u8
        }
        Field::Cond => i.cond = Cond::ALL[(v & 7) as usize],
        Field::Pw => {
            if v > 2 {
                return Err(bad());
            }
            i.pw = v as u8
        }
        Field::Target => i.target = v as u16,
        Field::File(k) => {
            i.src[usize::from(k)].file = match v {
                0 => SrcFile::R,
                1 => SrcFile::K,
                2 => SrcFile::L,
                _ => return Err(bad()),
            }
        }
        Field::Index(k) => i.src[usize::from(k)].index = v as u8,
        Field::Swz(k) => {
            for c in 0..4 {
                let s = ((v >> (3 * c)) & 7) as u8;
                if s > SWZ_ONE {
                    return Err(bad());
                }
                i.src[usize::from(k)].swz[c] = s;
            }
        }
        Field::Neg(k) => i.src[usize::from(k)].neg = v as u8,
        Field::Abs(k) => i.src[usize::from(k)].abs = v != 0,
    }
    Ok(())
}

/// Packs an instruction into its word, field by field from [`FIELDS`].
pub fn encode(i: &Instr) -> u128 {
    FIELDS.iter().fold(0u128, |w, f| {
        let mask = (1u128 << f.width) - 1;
        w | ((u128::from(get(i, f.field)) & mask) << f.lsb)
    })
}

/// Unpacks a word, field by field from [`FIELDS`].
pub fn decode(w: u128) -> Result<Instr, DecodeError> {
    if w >> WORD_BITS != 0 {
        return Err(DecodeError::HighBits);
    }
    let mut i = Instr::new(Op::Nop);
    for f in FIELDS {
        let v = ((w >> f.lsb) & ((1u128 << f.width) - 1)) as u32;
        set(&mut i, f, v)?;
    }
    Ok(i)
}

/// The operation and field tables as Markdown (ARCHITECTURE.md embeds this text; a test keeps
/// the two equal).
pub fn tables_markdown() -> String {
    use std::fmt::Write;
    let mut t = String::from(
        "| op | mnemonic | unit | sources | writes | clocks | per slot | latency | semantics |\n|---|---|---|---|---|---|---|---|---|\n",
    );
    for o in OPS {
        let _ = writeln!(
            t,
            "| {} | {} | {:?} | {} | {:?} | {} | {} | {} | {} |",
            o.number,
            o.mnemonic,
            o.unit,
            o.sources,
            o.dst,
            o.issue,
            o.per_slot,
            o.latency,
            o.semantics.replace('|', "\\|")
        );
    }
    t.push_str("\n| field | lsb | width |\n|---|---|---|\n");
    for f in FIELDS {
        let _ = writeln!(t, "| {} | {} | {} |", f.name, f.lsb, f.width);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_tile_the_word_without_overlap() {
        let mut used = 0u128;
        for f in FIELDS {
            let m = ((1u128 << f.width) - 1) << f.lsb;
            assert_eq!(used & m, 0, "{} overlaps", f.name);
            used |= m;
        }
        assert_eq!(used, (1u128 << WORD_BITS) - 1);
    }

    #[test]
    fn op_numbers_unique_and_fit() {
        for (k, a) in OPS.iter().enumerate() {
            assert!(a.number < 128);
            assert_eq!(a.op as u8, a.number);
            assert!(OPS[k + 1..].iter().all(|b| b.number != a.number));
            assert_eq!(Op::from_number(a.number), Some(a.op));
        }
    }

    #[test]
    fn encode_decode_round_trip() {
        let mut i = Instr::new(Op::Fmad);
        i.dst = 50;
        i.wmask = 0b1010;
        i.sat = 2;
        i.cond = Cond::Le;
        i.pw = 2;
        i.target = 1000;
        i.src[0] = Operand {
            file: SrcFile::K,
            index: 63,
            swz: [3, 2, 5, 4],
            neg: 0b1001,
            abs: true,
        };
        i.src[2].file = SrcFile::R;
        let w = encode(&i);
        assert_eq!(w & 0x7F, 2);
        assert_eq!((w >> 7) & 0x3F, 50);
        assert_eq!(decode(w), Ok(i));
        assert_eq!(decode(127), Err(DecodeError::UnknownOp(127)));
        assert_eq!(decode(1u128 << 127), Err(DecodeError::HighBits));
    }

    #[test]
    fn architecture_md_holds_the_tables() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../ARCHITECTURE.md");
        let doc = std::fs::read_to_string(path).unwrap_or_default();
        let t = tables_markdown();
        assert!(
            doc.contains(&t),
            "ARCHITECTURE.md must contain the generated ISA tables:\n{t}"
        );
    }

    #[test]
    fn cycle_columns() {
        assert_eq!(Op::Fmad.info().cycles(0b0001), 16);
        assert_eq!(Op::Div.info().cycles(0b0011), 16 + 15 * 8);
        assert_eq!(Op::Rsqf.info().cycles(0x1), 16);
        assert_eq!(Op::If.info().cycles(0), 14);
    }
}

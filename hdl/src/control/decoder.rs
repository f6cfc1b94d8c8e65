//! `Decoder`: splits a core instruction (109 bits, read as 112) into its fields and looks its operation up in the
//! control ROMs; both come from the ISA tables of `microcode::core::isa`.
//!
//! Field positions are read from [`isa::FIELDS`] when the block is built (they become Verilog
//! `localparam`s); the control ROMs are filled from [`isa::OPS`] (clocks, write kind) and from
//! [`control`], this crate's one mapping of each core operation onto the datapath. Adding an
//! operation to the ISA without deciding how the hardware executes it does not compile, because
//! [`control`] matches every [`Op`].
//!
//! Ports: `w0..w3` are the four 32-bit words of the instruction as the host writes them
//! (`w3` holds bits 96..111); every other port is an output. Register indices are
//! [`isa::INDEX_BITS`] wide in the word and leave as 8-bit numbers. Timing: combinational.
use crate::fadd::{AddOp, RoundMode};
use microcode::core::isa::{self, DstKind, Field, Op, Unit, FIELDS, OPS};
use rust_hdl::prelude::*;
use std::collections::BTreeMap;

/// How the sequencer executes an operation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum ExecKind {
    /// Not built in this hardware (and every unknown operation number: the ROMs' default): the
    /// core stops with the `MISSING_UNIT` fault.
    Missing,
    /// Pipelined: 16 slots, one per clock, in the last 16 clocks of the instruction.
    Alu,
    /// Sequencer flow control, evaluated in the instruction's last clock.
    Flow,
}

/// Which unit result the writeback stage takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum ResultSel {
    /// The multiply-add pipeline: FMAD, the derivatives, and the adder's conversions
    /// ([`Control::add_op`]).
    Fmad,
    /// MOV and the other operand moves: operand A as it is.
    Mov,
    /// MIN: the smaller of A and B (`FCmp`).
    Min,
    /// MAX: the larger of A and B.
    Max,
    /// SET and SETP: 1.0 or 0.0 (SETP: a predicate) by the comparison of A and B.
    Set,
    /// SEL: A or B by the slot's predicate bit (flushed).
    Sel,
    /// `EXPN`: the unbiased exponent as a float.
    Expn,
    /// `MANT`: the significand as a float in [1, 2).
    Mant,
    /// `ISGN` / `USGN` (signed by `i2f_mode`): -1.0, 0.0 or 1.0 from the operand's bits.
    Sign,
    /// The integer ALU ([`IntOp`]).
    Int,
    /// The transcendental step unit ([`crate::trans_unit::TransUnit`]).
    Trans,
    /// The texture unit ([`crate::tex_unit::TexUnit`]).
    Tex,
}

/// Step of the texture unit (one per texture-sequence operation of the ISA).
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum TexOp {
    /// `TIDX`: wrap and place an index.
    Idx,
    /// `TFRC`: the bilinear weight or zero.
    Frc,
    /// `TFET`: a texel's channel from texture memory.
    Fet,
    /// `TSEL`: filtered value or texel.
    Sel,
    /// `TIDXF`: an unwrapped index, or the "outside" address bit.
    IdxF,
    /// `TOR`: A | B (a texel address from its row and column).
    Or,
}

impl TexOp {
    /// Every step in encoding order (the enum's order is its Verilog encoding).
    pub const ALL: [TexOp; 6] = [
        TexOp::Idx,
        TexOp::Frc,
        TexOp::Fet,
        TexOp::Sel,
        TexOp::IdxF,
        TexOp::Or,
    ];
}

/// Step of the transcendental unit (one per `Seq` operation of the ISA).
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum TransOp {
    /// `RSQR` (`isa::Op::Rsqr`): rsq_reduce: the operand reduced to [1, 4) and its exponent parity.
    Rsqr,
    /// `RSQT` (`isa::Op::Rsqt`): rsq_seed: the reciprocal square root seed from the table.
    Rsqt,
    /// `RSQF` (`isa::Op::Rsqf`): rsq_finish: the specials, else the scaled result.
    Rsqf,
    /// `EX2T` (`isa::Op::Ex2t`): ex2_table: 2^(fraction) from the table.
    Ex2t,
    /// `EX2F` (`isa::Op::Ex2f`): ex2_finish: the specials, else the result scaled by the integer part.
    Ex2f,
    /// `LG2M` (`isa::Op::Lg2m`): lg2_reduce: the reduced significand.
    Lg2m,
    /// `LG2H` (`isa::Op::Lg2h`): lg2_reduce_hi: the reduced significand, low 8 bits cleared.
    Lg2h,
    /// `LG2E` (`isa::Op::Lg2e`): lg2_exponent: the reduced exponent as int32.
    Lg2e,
    /// `LG2I` (`isa::Op::Lg2i`): lg2_inv: the reciprocal table entry.
    Lg2i,
    /// `LG2A` (`isa::Op::Lg2a`): lg2_log_hi: the log table entry, high half.
    Lg2a,
    /// `LG2B` (`isa::Op::Lg2b`): lg2_log_lo: the log table entry, low half.
    Lg2b,
    /// `LG2F` (`isa::Op::Lg2f`): lg2_finish: the specials, else the result.
    Lg2f,
    /// `SCQ` (`isa::Op::Scq`): sincos_pick: the quadrant's sine or cosine, signed.
    Scq,
    /// `SCF` (`isa::Op::Scf`): sincos_finish: NaN for a NaN or infinite angle, else the result.
    Scf,
}

/// Integer ALU operation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum IntOp {
    /// IADD: A + B, wrapping.
    Iadd,
    /// ISUB: A - B, wrapping.
    Isub,
    /// AND: A & B.
    And,
    /// OR: A | B.
    Or,
    /// XOR: A ^ B.
    Xor,
    /// NOT: !A.
    Not,
    /// SHL: A << (B & 31).
    Shl,
    /// SHR: A >> (B & 31), arithmetic.
    Shr,
}

/// Flow operation evaluated by the sequencer.
#[derive(Copy, Clone, Debug, PartialEq, Eq, LogicState)]
pub enum FlowOp {
    /// Not a flow operation (or NOP): nothing.
    Nop,
    /// IF: push an IF frame, the lanes whose predicate passes continue; none: jump to the target.
    If,
    /// ELSE: the IF frame's other lanes; none: jump to the target.
    Else,
    /// ENDIF: pop the IF frame.
    Endif,
    /// BGNLOOP: push a loop frame.
    Loop,
    /// ENDLOOP: lanes still looping jump back to the target, else pop.
    Endloop,
    /// BRK: every executing lane leaves the innermost loop.
    Brk,
    /// BRKP: BRK for the executing lanes with P.x.
    Brkp,
    /// CONT: every executing lane waits for the next iteration.
    Cont,
    /// KILP: kill the executing lanes with any P.c set (c in the write mask).
    Kilp,
    /// KILL: kill every executing lane.
    Kill,
    /// END: the run ends.
    End,
    /// CAL: push a call frame and jump to the target.
    Cal,
    /// CALP: CAL for the executing lanes with P.x.
    Calp,
    /// RET: the executing lanes leave the function (in the main program they stop).
    Ret,
    /// ENDSUB: return from the innermost call.
    Endsub,
    /// LOOPP: push a loop frame whose live lanes are those with P.x; none: jump to the target.
    Loopp,
    /// NEXT: the end of a loop body: the loop's live lanes (CONT lanes come back) execute.
    Next,
    /// ENDLOOPP: the live lanes with P.x loop back to the target; none: pop.
    Endloopp,
    /// JMP: jump to the target.
    Jmp,
    /// JMPP: jump when every live executing lane's predicate passes, fall through when none
    /// does; lanes that disagree: the `DIVERGENT` fault.
    Jmpp,
    /// Pause for the host to read a vertex (geometry output).
    Emit,
    /// Pause for the host to end the primitive.
    Endprim,
}

/// The signedness of [`ResultSel::Sign`].
pub mod i2f_mode {
    /// The operand as int32.
    pub const SIGNED: u64 = 0;
    /// The operand as uint32.
    pub const UNSIGNED: u64 = 1;
}

/// Derivative operand routing.
pub mod deriv {
    /// Not a derivative.
    pub const NONE: u64 = 0;
    /// `DDX`: A from lane | 1, C = -A from lane & 2.
    pub const X: u64 = 1;
    /// `DDY`: A from lane | 2, C = -A from lane & 1.
    pub const Y: u64 = 2;
}

/// The datapath control of one core operation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Control {
    /// How the sequencer executes it.
    pub kind: ExecKind,
    /// Which unit's result is written.
    pub result: ResultSel,
    /// The flow operation ([`FlowOp::Nop`] unless `kind` is `Flow`).
    pub flow: FlowOp,
    /// What the multiply-add pipeline's adder does (`Add` but for its conversions).
    pub add_op: AddOp,
    /// Rounding direction of the adder's conversions.
    pub round: RoundMode,
    /// The operand A reaches the adder as the addend (operand C reads A's register): the
    /// conversions, which ignore the product.
    pub conv: bool,
    /// The integer ALU's operation.
    pub int_op: IntOp,
    /// Signedness of [`ResultSel::Sign`] ([`i2f_mode`]).
    pub i2f_mode: u64,
    /// Derivative operand routing ([`deriv`]).
    pub deriv: u64,
    /// The transcendental step.
    pub trans: TransOp,
    /// The texture step.
    pub tex: TexOp,
    /// Relative addressing ([`rel`]): MOVR's source or MOVW's destination moves by the lane's
    /// index.
    pub rel: u64,
    /// The address stack's operation ([`astack`]).
    pub astack: u64,
}

/// The address stack's operation ([`Control::astack`]).
pub mod astack {
    /// Neither.
    pub const NONE: u64 = 0;
    /// PUSHA: each executing lane pushes operand A.
    pub const PUSH: u64 = 1;
    /// POPA: each executing lane pops its top into the destination.
    pub const POP: u64 = 2;
}

/// Relative addressing of MOVR / MOVW.
pub mod rel {
    /// None.
    pub const NONE: u64 = 0;
    /// MOVR: operand A is read at `A.index + i`, or reads zero when `i` is out of range.
    pub const READ: u64 = 1;
    /// MOVW: the destination is `dst + i`; out of range, nothing is written.
    pub const WRITE: u64 = 2;
}

const fn ctl(kind: ExecKind, result: ResultSel) -> Control {
    Control {
        kind,
        result,
        flow: FlowOp::Nop,
        add_op: AddOp::Add,
        round: RoundMode::Floor,
        conv: false,
        int_op: IntOp::Iadd,
        i2f_mode: i2f_mode::SIGNED,
        deriv: deriv::NONE,
        trans: TransOp::Rsqr,
        tex: TexOp::Idx,
        rel: rel::NONE,
        astack: astack::NONE,
    }
}

const fn address_stack(op: u64) -> Control {
    let mut c = alu(ResultSel::Mov);
    c.astack = op;
    c
}

const fn relative(r: u64) -> Control {
    let mut c = alu(ResultSel::Mov);
    c.rel = r;
    c
}

const fn trans(t: TransOp) -> Control {
    let mut c = alu(ResultSel::Trans);
    c.trans = t;
    c
}

const fn tex(t: TexOp) -> Control {
    let mut c = alu(ResultSel::Tex);
    c.tex = t;
    c
}

const fn alu(result: ResultSel) -> Control {
    ctl(ExecKind::Alu, result)
}

const fn convert(op: AddOp, mode: RoundMode) -> Control {
    let mut c = alu(ResultSel::Fmad);
    c.add_op = op;
    c.round = mode;
    c.conv = true;
    c
}

const fn int(op: IntOp) -> Control {
    let mut c = alu(ResultSel::Int);
    c.int_op = op;
    c
}

const fn flow(f: FlowOp) -> Control {
    let mut c = ctl(ExecKind::Flow, ResultSel::Mov);
    c.flow = f;
    c
}

const MISSING: Control = ctl(ExecKind::Missing, ResultSel::Mov);

/// How this hardware executes `op` (the one place that maps the ISA onto the datapath).
pub const fn control(op: Op) -> Control {
    use ResultSel as R;
    match op {
        Op::Nop => flow(FlowOp::Nop),
        Op::Mov => alu(R::Mov),
        Op::Fmad => alu(R::Fmad),
        Op::Min => alu(R::Min),
        Op::Max => alu(R::Max),
        Op::Set | Op::Setp => alu(R::Set),
        Op::Sel => alu(R::Sel),
        Op::Flr => convert(AddOp::Integral, RoundMode::Floor),
        Op::Ceil => convert(AddOp::Integral, RoundMode::Ceil),
        Op::Trnc => convert(AddOp::Integral, RoundMode::Trunc),
        Op::Rnde => convert(AddOp::Integral, RoundMode::NearestEven),
        Op::Expx => convert(AddOp::Expx, RoundMode::Floor),
        Op::Expn => alu(R::Expn),
        Op::Mant => alu(R::Mant),
        Op::F2if => convert(AddOp::F2i, RoundMode::Floor),
        Op::F2ir => convert(AddOp::F2i, RoundMode::NearestEven),
        Op::I2f => convert(AddOp::I2fS, RoundMode::Floor),
        Op::U2f => convert(AddOp::I2fU, RoundMode::Floor),
        Op::Isgn => {
            let mut c = alu(R::Sign);
            c.i2f_mode = i2f_mode::SIGNED;
            c
        }
        Op::Usgn => {
            let mut c = alu(R::Sign);
            c.i2f_mode = i2f_mode::UNSIGNED;
            c
        }
        Op::Ddx => {
            let mut c = alu(R::Fmad);
            c.deriv = deriv::X;
            c
        }
        Op::Ddy => {
            let mut c = alu(R::Fmad);
            c.deriv = deriv::Y;
            c
        }
        Op::Iadd => int(IntOp::Iadd),
        Op::Isub => int(IntOp::Isub),
        Op::And => int(IntOp::And),
        Op::Or => int(IntOp::Or),
        Op::Xor => int(IntOp::Xor),
        Op::Not => int(IntOp::Not),
        Op::Shl => int(IntOp::Shl),
        Op::Shr => int(IntOp::Shr),
        Op::If => flow(FlowOp::If),
        Op::Else => flow(FlowOp::Else),
        Op::Endif => flow(FlowOp::Endif),
        Op::Loop => flow(FlowOp::Loop),
        Op::Endloop => flow(FlowOp::Endloop),
        Op::Brk => flow(FlowOp::Brk),
        Op::Brkp => flow(FlowOp::Brkp),
        Op::Cont => flow(FlowOp::Cont),
        Op::Kilp => flow(FlowOp::Kilp),
        Op::Kill => flow(FlowOp::Kill),
        Op::End => flow(FlowOp::End),
        Op::Cal => flow(FlowOp::Cal),
        Op::Calp => flow(FlowOp::Calp),
        Op::Ret => flow(FlowOp::Ret),
        Op::Endsub => flow(FlowOp::Endsub),
        Op::Loopp => flow(FlowOp::Loopp),
        Op::Next => flow(FlowOp::Next),
        Op::Endloopp => flow(FlowOp::Endloopp),
        Op::Jmp => flow(FlowOp::Jmp),
        Op::Jmpp => flow(FlowOp::Jmpp),
        Op::Emit => flow(FlowOp::Emit),
        Op::Endprim => flow(FlowOp::Endprim),
        Op::Rsqr => trans(TransOp::Rsqr),
        Op::Rsqt => trans(TransOp::Rsqt),
        Op::Rsqf => trans(TransOp::Rsqf),
        Op::Ex2t => trans(TransOp::Ex2t),
        Op::Ex2f => trans(TransOp::Ex2f),
        Op::Lg2m => trans(TransOp::Lg2m),
        Op::Lg2h => trans(TransOp::Lg2h),
        Op::Lg2e => trans(TransOp::Lg2e),
        Op::Lg2i => trans(TransOp::Lg2i),
        Op::Lg2a => trans(TransOp::Lg2a),
        Op::Lg2b => trans(TransOp::Lg2b),
        Op::Lg2f => trans(TransOp::Lg2f),
        Op::Scq => trans(TransOp::Scq),
        Op::Scf => trans(TransOp::Scf),
        Op::Movr => relative(rel::READ),
        Op::Movw => relative(rel::WRITE),
        Op::Pusha => address_stack(astack::PUSH),
        Op::Popa => address_stack(astack::POP),
        Op::Tidx => tex(TexOp::Idx),
        Op::Tfrc => tex(TexOp::Frc),
        Op::Tfet => tex(TexOp::Fet),
        Op::Tsel => tex(TexOp::Sel),
        Op::Tor => tex(TexOp::Or),
        Op::Tidxf => tex(TexOp::IdxF),
        // TXQ moves the size descriptor (the engines check that a texture is bound).
        Op::Txq => alu(ResultSel::Mov),
        // Model-only: 3D / cube / shadow sampling and their texel fetch, double arithmetic that
        // does not fit the binary64 library, and the divider's operations (the hardware divides
        // with multiply-add and integer sequences, `microcode/src/compile/recip.rs`).
        Op::Tex | Op::Txf | Op::Dop | Op::Div | Op::Rcp | Op::Imod => MISSING,
    }
}

/// True when this hardware executes `op` (its [`control`] is not [`ExecKind::Missing`]).
pub fn implemented(op: Op) -> bool {
    control(op).kind != ExecKind::Missing
}

/// The control of `op` in a core built with `features` (`CoreConfig::features`): an operation
/// whose unit the build leaves out is [`ExecKind::Missing`] (the core faults `MISSING_UNIT`, as
/// the core model does for that configuration).
pub fn control_with(op: Op, features: u32) -> Control {
    let need = op.info().unit.feature();
    if need == 0 || features & need != 0 {
        control(op)
    } else {
        MISSING
    }
}

/// [`implemented`] for a build with `features`.
pub fn implemented_with(op: Op, features: u32) -> bool {
    control_with(op, features).kind != ExecKind::Missing
}

fn lsb(f: Field) -> Constant<Bits<8>> {
    let pos = FIELDS.iter().find(|i| i.field == f).map_or(0, |i| i.lsb);
    Constant::new(u64::from(pos).to_bits())
}

fn rom<D: Synth>(f: impl Fn(&isa::OpInfo) -> D) -> ROM<D, 7> {
    let mut m = BTreeMap::new();
    for info in OPS {
        m.insert(u64::from(info.number).to_bits(), f(info));
    }
    ROM::new(m)
}

/// The widths this block extracts, by field (a test compares them with [`isa::FIELDS`]).
pub const FIELD_WIDTHS: &[(&str, u32)] = &[
    ("op", 7),
    ("dst", 6),
    ("wmask", 4),
    ("sat", 2),
    ("cond", 3),
    ("pw", 2),
    ("target", 10),
    ("a.file", 2),
    ("a.index", 6),
    ("a.swz", 12),
    ("a.neg", 4),
    ("a.abs", 1),
    ("b.file", 2),
    ("b.index", 6),
    ("b.swz", 12),
    ("b.neg", 4),
    ("b.abs", 1),
    ("c.file", 2),
    ("c.index", 6),
    ("c.swz", 12),
    ("c.neg", 4),
    ("c.abs", 1),
];

/// The decoder's outputs for the sequencer ([`crate::sequencer::Sequencer`]). Like every
/// decoder output, combinational from the instruction word, so valid in every clock of the
/// instruction (the instruction memory holds the word from the instruction's first clock to its
/// last).
#[derive(LogicInterface, Default)]
pub struct SeqControl {
    /// How the instruction executes (pipelined slots, flow control, or a missing unit).
    pub kind: Signal<Out, ExecKind>,
    /// The flow operation ([`FlowOp::Nop`] for ALU instructions).
    pub flow: Signal<Out, FlowOp>,
    /// Clocks of the instruction (`OpInfo::issue`), before the retire wait the sequencer adds.
    pub issue: Signal<Out, Bits<9>>,
    /// Writes R or P through the short path (`isa::MISC_LATENCY`): the sequencer applies the
    /// ISA's retire rule (`isa::retire_wait`).
    pub short_write: Signal<Out, Bit>,
    /// Writes R or P through the multiply-add pipeline (`isa::LATENCY`).
    pub long_write: Signal<Out, Bit>,
    /// The target field: a flow instruction's branch target (instruction index), MOVR's and
    /// MOVW's signed offset ([`isa::TARGET_BITS`] bits, sign-extended by `RelIndex`).
    pub target: Signal<Out, Bits<10>>,
}

/// One source operand's fields, for operand fetch ([`crate::operand_read::OperandRead`]).
/// Meaningful only for the operands the operation reads.
#[derive(LogicInterface, Default)]
pub struct SourceFields {
    /// Register file (`isa::SrcFile`'s encoding: 0 R, 1 K, 2 the literals).
    pub file: Signal<Out, Bits<2>>,
    /// Register index within the file ([`isa::INDEX_BITS`] bits, zero-extended).
    pub index: Signal<Out, Bits<8>>,
    /// Swizzle: 3 bits per result component c (bits `3c..3c+2`): 0-3 pick x, y, z, w;
    /// `isa::SWZ_ZERO` and `isa::SWZ_ONE` give 0.0 and 1.0.
    pub swz: Signal<Out, Bits<12>>,
    /// Negate per result component (bit c), applied after `abs`.
    pub neg: Signal<Out, Bits<4>>,
    /// Absolute value of every component.
    pub abs: Signal<Out, Bit>,
}

/// What a slot writes: read at issue for the write enables and the slot controls that travel
/// to the writeback stage (`ShaderCore`'s `meta`).
#[derive(LogicInterface, Default)]
pub struct WriteControl {
    /// Destination register of R (its index; MOVW adds the lane's relative index).
    pub dst: Signal<Out, Bits<8>>,
    /// Component write mask, bit c for component c (SETP: the predicate components written;
    /// the sequencer's predicate tests of IF, KILP and friends: the components tested).
    pub wmask: Signal<Out, Bits<4>>,
    /// Saturation: 0 none, 1 to [0, 1], 2 to [-1, 1] (`isa::Instr::sat`).
    pub sat: Signal<Out, Bits<2>>,
    /// Predicated write: 0 always, 1 where P.c, 2 where !P.c (`isa::Instr::pw`).
    pub pw: Signal<Out, Bits<2>>,
    /// The operation writes a register of R.
    pub writes_reg: Signal<Out, Bit>,
    /// The operation writes predicate bits.
    pub writes_pred: Signal<Out, Bit>,
    /// Which unit's result the writeback takes.
    pub result: Signal<Out, ResultSel>,
}

/// The execution units' controls (registered with the slot one clock after issue, so they
/// reach the units with the operands).
#[derive(LogicInterface, Default)]
pub struct UnitControl {
    /// Rounding direction of the adder's conversions.
    pub round: Signal<Out, RoundMode>,
    /// What the multiply-add pipeline's adder does.
    pub add_op: Signal<Out, AddOp>,
    /// Operand A reaches the adder as the addend (operand C reads A's register): the
    /// conversions.
    pub conv: Signal<Out, Bit>,
    /// The integer ALU's operation ([`ResultSel::Int`]).
    pub int_op: Signal<Out, IntOp>,
    /// Signedness of [`ResultSel::Sign`] ([`i2f_mode`]).
    pub i2f_mode: Signal<Out, Bits<2>>,
    /// Derivative operand routing ([`deriv`]).
    pub deriv: Signal<Out, Bits<2>>,
    /// The transcendental unit's step ([`ResultSel::Trans`]).
    pub trans_op: Signal<Out, TransOp>,
    /// The texture unit's step ([`ResultSel::Tex`]).
    pub tex_op: Signal<Out, TexOp>,
    /// The comparison of SET, SETP and friends (`isa::Cond`'s encoding).
    pub cond: Signal<Out, Bits<3>>,
    /// Relative addressing of MOVR / MOVW ([`rel`]).
    pub rel: Signal<Out, Bits<2>>,
    /// The address stack's operation ([`astack`]).
    pub astack: Signal<Out, Bits<2>>,
}

/// Instruction decoder; see the module documentation.
#[derive(LogicBlock)]
pub struct Decoder {
    /// Instruction bits 0..31.
    pub w0: Signal<In, Bits<32>>,
    /// Instruction bits 32..63.
    pub w1: Signal<In, Bits<32>>,
    /// Instruction bits 64..95.
    pub w2: Signal<In, Bits<32>>,
    /// Instruction bits 96..111 (the upper 16 bits are ignored).
    pub w3: Signal<In, Bits<32>>,
    /// The operation number (`isa::Op`'s encoding): the control ROMs' address.
    pub op: Signal<Out, Bits<7>>,
    /// What the sequencer needs.
    pub seq: SeqControl,
    /// Source operand A's fields (operand fetch).
    pub a: SourceFields,
    /// Source operand B's fields.
    pub b: SourceFields,
    /// Source operand C's fields.
    pub c: SourceFields,
    /// What the slot writes and where (issue and writeback).
    pub write: WriteControl,
    /// The execution units' controls.
    pub unit: UnitControl,
    word: Signal<Local, Bits<112>>,
    op_lsb: Constant<Bits<8>>,
    dst_lsb: Constant<Bits<8>>,
    wmask_lsb: Constant<Bits<8>>,
    sat_lsb: Constant<Bits<8>>,
    cond_lsb: Constant<Bits<8>>,
    pw_lsb: Constant<Bits<8>>,
    target_lsb: Constant<Bits<8>>,
    a_file_lsb: Constant<Bits<8>>,
    a_index_lsb: Constant<Bits<8>>,
    a_swz_lsb: Constant<Bits<8>>,
    a_neg_lsb: Constant<Bits<8>>,
    a_abs_lsb: Constant<Bits<8>>,
    b_file_lsb: Constant<Bits<8>>,
    b_index_lsb: Constant<Bits<8>>,
    b_swz_lsb: Constant<Bits<8>>,
    b_neg_lsb: Constant<Bits<8>>,
    b_abs_lsb: Constant<Bits<8>>,
    c_file_lsb: Constant<Bits<8>>,
    c_index_lsb: Constant<Bits<8>>,
    c_swz_lsb: Constant<Bits<8>>,
    c_neg_lsb: Constant<Bits<8>>,
    c_abs_lsb: Constant<Bits<8>>,
    rom_issue: ROM<Bits<9>, 7>,
    rom_flags: ROM<Bits<4>, 7>,
    rom_kind: ROM<ExecKind, 7>,
    rom_result: ROM<ResultSel, 7>,
    rom_flow: ROM<FlowOp, 7>,
    rom_round: ROM<RoundMode, 7>,
    rom_add_op: ROM<AddOp, 7>,
    rom_conv: ROM<Bit, 7>,
    rom_int: ROM<IntOp, 7>,
    rom_i2f: ROM<Bits<2>, 7>,
    rom_deriv: ROM<Bits<2>, 7>,
    rom_trans: ROM<TransOp, 7>,
    rom_tex: ROM<TexOp, 7>,
    rom_rel: ROM<Bits<2>, 7>,
    rom_astack: ROM<Bits<2>, 7>,
}

impl Default for Decoder {
    fn default() -> Self {
        Self::new(u32::MAX)
    }
}

impl Decoder {
    /// A decoder for the ISA of `microcode::core::isa` in a core built with `features`.
    pub fn new(features: u32) -> Decoder {
        let c = |i: &isa::OpInfo| control_with(i.op, features);
        Decoder {
            w0: Default::default(),
            w1: Default::default(),
            w2: Default::default(),
            w3: Default::default(),
            op: Default::default(),
            seq: Default::default(),
            a: Default::default(),
            b: Default::default(),
            c: Default::default(),
            write: Default::default(),
            unit: Default::default(),
            word: Default::default(),
            op_lsb: lsb(Field::Op),
            dst_lsb: lsb(Field::Dst),
            wmask_lsb: lsb(Field::Wmask),
            sat_lsb: lsb(Field::Sat),
            cond_lsb: lsb(Field::Cond),
            pw_lsb: lsb(Field::Pw),
            target_lsb: lsb(Field::Target),
            a_file_lsb: lsb(Field::File(0)),
            a_index_lsb: lsb(Field::Index(0)),
            a_swz_lsb: lsb(Field::Swz(0)),
            a_neg_lsb: lsb(Field::Neg(0)),
            a_abs_lsb: lsb(Field::Abs(0)),
            b_file_lsb: lsb(Field::File(1)),
            b_index_lsb: lsb(Field::Index(1)),
            b_swz_lsb: lsb(Field::Swz(1)),
            b_neg_lsb: lsb(Field::Neg(1)),
            b_abs_lsb: lsb(Field::Abs(1)),
            c_file_lsb: lsb(Field::File(2)),
            c_index_lsb: lsb(Field::Index(2)),
            c_swz_lsb: lsb(Field::Swz(2)),
            c_neg_lsb: lsb(Field::Neg(2)),
            c_abs_lsb: lsb(Field::Abs(2)),
            rom_issue: rom(|i| u64::from(i.issue).to_bits()),
            rom_flags: rom(|i| {
                let reg = i.dst == DstKind::Reg && i.unit != Unit::Flow;
                let pred = i.dst == DstKind::Pred;
                let short = (reg || pred) && i.latency == isa::MISC_LATENCY;
                let long = (reg || pred) && i.latency == isa::LATENCY;
                (u64::from(reg)
                    | u64::from(pred) << 1
                    | u64::from(short) << 2
                    | u64::from(long) << 3)
                    .to_bits()
            }),
            rom_kind: rom(|i| c(i).kind),
            rom_result: rom(|i| c(i).result),
            rom_flow: rom(|i| c(i).flow),
            rom_round: rom(|i| c(i).round),
            rom_add_op: rom(|i| c(i).add_op),
            rom_conv: rom(|i| c(i).conv),
            rom_int: rom(|i| c(i).int_op),
            rom_i2f: rom(|i| c(i).i2f_mode.to_bits()),
            rom_deriv: rom(|i| c(i).deriv.to_bits()),
            rom_trans: rom(|i| c(i).trans),
            rom_tex: rom(|i| c(i).tex),
            rom_rel: rom(|i| c(i).rel.to_bits()),
            rom_astack: rom(|i| c(i).astack.to_bits()),
        }
    }
}

impl Logic for Decoder {
    #[hdl_gen]
    fn update(&mut self) {
        self.word.next = bit_cast::<112, 32>(self.w0.val())
            | (bit_cast::<112, 32>(self.w1.val()) << 32)
            | (bit_cast::<112, 32>(self.w2.val()) << 64)
            | (bit_cast::<112, 16>(self.w3.val().get_bits::<16>(0)) << 96);
        self.op.next = self.word.val().get_bits::<7>(self.op_lsb.val().index());
        self.write.dst.next =
            bit_cast::<8, 6>(self.word.val().get_bits::<6>(self.dst_lsb.val().index()));
        self.write.wmask.next = self.word.val().get_bits::<4>(self.wmask_lsb.val().index());
        self.write.sat.next = self.word.val().get_bits::<2>(self.sat_lsb.val().index());
        self.unit.cond.next = self.word.val().get_bits::<3>(self.cond_lsb.val().index());
        self.write.pw.next = self.word.val().get_bits::<2>(self.pw_lsb.val().index());
        self.seq.target.next = self
            .word
            .val()
            .get_bits::<10>(self.target_lsb.val().index());
        self.a.file.next = self.word.val().get_bits::<2>(self.a_file_lsb.val().index());
        self.a.index.next = bit_cast::<8, 6>(
            self.word
                .val()
                .get_bits::<6>(self.a_index_lsb.val().index()),
        );
        self.a.swz.next = self.word.val().get_bits::<12>(self.a_swz_lsb.val().index());
        self.a.neg.next = self.word.val().get_bits::<4>(self.a_neg_lsb.val().index());
        self.a.abs.next = self.word.val().get_bit(self.a_abs_lsb.val().index());
        self.b.file.next = self.word.val().get_bits::<2>(self.b_file_lsb.val().index());
        self.b.index.next = bit_cast::<8, 6>(
            self.word
                .val()
                .get_bits::<6>(self.b_index_lsb.val().index()),
        );
        self.b.swz.next = self.word.val().get_bits::<12>(self.b_swz_lsb.val().index());
        self.b.neg.next = self.word.val().get_bits::<4>(self.b_neg_lsb.val().index());
        self.b.abs.next = self.word.val().get_bit(self.b_abs_lsb.val().index());
        self.c.file.next = self.word.val().get_bits::<2>(self.c_file_lsb.val().index());
        self.c.index.next = bit_cast::<8, 6>(
            self.word
                .val()
                .get_bits::<6>(self.c_index_lsb.val().index()),
        );
        self.c.swz.next = self.word.val().get_bits::<12>(self.c_swz_lsb.val().index());
        self.c.neg.next = self.word.val().get_bits::<4>(self.c_neg_lsb.val().index());
        self.c.abs.next = self.word.val().get_bit(self.c_abs_lsb.val().index());

        self.rom_issue.address.next = self.op.val();
        self.rom_flags.address.next = self.op.val();
        self.rom_kind.address.next = self.op.val();
        self.rom_result.address.next = self.op.val();
        self.rom_flow.address.next = self.op.val();
        self.rom_round.address.next = self.op.val();
        self.rom_add_op.address.next = self.op.val();
        self.rom_conv.address.next = self.op.val();
        self.rom_int.address.next = self.op.val();
        self.rom_i2f.address.next = self.op.val();
        self.rom_deriv.address.next = self.op.val();
        self.rom_trans.address.next = self.op.val();
        self.rom_tex.address.next = self.op.val();
        self.rom_rel.address.next = self.op.val();
        self.rom_astack.address.next = self.op.val();
        self.seq.issue.next = self.rom_issue.data.val();
        self.write.writes_reg.next = self.rom_flags.data.val().get_bit(0);
        self.write.writes_pred.next = self.rom_flags.data.val().get_bit(1);
        self.seq.short_write.next = self.rom_flags.data.val().get_bit(2);
        self.seq.long_write.next = self.rom_flags.data.val().get_bit(3);
        self.seq.kind.next = self.rom_kind.data.val();
        self.write.result.next = self.rom_result.data.val();
        self.seq.flow.next = self.rom_flow.data.val();
        self.unit.round.next = self.rom_round.data.val();
        self.unit.add_op.next = self.rom_add_op.data.val();
        self.unit.conv.next = self.rom_conv.data.val();
        self.unit.int_op.next = self.rom_int.data.val();
        self.unit.i2f_mode.next = self.rom_i2f.data.val();
        self.unit.deriv.next = self.rom_deriv.data.val();
        self.unit.trans_op.next = self.rom_trans.data.val();
        self.unit.tex_op.next = self.rom_tex.data.val();
        self.unit.rel.next = self.rom_rel.data.val();
        self.unit.astack.next = self.rom_astack.data.val();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extracted_widths_are_the_table_widths() {
        assert_eq!(FIELD_WIDTHS.len(), FIELDS.len());
        for (f, (name, w)) in FIELDS.iter().zip(FIELD_WIDTHS) {
            assert_eq!((f.name, f.width), (*name, *w));
        }
    }

    #[test]
    fn result_paths_have_the_table_latency() {
        // The multiply-add pipeline is the long path, every other unit the short one; the
        // sequencer's retire rule relies on the ISA's latency column saying which.
        for info in OPS {
            let c = control(info.op);
            let writes = info.dst != DstKind::None && info.unit != Unit::Flow;
            if c.kind != ExecKind::Alu || !writes {
                continue;
            }
            let long = c.result == ResultSel::Fmad;
            let want = if long {
                isa::LATENCY
            } else {
                isa::MISC_LATENCY
            };
            assert_eq!(info.latency, want, "{}", info.mnemonic);
        }
    }

    #[test]
    fn the_word_is_as_wide_as_the_table() {
        // `word` is Bits<112> (seven 16-bit block RAM words; `w3` contributes 16 bits).
        const { assert!(isa::WORD_BITS <= 112 && isa::WORD_BITS > 96) };
    }
}

//! The opcode table: one row per TGSI opcode, the single source of truth.
//!
//! The parser, the printer, the token codec, the validator, the models, the compiler and the tests all
//! read [`OPCODES`]; nothing else restates what an opcode is. Numbers follow Mesa's `p_shader_tokens.h`
//! of 2008-2010 (see `shared/notes/tgsi-reference.md`); the double opcodes, which never had numbers,
//! get 200-212 (our own, documented in `ARCHITECTURE.md`). The opcodes of later Mesa that the
//! project supports (UCMP, UADD, IMUL_HI, UMUL_HI as `decisions.md` section 1 has them, then F2U and
//! UMUL) take the next free numbers after the 7.9 table, 119-124 ([`V12_OPCODES`]): token streams
//! that use them are version 1.2 (`decisions.md` section 5).

use std::fmt;

/// How an opcode's results map onto the destination components.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutputMode {
    /// `dst.c = f(src0.c, src1.c, ...)` for each component c.
    ComponentWise,
    /// One scalar result written to every enabled component.
    Replicated,
    /// Each component has its own formula (LIT, DST, SCS, XPD, matrices, doubles, textures).
    Special,
    /// No destination.
    None,
}

/// How an opcode reads its sources or writes its destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OperandType {
    /// IEEE-754 binary32.
    Float,
    /// Two's complement int32.
    Int,
    /// Unsigned 32-bit integer.
    Uint,
    /// binary64 in component pairs (xy, zw; x and z hold the low words).
    Double,
    /// Bits moved unchanged (MOV, SWZ).
    Untyped,
    /// No operand of this kind.
    None,
}

impl OperandType {
    /// Integer view: source modifiers are integer negate and integer absolute.
    pub fn is_integer(self) -> bool {
        matches!(self, OperandType::Int | OperandType::Uint)
    }
}

/// Control-flow role of an opcode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flow {
    /// IF: opens a block run by the lanes whose `src.x` is not 0.0 (NaN counts as true).
    If,
    /// IFC (ps_2_x): runs exactly as IF does, testing `src.x`.
    Ifc,
    /// ELSE: switches an IF or IFC block to the lanes that failed its test.
    Else,
    /// ENDIF: closes an IF or IFC block.
    EndIf,
    /// BGNLOOP: opens a loop that runs until every lane has left it with BRK or BREAKC.
    BgnLoop,
    /// ENDLOOP: jumps back to its BGNLOOP.
    EndLoop,
    /// BGNFOR: opens a counted loop; `floor(src.xyz)` (start, count, step) goes into a LOOP
    /// register.
    BgnFor,
    /// ENDFOR: steps the LOOP register and goes back to BGNFOR while its count lasts.
    EndFor,
    /// REP: opens a loop repeated `floor(src.x)` times per lane.
    Rep,
    /// ENDREP: closes a REP loop.
    EndRep,
    /// BRK: takes the executing lanes out of the innermost loop.
    Brk,
    /// BREAKC: BRK for the lanes whose `src.x` is not 0.0.
    BreakC,
    /// CONT: sends the executing lanes to the innermost loop's next iteration.
    Cont,
    /// CAL: calls the subroutine at the instruction's label.
    Cal,
    /// CALLNZ: calls the subroutine in the lanes whose `src.x` is not 0.0.
    CallNz,
    /// RET: returns from a subroutine; in the main program the executing lanes stop.
    Ret,
    /// BGNSUB: marks the start of a subroutine body.
    BgnSub,
    /// ENDSUB: the end of a subroutine body, which returns.
    EndSub,
    /// BRA: an unstructured jump to the label, for the whole quad (`decisions.md` section 4).
    Bra,
    /// END: the end of the main program.
    End,
}

/// What kind of work an opcode does; drives the validator, the models and the compiler.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Arithmetic, logic, conversion or move.
    Alu,
    /// Texture sample or query; takes a texture target and a sampler operand.
    Texture,
    /// Control flow.
    Flow(Flow),
    /// KIL / KILP.
    Kill,
    /// EMIT / ENDPRIM (geometry only).
    Geometry,
    /// PUSHA / POPA: the address stack.
    AddressStack,
    /// NOP.
    Nop,
}

/// Whether an instruction carries a `:label` (an instruction index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LabelUse {
    /// Never has a label.
    None,
    /// Mesa prints one; structured control flow does not need it (IF, ELSE, BGNLOOP, ENDLOOP).
    Optional,
    /// The label is the target (CAL, CALLNZ, BRA).
    Required,
}

/// Shader stages an opcode is allowed in (bit set; `Processor::stage` gives a program's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stages(pub u8);

impl Stages {
    /// The fragment stage.
    pub const FRAGMENT: Stages = Stages(1);
    /// The vertex stage.
    pub const VERTEX: Stages = Stages(2);
    /// The geometry stage.
    pub const GEOMETRY: Stages = Stages(4);
    /// Every stage.
    pub const ALL: Stages = Stages(7);

    /// True when every stage of `other` is in the set.
    pub fn contains(self, other: Stages) -> bool {
        self.0 & other.0 == other.0
    }
}

/// Whether the project executes an opcode (decisions.md section 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Support {
    /// The validator accepts the opcode; the reference model runs it and the compiler lowers it.
    Supported,
    /// Parses and decodes; the validator rejects it with this reason.
    Unsupported(&'static str),
}

/// How the compiler (`microcode::compile`) lowers an opcode: which of its routines emits the core
/// instructions. Each routine handles exactly the opcodes whose row names it; ARCHITECTURE.md's
/// list of lowered opcodes is generated from this column ([`lowering_summary`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lowering {
    /// Not executable: the validator rejects the opcode.
    None,
    /// Emits nothing (NOP).
    Nothing,
    /// Structured control flow, subroutines, END (`compile/flow.rs`; BRA in `compile/condition_codes.rs`).
    Flow,
    /// One core operation per component (`MOV`, `MIN`, `FLR`, `DDX`, ...).
    Direct,
    /// One `SET` with the opcode's condition.
    Compare,
    /// A division: the divider's `DIV`/`RCP`, or the multiply-add sequence of `compile/div.rs`.
    Divide,
    /// A transcendental unit sequence (`compile/trans.rs`).
    Transcendental,
    /// A short formula of core operations written out in `compile/lower.rs`, following the
    /// reference model literally.
    Formula,
    /// A matrix product: `rows` dot products of `width` components with consecutive registers
    /// of the second source (decisions.md section 1). The reference model reads the shape too.
    Matrix {
        /// Result components written, one dot product each (3 for M4X3).
        rows: u8,
        /// Components in each dot product (4 for M4X3).
        width: u8,
    },
    /// The texture unit's sequence (`compile/texture.rs`).
    Texture,
    /// Integer operations on the integer ALU or as sequences (`compile/int.rs`).
    Integer,
    /// Exact 32-bit multiplications as multiply-add sequences (`compile/imul.rs`).
    IntegerMultiply,
    /// Packing floats into bits (`compile/int.rs`).
    Pack,
    /// Unpacking bits into floats (`compile/int.rs`).
    Unpack,
    /// binary64 operations: integer sequences or calls of the binary64 library
    /// (`compile/double.rs`, `compile/binary64.rs`).
    Double,
    /// The address stack's `PUSHA`/`POPA`.
    AddressStack,
    /// KIL / KILP: a predicate and `KILP`.
    Kill,
    /// EMIT / ENDPRIM.
    Geometry,
}

impl Lowering {
    /// Every lowering but [`Lowering::None`], in the order the documentation lists them (matrix
    /// shapes stand for all matrices).
    pub const FAMILIES: &'static [Lowering] = &[
        Lowering::Direct,
        Lowering::Compare,
        Lowering::Formula,
        Lowering::Divide,
        Lowering::Transcendental,
        Lowering::Matrix { rows: 0, width: 0 },
        Lowering::Integer,
        Lowering::IntegerMultiply,
        Lowering::Pack,
        Lowering::Unpack,
        Lowering::Double,
        Lowering::Texture,
        Lowering::Flow,
        Lowering::AddressStack,
        Lowering::Kill,
        Lowering::Geometry,
        Lowering::Nothing,
    ];

    /// The family's name in the documentation.
    pub fn name(self) -> &'static str {
        match self {
            Lowering::None => "not supported",
            Lowering::Nothing => "nothing",
            Lowering::Flow => "control flow",
            Lowering::Direct => "one core operation",
            Lowering::Compare => "SET",
            Lowering::Divide => "division",
            Lowering::Transcendental => "transcendental sequence",
            Lowering::Formula => "formula",
            Lowering::Matrix { .. } => "matrix",
            Lowering::Texture => "texture sequence",
            Lowering::Integer => "integer",
            Lowering::IntegerMultiply => "integer multiplication",
            Lowering::Pack => "pack",
            Lowering::Unpack => "unpack",
            Lowering::Double => "binary64",
            Lowering::AddressStack => "address stack",
            Lowering::Kill => "kill",
            Lowering::Geometry => "geometry",
        }
    }

    /// True when `self` is `family` (matrices of any shape are one family).
    pub fn is(self, family: Lowering) -> bool {
        std::mem::discriminant(&self) == std::mem::discriminant(&family)
    }
}

/// The lowered opcodes by family, one Markdown list item per family: the block ARCHITECTURE.md
/// carries between its `lowering` markers (a test keeps the two equal).
pub fn lowering_summary() -> String {
    let mut out = String::new();
    for family in Lowering::FAMILIES {
        let names: Vec<String> = OPCODES
            .iter()
            .filter(|i| i.lowering.is(*family))
            .map(|i| match i.lowering {
                Lowering::Matrix { rows, width } => format!("{} ({rows}x{width})", i.mnemonic),
                _ => i.mnemonic.to_string(),
            })
            .collect();
        out.push_str(&format!("- {}: {}\n", family.name(), names.join(" ")));
    }
    out
}

/// One row of the opcode table.
#[derive(Clone, Copy, Debug)]
pub struct OpcodeInfo {
    /// The opcode this row describes (the row's index in [`OPCODES`] is not its number).
    pub opcode: Opcode,
    /// Canonical mnemonic, printed by the dumper.
    pub mnemonic: &'static str,
    /// Token number (instruction token bits 12-19).
    pub number: u8,
    /// Other spellings accepted by the parser (older documents).
    pub aliases: &'static [&'static str],
    /// How many destination operands the opcode takes (0 to 2; only DFRACEXP has two).
    pub num_dst: u8,
    /// How many source operands the opcode takes (0 to 4; a texture opcode's sampler counts as
    /// one).
    pub num_src: u8,
    /// How results map onto the destination's components.
    pub output: OutputMode,
    /// How the sources are read: decides which source modifiers are integer operations.
    pub src_type: OperandType,
    /// How the result is written: float, integer, double or raw bits.
    pub dst_type: OperandType,
    /// The opcode's family, which picks the validator's rules and the models' kernels.
    pub kind: Kind,
    /// Whether the instruction carries a `:label`.
    pub label: LabelUse,
    /// The stages the validator allows the opcode in.
    pub stages: Stages,
    /// Whether the project executes the opcode, and why not when it does not.
    pub support: Support,
    /// How the compiler turns the opcode into core instructions ([`Lowering::None`] exactly when
    /// the opcode is not supported).
    pub lowering: Lowering,
    /// Extension or document group the opcode comes from.
    pub origin: &'static str,
    /// The definition the models implement, as a formula (decisions.md wins over the documents).
    pub semantics: &'static str,
}

impl OpcodeInfo {
    /// True when the validator accepts the opcode.
    pub fn is_supported(&self) -> bool {
        matches!(self.support, Support::Supported)
    }
    /// True for texture opcodes (they take a target and a sampler).
    pub fn is_texture(&self) -> bool {
        matches!(self.kind, Kind::Texture)
    }
    /// The matrix shape (rows, components per row) of the matrix opcodes.
    pub fn matrix(&self) -> Option<(usize, usize)> {
        match self.lowering {
            Lowering::Matrix { rows, width } => Some((usize::from(rows), usize::from(width))),
            _ => None,
        }
    }
    /// The destination components the opcode can write (xyzw as bits 0-3): a matrix writes
    /// only its rows, everything else all four.
    pub fn result_mask(&self) -> u8 {
        self.matrix().map_or(0xF, |(rows, _)| (1u8 << rows) - 1)
    }
    /// True for the opcodes whose results are approximations within the bounds of
    /// `decisions.md` section 2 (RSQ, EX2, LG2, SIN, COS, POW and the formulas built on them);
    /// every other result is exact (one correct rounding per operation of its formula).
    pub fn is_approximate(&self) -> bool {
        use Opcode as O;
        matches!(
            self.opcode,
            O::Rsq
                | O::Ex2
                | O::Lg2
                | O::Pow
                | O::Sin
                | O::Cos
                | O::Scs
                | O::Exp
                | O::Log
                | O::Lit
                | O::Nrm
                | O::Nrm4
        )
    }
    /// The control-flow role, if any.
    pub fn flow(&self) -> Option<Flow> {
        match self.kind {
            Kind::Flow(f) => Some(f),
            _ => None,
        }
    }
}

macro_rules! opcode_table {
    ($( $variant:ident = $num:literal, $mn:literal, [$($alias:literal),*], $nd:literal, $ns:literal,
        $out:ident, $st:ident -> $dt:ident, $kind:expr, $label:ident, $stages:ident, $support:expr,
        $lowering:expr, $origin:literal, $sem:literal; )*) => {
        /// A TGSI opcode. The discriminant is the token number.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Opcode { $(
            #[doc = concat!("`", $mn, "` (", $origin, "): `", $sem, "`")]
            $variant = $num,
        )* }

        /// Every opcode, in number order.
        pub static OPCODES: &[OpcodeInfo] = &[ $(
            OpcodeInfo {
                opcode: Opcode::$variant,
                mnemonic: $mn,
                number: $num,
                aliases: &[$($alias),*],
                num_dst: $nd,
                num_src: $ns,
                output: OutputMode::$out,
                src_type: OperandType::$st,
                dst_type: OperandType::$dt,
                kind: $kind,
                label: LabelUse::$label,
                stages: Stages::$stages,
                support: $support,
                lowering: $lowering,
                origin: $origin,
                semantics: $sem,
            },
        )* ];
    };
}

use Flow as F;
use Kind::{Alu, Texture};
use Lowering as L;
const OK: Support = Support::Supported;
/// The lowering of the rows the validator rejects.
const NONE: Lowering = Lowering::None;
const REMOVED: Support = Support::Unsupported("removed from TGSI; no definition");
const TBD: Support = Support::Unsupported("never defined by the documents (TBD)");

opcode_table! {
    Arl = 0, "ARL", [], 1, 1, ComponentWise, Float -> Int, Alu, None, ALL, OK, L::Direct, "NV_vertex_program",
        "dst.c = floor(src.c) as int32 (NaN -> 0, saturating)";
    Mov = 1, "MOV", [], 1, 1, ComponentWise, Untyped -> Untyped, Alu, None, ALL, OK, L::Direct, "NV_vertex_program",
        "dst.c = src.c (bits kept)";
    Lit = 2, "LIT", [], 1, 1, Special, Float -> Float, Alu, None, ALL, OK, L::Formula, "NV_vertex_program",
        "(1, max(x,0), x>0 ? (max(y,0) == 0 && clamp(w,-128,128) == 0 ? 1 : POW(max(y,0), clamp(w,-128,128))) : 0, 1)";
    Rcp = 3, "RCP", ["RECIP"], 1, 1, Replicated, Float -> Float, Alu, None, ALL, OK, L::Divide, "NV_vertex_program",
        "1 / src.x, correctly rounded";
    Rsq = 4, "RSQ", ["RECIPSQRT"], 1, 1, Replicated, Float -> Float, Alu, None, ALL, OK, L::Transcendental, "NV_vertex_program",
        "1 / sqrt(|src.x|), <= 1 ULP";
    Exp = 5, "EXP", ["EXPP"], 1, 1, Special, Float -> Float, Alu, None, ALL, OK, L::Formula, "NV_vertex_program",
        "(2^floor(x), x - floor(x), EX2(x), 1)";
    Log = 6, "LOG", ["LOGP"], 1, 1, Special, Float -> Float, Alu, None, ALL, OK, L::Formula, "NV_vertex_program",
        "(exponent(|x|), significand(|x|) in [1,2), LG2(|x|), 1)";
    Mul = 7, "MUL", [], 1, 2, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Formula, "NV_vertex_program",
        "src0.c * src1.c";
    Add = 8, "ADD", [], 1, 2, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Formula, "NV_vertex_program",
        "src0.c + src1.c";
    Dp3 = 9, "DP3", ["DOT3"], 1, 2, Replicated, Float -> Float, Alu, None, ALL, OK, L::Formula, "NV_vertex_program",
        "((x0*x1 + y0*y1) + z0*z1)";
    Dp4 = 10, "DP4", ["DOT4"], 1, 2, Replicated, Float -> Float, Alu, None, ALL, OK, L::Formula, "NV_vertex_program",
        "(((x0*x1 + y0*y1) + z0*z1) + w0*w1)";
    Dst = 11, "DST", [], 1, 2, Special, Float -> Float, Alu, None, ALL, OK, L::Formula, "NV_vertex_program",
        "(1, src0.y*src1.y, src0.z, src1.w); z and w keep bits";
    Min = 12, "MIN", [], 1, 2, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Direct, "NV_vertex_program",
        "src0.c < src1.c ? src0.c : src1.c (select; chosen bits kept)";
    Max = 13, "MAX", [], 1, 2, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Direct, "NV_vertex_program",
        "src0.c > src1.c ? src0.c : src1.c (select; chosen bits kept)";
    Slt = 14, "SLT", ["SETLT"], 1, 2, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Compare, "NV_vertex_program",
        "src0.c < src1.c ? 1 : 0";
    Sge = 15, "SGE", ["SETGE"], 1, 2, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Compare, "NV_vertex_program",
        "src0.c >= src1.c ? 1 : 0";
    Mad = 16, "MAD", ["MADD"], 1, 3, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Formula, "NV_vertex_program",
        "round(round(src0.c*src1.c) + src2.c)";
    Sub = 17, "SUB", [], 1, 2, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Formula, "ATI_fragment_shader",
        "src0.c - src1.c";
    Lrp = 18, "LRP", ["LERP"], 1, 3, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Formula, "ATI_fragment_shader",
        "src0.c*(src1.c - src2.c) + src2.c";
    Cnd = 19, "CND", [], 1, 3, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Formula, "ATI_fragment_shader",
        "src2.c > 0.5 ? src0.c : src1.c";
    Cnd0 = 20, "CND0", [], 1, 3, ComponentWise, Float -> Float, Alu, None, ALL, REMOVED, NONE, "ATI_fragment_shader",
        "removed; use CMP";
    Dp2a = 21, "DP2A", ["DOT2ADD", "DP2ADD"], 1, 3, Replicated, Float -> Float, Alu, None, ALL, OK, L::Formula, "ATI_fragment_shader",
        "((x0*x1 + y0*y1) + src2.x)";
    Index = 22, "INDEX", [], 1, 2, ComponentWise, Float -> Float, Alu, None, ALL, REMOVED, NONE, "EXT_vertex_shader",
        "removed";
    Negate = 23, "NEGATE", [], 1, 1, ComponentWise, Float -> Float, Alu, None, ALL, REMOVED, NONE, "EXT_vertex_shader",
        "removed";
    Frc = 24, "FRC", ["FRAC"], 1, 1, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Formula, "EXT_vertex_shader",
        "src.c - floor(src.c)";
    Clamp = 25, "CLAMP", [], 1, 3, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Formula, "EXT_vertex_shader",
        "(src0.c < src1.c) ? src1.c : (src0.c > src2.c) ? src2.c : src0.c (selects)";
    Flr = 26, "FLR", ["FLOOR"], 1, 1, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Direct, "EXT_vertex_shader",
        "floor(src.c), sign of zero kept";
    Round = 27, "ROUND", [], 1, 1, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Direct, "EXT_vertex_shader",
        "round half to even";
    Ex2 = 28, "EX2", ["EXPBASE2"], 1, 1, Replicated, Float -> Float, Alu, None, ALL, OK, L::Transcendental, "EXT_vertex_shader",
        "2^src.x, <= 2 ULP";
    Lg2 = 29, "LG2", ["LOGBASE2"], 1, 1, Replicated, Float -> Float, Alu, None, ALL, OK, L::Transcendental, "EXT_vertex_shader",
        "log2(src.x), <= 2 ULP relative";
    Pow = 30, "POW", ["POWER"], 1, 2, Replicated, Float -> Float, Alu, None, ALL, OK, L::Transcendental, "EXT_vertex_shader",
        "EX2(src1.x * LG2(src0.x))";
    Xpd = 31, "XPD", ["CROSSPRODUCT", "CRS"], 1, 2, Special, Float -> Float, Alu, None, ALL, OK, L::Formula, "EXT_vertex_shader",
        "(y0*z1 - z0*y1, z0*x1 - x0*z1, x0*y1 - y0*x1, 1)";
    MultiplyMatrix = 32, "MULTIPLYMATRIX", ["M4X4"], 1, 2, Special, Float -> Float, Alu, None, ALL, OK, L::Matrix { rows: 4, width: 4 }, "EXT_vertex_shader / ps_2_0",
        "dst.r = DP4(src0, src1+r) for rows r = x..w";
    Abs = 33, "ABS", [], 1, 1, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Formula, "NV_vertex_program1_1",
        "src.c with the sign bit cleared (bits kept)";
    Rcc = 34, "RCC", [], 1, 1, Replicated, Float -> Float, Alu, None, ALL, OK, L::Formula, "NV_vertex_program1_1",
        "1/src.x with |result| clamped to [2^-64, 2^64], sign kept; 0 -> 2^64";
    Dph = 35, "DPH", [], 1, 2, Replicated, Float -> Float, Alu, None, ALL, OK, L::Formula, "NV_vertex_program1_1",
        "(((x0*x1 + y0*y1) + z0*z1) + w1)";
    Cos = 36, "COS", [], 1, 1, Replicated, Float -> Float, Alu, None, ALL, OK, L::Transcendental, "NV_fragment_program",
        "cos(src.x), 2^-20 absolute";
    Ddx = 37, "DDX", ["DSX"], 1, 1, ComponentWise, Float -> Float, Alu, None, FRAGMENT, OK, L::Direct, "NV_fragment_program",
        "fine: right lane - left lane of the row";
    Ddy = 38, "DDY", ["DSY"], 1, 1, ComponentWise, Float -> Float, Alu, None, FRAGMENT, OK, L::Direct, "NV_fragment_program",
        "fine: bottom lane - top lane of the column";
    Kilp = 39, "KILP", [], 0, 0, None, None -> None, Kind::Kill, None, FRAGMENT, OK, L::Kill, "NV_fragment_program",
        "kill the active lanes";
    Pk2h = 40, "PK2H", [], 1, 1, Replicated, Float -> Uint, Alu, None, ALL, OK, L::Pack, "NV_fragment_program",
        "half(src.x) | half(src.y) << 16; half = IEEE binary16, nearest-even, subnormals kept, overflow -> inf, NaN -> 0x7E00";
    Pk2us = 41, "PK2US", [], 1, 1, Replicated, Float -> Uint, Alu, None, ALL, OK, L::Pack, "NV_fragment_program",
        "round(65535*clamp(src.x,0,1)) | round(65535*clamp(src.y,0,1)) << 16; exact product, round half to even, NaN -> 0";
    Pk4b = 42, "PK4B", [], 1, 1, Replicated, Float -> Uint, Alu, None, ALL, OK, L::Pack, "NV_fragment_program",
        "bytes round(127*clamp(src.c,-128/127,1)) + 128, x lowest; round half to even, NaN -> byte 0";
    Pk4ub = 43, "PK4UB", [], 1, 1, Replicated, Float -> Uint, Alu, None, ALL, OK, L::Pack, "NV_fragment_program",
        "bytes round(255*clamp(src.c,0,1)), x lowest; round half to even, NaN -> 0";
    Rfl = 44, "RFL", [], 1, 2, Special, Float -> Float, Alu, None, ALL, OK, L::Formula, "NV_fragment_program",
        "((2*DP3(s0,s1))/DP3(s0,s0))*s0 - s1 for xyz, w = 1";
    Seq = 45, "SEQ", [], 1, 2, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Compare, "NV_fragment_program",
        "src0.c == src1.c ? 1 : 0";
    Sfl = 46, "SFL", [], 1, 2, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Compare, "NV_fragment_program",
        "0";
    Sgt = 47, "SGT", [], 1, 2, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Compare, "NV_fragment_program",
        "src0.c > src1.c ? 1 : 0";
    Sin = 48, "SIN", [], 1, 1, Replicated, Float -> Float, Alu, None, ALL, OK, L::Transcendental, "NV_fragment_program",
        "sin(src.x), 2^-20 absolute";
    Sle = 49, "SLE", [], 1, 2, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Compare, "NV_fragment_program",
        "src0.c <= src1.c ? 1 : 0";
    Sne = 50, "SNE", [], 1, 2, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Compare, "NV_fragment_program",
        "src0.c != src1.c ? 1 : 0";
    Str = 51, "STR", [], 1, 2, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Compare, "NV_fragment_program",
        "1";
    Tex = 52, "TEX", ["TEXLD"], 1, 2, Special, Float -> Float, Texture, None, ALL, OK, L::Texture, "NV_fragment_program",
        "sample(src1 sampler, src0 coordinates)";
    Txd = 53, "TXD", ["TEXLDD"], 1, 4, Special, Float -> Float, Texture, None, ALL, OK, L::Texture, "NV_fragment_program",
        "sample(src3 sampler, src0); derivatives src1, src2 read, no effect (single level)";
    Txp = 54, "TXP", [], 1, 2, Special, Float -> Float, Texture, None, ALL, OK, L::Texture, "NV_fragment_program",
        "sample(src1 sampler, src0.xyz / src0.w)";
    Up2h = 55, "UP2H", [], 1, 1, Special, Uint -> Float, Alu, None, ALL, OK, L::Unpack, "NV_fragment_program",
        "(f16(lo), f16(hi), f16(lo), f16(hi)) of src.x; exact, binary16 NaN -> 0x7FC00000";
    Up2us = 56, "UP2US", [], 1, 1, Special, Uint -> Float, Alu, None, ALL, OK, L::Unpack, "NV_fragment_program",
        "(lo/65535, hi/65535, lo/65535, hi/65535) of src.x; one correctly rounded division each";
    Up4b = 57, "UP4B", [], 1, 1, Special, Uint -> Float, Alu, None, ALL, OK, L::Unpack, "NV_fragment_program",
        "((byte_c - 128)/127) of src.x, x lowest; one correctly rounded division each";
    Up4ub = 58, "UP4UB", [], 1, 1, Special, Uint -> Float, Alu, None, ALL, OK, L::Unpack, "NV_fragment_program",
        "(byte_c / 255) of src.x, x lowest; one correctly rounded division each";
    X2d = 59, "X2D", [], 1, 3, Special, Float -> Float, Alu, None, ALL, OK, L::Formula, "NV_fragment_program",
        "x,z: (s0.x + s1.x*s2.x) + s1.y*s2.y; y,w: (s0.y + s1.x*s2.z) + s1.y*s2.w";
    Ara = 60, "ARA", [], 1, 1, Special, Int -> Int, Alu, None, ALL, OK, L::Integer, "NV_vertex_program2",
        "(x+z, y+w, x+z, y+w) wrapping";
    Arr = 61, "ARR", ["MOVA"], 1, 1, ComponentWise, Float -> Int, Alu, None, ALL, OK, L::Direct, "NV_vertex_program2",
        "round half to even to int32";
    Bra = 62, "BRA", [], 0, 0, None, None -> None, Kind::Flow(F::Bra), Required, ALL, OK, L::Flow, "NV_vertex_program2",
        "jump to the label (whole quad); with a condition the active lanes must agree (else a run-time error)";
    Cal = 63, "CAL", ["CALL"], 0, 0, None, None -> None, Kind::Flow(F::Cal), Required, ALL, OK, L::Flow, "NV_vertex_program2",
        "call the subroutine at the label (no call when no lane is active; call stack 32 deep, overflow is an error)";
    Ret = 64, "RET", [], 0, 0, None, None -> None, Kind::Flow(F::Ret), None, ALL, OK, L::Flow, "NV_vertex_program2",
        "return from subroutine (lanes leave until the call returns); in the main program the lanes stop";
    Ssg = 65, "SSG", ["SGN"], 1, 1, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Formula, "NV_vertex_program2",
        "src.c > 0 ? 1 : src.c < 0 ? -1 : 0";
    Cmp = 66, "CMP", [], 1, 3, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Formula, "ARB_fragment_program",
        "src0.c < 0 ? src1.c : src2.c (select)";
    Scs = 67, "SCS", ["SINCOS"], 1, 1, Special, Float -> Float, Alu, None, ALL, OK, L::Formula, "ARB_fragment_program",
        "(cos x, sin x, 0, 1)";
    Txb = 68, "TXB", ["TEXLDB"], 1, 2, Special, Float -> Float, Texture, None, ALL, OK, L::Texture, "ARB_fragment_program",
        "sample(src1 sampler, src0); bias src0.w read, no effect";
    Nrm = 69, "NRM", [], 1, 1, Special, Float -> Float, Alu, None, ALL, OK, L::Formula, "NV_fragment_program2",
        "xyz * RSQ(DP3(src,src)), w = 1";
    Div = 70, "DIV", [], 1, 2, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Divide, "NV_fragment_program2",
        "src0.c / src1.c, correctly rounded";
    Dp2 = 71, "DP2", [], 1, 2, Replicated, Float -> Float, Alu, None, ALL, OK, L::Formula, "NV_fragment_program2",
        "(x0*x1 + y0*y1)";
    Txl = 72, "TXL", [], 1, 2, Special, Float -> Float, Texture, None, ALL, OK, L::Texture, "NV_fragment_program2",
        "sample(src1 sampler, src0); lod src0.w read, no effect";
    Brk = 73, "BRK", ["BREAK"], 0, 0, None, None -> None, Kind::Flow(F::Brk), None, ALL, OK, L::Flow, "NV_fragment_program2",
        "active lanes leave the innermost loop";
    If = 74, "IF", [], 0, 1, None, Float -> None, Kind::Flow(F::If), Optional, ALL, OK, L::Flow, "NV_fragment_program2",
        "lanes with src.x != 0.0 (float test) take the IF branch";
    BgnFor = 75, "BGNFOR", ["LOOP"], 1, 1, Special, Float -> Int, Kind::Flow(F::BgnFor), Optional, ALL, OK, L::Flow, "NV_fragment_program2",
        "LOOP[dst] = floor(src.xyz) (start, count, step); skip to ENDFOR when count <= 0";
    Rep = 76, "REP", [], 0, 1, None, Float -> None, Kind::Flow(F::Rep), Optional, ALL, OK, L::Flow, "NV_fragment_program2",
        "repeat the body floor(src.x) times, per lane (count <= 0 skips the body)";
    Else = 77, "ELSE", [], 0, 0, None, None -> None, Kind::Flow(F::Else), Optional, ALL, OK, L::Flow, "NV_fragment_program2",
        "lanes that did not take the IF branch";
    EndIf = 78, "ENDIF", [], 0, 0, None, None -> None, Kind::Flow(F::EndIf), None, ALL, OK, L::Flow, "NV_fragment_program2",
        "end of IF";
    EndFor = 79, "ENDFOR", [], 1, 0, None, None -> Int, Kind::Flow(F::EndFor), Optional, ALL, OK, L::Flow, "NV_fragment_program2",
        "LOOP.x += LOOP.z; LOOP.y -= 1; repeat while LOOP.y > 0";
    EndRep = 80, "ENDREP", [], 0, 0, None, None -> None, Kind::Flow(F::EndRep), Optional, ALL, OK, L::Flow, "NV_fragment_program2",
        "end of REP";
    Pusha = 81, "PUSHA", [], 0, 1, None, Int -> None, Kind::AddressStack, None, ALL, OK, L::AddressStack, "NV_vertex_program2",
        "push src (int32 x4) on the lane's address stack (32 vectors; overflow is an error)";
    Popa = 82, "POPA", [], 1, 0, Special, None -> Int, Kind::AddressStack, None, ALL, OK, L::AddressStack, "NV_vertex_program2",
        "pop the lane's address stack into dst (empty stack is an error)";
    Ceil = 83, "CEIL", [], 1, 1, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Direct, "GLSL",
        "ceil(src.c), sign of zero kept";
    I2f = 84, "I2F", [], 1, 1, ComponentWise, Int -> Float, Alu, None, ALL, OK, L::Integer, "GLSL",
        "int32 -> binary32, nearest-even";
    Not = 85, "NOT", [], 1, 1, ComponentWise, Uint -> Uint, Alu, None, ALL, OK, L::Integer, "GLSL",
        "~src.c";
    Trunc = 86, "TRUNC", ["INT"], 1, 1, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Direct, "GLSL",
        "IEEE truncation toward zero, sign of zero kept";
    Shl = 87, "SHL", [], 1, 2, ComponentWise, Uint -> Uint, Alu, None, ALL, OK, L::Integer, "GLSL",
        "src0.c << (src1.x & 31)";
    Shr = 88, "SHR", [], 1, 2, ComponentWise, Int -> Int, Alu, None, ALL, OK, L::Integer, "GLSL",
        "src0.c >> (src1.x & 31), arithmetic";
    And = 89, "AND", [], 1, 2, ComponentWise, Uint -> Uint, Alu, None, ALL, OK, L::Integer, "GLSL",
        "src0.c & src1.c";
    Or = 90, "OR", [], 1, 2, ComponentWise, Uint -> Uint, Alu, None, ALL, OK, L::Integer, "GLSL",
        "src0.c | src1.c";
    Mod = 91, "MOD", [], 1, 2, ComponentWise, Int -> Int, Alu, None, ALL, OK, L::Integer, "GLSL",
        "signed remainder, sign of the dividend; by 0 -> 0xFFFFFFFF";
    Xor = 92, "XOR", [], 1, 2, ComponentWise, Uint -> Uint, Alu, None, ALL, OK, L::Integer, "GLSL",
        "src0.c ^ src1.c";
    Sad = 93, "SAD", [], 1, 3, ComponentWise, Int -> Int, Alu, None, ALL, OK, L::Integer, "GLSL",
        "|src0.c - src1.c| + src2.c, wrapping";
    Txf = 94, "TXF", [], 1, 2, Special, Int -> Float, Texture, None, ALL, OK, L::Texture, "GLSL",
        "texel at integer coordinates src0 (no filtering); src0.w (level) ignored";
    Txq = 95, "TXQ", [], 1, 2, Special, Int -> Int, Texture, None, ALL, OK, L::Texture, "GLSL",
        "(width, height, depth, levels=1) of the sampler's texture; src0 (lod) ignored";
    Cont = 96, "CONT", [], 0, 0, None, None -> None, Kind::Flow(F::Cont), None, ALL, OK, L::Flow, "GLSL",
        "active lanes skip to the end of this loop iteration";
    Emit = 97, "EMIT", [], 0, 0, None, None -> None, Kind::Geometry, None, GEOMETRY, OK, L::Geometry, "NV_geometry_program4",
        "append the declared outputs as a vertex of the lane (outputs keep their values)";
    EndPrim = 98, "ENDPRIM", [], 0, 0, None, None -> None, Kind::Geometry, None, GEOMETRY, OK, L::Geometry, "NV_geometry_program4",
        "mark the lane's last emitted vertex as a primitive end (the program end does the same)";
    BgnLoop = 99, "BGNLOOP", [], 0, 0, None, None -> None, Kind::Flow(F::BgnLoop), Optional, ALL, OK, L::Flow, "GLSL",
        "start of an endless loop (left by BRK)";
    BgnSub = 100, "BGNSUB", [], 0, 0, None, None -> None, Kind::Flow(F::BgnSub), None, ALL, OK, L::Flow, "GLSL",
        "start of a subroutine body";
    EndLoop = 101, "ENDLOOP", [], 0, 0, None, None -> None, Kind::Flow(F::EndLoop), Optional, ALL, OK, L::Flow, "GLSL",
        "jump back to BGNLOOP while any lane is in the loop";
    EndSub = 102, "ENDSUB", [], 0, 0, None, None -> None, Kind::Flow(F::EndSub), None, ALL, OK, L::Flow, "GLSL",
        "end of a subroutine body (returns)";
    Noise1 = 103, "NOISE1", [], 1, 1, Replicated, Float -> Float, Alu, None, ALL, TBD, NONE, "GLSL", "TBD";
    Noise2 = 104, "NOISE2", [], 1, 1, Replicated, Float -> Float, Alu, None, ALL, TBD, NONE, "GLSL", "TBD";
    Noise3 = 105, "NOISE3", [], 1, 1, Replicated, Float -> Float, Alu, None, ALL, TBD, NONE, "GLSL", "TBD";
    Noise4 = 106, "NOISE4", [], 1, 1, Replicated, Float -> Float, Alu, None, ALL, TBD, NONE, "GLSL", "TBD";
    Nop = 107, "NOP", [], 0, 0, None, None -> None, Kind::Nop, None, ALL, OK, L::Nothing, "GLSL",
        "nothing";
    M4x3 = 108, "M4X3", [], 1, 2, Special, Float -> Float, Alu, None, ALL, OK, L::Matrix { rows: 3, width: 4 }, "ps_2_0",
        "dst.r = DP4(src0, src1+r) for rows r = x, y, z";
    M3x4 = 109, "M3X4", [], 1, 2, Special, Float -> Float, Alu, None, ALL, OK, L::Matrix { rows: 4, width: 3 }, "ps_2_0",
        "dst.r = DP3(src0, src1+r) for rows r = x..w";
    M3x3 = 110, "M3X3", [], 1, 2, Special, Float -> Float, Alu, None, ALL, OK, L::Matrix { rows: 3, width: 3 }, "ps_2_0",
        "dst.r = DP3(src0, src1+r) for rows r = x, y, z";
    M3x2 = 111, "M3X2", [], 1, 2, Special, Float -> Float, Alu, None, ALL, OK, L::Matrix { rows: 2, width: 3 }, "ps_2_0",
        "dst.r = DP3(src0, src1+r) for rows r = x, y";
    Nrm4 = 112, "NRM4", [], 1, 1, ComponentWise, Float -> Float, Alu, None, ALL, OK, L::Formula, "NV_fragment_program2",
        "src * RSQ(DP4(src,src)) component-wise";
    CallNz = 113, "CALLNZ", [], 0, 1, None, Float -> None, Kind::Flow(F::CallNz), Required, ALL, OK, L::Flow, "ps_2_x",
        "CAL for lanes whose src.x != 0.0";
    Ifc = 114, "IFC", [], 0, 1, None, Float -> None, Kind::Flow(F::Ifc), Optional, ALL, OK, L::Flow, "ps_2_x",
        "IF";
    BreakC = 115, "BREAKC", [], 0, 1, None, Float -> None, Kind::Flow(F::BreakC), None, ALL, OK, L::Flow, "ps_2_x",
        "BRK for lanes whose src.x != 0.0";
    Kil = 116, "KIL", ["TEXKILL"], 0, 1, None, Float -> None, Kind::Kill, None, FRAGMENT, OK, L::Kill, "ARB_fragment_program",
        "kill active lanes where any of src.xyzw < 0";
    End = 117, "END", [], 0, 0, None, None -> None, Kind::Flow(F::End), None, ALL, OK, L::Flow, "TGSI",
        "end of the program";
    Swz = 118, "SWZ", [], 1, 1, ComponentWise, Untyped -> Untyped, Alu, None, ALL, OK, L::Direct, "ARB_vertex_program",
        "dst.c = src.c through the extended swizzle (bits kept)";
    Ucmp = 119, "UCMP", [], 1, 3, ComponentWise, Untyped -> Untyped, Alu, None, ALL, OK, L::Integer, "later Mesa (GLSL 1.30)",
        "src0.c != 0 ? src1.c : src2.c: a raw 32-bit test, the chosen bits kept (no flush); modifiers act on the sign bit";
    Uadd = 120, "UADD", [], 1, 2, ComponentWise, Uint -> Int, Alu, None, ALL, OK, L::Integer, "later Mesa (GLSL 1.30)",
        "src0.c + src1.c mod 2^32";
    ImulHi = 121, "IMUL_HI", [], 1, 2, ComponentWise, Int -> Int, Alu, None, ALL, OK, L::IntegerMultiply, "later Mesa (2013)",
        "the high 32 bits of the signed 64-bit product src0.c * src1.c";
    UmulHi = 122, "UMUL_HI", [], 1, 2, ComponentWise, Uint -> Uint, Alu, None, ALL, OK, L::IntegerMultiply, "later Mesa (2013)",
        "the high 32 bits of the unsigned 64-bit product src0.c * src1.c";
    F2u = 123, "F2U", [], 1, 1, ComponentWise, Float -> Uint, Alu, None, ALL, OK, L::Integer, "later Mesa (GLSL 1.30)",
        "trunc(src.c) as uint32: NaN, negative values and subnormals -> 0, 2^32 and above (+inf) -> 0xFFFFFFFF";
    Umul = 124, "UMUL", [], 1, 2, ComponentWise, Uint -> Uint, Alu, None, ALL, OK, L::IntegerMultiply, "later Mesa (GLSL 1.30)",
        "the low 32 bits of src0.c * src1.c (signed or unsigned alike)";
    Dadd = 200, "DADD", [], 1, 2, Special, Double -> Double, Alu, None, ALL, OK, L::Double, "double",
        "src0 + src1 (binary64)";
    Ddiv = 201, "DDIV", [], 1, 2, Special, Double -> Double, Alu, None, ALL, OK, L::Double, "double",
        "src0 / src1 (binary64)";
    Dseq = 202, "DSEQ", [], 1, 2, Special, Double -> Float, Alu, None, ALL, OK, L::Double, "double",
        "src0 == src1 ? 1.0f : 0.0f in both words";
    Dslt = 203, "DSLT", [], 1, 2, Special, Double -> Float, Alu, None, ALL, OK, L::Double, "double",
        "src0 < src1 ? 1.0f : 0.0f in both words";
    Dfrac = 204, "DFRAC", [], 1, 1, Special, Double -> Double, Alu, None, ALL, OK, L::Double, "double",
        "src - floor(src)";
    DfracExp = 205, "DFRACEXP", [], 2, 1, Special, Double -> Double, Alu, None, ALL, OK, L::Double, "double",
        "dst0 = exponent (binary64 integer), dst1 = significand in [0.5, 1)";
    Dldexp = 206, "DLDEXP", [], 1, 2, Special, Double -> Double, Alu, None, ALL, OK, L::Double, "double",
        "src0 * 2^trunc(src1)";
    Dmin = 207, "DMIN", [], 1, 2, Special, Double -> Double, Alu, None, ALL, OK, L::Double, "double",
        "min (select, no flush)";
    Dmax = 208, "DMAX", [], 1, 2, Special, Double -> Double, Alu, None, ALL, OK, L::Double, "double",
        "max (select, no flush)";
    Dmul = 209, "DMUL", [], 1, 2, Special, Double -> Double, Alu, None, ALL, OK, L::Double, "double",
        "src0 * src1";
    Dmad = 210, "DMAD", [], 1, 3, Special, Double -> Double, Alu, None, ALL, OK, L::Double, "double",
        "round(round(src0*src1) + src2)";
    Drcp = 211, "DRCP", [], 1, 1, Special, Double -> Double, Alu, None, ALL, OK, L::Double, "double",
        "1 / src";
    Dsqrt = 212, "DSQRT", [], 1, 1, Special, Double -> Double, Alu, None, ALL, OK, L::Double, "double",
        "sqrt(src)";
}

/// Token numbers of the later-Mesa opcodes the project supports: after the 7.9 table (which ends
/// with SWZ, 118), before the double opcodes (200). A stream using one is version 1.2.
pub const V12_OPCODES: std::ops::RangeInclusive<u8> = 119..=199;

impl OpcodeInfo {
    /// True when the opcode needs token format 1.2 (its number is in [`V12_OPCODES`]).
    pub fn needs_v12(&self) -> bool {
        V12_OPCODES.contains(&self.number)
    }
}

impl Opcode {
    /// The table row of this opcode.
    pub fn info(self) -> &'static OpcodeInfo {
        // The table is sorted by number; binary search keeps this independent of gaps.
        let i = OPCODES
            .binary_search_by_key(&(self as u8), |r| r.number)
            .expect("every Opcode variant has a row");
        &OPCODES[i]
    }

    /// Looks an opcode up by its token number.
    pub fn from_number(n: u8) -> Option<Opcode> {
        OPCODES
            .binary_search_by_key(&n, |r| r.number)
            .ok()
            .map(|i| OPCODES[i].opcode)
    }

    /// Looks an opcode up by mnemonic or alias, case-insensitively.
    pub fn from_mnemonic(name: &str) -> Option<Opcode> {
        OPCODES
            .iter()
            .find(|r| {
                r.mnemonic.eq_ignore_ascii_case(name)
                    || r.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
            })
            .map(|r| r.opcode)
    }

    /// Canonical mnemonic.
    pub fn mnemonic(self) -> &'static str {
        self.info().mnemonic
    }

    /// Token number.
    pub fn number(self) -> u8 {
        self as u8
    }
}

impl fmt::Display for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mnemonic())
    }
}

/// Opcodes Mesa added to TGSI after 7.9 (integer GLSL 1.30 ops, SM4 sampling, atomics, renamed
/// kills) that the project does not support. They have no row: programs using them get an error
/// that says why, not just "unknown". The supported later opcodes have rows ([`V12_OPCODES`]).
pub const LATER_MESA_OPCODES: &[&str] = &[
    "F2I",
    "IDIV",
    "IMAX",
    "IMIN",
    "INEG",
    "ISGE",
    "ISHR",
    "ISLT",
    "U2F",
    "UDIV",
    "UMAD",
    "UMAX",
    "UMIN",
    "UMOD",
    "USEQ",
    "USGE",
    "USHR",
    "USLT",
    "USNE",
    "SWITCH",
    "CASE",
    "DEFAULT",
    "ENDSWITCH",
    "SAMPLE",
    "SAMPLE_I",
    "SAMPLE_I_MS",
    "SAMPLE_B",
    "SAMPLE_C",
    "SAMPLE_C_LZ",
    "SAMPLE_D",
    "SAMPLE_L",
    "GATHER4",
    "SVIEWINFO",
    "SAMPLE_POS",
    "SAMPLE_INFO",
    "UARL",
    "IABS",
    "ISSG",
    "LOAD",
    "STORE",
    "MFENCE",
    "LFENCE",
    "SFENCE",
    "BARRIER",
    "ATOMUADD",
    "ATOMXCHG",
    "ATOMCAS",
    "ATOMAND",
    "ATOMOR",
    "ATOMXOR",
    "ATOMUMIN",
    "ATOMUMAX",
    "ATOMIMIN",
    "ATOMIMAX",
    "TXQ_LZ",
    "KILL",
    "KILL_IF",
    "TG4",
    "LODQ",
    "TEX2",
    "TXB2",
    "TXL2",
    "FSEQ",
    "FSGE",
    "FSLT",
    "FSNE",
    "IMSB",
    "UMSB",
    "LSB",
    "POPC",
    "BREV",
    "IBFE",
    "UBFE",
    "BFI",
    "INTERP_CENTROID",
    "INTERP_SAMPLE",
    "INTERP_OFFSET",
    "DDX_FINE",
    "DDY_FINE",
    "CLOCK",
    "RESQ",
    "FMA",
    "DNEG",
    "DABS",
    "DRSQ",
    "DSGE",
    "DSNE",
    "D2F",
    "F2D",
    "D2I",
    "I2D",
    "D2U",
    "U2D",
];

/// Every spelling the parser accepts (mnemonics and aliases), longest first, so that a prefix
/// never shadows a longer name (DP2A before DP2, ENDLOOP before END).
pub fn spellings_longest_first() -> Vec<(&'static str, Opcode)> {
    let mut v: Vec<(&'static str, Opcode)> = OPCODES
        .iter()
        .flat_map(|r| {
            std::iter::once((r.mnemonic, r.opcode))
                .chain(r.aliases.iter().map(move |a| (*a, r.opcode)))
        })
        .collect();
    v.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(b.0)));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn numbers_are_unique_and_sorted() {
        for w in OPCODES.windows(2) {
            assert!(
                w[0].number < w[1].number,
                "{} / {}",
                w[0].mnemonic,
                w[1].mnemonic
            );
        }
        for r in OPCODES {
            assert_eq!(r.opcode as u8, r.number);
            assert_eq!(Opcode::from_number(r.number), Some(r.opcode));
        }
    }

    #[test]
    fn spellings_are_unique() {
        let mut seen = HashSet::new();
        for (s, _) in spellings_longest_first() {
            assert!(seen.insert(s.to_ascii_uppercase()), "{s} spelled twice");
        }
    }

    #[test]
    fn every_document_opcode_has_a_row() {
        // Names collected from the five spec documents (headings and "Alias for" lines).
        let names = "ABS ADD AND ARA ARL ARR BGNFOR BGNLOOP BGNSUB BRA BREAK BREAKC BRK CAL CALL CALLNZ \
            CEIL CLAMP CMP CND CND0 CONT COS CROSSPRODUCT CRS DADD DDIV DDX DDY DFRAC DFRACEXP DIV DLDEXP \
            DMAD DMAX DMIN DMUL DOT2ADD DOT3 DOT4 DP2 DP2A DP2ADD DP3 DP4 DPH DRCP DSEQ DSLT DSQRT DST DSX \
            DSY ELSE EMIT ENDFOR ENDIF ENDLOOP ENDPRIM ENDREP ENDSUB EX2 EXP EXPBASE2 EXPP FLOOR FLR FRAC \
            FRC I2F IF IFC INDEX INT KIL KILP LERP LG2 LIT LOG LOGBASE2 LOGP LOOP LRP M3X2 M3X3 M3X4 M4X3 \
            M4X4 MAD MADD MAX MIN MOD MOV MOVA MUL MULTIPLYMATRIX NEGATE NOISE1 NOISE2 NOISE3 NOISE4 NOP \
            NOT NRM NRM4 OR PK2H PK2US PK4B PK4UB POPA POW POWER PUSHA RCC RCP RECIP RECIPSQRT REP RET RFL \
            ROUND RSQ SAD SCS SEQ SETGE SETLT SFL SGE SGN SGT SHL SHR SIN SINCOS SLE SLT SNE SSG STR SUB \
            SWZ TEX TEXKILL TEXLD TEXLDB TEXLDD TRUNC TXB TXD TXF TXL TXP TXQ UP2H UP2US UP4B UP4UB X2D \
            XOR XPD END";
        for n in names.split_whitespace() {
            assert!(Opcode::from_mnemonic(n).is_some(), "{n} has no row");
        }
    }

    #[test]
    fn later_mesa_names_have_no_row_and_supported_later_opcodes_need_v12() {
        for n in LATER_MESA_OPCODES {
            assert!(Opcode::from_mnemonic(n).is_none(), "{n} has a row");
        }
        // decisions.md section 1's four, then F2U and UMUL, numbered from 119 in that order.
        let later: Vec<(&str, u8)> = OPCODES
            .iter()
            .filter(|r| r.needs_v12())
            .map(|r| (r.mnemonic, r.number))
            .collect();
        assert_eq!(
            later,
            [
                ("UCMP", 119),
                ("UADD", 120),
                ("IMUL_HI", 121),
                ("UMUL_HI", 122),
                ("F2U", 123),
                ("UMUL", 124)
            ]
        );
        assert!(!Opcode::Swz.info().needs_v12());
        assert!(!Opcode::Dadd.info().needs_v12());
    }

    #[test]
    fn longest_first_puts_dp2a_before_dp2() {
        let s = spellings_longest_first();
        let pos = |n: &str| s.iter().position(|(m, _)| *m == n).unwrap();
        assert!(pos("DP2A") < pos("DP2"));
        assert!(pos("ENDLOOP") < pos("END"));
    }
}

//! The in-memory form of a TGSI program, shared by both front ends, the validator, the models and
//! the compiler.
//!
//! It models exactly what the token format (version 1.2, `decisions.md` section 5) can say, so that
//! `program -> tokens -> program` and `program -> text -> program` are identities. Source locations
//! ([`Loc`]) ride along for error messages but never take part in equality.

use super::opcode::{Opcode, Stages};
use std::fmt;

/// Where something came from: a line and column of text, or a word offset in a token stream.
#[derive(Clone, Copy, Debug, Default)]
pub enum Loc {
    /// Built in memory.
    #[default]
    None,
    /// 1-based line and column in TGSI text.
    Text {
        /// Line, from 1.
        line: u32,
        /// Column, from 1.
        col: u32,
    },
    /// A place in a binary token stream.
    Token {
        /// The word's offset from the stream's start, from 0.
        offset: u32,
    },
}

impl PartialEq for Loc {
    /// Locations never make two programs differ.
    fn eq(&self, _: &Loc) -> bool {
        true
    }
}
impl Eq for Loc {}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loc::None => f.write_str("<generated>"),
            Loc::Text { line, col } => write!(f, "{line}:{col}"),
            Loc::Token { offset } => write!(f, "token {offset}"),
        }
    }
}

/// Shader stage (PROCESSOR token values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Processor {
    /// A fragment (pixel) shader: runs on a quad of four pixels, the core's native stage.
    Fragment = 0,
    /// A vertex shader: runs on four vertices at once, one per lane.
    Vertex = 1,
    /// A geometry shader: the reference model runs it (EMIT appends vertices); the core does not.
    Geometry = 2,
}

impl Processor {
    /// The processor's bit in an opcode's allowed [`Stages`].
    pub fn stage(self) -> Stages {
        match self {
            Processor::Fragment => Stages::FRAGMENT,
            Processor::Vertex => Stages::VERTEX,
            Processor::Geometry => Stages::GEOMETRY,
        }
    }
}

/// The text header style. `V11` is `FRAG1.1` (Mesa <= 7.7), `Modern` is `FRAG` (Mesa 7.8+).
/// Both parse to the same program: the style is a printing option, not part of [`Program`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Dialect {
    /// The Mesa <= 7.7 header `FRAG1.1` / `VERT1.1` / `GEOM1.1`, printed for tools that predate
    /// `FRAG`.
    V11,
    /// The Mesa 7.8+ header `FRAG` / `VERT` / `GEOM`, printed by default.
    #[default]
    Modern,
}

/// Register files. Numbers are token values (0-7 from the 004 document, 8-12 `decisions.md` section 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum File {
    /// No register: the destination of an instruction whose result is thrown away.
    Null = 0,
    /// `CONST`: the uniforms the host uploads before a run; read-only to the shader.
    Constant = 1,
    /// `IN`: the per-lane inputs (interpolated attributes in a fragment shader, vertex attributes
    /// in a vertex shader).
    Input = 2,
    /// `OUT`: the per-lane results a run returns.
    Output = 3,
    /// `TEMP`: per-lane scratch registers the program reads and writes.
    Temporary = 4,
    /// `SAMP`: the texture units that TEX-family opcodes sample; holds no values.
    Sampler = 5,
    /// `ADDR`: the address registers that indirect operands (`FILE[ADDR[0].x+3]`) index with (ARL,
    /// ARA, ARR write them).
    Address = 6,
    /// `IMM`: the program's literal constants, numbered in the order the `IMM` lines appear.
    Immediate = 7,
    /// `LOOP`: the counter registers of Mesa 7.7's LOOP/ENDLOOP (format 1.2 file number 8).
    Loop = 8,
    /// `PRED`: the NV predicate registers (format 1.2 file number 9).
    Predicate = 9,
    /// `SV`: system values the stage supplies, such as VERTEXID and INSTANCEID (format 1.2 file
    /// number 10).
    SystemValue = 10,
    /// IMMX: an immediate array declared with its data (Mesa 7.9).
    ImmediateArray = 11,
    /// TEMPX: a temporary array (Mesa 7.9).
    TemporaryArray = 12,
}

impl File {
    /// All files, in number order.
    pub const ALL: [File; 13] = [
        File::Null,
        File::Constant,
        File::Input,
        File::Output,
        File::Temporary,
        File::Sampler,
        File::Address,
        File::Immediate,
        File::Loop,
        File::Predicate,
        File::SystemValue,
        File::ImmediateArray,
        File::TemporaryArray,
    ];

    /// Text name (`CONST`, `IN`, ...).
    pub fn name(self) -> &'static str {
        match self {
            File::Null => "NULL",
            File::Constant => "CONST",
            File::Input => "IN",
            File::Output => "OUT",
            File::Temporary => "TEMP",
            File::Sampler => "SAMP",
            File::Address => "ADDR",
            File::Immediate => "IMM",
            File::Loop => "LOOP",
            File::Predicate => "PRED",
            File::SystemValue => "SV",
            File::ImmediateArray => "IMMX",
            File::TemporaryArray => "TEMPX",
        }
    }

    /// Token number.
    pub fn number(self) -> u32 {
        self as u32
    }

    /// Looks a file up by token number.
    pub fn from_number(n: u32) -> Option<File> {
        File::ALL.get(n as usize).copied()
    }

    /// Looks a file up by text name, case-insensitively.
    pub fn from_name(s: &str) -> Option<File> {
        File::ALL
            .iter()
            .copied()
            .find(|f| f.name().eq_ignore_ascii_case(s))
    }

    /// Files a program may not write.
    pub fn is_read_only(self) -> bool {
        matches!(
            self,
            File::Constant
                | File::Input
                | File::Sampler
                | File::Immediate
                | File::ImmediateArray
                | File::SystemValue
        )
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Declaration semantic names (SEMANTIC token values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SemanticName {
    /// The vertex's clip-space position (vertex output) or the pixel's window position (fragment
    /// input).
    Position = 0,
    /// A front-facing color (`COLOR[0]` primary, `COLOR[1]` secondary); a fragment output
    /// `COLOR[n]` is render target n.
    Color = 1,
    /// A back-facing color that a vertex shader writes for two-sided lighting.
    BColor = 2,
    /// The fog coordinate.
    Fog = 3,
    /// The point size a vertex shader writes.
    PSize = 4,
    /// A user attribute with no fixed meaning; the index tells them apart (`GENERIC[3]`).
    Generic = 5,
    /// A normal vector (a fixed-function input of old vertex programs).
    Normal = 6,
    /// The fragment's facing: (1, 0, 0, 1) for a front-facing primitive, (-1, 0, 0, 1) for a
    /// back-facing one.
    Face = 7,
    /// The edge flag of a vertex (for polygon-mode line drawing).
    EdgeFlag = 8,
    /// The index of the primitive within the draw.
    PrimId = 9,
    /// The index of the instance in an instanced draw (a system value, `SV`).
    InstanceId = 10,
    /// The stencil reference a fragment shader exports.
    Stencil = 11,
    /// The index of a vertex (a system value, `SV`; later Mesa, documented with format 1.2:
    /// `microcode::tgsi::system`).
    VertexId = 12,
}

impl SemanticName {
    /// All names, in number order.
    pub const ALL: [SemanticName; 13] = [
        SemanticName::Position,
        SemanticName::Color,
        SemanticName::BColor,
        SemanticName::Fog,
        SemanticName::PSize,
        SemanticName::Generic,
        SemanticName::Normal,
        SemanticName::Face,
        SemanticName::EdgeFlag,
        SemanticName::PrimId,
        SemanticName::InstanceId,
        SemanticName::Stencil,
        SemanticName::VertexId,
    ];

    /// Text name.
    pub fn name(self) -> &'static str {
        match self {
            SemanticName::Position => "POSITION",
            SemanticName::Color => "COLOR",
            SemanticName::BColor => "BCOLOR",
            SemanticName::Fog => "FOG",
            SemanticName::PSize => "PSIZE",
            SemanticName::Generic => "GENERIC",
            SemanticName::Normal => "NORMAL",
            SemanticName::Face => "FACE",
            SemanticName::EdgeFlag => "EDGEFLAG",
            SemanticName::PrimId => "PRIMID",
            SemanticName::InstanceId => "INSTANCEID",
            SemanticName::Stencil => "STENCIL",
            SemanticName::VertexId => "VERTEXID",
        }
    }

    /// Looks a name up by token number.
    pub fn from_number(n: u32) -> Option<SemanticName> {
        SemanticName::ALL.get(n as usize).copied()
    }

    /// Looks a name up by text, case-insensitively.
    pub fn from_name(s: &str) -> Option<SemanticName> {
        SemanticName::ALL
            .iter()
            .copied()
            .find(|f| f.name().eq_ignore_ascii_case(s))
    }
}

/// A declaration's semantic: `, COLOR[1]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Semantic {
    /// Which semantic (POSITION, COLOR, GENERIC, ...).
    pub name: SemanticName,
    /// The semantic index, telling apart registers of one name: `COLOR[1]` is 1.
    pub index: u32,
}

/// Interpolation mode (INTERPOLATION token values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Interpolate {
    /// Flat: every pixel gets the provoking vertex's value.
    Constant = 0,
    /// Linear in screen space, without perspective correction.
    Linear = 1,
    /// Perspective-correct interpolation across the primitive.
    Perspective = 2,
}

impl Interpolate {
    /// Text name.
    pub fn name(self) -> &'static str {
        match self {
            Interpolate::Constant => "CONSTANT",
            Interpolate::Linear => "LINEAR",
            Interpolate::Perspective => "PERSPECTIVE",
        }
    }
}

/// The first bracket of a 2-D declaration: `DCL CONST[1][0..6]` has `Index(1)`, the geometry-shader
/// form `DCL IN[][0]` has `Empty`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeclDimension {
    /// `DCL FILE[a][..]`: the first bracket names one index `a`.
    Index(i32),
    /// `DCL IN[][..]`: the geometry-shader form, one declaration for every input vertex.
    Empty,
}

/// `DCL FILE[first..last]` with its optional parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declaration {
    /// The register file the declaration makes registers of.
    pub file: File,
    /// First bracket of a 2-D declaration.
    pub dimension: Option<DeclDimension>,
    /// The first register index of the range (signed 16-bit in tokens, `decisions.md` section 5).
    pub first: i32,
    /// The last register index of the range, inclusive (`DCL TEMP[0..3]` has 3; equal to `first`
    /// for one register).
    pub last: i32,
    /// Usage mask, bit 0 = x; 0xF (all) is the default and is not printed.
    pub usage_mask: u8,
    /// The semantic (`, COLOR[1]`), for inputs, outputs and system values.
    pub semantic: Option<Semantic>,
    /// How a fragment input is interpolated (`, LINEAR`), when the declaration says.
    pub interpolate: Option<Interpolate>,
    /// IMMX data: one vec4 of bits per element (`last - first + 1` of them).
    pub array_data: Vec<[u32; 4]>,
    /// Where the declaration is, for error messages.
    pub loc: Loc,
}

/// Immediate data type (IMMEDIATE token DataType).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImmType {
    /// `FLT32`: IEEE-754 binary32 values.
    Float32 = 0,
    /// `UINT32`: unsigned 32-bit integers, for the integer opcodes.
    Uint32 = 1,
    /// `INT32`: signed 32-bit integers, stored as their two's-complement bits.
    Int32 = 2,
}

impl ImmType {
    /// Text name (`FLT32`, `UINT32`, `INT32`).
    pub fn name(self) -> &'static str {
        match self {
            ImmType::Float32 => "FLT32",
            ImmType::Uint32 => "UINT32",
            ImmType::Int32 => "INT32",
        }
    }
}

/// `IMM FLT32 { ... }`: one to four 32-bit values, stored as bits. Immediates are numbered in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Immediate {
    /// How `values` are typed, and how the printer writes them.
    pub ty: ImmType,
    /// One to four 32-bit patterns, in component order (x first); interpret them through `ty`.
    pub values: Vec<u32>,
    /// Where the `IMM` line is, for error messages.
    pub loc: Loc,
}

/// PROPERTY names (numbers in `tgsi-reference.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PropertyName {
    /// The primitive a geometry shader receives (POINTS, LINES, TRIANGLES, ...; the numbers are
    /// Gallium's PIPE_PRIM values).
    GsInputPrimitive = 0,
    /// The primitive a geometry shader emits.
    GsOutputPrimitive = 1,
    /// The most vertices a geometry shader emits per invocation.
    GsMaxOutputVertices = 2,
    /// Where the window origin is: UPPER_LEFT (0) or LOWER_LEFT (1); `render` orders rows by it.
    FsCoordOrigin = 3,
    /// Whether pixel centres are at half-integer (0) or integer (1) window coordinates.
    FsCoordPixelCenter = 4,
}

impl PropertyName {
    /// All names, in number order.
    pub const ALL: [PropertyName; 5] = [
        PropertyName::GsInputPrimitive,
        PropertyName::GsOutputPrimitive,
        PropertyName::GsMaxOutputVertices,
        PropertyName::FsCoordOrigin,
        PropertyName::FsCoordPixelCenter,
    ];

    /// Text name, as Mesa prints it.
    pub fn name(self) -> &'static str {
        match self {
            PropertyName::GsInputPrimitive => "GS_INPUT_PRIMITIVE",
            PropertyName::GsOutputPrimitive => "GS_OUTPUT_PRIMITIVE",
            PropertyName::GsMaxOutputVertices => "GS_MAX_OUTPUT_VERTICES",
            PropertyName::FsCoordOrigin => "FS_COORD_ORIGIN",
            PropertyName::FsCoordPixelCenter => "FS_COORD_PIXEL_CENTER",
        }
    }
}

/// `PROPERTY NAME value...`; values are stored as numbers (primitive types, origins, counts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    /// Which property.
    pub name: PropertyName,
    /// Its values (usually one); named values such as TRIANGLES are stored as their numbers.
    pub values: Vec<u32>,
    /// Where the `PROPERTY` line is, for error messages.
    pub loc: Loc,
}

/// A swizzle selector: X, Y, Z, W.
pub type Swz = u8;

/// The address register component of an indirect operand: `FILE[ADDR[0].x+3]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Indirect {
    /// The file of the register that supplies the index (ADDR, or a file Mesa allows there).
    pub file: File,
    /// The index of that register (`ADDR[0]` is 0).
    pub index: i32,
    /// Which component of the address register (0-3).
    pub component: Swz,
}

/// The second bracket of a 2-D operand (`CONST[1][3]`: `index = 1`, dimension index 3), which the
/// token format holds in a DIMENSION token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dimension {
    /// The constant part of the second bracket, or the whole of it when `indirect` is `None`.
    pub index: i32,
    /// An address-register component added to `index` (`CONST[1][ADDR[0].x+3]`).
    pub indirect: Option<Indirect>,
}

/// A register reference, as in an operand: file, first bracket (with optional indirection) and optional
/// second bracket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Register {
    /// The register file.
    pub file: File,
    /// The first bracket: the register number, or the constant added to `indirect`.
    pub index: i32,
    /// An address-register component added to `index`: `FILE[ADDR[0].x+3]`.
    pub indirect: Option<Indirect>,
    /// The second bracket of a 2-D operand (`CONST[1][3]`, `IN[vertex][attribute]`).
    pub dimension: Option<Dimension>,
}

impl Register {
    /// A plain `FILE[index]`.
    pub fn new(file: File, index: i32) -> Register {
        Register {
            file,
            index,
            indirect: None,
            dimension: None,
        }
    }

    /// Either bracket is indexed by a register.
    pub fn is_relative(&self) -> bool {
        self.indirect.is_some() || self.dimension.is_some_and(|d| d.indirect.is_some())
    }
}

/// An extended-swizzle selector (EXT_SWZ): a component or a literal 0.0 / 1.0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExtSel {
    /// The source's x (after the simple swizzle).
    X = 0,
    /// The source's y (after the simple swizzle).
    Y = 1,
    /// The source's z (after the simple swizzle).
    Z = 2,
    /// The source's w (after the simple swizzle).
    W = 3,
    /// A literal 0.0.
    Zero = 4,
    /// A literal 1.0.
    One = 5,
}

impl ExtSel {
    /// Every selector, by token value.
    pub const ALL: [ExtSel; 6] = [
        ExtSel::X,
        ExtSel::Y,
        ExtSel::Z,
        ExtSel::W,
        ExtSel::Zero,
        ExtSel::One,
    ];

    /// Looks a selector up by token value.
    pub fn from_number(n: u32) -> Option<ExtSel> {
        ExtSel::ALL.get(n as usize).copied()
    }
}

/// The EXT_SWZ source extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExtSwizzle {
    /// Per destination component: which simple-swizzled component, or 0 / 1.
    pub select: [ExtSel; 4],
    /// Per-component negate, applied before the operand's Negate bit.
    pub negate: [bool; 4],
    /// ExtDivide: `One` is none; `W` divides x, y, z by w after every other modifier. Other values
    /// decode but do not validate.
    pub divide: ExtSel,
}

impl Default for ExtSwizzle {
    fn default() -> Self {
        ExtSwizzle {
            select: [ExtSel::X, ExtSel::Y, ExtSel::Z, ExtSel::W],
            negate: [false; 4],
            divide: ExtSel::One,
        }
    }
}

/// The EXT_MOD source extension; applied in field order (Complement, Bias, Scale2X, Absolute, Negate).
/// The Mesa 7.9 text form `|x|` is `absolute`, `-|x|` is `absolute` + `negate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ExtMod {
    /// `1-(x)`
    pub complement: bool,
    /// `(x)-0.5`
    pub bias: bool,
    /// `2*(x)`
    pub scale2x: bool,
    /// `|x|`
    pub absolute: bool,
    /// `-(x)` outside the absolute value
    pub negate: bool,
}

impl ExtMod {
    /// True when no modifier is set (no EXT_MOD token is needed).
    pub fn is_empty(&self) -> bool {
        *self == ExtMod::default()
    }
}

/// A source operand with every modifier the formats can express (`decisions.md` section 3 gives
/// the order in which they apply).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SrcOperand {
    /// The register read.
    pub reg: Register,
    /// Simple swizzle, one selector (0-3) per component.
    pub swizzle: [Swz; 4],
    /// The SRC_REGISTER Negate bit (`-x`).
    pub negate: bool,
    /// EXT_SWZ: a second swizzle with per-component literals and negates, composed after `swizzle`
    /// (`decisions.md` section 3).
    pub ext_swizzle: Option<ExtSwizzle>,
    /// EXT_MOD: complement, bias, scale, absolute value and outer negate; empty when unused.
    pub ext_mod: ExtMod,
}

impl SrcOperand {
    /// `FILE[index]` with identity swizzle and no modifiers.
    pub fn new(reg: Register) -> SrcOperand {
        SrcOperand {
            reg,
            swizzle: [0, 1, 2, 3],
            negate: false,
            ext_swizzle: None,
            ext_mod: ExtMod::default(),
        }
    }
}

/// Condition-code tests (CC token values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CondMask {
    /// Passes where the component is greater than zero.
    Gt = 0,
    /// Passes where the component is zero (either sign).
    Eq = 1,
    /// Passes where the component is less than zero.
    Lt = 2,
    /// Passes where the component is greater than or equal to zero.
    Ge = 3,
    /// Passes where the component is less than or equal to zero.
    Le = 4,
    /// Passes where the component is not zero; also passes for NaN (UN).
    Ne = 5,
    /// Always passes ("true").
    Tr = 6,
    /// Never passes ("false").
    Fl = 7,
}

impl CondMask {
    /// All tests, in number order.
    pub const ALL: [CondMask; 8] = [
        CondMask::Gt,
        CondMask::Eq,
        CondMask::Lt,
        CondMask::Ge,
        CondMask::Le,
        CondMask::Ne,
        CondMask::Tr,
        CondMask::Fl,
    ];

    /// Text name (`GT`, ...).
    pub fn name(self) -> &'static str {
        ["GT", "EQ", "LT", "GE", "LE", "NE", "TR", "FL"][self as usize]
    }

    /// Looks a test up by token value.
    pub fn from_number(n: u32) -> Option<CondMask> {
        CondMask::ALL.get(n as usize).copied()
    }
}

/// A condition-code test: which CC register, which test, through which swizzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CondTest {
    /// The test applied to each component.
    pub mask: CondMask,
    /// CC register 0 or 1.
    pub index: u8,
    /// Which CC component each destination component tests, one selector (0-3) per component.
    pub swizzle: [Swz; 4],
}

/// MODULATE destination extension (a power-of-two scale applied before saturate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Modulate {
    /// No scale.
    #[default]
    X1 = 0,
    /// Multiply by 2.
    X2 = 1,
    /// Multiply by 4.
    X4 = 2,
    /// Multiply by 8.
    X8 = 3,
    /// Multiply by 1/2.
    Half = 4,
    /// Multiply by 1/4.
    Quarter = 5,
    /// Multiply by 1/8.
    Eighth = 6,
}

impl Modulate {
    /// Looks a scale up by token value.
    pub fn from_number(n: u32) -> Option<Modulate> {
        [
            Modulate::X1,
            Modulate::X2,
            Modulate::X4,
            Modulate::X8,
            Modulate::Half,
            Modulate::Quarter,
            Modulate::Eighth,
        ]
        .get(n as usize)
        .copied()
    }

    /// The scale factor as binary32.
    pub fn factor(self) -> f32 {
        [1.0, 2.0, 4.0, 8.0, 0.5, 0.25, 0.125][self as usize]
    }
}

/// A destination operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DstOperand {
    /// The register written.
    pub reg: Register,
    /// Bit 0 = x ... bit 3 = w.
    pub write_mask: u8,
    /// CONDCODE extension: a component is written only where the test passes.
    pub cond: Option<CondTest>,
    /// A power-of-two scale applied to the result before saturation (MODULATE extension).
    pub modulate: Modulate,
}

impl DstOperand {
    /// `FILE[index]` with a full write mask.
    pub fn new(reg: Register) -> DstOperand {
        DstOperand {
            reg,
            write_mask: 0xF,
            cond: None,
            modulate: Modulate::X1,
        }
    }
}

/// Saturate mode (instruction token Saturate field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Saturate {
    /// The result is written as computed.
    #[default]
    None = 0,
    /// `_SAT`: clamp to [0, 1].
    ZeroOne = 1,
    /// `_SATNV`: clamp to [-1, 1].
    MinusPlusOne = 2,
}

/// NV precision hint; accepted and ignored (everything computes in binary32).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Precision {
    /// No hint.
    #[default]
    Default = 0,
    /// Asks for binary32 (`.F32` in text).
    Float32 = 1,
    /// Asks for binary16 (`.F16` in text).
    Float16 = 2,
    /// Asks for NV 12-bit fixed point (`.X12` in text).
    Fixed12 = 3,
}

/// Texture targets (TEXTURE token values). 0-8 are Mesa 7.9's; 9-17 are the later targets with
/// later Mesa's numbers (array layers, depth comparison on arrays and cube maps, multisampled
/// targets and cube-map arrays), documented with format 1.2 (`docs/text-syntax.md`). The array
/// layer is the coordinate after the target's own (1D_ARRAY y, 2D_ARRAY z, CUBE_ARRAY w), the
/// depth reference z (SHADOW1D, SHADOW2D, SHADOW1D_ARRAY) or w (SHADOW2D_ARRAY, SHADOWCUBE).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextureTarget {
    /// No target given (not valid on a texture opcode).
    Unknown = 0,
    /// A one-dimensional texture: coordinate x.
    T1D = 1,
    /// A two-dimensional texture with normalised coordinates x, y in [0, 1].
    T2D = 2,
    /// A volume texture: coordinates x, y, z.
    T3D = 3,
    /// A cube map: the direction x, y, z picks the face and texel.
    Cube = 4,
    /// A rectangle texture: unnormalised texel coordinates x, y.
    Rect = 5,
    /// A 1-D depth texture compared with the reference in z.
    Shadow1D = 6,
    /// A 2-D depth texture compared with the reference in z.
    Shadow2D = 7,
    /// A rectangle depth texture compared with the reference in z.
    ShadowRect = 8,
    /// An array of 1-D textures: the layer is y.
    T1DArray = 9,
    /// An array of 2-D textures: the layer is z.
    T2DArray = 10,
    /// An array of 1-D depth textures: layer y, reference z.
    Shadow1DArray = 11,
    /// An array of 2-D depth textures: layer z, reference w.
    Shadow2DArray = 12,
    /// A depth cube map: direction x, y, z, reference w.
    ShadowCube = 13,
    /// A multisampled 2-D texture (one sample per texel here: as 2D).
    T2DMsaa = 14,
    /// A multisampled 2-D array (as 2D_ARRAY).
    T2DArrayMsaa = 15,
    /// An array of cube maps: direction x, y, z, layer w.
    CubeArray = 16,
    /// Depth comparison on a cube-map array: its reference has no room in the coordinate
    /// (later TGSI reads it from a second source); TEX reads it from nowhere and compares 0.
    ShadowCubeArray = 17,
}

impl TextureTarget {
    /// All targets, in number order.
    pub const ALL: [TextureTarget; 18] = [
        TextureTarget::Unknown,
        TextureTarget::T1D,
        TextureTarget::T2D,
        TextureTarget::T3D,
        TextureTarget::Cube,
        TextureTarget::Rect,
        TextureTarget::Shadow1D,
        TextureTarget::Shadow2D,
        TextureTarget::ShadowRect,
        TextureTarget::T1DArray,
        TextureTarget::T2DArray,
        TextureTarget::Shadow1DArray,
        TextureTarget::Shadow2DArray,
        TextureTarget::ShadowCube,
        TextureTarget::T2DMsaa,
        TextureTarget::T2DArrayMsaa,
        TextureTarget::CubeArray,
        TextureTarget::ShadowCubeArray,
    ];

    /// Text name (`2D`, `SHADOWRECT`, `2D_ARRAY`, ...).
    pub fn name(self) -> &'static str {
        [
            "UNKNOWN",
            "1D",
            "2D",
            "3D",
            "CUBE",
            "RECT",
            "SHADOW1D",
            "SHADOW2D",
            "SHADOWRECT",
            "1D_ARRAY",
            "2D_ARRAY",
            "SHADOW1D_ARRAY",
            "SHADOW2D_ARRAY",
            "SHADOWCUBE",
            "2D_MSAA",
            "2D_ARRAY_MSAA",
            "CUBE_ARRAY",
            "SHADOWCUBE_ARRAY",
        ][self as usize]
    }

    /// Looks a target up by token value.
    pub fn from_number(n: u32) -> Option<TextureTarget> {
        TextureTarget::ALL.get(n as usize).copied()
    }

    /// True for the targets after Mesa 7.9's (numbers 9 and up).
    pub fn is_later(self) -> bool {
        self as u32 >= TextureTarget::T1DArray as u32
    }
}

/// One instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instruction {
    /// What the instruction does (a row of the opcode table).
    pub opcode: Opcode,
    /// How the results are clamped before they are written (`_SAT`, `_SATNV`).
    pub saturate: Saturate,
    /// The NV precision hint; carried for round trips, ignored by every engine.
    pub precision: Precision,
    /// CondDstUpdate: the CC register (0 or 1) updated from the written values.
    pub cond_update: Option<u8>,
    /// CondFlowEnable: the instruction happens only where this test passes.
    pub cond_flow: Option<CondTest>,
    /// The destinations, as many as the opcode table's `num_dst` (0 to 2; DFRACEXP has two).
    pub dst: Vec<DstOperand>,
    /// The sources, as many as the opcode table's `num_src` (0 to 4).
    pub src: Vec<SrcOperand>,
    /// Target instruction index (`:N`).
    pub label: Option<u32>,
    /// The texture target of a TEX-family instruction (the last operand in text: `TEX OUT[0],
    /// IN[0], SAMP[0], 2D`).
    pub texture: Option<TextureTarget>,
    /// Where the instruction is, for error messages.
    pub loc: Loc,
}

impl Instruction {
    /// An instruction with no operands or modifiers.
    pub fn new(opcode: Opcode) -> Instruction {
        Instruction {
            opcode,
            saturate: Saturate::None,
            precision: Precision::Default,
            cond_update: None,
            cond_flow: None,
            dst: Vec::new(),
            src: Vec::new(),
            label: None,
            texture: None,
            loc: Loc::None,
        }
    }
}

/// A whole program. Items are kept per kind in their original order; the printer and the encoder
/// emit properties, declarations, immediates, then instructions, so that order is canonical.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The stage the program runs in (the `FRAG` / `VERT` / `GEOM` header).
    pub processor: Processor,
    /// `PROPERTY` lines, in source order.
    pub properties: Vec<Property>,
    /// `DCL` lines, in source order.
    pub declarations: Vec<Declaration>,
    /// `IMM` lines, in source order; their position is their `IMM[n]` number.
    pub immediates: Vec<Immediate>,
    /// The instructions, in order; a label (`:N`) is an index into this list.
    pub instructions: Vec<Instruction>,
    /// False when the program came from a token stream of a newer minor version than this crate
    /// knows (the 004 document: load it, but refuse to execute it). True for everything else.
    pub executable: bool,
    /// Extension tokens that appeared twice on one instruction or operand in a token stream
    /// (`decisions.md` section 1 makes that a validation error). Always empty for text.
    pub duplicate_extensions: Vec<DuplicateExtension>,
}

/// An extension token that a token stream repeated on one instruction or operand. The decoder keeps
/// the first and records the repetition here so that the validator can reject the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuplicateExtension {
    /// Index of the instruction in [`Program::instructions`].
    pub instruction: usize,
    /// Which token, for messages: `NV`, `dst 0 CONDCODE`, `src 1 EXT_MOD`, ...
    pub what: String,
    /// Where the repeated token is.
    pub loc: Loc,
}

impl Program {
    /// An empty program for a stage.
    pub fn new(processor: Processor) -> Program {
        Program {
            processor,
            properties: Vec::new(),
            declarations: Vec::new(),
            immediates: Vec::new(),
            instructions: Vec::new(),
            executable: true,
            duplicate_extensions: Vec::new(),
        }
    }

    /// The value of a property, if the program sets it.
    pub fn property(&self, name: PropertyName) -> Option<&[u32]> {
        self.properties
            .iter()
            .find(|p| p.name == name)
            .map(|p| p.values.as_slice())
    }

    /// Vertices of a geometry program's input primitive (GS_INPUT_PRIMITIVE: points 1, lines 2,
    /// triangles 3, lines with adjacency 4, otherwise 6): the range of the first bracket of
    /// `IN[v][i]`.
    pub fn input_vertices(&self) -> i32 {
        match self
            .property(PropertyName::GsInputPrimitive)
            .and_then(|v| v.first().copied())
        {
            Some(0) => 1,
            Some(1..=3) => 2,
            Some(4..=6) => 3,
            Some(10 | 11) => 4,
            _ => 6,
        }
    }
}

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
    Text { line: u32, col: u32 },
    /// 0-based word offset in a token stream.
    Token { offset: u32 },
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
    Fragment = 0,
    Vertex = 1,
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
    V11,
    #[default]
    Modern,
}

/// Register files. Numbers are token values (0-7 from the 004 document, 8-12 `decisions.md` section 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum File {
    Null = 0,
    Constant = 1,
    Input = 2,
    Output = 3,
    Temporary = 4,
    Sampler = 5,
    Address = 6,
    Immediate = 7,
    Loop = 8,
    Predicate = 9,
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
    Position = 0,
    Color = 1,
    BColor = 2,
    Fog = 3,
    PSize = 4,
    Generic = 5,
    Normal = 6,
    Face = 7,
    EdgeFlag = 8,
    PrimId = 9,
    InstanceId = 10,
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
    pub name: SemanticName,
    pub index: u32,
}

/// Interpolation mode (INTERPOLATION token values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Interpolate {
    Constant = 0,
    Linear = 1,
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
    Index(i32),
    Empty,
}

/// `DCL FILE[first..last]` with its optional parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declaration {
    pub file: File,
    /// First bracket of a 2-D declaration.
    pub dimension: Option<DeclDimension>,
    pub first: i32,
    pub last: i32,
    /// Usage mask, bit 0 = x; 0xF (all) is the default and is not printed.
    pub usage_mask: u8,
    pub semantic: Option<Semantic>,
    pub interpolate: Option<Interpolate>,
    /// IMMX data: one vec4 of bits per element (`last - first + 1` of them).
    pub array_data: Vec<[u32; 4]>,
    pub loc: Loc,
}

/// Immediate data type (IMMEDIATE token DataType).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImmType {
    Float32 = 0,
    Uint32 = 1,
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
    pub ty: ImmType,
    pub values: Vec<u32>,
    pub loc: Loc,
}

/// PROPERTY names (numbers in `tgsi-reference.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PropertyName {
    GsInputPrimitive = 0,
    GsOutputPrimitive = 1,
    GsMaxOutputVertices = 2,
    FsCoordOrigin = 3,
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
    pub name: PropertyName,
    pub values: Vec<u32>,
    pub loc: Loc,
}

/// A swizzle selector: X, Y, Z, W.
pub type Swz = u8;

/// The address register component of an indirect operand: `FILE[ADDR[0].x+3]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Indirect {
    pub file: File,
    pub index: i32,
    /// Which component of the address register (0-3).
    pub component: Swz,
}

/// The second bracket of a 2-D operand (`CONST[1][3]`: `index = 1`, dimension index 3), which the
/// token format holds in a DIMENSION token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dimension {
    pub index: i32,
    pub indirect: Option<Indirect>,
}

/// A register reference, as in an operand: file, first bracket (with optional indirection) and optional
/// second bracket.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Register {
    pub file: File,
    pub index: i32,
    pub indirect: Option<Indirect>,
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
    X = 0,
    Y = 1,
    Z = 2,
    W = 3,
    Zero = 4,
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
    pub reg: Register,
    /// Simple swizzle, one selector (0-3) per component.
    pub swizzle: [Swz; 4],
    /// The SRC_REGISTER Negate bit (`-x`).
    pub negate: bool,
    pub ext_swizzle: Option<ExtSwizzle>,
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
    Gt = 0,
    Eq = 1,
    Lt = 2,
    Ge = 3,
    Le = 4,
    Ne = 5,
    Tr = 6,
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
    pub mask: CondMask,
    /// CC register 0 or 1.
    pub index: u8,
    pub swizzle: [Swz; 4],
}

/// MODULATE destination extension (a power-of-two scale applied before saturate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Modulate {
    #[default]
    X1 = 0,
    X2 = 1,
    X4 = 2,
    X8 = 3,
    Half = 4,
    Quarter = 5,
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
    pub reg: Register,
    /// Bit 0 = x ... bit 3 = w.
    pub write_mask: u8,
    /// CONDCODE extension: a component is written only where the test passes.
    pub cond: Option<CondTest>,
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
    #[default]
    Default = 0,
    Float32 = 1,
    Float16 = 2,
    Fixed12 = 3,
}

/// Texture targets (TEXTURE token values). 0-8 are Mesa 7.9's; 9-17 are the later targets with
/// later Mesa's numbers (array layers, depth comparison on arrays and cube maps, multisampled
/// targets and cube-map arrays), documented with format 1.2 (`docs/text-syntax.md`). The array
/// layer is the coordinate after the target's own (1D_ARRAY y, 2D_ARRAY z, CUBE_ARRAY w), the
/// depth reference z (SHADOW1D, SHADOW2D, SHADOW1D_ARRAY) or w (SHADOW2D_ARRAY, SHADOWCUBE).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextureTarget {
    Unknown = 0,
    T1D = 1,
    T2D = 2,
    T3D = 3,
    Cube = 4,
    Rect = 5,
    Shadow1D = 6,
    Shadow2D = 7,
    ShadowRect = 8,
    T1DArray = 9,
    T2DArray = 10,
    Shadow1DArray = 11,
    Shadow2DArray = 12,
    ShadowCube = 13,
    /// A multisampled 2-D texture (one sample per texel here: as 2D).
    T2DMsaa = 14,
    /// A multisampled 2-D array (as 2D_ARRAY).
    T2DArrayMsaa = 15,
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
    pub opcode: Opcode,
    pub saturate: Saturate,
    pub precision: Precision,
    /// CondDstUpdate: the CC register (0 or 1) updated from the written values.
    pub cond_update: Option<u8>,
    /// CondFlowEnable: the instruction happens only where this test passes.
    pub cond_flow: Option<CondTest>,
    pub dst: Vec<DstOperand>,
    pub src: Vec<SrcOperand>,
    /// Target instruction index (`:N`).
    pub label: Option<u32>,
    pub texture: Option<TextureTarget>,
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
    pub processor: Processor,
    pub properties: Vec<Property>,
    pub declarations: Vec<Declaration>,
    pub immediates: Vec<Immediate>,
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

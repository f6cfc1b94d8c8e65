//! What every engine takes in and gives back for one run (`decisions.md` section 7).
//!
//! A run is one quad of four fragments (lane 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right)
//! or four vertices / geometry invocations. [`RunInputs`] holds the inputs, constants, face, textures
//! and instruction budget; [`RunOutput`] holds per-lane results and prints itself as the JSON of
//! section 7 ([`RunOutput::to_json`]) or as a readable table ([`RunOutput::to_table`]). The argument
//! parsers shared by every engine's command line live in [`args`].

pub mod args;
pub mod batch;
mod json;
mod table;

pub use args::{parse_value, ArgError, ValueError};

use microcode::tgsi::{Program, SemanticName, TextureTarget};
use std::collections::BTreeMap;
use std::fmt;

/// Number of lanes in a run (a 2x2 quad or four vertices).
pub const LANES: usize = 4;

/// The per-lane inputs of one quad of a batch (`Prepared::run_batch` of either model): `IN[N]`
/// per lane, as `RunInputs::inputs`.
pub type QuadInputs = BTreeMap<u32, [[u32; 4]; LANES]>;

/// Default instruction budget when the caller does not give one.
pub const DEFAULT_BUDGET: u64 = 1_000_000;

/// A texture bound to a sampler unit (shared between the threads of a batch, hence `Send + Sync`). Coordinates and results are binary32 bit patterns or floats;
/// the texture module (`decisions.md` section 6) implements it.
pub trait Sampler: Send + Sync {
    /// Filtered sample at `coord` (already divided by w for TXP; subnormals already flushed). The
    /// target says how many coordinates count and whether a shadow comparison with `coord[2]`
    /// happens. Returns four binary32 bit patterns.
    fn sample(&self, target: TextureTarget, coord: [f32; 4]) -> [u32; 4];
    /// Unfiltered texel at integer coordinates (TXF) of the instruction's `target`, which says
    /// which coordinates count and are range-checked; `texel[3]` is the level and is ignored by
    /// single-level textures. Returns four binary32 bit patterns.
    fn fetch(&self, target: TextureTarget, texel: [i32; 4]) -> [u32; 4];
    /// (width, height, depth, levels) as integers (TXQ).
    fn size(&self) -> [u32; 4];
    /// How the core's texture sequence addresses this texture (`microcode::arith::texel`): its
    /// width and height, wrap modes and filter; texel `(x, y)` is then `fetch(T2D, [x, y, 0, 0])`.
    /// `None` (the default) for samplers that are not textures: the core model's texel fetches
    /// read zero from them.
    fn layout(&self) -> Option<microcode::arith::texel::SamplerLayout> {
        None
    }
}

/// Which way the primitive faces (`--face`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Face {
    /// A front-facing primitive: FACE reads (1, 0, 0, 1).
    Front,
    /// A back-facing primitive: FACE reads (-1, 0, 0, 1).
    Back,
}

impl Face {
    /// The FACE input value: (1,0,0,1) or (-1,0,0,1) as binary32 bits.
    pub fn value(self) -> [u32; 4] {
        let x = match self {
            Face::Front => 1.0f32,
            Face::Back => -1.0f32,
        };
        [x.to_bits(), 0, 0, 1.0f32.to_bits()]
    }
}

/// Everything a run reads besides the program.
pub struct RunInputs {
    /// `IN[N]` per lane: `inputs[&N][lane]`. Registers not present read zero.
    pub inputs: BTreeMap<u32, [[u32; 4]; LANES]>,
    /// Geometry inputs `IN[V][N]`, keyed by (vertex V, register N); the same for all four lanes.
    pub geometry_inputs: BTreeMap<(u32, u32), [u32; 4]>,
    /// `CONST[B][N]`, keyed by (buffer B, register N); `CONST[N]` is buffer 0.
    pub constants: BTreeMap<(u32, u32), [u32; 4]>,
    /// Sets the input declared with the FACE semantic, unless `inputs` already holds that register.
    pub face: Option<Face>,
    /// Textures by sampler unit (`SAMP[n]` reads `textures[n]`).
    pub textures: Vec<Option<Box<dyn Sampler>>>,
    /// Maximum number of instructions to execute, in the engine's own unit.
    pub budget: u64,
}

impl Default for RunInputs {
    fn default() -> Self {
        RunInputs {
            inputs: BTreeMap::new(),
            geometry_inputs: BTreeMap::new(),
            constants: BTreeMap::new(),
            face: None,
            textures: Vec::new(),
            budget: DEFAULT_BUDGET,
        }
    }
}

impl fmt::Debug for RunInputs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunInputs")
            .field("inputs", &self.inputs)
            .field("geometry_inputs", &self.geometry_inputs)
            .field("constants", &self.constants)
            .field("face", &self.face)
            .field(
                "textures",
                &self
                    .textures
                    .iter()
                    .map(|t| t.is_some())
                    .collect::<Vec<_>>(),
            )
            .field("budget", &self.budget)
            .finish()
    }
}

impl RunInputs {
    /// `CONST[buffer][index]`: zero when not given, as on every engine.
    pub fn constant(&self, buffer: u16, index: u16) -> [u32; 4] {
        self.constants
            .get(&(u32::from(buffer), u32::from(index)))
            .copied()
            .unwrap_or([0; 4])
    }

    /// Sets `IN[index]` in every lane.
    pub fn set_input(&mut self, index: u32, value: [u32; 4]) {
        self.inputs.insert(index, [value; LANES]);
    }

    /// Sets `IN[index]` in one lane (other lanes keep their value, zero if never set).
    pub fn set_input_lane(&mut self, index: u32, lane: usize, value: [u32; 4]) {
        let entry = self.inputs.entry(index).or_insert([[0; 4]; LANES]);
        if let Some(slot) = entry.get_mut(lane) {
            *slot = value;
        }
    }

    /// Sets `CONST[buffer][index]`.
    pub fn set_const(&mut self, buffer: u32, index: u32, value: [u32; 4]) {
        self.constants.insert((buffer, index), value);
    }

    /// The per-lane inputs the program sees: `inputs` plus the FACE value on the register the
    /// program declares with the FACE semantic (when `face` is set and no input gives that
    /// register), plus each system value (`SV`) on the IN index the core loads it through
    /// (`microcode::tgsi::system`), with its default unless an input gives that index.
    pub fn effective_inputs(&self, program: &Program) -> BTreeMap<u32, [[u32; 4]; LANES]> {
        let mut out = self.inputs.clone();
        for d in &program.declarations {
            if d.file != microcode::tgsi::File::SystemValue {
                continue;
            }
            for i in d.first..=d.last {
                let at = microcode::tgsi::system::input_index(program, i);
                let semantic = d.semantic.map(|s| s.name);
                if let Ok(at) = u32::try_from(at) {
                    out.entry(at).or_insert(std::array::from_fn(|lane| {
                        microcode::tgsi::system::default_value(semantic, lane)
                    }));
                }
            }
        }
        if let Some(face) = self.face {
            let face_decl = program.declarations.iter().find(|d| {
                d.file == microcode::tgsi::File::Input
                    && d.semantic.map(|s| s.name) == Some(SemanticName::Face)
            });
            if let Some(d) = face_decl {
                if let Ok(index) = u32::try_from(d.first) {
                    out.entry(index).or_insert([face.value(); LANES]);
                }
            }
        }
        out
    }
}

/// One vertex emitted by a geometry program.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Vertex {
    /// `OUT[i]` at the time of EMIT.
    pub outputs: BTreeMap<u32, [u32; 4]>,
    /// True on the last vertex of a primitive (ENDPRIM, or the end of the program).
    pub primitive_end: bool,
}

/// The result of one lane.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct LaneOutput {
    /// The fragment was discarded (KIL, KILP).
    pub killed: bool,
    /// Every declared `OUT[i]` at the end of the run (zero when never written).
    pub outputs: BTreeMap<u32, [u32; 4]>,
    /// Geometry programs: the vertices emitted, in order.
    pub vertices: Vec<Vertex>,
}

/// The result of a run on any engine.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RunOutput {
    /// Engine name (`reference`, `core`, `rtl`, ...).
    pub engine: String,
    /// Per lane (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right, or four vertices):
    /// its outputs and whether it was killed.
    pub lanes: [LaneOutput; LANES],
    /// Executed instructions in the engine's own unit (models only).
    pub instructions: Option<u64>,
    /// Clock cycles (clocked engines only).
    pub cycles: Option<u64>,
    /// A fault the engine reported instead of finishing (hardware engines).
    pub fault: Option<String>,
    /// Geometry program: print per-lane vertex lists.
    pub geometry: bool,
    /// Non-fatal events (indirect indices out of the declared range); not part of the JSON.
    pub warnings: Vec<String>,
}

impl RunOutput {
    /// The JSON of `decisions.md` section 7 (one line).
    pub fn to_json(&self) -> String {
        json::to_json(self)
    }

    /// A readable table: one row per output register, one column per lane.
    pub fn to_table(&self) -> String {
        table::to_table(self)
    }
}

/// Shortest decimal text that reads back to the same binary32 (the text front end's
/// `format_f32`), except that NaNs print as "nan" and infinities as "inf" / "-inf", as the JSON of
/// `decisions.md` section 7 requires.
pub(crate) fn format_f32(bits: u32) -> String {
    let v = f32::from_bits(bits);
    if v.is_nan() {
        "nan".to_string()
    } else {
        microcode::tgsi::text::number::format_f32(bits)
    }
}

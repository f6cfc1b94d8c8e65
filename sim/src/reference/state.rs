//! Register storage, declared ranges and condition codes of one run.
//!
//! Every register holds 32 bits per component per lane and starts as zero. Accesses are checked
//! against the program's declarations: an index outside every declared range reads zero, drops
//! writes and leaves a warning (`decisions.md` section 2).

use crate::run_io::{RunInputs, LANES};
use microcode::tgsi::{CondMask, CondTest, DeclDimension, File, Processor, Program, SemanticName};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Four 32-bit components.
pub type Vec4 = [u32; 4];
/// A computed result: `None` leaves that destination component untouched.
pub type Written = [Option<u32>; 4];
/// Lanes selected by a mask.
pub type Mask = [bool; LANES];

/// No lane.
pub const NONE: Mask = [false; LANES];
/// Every lane.
pub const ALL: Mask = [true; LANES];

/// Removes `lanes` from `mask`.
pub fn clear(mask: &mut Mask, lanes: &Mask) {
    for (m, l) in mask.iter_mut().zip(lanes) {
        *m &= !l;
    }
}

/// One condition-code component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cc {
    Gt,
    Eq,
    Lt,
    Un,
}

impl Cc {
    /// Whether a test passes on this value (UN passes only NE and TR).
    pub fn passes(self, mask: CondMask) -> bool {
        match mask {
            CondMask::Gt => self == Cc::Gt,
            CondMask::Eq => self == Cc::Eq,
            CondMask::Lt => self == Cc::Lt,
            CondMask::Ge => matches!(self, Cc::Gt | Cc::Eq),
            CondMask::Le => matches!(self, Cc::Lt | Cc::Eq),
            CondMask::Ne => self != Cc::Eq,
            CondMask::Tr => true,
            CondMask::Fl => false,
        }
    }
}

/// A register address after indirection: file, first-bracket index (buffer or vertex for 2-D
/// operands, 0 otherwise) and element index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slot {
    pub file: File,
    pub dim: i64,
    pub index: i64,
}

/// A file and its first-bracket index (`None`: any, as in `DCL IN[][0]`).
type RangeKey = (File, Option<i64>);

/// Which (file, dimension) pairs cover which indices.
#[derive(Debug, Default)]
struct Ranges {
    /// Inclusive index ranges per key.
    map: HashMap<RangeKey, Vec<(i64, i64)>>,
}

impl Ranges {
    fn add(&mut self, file: File, dim: Option<i64>, first: i64, last: i64) {
        self.map.entry((file, dim)).or_default().push((first, last));
    }

    fn contains(&self, slot: Slot) -> bool {
        let hit = |key| {
            self.map.get(&key).is_some_and(|rs: &Vec<(i64, i64)>| {
                rs.iter().any(|&(a, b)| (a..=b).contains(&slot.index))
            })
        };
        hit((slot.file, Some(slot.dim))) || hit((slot.file, None))
    }
}

/// Widest span of a file's dimension-0 declarations that gets a flat table; wider (absurd)
/// declarations fall back to the range list and a map.
const FLAT_SPAN_LIMIT: i64 = 1 << 16;
/// Input registers and buffer-0 constants below this index are stored flat per batch.
const FLAT_INPUTS: usize = 1024;

/// The dimension-0 declarations of one file as a flat table: the hot path of every access.
#[derive(Debug)]
struct FlatFile {
    /// Lowest declared index.
    lo: i64,
    /// Whether `lo + i` is declared, for every index of the span.
    covered: Vec<bool>,
    /// Whether the file also has declarations of any dimension (`DCL IN[][0]`), which the flat
    /// table does not hold.
    any_dim: bool,
    /// Writable files: the first entry of the span in `State::regs`.
    base: usize,
}

impl FlatFile {
    /// Position of `index` in the span.
    fn offset(&self, index: i64) -> Option<usize> {
        let i = index.checked_sub(self.lo)?;
        usize::try_from(i).ok().filter(|&i| i < self.covered.len())
    }
}

/// Everything about a program's registers that does not depend on the inputs, computed once per
/// program ([`super::Prepared`]) so that a run neither hashes nor allocates to reach a register.
#[derive(Debug)]
pub struct Layout {
    ranges: Ranges,
    /// Flat tables by file number.
    flat: [Option<FlatFile>; 13],
    /// Entries of `State::regs`.
    flat_regs: usize,
    /// IMMX data by element index.
    immx: HashMap<i64, [u32; 4]>,
    /// Immediates, missing components zero.
    immediates: Vec<[u32; 4]>,
    /// The register the program declares with the FACE semantic.
    face_index: Option<u32>,
    /// Declared output registers in index order.
    outputs: Vec<u32>,
    /// The rows of `State::file` beyond the writable registers (see [`Rows`]).
    rows: Rows,
}

/// Where the registers every lane reads through a plain (direct, one-dimensional) operand live in
/// `State::file`, one row of four components per register: the writable registers' flat tables
/// first (`0..flat_regs`), then the declared inputs, the declared buffer-0 constants, the
/// immediates and two rows of 0.0 and 1.0 for EXT_SWZ selectors. The fast path
/// ([`super::kernels`]) reads every such operand from here with one index per component.
#[derive(Debug, Clone, Copy, Default)]
pub struct Rows {
    /// Inputs: (lowest declared index, first row, rows); none for geometry programs (their
    /// inputs are per vertex) or spans outside `0..FLAT_INPUTS`.
    pub inputs: Option<(i64, usize, usize)>,
    /// Buffer-0 constants: (lowest declared index, first row, rows), as for inputs.
    pub constants: Option<(i64, usize, usize)>,
    /// First row of the immediates.
    pub immediates: usize,
    /// The row of four 0.0 and the row of four 1.0.
    pub zero: usize,
    pub one: usize,
    /// Rows in all.
    pub total: usize,
}

fn writable(file: File) -> bool {
    matches!(
        file,
        File::Output | File::Temporary | File::Address | File::Loop | File::TemporaryArray
    )
}

impl Layout {
    /// Computes the layout of `program`'s declarations.
    pub fn new(program: &Program) -> Layout {
        let mut ranges = Ranges::default();
        let mut immx = HashMap::new();
        for d in &program.declarations {
            let dim = match d.dimension {
                Some(DeclDimension::Index(i)) => Some(i64::from(i)),
                // A geometry program's `IN[][i]`: the vertices of its input primitive.
                Some(DeclDimension::Empty)
                    if d.file == File::Input && program.processor == Processor::Geometry =>
                {
                    for v in 0..program.input_vertices() {
                        ranges.add(
                            d.file,
                            Some(i64::from(v)),
                            i64::from(d.first),
                            i64::from(d.last),
                        );
                    }
                    continue;
                }
                Some(DeclDimension::Empty) => None,
                // A 1-D constant declaration is buffer 0; other 1-D files have dimension 0.
                None => Some(0),
            };
            ranges.add(d.file, dim, i64::from(d.first), i64::from(d.last));
            if d.file == File::ImmediateArray {
                for (k, v) in d.array_data.iter().enumerate() {
                    immx.insert(i64::from(d.first) + k as i64, *v);
                }
            }
        }
        let mut flat: [Option<FlatFile>; 13] = Default::default();
        let mut flat_regs = 0usize;
        for file in File::ALL {
            let Some(rs) = ranges.map.get(&(file, Some(0))) else {
                continue;
            };
            let lo = rs.iter().map(|r| r.0).min().unwrap_or(0);
            let hi = rs.iter().map(|r| r.1).max().unwrap_or(-1);
            if hi < lo || hi - lo >= FLAT_SPAN_LIMIT {
                continue;
            }
            let mut covered = vec![false; (hi - lo + 1) as usize];
            for &(a, b) in rs {
                for i in a..=b {
                    covered[(i - lo) as usize] = true;
                }
            }
            let base = flat_regs;
            if writable(file) {
                flat_regs += covered.len();
            }
            flat[file as usize] = Some(FlatFile {
                lo,
                covered,
                any_dim: ranges.map.contains_key(&(file, None)),
                base,
            });
        }
        let immediates: Vec<[u32; 4]> = program
            .immediates
            .iter()
            .map(|imm| {
                let mut v = [0u32; 4];
                for (c, bits) in imm.values.iter().take(4).enumerate() {
                    v[c] = *bits;
                }
                v
            })
            .collect();
        let face_index = program
            .declarations
            .iter()
            .find(|d| {
                d.file == File::Input && d.semantic.map(|s| s.name) == Some(SemanticName::Face)
            })
            .and_then(|d| u32::try_from(d.first).ok());
        let mut outputs: Vec<u32> = program
            .declarations
            .iter()
            .filter(|d| d.file == File::Output)
            .flat_map(|d| d.first..=d.last)
            .filter_map(|i| u32::try_from(i).ok())
            .collect();
        outputs.sort_unstable();
        outputs.dedup();
        let mut next = flat_regs;
        let mut span = |file: File| {
            let f = flat[file as usize].as_ref()?;
            let len = f.covered.len();
            (f.lo >= 0 && f.lo + len as i64 <= FLAT_INPUTS as i64).then(|| {
                next += len;
                (f.lo, next - len, len)
            })
        };
        let inputs = if program.processor == Processor::Geometry {
            None
        } else {
            span(File::Input)
        };
        let constants = span(File::Constant);
        let imm = next;
        let zero = imm + immediates.len();
        let rows = Rows {
            inputs,
            constants,
            immediates: imm,
            zero,
            one: zero + 1,
            total: zero + 2,
        };
        Layout {
            ranges,
            flat,
            flat_regs,
            immx,
            immediates,
            face_index,
            outputs,
            rows,
        }
    }

    /// The rows of `State::file`.
    pub fn rows(&self) -> &Rows {
        &self.rows
    }

    /// Whether the slot lies in a declared range (immediates: in the immediate list).
    pub fn in_range(&self, slot: Slot) -> bool {
        match slot.file {
            File::Immediate => {
                slot.dim == 0 && slot.index >= 0 && (slot.index as usize) < self.immediates.len()
            }
            File::Null => true,
            _ => {
                if let Some((f, i)) = self.flat_of(slot) {
                    if f.covered[i] {
                        return true;
                    }
                    if !f.any_dim {
                        return false;
                    }
                }
                self.ranges.contains(slot)
            }
        }
    }

    /// The first row in `State::file` of an in-range slot that every lane reads alike from
    /// there: a writable register with a flat table entry, a flat input or buffer-0 constant, or
    /// an immediate. `None` for every other slot (the general path reads those).
    pub fn row_of(&self, slot: Slot) -> Option<usize> {
        if !self.in_range(slot) || slot.dim != 0 {
            return None;
        }

        match slot.file {
            File::Output | File::Temporary | File::Address | File::Loop | File::TemporaryArray => {
                let (f, i) = self.flat_of(slot)?;
                Some(f.base + i)
            }
            File::Input => input_row(self.rows.inputs, slot.index),
            File::Constant => input_row(self.rows.constants, slot.index),
            File::Immediate => Some(self.rows.immediates + slot.index as usize),
            _ => None,
        }
    }

    /// The flat table entry of a slot, when it has one.
    fn flat_of(&self, slot: Slot) -> Option<(&FlatFile, usize)> {
        if slot.dim != 0 {
            return None;
        }
        let f = self.flat[slot.file as usize].as_ref()?;
        Some((f, f.offset(slot.index)?))
    }
}

/// The row of `State::file` that holds `index` of an input or constant span ([`Rows`]), if any.
fn input_row(rows: Option<(i64, usize, usize)>, index: i64) -> Option<usize> {
    let (lo, base, len) = rows?;
    let k = usize::try_from(index.checked_sub(lo)?).ok()?;
    (k < len).then_some(base + k)
}

/// All mutable register state of a run plus the read-only data it was built from.
pub struct State<'a> {
    pub program: &'a Program,
    pub inputs: &'a RunInputs,
    layout: &'a Layout,
    /// Inputs of the current quad with the FACE value applied: registers below
    /// [`FLAT_INPUTS`] flat (zero when absent), the rest in the map.
    lane_inputs: Vec<[[u32; 4]; LANES]>,
    lane_inputs_high: BTreeMap<u32, [[u32; 4]; LANES]>,
    /// Buffer-0 constants below [`FLAT_INPUTS`] (zero when absent).
    constants: Vec<[u32; 4]>,
    /// Registers by row ([`Rows`]), each four components of four lanes: `file[row * 4 + c][lane]`.
    /// The writable registers' rows change during a run; the input rows per quad; the constant,
    /// immediate, zero and one rows are set once.
    pub file: Vec<[u32; LANES]>,
    /// Writable registers outside the flat tables (2-D or undeclared-dimension slots).
    other_regs: HashMap<Slot, [[u32; 4]; LANES]>,
    /// Two condition-code registers per lane.
    pub cc: [[[Cc; 4]; 2]; LANES],
    /// Out-of-range accesses, each reported once.
    pub warnings: BTreeSet<String>,
}

impl<'a> State<'a> {
    /// Prepares storage for `program` (laid out by `layout`) with the constants and textures of
    /// `inputs`; [`State::reset`] then loads each quad's inputs.
    pub fn new(program: &'a Program, layout: &'a Layout, inputs: &'a RunInputs) -> State<'a> {
        let mut constants = Vec::new();
        for (&(b, i), v) in inputs.constants.range((0, 0)..(0, FLAT_INPUTS as u32)) {
            debug_assert_eq!(b, 0);
            let i = i as usize;
            if constants.len() <= i {
                constants.resize(i + 1, [0; 4]);
            }
            constants[i] = *v;
        }
        let rows = layout.rows;
        let mut file = vec![[0u32; LANES]; rows.total * 4];
        let mut put_row = |row: usize, v: [u32; 4]| {
            for c in 0..4 {
                file[row * 4 + c] = [v[c]; LANES];
            }
        };
        if let Some((lo, base, len)) = rows.constants {
            for k in 0..len {
                let v = constants.get(lo as usize + k).copied().unwrap_or([0; 4]);
                put_row(base + k, v);
            }
        }
        for (k, v) in layout.immediates.iter().enumerate() {
            put_row(rows.immediates + k, *v);
        }
        put_row(rows.one, [super::float::ONE; 4]);
        State {
            program,
            inputs,
            layout,
            lane_inputs: Vec::new(),
            lane_inputs_high: BTreeMap::new(),
            constants,
            file,
            other_regs: HashMap::new(),
            cc: [[[Cc::Eq; 4]; 2]; LANES],
            warnings: BTreeSet::new(),
        }
    }

    /// Starts a new run on `quad` (the per-lane inputs; `RunInputs::face` applies as in
    /// [`RunInputs::effective_inputs`]): every register zero, condition codes EQ, no warnings.
    pub fn reset(&mut self, quad: &BTreeMap<u32, [[u32; 4]; LANES]>) {
        self.load(quad.iter().map(|(&i, v)| (i, *v)));
    }

    /// [`State::reset`] from a flat batch quad: `IN[registers[s]]` of lane `l` is
    /// `values[s * LANES + l]`.
    pub fn reset_flat(&mut self, registers: &[u32], values: &[[u32; 4]]) {
        self.load(
            registers
                .iter()
                .enumerate()
                .map(|(s, &i)| (i, std::array::from_fn(|l| values[s * LANES + l]))),
        );
    }

    /// Clears the run state and loads the per-lane inputs `quad` (registers distinct).
    fn load(&mut self, quad: impl Iterator<Item = (u32, [[u32; 4]; LANES])> + Clone) {
        self.file[..self.layout.flat_regs * 4].fill([0; LANES]);
        let input_rows = self.layout.rows.inputs;
        if let Some((_, base, len)) = input_rows {
            self.file[base * 4..(base + len) * 4].fill([0; LANES]);
        }
        self.other_regs.clear();
        self.cc = [[[Cc::Eq; 4]; 2]; LANES];
        self.warnings.clear();
        self.lane_inputs.clear();
        self.lane_inputs_high.clear();
        let file = &mut self.file;
        let mut put = |index: u32, v: [[u32; 4]; LANES]| {
            // Inputs in the rows of `file` live only there.
            if let Some(k) = input_row(input_rows, i64::from(index)) {
                for c in 0..4 {
                    file[k * 4 + c] = std::array::from_fn(|l| v[l][c]);
                }
                return;
            }
            let i = index as usize;
            if i < FLAT_INPUTS {
                if self.lane_inputs.len() <= i {
                    self.lane_inputs.resize(i + 1, [[0; 4]; LANES]);
                }
                self.lane_inputs[i] = v;
            } else {
                self.lane_inputs_high.insert(index, v);
            }
        };
        for (index, v) in quad.clone() {
            put(index, v);
        }
        if let (Some(face), Some(index)) = (self.inputs.face, self.layout.face_index) {
            if !quad.map(|(i, _)| i).any(|i| i == index) {
                put(index, [face.value(); LANES]);
            }
        }
    }

    /// Whether the slot lies in a declared range (immediates: in the immediate list).
    pub fn in_range(&self, slot: Slot) -> bool {
        self.layout.in_range(slot)
    }

    /// Reads a register of one lane; out-of-range slots read zero.
    pub fn read(&self, lane: usize, slot: Slot) -> [u32; 4] {
        if !self.in_range(slot) {
            return [0; 4];
        }
        self.read_in_range(lane, slot)
    }

    /// [`State::read`] of a slot already known to be in range.
    pub fn read_in_range(&self, lane: usize, slot: Slot) -> [u32; 4] {
        match slot.file {
            File::Constant => {
                if slot.dim == 0 && (0..FLAT_INPUTS as i64).contains(&slot.index) {
                    return self
                        .constants
                        .get(slot.index as usize)
                        .copied()
                        .unwrap_or([0; 4]);
                }
                u32::try_from(slot.dim)
                    .ok()
                    .zip(u32::try_from(slot.index).ok())
                    .and_then(|k| self.inputs.constants.get(&k).copied())
                    .unwrap_or([0; 4])
            }
            File::Input => {
                if self.program.processor == microcode::tgsi::Processor::Geometry {
                    u32::try_from(slot.dim)
                        .ok()
                        .zip(u32::try_from(slot.index).ok())
                        .and_then(|k| self.inputs.geometry_inputs.get(&k).copied())
                        .unwrap_or([0; 4])
                } else if let Some(k) = input_row(self.layout.rows.inputs, slot.index) {
                    self.row(k, lane)
                } else if (0..FLAT_INPUTS as i64).contains(&slot.index) {
                    self.lane_inputs
                        .get(slot.index as usize)
                        .map_or([0; 4], |v| v[lane])
                } else {
                    u32::try_from(slot.index)
                        .ok()
                        .and_then(|i| self.lane_inputs_high.get(&i))
                        .map_or([0; 4], |v| v[lane])
                }
            }
            File::Immediate => self.layout.immediates[slot.index as usize],
            File::ImmediateArray => self.layout.immx.get(&slot.index).copied().unwrap_or([0; 4]),
            File::Output | File::Temporary | File::Address | File::Loop | File::TemporaryArray => {
                match self.layout.flat_of(slot) {
                    Some((f, i)) => self.row(f.base + i, lane),
                    None => self.other_regs.get(&slot).map_or([0; 4], |v| v[lane]),
                }
            }
            File::SystemValue => {
                let index = i32::try_from(slot.index).unwrap_or(-1);
                let semantic = microcode::tgsi::system::semantic(self.program, index);
                let at = microcode::tgsi::system::input_index(self.program, index);
                // A value given for the IN index the core loads it through wins (`run_io`).
                u32::try_from(at)
                    .ok()
                    .and_then(|i| self.inputs.inputs.get(&i))
                    .map_or_else(
                        || microcode::tgsi::system::default_value(semantic, lane),
                        |v| v[lane],
                    )
            }
            File::Null | File::Sampler | File::Predicate => [0; 4],
        }
    }

    /// Writes the components `mask` selects of one lane; returns false when the slot is out of
    /// range (then nothing is written).
    pub fn write_masked(
        &mut self,
        lane: usize,
        slot: Slot,
        mask: [bool; 4],
        vals: [u32; 4],
    ) -> bool {
        if slot.file == File::Null {
            return true;
        }
        if !self.in_range(slot) || slot.file.is_read_only() {
            return false;
        }
        match self.layout.flat_of(slot) {
            Some((f, i)) if writable(slot.file) => {
                let row = (f.base + i) * 4;
                for c in 0..4 {
                    if mask[c] {
                        self.file[row + c][lane] = vals[c];
                    }
                }
            }
            _ => {
                let reg = self.other_regs.entry(slot).or_insert([[0; 4]; LANES]);
                for c in 0..4 {
                    if mask[c] {
                        reg[lane][c] = vals[c];
                    }
                }
            }
        }
        true
    }

    /// Whether a condition-code test passes for component `c` of a lane (through its swizzle).
    pub fn cc_passes(&self, lane: usize, test: &CondTest, c: usize) -> bool {
        let reg = usize::from(test.index.min(1));
        let sel = usize::from(test.swizzle[c] & 3);
        self.cc[lane][reg][sel].passes(test.mask)
    }

    /// Instruction-level test: passes when any of the four swizzled components passes.
    pub fn cc_any(&self, lane: usize, test: &CondTest) -> bool {
        (0..4).any(|c| self.cc_passes(lane, test, c))
    }

    /// Whether the program declares `OUT[index]`.
    pub fn declares_output(&self, index: u32) -> bool {
        self.layout.outputs.binary_search(&index).is_ok()
    }

    /// `OUT[index]` of every lane (zero when never written), one register lookup for all four.
    pub fn output_lanes(&self, index: u32) -> [[u32; 4]; LANES] {
        let slot = Slot {
            file: File::Output,
            dim: 0,
            index: i64::from(index),
        };
        match self.layout.flat_of(slot) {
            Some((f, i)) => {
                let row = &self.file[(f.base + i) * 4..(f.base + i + 1) * 4];
                std::array::from_fn(|l| [row[0][l], row[1][l], row[2][l], row[3][l]])
            }
            None => self
                .other_regs
                .get(&slot)
                .copied()
                .unwrap_or([[0; 4]; LANES]),
        }
    }

    /// The four components of one lane of a row of `file`.
    fn row(&self, row: usize, lane: usize) -> [u32; 4] {
        std::array::from_fn(|c| self.file[row * 4 + c][lane])
    }

    /// Every declared output register of one lane, in index order (zero when never written).
    pub fn outputs(&self, lane: usize) -> BTreeMap<u32, [u32; 4]> {
        self.layout
            .outputs
            .iter()
            .map(|&k| {
                let slot = Slot {
                    file: File::Output,
                    dim: 0,
                    index: i64::from(k),
                };
                let v = match self.layout.flat_of(slot) {
                    Some((f, i)) => self.row(f.base + i, lane),
                    None => self.other_regs.get(&slot).map_or([0; 4], |v| v[lane]),
                };
                (k, v)
            })
            .collect()
    }
}

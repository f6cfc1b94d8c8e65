//! Register storage, declared ranges and condition codes of one run.
//!
//! Every register holds 32 bits per component per lane and starts as zero. Accesses are checked
//! against the program's declarations: an index outside every declared range reads zero, drops
//! writes and leaves a warning (`decisions.md` section 2).

use crate::run_io::{RunInputs, LANES};
use microcode::tgsi::{CondMask, CondTest, DeclDimension, File, Processor, Program};
use std::collections::{BTreeMap, BTreeSet, HashMap};

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

/// All mutable register state of a run plus the read-only data it was built from.
pub struct State<'a> {
    pub program: &'a Program,
    pub inputs: &'a RunInputs,
    /// Inputs per register with the FACE value applied.
    lane_inputs: BTreeMap<u32, [[u32; 4]; LANES]>,
    ranges: Ranges,
    /// IMMX data by element index.
    immx: HashMap<i64, [u32; 4]>,
    /// Writable registers (OUT, TEMP, ADDR, LOOP, TEMPX) per lane.
    regs: HashMap<Slot, [[u32; 4]; LANES]>,
    /// Two condition-code registers per lane.
    pub cc: [[[Cc; 4]; 2]; LANES],
    /// Out-of-range accesses, each reported once.
    pub warnings: BTreeSet<String>,
}

impl<'a> State<'a> {
    /// Prepares storage for `program`.
    pub fn new(program: &'a Program, inputs: &'a RunInputs) -> State<'a> {
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
        State {
            program,
            inputs,
            lane_inputs: inputs.effective_inputs(program),
            ranges,
            immx,
            regs: HashMap::new(),
            cc: [[[Cc::Eq; 4]; 2]; LANES],
            warnings: BTreeSet::new(),
        }
    }

    /// Whether the slot lies in a declared range (immediates: in the immediate list).
    pub fn in_range(&self, slot: Slot) -> bool {
        match slot.file {
            File::Immediate => {
                slot.dim == 0
                    && slot.index >= 0
                    && (slot.index as usize) < self.program.immediates.len()
            }
            File::Null => true,
            _ => self.ranges.contains(slot),
        }
    }

    /// Reads a register of one lane; out-of-range slots read zero.
    pub fn read(&self, lane: usize, slot: Slot) -> [u32; 4] {
        if !self.in_range(slot) {
            return [0; 4];
        }
        match slot.file {
            File::Constant => u32::try_from(slot.dim)
                .ok()
                .zip(u32::try_from(slot.index).ok())
                .and_then(|k| self.inputs.constants.get(&k).copied())
                .unwrap_or([0; 4]),
            File::Input => {
                if self.program.processor == microcode::tgsi::Processor::Geometry {
                    u32::try_from(slot.dim)
                        .ok()
                        .zip(u32::try_from(slot.index).ok())
                        .and_then(|k| self.inputs.geometry_inputs.get(&k).copied())
                        .unwrap_or([0; 4])
                } else {
                    u32::try_from(slot.index)
                        .ok()
                        .and_then(|i| self.lane_inputs.get(&i))
                        .map_or([0; 4], |v| v[lane])
                }
            }
            File::Immediate => {
                let imm = &self.program.immediates[slot.index as usize];
                let mut v = [0u32; 4];
                for (c, bits) in imm.values.iter().take(4).enumerate() {
                    v[c] = *bits;
                }
                v
            }
            File::ImmediateArray => self.immx.get(&slot.index).copied().unwrap_or([0; 4]),
            File::Output | File::Temporary | File::Address | File::Loop | File::TemporaryArray => {
                self.regs.get(&slot).map_or([0; 4], |v| v[lane])
            }
            File::Null | File::Sampler | File::Predicate | File::SystemValue => [0; 4],
        }
    }

    /// Writes one component of one lane; returns false when the slot is out of range.
    pub fn write(&mut self, lane: usize, slot: Slot, comp: usize, bits: u32) -> bool {
        if slot.file == File::Null {
            return true;
        }
        if !self.in_range(slot) || slot.file.is_read_only() {
            return false;
        }
        self.regs.entry(slot).or_insert([[0; 4]; LANES])[lane][comp] = bits;
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

    /// Every declared output register of one lane, in index order (zero when never written).
    pub fn outputs(&self, lane: usize) -> BTreeMap<u32, [u32; 4]> {
        let mut out = BTreeMap::new();
        for d in &self.program.declarations {
            if d.file != File::Output {
                continue;
            }
            for i in d.first..=d.last {
                if let Ok(k) = u32::try_from(i) {
                    let slot = Slot {
                        file: File::Output,
                        dim: 0,
                        index: i64::from(i),
                    };
                    out.insert(k, self.regs.get(&slot).map_or([0; 4], |v| v[lane]));
                }
            }
        }
        out
    }
}

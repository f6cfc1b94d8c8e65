//! The flat batch interface both models implement (`Prepared::run_flat`): many quads per call,
//! inputs and outputs in flat buffers the caller owns and reuses from batch to batch, so that
//! the hot path neither hashes nor allocates per quad.
//!
//! A batch names its input registers once ([`BatchInputs::new`]); each quad then gives one
//! `[u32; 4]` per register and lane. The caller names the output registers it wants
//! ([`BatchOutputs::new`]); each quad gives back their values per lane, which lanes were killed,
//! its count (executed instructions for the reference model, clock cycles for the core model),
//! and warnings or an error only when there are any.

use super::{QuadInputs, LANES};

/// The per-lane inputs of a batch of quads: for quad `q`, register slot `s` and lane `l`, the
/// value is `quad(q)[s * LANES + l]`. Registers the batch does not name read as they would when
/// absent from `RunInputs::inputs` (zero, or the FACE value).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BatchInputs {
    registers: Vec<u32>,
    /// `quads` times the stride: a quad of a batch without registers still counts.
    values: Vec<[u32; 4]>,
    quads: usize,
}

impl BatchInputs {
    /// An empty batch whose quads give `IN[r]` for each `r` of `registers` (distinct).
    pub fn new(registers: Vec<u32>) -> BatchInputs {
        BatchInputs {
            registers,
            values: Vec::new(),
            quads: 0,
        }
    }

    /// The input registers, in slot order.
    pub fn registers(&self) -> &[u32] {
        &self.registers
    }

    /// Values per quad: one per register and lane.
    fn stride(&self) -> usize {
        self.registers.len() * LANES
    }

    /// Number of quads in the batch.
    pub fn quads(&self) -> usize {
        self.quads
    }

    /// Removes every quad (keeps the buffer for the next batch).
    pub fn clear(&mut self) {
        self.values.clear();
        self.quads = 0;
    }

    /// Appends a quad with every input zero and returns its values to fill
    /// (`[slot * LANES + lane]`).
    pub fn push_quad(&mut self) -> &mut [[u32; 4]] {
        let start = self.values.len();
        self.values.resize(start + self.stride(), [0; 4]);
        self.quads += 1;
        &mut self.values[start..]
    }

    /// Makes the batch `quads` quads and returns all their values to overwrite
    /// (`[quad * registers().len() * LANES + slot * LANES + lane]`). The values are what the
    /// buffer held before (zero only where it grows), not zeroed per batch as [`push_quad`]
    /// does: for a caller that writes every value anyway, batch after batch.
    ///
    /// [`push_quad`]: BatchInputs::push_quad
    pub fn refill(&mut self, quads: usize) -> &mut [[u32; 4]] {
        self.values.resize(quads * self.stride(), [0; 4]);
        self.quads = quads;
        &mut self.values
    }

    /// The values of quad `q` (`[slot * LANES + lane]`).
    pub fn quad(&self, q: usize) -> &[[u32; 4]] {
        let n = self.stride();
        &self.values[q * n..(q + 1) * n]
    }

    /// Quad `q` as the map `RunInputs::inputs` holds (for engines without a flat path).
    pub fn quad_inputs(&self, q: usize) -> QuadInputs {
        let values = self.quad(q);
        self.registers
            .iter()
            .enumerate()
            .map(|(s, &r)| (r, std::array::from_fn(|l| values[s * LANES + l])))
            .collect()
    }
}

/// The results of a batch, filled by a model's `run_flat` into buffers kept across batches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchOutputs<E> {
    registers: Vec<u32>,
    values: Vec<[u32; 4]>,
    killed: Vec<[bool; LANES]>,
    counts: Vec<u64>,
    warnings: Vec<(usize, Vec<String>)>,
    errors: Vec<(usize, E)>,
    unit: CountUnit,
}

/// What [`BatchOutputs::count`] counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountUnit {
    /// Executed instructions in the engine's own unit (the reference model: TGSI instructions).
    Instructions,
    /// Clock cycles (the core model).
    Cycles,
}

impl<E> BatchOutputs<E> {
    /// Empty outputs that will hold `OUT[r]` for each `r` of `registers`; a register the program
    /// does not declare reads zero.
    pub fn new(registers: Vec<u32>) -> BatchOutputs<E> {
        BatchOutputs {
            registers,
            values: Vec::new(),
            killed: Vec::new(),
            counts: Vec::new(),
            warnings: Vec::new(),
            errors: Vec::new(),
            unit: CountUnit::Instructions,
        }
    }

    /// The output registers, in slot order.
    pub fn registers(&self) -> &[u32] {
        &self.registers
    }

    /// Number of quads the last batch ran.
    pub fn quads(&self) -> usize {
        self.counts.len()
    }

    /// The output values of quad `q` (`[slot * LANES + lane]`; zero for a quad that failed).
    pub fn quad(&self, q: usize) -> &[[u32; 4]] {
        let n = self.registers.len() * LANES;
        &self.values[q * n..(q + 1) * n]
    }

    /// The lanes of quad `q` that were killed.
    pub fn killed(&self, q: usize) -> [bool; LANES] {
        self.killed[q]
    }

    /// Quad `q`'s count: executed instructions (reference model) or clock cycles (core model);
    /// zero for a quad that failed.
    pub fn count(&self, q: usize) -> u64 {
        self.counts[q]
    }

    /// What the counts of the last batch count.
    pub fn count_unit(&self) -> CountUnit {
        self.unit
    }

    /// Warnings by quad, only for quads that have any, in quad order.
    pub fn warnings(&self) -> &[(usize, Vec<String>)] {
        &self.warnings
    }

    /// Errors by quad, only for quads that failed, in quad order.
    pub fn errors(&self) -> &[(usize, E)] {
        &self.errors
    }

    /// Makes room for `quads` results: every value zero, no lane killed, counts zero, no warning
    /// and no error; counts in `unit`. Reuses the buffers.
    pub(crate) fn begin(&mut self, quads: usize, unit: CountUnit) {
        self.unit = unit;
        self.values.clear();
        self.values
            .resize(quads * self.registers.len() * LANES, [0; 4]);
        self.killed.clear();
        self.killed.resize(quads, [false; LANES]);
        self.counts.clear();
        self.counts.resize(quads, 0);
        self.warnings.clear();
        self.errors.clear();
    }

    /// Quad `q`'s output values to fill (`[slot * LANES + lane]`).
    pub(crate) fn quad_mut(&mut self, q: usize) -> &mut [[u32; 4]] {
        let n = self.registers.len() * LANES;
        &mut self.values[q * n..(q + 1) * n]
    }

    /// Records quad `q`'s killed lanes and count.
    pub(crate) fn set(&mut self, q: usize, killed: [bool; LANES], count: u64) {
        self.killed[q] = killed;
        self.counts[q] = count;
    }

    /// Records quad `q`'s warnings (call only when there are any, in quad order).
    pub(crate) fn warn(&mut self, q: usize, warnings: Vec<String>) {
        self.warnings.push((q, warnings));
    }

    /// Records quad `q`'s error (in quad order); its values stay zero.
    pub(crate) fn fail(&mut self, q: usize, error: E) {
        self.errors.push((q, error));
    }
}

//! The reference model: the golden TGSI interpreter every other engine is checked against.
//!
//! It executes a validated [`Program`] on one quad (four lanes) exactly as `decisions.md` defines:
//! binary32 with flushed subnormals and canonical NaNs, literal left-to-right evaluation, the
//! source-modifier and destination orders of sections 2 and 3, per-lane execution masks for
//! structured control flow, two condition-code registers per lane, and an instruction budget
//! counted in executed TGSI instructions.
//!
//! Files: [`float`] (binary32 rules), `state` (registers and condition codes), `operand` (addressing
//! and source modifiers), `flow` (structure matching), `exec` (the main loop, masks and the
//! destination pipeline), `control` (control-flow instructions), `ops_*` and `pack` (opcode
//! kernels), `texture` (sampler opcodes).
//!
//! # Definitions where `decisions.md` is silent
//! (The opcode table's `semantics` strings say the same per opcode.)
//! - Execution masks: a lane runs an instruction when it is alive, in the taken IF branches, still in
//!   the current loop, not continued, not returned, and passes the CondFlow test. A block no lane
//!   enters is skipped to its ELSE / ENDIF / loop end, which still executes and counts. CAL with no
//!   active lane is skipped. RET in the main program stops those lanes; END stops the run; a run also
//!   stops when every lane is killed. BRA leaves the blocks its target is not in (restoring their
//!   saved masks) and enters the blocks it jumps into as if every active lane had passed their
//!   opening instruction (IF taken, loop entered, REP with one iteration left); jumping into or out
//!   of a subroutine body is [`RunErrorKind::Unsupported`].
//! - REP counts floor(src.x) per lane; BGNFOR converts start, count and step like ARL. CONT in a
//!   counted loop still steps its counters at the loop end.
//! - Condition codes from integer results compare as int32 (uint32 results: zero EQ, else GT); from
//!   double results, each pair as binary64; float results written to ADDRESS update from the int32.
//! - Float results written to ADDRESS (other than ARL/ARR, which convert themselves) are floored;
//!   MOV/SWZ into ADDRESS keep bits.
//! - EXT_SWZ ONE is 1.0 on float and double operands and 1 on integer operands. On integer
//!   operands only Negate and Absolute are int32 operations; Complement, Bias, Scale2X and ExtDivide
//!   keep their binary32 definitions on the bits. On doubles every modifier acts on the binary64
//!   value of each pair, the per-component negate of the pair's high component (y or w) negates the
//!   pair, and ExtDivide divides the xy pair by the zw pair.
//! - Immediates with fewer than four values read 0 in the missing components.
//! - Geometry: the four lanes run the same inputs `IN[V][N]`; EMIT appends the declared outputs
//!   (outputs keep their values), ENDPRIM marks the lane's last vertex, and the program end marks it
//!   too. Out-of-range accesses: see `RunOutput::warnings`.
//! - Limits: [`CALL_STACK_LIMIT`] calls, [`ADDRESS_STACK_LIMIT`] vectors per lane on the PUSHA stack.

mod control;
mod exec;
pub mod float;
mod flow;
mod kernels;
mod operand;
pub(crate) mod ops_double;
mod ops_float;
mod ops_int;
mod pack;
mod state;
mod texture;

use crate::run_io::batch::{BatchInputs, BatchOutputs, CountUnit};
use crate::run_io::{QuadInputs, RunInputs, RunOutput};
use microcode::tgsi::{Opcode, Program};
use thiserror::Error;

/// Engine name printed in outputs.
pub const ENGINE: &str = "reference";

/// Maximum depth of the subroutine call stack; deeper calls are an error.
pub const CALL_STACK_LIMIT: usize = 32;

/// Maximum number of vectors on each lane's PUSHA/POPA address stack: the board core's depth,
/// so that every engine faults at the same push.
pub const ADDRESS_STACK_LIMIT: usize = microcode::core::config::ADDRESS_STACK_ENTRIES as usize;

/// A run that could not finish, with the instruction where it stopped.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("instruction {index} ({opcode}): {kind}")]
pub struct RunError {
    /// Index of the instruction in `Program::instructions`.
    pub index: usize,
    pub opcode: Opcode,
    pub kind: RunErrorKind,
}

/// What went wrong in a run.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum RunErrorKind {
    #[error("instruction budget of {budget} exhausted")]
    BudgetExhausted { budget: u64 },
    #[error("call stack overflow (limit {limit})")]
    CallStackOverflow { limit: usize },
    #[error("address stack overflow in lane {lane} (limit {limit})")]
    AddressStackOverflow { lane: usize, limit: usize },
    #[error("address stack underflow in lane {lane} (POPA on an empty stack)")]
    AddressStackUnderflow { lane: usize },
    #[error("BRA condition differs between active lanes (taken per lane: {taken:?})")]
    DivergentBranch { taken: [bool; 4] },
    #[error("label {target} is not an instruction index")]
    BadLabel { target: u32 },
    #[error("no texture bound to sampler unit {unit}")]
    MissingTexture { unit: i64 },
    #[error("control flow structure: {0}")]
    Structure(String),
    #[error("not executable: {0}")]
    Unsupported(String),
}

/// Runs `program` (assumed validated) on `inputs` and returns every lane's outputs.
pub fn run(program: &Program, inputs: &RunInputs) -> Result<RunOutput, RunError> {
    Prepared::new(program)?.run(inputs)
}

/// The fast-path decoding of every instruction of `program`.
fn insts_decoded(layout: &state::Layout, program: &Program) -> Vec<kernels::Decoded> {
    program
        .instructions
        .iter()
        .map(|i| kernels::Decoded::new(layout, i))
        .collect()
}

/// A program made ready to run many quads: its block structure matched, its registers laid out
/// in flat tables and its opcode rows looked up, once. Runs on it neither hash nor allocate to
/// reach a register, and a batch reuses one machine for all its quads.
pub struct Prepared<'p> {
    program: &'p Program,
    structure: flow::Structure,
    layout: state::Layout,
    infos: Vec<&'static microcode::tgsi::opcode::OpcodeInfo>,
    /// How each instruction runs: most float instructions through `kernels`, the rest through
    /// the general interpreter.
    decoded: Vec<kernels::Decoded>,
}

impl<'p> Prepared<'p> {
    /// Prepares `program` (assumed validated); fails when its block structure does not match.
    pub fn new(program: &'p Program) -> Result<Prepared<'p>, RunError> {
        let mut p = Prepared::general(program)?;
        p.decoded = insts_decoded(&p.layout, program);
        Ok(p)
    }

    /// [`Prepared::new`] with every instruction on the general interpreter path, none on the
    /// fast kernels: the same results, slower. For tests that compare the two paths.
    pub fn general(program: &'p Program) -> Result<Prepared<'p>, RunError> {
        let insts = program.instructions.as_slice();
        let structure = flow::Structure::build(insts).map_err(|(index, what)| RunError {
            index,
            opcode: insts.get(index).map_or(Opcode::End, |i| i.opcode),
            kind: RunErrorKind::Structure(what),
        })?;
        Ok(Prepared {
            program,
            structure,
            layout: state::Layout::new(program),
            infos: insts.iter().map(|i| i.opcode.info()).collect(),
            decoded: vec![kernels::Decoded::General; insts.len()],
        })
    }

    /// How many instructions run on the fast kernels (the rest run on the general interpreter);
    /// tests check that the fast path is taken.
    pub fn fast_instructions(&self) -> usize {
        self.decoded
            .iter()
            .filter(|d| !matches!(d, kernels::Decoded::General))
            .count()
    }

    /// Runs one quad: the same result as [`run`].
    pub fn run(&self, inputs: &RunInputs) -> Result<RunOutput, RunError> {
        exec::Machine::new(self, inputs).run(&inputs.inputs)
    }

    /// Runs every quad of `quads`, each with its own per-lane inputs (in place of
    /// `base.inputs`) and the constants, face, textures and budget of `base`. Each result equals
    /// [`run`] on `base` with that quad's inputs.
    pub fn run_batch(
        &self,
        base: &RunInputs,
        quads: &[QuadInputs],
    ) -> Vec<Result<RunOutput, RunError>> {
        let mut machine = exec::Machine::new(self, base);
        quads.iter().map(|q| machine.run(q)).collect()
    }

    /// Runs every quad of `inputs` with the constants, face, textures and budget of `base`
    /// (`base.inputs` is ignored) into `out`, whose buffers are reused: per quad the requested
    /// output registers per lane, the killed lanes and the executed instruction count, each
    /// equal to [`run`]'s; warnings and errors only for the quads that have them. Geometry
    /// programs' vertices are not part of the flat outputs (use [`Prepared::run_batch`]).
    pub fn run_flat(
        &self,
        base: &RunInputs,
        inputs: &BatchInputs,
        out: &mut BatchOutputs<RunError>,
    ) {
        let quads = inputs.quads();
        out.begin(quads, CountUnit::Instructions);
        let mut machine = exec::Machine::new(self, base);
        // Undeclared output registers read zero, as they are absent from `run`'s outputs.
        let outputs: Vec<Option<u32>> = out
            .registers()
            .iter()
            .map(|&r| machine.st.declares_output(r).then_some(r))
            .collect();
        for q in 0..quads {
            match machine.run_flat(
                inputs.registers(),
                inputs.quad(q),
                &outputs,
                out.quad_mut(q),
            ) {
                Ok((killed, count)) => out.set(q, killed, count),
                Err(e) => out.fail(q, e),
            }
            if !machine.st.warnings.is_empty() {
                out.warn(
                    q,
                    std::mem::take(&mut machine.st.warnings)
                        .into_iter()
                        .collect(),
                );
            }
        }
    }
}

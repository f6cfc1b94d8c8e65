//! The reference model: the golden TGSI interpreter every other engine is checked against.
//!
//! It executes a validated [`Program`] on one quad (four lanes) exactly as `decisions.md` defines:
//! binary32 with flushed subnormals and canonical NaNs, literal left-to-right evaluation, the
//! source-modifier and destination orders of sections 2 and 3, per-lane execution masks for
//! structured control flow, two condition-code registers per lane, and an instruction budget
//! counted in executed TGSI instructions.
//!
//! Files, each using only those before it: `defs` (limits and errors), [`float`] (binary32
//! rules), `flow` (structure matching), `state` (registers, lane masks and condition codes),
//! `ops_*` and `pack` (opcode kernels per lane), `operand` (addressing and source modifiers),
//! `texture` (sampler opcodes), `kernels` (the fast path: plain float instructions decoded once
//! and run on four lanes at a time), `control` (execution masks and block stacks), `exec` (the
//! main loop, control-flow instructions and the destination pipeline).
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
mod defs;
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
use microcode::tgsi::Program;

pub use defs::{RunError, RunErrorKind, ADDRESS_STACK_LIMIT, CALL_STACK_LIMIT, ENGINE};

/// Runs `program` (assumed validated) on `inputs` and returns every lane's outputs.
pub fn run(program: &Program, inputs: &RunInputs) -> Result<RunOutput, RunError> {
    Prepared::new(program)?.run(inputs)
}

/// A program made ready to run many quads: its block structure matched, its registers laid out
/// in flat tables, its opcode rows looked up and its plain float instructions decoded for the
/// fast kernels, once. Runs on it neither hash nor allocate to reach a register, and a batch
/// reuses one machine for all its quads.
pub struct Prepared<'p> {
    code: exec::Code<'p>,
}

impl<'p> Prepared<'p> {
    /// Prepares `program` (assumed validated); fails when its block structure does not match.
    pub fn new(program: &'p Program) -> Result<Prepared<'p>, RunError> {
        Ok(Prepared {
            code: exec::Code::new(program, true)?,
        })
    }

    /// [`Prepared::new`] with every instruction on the general interpreter path, none on the
    /// fast kernels: the same results, slower. For tests that compare the two paths.
    pub fn general(program: &'p Program) -> Result<Prepared<'p>, RunError> {
        Ok(Prepared {
            code: exec::Code::new(program, false)?,
        })
    }

    /// How many instructions run on the fast kernels (the rest run on the general interpreter);
    /// tests check that the fast path is taken.
    pub fn fast_instructions(&self) -> usize {
        self.code.fast_instructions()
    }

    /// Runs one quad: the same result as [`run`].
    pub fn run(&self, inputs: &RunInputs) -> Result<RunOutput, RunError> {
        exec::Machine::new(&self.code, inputs).run(&inputs.inputs)
    }

    /// Runs every quad of `quads`, each with its own per-lane inputs (in place of
    /// `base.inputs`) and the constants, face, textures and budget of `base`. Each result equals
    /// [`run`] on `base` with that quad's inputs.
    pub fn run_batch(
        &self,
        base: &RunInputs,
        quads: &[QuadInputs],
    ) -> Vec<Result<RunOutput, RunError>> {
        let mut machine = exec::Machine::new(&self.code, base);
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
        let mut machine = exec::Machine::new(&self.code, base);
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

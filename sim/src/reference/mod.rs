//! The reference model: the golden TGSI interpreter every other engine is checked against.
//!
//! It executes a validated [`Program`] on one quad (four lanes) exactly as `decisions.md` defines:
//! binary32 with flushed subnormals and canonical NaNs, literal left-to-right evaluation, the
//! source-modifier and destination orders of sections 2 and 3, per-lane execution masks for
//! structured control flow, two condition-code registers per lane, and an instruction budget
//! counted in executed TGSI instructions.
//!
//! Files: [`float`] (binary32 rules), `state` (registers and masks), `operand` (source modifiers and
//! the destination pipeline), `flow` (structure matching), `exec` (the main loop), `ops_*` and `pack`
//! (opcode kernels), `texture` (sampler opcodes).

mod exec;
pub mod float;
mod flow;
mod operand;
mod ops_double;
mod ops_float;
mod ops_int;
mod pack;
mod state;
mod texture;

use crate::run_io::{RunInputs, RunOutput};
use microcode::tgsi::{Opcode, Program};
use thiserror::Error;

/// Engine name printed in outputs.
pub const ENGINE: &str = "reference";

/// Maximum depth of the subroutine call stack; deeper calls are an error.
pub const CALL_STACK_LIMIT: usize = 32;

/// Maximum number of vectors on each lane's PUSHA/POPA address stack.
pub const ADDRESS_STACK_LIMIT: usize = 32;

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
    exec::Machine::new(program, inputs)?.run()
}

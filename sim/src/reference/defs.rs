//! What every part of the model shares: the engine name, the run-time limits and the run errors.

use microcode::tgsi::Opcode;
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

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
    /// The instruction's opcode, for the message.
    pub opcode: Opcode,
    /// What went wrong.
    pub kind: RunErrorKind,
}

/// What went wrong in a run.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum RunErrorKind {
    /// The run executed its budget of TGSI instructions without reaching END: an endless loop,
    /// or a budget too small for the program.
    #[error("instruction budget of {budget} exhausted")]
    BudgetExhausted {
        /// The budget, in TGSI instructions.
        budget: u64,
    },
    /// Calls nested deeper than [`CALL_STACK_LIMIT`] (unbounded recursion).
    #[error("call stack overflow (limit {limit})")]
    CallStackOverflow {
        /// The limit, [`CALL_STACK_LIMIT`].
        limit: usize,
    },
    /// PUSHA in a lane whose address stack already holds [`ADDRESS_STACK_LIMIT`] vectors.
    #[error("address stack overflow in lane {lane} (limit {limit})")]
    AddressStackOverflow {
        /// The lane (0-3).
        lane: usize,
        /// The limit, [`ADDRESS_STACK_LIMIT`].
        limit: usize,
    },
    /// POPA in a lane whose address stack is empty.
    #[error("address stack underflow in lane {lane} (POPA on an empty stack)")]
    AddressStackUnderflow {
        /// The lane (0-3).
        lane: usize,
    },
    /// A BRA with a condition whose lanes disagree: one program counter per quad cannot follow
    /// both ways (`decisions.md` section 4).
    #[error("BRA condition differs between active lanes (taken per lane: {taken:?})")]
    DivergentBranch {
        /// Whether each lane's test passed.
        taken: [bool; 4],
    },
    /// A jump or call to a label past the last instruction (an unvalidated program).
    #[error("label {target} is not an instruction index")]
    BadLabel {
        /// The label's instruction index.
        target: u32,
    },
    /// The program samples a unit the run gave no texture for.
    #[error("no texture bound to sampler unit {unit}")]
    MissingTexture {
        /// The sampler unit, as the operand computed it (indirect indices can be negative).
        unit: i64,
    },
    /// Unbalanced control flow met at run time (an ELSE without IF, ...): a program that was
    /// not validated.
    #[error("control flow structure: {0}")]
    Structure(String),
    /// An instruction the model cannot execute (an unsupported opcode, a missing operand): a
    /// program that was not validated.
    #[error("not executable: {0}")]
    Unsupported(String),
}

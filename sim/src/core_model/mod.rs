//! The core model: executes a core [`Image`] exactly as the hardware will.
//!
//! State per run (one quad): the per-lane register file R, the constant file K (image data and
//! the host's CONST values), the literal set of the image's config, per-lane per-component
//! predicate bits P, the execution mask E, the killed lanes, the mask stack (IF and loop frames,
//! depth `CoreConfig::mask_stack_depth`, overflow is a fault), the cycle counter (exact clocks of
//! the ISA table: `OpInfo::cycles`) and the budget in core instructions (exhausting it is a fault,
//! never a hang). Every arithmetic result comes from `microcode::arith`.
//!
//! Inputs are read from `RunInputs::inputs` through the image's input map; callers that want the
//! FACE input set from `RunInputs::face` pass `RunInputs::effective_inputs(program)` there.

mod exec;

use crate::run_io::{RunInputs, RunOutput};
use microcode::core::Image;
use thiserror::Error;

/// Engine name printed in outputs.
pub const ENGINE: &str = "core";

/// A run that stopped on a fault, with the core instruction address.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("core instruction {pc}: {kind}")]
pub struct CoreFault {
    pub pc: usize,
    pub kind: FaultKind,
}

/// Fault flags of the core.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum FaultKind {
    #[error("instruction budget of {budget} exhausted")]
    BudgetExhausted { budget: u64 },
    #[error("mask stack overflow (depth {depth})")]
    StackOverflow { depth: usize },
    #[error("mask stack underflow or mismatched frame at {op}")]
    StackMismatch { op: &'static str },
    #[error("operation {op} needs a unit this core build lacks")]
    MissingUnit { op: &'static str },
}

/// Runs the image on `inputs`.
pub fn run(image: &Image, inputs: &RunInputs) -> Result<RunOutput, CoreFault> {
    exec::Machine::new(image, inputs).run(None)
}

/// Runs the image and hands every executed instruction's trace line to `trace`.
pub fn run_traced(
    image: &Image,
    inputs: &RunInputs,
    trace: &mut dyn FnMut(&str),
) -> Result<RunOutput, CoreFault> {
    exec::Machine::new(image, inputs).run(Some(trace))
}

//! System values (`DCL SV[n], VERTEXID` / `INSTANCEID`): per-invocation values the program
//! reads but no input carries, later Mesa's, documented with format 1.2.
//!
//! - `VERTEXID` is the index of the vertex an invocation processes, an int32 in x (y, z, w are
//!   0). A run's four lanes are four vertices: by default vertices 0, 1, 2, 3.
//! - `INSTANCEID` is the index of the instance being drawn, an int32 in x: by default 0.
//!
//! The reference model reads them directly. On the core a system value is loaded like an input,
//! through the IN index [`input_index`] gives it (after every declared input), so the host loads
//! it with the inputs: `sim::run_io::RunInputs::effective_inputs` puts the value there.

use super::ir::{File, Program, SemanticName};

/// The default value of a system value of `semantic` in lane `lane` (bits per component).
pub fn default_value(semantic: Option<SemanticName>, lane: usize) -> [u32; 4] {
    match semantic {
        Some(SemanticName::VertexId) => [lane as u32, 0, 0, 0],
        _ => [0; 4],
    }
}

/// The semantic `SV[index]` is declared with.
pub fn semantic(program: &Program, index: i32) -> Option<SemanticName> {
    program
        .declarations
        .iter()
        .find(|d| d.file == File::SystemValue && (d.first..=d.last).contains(&index))
        .and_then(|d| d.semantic.map(|s| s.name))
}

/// The IN index through which the core loads `SV[index]`: one past the highest declared input,
/// plus the index.
pub fn input_index(program: &Program, index: i32) -> i32 {
    let after = program
        .declarations
        .iter()
        .filter(|d| d.file == File::Input)
        .map(|d| d.last + 1)
        .max()
        .unwrap_or(0);
    after + index
}

//! SPIR-V modules through naga's SPIR-V front end.

use super::bounds::MAX_SPIRV_MERGES;
use crate::error::{over_budget, Budget};
use crate::TranslateError;

/// Parses a SPIR-V module.
pub(crate) fn parse(bytes: &[u8], file: &str) -> Result<naga::Module, TranslateError> {
    if !bytes.len().is_multiple_of(4) {
        return Err(TranslateError::Bytes {
            file: file.to_string(),
            problem: format!(
                "{} bytes: a SPIR-V module is a whole number of 32-bit words",
                bytes.len()
            ),
        });
    }
    // Structured merges bound the nesting naga's recursive reader goes into.
    let merges = bytes
        .chunks_exact(4)
        .skip(5)
        .filter(|w| matches!(u16::from_le_bytes([w[0], w[1]]), 246 | 247))
        .count();
    if merges > MAX_SPIRV_MERGES {
        return Err(over_budget(
            Budget::SpirvMerges,
            format!("{merges} structured control-flow merges (at most {MAX_SPIRV_MERGES})"),
            naga::Span::default(),
        )
        .located_in(file, None));
    }
    naga::front::spv::parse_u8_slice(bytes, &naga::front::spv::Options::default()).map_err(|e| {
        TranslateError::Parse(format!("{file}: error: {}", super::diagnostic::chain(&e)))
    })
}

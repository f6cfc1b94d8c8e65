//! WGSL through naga's WGSL front end.

use super::diagnostic::render;
use crate::TranslateError;

/// Parses WGSL source `src`.
pub(crate) fn parse(src: &str, file: &str) -> Result<naga::Module, TranslateError> {
    naga::front::wgsl::parse_str(src).map_err(|e| {
        let location = e.location(src).map(|l| (l.line_number, l.line_position));
        TranslateError::Parse(render(
            file,
            location,
            e.message(),
            &e.emit_to_string_with_path(src, file),
        ))
    })
}

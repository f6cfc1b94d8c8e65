//! GLSL 4.50 (Vulkan flavour) through naga's GLSL front end, after a bounded run of its
//! preprocessor: a macro that expands beyond the budget is refused before naga expands it.

use super::diagnostic::render;
use crate::error::{over_budget, Budget};
use crate::{Stage, TranslateError};
use naga::ShaderStage;

/// Tokens the preprocessed source may have beyond one per source byte: room for any shader's
/// macros, far below what a doubling macro ("billion laughs") makes.
pub const MAX_EXTRA_TOKENS: usize = 1 << 20;

/// Parses GLSL source `src` as a shader of `stage`.
pub(crate) fn parse(src: &str, stage: Stage, file: &str) -> Result<naga::Module, TranslateError> {
    check_expansion(src, file)?;
    let st = match stage {
        Stage::Vertex => ShaderStage::Vertex,
        Stage::Fragment => ShaderStage::Fragment,
    };
    naga::front::glsl::Frontend::default()
        .parse(&naga::front::glsl::Options::from(st), src)
        .map_err(|mut e| {
            // The first error says what is wrong; the rest (a thousand redeclarations) would
            // each render the source line again.
            e.errors.truncate(1);
            let first = e.errors.first();
            let location = first
                .and_then(|x| x.location(src))
                .map(|l| (l.line_number, l.line_position));
            let message = first.map(|x| x.kind.to_string()).unwrap_or_default();
            TranslateError::Parse(render(
                file,
                location,
                &message,
                &e.emit_to_string_with_path(src, file),
            ))
        })
}

/// Runs the preprocessor (the same one naga runs) and counts its tokens up to the budget.
fn check_expansion(src: &str, file: &str) -> Result<(), TranslateError> {
    let budget = src.len() + MAX_EXTRA_TOKENS;
    let mut count = 0usize;
    for token in pp_rs::pp::Preprocessor::new(src) {
        // Errors are naga's to report, with its message.
        if token.is_err() {
            return Ok(());
        }
        count += 1;
        if count > budget {
            let at = token
                .ok()
                .map(|t| t.location)
                .map(|l| naga::Span::new(l.start, l.end))
                .unwrap_or_default();
            return Err(over_budget(
                Budget::Preprocessor,
                format!(
                    "the macros expand to more than {budget} tokens ({} bytes of source)",
                    src.len()
                ),
                at,
            )
            .located_in(file, Some(src)));
        }
    }
    Ok(())
}

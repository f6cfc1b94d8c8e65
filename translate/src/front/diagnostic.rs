//! naga's diagnostics in the form every other refusal takes: `FILE:LINE:COL: error: message`
//! on the first line, with every cause naga chains behind a bare message ("Global variable [0]
//! '' is invalid: ..."), then naga's rendering of the place (the source line and a caret).

use crate::error::position;

/// The first line and naga's rendering of the place.
pub(crate) fn render(
    file: &str,
    location: Option<(u32, u32)>,
    message: &str,
    rendered: &str,
) -> String {
    let mut out = format!("{}: error: {}", position(file, location), message.trim());
    // naga's own first line repeats the message ("error: ..."): the rest shows the place.
    let rest: Vec<&str> = rendered
        .lines()
        .skip_while(|l| l.trim().is_empty())
        .skip(1)
        .collect();
    let rest = rest.join("\n");
    if !rest.trim().is_empty() {
        out.push('\n');
        out.push_str(rest.trim_end());
    }
    out
}

/// An error and its causes joined by ": ", each said once.
pub(crate) fn chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        source = s.source();
    }
    out
}

/// naga's validation error: the chain of causes, located at its first span.
pub(crate) fn validation(
    file: &str,
    source: Option<&str>,
    e: &naga::WithSpan<naga::valid::ValidationError>,
    fallback: naga::Span,
) -> String {
    let message = chain(e.as_inner());
    let Some(src) = source else {
        return format!("{file}: error: {message}");
    };
    let location = e
        .location(src)
        .map(|l| (l.line_number, l.line_position))
        .or_else(|| {
            fallback
                .is_defined()
                .then(|| fallback.location(src))
                .map(|l| (l.line_number, l.line_position))
        });
    render(
        file,
        location,
        &message,
        &e.emit_to_string_with_path(src, file),
    )
}

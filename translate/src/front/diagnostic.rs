//! naga's diagnostics in the form every other refusal takes: `FILE:LINE:COL: error: message`
//! on the first line, with every cause naga chains behind a bare message ("Global variable [0]
//! '' is invalid: ..."), then naga's rendering of the place (the source line and a caret).

use crate::error::position;

/// The most lines of naga's rendering kept.
const MAX_EXCERPT_LINES: usize = 40;

/// The most characters of a line of naga's rendering kept.
const MAX_EXCERPT_WIDTH: usize = 200;

/// The first line and naga's rendering of the place.
pub(crate) fn render(
    file: &str,
    location: Option<(u32, u32)>,
    message: &str,
    rendered: &str,
) -> String {
    let mut out = format!("{}: error: {}", position(file, location), message.trim());
    // naga's own first line repeats the message ("error: ..."): the rest shows the place.
    // Hostile sources have lines of megabytes: the excerpt keeps the start of each line.
    let rest: Vec<String> = rendered
        .lines()
        .skip_while(|l| l.trim().is_empty())
        .skip(1)
        .take(MAX_EXCERPT_LINES)
        .map(|l| match l.char_indices().nth(MAX_EXCERPT_WIDTH) {
            Some((cut, _)) => format!("{} ...", &l[..cut]),
            None => l.to_string(),
        })
        .collect();
    let rest = rest.join("\n");
    if !rest.trim().is_empty() {
        out.push('\n');
        out.push_str(rest.trim_end());
    }
    out
}

/// An error and its causes joined by ": ", each said once, with naga's Rust debug dumps of IR
/// items (`Struct { members: [...] }`) shortened to their names.
pub(crate) fn chain(e: &dyn std::error::Error) -> String {
    undebug(&chain_raw(e))
}

fn chain_raw(e: &dyn std::error::Error) -> String {
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

/// `Name { ... }` (a Rust debug dump, nested to any depth) becomes `name`.
pub(crate) fn undebug(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        // A capitalised word followed by " {".
        if b[i].is_ascii_uppercase() && (i == 0 || !b[i - 1].is_ascii_alphanumeric()) {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            if text[j..].starts_with(" {") {
                let mut depth = 0usize;
                let mut k = j + 1;
                while k < b.len() {
                    match b[k] {
                        b'{' | b'[' | b'(' => depth += 1,
                        b'}' | b']' | b')' => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    k += 1;
                }
                out.push_str(&text[i..j].to_ascii_lowercase());
                i = (k + 1).min(b.len());
                continue;
            }
            out.push_str(&text[i..j]);
            i = j;
            continue;
        }
        let c = text[i..].chars().next().unwrap_or(' ');
        out.push(c);
        i += c.len_utf8();
    }
    out
}

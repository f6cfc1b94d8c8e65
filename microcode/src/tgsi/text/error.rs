//! Parse errors: the public [`ParseError`] (line, column, message) and the error type the nom
//! parsers carry internally (the remaining input, from which the location is computed at the end).

use nom::error::ErrorKind;
use thiserror::Error;

/// A syntax error in TGSI text, located at the offending token.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{line}:{col}: {message}")]
pub struct ParseError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, counted in characters.
    pub col: u32,
    /// What is wrong, e.g. "expected `]`" or "unknown opcode `FOO`".
    pub message: String,
}

impl ParseError {
    /// The diagnostic as a compiler prints it:
    ///
    /// ```text
    /// shader.tgsi:3:9: error: expected `]`
    /// MOV OUT[0, IN[0]
    ///         ^
    /// ```
    ///
    /// Tabs before the column are repeated in the caret line so that the caret lines up.
    pub fn render(&self, src: &str, filename: &str) -> String {
        let text = src
            .split('\n')
            .nth((self.line as usize).saturating_sub(1))
            .unwrap_or("")
            .trim_end_matches('\r');
        // A line of megabytes is shown as a window around the column.
        let col = (self.col as usize).saturating_sub(1);
        let skip = col.saturating_sub(MAX_ECHO_CHARS * 2);
        let mut shown: String = text.chars().skip(skip).take(MAX_ECHO_CHARS * 4).collect();
        let mut col = col - skip;
        if skip > 0 {
            shown.insert_str(0, "...");
            col += 3;
        }
        if text.chars().count() > skip + MAX_ECHO_CHARS * 4 {
            shown.push_str("...");
        }
        let text = shown;
        let pad: String = text
            .chars()
            .take(col)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        format!(
            "{filename}:{}:{}: error: {}\n{text}\n{pad}^\n",
            self.line, self.col, self.message
        )
    }
}

/// The nom error: where (the input still to parse) and what. Committed errors travel as
/// `nom::Err::Failure`; plain `Error`s mean "this alternative does not apply here".
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PErr<'a> {
    pub at: &'a str,
    pub message: String,
}

impl<'a> nom::error::ParseError<&'a str> for PErr<'a> {
    fn from_error_kind(input: &'a str, kind: ErrorKind) -> Self {
        PErr {
            at: input,
            message: format!("syntax error ({})", kind.description()),
        }
    }

    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }
}

/// Result type of the internal parsers.
pub(crate) type PResult<'a, T> = nom::IResult<&'a str, T, PErr<'a>>;

/// A committed error at `at`.
pub(crate) fn fail<'a, T>(at: &'a str, message: impl Into<String>) -> PResult<'a, T> {
    Err(nom::Err::Failure(PErr {
        at,
        message: message.into(),
    }))
}

/// Maps byte offsets of the source to 1-based lines and character columns.
pub(crate) struct LineMap<'a> {
    src: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineMap<'a> {
    pub fn new(src: &'a str) -> LineMap<'a> {
        let mut starts = vec![0];
        starts.extend(src.match_indices('\n').map(|(i, _)| i + 1));
        LineMap { src, starts }
    }

    /// Line and column of a suffix of the source (the rest of the input at some point).
    pub fn locate(&self, rest: &str) -> (u32, u32) {
        let offset = self.src.len().saturating_sub(rest.len());
        let line = self.starts.partition_point(|&s| s <= offset).max(1) - 1;
        let start = self.starts[line];
        let col = self.src.get(start..offset).map_or(0, |s| s.chars().count());
        (line as u32 + 1, col as u32 + 1)
    }

    pub fn error(&self, e: PErr<'_>) -> ParseError {
        let (line, col) = self.locate(e.at);
        ParseError {
            line,
            col,
            message: shorten_quoted(&e.message),
        }
    }
}

/// Longest text between backquotes a message echoes; longer tokens (a million-digit number)
/// are cut, with their length named.
pub(crate) const MAX_ECHO_CHARS: usize = 40;

/// Cuts every `` `quoted` `` part of `message` longer than [`MAX_ECHO_CHARS`] characters.
pub(crate) fn shorten_quoted(message: &str) -> String {
    let parts: Vec<&str> = message.split('`').collect();
    let mut out = String::new();
    let mut closed = false;
    for (k, part) in parts.iter().enumerate() {
        if k > 0 && !std::mem::take(&mut closed) {
            out.push('`');
        }
        let n = part.chars().count();
        // Odd parts are inside backquotes (when a closing one follows).
        if k % 2 == 1 && k + 1 < parts.len() && n > MAX_ECHO_CHARS {
            out.extend(part.chars().take(MAX_ECHO_CHARS));
            out.push_str("...");
            out.push('`');
            out.push_str(&format!(" ({n} characters)"));
            // The closing backquote is written: the next part must not add it again.
            closed = true;
            continue;
        }
        out.push_str(part);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_quoted_tokens_are_cut() {
        let long = "9".repeat(1_000_000);
        let m = shorten_quoted(&format!("bad number `{long}` here"));
        assert_eq!(
            m,
            format!("bad number `{}...` (1000000 characters) here", &long[..40])
        );
        assert_eq!(shorten_quoted("`a` and `b`"), "`a` and `b`");
        let e = crate::tgsi::text::parse(&format!("FRAG\nIMM FLT32 {{ 1{long}x }}\n")).unwrap_err();
        assert!(e.message.len() < 200, "{}", e.message.len());
        let r = e.render(&format!("FRAG\nIMM FLT32 {{ 1{long}x }}\n"), "f");
        assert!(r.len() < 600, "{}", r.len());
    }
}

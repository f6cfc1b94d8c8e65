//! Lexical pieces of TGSI text: blanks and comments, words, integers, number tokens, punctuation.
//!
//! The grammar is line-oriented (one statement per line), so there are two blank skippers: [`sp`]
//! stays on the line, [`ws`] also crosses newlines (used after a comma and inside `{ }`).

use super::error::{fail, PErr, PResult};
use nom::bytes::complete::{tag_no_case, take_until, take_while, take_while1};
use nom::Parser;

/// Skips spaces, tabs, carriage returns and comments (`/* ... */`, `# ...` to the end of the line),
/// but not newlines.
pub(crate) fn sp(mut i: &str) -> PResult<'_, ()> {
    loop {
        let (rest, _) = take_while(|c| c == ' ' || c == '\t' || c == '\r').parse(i)?;
        i = rest;
        if let Some(body) = i.strip_prefix("/*") {
            match take_until::<_, _, PErr>("*/").parse(body) {
                Ok((after, _)) => i = &after[2..],
                Err(_) => return fail(i, "unterminated comment `/*`"),
            }
        } else if i.starts_with('#') {
            let (rest, _) = take_while(|c| c != '\n').parse(i)?;
            i = rest;
        } else {
            return Ok((i, ()));
        }
    }
}

/// Skips blanks, comments and newlines.
pub(crate) fn ws(mut i: &str) -> PResult<'_, ()> {
    loop {
        let (rest, _) = sp(i)?;
        match rest.strip_prefix('\n') {
            Some(next) => i = next,
            None => return Ok((rest, ())),
        }
    }
}

/// A word: letters, digits and underscores (`MOV_SAT`, `TEMP`, `2D`, `GT1`).
pub(crate) fn word(i: &str) -> PResult<'_, &str> {
    take_while1(|c: char| c.is_ascii_alphanumeric() || c == '_').parse(i)
}

/// The next word without consuming it, or "" when none follows.
pub(crate) fn peek_word(i: &str) -> &str {
    word(i).map(|(_, w)| w).unwrap_or("")
}

/// A required character: a committed "expected `c`" error otherwise.
pub(crate) fn expect(c: char, i: &str) -> PResult<'_, ()> {
    match i.strip_prefix(c) {
        Some(rest) => Ok((rest, ())),
        None => fail(i, format!("expected `{c}`{}", found(i))),
    }
}

/// A required keyword (case-insensitive), not followed by another word character.
pub(crate) fn keyword<'a>(kw: &'static str) -> impl Fn(&'a str) -> PResult<'a, &'a str> {
    move |i: &'a str| {
        let (rest, w) = tag_no_case::<_, _, PErr>(kw).parse(i)?;
        if rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            return Err(nom::Err::Error(PErr {
                at: i,
                message: format!("expected `{kw}`"),
            }));
        }
        Ok((rest, w))
    }
}

/// A description of what comes next, for "expected X, found Y" messages.
pub(crate) fn found(i: &str) -> String {
    match i.chars().next() {
        None => ", found end of input".to_string(),
        Some('\n') | Some('\r') => ", found end of line".to_string(),
        Some(c) if c.is_ascii_alphanumeric() || c == '_' => format!(", found `{}`", peek_word(i)),
        Some(c) => format!(", found `{c}`"),
    }
}

/// An unsigned decimal integer that fits in `u32`.
pub(crate) fn uint(i: &str) -> PResult<'_, u32> {
    let (rest, digits) = take_while1(|c: char| c.is_ascii_digit()).parse(i)?;
    match digits.parse::<u32>() {
        Ok(v) => Ok((rest, v)),
        Err(_) => fail(i, format!("`{digits}` is too large")),
    }
}

/// A register or declaration index: optional sign, decimal digits, in the signed 16-bit range.
pub(crate) fn index(i: &str) -> PResult<'_, i32> {
    let (after_sign, negative) = match i.strip_prefix('-') {
        Some(rest) => (rest, true),
        None => (i.strip_prefix('+').unwrap_or(i), false),
    };
    let (rest, digits) = take_while1(|c: char| c.is_ascii_digit()).parse(after_sign)?;
    let value = digits
        .parse::<i64>()
        .ok()
        .map(|v| if negative { -v } else { v })
        .filter(|v| (i64::from(i16::MIN)..=i64::from(i16::MAX)).contains(v));
    match value {
        Some(v) => Ok((rest, v as i32)),
        None => fail(
            i,
            format!(
                "index `{}{digits}` is outside the signed 16-bit range",
                if negative { "-" } else { "" }
            ),
        ),
    }
}

/// The text of a number (immediate value): sign, then letters, digits and dots, with a sign allowed
/// right after an exponent `e`. Checked afterwards by the `number` functions.
pub(crate) fn number_text(i: &str) -> PResult<'_, &str> {
    let b = i.as_bytes();
    let mut n = 0;
    if n < b.len() && (b[n] == b'-' || b[n] == b'+') {
        n += 1;
    }
    let start = n;
    let hex = b.get(start) == Some(&b'0') && matches!(b.get(start + 1), Some(b'x' | b'X'));
    while n < b.len() {
        let c = b[n];
        let exponent_sign = (c == b'+' || c == b'-') && !hex && matches!(b[n - 1], b'e' | b'E');
        if c.is_ascii_alphanumeric() || c == b'.' || exponent_sign {
            n += 1;
        } else {
            break;
        }
    }
    if n == start {
        return Err(nom::Err::Error(PErr {
            at: i,
            message: format!("expected a number{}", found(i)),
        }));
    }
    Ok((&i[n..], &i[..n]))
}

/// Succeeds at the end of a statement: the end of the line or of the input (after blanks).
pub(crate) fn end_of_statement(i: &str) -> PResult<'_, ()> {
    let (i, _) = sp(i)?;
    if i.is_empty() {
        Ok((i, ()))
    } else if let Some(rest) = i.strip_prefix('\n') {
        Ok((rest, ()))
    } else {
        fail(i, format!("expected end of line{}", found(i)))
    }
}

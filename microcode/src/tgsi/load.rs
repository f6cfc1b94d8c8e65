//! Loading a program from a file's bytes, in TGSI text or binary tokens, detected or forced.

use super::ir::Program;
use super::text::{self, ParseError};
use super::tokens::{self, DecodeError, DecodeWarning};
use thiserror::Error;

/// The two program formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// TGSI assembly text (either Mesa dialect).
    Text,
    /// Little-endian binary tokens (version 1.x).
    Tokens,
}

/// A loaded (not yet validated) program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    /// The program, with locations in the format read.
    pub program: Program,
    /// The format the bytes were read as.
    pub format: Format,
    /// For token streams: the stream's minor version.
    pub minor_version: Option<u8>,
    /// For token streams: what the decoder skipped or ignored. Empty for text.
    pub warnings: Vec<DecodeWarning>,
}

/// Why bytes could not be loaded as a program.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LoadError {
    /// The text does not parse (line and column inside).
    #[error("{0}")]
    Text(#[from] ParseError),
    /// The token stream does not decode (word offset inside).
    #[error("{0}")]
    Tokens(#[from] DecodeError),
    /// Text that is not UTF-8.
    #[error("byte {offset}: TGSI text is not valid UTF-8")]
    NotUtf8 {
        /// Byte offset of the first invalid byte.
        offset: usize,
    },
}

/// The format of `bytes`: tokens when the length is a whole number of words, the first word is a
/// VERSION token of major version 1 (padding 0) and the bytes are not valid TGSI text; text
/// otherwise. Text never starts with the byte 0x01, so the text parse is rarely needed.
pub fn detect(bytes: &[u8]) -> Format {
    let version = match bytes.get(..4) {
        Some(&[a, b, c, d]) if bytes.len().is_multiple_of(4) => u32::from_le_bytes([a, b, c, d]),
        _ => return Format::Text,
    };
    let looks_like_version = version & 0xFF == tokens::layout::MAJOR && version >> 16 == 0;
    let is_text = || std::str::from_utf8(bytes).is_ok_and(|s| text::parse(s).is_ok());
    if looks_like_version && !is_text() {
        Format::Tokens
    } else {
        Format::Text
    }
}

/// Loads a program from `bytes` in `format`, or in the [`detect`]ed format when `None`.
pub fn load(bytes: &[u8], format: Option<Format>) -> Result<Loaded, LoadError> {
    match format.unwrap_or_else(|| detect(bytes)) {
        Format::Text => {
            let s = std::str::from_utf8(bytes).map_err(|e| LoadError::NotUtf8 {
                offset: e.valid_up_to(),
            })?;
            Ok(Loaded {
                program: text::parse(s)?,
                format: Format::Text,
                minor_version: None,
                warnings: Vec::new(),
            })
        }
        Format::Tokens => {
            let d = tokens::decode(&tokens::from_bytes(bytes)?)?;
            Ok(Loaded {
                program: d.program,
                format: Format::Tokens,
                minor_version: Some(d.minor_version),
                warnings: d.warnings,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tgsi::ir::*;
    use crate::tgsi::opcode::Opcode;

    const TEXT: &str =
        "FRAG\nDCL IN[0], COLOR, LINEAR\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n  1: END\n";

    fn tokens_of(text: &str) -> Vec<u8> {
        let p = text::parse(text).expect("test text parses");
        tokens::to_bytes(&tokens::encode(&p))
    }

    #[test]
    fn detects_text_and_tokens() {
        assert_eq!(detect(TEXT.as_bytes()), Format::Text);
        assert_eq!(detect(&tokens_of(TEXT)), Format::Tokens);
        // Too short, or not a whole number of words: text.
        assert_eq!(detect(&[1, 1, 0]), Format::Text);
        assert_eq!(detect(&[1, 1, 0, 0, 2]), Format::Text);
        // Major version 2 is not a VERSION token we know: text (which then fails to parse).
        assert_eq!(detect(&[2, 1, 0, 0]), Format::Text);
    }

    #[test]
    fn text_and_tokens_load_the_same_program() {
        let from_text = load(TEXT.as_bytes(), None).expect("text loads");
        assert_eq!(from_text.format, Format::Text);
        let from_tokens = load(&tokens_of(TEXT), None).expect("tokens load");
        assert_eq!(from_tokens.format, Format::Tokens);
        assert_eq!(from_tokens.minor_version, Some(2)); // the COLOR semantic is a 1.2 feature
        assert_eq!(from_tokens.program, from_text.program);
        assert_eq!(from_text.program.instructions[0].opcode, Opcode::Mov);
        assert!(matches!(
            from_tokens.program.instructions[1].loc,
            Loc::Token { .. }
        ));
    }

    #[test]
    fn forced_format_errors_keep_their_location() {
        let e = load(&tokens_of(TEXT)[..6], Some(Format::Tokens)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "byte length 6 is not a multiple of 4 (a partial word at word offset 1)"
        );
        let e = load(b"FRAG\n  0: MOV OUT[0 IN[0]\n", Some(Format::Text)).unwrap_err();
        assert!(
            matches!(e, LoadError::Text(ParseError { line: 2, .. })),
            "{e}"
        );
        let e = load(b"FRAG\n\xff", None).unwrap_err();
        assert_eq!(e, LoadError::NotUtf8 { offset: 5 });
    }
}

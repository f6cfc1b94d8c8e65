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
    #[error(transparent)]
    Text(#[from] ParseError),
    /// The token stream does not decode (word offset inside).
    #[error(transparent)]
    Tokens(#[from] DecodeError),
    /// Text that is not UTF-8.
    #[error("byte {offset}: TGSI text is not valid UTF-8")]
    NotUtf8 {
        /// Byte offset of the first invalid byte.
        offset: usize,
    },
    /// A token stream of a major version this crate does not read.
    #[error(
        "found TGSI tokens of version {major}.{minor}; expected version {}.x tokens or TGSI text",
        tokens::layout::MAJOR
    )]
    TokenVersion {
        /// The VERSION token's major version.
        major: u32,
        /// Its minor version.
        minor: u32,
    },
    /// A compiled core image where a TGSI program was expected.
    #[error(
        "found a compiled core image (magic \"TGCI\", version {major}.{minor}); expected a TGSI \
         program (text or tokens): the core engines (`run --engine core`, `disasm`) read images"
    )]
    Image {
        /// The image's major version.
        major: u16,
        /// Its minor version.
        minor: u16,
    },
    /// An image header behind a magic that is not `TGCI`.
    #[error(
        "found what looks like a compiled core image with a damaged magic {magic:02x?} (expected \
         \"TGCI\"); expected a TGSI program (text or tokens)"
    )]
    DamagedImage {
        /// The four bytes found.
        magic: [u8; 4],
    },
    /// Bytes that are neither text, tokens nor an image.
    #[error(
        "unrecognised format: not TGSI text ({}), not TGSI tokens (the first word {first_word:#010x} \
         is not a VERSION token of major version {}) and not a compiled image (no \"TGCI\" magic)",
        text_problem(*not_utf8_at, *nul_at), tokens::layout::MAJOR
    )]
    Unrecognised {
        /// The first word, little-endian.
        first_word: u32,
        /// Offset of the first byte that is not UTF-8.
        not_utf8_at: Option<usize>,
        /// Offset of the first NUL byte.
        nul_at: Option<usize>,
    },
}

/// What a file's first bytes say it is, before any parsing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sniffed {
    /// No NUL bytes and a UTF-8 start (a leading byte order mark allowed): TGSI text.
    Text,
    /// A first word shaped like a VERSION token (padding 0, major not 0).
    Tokens {
        /// The VERSION token's major version (this crate reads 1).
        major: u32,
        /// Its minor version.
        minor: u32,
    },
    /// A compiled core image: the `TGCI` magic.
    Image {
        /// The image's major version (0 when the file ends before it).
        major: u16,
        /// Its minor version.
        minor: u16,
    },
    /// An image's version and header length behind a damaged magic.
    DamagedImage {
        /// The four bytes found where `TGCI` belongs.
        magic: [u8; 4],
    },
    /// None of the above.
    Unknown {
        /// The first word (little-endian, zero-filled when shorter).
        first_word: u32,
    },
}

/// Byte order mark some editors put at the start of UTF-8 text; skipped before parsing.
pub const UTF8_BOM: &str = "\u{feff}";

fn text_problem(not_utf8_at: Option<usize>, nul_at: Option<usize>) -> String {
    match (not_utf8_at, nul_at) {
        (Some(at), _) => format!("byte {at} is not UTF-8"),
        (None, Some(at)) => format!("byte {at} is NUL"),
        (None, None) => "no text".into(),
    }
}

/// Classifies `bytes` by their first bytes; nothing beyond the header is read, so the cost is
/// constant apart from the UTF-8 check of text.
pub fn sniff(bytes: &[u8]) -> Sniffed {
    let le16 = |at: usize| {
        bytes
            .get(at..at + 2)
            .map_or(0, |b| u16::from_le_bytes([b[0], b[1]]))
    };
    if bytes.starts_with(&crate::core::image::MAGIC) {
        return Sniffed::Image {
            major: le16(4),
            minor: le16(6),
        };
    }
    let mut word = [0u8; 4];
    let n = bytes.len().min(4);
    word[..n].copy_from_slice(&bytes[..n]);
    let first_word = u32::from_le_bytes(word);
    // A VERSION token has a zero padding half-word, so its bytes 2 and 3 are NUL, which text never
    // holds; a major version of 0 is not a version at all.
    if bytes.len() >= 4 && first_word >> 16 == 0 && first_word & 0xFF != 0 {
        return Sniffed::Tokens {
            major: tokens::layout::VERSION_MAJOR.get(first_word),
            minor: tokens::layout::VERSION_MINOR.get(first_word),
        };
    }
    // The image header: version 3.0 and a header length of CONFIG_BYTES + 4.
    let header_len = bytes
        .get(8..12)
        .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    if bytes.len() >= 12
        && le16(4) == crate::core::image::VERSION.0
        && header_len as usize == crate::core::config::CONFIG_BYTES + 4
    {
        return Sniffed::DamagedImage { magic: word };
    }
    // Text with a bad byte further on is still text (the loader names the byte); bytes that
    // start with no text at all are something else.
    let text_prefix = match std::str::from_utf8(bytes) {
        Ok(_) => true,
        Err(e) => e.valid_up_to() > 0,
    };
    if !bytes.contains(&0) && text_prefix {
        return Sniffed::Text;
    }
    Sniffed::Unknown { first_word }
}

/// The format of `bytes`: tokens when the first word looks like a VERSION token of major version
/// 1, text when the bytes are UTF-8 without NUL bytes, otherwise the error naming what was found.
pub fn detect(bytes: &[u8]) -> Result<Format, LoadError> {
    match sniff(bytes) {
        Sniffed::Text => Ok(Format::Text),
        Sniffed::Tokens { major, .. } if major == tokens::layout::MAJOR => Ok(Format::Tokens),
        Sniffed::Tokens { major, minor } => Err(LoadError::TokenVersion { major, minor }),
        Sniffed::Image { major, minor } => Err(LoadError::Image { major, minor }),
        Sniffed::DamagedImage { magic } => Err(LoadError::DamagedImage { magic }),
        Sniffed::Unknown { first_word } => Err(LoadError::Unrecognised {
            first_word,
            not_utf8_at: std::str::from_utf8(bytes).err().map(|e| e.valid_up_to()),
            nul_at: bytes.iter().position(|&b| b == 0),
        }),
    }
}

/// Loads a program from `bytes` in `format`, or in the [`detect`]ed format when `None`.
pub fn load(bytes: &[u8], format: Option<Format>) -> Result<Loaded, LoadError> {
    let format = match format {
        Some(f) => f,
        None => detect(bytes)?,
    };
    match format {
        Format::Text => {
            let s = std::str::from_utf8(bytes).map_err(|e| LoadError::NotUtf8 {
                offset: e.valid_up_to(),
            })?;
            // A byte order mark carries no meaning in UTF-8; editors on some systems add one.
            let s = s.strip_prefix(UTF8_BOM).unwrap_or(s);
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
        assert_eq!(detect(TEXT.as_bytes()), Ok(Format::Text));
        assert_eq!(detect(&tokens_of(TEXT)), Ok(Format::Tokens));
        // Too short for a word: not tokens, and NUL is not text.
        assert!(matches!(
            detect(&[1, 1, 0]),
            Err(LoadError::Unrecognised {
                nul_at: Some(2),
                ..
            })
        ));
        // A partial word after a VERSION token: tokens, and the decoder names the partial word.
        assert_eq!(detect(&[1, 1, 0, 0, 2]), Ok(Format::Tokens));
        let e = load(&tokens_of(TEXT)[..7], None).unwrap_err();
        assert!(e.to_string().contains("not a multiple of 4"), "{e}");
        // Major version 2: named, with the version expected.
        let e = load(&[2, 1, 0, 0, 0, 0, 0, 0], None).unwrap_err();
        assert_eq!(e, LoadError::TokenVersion { major: 2, minor: 1 });
        assert_eq!(
            e.to_string(),
            "found TGSI tokens of version 2.1; expected version 1.x tokens or TGSI text"
        );
    }

    #[test]
    fn images_and_unknown_bytes_are_named() {
        use crate::core::image::{Image, MAGIC, VERSION};
        let img = Image {
            config: crate::core::CoreConfig::default(),
            processor: 0,
            code: Vec::new(),
            constants: Vec::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            origin: Vec::new(),
        }
        .to_bytes();
        let e = load(&img, None).unwrap_err();
        assert_eq!(
            e,
            LoadError::Image {
                major: VERSION.0,
                minor: VERSION.1
            }
        );
        assert!(e.to_string().contains("compiled core image"), "{e}");
        let mut damaged = img.clone();
        damaged[..4].copy_from_slice(b"TGCX");
        assert_eq!(
            load(&damaged, None).unwrap_err(),
            LoadError::DamagedImage { magic: *b"TGCX" }
        );
        assert_ne!(&damaged[..4], &MAGIC);
        let e = load(&[0xff, 0xfe, 0xfd, 0xfc, 0], None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unrecognised format: not TGSI text (byte 0 is not UTF-8), not TGSI tokens (the first \
             word 0xfcfdfeff is not a VERSION token of major version 1) and not a compiled image \
             (no \"TGCI\" magic)"
        );
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let with_bom = format!("{UTF8_BOM}{TEXT}");
        let loaded = load(with_bom.as_bytes(), None).expect("text with a BOM loads");
        assert_eq!(loaded.program, load(TEXT.as_bytes(), None).unwrap().program);
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

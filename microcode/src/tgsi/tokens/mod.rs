//! The TGSI binary token stream (version 1.1 of the 004 document, extended to 1.2).
//!
//! - [`encode`] writes a [`Program`] as words; [`decode`] reads words back, following the 004
//!   document's traversal rules (unknown sized tokens and unknown extension tokens are skipped with
//!   a [`DecodeWarning`]; a newer major version is refused; a newer minor version loads but the
//!   program is marked not executable).
//! - [`to_bytes`] / [`from_bytes`] convert words to and from little-endian bytes.
//!
//! Version 1.2 (`decisions.md` section 5) adds declaration semantics, usage masks, 2-D
//! declarations, PROPERTY tokens, INT32/UINT32 immediates and files 8-12. The encoder writes minor
//! version 2 exactly when a program uses one of them, so 1.1 programs stay readable by 1.1 readers.
//!
//! Two extension tokens of the same type on one instruction or operand decode (the first one wins)
//! and are recorded in [`Program::duplicate_extensions`]; the validator rejects such programs.

mod decode;
mod encode;
pub mod layout;

#[cfg(test)]
mod tests;

pub use decode::decode;
pub use encode::{encode, needs_v12};

use crate::tgsi::ir::Program;
use std::fmt;
use thiserror::Error;

/// A decoded token stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    pub program: Program,
    /// The stream's minor version (1 for the 004 document, 2 with `decisions.md` additions).
    pub minor_version: u8,
    /// Things skipped or ignored on the way, in stream order.
    pub warnings: Vec<DecodeWarning>,
}

/// Something the decoder skipped or ignored; the stream still loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeWarning {
    /// Word offset of the token concerned.
    pub offset: u32,
    pub message: String,
}

impl fmt::Display for DecodeWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "word {}: {}", self.offset, self.message)
    }
}

/// Why a token stream cannot be loaded. Every variant names the word offset.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DecodeError {
    /// The stream (or its body) ends inside a token sequence.
    #[error("word {offset}: the stream ends where {expected} was expected")]
    Truncated { offset: u32, expected: String },
    /// The VERSION token names a major version this crate does not read.
    #[error("word {offset}: token stream version {major}.{minor} is not supported (expected major version 1)")]
    Version { offset: u32, major: u32, minor: u32 },
    /// A field holds a value that has no meaning.
    #[error("word {offset}: expected {expected}, found {found:#010x}")]
    Invalid {
        offset: u32,
        expected: String,
        found: u32,
    },
    /// An instruction's Size disagrees with the tokens it holds.
    #[error("word {offset}: instruction Size is {size} tokens but it holds {used}")]
    SizeMismatch { offset: u32, size: u32, used: u32 },
    /// A sized token whose Size leaves no room for a token its fields announce.
    #[error("word {offset}: {kind} of Size {size} ends where {expected} was expected")]
    TooShort {
        offset: u32,
        kind: &'static str,
        size: u32,
        expected: String,
    },
    /// Something the format can say but the program representation cannot hold.
    #[error("word {offset}: {what} is not supported")]
    Unsupported { offset: u32, what: String },
    /// A byte stream whose length is not a whole number of words.
    #[error("byte length {len} is not a multiple of 4 (a partial word at word offset {offset})")]
    ByteLength { len: usize, offset: u32 },
}

impl DecodeError {
    /// The word offset the error names.
    pub fn offset(&self) -> u32 {
        match self {
            DecodeError::Truncated { offset, .. }
            | DecodeError::Version { offset, .. }
            | DecodeError::Invalid { offset, .. }
            | DecodeError::SizeMismatch { offset, .. }
            | DecodeError::TooShort { offset, .. }
            | DecodeError::Unsupported { offset, .. }
            | DecodeError::ByteLength { offset, .. } => *offset,
        }
    }
}

/// Words as little-endian bytes.
pub fn to_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Little-endian bytes as words; a length that is not a multiple of 4 is an error.
pub fn from_bytes(bytes: &[u8]) -> Result<Vec<u32>, DecodeError> {
    if !bytes.len().is_multiple_of(4) {
        return Err(DecodeError::ByteLength {
            len: bytes.len(),
            offset: (bytes.len() / 4) as u32,
        });
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

//! The TGSI binary token stream (version 1.1 of the 004 document, extended to 1.2).
//!
//! - [`encode`] writes a [`Program`] as words; [`decode`] reads words back, following the 004
//!   document's traversal rules (unknown sized tokens and unknown extension tokens are skipped with
//!   a [`DecodeWarning`]; a newer major version is refused; a newer minor version loads but the
//!   program is marked not executable).
//! - [`to_bytes`] / [`from_bytes`] convert words to and from little-endian bytes.
//!
//! Version 1.2 (`decisions.md` section 5) adds declaration semantics, usage masks, 2-D
//! declarations, PROPERTY tokens, INT32/UINT32 immediates, files 8-12 and the later-Mesa opcodes
//! numbered 119-124 (UCMP UADD IMUL_HI UMUL_HI F2U UMUL, `opcode::V12_OPCODES`). The encoder writes minor
//! version 2 exactly when a program uses one of them, so 1.1 programs stay readable by 1.1 readers.
//!
//! Choices where the documents leave room (the encoder and decoder agree on all of them):
//! - Canonical order: properties, declarations, immediates, instructions. Within an instruction:
//!   extension tokens (NV, LABEL, TEXTURE), destinations, sources; within an operand: the register
//!   token, its extension tokens, the indirect address register, the DIMENSION token, the
//!   DIMENSION's address register (the 004 document's "extended, then indirect, then dimension").
//! - Size counts every word of a sized token including itself (the worked example's `MAD_SAT` has
//!   Size 6). An instruction is read by its structure and must use exactly Size words.
//! - The NV token is written only when precision, CondDstUpdate or CondFlowEnable is set; its unused
//!   fields keep the document's defaults (CC_TR, identity swizzle). `|x|` is EXT_MOD Absolute.
//! - An address register `ADDR[i].c` is a SRC_REGISTER with `c` in all four swizzle fields; the
//!   decoder reads SwizzleX. Nested indirection, 3-D operands and extension tokens on address
//!   registers are representable in the format but not in [`Program`]: they are decode errors.
//! - LABEL tokens with Target = TRUE (label declarations) are accepted and ignored.
//! - A 1.1 stream that sets 1.2 bits is read with them; padding bits are otherwise not checked.
//! - Two extension tokens of the same type on one instruction or operand both decode (field values
//!   are checked), the first one is kept, and the repetition is recorded in
//!   [`Program::duplicate_extensions`]; the validator rejects such programs.
//! - Extension tokens after DECLARATION, IMMEDIATE, PROPERTY and DIMENSION tokens (none are
//!   defined) are skipped with warnings, as are words a declaration's Size holds beyond its known
//!   tokens (except IMMX data) and words after the body.

mod decode;
mod encode;
pub(crate) mod layout;

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
    /// The program; every item carries `Loc::Token` with its first word's offset.
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
    /// What was skipped or ignored, and why.
    pub message: String,
}

impl fmt::Display for DecodeWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "word {}: {}", self.offset, self.message)
    }
}

/// Why a token stream cannot be loaded. Every variant names the word offset (`offset`: the word
/// where the problem is, or where the token concerned starts).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DecodeError {
    /// The stream (or its body) ends inside a token sequence.
    #[error("word {offset}: the stream ends where {expected} was expected")]
    Truncated {
        /// The first missing word.
        offset: u32,
        /// The token that was expected there.
        expected: String,
    },
    /// The VERSION token names a major version this crate does not read.
    #[error("word {offset}: token stream version {major}.{minor} is not supported (expected major version 1)")]
    Version {
        /// Always 0 (the VERSION token).
        offset: u32,
        /// The stream's major version.
        major: u32,
        /// The stream's minor version.
        minor: u32,
    },
    /// A field holds a value that has no meaning.
    #[error("word {offset}: expected {expected}, found {found:#010x}")]
    Invalid {
        /// The word holding the field.
        offset: u32,
        /// What the field may hold.
        expected: String,
        /// The whole word (or, for counts, the count).
        found: u32,
    },
    /// An instruction's Size disagrees with the tokens it holds.
    #[error("word {offset}: instruction Size is {size} tokens but it holds {used}")]
    SizeMismatch {
        /// The INSTRUCTION token.
        offset: u32,
        /// Its Size field.
        size: u32,
        /// The words its fields, extension tokens and operands occupy.
        used: u32,
    },
    /// A sized token whose Size leaves no room for a token its fields announce.
    #[error("word {offset}: {kind} of Size {size} ends where {expected} was expected")]
    TooShort {
        /// The sized token.
        offset: u32,
        /// `declaration`, `immediate`, `property` or `instruction`.
        kind: &'static str,
        /// Its Size field.
        size: u32,
        /// The token that did not fit.
        expected: String,
    },
    /// Something the format can say but the program representation cannot hold.
    #[error("word {offset}: {what} is not supported")]
    Unsupported {
        /// The token concerned.
        offset: u32,
        /// What it says.
        what: String,
    },
    /// A byte stream whose length is not a whole number of words.
    #[error("byte length {len} is not a multiple of 4 (a partial word at word offset {offset})")]
    ByteLength {
        /// The byte length.
        len: usize,
        /// The word the partial bytes would start.
        offset: u32,
    },
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

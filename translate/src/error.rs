//! What can go wrong, typed: every refusal names the file, the line and column where the source
//! has them, and the construct in the words of the shader's own language.

use std::fmt;
use thiserror::Error;

/// The construct the translator does not take, spelled as the shader's language spells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Construct {
    /// A type (`texture_storage_2d`, `image2D`).
    Type(String),
    /// A statement (`atomicStore`, `barrier`).
    Statement(String),
    /// An expression.
    Expression(String),
    /// A built-in function (`countOneBits`, `bitCount`).
    Function(String),
    /// An operator.
    Operator(String),
    /// A built-in input or output (`@builtin(sample_index)`, `gl_SampleID`).
    Builtin(String),
    /// An address space (`var<storage>`, a `buffer` block).
    AddressSpace(String),
    /// Anything else, described.
    Other(String),
}

impl fmt::Display for Construct {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Construct::Type(s) => write!(f, "the type `{s}`"),
            Construct::Statement(s) => write!(f, "the statement `{s}`"),
            Construct::Expression(s) => write!(f, "the expression `{s}`"),
            Construct::Function(s) => write!(f, "the built-in function `{s}`"),
            Construct::Operator(s) => write!(f, "the operator `{s}`"),
            Construct::Builtin(s) => write!(f, "the built-in `{s}`"),
            Construct::AddressSpace(s) => f.write_str(s),
            Construct::Other(s) => f.write_str(s),
        }
    }
}

/// A limit that keeps hostile input from taking the machine; running out of one names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Brackets nested deeper than naga's recursive readers can take.
    Nesting,
    /// Structured merges of a SPIR-V module (its nesting).
    SpirvMerges,
    /// Tokens a GLSL macro may expand to.
    Preprocessor,
    /// Chained terms without brackets (`?:`, `else if`, statements in a row).
    Chain,
    /// Registers a type may take (arrays the core could never hold).
    TypeSize,
    /// Inputs and outputs at locations beyond what TGSI numbers.
    Location,
    /// Instructions a translation may grow to by inlining, before the passes.
    Instructions,
    /// Calls inlined.
    Inlining,
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Budget::Nesting => "the nesting budget",
            Budget::SpirvMerges => "the SPIR-V merge budget",
            Budget::Preprocessor => "the preprocessor's expansion budget",
            Budget::Chain => "the expression-chain budget",
            Budget::TypeSize => "the type-size budget",
            Budget::Location => "the location budget",
            Budget::Instructions => "the instruction budget",
            Budget::Inlining => "the inlining budget",
        })
    }
}

/// Why a shader could not be translated.
#[derive(Clone, Debug, Error)]
pub enum TranslateError {
    /// naga's front end rejected the source: `FILE:LINE:COL: error: message`, then naga's
    /// rendering of the place (the source line and a caret).
    #[error("{0}")]
    Parse(String),
    /// naga's validator rejected the module (rendered likewise, with every cause).
    #[error("{0}")]
    Invalid(String),
    /// A SPIR-V file whose length is not a whole number of 32-bit words, text that is not UTF-8,
    /// a file that cannot be read.
    #[error("{file}: error: {problem}")]
    Bytes {
        /// The file.
        file: String,
        /// What is wrong.
        problem: String,
    },
    /// No vertex or fragment entry point.
    #[error("{file}: error: no vertex or fragment entry point (found: {found})")]
    NoEntryPoint {
        /// The file.
        file: String,
        /// The entry points there are, with stages.
        found: String,
    },
    /// `--entry NAME` names no vertex or fragment entry point.
    #[error(
        "{file}: error: no vertex or fragment entry point named {name:?} (entry points: {found})"
    )]
    UnknownEntry {
        /// The file.
        file: String,
        /// The name asked for.
        name: String,
        /// The entry points there are.
        found: String,
    },
    /// Several entry points and no `--entry`.
    #[error("{file}: error: several entry points ({found}); choose one with --entry NAME")]
    AmbiguousEntry {
        /// The file.
        file: String,
        /// The entry points there are.
        found: String,
    },
    /// A construct TGSI (or this translator) cannot express, where it is, and why.
    #[error("{}: error: {construct} {}: {why}", position(file, *location), verb(construct))]
    Unsupported {
        /// The file.
        file: String,
        /// 1-based line and column, when the source is text.
        location: Option<(u32, u32)>,
        /// What is not supported.
        construct: Construct,
        /// Why (what TGSI or the core lacks).
        why: String,
        /// naga's span of it (byte range in the source).
        span: naga::Span,
    },
    /// A budget ran out (hostile input): which one, where and how far.
    #[error("{}: error: {what} exceeds {budget}", position(file, *location))]
    Budget {
        /// The file.
        file: String,
        /// 1-based line and column, when known.
        location: Option<(u32, u32)>,
        /// The budget.
        budget: Budget,
        /// What exceeded it, with the figures.
        what: String,
        /// naga's span of it, when there is one.
        span: naga::Span,
    },
    /// naga or the translator failed on this input (a panic caught; a bug to report).
    #[error(
        "{file}: error: the translator failed on this input (an internal error in naga or the \
         translator); please report"
    )]
    Internal {
        /// The file.
        file: String,
    },
    /// The translation is not a valid program (a translator bug, reported rather than written).
    #[error(
        "{file}: error: the translation is not a valid TGSI program ({message}); please report"
    )]
    Output {
        /// The file.
        file: String,
        /// The validator's messages.
        message: String,
    },
}

impl TranslateError {
    /// The file the error is about.
    pub fn file(&self) -> Option<&str> {
        match self {
            TranslateError::Parse(_) | TranslateError::Invalid(_) => None,
            TranslateError::Bytes { file, .. }
            | TranslateError::NoEntryPoint { file, .. }
            | TranslateError::UnknownEntry { file, .. }
            | TranslateError::AmbiguousEntry { file, .. }
            | TranslateError::Unsupported { file, .. }
            | TranslateError::Budget { file, .. }
            | TranslateError::Internal { file }
            | TranslateError::Output { file, .. } => Some(file),
        }
    }

    /// A short class of the error for reports: `parse`, `invalid`, `unsupported: <construct>`,
    /// `budget`, ...
    pub fn class(&self) -> String {
        match self {
            TranslateError::Parse(_) => "naga: parse".into(),
            TranslateError::Invalid(_) => "naga: invalid".into(),
            TranslateError::Bytes { .. } => "bytes".into(),
            TranslateError::NoEntryPoint { .. }
            | TranslateError::UnknownEntry { .. }
            | TranslateError::AmbiguousEntry { .. } => "entry point".into(),
            TranslateError::Unsupported { construct, .. } => construct.to_string(),
            TranslateError::Budget { budget, .. } => format!("{budget}"),
            TranslateError::Internal { .. } => "internal".into(),
            TranslateError::Output { .. } => "output".into(),
        }
    }
}

/// "are not translated" for plural constructs (storage buffers), "is not translated" else.
fn verb(c: &Construct) -> &'static str {
    match c {
        Construct::AddressSpace(s) if !s.starts_with('`') && !s.starts_with("a ") => {
            "are not translated"
        }
        _ => "is not translated",
    }
}

/// `file:line:col`, or the file alone.
pub(crate) fn position(file: &str, location: Option<(u32, u32)>) -> String {
    match location {
        Some((l, c)) => format!("{file}:{l}:{c}"),
        None => file.to_string(),
    }
}

/// An unsupported construct at `span` (file and location filled in by the caller).
pub(crate) fn unsupported(
    construct: Construct,
    why: impl Into<String>,
    span: naga::Span,
) -> TranslateError {
    TranslateError::Unsupported {
        file: String::new(),
        location: None,
        construct,
        why: why.into(),
        span,
    }
}

/// A budget exceeded at `span` (file and location filled in by the caller).
pub(crate) fn over_budget(
    budget: Budget,
    what: impl Into<String>,
    span: naga::Span,
) -> TranslateError {
    TranslateError::Budget {
        file: String::new(),
        location: None,
        budget,
        what: what.into(),
        span,
    }
}

impl TranslateError {
    /// Fills in the file and, from the source text, the line and column (no fallback place).
    pub(crate) fn located_in(self, file: &str, source: Option<&str>) -> TranslateError {
        self.located(file, source, naga::Span::default())
    }

    /// Fills in the file and, from the source text, the line and column.
    pub(crate) fn located(
        self,
        file: &str,
        source: Option<&str>,
        fallback: naga::Span,
    ) -> TranslateError {
        let place = |span: naga::Span| -> Option<(u32, u32)> {
            let src = source?;
            let span = if span.is_defined() { span } else { fallback };
            let range = span.to_range()?;
            if range.start > src.len() {
                return None;
            }
            let l = span.location(src);
            Some((l.line_number, l.line_position))
        };
        match self {
            TranslateError::Unsupported {
                construct,
                why,
                span,
                ..
            } => TranslateError::Unsupported {
                file: file.to_string(),
                location: place(span),
                construct,
                why,
                span,
            },
            TranslateError::Budget {
                budget, what, span, ..
            } => TranslateError::Budget {
                file: file.to_string(),
                location: place(span),
                budget,
                what,
                span,
            },
            TranslateError::Output { message, .. } => TranslateError::Output {
                file: file.to_string(),
                message,
            },
            other => other,
        }
    }
}

//! WGSL, GLSL and SPIR-V shaders translated to TGSI programs through naga.
//!
//! naga parses and validates the shader; [`translate`] lowers one vertex or fragment entry point
//! to TGSI text, parses that text with the project's parser and validates it with the project's
//! validator, so what comes out is a program every other tool takes.
//!
//! The mapping (what `tgsi-core translate` documents):
//! - a fragment input at `@location(N)` (GLSL `layout(location = N) in`) is `IN` with semantic
//!   `GENERIC[N]`; `@builtin(position)` / `gl_FragCoord` is `POSITION`; `front_facing` is `FACE`;
//!   vertex inputs at location N are `IN[N]`;
//! - a fragment output at location N is `COLOR[N]`, `frag_depth` is `POSITION.z`; vertex outputs
//!   are `POSITION` and `GENERIC[N]`; outputs are numbered in declaration order;
//! - uniforms take CONST registers by ascending (group, binding): every scalar or vector (member,
//!   array element, matrix column) takes one whole register, in declaration order, the first
//!   uniform at `CONST[0]` ([`const_layout`] lists them);
//! - textures take SAMP indices by ascending (group, binding) of the texture, from 0; a sampler
//!   adds nothing; `textureLoad` is TXF, `textureDimensions` TXQ;
//! - booleans are 1.0 / 0.0 (what SLT and its family write);
//! - `i32` and `u32` values are their 32-bit patterns and compute with TGSI's integer opcodes,
//!   exactly and wrapping: UADD, UMUL, AND, OR, XOR, NOT, SHL, SHR, MOD, I2F, F2U, UCMP, IMUL_HI and
//!   UMUL_HI directly, and exact sequences of them for what TGSI lacks (`f32` to `i32`, `u32` to
//!   `f32`, comparisons, `min` / `max`, logical `>>`, `/` and `%`); a bit cast is a plain move,
//!   integer immediates are `IMM UINT32`. Constructs without an exact sequence (`countOneBits` and
//!   the other bit-counting and packing built-ins) are refused by name and place.

mod code;
mod lower;

use microcode::tgsi::validate::{validate, Limits};
use microcode::tgsi::Program;
use naga::ShaderStage;
use std::fmt;
use std::path::Path;
use thiserror::Error;

/// A shading language the translator reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// WGSL (`.wgsl`).
    Wgsl,
    /// GLSL 4.50 (Vulkan flavour) of the given stage (`.frag`, `.vert`; `.glsl` is a fragment).
    Glsl(Stage),
    /// A SPIR-V module (`.spv`).
    SpirV,
}

/// The shader stages the translator writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// A vertex shader (`VERT`).
    Vertex,
    /// A fragment shader (`FRAG`).
    Fragment,
}

/// The language a file name's extension says, or `None` for anything else (TGSI, images).
pub fn language_of(path: &Path) -> Option<Language> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "wgsl" => Language::Wgsl,
        "frag" | "glsl" => Language::Glsl(Stage::Fragment),
        "vert" => Language::Glsl(Stage::Vertex),
        "spv" => Language::SpirV,
        _ => return None,
    })
}

/// The construct the translator does not take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Construct {
    /// A type (named as naga names it).
    Type(String),
    /// A statement kind.
    Statement(String),
    /// An expression kind.
    Expression(String),
    /// A built-in function.
    Function(String),
    /// An operator.
    Operator(String),
    /// A built-in input or output.
    Builtin(String),
    /// An address space.
    AddressSpace(String),
    /// Anything else, described.
    Other(String),
}

impl fmt::Display for Construct {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Construct::Type(s) => write!(f, "type {s}"),
            Construct::Statement(s) => write!(f, "statement {s}"),
            Construct::Expression(s) => write!(f, "expression {s}"),
            Construct::Function(s) => write!(f, "built-in function {s}"),
            Construct::Operator(s) => write!(f, "operator {s}"),
            Construct::Builtin(s) => write!(f, "built-in {s}"),
            Construct::AddressSpace(s) => write!(f, "address space {s}"),
            Construct::Other(s) => write!(f, "{s}"),
        }
    }
}

/// Why a shader could not be translated.
#[derive(Clone, Debug, Error)]
pub enum TranslateError {
    /// naga's front end rejected the source (its rendered diagnostic: file:line:col, the line).
    #[error("{0}")]
    Parse(String),
    /// naga's validator rejected the module (rendered likewise).
    #[error("{0}")]
    Invalid(String),
    /// A SPIR-V file whose length is not a whole number of 32-bit words, or text that is not UTF-8.
    #[error("{file}: {problem}")]
    Bytes {
        /// The file.
        file: String,
        /// What is wrong.
        problem: String,
    },
    /// No vertex or fragment entry point.
    #[error("{file}: no vertex or fragment entry point (found: {found})")]
    NoEntryPoint {
        /// The file.
        file: String,
        /// The entry points there are, with stages.
        found: String,
    },
    /// `--entry NAME` names no vertex or fragment entry point.
    #[error("{file}: no vertex or fragment entry point named {name:?} (entry points: {found})")]
    UnknownEntry {
        /// The file.
        file: String,
        /// The name asked for.
        name: String,
        /// The entry points there are.
        found: String,
    },
    /// Several entry points and no `--entry`.
    #[error("{file}: several entry points ({found}); choose one with --entry NAME")]
    AmbiguousEntry {
        /// The file.
        file: String,
        /// The entry points there are.
        found: String,
    },
    /// A construct TGSI (or this translator) cannot express, where it is.
    #[error("{}: unsupported {construct}", position(file, *location))]
    Unsupported {
        /// The file.
        file: String,
        /// 1-based line and column, when the source is text and naga kept a span.
        location: Option<(u32, u32)>,
        /// What is not supported.
        construct: Construct,
        /// naga's span of it (byte range in the source).
        span: naga::Span,
    },
    /// The translation is not a valid program (a translator bug, reported rather than written).
    #[error("{file}: the translation is not a valid TGSI program ({message}); please report")]
    Output {
        /// The file.
        file: String,
        /// The parser's or validator's messages.
        message: String,
    },
}

/// naga's message, starting with the file name when naga had no place to render.
fn named(file: &str, message: String) -> String {
    let message = message.trim_end().to_string();
    if message.contains(file) {
        message
    } else {
        format!("{file}: {message}")
    }
}

fn position(file: &str, location: Option<(u32, u32)>) -> String {
    match location {
        Some((l, c)) => format!("{file}:{l}:{c}"),
        None => file.to_string(),
    }
}

/// A translated shader.
#[derive(Clone, Debug)]
pub struct Translation {
    /// The TGSI text (what `translate -o` writes).
    pub text: String,
    /// The same program, parsed and validated.
    pub program: Program,
    /// The entry point translated.
    pub entry: String,
    /// Its stage.
    pub stage: Stage,
}

/// Reads `path` (language from its extension) and translates entry point `entry` (or the only
/// vertex / fragment one).
pub fn translate_file(path: &Path, entry: Option<&str>) -> Result<Translation, TranslateError> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| TranslateError::Bytes {
        file: name.clone(),
        problem: format!("cannot read: {e}"),
    })?;
    let language = language_of(path).ok_or_else(|| TranslateError::Bytes {
        file: name.clone(),
        problem: "not a .wgsl, .frag, .vert, .glsl or .spv file".into(),
    })?;
    translate(&bytes, language, &name, entry)
}

/// Translates shader source `bytes` in `language`; `file` names it in messages.
pub fn translate(
    bytes: &[u8],
    language: Language,
    file: &str,
    entry: Option<&str>,
) -> Result<Translation, TranslateError> {
    check_depth(bytes, language, file)?;
    // naga's parsers and validator recurse per nesting level: the translation runs on a thread
    // with room for every depth `check_depth` lets through, and a panic inside naga on hostile
    // input becomes an error, never a crash.
    let run = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("translate".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || {
                std::panic::catch_unwind(|| translate_inner(bytes, language, file, entry))
            })
            .map(|h| h.join())
    });
    match run {
        Ok(Ok(Ok(r))) => r,
        Ok(Err(_)) | Err(_) => Err(TranslateError::Bytes {
            file: file.to_string(),
            problem: "cannot start the translation thread".into(),
        }),
        Ok(Ok(Err(_))) => Err(TranslateError::Parse(format!(
            "{file}: the translator failed on this input (an internal error in naga or the \
             translator); please report"
        ))),
    }
}

/// The deepest nesting of brackets (and the longest run of prefix operators) a source may have:
/// far beyond any shader (the TGSI validator allows 16 nested blocks), shallow enough for naga's
/// recursive parsers on [`STACK_BYTES`].
pub const MAX_NESTING: usize = 256;

/// The most structured control-flow merges (`OpSelectionMerge`, `OpLoopMerge`) a SPIR-V module may
/// hold: a bound on its nesting for naga's recursive reader.
pub const MAX_SPIRV_MERGES: usize = 4096;

/// The translation thread's stack.
const STACK_BYTES: usize = 256 << 20;

/// Refuses sources nested deeper than naga's recursion can take (hostile input, never a shader).
fn check_depth(bytes: &[u8], language: Language, file: &str) -> Result<(), TranslateError> {
    let too_deep = |what: String| TranslateError::Bytes {
        file: file.to_string(),
        problem: what,
    };
    if language == Language::SpirV {
        let merges = bytes
            .chunks_exact(4)
            .skip(5)
            .filter(|w| matches!(u16::from_le_bytes([w[0], w[1]]), 246 | 247))
            .count();
        if merges > MAX_SPIRV_MERGES {
            return Err(too_deep(format!(
                "{merges} structured control-flow merges; at most {MAX_SPIRV_MERGES} are read"
            )));
        }
        return Ok(());
    }
    let (mut depth, mut run) = (0usize, 0usize);
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        // Comments hold anything: skip them.
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
            continue;
        }
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        match c {
            b'-' | b'+' | b'!' | b'~' | b'*' | b'&' => run += 1,
            b' ' | b'\t' | b'\r' | b'\n' => {}
            _ => run = 0,
        }
        if depth > MAX_NESTING {
            return Err(too_deep(format!(
                "brackets nested deeper than {MAX_NESTING} (byte {i})"
            )));
        }
        if run > MAX_NESTING {
            return Err(too_deep(format!(
                "more than {MAX_NESTING} operators in a row (byte {i})"
            )));
        }
        i += 1;
    }
    Ok(())
}

fn translate_inner(
    bytes: &[u8],
    language: Language,
    file: &str,
    entry: Option<&str>,
) -> Result<Translation, TranslateError> {
    let text = match language {
        Language::SpirV => None,
        _ => Some(
            std::str::from_utf8(bytes)
                .map_err(|e| TranslateError::Bytes {
                    file: file.to_string(),
                    problem: format!("byte {}: not UTF-8 text", e.valid_up_to()),
                })?
                .to_string(),
        ),
    };
    let module = match language {
        Language::Wgsl => {
            naga::front::wgsl::parse_str(text.as_deref().unwrap_or("")).map_err(|e| {
                TranslateError::Parse(named(
                    file,
                    e.emit_to_string_with_path(text.as_deref().unwrap_or(""), file),
                ))
            })?
        }
        Language::Glsl(stage) => {
            let st = match stage {
                Stage::Vertex => ShaderStage::Vertex,
                Stage::Fragment => ShaderStage::Fragment,
            };
            let src = text.as_deref().unwrap_or("");
            naga::front::glsl::Frontend::default()
                .parse(&naga::front::glsl::Options::from(st), src)
                .map_err(|e| {
                    TranslateError::Parse(named(file, e.emit_to_string_with_path(src, file)))
                })?
        }
        Language::SpirV => {
            if !bytes.len().is_multiple_of(4) {
                return Err(TranslateError::Bytes {
                    file: file.to_string(),
                    problem: format!(
                        "{} bytes: a SPIR-V module is a whole number of 32-bit words",
                        bytes.len()
                    ),
                });
            }
            naga::front::spv::parse_u8_slice(bytes, &naga::front::spv::Options::default())
                .map_err(|e| TranslateError::Parse(format!("{file}: {e}")))?
        }
    };
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default(),
    )
    .validate(&module)
    .map_err(|e| match &text {
        Some(src) => TranslateError::Invalid(named(file, e.emit_to_string_with_path(src, file))),
        None => TranslateError::Invalid(format!("{file}: {}", e.as_inner())),
    })?;

    let candidates: Vec<(usize, &naga::EntryPoint)> = module
        .entry_points
        .iter()
        .enumerate()
        .filter(|(_, ep)| matches!(ep.stage, ShaderStage::Vertex | ShaderStage::Fragment))
        .collect();
    let found = module
        .entry_points
        .iter()
        .map(|ep| format!("{} ({:?})", ep.name, ep.stage))
        .collect::<Vec<_>>()
        .join(", ");
    let found = if found.is_empty() {
        "none".to_string()
    } else {
        found
    };
    let (index, ep) = match entry {
        Some(name) => candidates
            .iter()
            .find(|(_, ep)| ep.name == name)
            .copied()
            .ok_or_else(|| TranslateError::UnknownEntry {
                file: file.to_string(),
                name: name.to_string(),
                found: found.clone(),
            })?,
        None => match candidates.as_slice() {
            [one] => *one,
            [] => {
                return Err(TranslateError::NoEntryPoint {
                    file: file.to_string(),
                    found,
                })
            }
            _ => {
                return Err(TranslateError::AmbiguousEntry {
                    file: file.to_string(),
                    found,
                })
            }
        },
    };
    let stage = match ep.stage {
        ShaderStage::Vertex => Stage::Vertex,
        _ => Stage::Fragment,
    };
    let mut lower = lower::Lower::new(&module, &info, ep.stage);
    lower.entry(ep, index).map_err(|e| match e {
        TranslateError::Unsupported {
            construct, span, ..
        } => TranslateError::Unsupported {
            file: file.to_string(),
            location: text.as_deref().filter(|_| span.is_defined()).map(|src| {
                let l = span.location(src);
                (l.line_number, l.line_position)
            }),
            construct,
            span,
        },
        other => other,
    })?;
    let mut code = lower.code;
    code.optimise();
    let header = match stage {
        Stage::Vertex => "VERT",
        Stage::Fragment => "FRAG",
    };
    let tgsi = code.print(header);
    let program = microcode::tgsi::text::parse(&tgsi).map_err(|e| TranslateError::Output {
        file: file.to_string(),
        message: e.render(&tgsi, "translation").trim_end().to_string(),
    })?;
    if let Err(errors) = validate(&program, &Limits::default()) {
        return Err(TranslateError::Output {
            file: file.to_string(),
            message: errors
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("; "),
        });
    }
    Ok(Translation {
        text: tgsi,
        program,
        entry: ep.name.clone(),
        stage,
    })
}

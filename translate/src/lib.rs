//! WGSL, GLSL and SPIR-V shaders translated to TGSI programs through naga.
//!
//! Laid out like naga itself: a front end per language (`front`: WGSL, GLSL and SPIR-V, one
//! cargo feature each), the lowering of naga's IR split by construct (`lower`), the passes that
//! make the code tight (`passes`), and `emit`, which builds a `microcode::tgsi::Program`
//! directly (printed only by microcode's printer).
//!
//! The mapping (what `tgsi-core translate` documents, in ARCHITECTURE.md "Shading languages"):
//! - a fragment input at `@location(N)` (GLSL `layout(location = N) in`) is `IN` with semantic
//!   `GENERIC[N]`; `@builtin(position)` / `gl_FragCoord` is `POSITION`; `front_facing` is `FACE`;
//!   vertex inputs at location N are `IN[N]`; `vertex_index` / `instance_index` are the system
//!   values `SV` with semantics VERTEXID / INSTANCEID;
//! - a fragment output at location N is `COLOR[N]`, `frag_depth` is `POSITION.z`; vertex outputs
//!   are `POSITION` and `GENERIC[N]`; outputs are numbered in declaration order;
//! - uniform buffers are laid out as their bytes are (WGSL's uniform address space, std140 for
//!   GLSL): byte offset b of a buffer is `CONST[first + b / 16]`, component `(b % 16) / 4`, one
//!   CONST range per binding in (group, binding) order ([`Bindings`]);
//! - textures take SAMP indices by ascending (group, binding), from 0; a sampler adds nothing;
//! - booleans are 1.0 / 0.0 (what SLT and its family write); `i32` and `u32` values are their
//!   32-bit patterns and compute with TGSI's integer opcodes, exactly and wrapping.
//!
//! Only what the chosen entry point reaches is translated. Every refusal is a
//! [`TranslateError`] naming the file, line and column and the construct in the language's words.

#![warn(missing_docs)]

mod code;
mod emit;
mod error;
mod front;
pub mod layout;
mod lower;
mod passes;

pub use error::{Budget, Construct, TranslateError};
pub use front::bounds::{MAX_CHAIN, MAX_NESTING, MAX_SPIRV_MERGES, MAX_TERMS, MAX_TYPE_REGISTERS};
pub use layout::Bindings;
pub use lower::{MAX_CALLS, MAX_INSTRUCTIONS, MAX_LOCATION};

use microcode::tgsi::validate::{validate, Limits};
use microcode::tgsi::{Processor, Program};
use std::collections::BTreeMap;
use std::path::Path;

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

/// What to translate and with which override values.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The entry point (needed when the module has several vertex / fragment ones).
    pub entry: Option<String>,
    /// Values of `override` constants by name (or numeric id); the others keep the shader's
    /// defaults.
    pub overrides: BTreeMap<String, f64>,
}

/// A translated shader.
#[derive(Clone, Debug)]
pub struct Translation {
    /// The TGSI text (what `translate -o` writes): microcode's printing of [`Translation::program`]
    /// with the binding map as comments after the header.
    pub text: String,
    /// The program, validated.
    pub program: Program,
    /// The entry point translated.
    pub entry: String,
    /// Its stage.
    pub stage: Stage,
    /// Where its uniforms and textures are.
    pub bindings: Bindings,
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
    let options = Options {
        entry: entry.map(str::to_string),
        ..Options::default()
    };
    translate_with(bytes, language, file, &options)
}

/// Translates shader source `bytes` in `language` with `options`.
pub fn translate_with(
    bytes: &[u8],
    language: Language,
    file: &str,
    options: &Options,
) -> Result<Translation, TranslateError> {
    guarded(file, || {
        let parsed = front::parse(bytes, language, file)?;
        let index = front::choose(&parsed.module, file, options.entry.as_deref())?;
        lower_entry(&parsed, index, language, file, &options.overrides)
    })
}

/// The vertex and fragment entry points of a shader, with their stages (for reports).
pub fn entry_points(
    bytes: &[u8],
    language: Language,
    file: &str,
) -> Result<Vec<(String, Stage)>, TranslateError> {
    guarded(file, || {
        let parsed = front::parse(bytes, language, file)?;
        Ok(front::entry_points(&parsed.module)
            .into_iter()
            .map(|(_, n, s)| (n, s))
            .collect())
    })
}

/// The translation thread's stack: naga's parsers and validator recurse per nesting level, and
/// the stack has room for every depth the budgets let through (touched only as deep as it goes).
const STACK_BYTES: usize = 256 << 20;

/// Runs `work` on a thread with a deep stack; a panic inside naga (or the translator) on hostile
/// input becomes [`TranslateError::Internal`], never a crash, and prints nothing.
fn guarded<T: Send>(
    file: &str,
    work: impl FnOnce() -> Result<T, TranslateError> + Send,
) -> Result<T, TranslateError> {
    silence_translation_panics();
    let run = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name(THREAD.into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
            })
            .map(|h| h.join())
    });
    match run {
        Ok(Ok(Ok(r))) => r,
        Ok(Err(_)) | Err(_) => Err(TranslateError::Bytes {
            file: file.to_string(),
            problem: "cannot start the translation thread".into(),
        }),
        Ok(Ok(Err(_))) => Err(TranslateError::Internal {
            file: file.to_string(),
        }),
    }
}

/// The name of the translation threads, whose panics the hook keeps quiet.
const THREAD: &str = "tgsi-translate";

/// Installs (once) a panic hook that prints nothing for panics on translation threads (they are
/// caught and reported as errors) and defers to the previous hook for every other thread.
fn silence_translation_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().name() != Some(THREAD) {
                previous(info);
            }
        }));
    });
}

/// Lowers entry point `index` of a parsed module to a validated program.
fn lower_entry(
    parsed: &front::Parsed,
    index: usize,
    language: Language,
    file: &str,
    overrides: &BTreeMap<String, f64>,
) -> Result<Translation, TranslateError> {
    let source = parsed.source.as_deref();
    let prepared = front::prepare(parsed, index, file, overrides)?;
    let module = &prepared.module;
    let ep = &module.entry_points[0];
    let stage = match ep.stage {
        naga::ShaderStage::Vertex => Stage::Vertex,
        _ => Stage::Fragment,
    };
    let fallback = front::bounds::entry_span(module, 0, source);
    let mut lower = lower::Lower::new(module, &prepared.info, ep.stage, language);
    lower
        .entry(ep, 0)
        .map_err(|e| e.located(file, source, fallback))?;
    let bindings = std::mem::take(&mut lower.layout);
    let mut code = lower.code;
    code.optimise();
    let processor = match stage {
        Stage::Vertex => Processor::Vertex,
        Stage::Fragment => Processor::Fragment,
    };
    let program = emit::program(&code, processor);
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
    let printed = microcode::tgsi::text::print(&program);
    let (header, body) = printed.split_once('\n').unwrap_or((&printed, ""));
    let text = format!("{header}\n{}{body}", bindings.comments());
    Ok(Translation {
        text,
        program,
        entry: ep.name.clone(),
        stage,
        bindings,
    })
}

//! The front ends: naga's WGSL, GLSL and SPIR-V readers (one cargo feature each), then the
//! reduction to the chosen entry point, validation and override constants.
//!
//! Only what the entry point reaches is validated and translated: the module is reduced to that
//! entry point (`naga::compact` drops the other entry points, the functions and globals it never
//! touches), so another entry point's resources, or naga's verdict on another entry point,
//! never refuse this one.

pub(crate) mod bounds;
pub(crate) mod diagnostic;
#[cfg(feature = "glsl")]
mod glsl;
#[cfg(feature = "spv")]
mod spv;
#[cfg(feature = "wgsl")]
mod wgsl;

use crate::{Language, Stage, TranslateError};
use naga::valid::{Capabilities, ModuleInfo, ValidationFlags, Validator};
use naga::{Module, ShaderStage};
use std::collections::BTreeMap;

/// A parsed module and its source text (none for SPIR-V).
pub(crate) struct Parsed {
    pub module: Module,
    pub source: Option<String>,
    pub language: Language,
}

/// What naga can validate of the shaders it reads: its defaults, push constants (which become
/// uniforms) and doubles (`f64`, GLSL `double`, SPIR-V Float64: TGSI's double opcodes).
/// Half floats and 64-bit integers stay refused by naga's validator.
fn capabilities() -> Capabilities {
    Capabilities::default() | Capabilities::IMMEDIATES | Capabilities::FLOAT64
}

/// Parses `bytes` as `language`.
pub(crate) fn parse(
    bytes: &[u8],
    language: Language,
    file: &str,
) -> Result<Parsed, TranslateError> {
    // Text front ends only (SPIR-V is binary).
    #[cfg_attr(not(any(feature = "wgsl", feature = "glsl")), allow(unused_variables))]
    let text = || -> Result<String, TranslateError> {
        Ok(std::str::from_utf8(bytes)
            .map_err(|e| TranslateError::Bytes {
                file: file.to_string(),
                problem: format!("byte {}: not UTF-8 text", e.valid_up_to()),
            })?
            .to_string())
    };
    match language {
        #[cfg(feature = "wgsl")]
        Language::Wgsl => {
            let src = text()?;
            bounds::check_text(&src, file)?;
            let module = wgsl::parse(&src, file)?;
            Ok(Parsed {
                module,
                source: Some(src),
                language,
            })
        }
        #[cfg(feature = "glsl")]
        Language::Glsl(stage) => {
            let src = text()?;
            bounds::check_text(&src, file)?;
            let module = glsl::parse(&src, stage, file)?;
            Ok(Parsed {
                module,
                source: Some(src),
                language,
            })
        }
        #[cfg(feature = "spv")]
        Language::SpirV => Ok(Parsed {
            module: spv::parse(bytes, file)?,
            source: None,
            language,
        }),
        #[allow(unreachable_patterns)]
        other => Err(TranslateError::Bytes {
            file: file.to_string(),
            problem: format!(
                "this build of the translator reads no {other:?} (cargo feature not enabled)"
            ),
        }),
    }
}

/// The vertex and fragment entry points of a module: (index, name, stage).
pub(crate) fn entry_points(module: &Module) -> Vec<(usize, String, Stage)> {
    module
        .entry_points
        .iter()
        .enumerate()
        .filter_map(|(i, ep)| {
            let stage = match ep.stage {
                ShaderStage::Vertex => Stage::Vertex,
                ShaderStage::Fragment => Stage::Fragment,
                _ => return None,
            };
            Some((i, ep.name.clone(), stage))
        })
        .collect()
}

/// Every entry point with its stage, for messages.
fn found(module: &Module) -> String {
    let all: Vec<String> = module
        .entry_points
        .iter()
        .map(|ep| format!("{} ({:?})", ep.name, ep.stage))
        .collect();
    if all.is_empty() {
        "none".to_string()
    } else {
        all.join(", ")
    }
}

/// The index of the entry point `entry` names (or the only vertex / fragment one).
pub(crate) fn choose(
    module: &Module,
    file: &str,
    entry: Option<&str>,
) -> Result<usize, TranslateError> {
    let candidates = entry_points(module);
    match entry {
        Some(name) => candidates
            .iter()
            .find(|(_, n, _)| n == name)
            .map(|(i, _, _)| *i)
            .ok_or_else(|| TranslateError::UnknownEntry {
                file: file.to_string(),
                name: name.to_string(),
                found: found(module),
            }),
        None => match candidates.as_slice() {
            [one] => Ok(one.0),
            [] => Err(TranslateError::NoEntryPoint {
                file: file.to_string(),
                found: found(module),
            }),
            _ => Err(TranslateError::AmbiguousEntry {
                file: file.to_string(),
                found: found(module),
            }),
        },
    }
}

/// A module reduced to one entry point, validated, with its overrides evaluated.
pub(crate) struct Prepared {
    pub module: Module,
    pub info: ModuleInfo,
}

/// Reduces `parsed` to entry point `index`, validates it and evaluates its override constants
/// (`overrides` by name or id; the shader's defaults for the rest).
pub(crate) fn prepare(
    parsed: &Parsed,
    index: usize,
    file: &str,
    overrides: &BTreeMap<String, f64>,
) -> Result<Prepared, TranslateError> {
    let source = parsed.source.as_deref();
    let ep = &parsed.module.entry_points[index];
    let entry_span = bounds::entry_span(&parsed.module, index, source);
    bounds::check_locations(&parsed.module, index, file, source)?;
    // Sound handles first: compaction needs them (other findings wait for the reduced module).
    if let Err(e) =
        Validator::new(ValidationFlags::empty(), capabilities()).validate(&parsed.module)
    {
        if matches!(e.as_inner(), naga::valid::ValidationError::InvalidHandle(_)) {
            return Err(invalid(file, source, &e, entry_span));
        }
    }
    let keep = ep.name.clone();
    let stage = ep.stage;
    let reduced = std::panic::catch_unwind(|| {
        let mut module = parsed.module.clone();
        module
            .entry_points
            .retain(|e| e.name == keep && e.stage == stage);
        naga::compact::compact(&mut module, naga::compact::KeepUnused::No);
        module
    });
    let module = match reduced {
        Ok(m) => m,
        // Compaction trips over what validation would refuse: naga's verdict on the whole.
        Err(_) => {
            let e = Validator::new(ValidationFlags::all(), capabilities())
                .validate(&parsed.module)
                .err();
            return Err(match e {
                Some(e) => invalid(file, source, &e, entry_span),
                None => TranslateError::Internal {
                    file: file.to_string(),
                },
            });
        }
    };
    bounds::check_types(&module, file, source, parsed.language)?;
    let info = Validator::new(ValidationFlags::all(), capabilities())
        .validate(&module)
        .map_err(|e| invalid(file, source, &e, entry_span))?;
    let mut constants = naga::back::PipelineConstants::default();
    for (k, v) in overrides {
        constants.insert(k.clone(), *v);
    }
    let (module, info) = naga::back::pipeline_constants::process_overrides(
        &module,
        &info,
        Some((stage, &keep)),
        &constants,
    )
    .map_err(|e| override_error(file, source, &module, e, overrides))?;
    Ok(Prepared {
        module: module.into_owned(),
        info: info.into_owned(),
    })
}

fn invalid(
    file: &str,
    source: Option<&str>,
    e: &naga::WithSpan<naga::valid::ValidationError>,
    fallback: naga::Span,
) -> TranslateError {
    TranslateError::Invalid(diagnostic::validation(file, source, e, fallback))
}

/// An override that has no value, or a value that does not fit, named with its place.
fn override_error(
    file: &str,
    source: Option<&str>,
    module: &Module,
    e: naga::back::pipeline_constants::PipelineConstantError,
    given: &BTreeMap<String, f64>,
) -> TranslateError {
    let unknown: Vec<&String> = given
        .keys()
        .filter(|k| {
            !module.overrides.iter().any(|(_, o)| {
                o.name.as_deref() == Some(k.as_str())
                    || o.id.map(|id| id.to_string()).as_deref() == Some(k.as_str())
            })
        })
        .collect();
    let message = if let Some(k) = unknown.first() {
        format!("--override {k}: the shader declares no override of that name")
    } else {
        format!(
            "{} (set it with --override NAME=VALUE)",
            diagnostic::chain(&e)
        )
    };
    let location = source.and_then(|src| {
        let (_, o) = module.overrides.iter().find(|(_, o)| o.init.is_none())?;
        let name = o.name.as_deref()?;
        let at = src.find(&format!("override {name}"))?;
        let l = naga::Span::new(at as u32, at as u32 + 1).location(src);
        Some((l.line_number, l.line_position))
    });
    TranslateError::Invalid(format!(
        "{}: error: {message}",
        crate::error::position(file, location)
    ))
}

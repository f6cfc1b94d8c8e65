//! `tgsi-core translate FILE -o OUT.tgsi [--entry NAME] [--override NAME=VALUE] [--bindings]`:
//! a WGSL, GLSL or SPIR-V shader, through naga, to TGSI text; prints the TGSI and core
//! instruction counts. `--bindings [FILE]` writes where the uniforms and textures went (JSON).
//! `tgsi-core translate --report DIR [--check]` translates every vertex and fragment entry point
//! of the shaders under DIR and counts what naga accepts, what translates and why the rest is
//! refused (`report.rs`).

use anyhow::{bail, Context, Result};
use clap::Args;
use microcode::compile::compile;
use microcode::core::CoreConfig;
use microcode::output::write_atomically;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `translate`.
#[derive(Args)]
pub struct TranslateArgs {
    /// Shader: `.wgsl`, `.frag` / `.vert` / `.glsl` (GLSL 4.50; `.glsl` is a fragment shader) or
    /// `.spv` (SPIR-V).
    #[arg(required_unless_present = "report")]
    pub file: Option<PathBuf>,
    /// TGSI text file to write (`-` for standard output).
    #[arg(short, long, required_unless_present_any = ["report", "bindings"])]
    pub output: Option<PathBuf>,
    /// Entry point to translate (needed when the file has several vertex / fragment ones).
    #[arg(long)]
    pub entry: Option<String>,
    /// `NAME=VALUE`: the value of an `override` constant (by name or numeric id); the others
    /// keep the shader's defaults.
    #[arg(
        long = "override",
        value_name = "NAME=VALUE",
        allow_hyphen_values = true
    )]
    pub overrides: Vec<String>,
    /// Write the binding map as JSON (uniform members to CONST registers and components,
    /// textures to SAMP units) to FILE, or to standard output without one.
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "-")]
    pub bindings: Option<PathBuf>,
    /// Translate every vertex and fragment entry point of the shaders under DIR and report what
    /// naga accepts, what translates and why the rest is refused.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["file", "output", "entry"])]
    pub report: Option<PathBuf>,
    /// With --report: also run every translation on the reference and the core model (fragment
    /// shaders rendered 8x8, vertex shaders one run) and count those whose results differ.
    #[arg(long, requires = "report")]
    pub check: bool,
}

/// `NAME=VALUE` pairs of `--override`.
pub fn parse_overrides(specs: &[String]) -> Result<BTreeMap<String, f64>> {
    let mut out = BTreeMap::new();
    for spec in specs {
        let (name, value) = spec
            .split_once('=')
            .with_context(|| format!("--override `{spec}`: expected NAME=VALUE"))?;
        let v = match value.trim() {
            "true" => 1.0,
            "false" => 0.0,
            t => t
                .parse::<f64>()
                .with_context(|| format!("--override `{spec}`: `{t}` is not a number"))?,
        };
        out.insert(name.trim().to_string(), v);
    }
    Ok(out)
}

/// Translates, writes the text, reports the counts (the core count when the program compiles for
/// the board's core).
pub fn run(a: TranslateArgs) -> Result<ExitCode> {
    if let Some(dir) = &a.report {
        return super::report::run(dir, a.check);
    }
    let Some(file) = &a.file else {
        bail!("translate: a shader file is needed");
    };
    let Some(language) = translate::language_of(file) else {
        bail!(
            "{}: not a shader the translator reads (expected .wgsl, .frag, .vert, .glsl or .spv)",
            file.display()
        );
    };
    let bytes = super::input::read_bytes(file)?;
    let name = file.display().to_string();
    let options = translate::Options {
        entry: a.entry.clone(),
        overrides: parse_overrides(&a.overrides)?,
    };
    let t = translate::translate_with(&bytes, language, &name, &options)?;
    match &a.output {
        Some(o) if o.as_os_str() == "-" => print!("{}", t.text),
        Some(o) => write_atomically(o, t.text.as_bytes())?,
        None => {}
    }
    match &a.bindings {
        Some(b) if b.as_os_str() == "-" => print!("{}", t.bindings.to_json()),
        Some(b) => write_atomically(b, t.bindings.to_json().as_bytes())?,
        None => {}
    }
    let core = match compile(&t.program, &CoreConfig::default()) {
        Ok(c) => format!("{} core instructions", c.image.code.len()),
        Err(e) => format!("does not compile for the board's core: {e}"),
    };
    eprintln!(
        "{name}: entry point {} ({:?}): {} TGSI instructions, {core}",
        t.entry,
        t.stage,
        t.program.instructions.len()
    );
    Ok(ExitCode::SUCCESS)
}

//! `tgsi-core translate FILE -o OUT.tgsi [--entry NAME]`: a WGSL, GLSL or SPIR-V shader, through
//! naga, to TGSI text; prints the TGSI and core instruction counts.

use anyhow::{bail, Result};
use clap::Args;
use microcode::compile::compile;
use microcode::core::CoreConfig;
use microcode::output::write_atomically;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `translate`.
#[derive(Args)]
pub struct TranslateArgs {
    /// Shader: `.wgsl`, `.frag` / `.vert` / `.glsl` (GLSL 4.50; `.glsl` is a fragment shader) or
    /// `.spv` (SPIR-V).
    pub file: PathBuf,
    /// TGSI text file to write (`-` for standard output).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Entry point to translate (needed when the file has several vertex / fragment ones).
    #[arg(long)]
    pub entry: Option<String>,
}

/// Translates, writes the text, reports the counts (the core count when the program compiles for
/// the board's core).
pub fn run(a: TranslateArgs) -> Result<ExitCode> {
    if translate::language_of(&a.file).is_none() {
        bail!(
            "{}: not a shader the translator reads (expected .wgsl, .frag, .vert, .glsl or .spv)",
            a.file.display()
        );
    }
    let bytes = super::input::read_bytes(&a.file)?;
    let language = translate::language_of(&a.file).unwrap_or(translate::Language::Wgsl);
    let name = a.file.display().to_string();
    let t = translate::translate(&bytes, language, &name, a.entry.as_deref())?;
    if a.output.as_os_str() == "-" {
        print!("{}", t.text);
    } else {
        write_atomically(&a.output, t.text.as_bytes())?;
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

//! Reading a program named on the command line: text or tokens (detected or forced), with errors
//! rendered against the file they came from.

use anyhow::{bail, Context, Result};
use clap::ValueEnum;
use microcode::tgsi::load::{self, Format, LoadError, Loaded};
use microcode::tgsi::validate::{validate, Limits};
use microcode::tgsi::Program;
use std::path::Path;

/// `--format` on every command that reads a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InputFormat {
    /// Detect from the bytes (tokens start with a VERSION word).
    Auto,
    /// TGSI text (either Mesa dialect).
    Text,
    /// Little-endian binary tokens.
    Tokens,
}

impl InputFormat {
    fn forced(self) -> Option<Format> {
        match self {
            InputFormat::Auto => None,
            InputFormat::Text => Some(Format::Text),
            InputFormat::Tokens => Some(Format::Tokens),
        }
    }
}

/// A program and where it came from.
pub struct Input {
    pub loaded: Loaded,
    pub name: String,
}

/// Reads and loads `path`; syntax errors come back rendered with the offending line and a caret.
pub fn read(path: &Path, format: InputFormat) -> Result<Input> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let name = path.display().to_string();
    match load::load(&bytes, format.forced()) {
        Ok(loaded) => Ok(Input { loaded, name }),
        Err(LoadError::Text(e)) => {
            let src = String::from_utf8_lossy(&bytes);
            bail!("{}", e.render(&src, &name).trim_end())
        }
        Err(e) => bail!("{name}: {e}"),
    }
}

/// Prints the decoder's warnings to stderr.
pub fn warn(input: &Input) {
    for w in &input.loaded.warnings {
        eprintln!("{}: warning: {w}", input.name);
    }
}

/// Validates a program; every error is printed, then the command fails.
pub fn require_valid(input: &Input) -> Result<()> {
    check_valid(&input.loaded.program, &input.name)
}

/// Validates `program`, naming `name` in the messages.
pub fn check_valid(program: &Program, name: &str) -> Result<()> {
    if let Err(errors) = validate(program, &Limits::default()) {
        for e in &errors {
            eprintln!("{name}:{e}");
        }
        bail!("{name}: {} validation error(s)", errors.len());
    }
    Ok(())
}

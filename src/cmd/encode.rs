//! `tgsi-core encode FILE -o OUT.tok`: a program to binary tokens.

use super::input::{self, InputFormat};
use anyhow::Result;
use clap::Args;
use microcode::output::write_atomically;
use microcode::tgsi::tokens;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `encode`.
#[derive(Args)]
pub struct EncodeArgs {
    /// Program to encode (TGSI text or tokens).
    pub file: PathBuf,
    /// Where to write the little-endian token stream.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Input format.
    #[arg(long, value_enum, default_value_t = InputFormat::Auto)]
    pub format: InputFormat,
}

/// Validates, encodes and writes the tokens (version 1.1, or 1.2 when the program needs it).
pub fn run(args: EncodeArgs) -> Result<ExitCode> {
    let input = input::read(&args.file, args.format)?;
    input::warn(&input);
    input::require_valid(&input)?;
    let words = tokens::encode(&input.loaded.program);
    write_atomically(&args.output, &tokens::to_bytes(&words))?;
    eprintln!("{}: {} words", args.output.display(), words.len());
    Ok(ExitCode::SUCCESS)
}

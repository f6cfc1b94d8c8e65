//! `tgsi-core decode FILE.tok`: binary tokens to canonical text.

use super::input::{self, InputFormat};
use anyhow::Result;
use clap::Args;
use microcode::tgsi::text::print;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `decode`.
#[derive(Args)]
pub struct DecodeArgs {
    /// Token stream to decode.
    pub file: PathBuf,
}

/// Decodes (tokens forced) and prints the text; warnings go to stderr.
pub fn run(args: DecodeArgs) -> Result<ExitCode> {
    let input = input::read(&args.file, InputFormat::Tokens)?;
    input::warn(&input);
    print!("{}", print(&input.loaded.program));
    Ok(ExitCode::SUCCESS)
}

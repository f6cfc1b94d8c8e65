//! `tgsi-core dump FILE`: text or tokens in, canonical text out.

use super::input::{self, InputFormat};
use anyhow::Result;
use clap::Args;
use microcode::tgsi::text::{print_with, PrintOptions};
use microcode::tgsi::validate::{validate, Limits};
use microcode::tgsi::Dialect;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `dump`.
#[derive(Args)]
pub struct DumpArgs {
    /// Program to print (TGSI text or binary tokens).
    pub file: PathBuf,
    /// Input format.
    #[arg(long, value_enum, default_value_t = InputFormat::Auto)]
    pub format: InputFormat,
    /// Print the Mesa 7.7 header (`FRAG1.1`) instead of `FRAG`.
    #[arg(long)]
    pub v11: bool,
}

/// Prints the canonical text of a program (it need not validate).
pub fn run(args: DumpArgs) -> Result<ExitCode> {
    let input = input::read(&args.file, args.format)?;
    input::warn(&input);
    // Only a valid program is sure to print as text that reads back (an empty write mask or a
    // reversed range from tokens has no text form); say so rather than print it silently.
    if let Err(errors) = validate(&input.loaded.program, &Limits::default()) {
        eprintln!(
            "{}: warning: the program does not validate ({} error(s), the first: {}); its text \
             may not read back",
            input.name,
            errors.len(),
            errors[0]
        );
    }
    let dialect = if args.v11 {
        Dialect::V11
    } else {
        Dialect::Modern
    };
    print!(
        "{}",
        print_with(&input.loaded.program, &PrintOptions { dialect })
    );
    Ok(ExitCode::SUCCESS)
}

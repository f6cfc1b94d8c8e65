//! `tgsi-core check FILE`: parse or decode, then validate; silent success, located errors.

use super::input::{self, InputFormat};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `check`.
#[derive(Args)]
pub struct CheckArgs {
    /// Programs to check (TGSI text or binary tokens).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Input format.
    #[arg(long, value_enum, default_value_t = InputFormat::Auto)]
    pub format: InputFormat,
}

/// Checks every file, reporting all of them before failing.
pub fn run(args: CheckArgs) -> Result<ExitCode> {
    let mut failed = 0;
    for file in &args.files {
        let outcome = input::read(file, args.format).and_then(|input| {
            input::warn(&input);
            if !input.loaded.program.executable {
                eprintln!(
                    "{}: warning: token stream of a newer minor version: loads, but will not run",
                    input.name
                );
            }
            input::require_valid(&input)?;
            Ok(input)
        });
        match outcome {
            Ok(input) => println!(
                "{}: ok ({} instructions)",
                input.name,
                input.loaded.program.instructions.len()
            ),
            Err(e) => {
                eprintln!("{e:#}");
                failed += 1;
            }
        }
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

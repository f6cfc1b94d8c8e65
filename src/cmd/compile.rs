//! `tgsi-core compile FILE -o OUT.img [--listing]`: TGSI -> core image for the board's core.

use super::input::{self, InputFormat};
use anyhow::{Context, Result};
use clap::Args;
use microcode::compile::compile;
use microcode::core::CoreConfig;
use microcode::output::write_atomically;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `compile`.
#[derive(Args)]
pub struct CompileArgs {
    /// Program (TGSI text or binary tokens).
    pub file: PathBuf,
    /// Image file to write.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Print the listing (each TGSI instruction and the core instructions it became).
    #[arg(long)]
    pub listing: bool,
    /// Input format.
    #[arg(long, value_enum, default_value_t = InputFormat::Auto)]
    pub format: InputFormat,
}

/// Compiles, writes the image (temporary file + rename), optionally prints the listing.
pub fn run(a: CompileArgs) -> Result<ExitCode> {
    let input = input::read(&a.file, a.format)?;
    input::warn(&input);
    input::require_valid(&input)?;
    let program = &input.loaded.program;
    let compiled = compile(program, &CoreConfig::default())
        .with_context(|| format!("compiling {}", input.name))?;
    write_atomically(&a.output, &compiled.image.to_bytes())?;
    let dops = compiled
        .image
        .code
        .iter()
        .filter(|i| i.op == microcode::core::isa::Op::Dop)
        .count();
    if dops > 0 {
        // The image is valid, but only the core model runs it: say so before the board does.
        eprintln!(
            "note: {}: {dops} double arithmetic instruction(s) compiled to the model-only DOP: \
             the program cannot hold the binary64 library beside its own registers and \
             instructions (it needs {} registers of R and about 150 + 40-85 per operation of \
             the {} instructions); the core model runs it, the hardware refuses it",
            input.name,
            microcode::compile::LIBRARY_REGISTERS,
            CoreConfig::default().program_size
        );
    }
    if a.listing {
        print!("{}", compiled.listing(program));
    }
    Ok(ExitCode::SUCCESS)
}

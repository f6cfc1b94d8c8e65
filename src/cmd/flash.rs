//! `tgsi-core flash FILE.bin`: programs the Alchitry Cu's configuration flash with iceprog.

use anyhow::{bail, Context, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use toolchain::{find, Tool};

/// Arguments of `flash`.
#[derive(Args)]
pub struct FlashArgs {
    /// Bitstream written by `tgsi-core synth` (e.g. out/synth/top.bin).
    pub file: PathBuf,
}

/// Checks the bitstream, then hands it to iceprog, whose output goes straight to the terminal.
pub fn run(args: FlashArgs) -> Result<ExitCode> {
    let meta = std::fs::metadata(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    // An HX8K bitstream from icepack is 135,100 bytes; anything far off is not one.
    if !(100_000..=200_000).contains(&meta.len()) {
        bail!(
            "{} is {} bytes, not an iCE40 HX8K bitstream (icepack writes 135,100)",
            args.file.display(),
            meta.len()
        );
    }
    // The lookup error already says how to get iceprog.
    let iceprog = find(Tool::Iceprog)?;
    let status = iceprog
        .command()
        .arg(&args.file)
        .status()
        .context("cannot start iceprog")?;
    if !status.success() {
        bail!("iceprog failed ({status}); is the board connected and not in use?");
    }
    Ok(ExitCode::SUCCESS)
}

//! `tgsi-core disasm OUT.img`: print a core image as a listing.

use anyhow::{Context, Result};
use clap::Args;
use microcode::core::disasm::listing;
use microcode::core::Image;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `disasm`.
#[derive(Args)]
pub struct DisasmArgs {
    /// Core image written by `tgsi-core compile`.
    pub image: PathBuf,
}

/// Reads, checks and prints the image.
pub fn run(a: DisasmArgs) -> Result<ExitCode> {
    let bytes = super::input::read_bytes(&a.image)?;
    super::input::require_image(&bytes, &a.image)?;
    let img = Image::from_bytes(&bytes).with_context(|| format!("{}", a.image.display()))?;
    print!("{}", listing(&img));
    Ok(ExitCode::SUCCESS)
}

//! `tgsi-core load --port PATH FILE`: compile (if TGSI), upload over the serial loader, verify, commit.

use super::input::{self, InputFormat};
use anyhow::{Context, Result};
use clap::Args;
use firmware_loader::host::{Client, ClientOptions};
use firmware_loader::image::{self, ImageFile};
use firmware_loader::port::SerialTransport;
use firmware_loader::protocol::DEFAULT_BAUD;
use indicatif::{ProgressBar, ProgressStyle};
use microcode::compile::compile;
use microcode::core::CoreConfig;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Where the board is and how to talk to it (shared by `load` and `selftest`).
#[derive(Args, Clone, Debug)]
pub struct PortArgs {
    /// Serial port of the board (see `tgsi-core ports`), e.g. /dev/ttyUSB1.
    #[arg(long)]
    pub port: String,
    /// Line rate to switch to after connecting (the device starts at 115200; up to 3000000).
    #[arg(long, default_value_t = DEFAULT_BAUD)]
    pub baud: u32,
    /// Wait per attempt for an answer, in milliseconds.
    #[arg(long, default_value_t = 250)]
    pub timeout_ms: u64,
    /// Attempts after the first before giving up.
    #[arg(long, default_value_t = 8)]
    pub retries: u32,
}

/// Arguments of `load`.
#[derive(Args)]
pub struct LoadArgs {
    #[command(flatten)]
    pub link: PortArgs,
    /// A core image (from `tgsi-core compile`) or a TGSI program (text or tokens), compiled for the
    /// board's core.
    pub file: PathBuf,
}

/// Opens the port at the power-up rate and switches to the requested one.
pub fn connect(link: &PortArgs) -> Result<Client<SerialTransport>> {
    let t = SerialTransport::open(&link.port, DEFAULT_BAUD)?;
    let opts = ClientOptions {
        timeout: Duration::from_millis(link.timeout_ms),
        retries: link.retries,
        ..ClientOptions::default()
    };
    let mut client = Client::new(t, opts);
    if link.baud != DEFAULT_BAUD {
        client
            .set_baud(link.baud)
            .with_context(|| format!("{}: switching to {} baud", link.port, link.baud))?;
    }
    Ok(client)
}

/// Reads an image file, or compiles a TGSI program (text or tokens) for the board's core.
pub fn read_image(path: &Path) -> Result<ImageFile> {
    let bytes = std::fs::read(path).with_context(|| format!("{}: cannot read", path.display()))?;
    if image::is_image(&bytes) {
        return image::parse(&bytes).with_context(|| format!("{}", path.display()));
    }
    let input = input::read(path, InputFormat::Auto).with_context(|| {
        format!(
            "{}: neither a core image nor a TGSI program",
            path.display()
        )
    })?;
    input::warn(&input);
    input::require_valid(&input)?;
    let compiled = compile(&input.loaded.program, &CoreConfig::default())
        .with_context(|| format!("compiling {}", input.name))?;
    // The loader reads the same bytes `tgsi-core compile` would write.
    image::parse(&compiled.image.to_bytes())
        .with_context(|| format!("{}: compiled image", input.name))
}

fn progress_bar(total: usize) -> ProgressBar {
    let pb = ProgressBar::new(total as u64);
    let style = ProgressStyle::with_template(
        "{msg} [{bar:40}] {bytes}/{total_bytes} ({bytes_per_sec}, {eta})",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar())
    .progress_chars("=> ");
    pb.set_style(style);
    pb.set_message("uploading");
    pb
}

/// Uploads, verifies and commits.
pub fn run(args: LoadArgs) -> Result<ExitCode> {
    let image = read_image(&args.file)?;
    let mut client = connect(&args.link)?;
    let pb = progress_bar(image.upload.total_bytes());
    let result = client.upload(&image.upload, &mut |done, _| pb.set_position(done as u64));
    pb.finish_and_clear();
    let report = result.with_context(|| format!("{}: upload", args.link.port))?;
    println!(
        "{}: loaded {} ({} bytes, CRC {:08x}), committed and verified in {:.2} s ({} retries)",
        args.link.port,
        args.file.display(),
        report.bytes,
        report.crc,
        report.elapsed.as_secs_f64(),
        report.stats.attempts - report.stats.requests
    );
    Ok(ExitCode::SUCCESS)
}

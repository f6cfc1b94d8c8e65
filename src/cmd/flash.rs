//! `tgsi-core flash FILE`: puts a bitstream on its board. An iCE40 bitstream (`synth`'s
//! `top.bin` for the Alchitry Cu) goes to the board's configuration flash with iceprog; an ECP5
//! bitstream (`top.bit` for the ULX3S) with openFPGALoader, or fujprog when only that is
//! installed. Neither ECP5 programmer is part of the pinned toolchain (not on PyPI): without one
//! the command names both and the exact command line, instead of failing obscurely.

use anyhow::{bail, Context, Result};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use toolchain::{find, Tool};

/// Arguments of `flash`.
#[derive(Args)]
pub struct FlashArgs {
    /// Bitstream written by `tgsi-core synth` (out/synth/top.bin for the Alchitry Cu,
    /// out/synth-ulx3s-85f/top.bit for a ULX3S).
    pub file: PathBuf,
    /// ECP5 only: load the bitstream into the FPGA's configuration memory (lost at power-off)
    /// instead of writing the board's flash.
    #[arg(long)]
    pub sram: bool,
}

/// What a bitstream file is, from its size and first bytes.
#[derive(Debug, PartialEq, Eq)]
pub enum Bitstream {
    /// An iCE40 HX8K bitstream from icepack.
    Ice40,
    /// An ECP5 bitstream from ecppack.
    Ecp5,
}

/// The ECP5 bitstream's preamble (`0xBD B3`, after ecppack's comment block of `0xFF 0x00 ...
/// 0x00 0xFF` when it has one).
const ECP5_PREAMBLE: [u8; 4] = [0xFF, 0xFF, 0xBD, 0xB3];

/// Tells an iCE40 bitstream from an ECP5 one (`None`: neither): an ECP5 bitstream has the
/// ECP5 preamble near its start; an HX8K bitstream from icepack is 135,100 bytes whatever the
/// design, so a file of about that size is taken for one.
pub fn classify(bytes: &[u8]) -> Option<Bitstream> {
    let ecp5 = bytes.windows(4).take(4096).any(|w| w == ECP5_PREAMBLE);
    if ecp5 && bytes.len() >= 100_000 {
        return Some(Bitstream::Ecp5);
    }
    (100_000..=200_000)
        .contains(&bytes.len())
        .then_some(Bitstream::Ice40)
}

/// Checks the bitstream, then hands it to its programmer, whose output goes straight to the
/// terminal.
pub fn run(args: FlashArgs) -> Result<ExitCode> {
    let bytes = std::fs::read(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    match classify(&bytes) {
        Some(Bitstream::Ice40) => ice40(&args.file),
        Some(Bitstream::Ecp5) => ecp5(&args.file, args.sram),
        None => bail!(
            "{} ({} bytes) is not an iCE40 HX8K bitstream (icepack writes 135,100 bytes) nor an \
             ECP5 one (ecppack's `.bit`): give the bitstream `tgsi-core synth` wrote \
             (out/synth/top.bin, out/synth-ulx3s-85f/top.bit)",
            args.file.display(),
            bytes.len()
        ),
    }
}

fn ice40(file: &Path) -> Result<ExitCode> {
    // The lookup error already says how to get iceprog.
    let iceprog = find(Tool::Iceprog)?;
    let status = iceprog
        .command()
        .arg(file)
        .status()
        .context("cannot start iceprog")?;
    if !status.success() {
        bail!("iceprog failed ({status}); is the board connected and not in use?");
    }
    Ok(ExitCode::SUCCESS)
}

/// The ECP5 programmers, best first: the program, the variable that names it, and its
/// arguments for the flash and for SRAM.
const ECP5_PROGRAMMERS: [(&str, &str, &[&str], &[&str]); 2] = [
    (
        "openFPGALoader",
        "TGSI_OPENFPGALOADER",
        &["--board", "ulx3s", "--write-flash"],
        &["--board", "ulx3s"],
    ),
    ("fujprog", "TGSI_FUJPROG", &["-j", "flash"], &[]),
];

/// The command line of `programmer` for `file`.
fn command_line(args: &[&str], program: &str, file: &Path) -> String {
    let mut line = vec![program.to_string()];
    line.extend(args.iter().map(|a| a.to_string()));
    line.push(file.display().to_string());
    line.join(" ")
}

fn on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

fn ecp5(file: &Path, sram: bool) -> Result<ExitCode> {
    for (program, var, flash_args, sram_args) in ECP5_PROGRAMMERS {
        let args = if sram { sram_args } else { flash_args };
        let found = std::env::var_os(var)
            .map(PathBuf::from)
            .or_else(|| on_path(program));
        let Some(exe) = found else { continue };
        eprintln!(
            "flash: {}",
            command_line(args, &exe.display().to_string(), file)
        );
        let status = Command::new(&exe)
            .args(args)
            .arg(file)
            .status()
            .with_context(|| format!("cannot start {}", exe.display()))?;
        if !status.success() {
            bail!(
                "{program} failed ({status}); is the ULX3S connected by its US1 port (the FT231X) \
                 and not in use by another program (a serial terminal, `tgsi-core selftest`)?"
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let how: Vec<String> = ECP5_PROGRAMMERS
        .iter()
        .map(|(program, var, flash_args, sram_args)| {
            format!(
                "  {}   (into SRAM: {}; or set {var} to the program)",
                command_line(flash_args, program, file),
                command_line(sram_args, program, file)
            )
        })
        .collect();
    bail!(
        "{} is an ECP5 bitstream for the ULX3S; programming it needs openFPGALoader or fujprog, \
         neither of which is on PATH (they are not part of the pinned toolchain: install \
         openFPGALoader from your distribution, e.g. `apt-get install openfpgaloader`, or fujprog \
         from the ULX3S project). With the board on its US1 USB port, run one of:\n{}",
        file.display(),
        how.join("\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_the_families_apart() {
        let mut ice40 = vec![0u8; 135_100];
        ice40[..4].copy_from_slice(&[0x7E, 0xAA, 0x99, 0x7E]);
        assert_eq!(classify(&ice40), Some(Bitstream::Ice40));
        // ecppack: a comment block, then the preamble.
        let mut ecp5 = vec![0xFF, 0x00, b'x', 0x00, 0xFF];
        ecp5.extend_from_slice(&ECP5_PREAMBLE);
        ecp5.resize(1_900_000, 0);
        assert_eq!(classify(&ecp5), Some(Bitstream::Ecp5));
        assert_eq!(classify(&[0u8; 135_100]), Some(Bitstream::Ice40));
        assert_eq!(classify(&[0u8; 1_000_000]), None);
        assert_eq!(classify(b"hello"), None);
    }
}

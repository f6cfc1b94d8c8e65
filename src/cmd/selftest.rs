//! `tgsi-core selftest --port PATH`: the bring-up check of a new board.
//!
//! Today it checks the loader: INFO, STATUS, upload of a built-in pattern image, COMMIT, STATUS CRC
//! and a read-back, then leaves the board with no image. The per-unit programs compared with the core
//! model come with the core (they need `microcode::compile` and the core model).

use super::load::{connect, PortArgs};
use anyhow::{bail, Context, Result};
use clap::Args;
use firmware_loader::image::Upload;
use firmware_loader::protocol::{Begin, LoadState, Region, IMAGE_REGIONS};
use std::process::ExitCode;

/// Arguments of `selftest`.
#[derive(Args)]
pub struct SelftestArgs {
    #[command(flatten)]
    pub link: PortArgs,
}

/// A deterministic pattern that exercises every byte value, escapes included.
fn pattern(len: usize, salt: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(salt) ^ (i >> 8) as u8)
        .collect()
}

/// Runs the checks, printing one line per step.
pub fn run(args: SelftestArgs) -> Result<ExitCode> {
    let port = &args.link.port;
    let mut c = connect(&args.link)?;
    let info = c.info().with_context(|| format!("{port}: INFO"))?;
    println!(
        "INFO: core {}.{}, ISA hash {:08x}, features {:#x}, clock {} Hz, {} baud",
        info.core_version.0,
        info.core_version.1,
        info.isa_hash,
        info.features,
        info.clock_hz,
        info.baud
    );
    let l = info.limits;
    println!(
        "      program {} B, constants {} B, textures {} B, maps {} B, inputs {} B, outputs {} B, params {} B, {} quads per run",
        l.program, l.constants, l.textures, l.maps, l.inputs, l.outputs, l.params, l.max_quads
    );
    let s = c.status().with_context(|| format!("{port}: STATUS"))?;
    println!("STATUS: {:?}, active CRC {:08x}", s.state, s.active_crc);

    // The pattern is not a program: it is the device's own ISA so the loader accepts it, and it is
    // never left active.
    let sizes = [l.program, l.constants, l.textures, l.maps].map(|n| (n as usize).min(1024));
    let image = Upload {
        isa_hash: info.isa_hash,
        regions: [
            pattern(sizes[0], 1),
            pattern(sizes[1], 2),
            pattern(sizes[2], 3),
            pattern(sizes[3], 4),
        ],
    };
    let report = c
        .upload(&image, &mut |_, _| {})
        .with_context(|| format!("{port}: upload of the loader pattern"))?;
    println!(
        "upload: {} bytes committed, STATUS CRC {:08x} matches ({} retries)",
        report.bytes,
        report.crc,
        report.stats.attempts - report.stats.requests
    );
    for (data, region) in image.regions.iter().zip(Region::IMAGE) {
        let back = c.read_region(region, 0, data.len())?;
        if &back != data {
            bail!("{port}: read-back of {region:?} differs from what was written");
        }
    }
    println!("read-back: all image regions match");
    c.begin(&Begin {
        isa_hash: info.isa_hash,
        lengths: [0; IMAGE_REGIONS],
    })?;
    c.reset()?;
    let s = c.status()?;
    if s.state != LoadState::NoImage {
        bail!("{port}: after RESET the device reports {:?}", s.state);
    }
    println!("cleanup: pattern invalidated, no image active");
    println!("core unit programs: not run (they need the core compiler and core model)");
    println!("selftest: loader OK");
    Ok(ExitCode::SUCCESS)
}

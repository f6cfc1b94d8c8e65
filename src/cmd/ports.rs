//! `tgsi-core ports`: the serial ports the system knows, with what `serialport` can tell about them.

use anyhow::Result;
use clap::Args;
use std::process::ExitCode;

/// Arguments of `ports` (none).
#[derive(Args)]
pub struct PortsArgs {}

/// Lists the ports.
pub fn run(_args: PortsArgs) -> Result<ExitCode> {
    let ports = firmware_loader::port::list_ports()?;
    if ports.is_empty() {
        println!("no serial ports found (is the board plugged in?)");
    }
    for p in ports {
        println!("{}\t{}", p.path, p.details);
    }
    Ok(ExitCode::SUCCESS)
}

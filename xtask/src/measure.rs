//! `cargo xtask measure [blocks|core]`: the area, Fmax and simulation speed of the hardware
//! blocks (`hdl/examples/measure.rs`: yosys, nextpnr-ice40 and Verilator, minutes), printed as
//! the markdown rows of `hdl/README.md`'s tables. A measurement, so not part of the test suite.

use std::process::ExitCode;

use crate::cargo_run;

/// Entry point: `cargo run --release -p hdl --example measure -- ARGS` once the tools are there.
pub fn run(args: &[String]) -> anyhow::Result<ExitCode> {
    if let Some(bad) = args
        .iter()
        .find(|a| !matches!(a.as_str(), "blocks" | "core"))
    {
        anyhow::bail!("measure takes `blocks`, `core` or nothing (both), got `{bad}`");
    }
    cargo_run::after_setup(
        "measure",
        &cargo_run::run_args(
            &["--quiet", "--release", "-p", "hdl", "--example", "measure"],
            args,
        ),
    )
}

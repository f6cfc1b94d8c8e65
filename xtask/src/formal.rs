//! `cargo xtask formal [ARGS...]`: the formal proofs (`formal/`), after setting the pinned
//! toolchain up when it is missing or stale (yosys and the Bitwuzla solver come from it).

use std::process::ExitCode;

use crate::cargo_run;

/// Entry point: `cargo run -p formal -- ARGS` once the tools are there.
pub fn run(args: &[String]) -> anyhow::Result<ExitCode> {
    cargo_run::after_setup(
        "formal",
        &cargo_run::run_args(&["--quiet", "-p", "formal"], args),
    )
}

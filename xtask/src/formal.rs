//! `cargo xtask formal [ARGS...]`: the formal proofs (`formal/`), after setting the pinned
//! toolchain up when it is missing or stale (yosys and the Bitwuzla solver come from it).

use std::process::{Command, ExitCode};

use anyhow::Context;
use toolchain::Lookup;

use crate::{say, setup, test};

/// Entry point: `cargo run -p formal -- ARGS` once the tools are there.
pub fn run(args: &[String]) -> anyhow::Result<ExitCode> {
    let (root, layout) = setup::target()?;
    if test::needs_setup(&Lookup::from_process(), &root)? {
        say(
            "formal",
            "the pinned toolchain is missing or stale: running `cargo xtask setup` first",
        );
        setup::ensure(&root, &layout, false)?;
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let mut cargo_args: Vec<String> = ["run", "--quiet", "-p", "formal", "--"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    cargo_args.extend(args.iter().cloned());
    say("formal", format!("running: cargo {}", cargo_args.join(" ")));
    let status = Command::new(&cargo)
        .args(&cargo_args)
        .current_dir(&root)
        .status()
        .with_context(|| format!("could not start `{cargo} run -p formal`"))?;
    Ok(if status.success() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(
            status
                .code()
                .and_then(|c| u8::try_from(c).ok())
                .unwrap_or(1),
        )
    })
}

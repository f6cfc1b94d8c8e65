//! The tasks that run one of the workspace's programs on the pinned toolchain (`formal`,
//! `measure`): set the toolchain up when it is missing or stale, then `cargo run` the program
//! with the caller's arguments and hand back its exit status.

use std::process::{Command, ExitCode};

use anyhow::Context;
use toolchain::{Lookup, REQUIRE_TOOLS_VAR};

use crate::{say, setup, test};

/// Runs `cargo ARGS` (a `run` of the program, then `--` and its arguments) in the workspace
/// after the setup, with `TGSI_REQUIRE_TOOLS=1`: a tool still missing is an error there, never
/// a row silently left out. `task` names the progress lines.
pub fn after_setup(task: &str, cargo_args: &[String]) -> anyhow::Result<ExitCode> {
    let (root, layout) = setup::target()?;
    if test::needs_setup(&Lookup::from_process(), &root)? {
        say(
            task,
            "the pinned toolchain is missing or stale: running `cargo xtask setup` first",
        );
        setup::ensure(&root, &layout, false)?;
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    say(task, format!("running: cargo {}", cargo_args.join(" ")));
    let status = Command::new(&cargo)
        .args(cargo_args)
        .current_dir(&root)
        .env(REQUIRE_TOOLS_VAR, "1")
        .status()
        .with_context(|| format!("could not start `{cargo} {}`", cargo_args.join(" ")))?;
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

/// `run ARGS... --` followed by `program_args`: a cargo command line for [`after_setup`].
pub fn run_args(run: &[&str], program_args: &[String]) -> Vec<String> {
    let mut args: Vec<String> = std::iter::once("run")
        .chain(run.iter().copied())
        .chain(std::iter::once("--"))
        .map(str::to_string)
        .collect();
    args.extend(program_args.iter().cloned());
    args
}

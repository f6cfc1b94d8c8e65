//! `cargo xtask test`: set the toolchain up when needed, then `cargo test --workspace`.

use std::process::{Command, ExitCode};

use anyhow::Context;
use toolchain::{Lookup, Source, Tool, ToolError};

use crate::say;
use crate::setup;
use crate::stamp::{self, requirements_file, State};

/// Entry point of `cargo xtask test ARGS...`.
pub fn run(args: &[String]) -> anyhow::Result<ExitCode> {
    let (root, layout) = setup::target()?;
    if needs_setup(&Lookup::from_process(), &root)? {
        say(
            "test",
            "the pinned toolchain is missing or stale: running `cargo xtask setup` first",
        );
        setup::ensure(&root, &layout, false)?;
    } else {
        say(
            "test",
            "toolchain ready (`cargo xtask doctor` shows where each tool comes from)",
        );
    }

    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let mut cargo_args = vec!["test".to_string()];
    // `--workspace` would override a package selection given by the caller.
    let selects_packages = args
        .iter()
        .take_while(|arg| *arg != "--")
        .any(|arg| arg.starts_with("-p") || arg.starts_with("--package"));
    if !selects_packages {
        cargo_args.push("--workspace".to_string());
    }
    cargo_args.extend(args.iter().cloned());
    say("test", format!("running: cargo {}", cargo_args.join(" ")));
    let status = Command::new(&cargo)
        .args(&cargo_args)
        .current_dir(&root)
        .status()
        .with_context(|| format!("could not start `{cargo} test`"))?;
    // The models without the hardware engines (`sim`'s default feature `hardware` off) must
    // build and pass on their own: users of the models do not compile rust-hdl.
    let status = if status.success() && !selects_packages {
        let models = ["test", "-p", "sim", "--no-default-features", "--lib"];
        say("test", format!("running: cargo {}", models.join(" ")));
        Command::new(&cargo)
            .args(models)
            .current_dir(&root)
            .status()
            .with_context(|| format!("could not start `{cargo} test`"))?
    } else {
        status
    };
    if status.success() {
        say("test", "all tests passed");
        Ok(ExitCode::SUCCESS)
    } else {
        say("test", format!("cargo test failed ({status})"));
        Ok(ExitCode::from(
            status
                .code()
                .and_then(|c| u8::try_from(c).ok())
                .unwrap_or(1),
        ))
    }
}

/// Setup is needed when some pinned tool is missing, or comes from a venv installed from other
/// requirements; tools named by `TGSI_*` variables or taken from PATH need none.
fn needs_setup(lookup: &Lookup, root: &std::path::Path) -> anyhow::Result<bool> {
    for tool in Tool::PINNED {
        match lookup.find(tool) {
            Ok(found) => {
                if let Source::Venv(dir) = &found.source {
                    let venv_layout = toolchain::ToolchainLayout::new(dir);
                    if stamp::state(&venv_layout, &requirements_file(root))? != State::Ready {
                        return Ok(true);
                    }
                }
            }
            // Setup cannot repair a TGSI_* variable that names nothing.
            Err(error @ ToolError::BadEnvVar { .. }) => return Err(error.into()),
            Err(_) => return Ok(true),
        }
    }
    Ok(false)
}

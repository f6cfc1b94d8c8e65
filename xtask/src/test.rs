//! `cargo xtask test`: set the toolchain up when needed, then the workspace's tests (with
//! `cargo nextest` when it is installed and no arguments are given, else `cargo test`), with
//! `TGSI_REQUIRE_TOOLS=1`: a test whose tool or corpus is missing fails instead of skipping.

use std::process::{Command, ExitCode};

use anyhow::Context;
use toolchain::{Lookup, Source, Tool, ToolError, REQUIRE_TOOLS_VAR};

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
    // `--workspace` would override a package selection given by the caller.
    let selects_packages = args
        .iter()
        .take_while(|arg| *arg != "--")
        .any(|arg| arg.starts_with("-p") || arg.starts_with("--package"));
    let run = |cargo_args: &[String]| {
        say("test", format!("running: cargo {}", cargo_args.join(" ")));
        Command::new(&cargo)
            .args(cargo_args)
            .current_dir(&root)
            .env(REQUIRE_TOOLS_VAR, "1")
            .status()
            .with_context(|| format!("could not start `{cargo} {}`", cargo_args[0]))
    };
    let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    // The whole suite (no arguments: what CI runs) with nextest when it is installed: both
    // cores stay busy across test binaries, the slowest tests first (`.config/nextest.toml`);
    // doc tests then run through cargo, which nextest does not. With arguments, or without
    // nextest, `cargo test` as the arguments say.
    let status = if args.is_empty() && has_nextest(&cargo, &root) {
        let status = run(&words(&["nextest", "run", "--workspace"]))?;
        if status.success() {
            run(&words(&["test", "--workspace", "--doc"]))?
        } else {
            status
        }
    } else {
        let mut cargo_args = vec!["test".to_string()];
        if !selects_packages {
            cargo_args.push("--workspace".to_string());
        }
        cargo_args.extend(args.iter().cloned());
        run(&cargo_args)?
    };
    // The models without the hardware engines (`sim`'s default feature `hardware` off) must
    // build and pass on their own: users of the models do not compile rust-hdl.
    let status = if status.success() && !selects_packages {
        let models = ["test", "-p", "sim", "--no-default-features", "--lib"];
        say("test", format!("running: cargo {}", models.join(" ")));
        Command::new(&cargo)
            .args(models)
            .current_dir(&root)
            .env(REQUIRE_TOOLS_VAR, "1")
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

/// The oldest nextest that reads `.config/nextest.toml` (its `priority` overrides came in 0.9.91).
const NEXTEST_MIN: (u32, u32, u32) = (0, 9, 91);

/// Whether `cargo nextest` runs here and is new enough for the repository's configuration.
fn has_nextest(cargo: &str, root: &std::path::Path) -> bool {
    let Ok(out) = Command::new(cargo)
        .args(["nextest", "--version"])
        .current_dir(root)
        .stderr(std::process::Stdio::null())
        .output()
    else {
        return false;
    };
    match nextest_version(&String::from_utf8_lossy(&out.stdout)) {
        Some(v) if out.status.success() => {
            if v < NEXTEST_MIN {
                say(
                    "test",
                    format!("cargo nextest {v:?} is older than {NEXTEST_MIN:?}: using cargo test"),
                );
            }
            v >= NEXTEST_MIN
        }
        _ => false,
    }
}

/// The version `cargo nextest --version` prints on its first line
/// (`cargo-nextest 0.9.143 (60fa45f63 2026-08-04)`).
fn nextest_version(text: &str) -> Option<(u32, u32, u32)> {
    let mut n = text.split_whitespace().nth(1)?.split('.').map(str::parse);
    Some((n.next()?.ok()?, n.next()?.ok()?, n.next()?.ok()?))
}

/// Setup is needed when some pinned tool is missing, or comes from a venv installed from other
/// requirements; tools named by `TGSI_*` variables or taken from PATH need none.
pub(crate) fn needs_setup(lookup: &Lookup, root: &std::path::Path) -> anyhow::Result<bool> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_nextest_versions() {
        assert_eq!(
            nextest_version("cargo-nextest 0.9.143 (60fa45f63 2026-08-04)\nrelease: 0.9.143\n"),
            Some((0, 9, 143))
        );
        assert!(nextest_version("cargo-nextest 0.9.90").unwrap() < NEXTEST_MIN);
        assert_eq!(nextest_version("error: no such command: `nextest`"), None);
        assert_eq!(nextest_version(""), None);
    }
}

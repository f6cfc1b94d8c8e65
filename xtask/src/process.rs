//! Running helper programs (python3, pip, apt-get, the tools' version queries).

use std::fs;

use std::process::{Command, Stdio};

use anyhow::{bail, Context};
use toolchain::{Tool, ToolPath, ToolchainLayout};

/// The Python interpreter used to create the venv (`TGSI_PYTHON`, default `python3`).
pub fn python() -> String {
    std::env::var("TGSI_PYTHON")
        .ok()
        .filter(|value| !value.is_empty())
        .unwrap_or_else(|| "python3".to_string())
}

/// Runs `cmd` with the terminal as its stdout/stderr, so its progress shows; fails on a bad exit.
pub fn run_visible(cmd: &mut Command, what: &str) -> anyhow::Result<()> {
    let status = cmd
        .stdin(Stdio::null())
        .status()
        .with_context(|| format!("could not start {what} ({:?})", cmd.get_program()))?;
    if !status.success() {
        bail!("{what} failed ({status})");
    }
    Ok(())
}

/// Runs `cmd` quietly and tells whether it exited successfully (false if it could not start).
pub fn succeeds(cmd: &mut Command) -> bool {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|status| status.success())
        .unwrap_or(false)
}

/// The first line a program prints for `args` (stdout, else stderr), if it runs.
pub fn first_line(cmd: &mut Command) -> Option<String> {
    let output = cmd.stdin(Stdio::null()).output().ok()?;
    let lines = |bytes: &[u8]| {
        String::from_utf8_lossy(bytes)
            .lines()
            .map(str::trim)
            .find(|line| !line.is_empty() && !line.starts_with("Preparing to run"))
            .map(str::to_string)
    };
    lines(&output.stdout).or_else(|| lines(&output.stderr))
}

/// The arguments that make a tool print its version: `--version`, except for Bitwuzla, a
/// Python interpreter that must import the module to tell its version.
pub fn version_args(found: &ToolPath) -> Vec<&'static str> {
    match found.tool {
        Tool::Bitwuzla => vec![
            "-c",
            "import bitwuzla; print('Bitwuzla', bitwuzla.version())",
        ],
        _ => vec!["--version"],
    }
}

/// The tool's own version line (`--version`); icepack has none and reports its package instead.
pub fn version_line(found: &ToolPath) -> anyhow::Result<String> {
    let args = version_args(found);
    let output = found
        .command()
        .args(&args)
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("could not start {}", found.program.display()))?;
    if !output.status.success() {
        bail!(
            "`{} {}` failed ({}): {}",
            found.program.display(),
            args.join(" "),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(first_line(found.command().args(&args)).unwrap_or_default())
}

/// Whether this process runs as root (`id -u` prints 0).
pub fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
        .unwrap_or(false)
}

/// Whether this is a CI run (`CI=true` or `CI=1`).
pub fn in_ci() -> bool {
    matches!(std::env::var("CI").as_deref(), Ok("true" | "1"))
}

/// The packages installed in the venv with their versions, from the `*.dist-info` directories.
pub fn installed_packages(layout: &ToolchainLayout) -> Vec<(String, String)> {
    let Some(site) = layout.site_packages() else {
        return Vec::new();
    };
    let mut packages: Vec<(String, String)> = fs::read_dir(site)
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let stem = name.strip_suffix(".dist-info")?;
            let (package, version) = stem.split_once('-')?;
            Some((
                package.replace('_', "-").to_lowercase(),
                version.to_string(),
            ))
        })
        .collect();
    packages.sort();
    packages
}

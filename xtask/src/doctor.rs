//! `cargo xtask doctor`: what is found where.

use std::process::{Command, ExitCode};

use toolchain::{workspace_root, Lookup, Tool, NATIVE_TOOLS_VAR, TOOLCHAIN_DIR_VAR};

use crate::process::{first_line, installed_packages, python, succeeds, version_args};
use crate::stamp::{self, requirements_file, State};

/// Entry point of `cargo xtask doctor`; exits 1 when a pinned tool is missing.
pub fn run() -> anyhow::Result<ExitCode> {
    let lookup = Lookup::from_process();
    let root = workspace_root();
    println!(
        "workspace root:   {}",
        root.as_ref()
            .map_or("(not found)".to_string(), |r| r.display().to_string())
    );
    for var in Tool::ALL.iter().map(|tool| tool.env_var()).chain([
        TOOLCHAIN_DIR_VAR,
        NATIVE_TOOLS_VAR,
        "TGSI_PYTHON",
    ]) {
        if let Some(value) = std::env::var_os(var) {
            println!("${var} = {}", value.to_string_lossy());
        }
    }
    for layout in lookup.layouts() {
        let state = match &root {
            Some(root) => match stamp::state(&layout, &requirements_file(root))? {
                State::Ready => "installed, up to date",
                State::Stale => "installed from other requirements: run `cargo xtask setup`",
                State::Missing => "not installed: run `cargo xtask setup`",
            },
            None => "unknown (no workspace root)",
        };
        println!("toolchain dir:    {} ({state})", layout.dir.display());
        for (package, version) in installed_packages(&layout) {
            println!("    {package} {version}");
        }
    }

    let python = python();
    let python_version = first_line(Command::new(&python).arg("--version"));
    let venv_ok = succeeds(Command::new(&python).args(["-c", "import venv, ensurepip"]));
    println!(
        "python:           {python}: {} (venv support: {})",
        python_version.as_deref().unwrap_or("NOT FOUND"),
        if venv_ok {
            "yes"
        } else {
            "NO: apt-get install python3-venv"
        }
    );
    for (program, why) in [
        ("perl", "verilator"),
        ("g++", "verilator --binary/--cc builds"),
    ] {
        let version = first_line(Command::new(program).arg("--version"));
        println!(
            "{:<17} {} (needed by {why})",
            format!("{program}:"),
            version.as_deref().unwrap_or("NOT FOUND")
        );
    }

    let mut missing = false;
    println!("tools (first call of a yowasp tool may take ~50 s while it compiles):");
    for tool in Tool::ALL {
        match lookup.find(tool) {
            Ok(found) => {
                let env: Vec<String> = found
                    .env
                    .iter()
                    .map(|(k, v)| format!("{k}={}", v.to_string_lossy()))
                    .collect();
                let version = if matches!(tool, Tool::Icepack | Tool::Iceprog | Tool::Ecppack) {
                    String::new()
                } else {
                    first_line(found.command().args(version_args(&found)))
                        .map(|line| format!("\n        version: {line}"))
                        .unwrap_or_else(|| "\n        version: (did not run!)".to_string())
                };
                println!(
                    "  {tool:<14} {} [{}]{}{version}",
                    found.program.display(),
                    found.source,
                    if env.is_empty() {
                        String::new()
                    } else {
                        format!(" with {}", env.join(" "))
                    }
                );
            }
            Err(error) => {
                missing |= tool != Tool::Iceprog;
                println!("  {tool:<14} MISSING: {error}");
            }
        }
    }
    Ok(if missing {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

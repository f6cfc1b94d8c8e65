//! `tgsi-core emulate [--board NAME] [--cores N] [--engine verilator|rtl|netlist] [--baud N]`:
//! the whole board design (UART, on-chip loader, shader cores: one on the Alchitry Cu, `--cores
//! N` behind the core mux and the RENDER dispatcher on the ULX3S, built with the board's core
//! configuration) simulated cycle by cycle, its serial pins on a pseudo-terminal whose path it
//! prints. `load`, `run --engine board` and `selftest` work against that path unchanged.

use anyhow::{bail, Context, Result};
use clap::Args;
use sim::hardware::board::BoardBuild;
use sim::hardware::emulate::{self, EmuEngine, EMULATED_BAUD, EMULATED_CLOCK_HZ};
use std::process::ExitCode;

/// Arguments of `emulate`.
#[derive(Args)]
pub struct EmulateArgs {
    /// The board whose build to emulate: alchitry-cu (default), ulx3s-85f, ulx3s-45f,
    /// ulx3s-25f or ulx3s-12f (their core configuration; the clock is the emulator's).
    #[arg(long, default_value = "alchitry-cu")]
    pub board: String,
    /// Shader cores behind the loader (default: the board's).
    #[arg(long)]
    pub cores: Option<u16>,
    /// Simulator: verilator (fast; built once and cached), rtl (rust-hdl) or netlist (the
    /// gate-level netlist yosys `synth_ice40` or `synth_ecp5` maps the design to, with the
    /// family's cell models, under Verilator; on the ECP5 with the project's models of the
    /// block RAM and the multiplier, which yosys's library leaves without behaviour);
    /// rtl and netlist are slow: give the host tools a long `--timeout-ms`.
    #[arg(long, default_value = "verilator")]
    pub engine: String,
    /// Line rate of the emulated board; the top level's baud divisor is set for it (at the
    /// board's 100 MHz clock). The pseudo-terminal itself carries bytes at any rate.
    #[arg(long, default_value_t = EMULATED_BAUD)]
    pub baud: u32,
    /// Stop after this many seconds (default: run until interrupted).
    #[arg(long)]
    pub seconds: Option<u64>,
    /// The board build, which is also the default (the name is kept for scripts).
    #[arg(long)]
    pub minimal: bool,
}

/// Starts the emulation, prints the port, and serves until interrupted.
pub fn run(a: EmulateArgs) -> Result<ExitCode> {
    let engine = match a.engine.as_str() {
        "verilator" => EmuEngine::Verilator,
        "rtl" => EmuEngine::Rtl,
        "netlist" => EmuEngine::Netlist,
        other => bail!("unknown emulation engine `{other}` (verilator, rtl, netlist)"),
    };
    // What `tgsi-core synth --board NAME` builds.
    let _ = a.minimal;
    let board = super::synth::parse_board(&a.board)?;
    let cores = a.cores.unwrap_or(board.default_cores());
    if cores == 0 || cores > board.max_cores() {
        bail!(
            "--cores {cores}: the {board} builds 1 to {} shader cores",
            board.max_cores()
        );
    }
    let build = BoardBuild::new(board, cores);
    if cores > 1 {
        eprintln!(
            "building the {board}'s {cores}-core board under Verilator (once per design; \
             minutes for many cores)"
        );
    }
    let emu = emulate::start_board(engine, &build, a.baud, &mut |m| eprintln!("{m}"))
        .context("starting the emulated board")?;
    // The path goes to stdout alone on its line, so scripts can read it.
    println!("{}", emu.port);
    eprintln!(
        "emulating the {board} build, {cores} core{} ({} engine): {} baud ({} clocks per bit at \
         {} MHz), ISA hash {:08x}",
        if cores == 1 { "" } else { "s" },
        a.engine,
        a.baud,
        emu.divisor,
        EMULATED_CLOCK_HZ / 1_000_000,
        emu.device.isa_hash
    );
    eprintln!(
        "try: tgsi-core load --port {} FILE; tgsi-core run --engine board --port {} FILE",
        emu.port, emu.port
    );
    match a.seconds {
        Some(s) => std::thread::sleep(std::time::Duration::from_secs(s)),
        None => emu.wait(),
    }
    Ok(ExitCode::SUCCESS)
}

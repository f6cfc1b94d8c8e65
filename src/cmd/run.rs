//! `tgsi-core run FILE`: execute a TGSI program on one quad with an engine and print the outputs
//! (`decisions.md` section 7).

use super::input::{self, InputFormat};
use anyhow::{bail, Context};
use sim::run_io::{args, RunInputs, DEFAULT_BUDGET};
use std::path::PathBuf;
use std::process::ExitCode;

/// Engines `--engine` names.
const ENGINES: &[&str] = &["reference", "core", "rtl", "verilator", "board"];

/// Arguments of `tgsi-core run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// Program (TGSI text or binary tokens).
    pub file: PathBuf,
    /// Input format.
    #[arg(long, value_enum, default_value_t = InputFormat::Auto)]
    pub format: InputFormat,
    /// Engine: reference, core, rtl, verilator or board.
    #[arg(long, default_value = "reference")]
    pub engine: String,
    /// `N=v` (all lanes), `N@L=v` (lane L) or `V:N=v` (geometry `IN[V][N]`); v = four numbers.
    #[arg(long = "input", value_name = "SPEC", allow_hyphen_values = true)]
    pub inputs: Vec<String>,
    /// `N=v` (buffer 0) or `B:N=v`.
    #[arg(long = "const", value_name = "SPEC", allow_hyphen_values = true)]
    pub consts: Vec<String>,
    /// front or back: sets the FACE input unless an --input does.
    #[arg(long)]
    pub face: Option<String>,
    /// `N=FILE.png[,option...]`: the texture of sampler unit N; options nearest, bilinear, repeat,
    /// clamp, cube, volume=D, format=NAME.
    #[arg(long = "texture", value_name = "N=FILE")]
    pub textures: Vec<String>,
    /// Print the JSON of decisions.md section 7 instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Instruction budget (in the engine's unit).
    #[arg(long, default_value_t = DEFAULT_BUDGET)]
    pub budget: u64,
    /// Print every executed core instruction (engines core, rtl, verilator).
    #[arg(long)]
    pub trace: bool,
    /// Dump every signal of the core to this VCD file, for GTKWave (engines rtl and verilator).
    #[arg(long, value_name = "FILE")]
    pub vcd: Option<PathBuf>,
    /// Serial port of the board (engine board), e.g. /dev/ttyUSB1 or an `emulate` path.
    #[arg(long)]
    pub port: Option<String>,
    /// Engine board: wait per attempt for an answer, in milliseconds.
    #[arg(long, default_value_t = 250)]
    pub timeout_ms: u64,
}

/// Runs the program and prints its outputs.
pub fn run(a: RunArgs) -> anyhow::Result<ExitCode> {
    if !ENGINES.contains(&a.engine.as_str()) {
        bail!(
            "unknown engine `{}`; engines: {}",
            a.engine,
            ENGINES.join(", ")
        );
    }
    if matches!(a.engine.as_str(), "core" | "rtl" | "verilator" | "board") {
        return super::run_core::run(&a);
    }
    let input = input::read(&a.file, a.format)?;
    input::warn(&input);
    if !input.loaded.program.executable {
        bail!(
            "{}: token stream of a newer minor version: it loads but does not run",
            input.name
        );
    }
    input::require_valid(&input)?;
    let (program, name) = (&input.loaded.program, &input.name);
    let mut inputs = RunInputs {
        budget: a.budget,
        ..RunInputs::default()
    };
    args::apply_args(&mut inputs, &a.inputs, &a.consts, a.face.as_deref())?;
    args::apply_textures(&mut inputs, &a.textures)?;
    let out = sim::reference::run(program, &inputs).with_context(|| format!("running {name}"))?;
    if a.json {
        println!("{}", out.to_json());
        for w in &out.warnings {
            eprintln!("warning: {w}");
        }
    } else {
        print!("{}", out.to_table());
    }
    Ok(ExitCode::SUCCESS)
}

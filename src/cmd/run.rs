//! `tgsi-core run FILE`: execute a TGSI program on one quad with an engine and print the outputs
//! (`decisions.md` section 7).

use anyhow::{bail, Context};
use microcode::tgsi::text;
use sim::run_io::{args, RunInputs, DEFAULT_BUDGET};
use std::path::PathBuf;
use std::process::ExitCode;

/// Engines `--engine` names; only the reference model exists so far.
const ENGINES: &[&str] = &["reference", "core", "rtl", "verilator", "board"];

/// Arguments of `tgsi-core run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// TGSI text file.
    pub file: PathBuf,
    /// Engine: reference, core, rtl, verilator or board.
    #[arg(long, default_value = "reference")]
    pub engine: String,
    /// `N=v` (all lanes), `N@L=v` (lane L) or `V:N=v` (geometry IN[V][N]); v = four numbers.
    #[arg(long = "input", value_name = "SPEC", allow_hyphen_values = true)]
    pub inputs: Vec<String>,
    /// `N=v` (buffer 0) or `B:N=v`.
    #[arg(long = "const", value_name = "SPEC", allow_hyphen_values = true)]
    pub consts: Vec<String>,
    /// front or back: sets the FACE input unless an --input does.
    #[arg(long)]
    pub face: Option<String>,
    /// `N=FILE.png`: the texture of sampler unit N.
    #[arg(long = "texture", value_name = "N=FILE")]
    pub textures: Vec<String>,
    /// Print the JSON of decisions.md section 7 instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Instruction budget (in the engine's unit).
    #[arg(long, default_value_t = DEFAULT_BUDGET)]
    pub budget: u64,
    /// Print every executed core instruction (engine core).
    #[arg(long)]
    pub trace: bool,
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
    if a.engine == "core" {
        return super::run_core::run(&a);
    }
    if a.engine != "reference" {
        bail!(
            "engine `{}` is not available yet; available: reference, core",
            a.engine
        );
    }
    let src = std::fs::read_to_string(&a.file)
        .with_context(|| format!("reading {}", a.file.display()))?;
    let name = a.file.display().to_string();
    let program = text::parse(&src).map_err(|e| anyhow::anyhow!("{}", e.render(&src, &name)))?;
    let mut inputs = RunInputs {
        budget: a.budget,
        ..RunInputs::default()
    };
    args::apply_args(&mut inputs, &a.inputs, &a.consts, a.face.as_deref())?;
    if let Some(t) = a.textures.first() {
        bail!("--texture {t}: texture loading is not available in this build yet");
    }
    let out = sim::reference::run(&program, &inputs).with_context(|| format!("running {name}"))?;
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

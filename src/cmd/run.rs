//! `tgsi-core run FILE`: execute a TGSI program on one quad with an engine and print the outputs
//! (`decisions.md` section 7). The reference engine runs the TGSI program; the core engines
//! (`core`, `rtl`, `verilator`, `board`) compile it (or load an image written by `compile`) and run
//! it on the core model, on the hardware (rust-hdl simulation or Verilator, with `--trace` lines
//! and `--vcd`), or on the board over its serial port (uploading the image unless it is already
//! the active one).

use super::board::{board_link, board_quad, board_upload, say_uploaded, LinkArgs};
use super::input::{self, InputFormat};
use anyhow::{bail, Context, Result};
use microcode::compile::compile;
use microcode::core::image::MAGIC;
use microcode::core::{CoreConfig, Image};
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
    /// `NAME=VALUES`: a uniform of a shader source by member path (`light.dir=0,0,1`, a whole
    /// struct or matrix in offset order), placed where the translation put it.
    #[arg(
        long = "uniform",
        value_name = "NAME=VALUES",
        allow_hyphen_values = true
    )]
    pub uniforms: Vec<String>,
    /// `GROUP:BINDING=FILE` (or `push=FILE` for push constants): a uniform buffer's bytes, as a
    /// wgpu program uploads them.
    #[arg(long = "uniform-buffer", value_name = "GROUP:BINDING=FILE")]
    pub uniform_buffers: Vec<String>,
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
    #[command(flatten)]
    pub link: LinkArgs,
}

/// Runs the program and prints its outputs.
pub fn run(mut a: RunArgs) -> anyhow::Result<ExitCode> {
    super::uniform::merge(
        &mut a.consts,
        &a.file,
        a.format,
        &a.uniforms,
        &a.uniform_buffers,
    )?;
    if !ENGINES.contains(&a.engine.as_str()) {
        bail!(
            "unknown engine `{}`; engines: {}",
            a.engine,
            ENGINES.join(", ")
        );
    }
    if matches!(a.engine.as_str(), "core" | "rtl" | "verilator" | "board") {
        return run_core(&a);
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

/// Runs the core engines (`core`, `rtl`, `verilator`, `board`): compile the program (or load an
/// image written by `compile`) and execute it.
fn run_core(a: &RunArgs) -> Result<ExitCode> {
    let bytes = input::read_bytes(&a.file)?;
    let name = a.file.display().to_string();
    let mut inputs = RunInputs {
        budget: a.budget,
        ..RunInputs::default()
    };
    args::apply_args(&mut inputs, &a.inputs, &a.consts, a.face.as_deref())?;
    args::apply_textures(&mut inputs, &a.textures)?;
    // The board says what it was built for; every other engine builds the default core.
    let mut board = None;
    let config = if a.engine == "board" && !bytes.starts_with(&MAGIC) {
        let (client, config) = board_link(a.port.as_deref(), &a.link)?;
        board = Some(client);
        config
    } else {
        CoreConfig::default()
    };
    let image = if bytes.starts_with(&MAGIC) {
        let img = Image::from_bytes(&bytes).with_context(|| name.clone())?;
        img.check_config(&CoreConfig::default())
            .with_context(|| name.clone())?;
        img
    } else {
        let input = input::read(&a.file, a.format)?;
        input::warn(&input);
        input::require_valid(&input)?;
        let program = &input.loaded.program;
        inputs.inputs = inputs.effective_inputs(program);
        compile(program, &config)
            .with_context(|| format!("compiling {name}"))?
            .image
    };
    let out = match a.engine.as_str() {
        "rtl" | "verilator" => run_hardware(a, &image, &inputs)?,
        "board" => run_board(a, board, &image, &inputs)?,
        _ => if a.trace {
            sim::core_model::run_traced(&image, &inputs, &mut |line| eprintln!("{line}"))
        } else {
            sim::core_model::run(&image, &inputs)
        }
        .with_context(|| format!("running {name}"))?,
    };
    if a.json {
        println!("{}", out.to_json());
    } else {
        print!("{}", out.to_table());
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs the image on a hardware engine.
fn run_hardware(a: &RunArgs, image: &Image, inputs: &RunInputs) -> Result<sim::run_io::RunOutput> {
    use sim::hardware::{rtl::RtlCore, run_image, verilator::VerilatorCore, HostPort};
    // The hardware is built for the image's configuration (its optional units).
    let cfg = image.config.clone();
    let mut port: Box<dyn HostPort> = if a.engine == "rtl" {
        let mut core = RtlCore::new(&cfg)?;
        if let Some(path) = &a.vcd {
            let file = std::fs::File::create(path)
                .with_context(|| format!("creating {}", path.display()))?;
            core.trace_vcd(Box::new(std::io::BufWriter::new(file)));
        }
        Box::new(core)
    } else {
        match &a.vcd {
            Some(path) => Box::new(VerilatorCore::new_traced(&cfg, path, &mut |m| {
                eprintln!("{m}")
            })?),
            None => Box::new(VerilatorCore::new(&cfg, &mut |m| eprintln!("{m}"))?),
        }
    };
    port.set_trace(a.trace);
    let out = run_image(port.as_mut(), image, inputs)
        .with_context(|| format!("running {} on the {} engine", a.file.display(), a.engine))?;
    for (clk, pc) in port.take_trace() {
        if let Some(i) = image.code.get(pc) {
            eprintln!(
                "{pc:4}: {:<52} clk={clk}",
                microcode::core::disasm::instr_text(i)
            );
        }
    }
    eprintln!(
        "{} clocks simulated on the {} engine",
        port.clocks(),
        port.engine()
    );
    Ok(out)
}

/// Runs the image on the board (or an emulated one) through the serial loader.
fn run_board(
    a: &RunArgs,
    client: Option<firmware_loader::host::Client<firmware_loader::port::SerialTransport>>,
    image: &Image,
    inputs: &RunInputs,
) -> Result<sim::run_io::RunOutput> {
    let mut client = match client {
        Some(c) => c,
        None => board_link(a.port.as_deref(), &a.link)?.0,
    };
    let port = a.port.as_deref().unwrap_or("the board");
    let file = board_upload(&mut client, port, image, inputs, &mut say_uploaded(port))?;
    if a.budget != sim::run_io::DEFAULT_BUDGET {
        eprintln!("note: the board runs every quad with its own budget (--budget is ignored)");
    }
    board_quad(&mut client, image, &file, inputs).with_context(|| format!("{port}: running"))
}

//! `tgsi-core render FILE -o OUT.png`: a fragment shader over a grid of quads, as a picture.

use super::input::{self, InputFormat};
use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use microcode::compile::compile;
use microcode::core::CoreConfig;
use microcode::tgsi::Program;
use sim::render::{default_corners, render, render_batch, Corners, Frame};
use sim::run_io::batch::{BatchInputs, BatchOutputs};
use sim::run_io::{args, RunInputs, RunOutput};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `render`.
#[derive(Args)]
pub struct RenderArgs {
    /// Fragment shader (TGSI text or tokens).
    pub file: PathBuf,
    /// The PNG to write.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Image size, WxH (even numbers: the core shades 2x2 quads).
    #[arg(long, default_value = "64x64")]
    pub size: String,
    /// Engine: reference, core, rtl, verilator or board (with --port).
    #[arg(long, default_value = "reference")]
    pub engine: String,
    /// Corner values of an interpolated input: `[N.]CORNER=x,y,z,w`, CORNER one of TL TR BL BR,
    /// N the IN index (default: the first interpolated input). Missing corners keep (u, v, 0, 1).
    #[arg(long = "corner", value_name = "SPEC", allow_hyphen_values = true)]
    pub corners: Vec<String>,
    /// Constants, as for `run`: `N=x,y,z,w` or `B:N=x,y,z,w`.
    #[arg(long = "const", value_name = "SPEC", allow_hyphen_values = true)]
    pub consts: Vec<String>,
    /// Textures, as for `run`: `N=FILE.png[,options]`.
    #[arg(long = "texture", value_name = "N=FILE")]
    pub textures: Vec<String>,
    /// Also render with this engine, write OUT-diff.png and count the differing pixels.
    #[arg(long)]
    pub diff: Option<String>,
    /// Serial port of the board (engine board), e.g. /dev/ttyUSB1 or an `emulate` path.
    #[arg(long)]
    pub port: Option<String>,
    /// Engine board: wait per attempt for an answer, in milliseconds.
    #[arg(long, default_value_t = 250)]
    pub timeout_ms: u64,
    /// Input format.
    #[arg(long, value_enum, default_value_t = InputFormat::Auto)]
    pub format: InputFormat,
    /// Threads for the models (reference, core): 0 uses every logical CPU.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
}

/// `--threads`: 0 is every logical CPU.
pub fn thread_count(requested: usize) -> usize {
    if requested > 0 {
        requested
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
}

fn parse_size(s: &str) -> Result<(u32, u32)> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .with_context(|| format!("--size `{s}`: expected WxH, e.g. 64x64"))?;
    let n = |t: &str| {
        t.trim()
            .parse::<u32>()
            .with_context(|| format!("--size `{s}`: `{t}` is not a number"))
    };
    let (w, h) = (n(w)?, n(h)?);
    if w == 0 || h == 0 || w > 4096 || h > 4096 {
        bail!("--size `{s}`: each side must be 2..4096");
    }
    Ok((w, h))
}

fn parse_corners(specs: &[String], program: &Program) -> Result<BTreeMap<u32, Corners>> {
    let first_interpolated = program
        .declarations
        .iter()
        .filter(|d| d.file == microcode::tgsi::File::Input)
        .find(|d| {
            !matches!(
                d.semantic.map(|s| s.name),
                Some(microcode::tgsi::SemanticName::Position | microcode::tgsi::SemanticName::Face)
            )
        })
        .map(|d| d.first as u32);
    let mut map: BTreeMap<u32, Corners> = BTreeMap::new();
    for spec in specs {
        let (name, value) = spec
            .split_once('=')
            .with_context(|| format!("--corner `{spec}`: expected [N.]CORNER=x,y,z,w"))?;
        let (index, corner) = match name.split_once('.') {
            Some((n, c)) => (
                n.trim()
                    .parse::<u32>()
                    .with_context(|| format!("--corner `{spec}`: `{n}` is not an IN index"))?,
                c,
            ),
            None => (
                first_interpolated.with_context(|| {
                    format!("--corner `{spec}`: the program has no interpolated input")
                })?,
                name,
            ),
        };
        let slot = match corner.trim().to_ascii_uppercase().as_str() {
            "TL" => 0,
            "TR" => 1,
            "BL" => 2,
            "BR" => 3,
            other => bail!("--corner `{spec}`: `{other}` is not TL, TR, BL or BR"),
        };
        let bits = args::parse_value(value).with_context(|| format!("--corner `{spec}`"))?;
        let entry = map.entry(index).or_insert_with(default_corners);
        entry[slot] = bits.map(f32::from_bits);
    }
    Ok(map)
}

/// One quad on an engine, errors as text (the rasteriser adds the quad's position).
type QuadEngine<'a> = Box<dyn FnMut(&RunInputs) -> std::result::Result<RunOutput, String> + 'a>;

/// Renders with one engine.
fn render_with(
    engine: &str,
    program: &Program,
    size: (u32, u32),
    corners: &BTreeMap<u32, Corners>,
    a: &RenderArgs,
) -> Result<Frame> {
    let mut inputs = RunInputs::default();
    args::apply_args(&mut inputs, &[], &a.consts, None)?;
    args::apply_textures(&mut inputs, &a.textures)?;
    // The models run the frame as batches of quads on every thread.
    let threads = thread_count(a.threads);
    match engine {
        "reference" => {
            let prepared =
                sim::reference::Prepared::new(program).map_err(|e| anyhow::anyhow!("{e}"))?;
            let batch = |base: &RunInputs, quads: &BatchInputs, out: &mut BatchOutputs<_>| {
                prepared.run_flat(base, quads, out)
            };
            return Ok(render_batch(
                program, size.0, size.1, corners, &inputs, &batch, threads,
            )?);
        }
        "core" => {
            let image = compile(program, &CoreConfig::default())
                .context("compiling for the core")?
                .image;
            let prepared = sim::core_model::Prepared::new(&image);
            let batch = |base: &RunInputs, quads: &BatchInputs, out: &mut BatchOutputs<_>| {
                prepared.run_flat(base, quads, out)
            };
            return Ok(render_batch(
                program, size.0, size.1, corners, &inputs, &batch, threads,
            )?);
        }
        _ => {}
    }
    let mut run: QuadEngine = match engine {
        "rtl" | "verilator" => {
            use sim::hardware::{load_program, load_textures, open, run_loaded};
            let cfg = CoreConfig::default();
            let image = compile(program, &cfg)
                .context("compiling for the core")?
                .image;
            let mut port = open(engine, &cfg, &mut |m| eprintln!("{m}"))?;
            load_program(port.as_mut(), &image)?;
            // Every quad binds the same textures: they are written once, with the first quad.
            let mut textures_loaded = false;
            Box::new(move |i: &RunInputs| {
                if !textures_loaded {
                    load_textures(port.as_mut(), &image, i).map_err(|e| e.to_string())?;
                    textures_loaded = true;
                }
                run_loaded(port.as_mut(), &image, i).map_err(|e| e.to_string())
            })
        }
        "board" => {
            let (mut client, config) =
                super::run_core::board_link(a.port.as_deref(), a.timeout_ms)?;
            let image = compile(program, &config)
                .context("compiling for the board's core")?
                .image;
            let port = a.port.clone().unwrap_or_default();
            let file = super::run_core::board_upload(
                &mut client,
                &port,
                &image,
                &inputs,
                &mut super::run_core::say_uploaded(&port),
            )?;
            Box::new(move |i: &RunInputs| {
                super::run_core::board_quad(&mut client, &image, &file, i)
                    .map_err(|e| format!("{e:#}"))
            })
        }
        other => bail!("unknown engine `{other}` (reference, core, rtl, verilator, board)"),
    };
    let bar = ProgressBar::new(u64::from(size.1 / 2));
    bar.set_style(
        ProgressStyle::with_template("{prefix:>10} [{bar:40}] {pos}/{len} rows of quads")
            .map_err(|e| anyhow::anyhow!("{e}"))?
            .progress_chars("=> "),
    );
    bar.set_prefix(engine.to_string());
    let frame = render(
        program,
        size.0,
        size.1,
        corners,
        &mut inputs,
        &mut *run,
        &mut |done, _| bar.set_position(done as u64),
    );
    bar.finish_and_clear();
    Ok(frame?)
}

fn diff_path(out: &Path) -> PathBuf {
    let stem = out
        .file_stem()
        .map(|s| s.to_string_lossy())
        .unwrap_or_default();
    out.with_file_name(format!("{stem}-diff.png"))
}

/// Renders, writes the PNG and prints a summary.
pub fn run(a: RenderArgs) -> Result<ExitCode> {
    let size = parse_size(&a.size)?;
    let input = input::read(&a.file, a.format)?;
    input::warn(&input);
    input::require_valid(&input)?;
    let program = &input.loaded.program;
    let corners = parse_corners(&a.corners, program)?;
    let started = std::time::Instant::now();
    let frame = render_with(&a.engine, program, size, &corners, &a)?;
    frame.write_png(&a.output)?;
    let pixels = frame.pixels.len();
    println!(
        "{}: {}x{} on {} ({} quads), {} of {pixels} pixels killed, {:.2} s",
        a.output.display(),
        frame.width,
        frame.height,
        a.engine,
        frame.quads,
        frame.killed,
        started.elapsed().as_secs_f64()
    );
    if let Some(c) = frame.cycles {
        println!(
            "core cycles: {c} ({:.1} per pixel, {:.1} per quad)",
            c as f64 / pixels as f64,
            c as f64 / frame.quads as f64
        );
    }
    if let Some(other) = &a.diff {
        let second = render_with(other, program, size, &corners, &a)?;
        let (count, img) = frame.diff(&second);
        let path = diff_path(&a.output);
        img.write_png(&path)?;
        println!(
            "{count} of {pixels} pixels differ between {} and {other}; differences in {}",
            a.engine,
            path.display()
        );
        if count > 0 {
            return Ok(ExitCode::FAILURE);
        }
    }
    Ok(ExitCode::SUCCESS)
}

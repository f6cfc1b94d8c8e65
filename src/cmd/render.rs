//! `tgsi-core render FILE -o OUT.png`: a fragment shader over a grid of quads, as a picture.

use super::input::{self, InputFormat};
use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use microcode::compile::compile;
use microcode::compile::render_program::RenderProgram;
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
    /// Textures, as for `run`: `N=FILE.png[,options]`.
    #[arg(long = "texture", value_name = "N=FILE")]
    pub textures: Vec<String>,
    /// Also render with this engine, write OUT-diff.png and count the differing pixels.
    #[arg(long)]
    pub diff: Option<String>,
    /// Serial port of the board (engine board), e.g. /dev/ttyUSB1 or an `emulate` path; give
    /// it again for more boards to split the frame over them (blocks of rows to whichever board
    /// is free). `PATH@BAUD` sets one board's line rate.
    #[arg(long, value_name = "PATH")]
    pub port: Vec<String>,
    /// Engine board with several ports: name each block of rows as a board delivers it.
    #[arg(long, short)]
    pub verbose: bool,
    #[command(flatten)]
    pub link: super::board::LinkArgs,
    /// Input format.
    #[arg(long, value_enum, default_value_t = InputFormat::Auto)]
    pub format: InputFormat,
    /// Engine board: stream the colour as float vectors (16 bytes a pixel) and convert it on the
    /// host, instead of the packed RGBA8 word the board makes (4 bytes a pixel).
    #[arg(long)]
    pub float: bool,
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

/// `--size WxH`.
pub fn parse_size(s: &str) -> Result<(u32, u32)> {
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
    notes: &mut Vec<String>,
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
            // Several ports: RENDER on them all, or (having said why) quad by quad on the first.
            let farmed = a.port.len() > 1;
            if farmed {
                if let Some(frame) = render_farmed(program, size, corners, &mut inputs, a, notes)? {
                    return Ok(frame);
                }
            }
            let port = a
                .port
                .first()
                .map(|p| super::farm::PortSpec::parse(p, a.link.baud));
            let (mut client, config) = super::board::board_link(
                port.as_ref().map(|p| p.path.as_str()),
                &a.link.at(port.as_ref().map_or(a.link.baud, |p| p.baud)),
            )?;
            if !farmed {
                if let Some(frame) =
                    render_streamed(&mut client, &config, program, size, corners, &mut inputs, a)?
                {
                    return Ok(frame);
                }
            }
            let image = compile(program, &config)
                .context("compiling for the board's core")?
                .image;
            let port = port.map(|p| p.path).unwrap_or_default();
            let file = super::board::board_upload(
                &mut client,
                &port,
                &image,
                &inputs,
                &mut super::board::say_uploaded(&port),
            )?;
            Box::new(move |i: &RunInputs| {
                super::board::board_quad(&mut client, &image, &file, i)
                    .map_err(|e| format!("{e:#}"))
            })
        }
        other => bail!("unknown engine `{other}` (reference, core, rtl, verilator, board)"),
    };
    let bar = progress_bar(engine, u64::from(size.1 / 2))?;
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

/// The frame's program transformed for RENDER (`render_program`: its inputs made from RENDER's
/// coordinate input, its colour packed, or left as floats with `--float`) and the words a lane
/// streams. `None`, with the reason printed (the caller runs the program quad by quad `on`
/// the port named), when the program cannot be transformed.
fn transformed(
    program: &Program,
    size: (u32, u32),
    corners: &BTreeMap<u32, Corners>,
    a: &RenderArgs,
    on: &str,
) -> Option<(RenderProgram, u8)> {
    use microcode::compile::render_program::{render_program, ColourOut};
    let (colour, lane_words) = if a.float {
        (ColourOut::Float, 4)
    } else {
        (ColourOut::Rgba8, 1)
    };
    match render_program(
        program,
        size.0,
        size.1,
        &|i| corners.get(&i).copied(),
        colour,
    ) {
        Ok(rp) => Some((rp, lane_words)),
        Err(e) => {
            eprintln!("RENDER: {e}; rendering quad by quad{on} instead");
            None
        }
    }
}

/// The transform's CONST slots beside the user's (`render_program` put them after every slot
/// the program declares).
fn bind_transform_constants(rp: &RenderProgram, inputs: &mut RunInputs) {
    for (slot, v) in &rp.constants {
        inputs.constants.insert((0, *slot), *v);
    }
}

/// The image size in quads, as RENDER counts them.
fn quads_of(size: (u32, u32)) -> Result<(u16, u16)> {
    Ok((
        u16::try_from(size.0 / 2).context("image width")?,
        u16::try_from(size.1 / 2).context("image height")?,
    ))
}

/// The board's RENDER path: the program transformed (see [`transformed`]), the frame streamed.
/// `None`, with the reason printed, when the transformed program does not fit the board's core
/// (then the caller runs the original program quad by quad).
fn render_streamed(
    client: &mut firmware_loader::host::Client<firmware_loader::port::SerialTransport>,
    config: &CoreConfig,
    program: &Program,
    size: (u32, u32),
    corners: &BTreeMap<u32, Corners>,
    inputs: &mut RunInputs,
    a: &RenderArgs,
) -> Result<Option<Frame>> {
    let Some((rp, lane_words)) = transformed(program, size, corners, a, "") else {
        return Ok(None);
    };
    let image = match compile(&rp.program, config) {
        Ok(c) => c.image,
        Err(e) => {
            eprintln!(
                "RENDER: the transformed program does not fit: {e}; rendering quad by quad instead"
            );
            return Ok(None);
        }
    };
    let (row_quads, rows) = quads_of(size)?;
    bind_transform_constants(&rp, inputs);
    let inputs = &*inputs;
    let port = a
        .port
        .first()
        .map(|p| super::farm::PortSpec::parse(p, a.link.baud).path)
        .unwrap_or_default();
    let file = super::board::board_upload(
        client,
        &port,
        &image,
        inputs,
        &mut super::board::say_uploaded(&port),
    )?;
    let constant = |b: u16, i: u16| inputs.constant(b, i);
    let bar = progress_bar("board", u64::from(rows))?;
    let got = firmware_loader::board::render_image(
        client,
        &file,
        &constant,
        row_quads,
        rows,
        lane_words,
        &mut |done, _| bar.set_position(done as u64),
    )
    .with_context(|| format!("{port}: RENDER"));
    bar.finish_and_clear();
    let got = got?;
    let frame = frame_of(&got.records, size, lane_words, got.cycles);
    if got.fault != 0 {
        let n = got.records.len() as u32;
        bail!(
            "quad at ({}, {}): the board's core stopped with fault {} ({})",
            2 * (n % u32::from(row_quads)),
            2 * (n / u32::from(row_quads)),
            got.fault,
            sim::hardware::fault_name(got.fault)
        );
    }
    Ok(Some(frame))
}

/// The frame split over several boards (`--port` more than once; see `cmd::farm`): `None` when
/// the program cannot be transformed or its transform fits none of the boards' cores (then the
/// caller renders quad by quad on the first port). Boards that cannot join are named in a
/// warning and left out; `notes` gets each board's share, for after the summary.
fn render_farmed(
    program: &Program,
    size: (u32, u32),
    corners: &BTreeMap<u32, Corners>,
    inputs: &mut RunInputs,
    a: &RenderArgs,
    notes: &mut Vec<String>,
) -> Result<Option<Frame>> {
    use super::farm::{prepare, render_on, PortSpec, Unready};
    let ports: Vec<PortSpec> = a
        .port
        .iter()
        .map(|p| PortSpec::parse(p, a.link.baud))
        .collect();
    let first = format!(" on {}", ports[0].path);
    let Some((rp, lane_words)) = transformed(program, size, corners, a, &first) else {
        return Ok(None);
    };
    bind_transform_constants(&rp, inputs);
    let (mut boards, left_out) = prepare(&ports, &a.link, &rp.program, inputs);
    for (port, why) in &left_out {
        eprintln!("warning: {port} left out: {why}");
    }
    if boards.farm.is_empty() {
        if left_out.iter().all(|(_, w)| matches!(w, Unready::NoFit(_))) {
            eprintln!(
                "RENDER: the transformed program fits none of the boards; rendering quad by \
                 quad{first} instead"
            );
            for (slot, _) in &rp.constants {
                inputs.constants.remove(&(0, *slot));
            }
            return Ok(None);
        }
        let why: Vec<String> = left_out.iter().map(|(p, w)| format!("{p}: {w}")).collect();
        bail!("no board could render: {}", why.join("; "));
    }
    let (row_quads, rows) = quads_of(size)?;
    let job = firmware_loader::farm::FarmJob::new(row_quads, rows, lane_words, boards.farm.len());
    let bar = progress_bar("boards", u64::from(rows))?;
    let got = render_on(&mut boards.farm, &job, &bar, a.verbose);
    bar.finish_and_clear();
    let got = got?;
    for s in &got.shares {
        let mut note = format!(
            "  {}: {} block{}, {} quads, {} core cycles, {:.2} s busy",
            s.name,
            s.blocks,
            if s.blocks == 1 { "" } else { "s" },
            s.quads,
            s.cycles,
            s.busy.as_secs_f64()
        );
        if let Some(e) = &s.failure {
            note.push_str(&format!("; failed: {e}"));
        }
        notes.push(note);
    }
    Ok(Some(frame_of(&got.records, size, lane_words, got.cycles())))
}

/// The frame of RENDER's records (row after row, `lane_words` words a lane).
fn frame_of(
    records: &[firmware_loader::host::RenderRecord],
    size: (u32, u32),
    lane_words: u8,
    cycles: u64,
) -> Frame {
    use microcode::compile::render_program::to_byte;
    let (w, h) = size;
    let row_quads = w / 2;
    let mut frame = Frame {
        width: w,
        height: h,
        pixels: vec![[0; 4]; (w * h) as usize],
        killed: 0,
        cycles: Some(cycles),
        quads: records.len(),
    };
    for (n, r) in records.iter().enumerate() {
        let (qx, qy) = (n as u32 % row_quads, n as u32 / row_quads);
        for l in 0..4u32 {
            let (x, y) = (2 * qx + (l & 1), 2 * qy + (l >> 1));
            let px = &mut frame.pixels[(y * w + x) as usize];
            let lw = usize::from(lane_words);
            let words = &r.words[l as usize * lw..(l as usize + 1) * lw];
            if r.kill_mask & (1 << l) != 0 {
                frame.killed += 1;
            } else if lw == 1 {
                *px = words[0].to_le_bytes();
            } else {
                *px = std::array::from_fn(|c| to_byte(words[c]));
            }
        }
    }
    frame
}

/// The progress bar of a render, in rows of quads.
fn progress_bar(engine: &str, rows: u64) -> Result<ProgressBar> {
    let bar = ProgressBar::new(rows);
    bar.set_style(
        ProgressStyle::with_template("{prefix:>10} [{bar:40}] {pos}/{len} rows of quads")
            .map_err(|e| anyhow::anyhow!("{e}"))?
            .progress_chars("=> "),
    );
    bar.set_prefix(engine.to_string());
    Ok(bar)
}

fn diff_path(out: &Path) -> PathBuf {
    let stem = out
        .file_stem()
        .map(|s| s.to_string_lossy())
        .unwrap_or_default();
    out.with_file_name(format!("{stem}-diff.png"))
}

/// Renders, writes the PNG and prints a summary.
pub fn run(mut a: RenderArgs) -> Result<ExitCode> {
    super::uniform::merge(
        &mut a.consts,
        &a.file,
        a.format,
        &a.uniforms,
        &a.uniform_buffers,
    )?;
    let size = parse_size(&a.size)?;
    let input = input::read(&a.file, a.format)?;
    input::warn(&input);
    input::require_valid(&input)?;
    let program = &input.loaded.program;
    let corners = parse_corners(&a.corners, program)?;
    let started = std::time::Instant::now();
    let mut notes = Vec::new();
    let frame = render_with(&a.engine, program, size, &corners, &a, &mut notes)?;
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
    for note in notes.drain(..) {
        println!("{note}");
    }
    if let Some(other) = &a.diff {
        let second = render_with(other, program, size, &corners, &a, &mut notes)?;
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

//! The main job on a built-in default (`cargo run --release` with no arguments): the bundled
//! lit-sphere shader (DP3/RSQ/POW/NRM lighting, a bilinear texture, a REP loop, a KIL) is
//! checked, compiled for the shader core and rendered at 64x64 on the cycle-accurate Verilator
//! engine (the Verilog that gets synthesised), every pixel and the cycle count cross-checked
//! against the core model and every pixel against the reference model; the picture goes to
//! `demo.png`. Without Verilator it sets the pinned toolchain up first (`cargo xtask setup`) and,
//! where that fails, renders 8x8 on rust-hdl's own simulation instead.

use super::input::check_valid;
use anyhow::{bail, Context, Result};
use microcode::compile::compile;
use microcode::core::config::Features;
use microcode::core::{CoreConfig, Image};
use microcode::tgsi::{text, Program};
use sim::hardware::{
    load_program, load_textures, rtl::RtlCore, run_loaded, verilator::VerilatorCore, HostPort,
};
use sim::render::{render, Frame};
use sim::run_io::{RunInputs, RunOutput};
use sim::texture::{Filter, Texture};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

/// The bundled demo shader.
const DEMO: &str = include_str!("../../examples/lit-sphere.tgsi");

/// Image size on the Verilator engine, and on the rust-hdl engine (about 1,000 times slower).
const SIZE: u32 = 64;
const RTL_SIZE: u32 = 8;

/// Serial line rate of the board build, and bytes on the wire per quad (RUN request with one vec4
/// input for 4 lanes = 64 payload bytes, READ answer with one vec4 output for 4 lanes + kill mask
/// and cycle count = 72, plus 2 x 12 bytes of framing, header and CRC; 10 bits per byte).
const BAUD: f64 = 115_200.0;
const WIRE_BYTES_PER_QUAD: f64 = 64.0 + 72.0 + 24.0;

fn inputs() -> Result<RunInputs> {
    let mut inputs = RunInputs::default();
    let vec4 = |v: [f32; 4]| v.map(f32::to_bits);
    for (k, v) in tgsi_core::demo::LIT_SPHERE_CONSTANTS.iter().enumerate() {
        inputs.set_const(0, k as u32, vec4(*v));
    }
    // 8-bit channels (k / 255), as the board's texture memory holds them.
    let blue = [140.0 / 255.0, 179.0 / 255.0, 1.0, 1.0];
    let checker = Texture::checkerboard(8, 8, 4, [[1.0; 4], blue])
        .context("building the demo texture")?
        .with_filter(Filter::Bilinear);
    inputs.textures = vec![Some(Box::new(checker))];
    Ok(inputs)
}

/// Renders `program` at `size` x `size` with the demo's inputs on `engine`.
fn draw(
    program: &Program,
    size: u32,
    engine: &mut dyn FnMut(&RunInputs) -> Result<RunOutput, String>,
) -> Result<Frame> {
    let mut inp = inputs()?;
    Ok(render(
        program,
        size,
        size,
        &BTreeMap::new(),
        &mut inp,
        engine,
        &mut |_, _| {},
    )?)
}

/// The Verilator engine, after setting the pinned toolchain up when it is missing; the rust-hdl
/// engine when that is impossible.
fn hardware(cfg: &CoreConfig) -> Result<(Box<dyn HostPort>, u32)> {
    let mut say = |m: &str| println!("{m}");
    let first = match VerilatorCore::new(cfg, &mut say) {
        Ok(v) => return Ok((Box::new(v), SIZE)),
        Err(e) => e,
    };
    let setup = toolchain::workspace_root().map(|root| {
        println!(
            "Verilator not found; setting up the pinned FPGA toolchain first (`cargo xtask setup` in {}, about a minute)",
            root.display()
        );
        std::process::Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args(["xtask", "setup"])
            .current_dir(&root)
            .status()
    });
    let why = match setup {
        Some(Ok(s)) if s.success() => match VerilatorCore::new(cfg, &mut say) {
            Ok(v) => return Ok((Box::new(v), SIZE)),
            Err(e) => e.to_string(),
        },
        Some(Ok(s)) => format!("`cargo xtask setup` failed ({s}); {first}"),
        Some(Err(e)) => format!("`cargo xtask setup` could not start ({e}); {first}"),
        None => format!("not in the project's workspace; {first}"),
    };
    println!(
        "verilator engine unavailable ({why}); using the rtl engine (rust-hdl's own simulation) at {RTL_SIZE}x{RTL_SIZE}"
    );
    Ok((Box::new(RtlCore::new(cfg)?), RTL_SIZE))
}

/// Renders on the hardware engine; returns the frame, the engine's name, seconds and clocks.
fn render_on_hardware(
    program: &Program,
    image: &Image,
    cfg: &CoreConfig,
) -> Result<(Frame, &'static str, f64, u64)> {
    let (mut port, size) = hardware(cfg)?;
    load_program(port.as_mut(), image)?;
    load_textures(port.as_mut(), image, &inputs()?)?;
    let started = std::time::Instant::now();
    let clocks0 = port.clocks();
    let frame = draw(program, size, &mut |i| {
        run_loaded(port.as_mut(), image, i).map_err(|e| e.to_string())
    })?;
    let seconds = started.elapsed().as_secs_f64();
    Ok((frame, port.engine(), seconds, port.clocks() - clocks0))
}

/// The clock the board runs the core at: the PLL's output in the bitstream `tgsi-core synth`
/// builds, with what the last synthesis (`out/synth/report.json`) says about it. Returns Hz and
/// where the figure comes from.
fn board_clock() -> (f64, String) {
    let clock = f64::from(synth::BOARD_CLOCK_HZ);
    let mhz = clock / 1e6;
    let candidates = [
        Some(std::path::PathBuf::from(".")),
        toolchain::workspace_root(),
    ];
    for dir in candidates.into_iter().flatten() {
        let path = dir.join("out/synth/report.json");
        let Ok(json) = std::fs::read_to_string(&path) else {
            continue;
        };
        if let Some(fmax) = synth::Report::parse(&json).ok().and_then(|r| r.fmax()) {
            let verdict = if fmax >= mhz { "meets" } else { "misses" };
            return (
                clock,
                format!(
                    "the PLL's clock; the last synthesis ({}) {verdict} it with Fmax {fmax:.1} MHz",
                    path.display()
                ),
            );
        }
    }
    (
        clock,
        "the PLL's clock in the bitstream; no `tgsi-core synth` report yet".into(),
    )
}

/// What the demo frame costs through RENDER: the core's cycles for the transformed program
/// (prologue and packing epilogue included, run on the core model quad by quad from the
/// coordinate words RENDER writes) and the bytes of its stream.
struct StreamEstimate {
    cycles: u64,
    bytes: usize,
}

fn render_estimate(program: &Program, size: u32) -> Result<StreamEstimate> {
    use firmware_loader::board::render_block_quads;
    use firmware_loader::frame;
    use microcode::compile::render_program::{render_program, ColourOut};
    use microcode::protocol::{RenderRequest, RENDER_BLOCK_HEADER, RENDER_COORD_BIAS};
    let rp = render_program(program, size, size, &|_| None, ColourOut::Rgba8)?;
    let image = compile(&rp.program, &CoreConfig::default())
        .context("compiling the demo for RENDER")?
        .image;
    let mut inp = inputs()?;
    for (slot, v) in &rp.constants {
        inp.set_const(0, *slot, *v);
    }
    let quads = size / 2;
    let mut cycles = 0;
    for qy in 0..quads {
        for qx in 0..quads {
            let coord = std::array::from_fn(|l| {
                let l = l as u32;
                let at = |q: u32, bit: u32| RENDER_COORD_BIAS + 2 * q + bit;
                [at(qx, l & 1), at(qy, l >> 1), 0, 0]
            });
            inp.inputs.insert(0, coord);
            let out = sim::core_model::run(&image, &inp).map_err(|e| anyhow::anyhow!("{e}"))?;
            cycles += out.cycles.unwrap_or(0);
        }
    }
    // Block frames of the most quads a frame holds (one word a lane), as `render` asks for.
    let bq = render_block_quads(1);
    let record = RenderRequest {
        row_quads: 1,
        x: 0,
        y: 0,
        quads: 1,
        lane_words: 1,
        block_quads: bq,
    }
    .record_bytes();
    let total = (quads * quads) as usize;
    let block = |n: usize| -> Result<usize> {
        // Typical record bytes (no escapes assumed beyond what the encoder adds for these).
        let f = frame::Frame {
            cmd: 0x8B,
            seq: 1,
            payload: vec![0x55; RENDER_BLOCK_HEADER + n * record],
        };
        Ok(frame::encode(&f)?.len())
    };
    let full = total / usize::from(bq);
    let rest = total % usize::from(bq);
    let mut bytes = full * block(usize::from(bq))?;
    if rest > 0 {
        bytes += block(rest)?;
    }
    Ok(StreamEstimate { cycles, bytes })
}

/// Runs the built-in demo.
pub fn run() -> Result<ExitCode> {
    let name = "examples/lit-sphere.tgsi";
    let program = text::parse(DEMO).map_err(|e| anyhow::anyhow!("{}", e.render(DEMO, name)))?;
    check_valid(&program, name)?;
    let cfg = CoreConfig::default();
    let image = compile(&program, &cfg).context("compiling the demo")?.image;
    let image_bytes = image.to_bytes().len();
    println!(
        "{name}: {} TGSI instructions -> {} core instructions ({image_bytes}-byte image)",
        program.instructions.len(),
        image.code.len()
    );

    let (frame, engine, seconds, clocks) = render_on_hardware(&program, &image, &cfg)?;
    let size = frame.width;
    let model = draw(&program, size, &mut |i| {
        sim::core_model::run(&image, i).map_err(|e| e.to_string())
    })?;
    let differing_model = frame.diff(&model).0;
    if differing_model != 0 || frame.cycles != model.cycles {
        bail!(
            "the {engine} engine and the core model disagree: {differing_model} pixels differ, cycles {:?} vs {:?}",
            frame.cycles,
            model.cycles
        );
    }
    let golden = draw(&program, size, &mut |i| {
        sim::reference::run(&program, i).map_err(|e| e.to_string())
    })?;
    // Approximated operations may differ in the last bits; after 8-bit rounding that is at most
    // one step of a channel.
    let worst = frame
        .pixels
        .iter()
        .zip(&golden.pixels)
        .flat_map(|(a, b)| (0..4).map(move |c| a[c].abs_diff(b[c])))
        .max()
        .unwrap_or(0);
    let differing = frame.diff(&golden).0;
    if worst > 1 {
        bail!("the {engine} engine and the reference model disagree by {worst}/255 on a channel");
    }
    let out = Path::new("demo.png");
    frame.write_png(out)?;

    let pixels = frame.pixels.len() as f64;
    let cycles = frame.cycles.unwrap_or(0);
    let (clock, clock_source) = board_clock();
    let compute = cycles as f64 / clock;
    // The board's upload: the image's regions with the texture (texels and descriptors).
    let upload = super::board::board_image(&image, &inputs()?)?
        .upload
        .total_bytes();
    let serial = (upload as f64 + WIRE_BYTES_PER_QUAD * frame.quads as f64) * 10.0 / BAUD;
    // The RENDER path when the transformed program fits the core (else `render` runs quads).
    let streamed = render_estimate(&program, size);
    println!(
        "rendered {size}x{size} on the {engine} engine (the core's Verilog, cycle by cycle) in {seconds:.2} s: \
         {} pixels, {} killed, {clocks} clocks simulated ({:.0} per second)",
        frame.pixels.len(),
        frame.killed,
        clocks as f64 / seconds.max(1e-9)
    );
    println!("checked against the core model: 0 pixels differ, {cycles} cycles both");
    println!(
        "checked against the reference model: {differing} pixels differ (worst {worst}/255 per channel)"
    );
    println!(
        "core cycles: {cycles} ({:.1} per pixel, {:.1} per quad)",
        cycles as f64 / pixels,
        cycles as f64 / frame.quads as f64
    );
    println!(
        "on the board at {:.1} MHz ({clock_source}): {:.2} ms of shading + {:.2} s of serial transfer at {BAUD:.0} baud \
         (the {upload}-byte upload with its texture once, then {WIRE_BYTES_PER_QUAD:.0} bytes per quad)",
        clock / 1e6,
        compute * 1e3,
        serial
    );
    let line = f64::from(
        *firmware_loader::protocol::SUPPORTED_BAUDS
            .iter()
            .max()
            .unwrap_or(&firmware_loader::protocol::DEFAULT_BAUD),
    );
    match streamed {
        Ok(streamed) => {
            let shading = streamed.cycles as f64 / clock;
            let at = |baud: f64| streamed.bytes as f64 * 10.0 / baud;
            println!(
                "with RENDER (`render --engine board`: inputs made on the chip, one packed word a \
                 pixel streamed): {} cycles ({:.1} per quad) = {:.2} ms of shading + {} bytes \
                 (+ the upload once): {:.2} s a frame at {BAUD:.0} baud, {:.2} ms at {line:.0} \
                 baud (`synth --baud {line:.0}`, `render --baud {line:.0}`)",
                streamed.cycles,
                streamed.cycles as f64 / frame.quads as f64,
                shading * 1e3,
                streamed.bytes,
                shading + at(BAUD),
                (shading + at(line)) * 1e3,
            )
        }
        Err(e) => println!("RENDER (`render --engine board`) cannot stream this shader: {e:#}"),
    }
    // Should a shader need a unit the board build leaves out (it has every one but the
    // divider, whose operations are sequences there), say which, as the host tools compile
    // it for that build. A unit that either of two features provides (the converter) only
    // appears inside the sequences of those features' own operations, which name the unit.
    let board = CoreConfig::default();
    let used = compile(&program, &board)
        .map(|c| c.image.code)
        .unwrap_or_default()
        .iter()
        .map(|i| i.op.info().unit.feature())
        .filter(|need| need.count_ones() == 1)
        .fold(0, |f, need| f | need);
    let missing: Vec<&str> = Features::UNITS
        .iter()
        .filter(|(bit, _)| used & bit != 0 && board.features & bit == 0)
        .map(|(_, name)| *name)
        .collect();
    if let Some((last, rest)) = missing.split_last() {
        let list = if rest.is_empty() {
            format!("the {last}")
        } else {
            format!("the {} and the {last}", rest.join(", the "))
        };
        println!(
            "(the board build that fits the HX8K, what `tgsi-core synth` builds, leaves out {list}, which this shader uses)"
        );
    }
    println!("wrote {}", out.display());
    Ok(ExitCode::SUCCESS)
}

//! The main job on a built-in default (`cargo run --release` with no arguments): the bundled
//! lit-sphere shader (DP3/RSQ/POW/NRM lighting, a texture, a REP loop, a KIL) is checked, compiled
//! for the shader core and rendered at 64x64 on the most accurate engine available, every pixel
//! cross-checked against the reference model; the picture goes to `demo.png`.

use super::input::check_valid;
use anyhow::{bail, Context, Result};
use microcode::compile::compile;
use microcode::core::CoreConfig;
use microcode::tgsi::text;
use sim::render::render;
use sim::run_io::{RunInputs, RunOutput};
use sim::texture::Texture;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

/// The bundled demo shader.
const DEMO: &str = include_str!("../../examples/lit-sphere.tgsi");

/// The engine the demo renders on. The cycle-accurate hardware engines take its place when they
/// exist; everything else stays the same.
const ENGINE: &str = "core";

/// Image size.
const SIZE: u32 = 64;

/// Serial line rate of the board build, and bytes on the wire per quad (RUN request with one vec4
/// input for 4 lanes = 64 payload bytes, READ answer with one vec4 output for 4 lanes + kill mask
/// and cycle count = 72, plus 2 x 12 bytes of framing, header and CRC; 10 bits per byte).
const BAUD: f64 = 115_200.0;
const WIRE_BYTES_PER_QUAD: f64 = 64.0 + 72.0 + 24.0;

fn inputs() -> Result<RunInputs> {
    let mut inputs = RunInputs::default();
    let vec4 = |v: [f32; 4]| v.map(f32::to_bits);
    inputs.set_const(0, 0, vec4([0.36, 0.48, 0.8, 0.0])); // light direction
    inputs.set_const(0, 1, vec4([1.0, 0.9, 0.8, 1.0])); // diffuse colour
    inputs.set_const(0, 2, vec4([0.1, 0.1, 0.25, 0.0])); // ambient and rim colour
    inputs.set_const(0, 3, vec4([0.6, 0.6, 0.6, 0.0])); // specular colour
    let checker = Texture::checkerboard(8, 8, 1, [[1.0, 1.0, 1.0, 1.0], [0.55, 0.7, 1.0, 1.0]])
        .context("building the demo texture")?;
    inputs.textures = vec![Some(Box::new(checker))];
    Ok(inputs)
}

/// Runs the built-in demo.
pub fn run() -> Result<ExitCode> {
    let name = "examples/lit-sphere.tgsi";
    let program = text::parse(DEMO).map_err(|e| anyhow::anyhow!("{}", e.render(DEMO, name)))?;
    check_valid(&program, name)?;
    let compiled = compile(&program, &CoreConfig::default()).context("compiling the demo")?;
    let image = compiled.image;
    let image_bytes = image.to_bytes().len();
    println!(
        "{name}: {} TGSI instructions -> {} core instructions ({image_bytes}-byte image)",
        program.instructions.len(),
        image.code.len()
    );

    let started = std::time::Instant::now();
    let mut engine = |i: &RunInputs| -> Result<RunOutput, String> {
        sim::core_model::run(&image, i).map_err(|e| e.to_string())
    };
    let corners = BTreeMap::new();
    let mut inp = inputs()?;
    let frame = render(
        &program,
        SIZE,
        SIZE,
        &corners,
        &mut inp,
        &mut engine,
        &mut |_, _| {},
    )?;
    let elapsed = started.elapsed().as_secs_f64();
    let mut reference = |i: &RunInputs| -> Result<RunOutput, String> {
        sim::reference::run(&program, i).map_err(|e| e.to_string())
    };
    let mut inp = inputs()?;
    let golden = render(
        &program,
        SIZE,
        SIZE,
        &corners,
        &mut inp,
        &mut reference,
        &mut |_, _| {},
    )?;
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
        bail!("the {ENGINE} engine and the reference model disagree by {worst}/255 on a channel");
    }
    let out = Path::new("demo.png");
    frame.write_png(out)?;

    let pixels = frame.pixels.len() as f64;
    let cycles = frame.cycles.unwrap_or(0);
    let clock = synth::BOARD_CLOCK_HZ as f64;
    let compute = cycles as f64 / clock;
    let serial = (image_bytes as f64 + WIRE_BYTES_PER_QUAD * frame.quads as f64) * 10.0 / BAUD;
    println!(
        "rendered {SIZE}x{SIZE} on the {ENGINE} engine in {elapsed:.2} s: {} pixels, {} killed",
        frame.pixels.len(),
        frame.killed
    );
    println!(
        "checked against the reference model: {differing} pixels differ (worst {worst}/255 per channel)"
    );
    println!(
        "core cycles: {cycles} ({:.1} per pixel, {:.1} per quad)",
        cycles as f64 / pixels,
        cycles as f64 / frame.quads as f64
    );
    println!(
        "on the board at {:.0} MHz: {:.2} ms of shading + {:.2} s of serial transfer at {BAUD:.0} baud \
         (image once, then {WIRE_BYTES_PER_QUAD:.0} bytes per quad)",
        clock / 1e6,
        compute * 1e3,
        serial
    );
    println!("wrote {}", out.display());
    hardware_check()?;
    Ok(ExitCode::SUCCESS)
}

/// The hardware's part of the demo: the lit sphere needs units the hardware does not build yet
/// (RSQ and POW on the transcendental sequencer, TEX on the texture unit), so the bundled checker
/// shader is rendered on the cycle-accurate Verilator engine (or, without Verilator, on rust-hdl's
/// own simulation at a smaller size) and compared with the core model pixel for pixel and cycle
/// for cycle.
fn hardware_check() -> Result<()> {
    use sim::hardware::{
        load_program, rtl::RtlCore, run_loaded, verilator::VerilatorCore, HostPort,
    };
    const CHECKER: &str = include_str!("../../examples/checker.tgsi");
    let name = "examples/checker.tgsi";
    let program =
        text::parse(CHECKER).map_err(|e| anyhow::anyhow!("{}", e.render(CHECKER, name)))?;
    let cfg = CoreConfig::default();
    let image = compile(&program, &cfg)
        .context("compiling the checker")?
        .image;
    let (mut port, size): (Box<dyn HostPort>, u32) = match VerilatorCore::new(&cfg, &mut |m| {
        println!("{m}")
    }) {
        Ok(v) => (Box::new(v), 32),
        Err(e) => {
            println!("verilator engine unavailable ({e}); using the rtl engine at 8x8 (`cargo xtask setup` installs Verilator)");
            (Box::new(RtlCore::new(&cfg)?), 8)
        }
    };
    load_program(port.as_mut(), &image)?;
    let started = std::time::Instant::now();
    let clocks0 = port.clocks();
    let corners = BTreeMap::new();
    let mut hw = |i: &RunInputs| -> Result<RunOutput, String> {
        run_loaded(port.as_mut(), &image, i).map_err(|e| e.to_string())
    };
    let mut inp = RunInputs::default();
    let frame = render(
        &program,
        size,
        size,
        &corners,
        &mut inp,
        &mut hw,
        &mut |_, _| {},
    )?;
    let elapsed = started.elapsed().as_secs_f64();
    let clocks = port.clocks() - clocks0;
    let mut model = |i: &RunInputs| -> Result<RunOutput, String> {
        sim::core_model::run(&image, i).map_err(|e| e.to_string())
    };
    let mut inp = RunInputs::default();
    let golden = render(
        &program,
        size,
        size,
        &corners,
        &mut inp,
        &mut model,
        &mut |_, _| {},
    )?;
    let differing = frame.diff(&golden).0;
    if differing != 0 || frame.cycles != golden.cycles {
        bail!(
            "the {} engine and the core model disagree: {differing} pixels, cycles {:?} vs {:?}",
            port.engine(),
            frame.cycles,
            golden.cycles
        );
    }
    println!(
        "hardware: {name} rendered {size}x{size} on the {} engine (the core's Verilog, cycle by cycle) in {elapsed:.2} s, \
         {clocks} clocks simulated ({:.0} per second); equal to the core model: 0 pixels differ, {} cycles both",
        port.engine(),
        clocks as f64 / elapsed.max(1e-9),
        frame.cycles.unwrap_or(0)
    );
    Ok(())
}

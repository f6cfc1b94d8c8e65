//! `tgsi-core run --engine core|rtl|verilator|board`: compile the program (or load an image
//! written by `compile`) and execute it on the core model, on the hardware (rust-hdl simulation or
//! Verilator), or on the board over its serial port (uploading the image unless it is already
//! the active one), printing the outputs like every engine, plus `--trace` lines (and `--vcd`).

use super::input;
use super::run::RunArgs;
use anyhow::{Context, Result};
use microcode::compile::compile;
use microcode::core::image::MAGIC;
use microcode::core::{CoreConfig, Image};
use sim::run_io::{args, RunInputs};
use std::process::ExitCode;

/// Runs the core engine for `tgsi-core run`.
pub fn run(a: &RunArgs) -> Result<ExitCode> {
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
        let (client, config) = board_link(a.port.as_deref(), a.timeout_ms)?;
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

/// Connects to the board on `port` and reads the configuration its core was built with.
pub fn board_link(
    port: Option<&str>,
    timeout_ms: u64,
) -> Result<(
    firmware_loader::host::Client<firmware_loader::port::SerialTransport>,
    CoreConfig,
)> {
    let port =
        port.context("engine board needs --port (see `tgsi-core ports`, or `tgsi-core emulate`)")?;
    let link = super::load::PortArgs {
        port: port.to_string(),
        baud: firmware_loader::protocol::DEFAULT_BAUD,
        timeout_ms,
        retries: 8,
    };
    let mut client = super::load::connect(&link)?;
    let config = super::load::board_config(&mut client).with_context(|| port.to_string())?;
    Ok((client, config))
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
        None => board_link(a.port.as_deref(), a.timeout_ms)?.0,
    };
    let port = a.port.as_deref().unwrap_or("the board");
    let file = board_upload(&mut client, port, image, inputs, &mut say_uploaded(port))?;
    if a.budget != sim::run_io::DEFAULT_BUDGET {
        eprintln!("note: the board runs every quad with its own budget (--budget is ignored)");
    }
    board_quad(&mut client, image, &file, inputs).with_context(|| format!("{port}: running"))
}

/// Makes `image` the board's active image (uploading it unless it already is); refuses, naming
/// the instruction, an image that uses an operation the board's hardware does not build. The
/// textures `inputs` binds are part of the board's image (TEXTURES region, sampler descriptors
/// in CONSTANTS), so sampling the same image with other textures uploads it again.
/// `on_upload` hears the image's size when it had to be uploaded.
pub fn board_upload(
    client: &mut firmware_loader::host::Client<firmware_loader::port::SerialTransport>,
    port: &str,
    image: &Image,
    inputs: &RunInputs,
    on_upload: &mut dyn FnMut(usize),
) -> Result<firmware_loader::image::ImageFile> {
    // The board's hardware is this crate's: refuse, naming the instruction, what it does not build.
    sim::hardware::check_supported(image, "board")?;
    let mut file = board_image(image, inputs)?;
    // PARAMS is laid out by K slot: CONST slots beyond the device's PARAMS travel in the image.
    if file.params_bytes() > 0 {
        let limit = client
            .device_info()
            .with_context(|| format!("{port}: INFO"))?
            .limits
            .params as usize;
        if file.params_bytes() > limit {
            file.bind_buffer_constants(&|b, i| buffer_constant(inputs, b, i));
        }
    }
    let uploaded = firmware_loader::board::ensure_loaded(client, &file.upload, &mut |_, _| {})
        .with_context(|| format!("{port}: uploading the image"))?;
    if uploaded {
        on_upload(file.upload.total_bytes());
    }
    Ok(file)
}

/// What the board's loader uploads for `image` (see [`sim::hardware::board::upload_file`]).
pub fn board_image(image: &Image, inputs: &RunInputs) -> Result<firmware_loader::image::ImageFile> {
    Ok(sim::hardware::board::upload_file(image, inputs)?)
}

/// The value of `CONST[b][i]` in `inputs` (zero when not given, as on every engine).
fn buffer_constant(inputs: &RunInputs, b: u16, i: u16) -> [u32; 4] {
    inputs
        .constants
        .get(&(u32::from(b), u32::from(i)))
        .copied()
        .unwrap_or([0; 4])
}

/// Tells the user an image was uploaded to `port`.
pub fn say_uploaded(port: &str) -> impl FnMut(usize) + '_ {
    move |bytes| eprintln!("uploaded the image ({bytes} bytes) to {port}")
}

/// One quad on the board, as a [`sim::run_io::RunOutput`] like every engine's: a geometry
/// program's vertices are the outputs the board streamed at its EMIT pauses, ended by its
/// ENDPRIM pauses and the end of the run (as `sim::hardware::run_loaded` reads them).
pub fn board_quad(
    client: &mut firmware_loader::host::Client<firmware_loader::port::SerialTransport>,
    image: &Image,
    file: &firmware_loader::image::ImageFile,
    inputs: &RunInputs,
) -> Result<sim::run_io::RunOutput> {
    let quad: Vec<(u16, [[u32; 4]; 4])> = inputs
        .inputs
        .iter()
        .filter_map(|(&n, v)| u16::try_from(n).ok().map(|n| (n, *v)))
        .collect();
    let constant = |b: u16, i: u16| buffer_constant(inputs, b, i);
    let results = firmware_loader::board::run_image(client, file, &[quad], &constant)?;
    let q = results.first().context("the board ran no quad")?;
    if q.fault != 0 {
        anyhow::bail!(
            "the board's core stopped with fault {} ({}) after {} cycles",
            q.fault,
            sim::hardware::fault_name(q.fault),
            q.cycles
        );
    }
    let mut lanes: [sim::run_io::LaneOutput; 4] = Default::default();
    for p in &q.pauses {
        for (l, lane) in lanes.iter_mut().enumerate() {
            if p.lanes & (1 << l) == 0 {
                continue;
            }
            if p.code == sim::hardware::fault_code::EMIT {
                let outputs = p.outputs.iter().map(|(n, v)| (u32::from(*n), v[l]));
                lane.vertices.push(sim::run_io::Vertex {
                    outputs: outputs.collect(),
                    primitive_end: false,
                });
            } else if let Some(v) = lane.vertices.last_mut() {
                v.primitive_end = true;
            }
        }
    }
    for (l, lane) in lanes.iter_mut().enumerate() {
        lane.killed = q.kill_mask & (1 << l) != 0;
        for (n, v) in &q.outputs {
            lane.outputs.insert(u32::from(*n), v[l]);
        }
        // As every engine: the end of the run ends the last primitive.
        if let Some(v) = lane.vertices.last_mut() {
            v.primitive_end = true;
        }
    }
    Ok(sim::run_io::RunOutput {
        engine: "board".into(),
        lanes,
        instructions: None,
        cycles: Some(u64::from(q.cycles)),
        fault: None,
        geometry: image.processor == 2,
        warnings: Vec::new(),
    })
}

//! The board over its serial port, for every command that talks to it (`load`, `run`, `render`,
//! `conformance`, `selftest`, `demo`): connecting, the board's core configuration, uploading an
//! image with its textures, and running a quad.

use anyhow::{Context, Result};
use clap::Args;
use firmware_loader::host::{Client, ClientOptions};
use firmware_loader::port::SerialTransport;
use firmware_loader::protocol::DEFAULT_BAUD;
use microcode::core::{CoreConfig, Image};
use sim::run_io::RunInputs;
use std::time::Duration;

/// How to talk to a board once its port is named: the line rate and the patience. Every
/// command that talks to boards flattens it (`run`, `render`, `conformance`, `bench`, and
/// through [`PortArgs`] `load` and `selftest`); the port itself is each command's own, as one
/// required path, an optional one (engine board) or several (a farm).
#[derive(Args, Clone, Debug)]
pub struct LinkArgs {
    /// Board: line rate (the device starts at 115200 and switches to it, up to 3000000; a
    /// loader built with `synth --baud N` only talks at N). Where a command takes `--port
    /// PATH@BAUD`, that board keeps its own rate.
    #[arg(long, default_value_t = DEFAULT_BAUD)]
    pub baud: u32,
    /// Board: wait per attempt for an answer, in milliseconds.
    #[arg(long, default_value_t = 250)]
    pub timeout_ms: u64,
    /// Board: attempts after the first before giving up on a request.
    #[arg(long, default_value_t = 8)]
    pub retries: u32,
}

impl LinkArgs {
    /// This link at line rate `baud` (a `PATH@BAUD` port's own).
    pub fn at(&self, baud: u32) -> LinkArgs {
        LinkArgs {
            baud,
            ..self.clone()
        }
    }
}

/// A board that must be named (`load`, `selftest`): its port and how to talk to it.
#[derive(Args, Clone, Debug)]
pub struct PortArgs {
    /// Serial port of the board (see `tgsi-core ports`), e.g. /dev/ttyUSB1.
    #[arg(long)]
    pub port: String,
    #[command(flatten)]
    pub link: LinkArgs,
    /// The core RUN and READ address on a board with several: a number, or `all` (each quad
    /// on every core at once, checked to agree; the board's selection after power-up).
    /// `selftest` runs its checks on that selection only; `load` leaves it selected for the
    /// RUNs that follow (until RESET or another selection).
    #[arg(long)]
    pub core: Option<String>,
}

/// Opens the board's port at the power-up rate and switches to the requested one: see
/// [`connect_at`].
pub fn connect(board: &PortArgs) -> Result<Client<SerialTransport>> {
    connect_at(&board.port, &board.link)
}

/// Opens `port` at the power-up rate and switches to `link`'s. A board whose loader was built
/// for a fixed rate (`tgsi-core synth --baud`) does not switch: then the port is opened at the
/// requested rate directly, and INFO must confirm it.
pub fn connect_at(port: &str, link: &LinkArgs) -> Result<Client<SerialTransport>> {
    let opts = ClientOptions {
        timeout: Duration::from_millis(link.timeout_ms),
        retries: link.retries,
        ..ClientOptions::default()
    };
    let t = SerialTransport::open(port, DEFAULT_BAUD)?;
    let mut client = Client::new(t, opts);
    if link.baud == DEFAULT_BAUD {
        return Ok(client);
    }
    let switched = client.set_baud(link.baud);
    let Err(first) = switched else {
        return Ok(client);
    };
    drop(client);
    let t = SerialTransport::open(port, link.baud)?;
    let mut client = Client::new(t, opts);
    match client.info() {
        Ok(info) if info.baud == link.baud => Ok(client),
        _ => {
            Err(anyhow::Error::new(first)
                .context(format!("{port}: switching to {} baud", link.baud)))
        }
    }
}

/// The core configuration the board was built with: the default one with the feature bits INFO
/// reports (a board built with `synth --no-divider` or `--no-integer` leaves those units out),
/// checked against INFO's ISA hash.
pub fn board_config<T: firmware_loader::port::Transport>(
    client: &mut Client<T>,
) -> Result<CoreConfig> {
    let info = client.device_info().context("INFO")?;
    // INFO names the configuration (protocol 2): its bytes, checked against the ISA hash.
    if let Some(cfg) = info.core_config() {
        return Ok(cfg);
    }
    // A board's own build (`microcode::board`): the ULX3S's larger memories included.
    if let Some(board) = microcode::board::Board::from_isa_hash(info.isa_hash) {
        return Ok(board.core_config());
    }
    // INFO names the units and the texture memory (its TEXTURES region); a board build may also
    // keep fewer mask-stack frames (`synth --minimal`), which only the hash tells apart.
    let mut cfg = CoreConfig {
        features: info.features,
        ..CoreConfig::default()
    };
    let default_texels = cfg.texture_texels;
    let region_texels = u16::try_from(info.limits.textures / 4).unwrap_or(u16::MAX);
    let default_depth = cfg.mask_stack_depth;
    for texels in [default_texels, region_texels] {
        cfg.texture_texels = texels;
        for depth in (1..=default_depth).rev() {
            cfg.mask_stack_depth = depth;
            if cfg.isa_hash() == info.isa_hash {
                return Ok(cfg);
            }
        }
    }
    anyhow::bail!(
        "the board's core has ISA hash {:08x}, which is no configuration this tool builds \
         (features {:#x}, {default_texels} or {region_texels} texels of texture memory, mask \
         stacks of 1 to {default_depth} frames); compile for it and load the image file",
        info.isa_hash,
        info.features,
    )
}

/// The core a `--core` option names: a number below the board's core count, or `all` (every
/// core at once: each quad runs on all of them, which the board checks agree).
pub fn parse_core(text: &str) -> Result<u8> {
    if text.eq_ignore_ascii_case("all") {
        return Ok(firmware_loader::protocol::ALL_CORES);
    }
    let n: u8 = text
        .parse()
        .ok()
        .filter(|&n| n != firmware_loader::protocol::ALL_CORES)
        .with_context(|| format!("--core {text}: a core number (0, 1, ...) or `all`"))?;
    Ok(n)
}

/// Makes RUN and READ address `core` (`--core`; `None` leaves the board's selection, every
/// core after power-up and RESET), checked against the board's core count.
pub fn select_core<T: firmware_loader::port::Transport>(
    client: &mut Client<T>,
    core: Option<&str>,
) -> Result<()> {
    let Some(text) = core else {
        return Ok(());
    };
    let n = parse_core(text)?;
    let info = client.device_info().context("INFO")?;
    if n != firmware_loader::protocol::ALL_CORES && u16::from(n) >= info.cores {
        anyhow::bail!(
            "--core {n}: the board has {} core{} (0 to {})",
            info.cores,
            if info.cores == 1 { "" } else { "s" },
            info.cores.saturating_sub(1)
        );
    }
    client.select_core(n).context("CORE")?;
    Ok(())
}

/// Connects to the board on `port` through `link` (switching from the power-up rate, or
/// directly at a loader's fixed build rate: see [`connect_at`]) and reads the configuration its
/// core was built with.
pub fn board_link(
    port: Option<&str>,
    link: &LinkArgs,
) -> Result<(
    firmware_loader::host::Client<firmware_loader::port::SerialTransport>,
    CoreConfig,
)> {
    let port =
        port.context("engine board needs --port (see `tgsi-core ports`, or `tgsi-core emulate`)")?;
    let mut client = connect_at(port, link)?;
    let config = board_config(&mut client).with_context(|| port.to_string())?;
    Ok((client, config))
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
            file.bind_buffer_constants(&|b, i| inputs.constant(b, i));
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
    let constant = |b: u16, i: u16| inputs.constant(b, i);
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

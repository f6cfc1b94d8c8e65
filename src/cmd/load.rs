//! `tgsi-core load --port PATH FILE`: compile (if TGSI), upload over the serial loader, verify, commit.

use super::input::{self, InputFormat};
use anyhow::{Context, Result};
use clap::Args;
use firmware_loader::host::{Client, ClientOptions};
use firmware_loader::image::ImageFile;
use firmware_loader::port::SerialTransport;
use firmware_loader::protocol::DEFAULT_BAUD;
use indicatif::{ProgressBar, ProgressStyle};
use microcode::compile::compile;
use microcode::core::CoreConfig;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Where the board is and how to talk to it (shared by `load` and `selftest`).
#[derive(Args, Clone, Debug)]
pub struct PortArgs {
    /// Serial port of the board (see `tgsi-core ports`), e.g. /dev/ttyUSB1.
    #[arg(long)]
    pub port: String,
    /// Line rate to switch to after connecting (the device starts at 115200; up to 3000000).
    #[arg(long, default_value_t = DEFAULT_BAUD)]
    pub baud: u32,
    /// Wait per attempt for an answer, in milliseconds.
    #[arg(long, default_value_t = 250)]
    pub timeout_ms: u64,
    /// Attempts after the first before giving up.
    #[arg(long, default_value_t = 8)]
    pub retries: u32,
}

/// Arguments of `load`.
#[derive(Args)]
pub struct LoadArgs {
    #[command(flatten)]
    pub link: PortArgs,
    /// A core image (from `tgsi-core compile`) or a TGSI program (text or tokens), compiled for the
    /// board's core.
    pub file: PathBuf,
    /// Texture for sampler unit N (as for `run`): on the board the textures are part of the
    /// image, uploaded and checksummed with it.
    #[arg(long = "texture", value_name = "N=FILE.png[,option...]")]
    pub textures: Vec<String>,
}

/// Opens the port at the power-up rate and switches to the requested one. A board whose loader
/// was built for a fixed rate (`tgsi-core synth --baud`) does not switch: then the port is opened
/// at the requested rate directly, and INFO must confirm it.
pub fn connect(link: &PortArgs) -> Result<Client<SerialTransport>> {
    let opts = ClientOptions {
        timeout: Duration::from_millis(link.timeout_ms),
        retries: link.retries,
        ..ClientOptions::default()
    };
    let t = SerialTransport::open(&link.port, DEFAULT_BAUD)?;
    let mut client = Client::new(t, opts);
    if link.baud == DEFAULT_BAUD {
        return Ok(client);
    }
    let switched = client.set_baud(link.baud);
    let Err(first) = switched else {
        return Ok(client);
    };
    drop(client);
    let t = SerialTransport::open(&link.port, link.baud)?;
    let mut client = Client::new(t, opts);
    match client.info() {
        Ok(info) if info.baud == link.baud => Ok(client),
        _ => Err(anyhow::Error::new(first)
            .context(format!("{}: switching to {} baud", link.port, link.baud))),
    }
}

/// The core configuration the board was built with: the default one with the feature bits INFO
/// reports (a board built with `synth --no-divider` or `--no-integer` leaves those units out),
/// checked against INFO's ISA hash.
pub fn board_config<T: firmware_loader::port::Transport>(
    client: &mut Client<T>,
) -> Result<CoreConfig> {
    let info = client.device_info().context("INFO")?;
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
            if crc32fast::hash(&cfg.to_bytes()) == info.isa_hash {
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

/// What `load` was given: an image file, or a validated TGSI program still to be compiled.
pub enum Loadable {
    /// An image file (it names the configuration it was compiled for).
    Image(microcode::core::Image),
    /// A TGSI program and its display name.
    Program(microcode::tgsi::Program, String),
}

/// Reads an image file or a TGSI program (text or tokens), reporting a bad file before any port
/// is opened.
pub fn read_loadable(path: &Path) -> Result<Loadable> {
    let bytes = super::input::read_bytes(path)?;
    if bytes.starts_with(&microcode::core::image::MAGIC) {
        let image = microcode::core::Image::from_bytes(&bytes)
            .with_context(|| format!("{}", path.display()))?;
        return Ok(Loadable::Image(image));
    }
    let input = input::read(path, InputFormat::Auto).with_context(|| {
        format!(
            "{}: neither a core image nor a TGSI program",
            path.display()
        )
    })?;
    input::warn(&input);
    input::require_valid(&input)?;
    Ok(Loadable::Program(input.loaded.program, input.name))
}

/// The image to upload: the file itself, or the program compiled for a core built for `config`.
pub fn image_for(loadable: Loadable, config: &CoreConfig) -> Result<ImageFile> {
    match loadable {
        Loadable::Image(image) => Ok(ImageFile::from_image(&image)),
        Loadable::Program(program, name) => {
            let compiled =
                compile(&program, config).with_context(|| format!("compiling {name}"))?;
            Ok(ImageFile::from_image(&compiled.image))
        }
    }
}

fn progress_bar(total: usize) -> ProgressBar {
    let pb = ProgressBar::new(total as u64);
    let style = ProgressStyle::with_template(
        "{msg} [{bar:40}] {bytes}/{total_bytes} ({bytes_per_sec}, {eta})",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar())
    .progress_chars("=> ");
    pb.set_style(style);
    pb.set_message("uploading");
    pb
}

/// Uploads, verifies and commits.
pub fn run(args: LoadArgs) -> Result<ExitCode> {
    let loadable = read_loadable(&args.file)?;
    // Textures are read before any port is opened, like the file.
    let mut inputs = sim::run_io::RunInputs::default();
    sim::run_io::args::apply_textures(&mut inputs, &args.textures)?;
    let mut client = connect(&args.link)?;
    // An image file says what it was built for (the upload checks it); a program is compiled for
    // the board's own configuration.
    let config = match &loadable {
        Loadable::Image(..) => CoreConfig::default(),
        Loadable::Program(..) => {
            board_config(&mut client).with_context(|| args.link.port.clone())?
        }
    };
    let image = if args.textures.is_empty() {
        image_for(loadable, &config)?
    } else {
        // The compiled image with the textures bound, as `run --engine board` uploads it.
        let core_image = match loadable {
            Loadable::Image(image) => image,
            Loadable::Program(program, name) => {
                compile(&program, &config)
                    .with_context(|| format!("compiling {name}"))?
                    .image
            }
        };
        super::run_core::board_image(&core_image, &inputs)
            .with_context(|| format!("{}: binding the textures", args.file.display()))?
    };
    if let Some(&(_, unit, _)) = image.texture_slots.first() {
        if args.textures.is_empty() {
            anyhow::bail!(
                "{}: the program samples SAMP[{unit}]; on the board the textures are part of the \
                 image: give them with `--texture {unit}=FILE.png` (as `run` and `render` take them)",
                args.file.display()
            );
        }
    }
    let pb = progress_bar(image.upload.total_bytes());
    let result = client.upload(&image.upload, &mut |done, _| pb.set_position(done as u64));
    pb.finish_and_clear();
    let report = result.with_context(|| format!("{}: upload", args.link.port))?;
    println!(
        "{}: loaded {} ({} bytes, CRC {:08x}), committed and verified in {:.2} s ({} retries)",
        args.link.port,
        args.file.display(),
        report.bytes,
        report.crc,
        report.elapsed.as_secs_f64(),
        report.stats.attempts - report.stats.requests
    );
    Ok(ExitCode::SUCCESS)
}

//! `tgsi-core load --port PATH FILE`: compile (if TGSI), upload over the serial loader, verify, commit.

use super::board::{board_config, connect, PortArgs};
use super::input::{self, InputFormat};
use anyhow::{Context, Result};
use clap::Args;
use firmware_loader::image::ImageFile;
use indicatif::{ProgressBar, ProgressStyle};
use microcode::compile::compile;
use microcode::core::CoreConfig;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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
    // A bad `--core` is refused before anything is read or opened.
    if let Some(core) = &args.link.core {
        super::board::parse_core(core)?;
    }
    let loadable = read_loadable(&args.file)?;
    // Textures are read before any port is opened, like the file.
    let mut inputs = sim::run_io::RunInputs::default();
    sim::run_io::args::apply_textures(&mut inputs, &args.textures)?;
    let mut client = connect(&args.link)?;
    // Every core gets the image; `--core` (checked against the board's count before anything
    // is uploaded) leaves the one later RUNs address selected: an upload keeps the selection.
    super::board::select_core(&mut client, args.link.core.as_deref())?;
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
        super::board::board_image(&core_image, &inputs)
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
    if let Some(core) = &args.link.core {
        println!("{}: core {core} selected for RUN and READ", args.link.port);
    }
    Ok(ExitCode::SUCCESS)
}

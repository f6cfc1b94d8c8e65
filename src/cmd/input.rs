//! Reading a program named on the command line: text or tokens (detected or forced), with errors
//! rendered against the file they came from.

use anyhow::{bail, Context, Result};
use clap::ValueEnum;
use microcode::tgsi::load::{self, Format, LoadError, Loaded};
use microcode::tgsi::validate::{validate, Limits};
use microcode::tgsi::Program;
use std::path::Path;

/// `--format` on every command that reads a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InputFormat {
    /// Detect from the bytes (tokens start with a VERSION word).
    Auto,
    /// TGSI text (either Mesa dialect).
    Text,
    /// Little-endian binary tokens.
    Tokens,
}

impl InputFormat {
    fn forced(self) -> Option<Format> {
        match self {
            InputFormat::Auto => None,
            InputFormat::Text => Some(Format::Text),
            InputFormat::Tokens => Some(Format::Tokens),
        }
    }
}

/// A program and where it came from.
pub struct Input {
    pub loaded: Loaded,
    pub name: String,
    /// A translated shader's uniforms and textures (`None` for TGSI).
    pub bindings: Option<translate::Bindings>,
}

/// The largest input file read: far beyond any program the core holds (a few thousand
/// instructions), small enough that a mistaken `/dev/zero` or disk image fails at once.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;

/// Reads a whole input file of at most [`MAX_INPUT_BYTES`]. Only regular files are read: a FIFO,
/// a terminal or a device such as `/dev/zero` would block or never end.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    use std::io::Read;
    let meta =
        std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    if !meta.is_file() {
        bail!(
            "cannot read {}: it is {}, not a regular file",
            path.display(),
            describe_file_type(&meta.file_type())
        );
    }
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut bytes = Vec::new();
    // One byte past the limit tells a file at the limit from a longer one (which may have grown
    // since the metadata was read).
    file.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        bail!(
            "cannot read {}: larger than the maximum input size of {} MiB",
            path.display(),
            MAX_INPUT_BYTES >> 20
        );
    }
    Ok(bytes)
}

/// "a directory", "a FIFO", ... for messages about files that are not regular.
pub fn describe_file_type(t: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

/// Fails, naming what was found, unless `bytes` start like a compiled core image.
pub fn require_image(bytes: &[u8], path: &Path) -> Result<()> {
    let found = match load::sniff(bytes) {
        load::Sniffed::Image { .. } => return Ok(()),
        load::Sniffed::Text => "TGSI text".to_string(),
        load::Sniffed::Tokens { major, minor } => format!("TGSI tokens of version {major}.{minor}"),
        load::Sniffed::DamagedImage { magic } => {
            format!("an image header behind a damaged magic {magic:02x?}")
        }
        load::Sniffed::Unknown { first_word } => {
            format!("an unrecognised format (first word {first_word:#010x})")
        }
    };
    bail!(
        "{}: found {found}; expected a compiled core image (magic \"TGCI\", version {}.{}): \
         `tgsi-core compile` writes one",
        path.display(),
        microcode::core::image::VERSION.0,
        microcode::core::image::VERSION.1
    )
}

/// Reads and loads `path`; syntax errors come back rendered with the offending line and a caret.
pub fn read(path: &Path, format: InputFormat) -> Result<Input> {
    let bytes = read_bytes(path)?;
    let name = path.display().to_string();
    // WGSL, GLSL and SPIR-V (by extension) come in through the translator.
    if let (InputFormat::Auto, Some(language)) = (format, translate::language_of(path)) {
        let t = translate::translate(&bytes, language, &name, None)?;
        let loaded = Loaded {
            program: t.program,
            format: Format::Text,
            minor_version: None,
            warnings: Vec::new(),
        };
        return Ok(Input {
            loaded,
            name,
            bindings: Some(t.bindings),
        });
    }
    match load::load(&bytes, format.forced()) {
        Ok(loaded) => Ok(Input {
            loaded,
            name,
            bindings: None,
        }),
        Err(LoadError::Text(e)) => {
            let src = String::from_utf8_lossy(&bytes);
            // The parser never saw the byte order mark (`load` skips it): columns count without.
            let src = src.strip_prefix(load::UTF8_BOM).unwrap_or(&src);
            bail!("{}", e.render(src, &name).trim_end())
        }
        Err(e) => bail!("{name}: {e}"),
    }
}

/// Prints the decoder's warnings to stderr.
pub fn warn(input: &Input) {
    for w in &input.loaded.warnings {
        eprintln!("{}: warning: {w}", input.name);
    }
}

/// Validates a program; every error is printed, then the command fails.
pub fn require_valid(input: &Input) -> Result<()> {
    check_valid(&input.loaded.program, &input.name)
}

/// How many validation errors are printed before the rest are only counted.
const MAX_ERRORS_SHOWN: usize = 100;

/// Validates `program`, naming `name` in the messages.
pub fn check_valid(program: &Program, name: &str) -> Result<()> {
    if let Err(errors) = validate(program, &Limits::default()) {
        // A hostile file can hold millions of errors; the first ones say what is wrong.
        for e in errors.iter().take(MAX_ERRORS_SHOWN) {
            eprintln!("{name}:{e}");
        }
        if errors.len() > MAX_ERRORS_SHOWN {
            eprintln!(
                "{name}: ... and {} more errors",
                errors.len() - MAX_ERRORS_SHOWN
            );
        }
        bail!("{name}: {} validation error(s)", errors.len());
    }
    Ok(())
}

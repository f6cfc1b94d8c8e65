//! The binary image the compiler writes and the loaders (core model, firmware loader) read.
//!
//! Layout, all little-endian:
//! ```text
//! 0   "TGCI"                      magic
//! 4   u16 major, u16 minor        version (3.0)
//! 8   u32 header length           = CONFIG_BYTES + 4
//! 12  CoreConfig::to_bytes, u8 processor, 3 zero bytes
//! ..  sections: u32 tag (4 ASCII), u32 payload length, payload
//!     CODE  16 bytes per instruction (the u128 word of isa::encode)
//!     KMAP  24 bytes per constant slot: u16 K index, u16 kind (0 data, 1 CONST, 2 geometry
//!           input, 3 sampler descriptor), u16 buffer (vertex, sampler unit), u16 index (or
//!           descriptor part), 4 x u32 data
//!     IMAP  4 bytes per input: u16 TGSI IN index, u16 R register
//!     OMAP  4 bytes per output: u16 TGSI OUT index, u16 R register
//!     ORIG  2 bytes per instruction: the TGSI instruction index it came from
//! end u32 CRC-32 (IEEE) of every byte before it
//! ```
//! A reader of version 3.x skips sections it does not know; a different major version is refused
//! (1.x images hold 120-bit instruction words with 8-bit register indices, 2.x 112-bit words with
//! a MODULATE field).

use super::config::{ConfigError, CoreConfig, CONFIG_BYTES};
use super::isa::{decode, encode, DecodeError, Instr};
use thiserror::Error;

/// First four bytes of every image.
pub const MAGIC: [u8; 4] = *b"TGCI";
/// Version written by this crate: 3.0 since the instruction word is 109 bits
/// (`isa::WORD_BITS`: the MODULATE field left the core), whose fields a 2.x reader would
/// misplace.
pub const VERSION: (u16, u16) = (3, 0);

/// Where a constant slot's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstSource {
    /// Immediate data stored in the image.
    Data([u32; 4]),
    /// `CONST[buffer][index]`, written by the host before the run.
    Buffer {
        /// The constant buffer: the first bracket of a 2-D `CONST`, 0 for a 1-D one.
        buffer: u16,
        /// The CONST register within the buffer.
        index: u16,
    },
    /// Geometry input `IN[vertex][index]`, written by the host before the run.
    Geometry {
        /// The input vertex (the first bracket).
        vertex: u16,
        /// The input register of that vertex (the second bracket).
        index: u16,
    },
    /// Descriptor `part` (0 or 1, `arith::texel::descriptors`) of the texture bound to sampler
    /// `unit`, written by the host before the run.
    Texture {
        /// The sampler unit (`SAMP[unit]`).
        unit: u16,
        /// Which descriptor vector: 0 or 1.
        part: u16,
    },
}

/// One slot of the constant file K.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstSlot {
    /// The slot's index in K, as the instructions' operands name it.
    pub k: u16,
    /// What the loader writes into it.
    pub source: ConstSource,
}

/// A TGSI register mapped to a register of R.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegMap {
    /// The TGSI register index (`IN[tgsi]` or `OUT[tgsi]`).
    pub tgsi: u16,
    /// The register of R that holds it: where the loader writes an input or reads an output.
    pub reg: u16,
}

/// A compiled program with everything the loader needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// The core the program was compiled for; a loader refuses the image on a core that
    /// differs ([`Image::check_config`]).
    pub config: CoreConfig,
    /// TGSI processor number (0 fragment, 1 vertex, 2 geometry).
    pub processor: u8,
    /// The program: one core instruction per word of instruction memory, run from index 0.
    pub code: Vec<Instr>,
    /// The constant file's contents, one entry per slot of K the program reads.
    pub constants: Vec<ConstSlot>,
    /// Where each TGSI input goes in R before a run.
    pub inputs: Vec<RegMap>,
    /// Where each TGSI output is read from R after a run.
    pub outputs: Vec<RegMap>,
    /// Per core instruction: the TGSI instruction index it came from ([`LIBRARY_ORIGIN`] for
    /// the compiler's binary64 library, [`DIVISION_ORIGIN`] for its division routine).
    pub origin: Vec<u16>,
}

/// The origin of the instructions of the binary64 library, which no one TGSI instruction owns.
pub const LIBRARY_ORIGIN: u16 = u16::MAX;
/// The origin of the instructions of the shared division routine (`compile/div.rs`), which no
/// one TGSI instruction owns either.
pub const DIVISION_ORIGIN: u16 = u16::MAX - 1;

/// An image that cannot be read.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ImageError {
    /// The file does not start with `TGCI`: it is not a compiled image (a TGSI text or token
    /// file given where an image was expected, or another file altogether).
    #[error("offset {offset}: bad magic {found:02x?} (expected \"TGCI\")")]
    BadMagic {
        /// Always 0: where the magic is.
        offset: usize,
        /// The bytes found there.
        found: Vec<u8>,
    },
    /// The image's major version is not [`VERSION`]'s: an image from an older or newer
    /// compiler, whose instruction words this reader would misplace. Recompile it.
    #[error("offset {offset}: image version {major}.{minor}; this reader knows {}.{}", VERSION.0, VERSION.1)]
    BadVersion {
        /// Where the version is (4).
        offset: usize,
        /// The image's major version.
        major: u16,
        /// The image's minor version.
        minor: u16,
    },
    /// The CRC-32 at the end does not match the bytes before it: the file was damaged after
    /// the compiler wrote it.
    #[error("offset {offset}: checksum {stored:08x} stored, {computed:08x} computed")]
    Checksum {
        /// Where the stored checksum is (the last four bytes).
        offset: usize,
        /// The checksum the image carries.
        stored: u32,
        /// The checksum of the bytes read.
        computed: u32,
    },
    /// The image ends inside a field or section: a file cut short.
    #[error("offset {offset}: truncated, {need} more bytes needed")]
    Truncated {
        /// Where the missing bytes should start.
        offset: usize,
        /// How many more bytes the field needs.
        need: usize,
    },
    /// The core configuration in the header is not one [`CoreConfig::from_bytes`] accepts.
    #[error("offset {offset}: config: {source}")]
    Config {
        /// Where the configuration starts.
        offset: usize,
        /// Why it was refused.
        source: ConfigError,
    },
    /// A word of the CODE section is not an instruction of this ISA.
    #[error("offset {offset}: instruction {index}: {source}")]
    Instruction {
        /// Where the word starts.
        offset: usize,
        /// The instruction's index in the program.
        index: usize,
        /// Which field is wrong.
        source: DecodeError,
    },
    /// A known section's length is not a whole number of its entries.
    #[error("offset {offset}: section {tag} has length {len}, not a multiple of {unit}")]
    BadLength {
        /// Where the section's tag is.
        offset: usize,
        /// The section's tag (`CODE`, `KMAP`, ...).
        tag: String,
        /// The payload length the section declares, in bytes.
        len: usize,
        /// The size of one entry of the section, in bytes.
        unit: usize,
    },
    /// A KMAP entry's kind is not 0 (data), 1 (CONST), 2 (geometry input) or 3 (sampler
    /// descriptor).
    #[error("offset {offset}: bad constant kind {kind}")]
    BadConstKind {
        /// Where the entry is.
        offset: usize,
        /// The kind it holds.
        kind: u16,
    },
    /// The image is sound but was compiled for a core of another shape than the one that
    /// would run it; the text lists the differences (registers, constants, features, ...).
    #[error("image built for a different core: {0}")]
    ConfigMismatch(String),
}

fn put16(v: &mut Vec<u8>, x: u16) {
    v.extend_from_slice(&x.to_le_bytes());
}
fn put32(v: &mut Vec<u8>, x: u32) {
    v.extend_from_slice(&x.to_le_bytes());
}

fn section(out: &mut Vec<u8>, tag: &[u8; 4], payload: &[u8]) {
    out.extend_from_slice(tag);
    // Sections are bounded by the config limits (u16 counts), far below 4 GiB.
    put32(out, payload.len() as u32);
    out.extend_from_slice(payload);
}

/// A bounds-checked little-endian reader that reports offsets.
struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], ImageError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.b.len());
        match end {
            Some(e) => {
                let s = &self.b[self.at..e];
                self.at = e;
                Ok(s)
            }
            None => Err(ImageError::Truncated {
                offset: self.at,
                need: self.at + n - self.b.len(),
            }),
        }
    }
    fn u16(&mut self) -> Result<u16, ImageError> {
        let s = self.take(2)?;
        Ok(u16::from_le_bytes([s[0], s[1]]))
    }
    fn u32(&mut self) -> Result<u32, ImageError> {
        let s = self.take(4)?;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }
}

fn le16(s: &[u8], o: usize) -> u16 {
    u16::from_le_bytes([s[o], s[o + 1]])
}
fn le32(s: &[u8], o: usize) -> u32 {
    u32::from_le_bytes([s[o], s[o + 1], s[o + 2], s[o + 3]])
}

impl Image {
    /// The bytes of the image, checksum included.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&MAGIC);
        put16(&mut out, VERSION.0);
        put16(&mut out, VERSION.1);
        put32(&mut out, (CONFIG_BYTES + 4) as u32);
        out.extend_from_slice(&self.config.to_bytes());
        out.extend_from_slice(&[self.processor, 0, 0, 0]);
        let mut code = Vec::new();
        for i in &self.code {
            code.extend_from_slice(&encode(i).to_le_bytes());
        }
        section(&mut out, b"CODE", &code);
        let mut k = Vec::new();
        for c in &self.constants {
            put16(&mut k, c.k);
            let (kind, buffer, index, data) = match c.source {
                ConstSource::Data(d) => (0, 0, 0, d),
                ConstSource::Buffer { buffer, index } => (1, buffer, index, [0; 4]),
                ConstSource::Geometry { vertex, index } => (2, vertex, index, [0; 4]),
                ConstSource::Texture { unit, part } => (3, unit, part, [0; 4]),
            };
            put16(&mut k, kind);
            put16(&mut k, buffer);
            put16(&mut k, index);
            for x in data {
                put32(&mut k, x);
            }
        }
        section(&mut out, b"KMAP", &k);
        for (tag, map) in [(b"IMAP", &self.inputs), (b"OMAP", &self.outputs)] {
            let mut m = Vec::new();
            for r in map {
                put16(&mut m, r.tgsi);
                put16(&mut m, r.reg);
            }
            section(&mut out, tag, &m);
        }
        let mut o = Vec::new();
        for &x in &self.origin {
            put16(&mut o, x);
        }
        section(&mut out, b"ORIG", &o);
        let crc = crc32fast::hash(&out);
        put32(&mut out, crc);
        out
    }

    /// Reads an image, checking magic, version, checksum, lengths and every instruction.
    pub fn from_bytes(b: &[u8]) -> Result<Image, ImageError> {
        let mut r = Reader { b, at: 0 };
        let magic = r.take(4)?;
        if magic != MAGIC {
            return Err(ImageError::BadMagic {
                offset: 0,
                found: magic.to_vec(),
            });
        }
        let (major, minor) = (r.u16()?, r.u16()?);
        if major != VERSION.0 {
            return Err(ImageError::BadVersion {
                offset: 4,
                major,
                minor,
            });
        }
        if b.len() < 16 {
            return Err(ImageError::Truncated {
                offset: b.len(),
                need: 16 - b.len(),
            });
        }
        let body = b.len() - 4;
        let stored = le32(b, body);
        let computed = crc32fast::hash(&b[..body]);
        if stored != computed {
            return Err(ImageError::Checksum {
                offset: body,
                stored,
                computed,
            });
        }
        let mut r = Reader {
            b: &b[..body],
            at: 8,
        };
        let hlen = r.u32()? as usize;
        let hstart = r.at;
        let header = r.take(hlen)?;
        let config = CoreConfig::from_bytes(header).map_err(|source| ImageError::Config {
            offset: hstart,
            source,
        })?;
        let processor = header.get(CONFIG_BYTES).copied().unwrap_or(0);
        let mut img = Image {
            config,
            processor,
            code: Vec::new(),
            constants: Vec::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            origin: Vec::new(),
        };
        while r.at < body {
            let tag_at = r.at;
            let tag = r.take(4)?;
            let len = r.u32()? as usize;
            let start = r.at;
            let p = r.take(len)?;
            let tag_text = String::from_utf8_lossy(tag).into_owned();
            let unit = match tag {
                b"CODE" => 16,
                b"KMAP" => 24,
                b"IMAP" | b"OMAP" => 4,
                b"ORIG" => 2,
                // Newer minor versions may add sections: skip them.
                _ => continue,
            };
            if !len.is_multiple_of(unit) {
                return Err(ImageError::BadLength {
                    offset: tag_at,
                    tag: tag_text,
                    len,
                    unit,
                });
            }
            for (n, e) in p.chunks_exact(unit).enumerate() {
                let offset = start + n * unit;
                match tag {
                    b"CODE" => {
                        let mut w = [0u8; 16];
                        w.copy_from_slice(e);
                        let ins = decode(u128::from_le_bytes(w)).map_err(|source| {
                            ImageError::Instruction {
                                offset,
                                index: n,
                                source,
                            }
                        })?;
                        img.code.push(ins);
                    }
                    b"KMAP" => {
                        let kind = le16(e, 2);
                        let source = match kind {
                            0 => ConstSource::Data(std::array::from_fn(|c| le32(e, 8 + 4 * c))),
                            1 => ConstSource::Buffer {
                                buffer: le16(e, 4),
                                index: le16(e, 6),
                            },
                            2 => ConstSource::Geometry {
                                vertex: le16(e, 4),
                                index: le16(e, 6),
                            },
                            3 => ConstSource::Texture {
                                unit: le16(e, 4),
                                part: le16(e, 6),
                            },
                            _ => return Err(ImageError::BadConstKind { offset, kind }),
                        };
                        img.constants.push(ConstSlot {
                            k: le16(e, 0),
                            source,
                        });
                    }
                    b"IMAP" | b"OMAP" => {
                        let m = RegMap {
                            tgsi: le16(e, 0),
                            reg: le16(e, 2),
                        };
                        if tag == b"IMAP" {
                            img.inputs.push(m)
                        } else {
                            img.outputs.push(m)
                        }
                    }
                    _ => img.origin.push(le16(e, 0)),
                }
            }
        }
        Ok(img)
    }

    /// The loader's check: the image must have been built for `core`.
    pub fn check_config(&self, core: &CoreConfig) -> Result<(), ImageError> {
        if &self.config == core {
            return Ok(());
        }
        let mut diffs = Vec::new();
        let a = &self.config;
        for (name, x, y) in [
            ("program_size", a.program_size, core.program_size),
            ("registers", a.registers, core.registers),
            ("constants", a.constants, core.constants),
            (
                "mask_stack_depth",
                a.mask_stack_depth,
                core.mask_stack_depth,
            ),
            (
                "call_stack_depth",
                a.call_stack_depth,
                core.call_stack_depth,
            ),
            ("texture_texels", a.texture_texels, core.texture_texels),
            ("predicates", a.predicates, core.predicates),
            (
                "address_stack_depth",
                a.address_stack_depth,
                core.address_stack_depth,
            ),
        ] {
            if x != y {
                diffs.push(format!("{name} {x} (core has {y})"));
            }
        }
        if a.features != core.features {
            diffs.push(format!(
                "features {:#x} (core has {:#x})",
                a.features, core.features
            ));
        }
        if a.latency != core.latency || a.literals != core.literals {
            diffs.push("latency or literal set".into());
        }
        Err(ImageError::ConfigMismatch(diffs.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::isa::Op;

    fn sample() -> Image {
        Image {
            config: CoreConfig::default(),
            processor: 0,
            code: vec![Instr::new(Op::Fmad), Instr::new(Op::End)],
            constants: vec![
                ConstSlot {
                    k: 0,
                    source: ConstSource::Data([1, 2, 3, 4]),
                },
                ConstSlot {
                    k: 1,
                    source: ConstSource::Buffer {
                        buffer: 0,
                        index: 7,
                    },
                },
            ],
            inputs: vec![RegMap { tgsi: 0, reg: 1 }],
            outputs: vec![RegMap { tgsi: 0, reg: 2 }],
            origin: vec![0, 1],
        }
    }

    #[test]
    fn round_trip_and_errors() {
        let img = sample();
        let b = img.to_bytes();
        assert_eq!(Image::from_bytes(&b), Ok(img.clone()));
        let mut bad = b.clone();
        bad[0] = b'X';
        assert!(matches!(
            Image::from_bytes(&bad),
            Err(ImageError::BadMagic { offset: 0, .. })
        ));
        let mut bad = b.clone();
        bad[4] = 1;
        assert!(matches!(
            Image::from_bytes(&bad),
            Err(ImageError::BadVersion { major: 1, .. })
        ));
        let mut bad = b.clone();
        let n = bad.len();
        bad[n - 10] ^= 1;
        assert!(matches!(
            Image::from_bytes(&bad),
            Err(ImageError::Checksum { offset, .. }) if offset == n - 4
        ));
        assert!(matches!(
            Image::from_bytes(&b[..6]),
            Err(ImageError::Truncated { offset: 6, need: 2 })
        ));
        // A truncated body with a recomputed checksum is reported at the section that runs short.
        let mut cut = b[..b.len() - 8].to_vec();
        let crc = crc32fast::hash(&cut);
        cut.extend_from_slice(&crc.to_le_bytes());
        assert!(matches!(
            Image::from_bytes(&cut),
            Err(ImageError::Truncated { .. })
        ));
        let other = CoreConfig {
            registers: 8,
            ..CoreConfig::default()
        };
        assert!(img.check_config(&other).is_err());
        assert!(img.check_config(&CoreConfig::default()).is_ok());
    }
}

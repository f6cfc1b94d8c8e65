//! Reading the compiler's image file ("TGCI", written by `microcode::core::image`) into the regions
//! the loader uploads, without depending on the compiler.
//!
//! Layout (little-endian): magic "TGCI", u16 major (2: `microcode::core::image::VERSION`), u16 minor, u32 header length H, H bytes of
//! header (the core configuration, then u8 processor and 3 zero bytes), sections (u32 tag, u32 length,
//! payload), u32 CRC-32 of everything before it. Sections: CODE (16 bytes per instruction), KMAP
//! (24 bytes per constant slot: u16 K, u16 kind 0 data / 1 CONST, u16 buffer, u16 index, 4 x u32),
//! IMAP and OMAP (u16 TGSI index, u16 register), ORIG; unknown sections are skipped.
//!
//! Regions: PROGRAM = the CODE bytes; MAPS = the input and output maps ([`maps_region`]); CONSTANTS = 16 bytes per K slot at `16 * K` (data slots hold
//! their words, CONST slots zero: their values go to PARAMS at run time, same address; sampler
//! descriptor slots (kind 3) zero until [`ImageFile::bind_textures`] fills them; geometry input
//! slots (kind 2, a geometry program's `IN[vertex][index]`) zero until
//! [`ImageFile::bind_geometry_inputs`] fills them); TEXTURES empty until then. The ISA hash is
//! the CRC-32 of the configuration bytes.

use crate::frame::crc32;
use crate::protocol::{le16, le32, IMAGE_REGIONS};
use thiserror::Error;

/// First bytes of an image file.
pub const IMAGE_MAGIC: [u8; 4] = *b"TGCI";
/// Major version this reader understands.
pub const IMAGE_MAJOR: u16 = microcode::core::image::VERSION.0;

/// What one upload writes: the three image regions and the core they are for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Upload {
    /// ISA hash the device must report.
    pub isa_hash: u32,
    /// PROGRAM, CONSTANTS, TEXTURES and MAPS bytes.
    pub regions: [Vec<u8>; IMAGE_REGIONS],
}

impl Upload {
    /// The whole-image CRC-32 COMMIT checks: over the three regions in order.
    pub fn crc(&self) -> u32 {
        let mut h = crc32fast::Hasher::new();
        for r in &self.regions {
            h.update(r);
        }
        h.finalize()
    }

    /// Bytes of all regions.
    pub fn total_bytes(&self) -> usize {
        self.regions.iter().map(Vec::len).sum()
    }
}

/// A register mapping of the image (TGSI index to core register).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegMap {
    /// TGSI IN/OUT index.
    pub tgsi: u16,
    /// Core register.
    pub reg: u16,
}

/// A parsed image file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageFile {
    /// File format version.
    pub version: (u16, u16),
    /// Core configuration bytes (hashed into the ISA hash).
    pub config: Vec<u8>,
    /// TGSI processor (0 fragment, 1 vertex, 2 geometry).
    pub processor: u8,
    /// Regions to upload.
    pub upload: Upload,
    /// Inputs in INPUTS order (see [`crate::host::pack_registers`]).
    pub inputs: Vec<RegMap>,
    /// Outputs in OUTPUTS order.
    pub outputs: Vec<RegMap>,
    /// CONST-buffer slots: (K, buffer, index), whose values go to PARAMS at `16 * K`.
    pub buffer_slots: Vec<(u16, u16, u16)>,
    /// Sampler descriptor slots: (K, sampler unit, part). Their values depend on the textures
    /// bound when the image runs: [`ImageFile::bind_textures`] writes them into CONSTANTS and
    /// the texels into TEXTURES before the upload.
    pub texture_slots: Vec<(u16, u16, u16)>,
    /// Geometry input slots: (K, vertex, index) of `IN[vertex][index]`, whose values
    /// [`ImageFile::bind_geometry_inputs`] writes into CONSTANTS before the upload.
    pub geometry_slots: Vec<(u16, u16, u16)>,
}

impl ImageFile {
    /// Makes the textures part of the upload: `texels` become the TEXTURES region (texel `i`
    /// in bytes `4i .. 4i + 4`, red first) and each `(K, value)` of `descriptors` the CONSTANTS
    /// slot K. Textures are image data on the board: the COMMIT checksum covers them, so other
    /// textures make another image.
    pub fn bind_textures(&mut self, texels: &[u32], descriptors: &[(u16, [u32; 4])]) {
        self.upload.regions[2] = texels.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.write_constants(descriptors);
    }

    /// Makes a geometry program's inputs part of the upload: `input(vertex, index)` goes into the
    /// CONSTANTS slot of each `IN[vertex][index]` (the core reads them from K). Like textures
    /// they are image data on the board: other inputs make another image.
    pub fn bind_geometry_inputs(&mut self, input: &dyn Fn(u16, u16) -> [u32; 4]) {
        let values: Vec<(u16, [u32; 4])> = self
            .geometry_slots
            .iter()
            .map(|&(k, vertex, index)| (k, input(vertex, index)))
            .collect();
        self.write_constants(&values);
    }

    /// Bytes of PARAMS a RUN of this image writes: 16 per K slot, up to its highest CONST slot
    /// (PARAMS is laid out by K slot).
    pub fn params_bytes(&self) -> usize {
        self.buffer_slots
            .iter()
            .map(|&(k, _, _)| 16 * (usize::from(k) + 1))
            .max()
            .unwrap_or(0)
    }

    /// Makes the CONST values part of the image, for a device whose PARAMS region is smaller
    /// than [`ImageFile::params_bytes`]: `constant(buffer, index)` goes into CONSTANTS slot K of
    /// every CONST slot, and the slots leave `buffer_slots`, so that a RUN writes no PARAMS.
    /// The COMMIT checksum then covers the values: other values make another image.
    pub fn bind_buffer_constants(&mut self, constant: &dyn Fn(u16, u16) -> [u32; 4]) {
        let values: Vec<(u16, [u32; 4])> = self
            .buffer_slots
            .iter()
            .map(|&(k, buffer, index)| (k, constant(buffer, index)))
            .collect();
        self.write_constants(&values);
        self.buffer_slots.clear();
        // MAPS names no slot that reads PARAMS any more: the RUN leaves CONSTANTS as uploaded.
        let param_slots: Vec<u16> = Vec::new();
        self.upload.regions[3] = maps_region(&self.inputs, &self.outputs, &param_slots);
    }

    /// Writes each `(K, value)` into CONSTANTS slot K.
    fn write_constants(&mut self, values: &[(u16, [u32; 4])]) {
        let consts = &mut self.upload.regions[1];
        for &(k, v) in values {
            let end = 16 * (usize::from(k) + 1);
            if consts.len() < end {
                consts.resize(end, 0);
            }
            for (c, w) in v.iter().enumerate() {
                let at = 16 * usize::from(k) + 4 * c;
                consts[at..at + 4].copy_from_slice(&w.to_le_bytes());
            }
        }
    }
}

/// An image file that cannot be read.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ImageError {
    /// The file does not start with "TGCI".
    #[error("not a tgsi-core image (no \"TGCI\" magic)")]
    NotAnImage,
    /// The file ends early.
    #[error("offset {offset}: truncated, {need} more bytes needed")]
    Truncated {
        /// Where reading stopped.
        offset: usize,
        /// Bytes missing.
        need: usize,
    },
    /// A major version this reader does not know.
    #[error("offset 4: image version {major}.{minor}; this loader reads {IMAGE_MAJOR}.x")]
    BadVersion {
        /// Major version found.
        major: u16,
        /// Minor version found.
        minor: u16,
    },
    /// The trailing CRC does not match.
    #[error("offset {offset}: checksum {stored:08x} stored, {computed:08x} computed")]
    Checksum {
        /// Offset of the stored CRC.
        offset: usize,
        /// CRC in the file.
        stored: u32,
        /// CRC of the bytes before it.
        computed: u32,
    },
    /// A section whose length is not a multiple of its record.
    #[error("offset {offset}: section {tag} has length {len}, not a multiple of {unit}")]
    BadLength {
        /// Section start.
        offset: usize,
        /// Section tag.
        tag: String,
        /// Its length.
        len: usize,
        /// Record size.
        unit: usize,
    },
    /// A constant slot of unknown kind.
    #[error("offset {offset}: constant slot kind {kind} unknown")]
    BadConstKind {
        /// Record offset.
        offset: usize,
        /// Kind found.
        kind: u16,
    },
}

fn need(b: &[u8], offset: usize, n: usize) -> Result<(), ImageError> {
    match offset.checked_add(n) {
        Some(end) if end <= b.len() => Ok(()),
        _ => Err(ImageError::Truncated {
            offset,
            need: offset.saturating_add(n).saturating_sub(b.len()),
        }),
    }
}

fn records(tag: &str, offset: usize, p: &[u8], unit: usize) -> Result<(), ImageError> {
    if !p.len().is_multiple_of(unit) {
        return Err(ImageError::BadLength {
            offset,
            tag: tag.into(),
            len: p.len(),
            unit,
        });
    }
    Ok(())
}

fn maps(p: &[u8]) -> Vec<RegMap> {
    p.chunks_exact(4)
        .map(|c| RegMap {
            tgsi: le16(c, 0),
            reg: le16(c, 2),
        })
        .collect()
}

/// The MAPS region: u16 input count n, u16 output count m, u16 CONST-slot count p, u16 0; then
/// (u16 TGSI index, u16 register) per input and per output; then (u16 K, u16 0) per K slot whose
/// value comes from PARAMS instead of CONSTANTS.
pub fn maps_region(inputs: &[RegMap], outputs: &[RegMap], param_slots: &[u16]) -> Vec<u8> {
    let mut v = Vec::with_capacity(8 + 4 * (inputs.len() + outputs.len() + param_slots.len()));
    for n in [inputs.len(), outputs.len(), param_slots.len(), 0] {
        // The image format stores these in sections far below 65536 entries.
        v.extend_from_slice(&(n.min(usize::from(u16::MAX)) as u16).to_le_bytes());
    }
    for m in inputs.iter().chain(outputs) {
        v.extend_from_slice(&m.tgsi.to_le_bytes());
        v.extend_from_slice(&m.reg.to_le_bytes());
    }
    for k in param_slots {
        v.extend_from_slice(&k.to_le_bytes());
        v.extend_from_slice(&[0, 0]);
    }
    v
}

/// The MAPS region read back: inputs, outputs and the K slots read from PARAMS; `None` when the
/// bytes are too short for the counts they state.
pub fn read_maps(b: &[u8]) -> Option<(Vec<RegMap>, Vec<RegMap>, Vec<u16>)> {
    if b.len() < 8 {
        return None;
    }
    let (n, m, p) = (
        usize::from(le16(b, 0)),
        usize::from(le16(b, 2)),
        usize::from(le16(b, 4)),
    );
    if b.len() < 8 + 4 * (n + m + p) {
        return None;
    }
    let entries = maps(&b[8..8 + 4 * (n + m)]);
    let slots = (0..p).map(|i| le16(b, 8 + 4 * (n + m + i))).collect();
    Some((entries[..n].to_vec(), entries[n..].to_vec(), slots))
}

/// True when `bytes` start like an image file.
pub fn is_image(bytes: &[u8]) -> bool {
    bytes.starts_with(&IMAGE_MAGIC)
}

/// Parses an image file.
pub fn parse(b: &[u8]) -> Result<ImageFile, ImageError> {
    if !is_image(b) {
        return Err(ImageError::NotAnImage);
    }
    need(b, 0, 16)?;
    let (major, minor) = (le16(b, 4), le16(b, 6));
    if major != IMAGE_MAJOR {
        return Err(ImageError::BadVersion { major, minor });
    }
    let crc_at = b.len() - 4;
    let stored = le32(b, crc_at);
    let computed = crc32(&b[..crc_at]);
    if stored != computed {
        return Err(ImageError::Checksum {
            offset: crc_at,
            stored,
            computed,
        });
    }
    let body = &b[..crc_at];
    let h = le32(body, 8) as usize;
    need(body, 12, h)?;
    if h < 4 {
        return Err(ImageError::Truncated {
            offset: 12,
            need: 4 - h,
        });
    }
    let config = body[12..12 + h - 4].to_vec();
    let processor = body[12 + h - 4];
    let mut img = ImageFile {
        version: (major, minor),
        upload: Upload {
            isa_hash: crc32(&config),
            regions: Default::default(),
        },
        config,
        processor,
        inputs: Vec::new(),
        outputs: Vec::new(),
        buffer_slots: Vec::new(),
        texture_slots: Vec::new(),
        geometry_slots: Vec::new(),
    };
    let mut at = 12 + h;
    while at < body.len() {
        need(body, at, 8)?;
        let tag = String::from_utf8_lossy(&body[at..at + 4]).into_owned();
        let len = le32(body, at + 4) as usize;
        need(body, at + 8, len)?;
        let p = &body[at + 8..at + 8 + len];
        match tag.as_str() {
            "CODE" => {
                records(&tag, at, p, 16)?;
                img.upload.regions[0] = p.to_vec();
            }
            "KMAP" => {
                records(&tag, at, p, 24)?;
                let consts = &mut img.upload.regions[1];
                for (i, r) in p.chunks_exact(24).enumerate() {
                    let k = usize::from(le16(r, 0));
                    let end = 16 * (k + 1);
                    if consts.len() < end {
                        consts.resize(end, 0);
                    }
                    match le16(r, 2) {
                        0 => consts[16 * k..end].copy_from_slice(&r[8..24]),
                        1 => img.buffer_slots.push((le16(r, 0), le16(r, 4), le16(r, 6))),
                        2 => img
                            .geometry_slots
                            .push((le16(r, 0), le16(r, 4), le16(r, 6))),
                        3 => img.texture_slots.push((le16(r, 0), le16(r, 4), le16(r, 6))),
                        kind => {
                            return Err(ImageError::BadConstKind {
                                offset: at + 8 + 24 * i,
                                kind,
                            })
                        }
                    }
                }
            }
            "IMAP" => {
                records(&tag, at, p, 4)?;
                img.inputs = maps(p);
            }
            "OMAP" => {
                records(&tag, at, p, 4)?;
                img.outputs = maps(p);
            }
            _ => {}
        }
        at += 8 + len;
    }
    let param_slots: Vec<u16> = img.buffer_slots.iter().map(|s| s.0).collect();
    img.upload.regions[3] = maps_region(&img.inputs, &img.outputs, &param_slots);
    Ok(img)
}

/// One constant slot for [`write_image`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KSlot {
    /// Immediate data in slot K.
    Data(u16, [u32; 4]),
    /// Slot K holds `CONST[buffer][index]`.
    Buffer(u16, u16, u16),
    /// Slot K holds a geometry program's `IN[vertex][index]`.
    Geometry(u16, u16, u16),
}

/// Writes an image file in the same layout (for tests and the built-in self-test images).
pub fn write_image(
    config: &[u8],
    processor: u8,
    code: &[u8],
    kslots: &[KSlot],
    inputs: &[RegMap],
    outputs: &[RegMap],
) -> Vec<u8> {
    fn section(out: &mut Vec<u8>, tag: &[u8; 4], p: &[u8]) {
        out.extend_from_slice(tag);
        out.extend_from_slice(&(p.len() as u32).to_le_bytes());
        out.extend_from_slice(p);
    }
    let mut out = IMAGE_MAGIC.to_vec();
    out.extend_from_slice(&IMAGE_MAJOR.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&((config.len() + 4) as u32).to_le_bytes());
    out.extend_from_slice(config);
    out.extend_from_slice(&[processor, 0, 0, 0]);
    section(&mut out, b"CODE", code);
    let mut k = Vec::new();
    for s in kslots {
        let (slot, kind, buffer, index, data) = match *s {
            KSlot::Data(slot, d) => (slot, 0u16, 0u16, 0u16, d),
            KSlot::Buffer(slot, b, i) => (slot, 1, b, i, [0; 4]),
            KSlot::Geometry(slot, v, i) => (slot, 2, v, i, [0; 4]),
        };
        for x in [slot, kind, buffer, index] {
            k.extend_from_slice(&x.to_le_bytes());
        }
        for x in data {
            k.extend_from_slice(&x.to_le_bytes());
        }
    }
    section(&mut out, b"KMAP", &k);
    for (tag, m) in [(b"IMAP", inputs), (b"OMAP", outputs)] {
        let mut p = Vec::new();
        for r in m {
            p.extend_from_slice(&r.tgsi.to_le_bytes());
            p.extend_from_slice(&r.reg.to_le_bytes());
        }
        section(&mut out, tag, &p);
    }
    let orig: Vec<u8> = (0..code.len() / 16)
        .flat_map(|i| (i as u16).to_le_bytes())
        .collect();
    section(&mut out, b"ORIG", &orig);
    let crc = crc32(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_reads_regions_and_maps() {
        let config = [7u8; 22];
        let code: Vec<u8> = (0..32).collect();
        let file = write_image(
            &config,
            0,
            &code,
            &[KSlot::Data(1, [1, 2, 3, 4]), KSlot::Buffer(2, 0, 5)],
            &[RegMap { tgsi: 0, reg: 3 }],
            &[RegMap { tgsi: 0, reg: 4 }],
        );
        let img = parse(&file).unwrap();
        assert_eq!(img.upload.isa_hash, crc32fast::hash(&config));
        assert_eq!(img.upload.regions[0], code);
        let mut k = vec![0u8; 48];
        k[16..32].copy_from_slice(&[1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0]);
        assert_eq!(img.upload.regions[1], k);
        assert_eq!(img.buffer_slots, vec![(2, 0, 5)]);
        assert_eq!(img.inputs, vec![RegMap { tgsi: 0, reg: 3 }]);
        assert_eq!(img.outputs, vec![RegMap { tgsi: 0, reg: 4 }]);
        assert_eq!(
            img.upload.regions[3],
            vec![1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 3, 0, 0, 0, 4, 0, 2, 0, 0, 0]
        );
        assert_eq!(
            read_maps(&img.upload.regions[3]),
            Some((img.inputs.clone(), img.outputs.clone(), vec![2]))
        );
        assert_eq!(read_maps(&img.upload.regions[3][..19]), None);
    }

    /// CONST values bound into the image fill their CONSTANTS slots and leave MAPS without
    /// PARAMS slots, so a RUN neither needs PARAMS nor overwrites them; the checksum changes.
    #[test]
    fn buffer_constants_bound_into_the_image_replace_params() {
        let file = write_image(
            &[7u8; 22],
            0,
            &[0; 16],
            &[KSlot::Data(0, [9, 9, 9, 9]), KSlot::Buffer(32, 1, 5)],
            &[RegMap { tgsi: 0, reg: 3 }],
            &[RegMap { tgsi: 0, reg: 4 }],
        );
        let mut img = parse(&file).unwrap();
        assert_eq!(img.params_bytes(), 16 * 33);
        let before = img.upload.crc();
        img.bind_buffer_constants(&|b, i| [u32::from(b), u32::from(i), 7, 8]);
        assert_eq!(img.params_bytes(), 0);
        assert!(img.buffer_slots.is_empty());
        let k = &img.upload.regions[1];
        assert_eq!(k.len(), 16 * 33);
        assert_eq!(&k[..4], &9u32.to_le_bytes());
        let slot: Vec<u8> = [1u32, 5, 7, 8]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        assert_eq!(&k[16 * 32..], &slot[..]);
        assert_eq!(
            read_maps(&img.upload.regions[3]),
            Some((img.inputs.clone(), img.outputs.clone(), vec![]))
        );
        assert_ne!(img.upload.crc(), before);
    }

    /// A geometry program's `IN[vertex][index]` slots are read from the image and bound into
    /// CONSTANTS like texture descriptors: the CONST slots still go to PARAMS.
    #[test]
    fn geometry_inputs_bind_into_constants() {
        let file = write_image(
            &[7u8; 22],
            2,
            &[0; 16],
            &[
                KSlot::Geometry(0, 0, 0),
                KSlot::Geometry(3, 2, 1),
                KSlot::Buffer(4, 1, 0),
            ],
            &[],
            &[RegMap { tgsi: 0, reg: 0 }],
        );
        let mut img = parse(&file).unwrap();
        assert_eq!(img.processor, 2);
        assert_eq!(img.geometry_slots, vec![(0, 0, 0), (3, 2, 1)]);
        assert_eq!(img.buffer_slots, vec![(4, 1, 0)]);
        let before = img.upload.crc();
        img.bind_geometry_inputs(&|v, i| [u32::from(v), u32::from(i), 5, 6]);
        let k = &img.upload.regions[1];
        let words = |s: usize| -> Vec<u32> {
            k[16 * s..16 * s + 16]
                .chunks_exact(4)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                .collect()
        };
        assert_eq!(words(0), vec![0, 0, 5, 6]);
        assert_eq!(words(3), vec![2, 1, 5, 6]);
        assert_eq!(words(4), vec![0, 0, 0, 0]);
        assert_ne!(img.upload.crc(), before);
        assert_eq!(
            read_maps(&img.upload.regions[3]).map(|m| m.2),
            Some(vec![4])
        );
    }

    #[test]
    fn corrupt_and_foreign_files_are_refused() {
        let mut file = write_image(&[0; 22], 0, &[0; 16], &[], &[], &[]);
        let last = file.len() - 5;
        file[last] ^= 1;
        assert!(matches!(parse(&file), Err(ImageError::Checksum { .. })));
        assert_eq!(parse(b"FRAG\nEND\n"), Err(ImageError::NotAnImage));
        assert!(matches!(
            parse(b"TGCI\x01\x00"),
            Err(ImageError::Truncated { .. })
        ));
        // A 1.x image (120-bit instruction words) is refused.
        let mut v1 = write_image(&[0; 22], 0, &[], &[], &[], &[]);
        v1[4] = 1;
        assert_eq!(
            parse(&v1),
            Err(ImageError::BadVersion { major: 1, minor: 0 })
        );
    }
}

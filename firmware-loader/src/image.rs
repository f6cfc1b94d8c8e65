//! The compiler's image (`microcode::core::Image`) as the regions the loader uploads.
//!
//! Regions: PROGRAM = the image's instruction words as the image file's CODE section holds them
//! (16 bytes each, `microcode::core::isa::encode`); MAPS = the input and output maps
//! ([`maps_region`]); CONSTANTS = 16 bytes per K slot at `16 * K` (data slots hold their words,
//! CONST slots zero: their values go to PARAMS at run time, same address; sampler descriptor
//! slots zero until [`ImageFile::bind_textures`] fills them; geometry input slots, a geometry
//! program's `IN[vertex][index]`, zero until [`ImageFile::bind_geometry_inputs`] fills them);
//! TEXTURES empty until then. The ISA hash is the CRC-32 of the configuration bytes
//! (`CoreConfig::to_bytes`). Image files are read by `microcode::core::Image::from_bytes` only.

use crate::protocol::{le16, IMAGE_REGIONS};
pub use microcode::core::image::RegMap;
use microcode::core::image::{ConstSource, Image};
use microcode::core::isa::encode;

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

/// An image laid out for the upload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageFile {
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
    /// Lays out `image` for the upload.
    pub fn from_image(image: &Image) -> ImageFile {
        let config = image.config.to_bytes().to_vec();
        let mut file = ImageFile {
            upload: Upload {
                isa_hash: image.config.isa_hash(),
                regions: Default::default(),
            },
            config,
            processor: image.processor,
            inputs: image.inputs.clone(),
            outputs: image.outputs.clone(),
            buffer_slots: Vec::new(),
            texture_slots: Vec::new(),
            geometry_slots: Vec::new(),
        };
        file.upload.regions[0] = image
            .code
            .iter()
            .flat_map(|i| encode(i).to_le_bytes())
            .collect();
        // Every slot the image names is part of CONSTANTS, zero until written or bound.
        let slots = image.constants.iter().map(|c| usize::from(c.k) + 1).max();
        file.upload.regions[1] = vec![0; 16 * slots.unwrap_or(0)];
        let mut data = Vec::new();
        for c in &image.constants {
            let k = c.k;
            match c.source {
                ConstSource::Data(d) => data.push((k, d)),
                ConstSource::Buffer { buffer, index } => {
                    file.buffer_slots.push((k, buffer, index));
                }
                ConstSource::Geometry { vertex, index } => {
                    file.geometry_slots.push((k, vertex, index));
                }
                ConstSource::Texture { unit, part } => file.texture_slots.push((k, unit, part)),
            }
        }
        file.write_constants(&data);
        let param_slots: Vec<u16> = file.buffer_slots.iter().map(|s| s.0).collect();
        file.upload.regions[3] = maps_region(&file.inputs, &file.outputs, &param_slots);
        file
    }

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

#[cfg(test)]
mod tests {
    use super::*;
    use microcode::core::image::ConstSlot;
    use microcode::core::isa::{Instr, Op};
    use microcode::core::CoreConfig;

    fn image(processor: u8, constants: &[(u16, ConstSource)], inputs: &[RegMap]) -> Image {
        let code = vec![Instr::new(Op::Mov), Instr::new(Op::End)];
        Image {
            config: CoreConfig::default(),
            processor,
            origin: vec![0; code.len()],
            code,
            constants: constants
                .iter()
                .map(|&(k, source)| ConstSlot { k, source })
                .collect(),
            inputs: inputs.to_vec(),
            outputs: vec![RegMap { tgsi: 0, reg: 4 }],
        }
    }

    /// The CODE section of the image file, found by walking its sections: what PROGRAM must hold.
    fn code_section(file: &[u8]) -> Vec<u8> {
        let word =
            |at: usize| u32::from_le_bytes([file[at], file[at + 1], file[at + 2], file[at + 3]]);
        let mut at = 12 + word(8) as usize;
        while &file[at..at + 4] != b"CODE" {
            at += 8 + word(at + 4) as usize;
        }
        file[at + 8..at + 8 + word(at + 4) as usize].to_vec()
    }

    #[test]
    fn regions_and_maps_come_from_the_image() {
        let img = image(
            0,
            &[
                (1, ConstSource::Data([1, 2, 3, 4])),
                (
                    2,
                    ConstSource::Buffer {
                        buffer: 0,
                        index: 5,
                    },
                ),
            ],
            &[RegMap { tgsi: 0, reg: 3 }],
        );
        let file = ImageFile::from_image(&img);
        assert_eq!(
            file.upload.isa_hash,
            crc32fast::hash(&img.config.to_bytes())
        );
        assert_eq!(file.upload.regions[0], code_section(&img.to_bytes()));
        assert_eq!(file.upload.regions[0].len(), 32);
        let mut k = vec![0u8; 48];
        k[16..32].copy_from_slice(&[1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0]);
        assert_eq!(file.upload.regions[1], k);
        assert_eq!(file.buffer_slots, vec![(2, 0, 5)]);
        assert_eq!(file.inputs, vec![RegMap { tgsi: 0, reg: 3 }]);
        assert_eq!(
            file.upload.regions[3],
            vec![1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 3, 0, 0, 0, 4, 0, 2, 0, 0, 0]
        );
        assert_eq!(
            read_maps(&file.upload.regions[3]),
            Some((file.inputs.clone(), file.outputs.clone(), vec![2]))
        );
        assert_eq!(read_maps(&file.upload.regions[3][..19]), None);
        // Another core configuration is another ISA hash.
        let mut other = img.clone();
        other.config.registers -= 1;
        assert_ne!(
            ImageFile::from_image(&other).upload.isa_hash,
            file.upload.isa_hash
        );
    }

    /// CONST values bound into the image fill their CONSTANTS slots and leave MAPS without
    /// PARAMS slots, so a RUN neither needs PARAMS nor overwrites them; the checksum changes.
    #[test]
    fn buffer_constants_bound_into_the_image_replace_params() {
        let mut file = ImageFile::from_image(&image(
            0,
            &[
                (0, ConstSource::Data([9, 9, 9, 9])),
                (
                    32,
                    ConstSource::Buffer {
                        buffer: 1,
                        index: 5,
                    },
                ),
            ],
            &[RegMap { tgsi: 0, reg: 3 }],
        ));
        assert_eq!(file.params_bytes(), 16 * 33);
        let before = file.upload.crc();
        file.bind_buffer_constants(&|b, i| [u32::from(b), u32::from(i), 7, 8]);
        assert_eq!(file.params_bytes(), 0);
        assert!(file.buffer_slots.is_empty());
        let k = &file.upload.regions[1];
        assert_eq!(k.len(), 16 * 33);
        assert_eq!(&k[..4], &9u32.to_le_bytes());
        let slot: Vec<u8> = [1u32, 5, 7, 8]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        assert_eq!(&k[16 * 32..], &slot[..]);
        assert_eq!(
            read_maps(&file.upload.regions[3]),
            Some((file.inputs.clone(), file.outputs.clone(), vec![]))
        );
        assert_ne!(file.upload.crc(), before);
    }

    /// A geometry program's `IN[vertex][index]` slots bind into CONSTANTS like texture
    /// descriptors: the CONST slots still go to PARAMS.
    #[test]
    fn geometry_inputs_bind_into_constants() {
        let mut file = ImageFile::from_image(&image(
            2,
            &[
                (
                    0,
                    ConstSource::Geometry {
                        vertex: 0,
                        index: 0,
                    },
                ),
                (
                    3,
                    ConstSource::Geometry {
                        vertex: 2,
                        index: 1,
                    },
                ),
                (
                    4,
                    ConstSource::Buffer {
                        buffer: 1,
                        index: 0,
                    },
                ),
                (5, ConstSource::Texture { unit: 1, part: 0 }),
            ],
            &[],
        ));
        assert_eq!(file.processor, 2);
        assert_eq!(file.geometry_slots, vec![(0, 0, 0), (3, 2, 1)]);
        assert_eq!(file.buffer_slots, vec![(4, 1, 0)]);
        assert_eq!(file.texture_slots, vec![(5, 1, 0)]);
        let before = file.upload.crc();
        file.bind_geometry_inputs(&|v, i| [u32::from(v), u32::from(i), 5, 6]);
        let k = &file.upload.regions[1];
        let words = |s: usize| -> Vec<u32> {
            k[16 * s..16 * s + 16]
                .chunks_exact(4)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                .collect()
        };
        assert_eq!(words(0), vec![0, 0, 5, 6]);
        assert_eq!(words(3), vec![2, 1, 5, 6]);
        assert_eq!(words(4), vec![0, 0, 0, 0]);
        assert_ne!(file.upload.crc(), before);
        assert_eq!(
            read_maps(&file.upload.regions[3]).map(|m| m.2),
            Some(vec![4])
        );
    }
}

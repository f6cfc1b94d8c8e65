//! Loading textures from PNG files.
//!
//! Every sample becomes `value / 255` (8-bit) or `value / 65535` (16-bit), correctly rounded to
//! binary32. Grey images of 1, 2 or 4 bits are first expanded to 8 bits by the decoder
//! (`v * 255 / (2^n - 1)`, exact), palette images to RGB(A), and a tRNS chunk to an alpha channel.
//! Without a format option, grey images load as L, grey+alpha as LA, RGB as RGB and RGBA as RGBA.
//! Gamma and colour-space chunks are ignored; an animated PNG loads its first frame.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use png::{BitDepth, ColorType, Transformations};

use super::error::TextureError;
use super::image::{unorm, Filter, Format, Pixel, Texture, Wrap, MAX_TEXELS};

const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A];

/// How the image is laid out as a texture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Layout {
    /// A 1-D or 2-D texture: the whole image.
    #[default]
    Flat,
    /// A 3-D texture of `depth` slices of equal height stacked vertically (slice 0 on top).
    Volume {
        /// Number of slices.
        depth: u32,
    },
    /// A cube map: six square faces stacked vertically in +X, -X, +Y, -Y, +Z, -Z order.
    Cube,
}

/// Options for loading a texture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// The format to convert to; `None` picks it from the PNG colour type.
    pub format: Option<Format>,
    /// Flat, 3-D or cube.
    pub layout: Layout,
    /// The filter.
    pub filter: Filter,
    /// Wrap modes of the s, t and r axes.
    pub wrap: [Wrap; 3],
}

/// Reads and decodes a PNG file into a texture.
pub fn load_png(path: &Path, options: &LoadOptions) -> Result<Texture, TextureError> {
    let bytes = read_regular(path).map_err(|source| TextureError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    decode_png(&bytes, path, options)
}

/// Largest texture file read; far beyond the textures any engine holds (a 4096x4096 RGBA PNG
/// without compression is 64 MiB).
pub const MAX_PNG_BYTES: u64 = 64 << 20;

/// Reads a regular file of at most [`MAX_PNG_BYTES`]: a FIFO or device given as a texture would
/// block or never end.
fn read_regular(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::{Error, ErrorKind, Read};
    if !std::fs::metadata(path)?.is_file() {
        return Err(Error::new(ErrorKind::InvalidInput, "not a regular file"));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_PNG_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_PNG_BYTES {
        let msg = format!("larger than {} MiB", MAX_PNG_BYTES >> 20);
        return Err(Error::new(ErrorKind::InvalidData, msg));
    }
    Ok(bytes)
}

/// Decodes PNG bytes into a texture; `path` only names the source in errors.
pub fn decode_png(
    bytes: &[u8],
    path: &Path,
    options: &LoadOptions,
) -> Result<Texture, TextureError> {
    let image = decode_pixels(bytes, path)?;
    let format = options.format.unwrap_or(image.format);
    let (width, height) = (image.width, image.height);
    let texels: Vec<[u32; 4]> = image
        .pixels
        .iter()
        .map(|p| format.convert(p).map(f32::to_bits))
        .collect();
    let in_file = |source| TextureError::Image {
        path: path.to_path_buf(),
        source: Box::new(source),
    };
    let texture = match options.layout {
        Layout::Flat => Texture::build(width, height, 1, 1, format, texels).map_err(in_file)?,
        Layout::Volume { depth } => {
            if depth == 0 || height % depth != 0 {
                return Err(TextureError::VolumeShape {
                    path: path.to_path_buf(),
                    height,
                    depth,
                });
            }
            Texture::build(width, height / depth, depth, 1, format, texels).map_err(in_file)?
        }
        Layout::Cube => {
            if u64::from(height) != 6 * u64::from(width) {
                return Err(TextureError::CubeShape {
                    path: path.to_path_buf(),
                    width,
                    height,
                });
            }
            Texture::build(width, width, 1, 6, format, texels).map_err(in_file)?
        }
    };
    Ok(texture.with_filter(options.filter).with_wrap(options.wrap))
}

/// A decoded image before format conversion.
struct Decoded {
    width: u32,
    height: u32,
    format: Format,
    pixels: Vec<Pixel>,
}

fn decode_error(path: &Path, error: png::DecodingError) -> TextureError {
    TextureError::Decode {
        path: path.to_path_buf(),
        message: error.to_string(),
    }
}

fn decode_pixels(bytes: &[u8], path: &Path) -> Result<Decoded, TextureError> {
    let owned: PathBuf = path.to_path_buf();
    if !bytes.starts_with(&SIGNATURE) {
        return Err(TextureError::NotPng { path: owned });
    }
    let mut decoder = png::Decoder::new(Cursor::new(bytes));
    decoder.set_transformations(Transformations::EXPAND);
    let mut reader = decoder.read_info().map_err(|e| decode_error(path, e))?;
    // Refuse oversized images before allocating their pixels.
    let (header_width, header_height) = reader.info().size();
    let pixel_count = u64::from(header_width) * u64::from(header_height);
    if pixel_count > MAX_TEXELS {
        return Err(TextureError::TooLarge {
            path: owned,
            width: header_width,
            height: header_height,
            limit: MAX_TEXELS,
        });
    }
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| TextureError::Decode {
            path: owned.clone(),
            message: "image too large".to_string(),
        })?;
    let mut buffer = vec![0; size];
    let frame = reader
        .next_frame(&mut buffer)
        .map_err(|e| decode_error(path, e))?;
    let (width, height) = (frame.width, frame.height);
    let (channels, format) = match frame.color_type {
        ColorType::Grayscale => (1, Format::L),
        ColorType::GrayscaleAlpha => (2, Format::La),
        ColorType::Rgb => (3, Format::Rgb),
        ColorType::Rgba => (4, Format::Rgba),
        other => {
            return Err(TextureError::UnsupportedColor {
                path: owned,
                color: format!("{other:?}"),
            })
        }
    };
    let (bytes_per_sample, max) = match frame.bit_depth {
        BitDepth::Eight => (1, 255),
        BitDepth::Sixteen => (2, 65535),
        other => {
            return Err(TextureError::UnsupportedBitDepth {
                path: owned,
                bits: other as u8,
            })
        }
    };
    let row_bytes = frame.line_size;
    let pixel_bytes = channels * bytes_per_sample;
    let mut pixels = Vec::with_capacity(width as usize * height as usize);
    for row in buffer.chunks(row_bytes.max(1)).take(height as usize) {
        for pixel in row.chunks_exact(pixel_bytes).take(width as usize) {
            let samples: Vec<f32> = pixel
                .chunks_exact(bytes_per_sample)
                .map(|s| {
                    // PNG stores 16-bit samples big-endian.
                    let value = s.iter().fold(0u32, |acc, &b| (acc << 8) | u32::from(b));
                    unorm(value, max)
                })
                .collect();
            pixels.push(to_pixel(&samples));
        }
    }
    if pixels.len() as u64 != u64::from(width) * u64::from(height) {
        return Err(TextureError::Decode {
            path: owned,
            message: format!(
                "decoded {} pixels for a {width}x{height} image",
                pixels.len()
            ),
        });
    }
    Ok(Decoded {
        width,
        height,
        format,
        pixels,
    })
}

fn to_pixel(samples: &[f32]) -> Pixel {
    match *samples {
        [l] => Pixel {
            rgb: [l; 3],
            alpha: None,
        },
        [l, a] => Pixel {
            rgb: [l; 3],
            alpha: Some(a),
        },
        [r, g, b] => Pixel {
            rgb: [r, g, b],
            alpha: None,
        },
        [r, g, b, a, ..] => Pixel {
            rgb: [r, g, b],
            alpha: Some(a),
        },
        [] => Pixel {
            rgb: [0.0; 3],
            alpha: None,
        },
    }
}

impl Texture {
    /// Reads a PNG file into a texture (see [`load_png`]).
    pub fn load_png(path: &Path, options: &LoadOptions) -> Result<Texture, TextureError> {
        load_png(path, options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue #20 item 7: a device given as a texture is refused at once, not read forever.
    #[test]
    fn only_regular_files_are_read() {
        let e = read_regular(Path::new("/dev/zero")).unwrap_err();
        assert_eq!(e.to_string(), "not a regular file");
        let e = read_regular(Path::new("/")).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
    }
}

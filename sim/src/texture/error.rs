//! Errors of building and loading textures.

use std::path::PathBuf;

/// Why a texture could not be built or loaded. File errors name the file.
#[derive(Debug, thiserror::Error)]
pub enum TextureError {
    /// The file could not be read.
    #[error("cannot read texture {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// The file does not start with the PNG signature.
    #[error("texture {} is not a PNG file (no PNG signature)", path.display())]
    NotPng {
        /// The file.
        path: PathBuf,
    },
    /// The PNG decoder rejected the file (corrupt data, unsupported feature, size limit).
    #[error("texture {} is not a valid PNG: {message}", path.display())]
    Decode {
        /// The file.
        path: PathBuf,
        /// The decoder's description.
        message: String,
    },
    /// The decoded samples are neither 8 nor 16 bits wide.
    #[error("texture {} has unsupported bit depth {bits} (8 and 16 are read; 1, 2 and 4 are expanded)", path.display())]
    UnsupportedBitDepth {
        /// The file.
        path: PathBuf,
        /// Bits per sample after expansion.
        bits: u8,
    },
    /// The decoded colour type is not grey, grey+alpha, RGB or RGBA.
    #[error("texture {} has unsupported colour type {color}", path.display())]
    UnsupportedColor {
        /// The file.
        path: PathBuf,
        /// The decoder's name of the colour type.
        color: String,
    },
    /// A cube map image must hold six square faces stacked vertically.
    #[error("cube texture {} is {width}x{height}: its height must be 6 x its width (faces +X, -X, +Y, -Y, +Z, -Z stacked vertically)", path.display())]
    CubeShape {
        /// The file.
        path: PathBuf,
        /// Image width in pixels.
        width: u32,
        /// Image height in pixels.
        height: u32,
    },
    /// A 3-D image must hold `depth` slices of equal height stacked vertically.
    #[error("3-D texture {} is {height} pixels high, which does not split into {depth} slices", path.display())]
    VolumeShape {
        /// The file.
        path: PathBuf,
        /// Image height in pixels.
        height: u32,
        /// Requested number of slices.
        depth: u32,
    },
    /// The image has more pixels than a texture may hold.
    #[error("texture {} is {width}x{height}, more than {limit} texels", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Image width in pixels.
        width: u32,
        /// Image height in pixels.
        height: u32,
        /// The most texels a texture holds (`texture::MAX_TEXELS`).
        limit: u64,
    },
    /// The image's texture shape is invalid (a dimension beyond the limits).
    #[error("texture {}: {source}", path.display())]
    Image {
        /// The file.
        path: PathBuf,
        /// What is wrong with the shape.
        source: Box<TextureError>,
    },
    /// A dimension is zero or too large.
    #[error("texture {what} {value} is out of range (1..={max})")]
    Dimension {
        /// Which dimension (`width`, `height`, `depth`, `cell size`).
        what: &'static str,
        /// The value given.
        value: u64,
        /// The largest accepted value.
        max: u64,
    },
    /// The texel data does not match the dimensions.
    #[error("texture of {width}x{height}x{depth} with {faces} face(s) needs {expected} texels, got {got}")]
    TexelCount {
        /// Width in texels.
        width: u32,
        /// Height in texels.
        height: u32,
        /// Depth in slices.
        depth: u32,
        /// 1, or 6 for a cube map.
        faces: u32,
        /// Texels needed.
        expected: u64,
        /// Texels given.
        got: usize,
    },
    /// An option names no known format, filter or wrap mode.
    #[error("unknown texture {kind} `{name}` (expected one of: {expected})")]
    UnknownName {
        /// `format`, `filter` or `wrap mode`.
        kind: &'static str,
        /// The name given.
        name: String,
        /// The accepted names.
        expected: &'static str,
    },
}

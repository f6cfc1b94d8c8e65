//! Textures for every engine's model: storage, PNG loading, addressing, filtering, cube maps and
//! shadow compare, exactly as decisions.md section 6 specifies.
//!
//! All arithmetic of sampling follows the binary32 rules of section 2 (see [`float`]), so a
//! hardware texture unit can match the model bit for bit.
//!
//! # Where section 6 is silent, this module decides
//! - Every texture is addressed as 3-D: 1-D targets read row 0, 2-D and RECT targets slice 0,
//!   targets other than CUBE face 0; CUBE on a texture that is not a cube map samples its 2-D
//!   image with the chosen face's s, t. UNKNOWN samples as 2D.
//! - Row 0 is the first row of the image (the top of a PNG): t = 0 addresses it.
//! - Nearest sampling returns the texel's bits unchanged (a move); bilinear sampling reads texels
//!   as float operands (subnormal -> 0) and writes float results (canonical NaN, flush).
//! - A non-finite coordinate gives index 0, and for bilinear also weight f = 0 (texel 0 only).
//!   A finite coordinate whose scaled value overflows follows the formulas (nearest saturates;
//!   bilinear gets f = inf - inf = NaN, a NaN result).
//! - Wrap modes apply to every target, RECT and cube faces included; bilinear never crosses cube
//!   faces.
//! - CUBE: comparisons are float comparisons; a NaN fails them; the positive face is taken unless
//!   the major coordinate is < 0; s = (sc / |ma| + 1) * 0.5.
//! - SHADOW: `1.0 if r <= texel.x` as a float comparison (NaN gives 0.0), r = coord.z for
//!   SHADOW1D, SHADOW2D and SHADOWRECT; w of the result is exactly 1.0.
//! - TXF: integer coordinates, no wrap or filter; the target decides which coordinates count (CUBE:
//!   z is the face); a counted coordinate outside the texture returns (0, 0, 0, 0) bits.
//! - TXQ: (width, height, depth, 1) as integers (w = number of levels = 1; depth = 1 for cubes).
//! - PNG: 8-bit samples / 255, 16-bit / 65535, each one correctly rounded binary32 division;
//!   1/2/4-bit grey expands to 8 bits first, palettes to RGB(A), tRNS to alpha.
//!
//! ```
//! use microcode::tgsi::TextureTarget;
//! use sim::texture::Texture;
//!
//! let texture = Texture::graw_test();
//! // Texel (s = 15, t = 0): red 255/255.
//! let texel = texture.sample(TextureTarget::T2D, [0.99f32.to_bits(), 0, 0, 0x3f80_0000]);
//! assert_eq!(f32::from_bits(texel[0]), 1.0);
//! ```

pub mod cube;
pub mod error;
pub mod float;
pub mod image;
mod options;
pub mod png;
pub mod sample;
mod sampler;
pub mod shadow;

pub use self::png::{decode_png, load_png, Layout, LoadOptions};
pub use cube::{select_face, CubeCoord, Face};
pub use error::TextureError;
pub use image::{Filter, Format, Pixel, Texture, Wrap, MAX_DIMENSION, MAX_TEXELS};
pub use sample::{linear_indices, nearest_index, AxisSample};

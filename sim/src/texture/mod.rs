//! Textures for every engine's model: storage, PNG loading, addressing, filtering, cube maps and
//! shadow compare, exactly as decisions.md section 6 specifies.
//!
//! All arithmetic of sampling follows the binary32 rules of section 2 (see [`float`]), so a
//! hardware texture unit can match the model bit for bit.
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
pub mod png;
pub mod sample;
pub mod shadow;

pub use self::png::{decode_png, load_png, Layout, LoadOptions};
pub use cube::{select_face, CubeCoord, Face};
pub use error::TextureError;
pub use image::{Filter, Format, Pixel, Texture, Wrap, MAX_DIMENSION, MAX_TEXELS};
pub use sample::{linear_indices, nearest_index, AxisSample};

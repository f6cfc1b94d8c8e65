//! Texture storage: dimensions, texels as four binary32 channels, filter, wrap modes and format.

use super::error::TextureError;

/// Largest width, height or depth accepted (keeps sizes exact in binary32 and int32).
pub const MAX_DIMENSION: u32 = 16384;
/// Largest number of texels in one texture (all faces and slices), 256 MiB of storage.
pub const MAX_TEXELS: u64 = 1 << 24;

/// How texels between sample points are combined.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Filter {
    /// The texel containing the sample point.
    #[default]
    Nearest,
    /// Linear interpolation of the 2 (1-D), 4 (2-D) or 8 (3-D) nearest texels.
    Bilinear,
}

impl Filter {
    /// Parses `nearest` or `bilinear` (also `linear`), case-insensitively.
    pub fn from_name(name: &str) -> Result<Filter, TextureError> {
        match name.to_ascii_lowercase().as_str() {
            "nearest" => Ok(Filter::Nearest),
            "bilinear" | "linear" => Ok(Filter::Bilinear),
            _ => Err(TextureError::UnknownName {
                kind: "filter",
                name: name.to_string(),
                expected: "nearest, bilinear",
            }),
        }
    }

    /// The option name.
    pub fn name(self) -> &'static str {
        match self {
            Filter::Nearest => "nearest",
            Filter::Bilinear => "bilinear",
        }
    }
}

/// What an index outside the texture addresses, per axis.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Wrap {
    /// The index modulo the size, made non-negative.
    #[default]
    Repeat,
    /// The index clamped to `[0, size - 1]`.
    ClampToEdge,
}

impl Wrap {
    /// Parses `repeat` or `clamp` (also `clamp-to-edge`, `clamp_to_edge`), case-insensitively.
    pub fn from_name(name: &str) -> Result<Wrap, TextureError> {
        match name.to_ascii_lowercase().replace('_', "-").as_str() {
            "repeat" => Ok(Wrap::Repeat),
            "clamp" | "clamp-to-edge" => Ok(Wrap::ClampToEdge),
            _ => Err(TextureError::UnknownName {
                kind: "wrap mode",
                name: name.to_string(),
                expected: "repeat, clamp",
            }),
        }
    }

    /// The option name.
    pub fn name(self) -> &'static str {
        match self {
            Wrap::Repeat => "repeat",
            Wrap::ClampToEdge => "clamp",
        }
    }

    /// Maps any integer index into `[0, size - 1]`; `size` must be at least 1.
    pub fn apply(self, index: i64, size: u32) -> u32 {
        let size = i64::from(size.max(1));
        let wrapped = match self {
            Wrap::Repeat => index.rem_euclid(size),
            Wrap::ClampToEdge => index.clamp(0, size - 1),
        };
        // In [0, size - 1] and size <= u32::MAX, so the conversion cannot fail.
        u32::try_from(wrapped).unwrap_or(0)
    }
}

/// The texture component formats of the spec's table ("Texture Sampling and Texture Formats"), as
/// Gallium returns them. The conversion to `(x, y, z, w)` happens when the texture is built, so
/// the stored texels are what sampling returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// `(r, 0, 0, 1)`.
    R,
    /// `(r, g, 0, 1)`.
    Rg,
    /// `(r, g, b, 1)`.
    Rgb,
    /// `(r, g, b, a)`.
    Rgba,
    /// `(0, 0, 0, a)`.
    A,
    /// Luminance: `(l, l, l, 1)`.
    L,
    /// Luminance and alpha: `(l, l, l, a)`.
    La,
    /// Intensity: `(i, i, i, i)`.
    I,
    /// Depth, for the SHADOW targets: `(z, z, z, 1)` (OpenGL's default DEPTH_TEXTURE_MODE).
    Z,
}

impl Format {
    /// All formats.
    pub const ALL: [Format; 9] = [
        Format::R,
        Format::Rg,
        Format::Rgb,
        Format::Rgba,
        Format::A,
        Format::L,
        Format::La,
        Format::I,
        Format::Z,
    ];

    /// Parses a format name case-insensitively: `r`, `rg`, `rgb`, `rgba`, `a`, `l`, `la`, `i`, `z`
    /// (also `depth` and `shadow` for `z`).
    pub fn from_name(name: &str) -> Result<Format, TextureError> {
        let lower = name.to_ascii_lowercase();
        let found = match lower.as_str() {
            "depth" | "shadow" => Some(Format::Z),
            _ => Format::ALL.into_iter().find(|f| f.name() == lower),
        };
        found.ok_or_else(|| TextureError::UnknownName {
            kind: "format",
            name: name.to_string(),
            expected: "r, rg, rgb, rgba, a, l, la, i, z (depth)",
        })
    }

    /// The option name (lower case).
    pub fn name(self) -> &'static str {
        match self {
            Format::R => "r",
            Format::Rg => "rg",
            Format::Rgb => "rgb",
            Format::Rgba => "rgba",
            Format::A => "a",
            Format::L => "l",
            Format::La => "la",
            Format::I => "i",
            Format::Z => "z",
        }
    }

    /// Builds the returned `(x, y, z, w)` from an image pixel.
    ///
    /// Formats never mix channels: `r`, `l`, `i`, `z` take the pixel's first channel (grey or red),
    /// `g` and `b` the green and blue channels (the grey value for grey pixels), `a` the alpha
    /// channel (1 when the pixel has none). Format A on a pixel without alpha uses the first
    /// channel, so a grey image can be loaded as an alpha texture.
    pub fn convert(self, pixel: &Pixel) -> [f32; 4] {
        let first = pixel.rgb[0];
        let alpha = pixel.alpha.unwrap_or(1.0);
        match self {
            Format::R => [first, 0.0, 0.0, 1.0],
            Format::Rg => [first, pixel.rgb[1], 0.0, 1.0],
            Format::Rgb => [first, pixel.rgb[1], pixel.rgb[2], 1.0],
            Format::Rgba => [first, pixel.rgb[1], pixel.rgb[2], alpha],
            Format::A => [0.0, 0.0, 0.0, pixel.alpha.unwrap_or(first)],
            Format::L | Format::Z => [first, first, first, 1.0],
            Format::La => [first, first, first, alpha],
            Format::I => [first; 4],
        }
    }
}

/// One image pixel as normalised channels, before format conversion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pixel {
    /// Red, green, blue; a grey pixel repeats its value three times.
    pub rgb: [f32; 3],
    /// Alpha, when the image has an alpha channel.
    pub alpha: Option<f32>,
}

/// A texture: one mip level of a 1-D, 2-D, 3-D or cube image with its sampling state.
///
/// Texel `(x, y, z)` of face `f` is stored at `((f * depth + z) * height + y) * width + x`; row
/// `y = 0` is the first row of the source image, so texture coordinate `t = 0` addresses the top
/// of a PNG. Every texture is addressed as 3-D: 1-D lookups read row 0, 2-D lookups slice 0, and
/// lookups other than CUBE face 0.
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    pub(super) width: u32,
    pub(super) height: u32,
    pub(super) depth: u32,
    pub(super) faces: u32,
    pub(super) texels: Vec<[u32; 4]>,
    pub(super) filter: Filter,
    pub(super) wrap: [Wrap; 3],
    pub(super) format: Format,
}

fn check_dimension(what: &'static str, value: u32) -> Result<(), TextureError> {
    if value == 0 || value > MAX_DIMENSION {
        return Err(TextureError::Dimension {
            what,
            value: u64::from(value),
            max: u64::from(MAX_DIMENSION),
        });
    }
    Ok(())
}

impl Texture {
    /// Builds a 1-D, 2-D or 3-D texture (nearest, repeat) from texels as binary32 bits, row by row
    /// and slice by slice. Bits are stored unchanged: nearest sampling and TXF return them as they
    /// are; filtering reads them with the float rules.
    pub fn new(
        width: u32,
        height: u32,
        depth: u32,
        format: Format,
        texels: Vec<[u32; 4]>,
    ) -> Result<Texture, TextureError> {
        Texture::build(width, height, depth, 1, format, texels)
    }

    /// Builds a cube map of six `size` x `size` faces in +X, -X, +Y, -Y, +Z, -Z order.
    pub fn new_cube(
        size: u32,
        format: Format,
        texels: Vec<[u32; 4]>,
    ) -> Result<Texture, TextureError> {
        Texture::build(size, size, 1, 6, format, texels)
    }

    /// Builds a cube-map array: six `size` x `size` faces (+X, -X, +Y, -Y, +Z, -Z) of `layers`
    /// layers each; texel `(x, y)` of layer `l` of face `f` is at
    /// `((f * layers + l) * size + y) * size + x`. CUBE_ARRAY reads the layer from w.
    pub fn new_cube_array(
        size: u32,
        layers: u32,
        format: Format,
        texels: Vec<[u32; 4]>,
    ) -> Result<Texture, TextureError> {
        Texture::build(size, size, layers, 6, format, texels)
    }

    /// Builds a texture from float texels (each converted to its bits).
    pub fn from_floats(
        width: u32,
        height: u32,
        depth: u32,
        format: Format,
        texels: &[[f32; 4]],
    ) -> Result<Texture, TextureError> {
        let bits = texels.iter().map(|t| t.map(f32::to_bits)).collect();
        Texture::new(width, height, depth, format, bits)
    }

    pub(super) fn build(
        width: u32,
        height: u32,
        depth: u32,
        faces: u32,
        format: Format,
        texels: Vec<[u32; 4]>,
    ) -> Result<Texture, TextureError> {
        check_dimension("width", width)?;
        check_dimension("height", height)?;
        check_dimension("depth", depth)?;
        let expected = u64::from(width) * u64::from(height) * u64::from(depth) * u64::from(faces);
        if expected > MAX_TEXELS {
            return Err(TextureError::Dimension {
                what: "texel count",
                value: expected,
                max: MAX_TEXELS,
            });
        }
        if expected != texels.len() as u64 {
            return Err(TextureError::TexelCount {
                width,
                height,
                depth,
                faces,
                expected,
                got: texels.len(),
            });
        }
        Ok(Texture {
            width,
            height,
            depth,
            faces,
            texels,
            filter: Filter::Nearest,
            wrap: [Wrap::Repeat; 3],
            format,
        })
    }

    /// The texture Mesa's graw tests bind to sampler 0 (tgsi-reference.md): 16x16, RGBA, nearest,
    /// repeat, texel(s, t) = (s*255/15, t*255/15, ((s^t)>>2)&1 ? 0 : 128, 255) / 255 in integer
    /// arithmetic, `s` the column and `t` the row.
    pub fn graw_test() -> Texture {
        const SIZE: u32 = 16;
        let mut texels = Vec::with_capacity((SIZE * SIZE) as usize);
        for t in 0..SIZE {
            for s in 0..SIZE {
                let blue = if ((s ^ t) >> 2) & 1 == 1 { 0 } else { 128 };
                let bytes = [s * 255 / 15, t * 255 / 15, blue, 255];
                texels.push(bytes.map(|b| unorm(b, 255).to_bits()));
            }
        }
        Texture {
            width: SIZE,
            height: SIZE,
            depth: 1,
            faces: 1,
            texels,
            filter: Filter::Nearest,
            wrap: [Wrap::Repeat; 3],
            format: Format::Rgba,
        }
    }

    /// A procedural RGBA checkerboard for demos: squares of `cell` x `cell` texels, `colors[0]` in
    /// the top-left square.
    pub fn checkerboard(
        width: u32,
        height: u32,
        cell: u32,
        colors: [[f32; 4]; 2],
    ) -> Result<Texture, TextureError> {
        check_dimension("cell size", cell)?;
        check_dimension("width", width)?;
        check_dimension("height", height)?;
        // Refuse before generating the texels.
        let count = u64::from(width) * u64::from(height);
        if count > MAX_TEXELS {
            return Err(TextureError::Dimension {
                what: "texel count",
                value: count,
                max: MAX_TEXELS,
            });
        }
        let texels: Vec<[f32; 4]> = (0..height)
            .flat_map(|y| (0..width).map(move |x| colors[((x / cell + y / cell) % 2) as usize]))
            .collect();
        Texture::from_floats(width, height, 1, Format::Rgba, &texels)
    }

    /// Sets the filter.
    pub fn with_filter(mut self, filter: Filter) -> Texture {
        self.filter = filter;
        self
    }

    /// Sets the wrap modes of the s, t and r axes.
    pub fn with_wrap(mut self, wrap: [Wrap; 3]) -> Texture {
        self.wrap = wrap;
        self
    }

    /// Width in texels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in texels (of one face or slice).
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Number of 3-D slices (1 for 1-D, 2-D and cube textures).
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Whether the texture is a cube map (six faces).
    pub fn is_cube(&self) -> bool {
        self.faces == 6
    }

    /// The filter.
    pub fn filter(&self) -> Filter {
        self.filter
    }

    /// The wrap modes of the s, t and r axes.
    pub fn wrap(&self) -> [Wrap; 3] {
        self.wrap
    }

    /// The format the texels were converted from.
    pub fn format(&self) -> Format {
        self.format
    }

    /// All texels, in storage order (see [`Texture`]).
    pub fn texels(&self) -> &[[u32; 4]] {
        &self.texels
    }

    /// The texel at `(x, y, z)` of `face`, or `None` outside the texture.
    pub fn texel(&self, face: u32, x: u32, y: u32, z: u32) -> Option<[u32; 4]> {
        if face >= self.faces || x >= self.width || y >= self.height || z >= self.depth {
            return None;
        }
        let index = ((u64::from(face) * u64::from(self.depth) + u64::from(z))
            * u64::from(self.height)
            + u64::from(y))
            * u64::from(self.width)
            + u64::from(x);
        self.texels.get(usize::try_from(index).ok()?).copied()
    }
}

/// `value / max` correctly rounded to binary32 (both are exact in binary32, so one IEEE division).
pub(super) fn unorm(value: u32, max: u32) -> f32 {
    value as f32 / max as f32
}

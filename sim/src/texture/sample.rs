//! Addressing and filtering: TEX-family sampling, TXF texel fetch and TXQ size query
//! (decisions.md section 6).
//!
//! One mip level: TXB's bias, TXL's lod and TXD's derivatives are not parameters here; callers
//! read them and drop them. TXP's projection happens before [`Texture::sample`] is called.

use microcode::tgsi::TextureTarget;

use super::cube::select_face;
use super::float::{self, add, floor, floor_to_int, mul, operand, sub};
use super::image::{Filter, Texture, Wrap};
use super::shadow;

/// The texel indices one axis reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AxisSample {
    /// One texel.
    Nearest(u32),
    /// Texels `i0` and `i1` (already wrapped), weighted `1 - f` and `f`.
    Linear {
        /// Wrapped index of `floor(a)`.
        i0: u32,
        /// Wrapped index of `floor(a) + 1`.
        i1: u32,
        /// `a - floor(a)`.
        f: f32,
    },
}

/// Nearest addressing of one axis: `floor(u * size)` (or `floor(u)` unnormalised), converted
/// like ARL (NaN 0, saturating to int32), then wrapped. A non-finite coordinate gives index 0.
pub fn nearest_index(coord: f32, size: u32, normalized: bool, wrap: Wrap) -> u32 {
    let coord = operand(coord.to_bits());
    if !coord.is_finite() {
        return wrap.apply(0, size);
    }
    let scaled = if normalized {
        mul(coord, size as f32)
    } else {
        coord
    };
    wrap.apply(i64::from(floor_to_int(scaled)), size)
}

/// Linear addressing of one axis: `a = u * size - 0.5` (or `u - 0.5` unnormalised),
/// `i = floor(a)`, `f = a - i`, one rounding per operation; indices `i` and `i + 1` are
/// converted like ARL and wrapped. A non-finite coordinate gives `i = 0` and `f = 0` (so only
/// texel 0 is weighted). A finite coordinate whose `a` overflows follows the formula literally
/// (`f` = inf - inf = NaN).
pub fn linear_indices(coord: f32, size: u32, normalized: bool, wrap: Wrap) -> AxisSample {
    let coord = operand(coord.to_bits());
    if !coord.is_finite() {
        return AxisSample::Linear {
            i0: wrap.apply(0, size),
            i1: wrap.apply(1, size),
            f: 0.0,
        };
    }
    let scaled = if normalized {
        mul(coord, size as f32)
    } else {
        coord
    };
    let a = sub(scaled, 0.5);
    let i = floor(a);
    let f = sub(a, i);
    let index = i64::from(floor_to_int(i));
    AxisSample::Linear {
        i0: wrap.apply(index, size),
        i1: wrap.apply(index + 1, size),
        f,
    }
}

/// `a * (1 - f) + b * f` per channel, left to right, one rounding per operation.
fn lerp(a: [f32; 4], b: [f32; 4], f: f32) -> [f32; 4] {
    let keep = sub(1.0, f);
    std::array::from_fn(|c| add(mul(a[c], keep), mul(b[c], f)))
}

/// How a target addresses the texture.
#[derive(Clone, Copy, Debug)]
struct Addressing {
    dims: usize,
    normalized: bool,
    shadow: bool,
}

fn addressing(target: TextureTarget) -> Addressing {
    let (dims, normalized, shadow) = match target {
        TextureTarget::T1D => (1, true, false),
        TextureTarget::T2D | TextureTarget::Unknown | TextureTarget::Cube => (2, true, false),
        TextureTarget::T3D => (3, true, false),
        TextureTarget::Rect => (2, false, false),
        TextureTarget::Shadow1D => (1, true, true),
        TextureTarget::Shadow2D => (2, true, true),
        TextureTarget::ShadowRect => (2, false, true),
    };
    Addressing {
        dims,
        normalized,
        shadow,
    }
}

impl Texture {
    /// Samples the texture as a TEX-family instruction with `target` does; `coord` is the
    /// coordinate register (binary32 bits; TXP already divided). Returns the four result bits.
    ///
    /// 1-D targets read row 0, 2-D targets slice 0, targets other than CUBE face 0; CUBE on a
    /// texture that is not a cube map samples its 2-D image with the chosen face's s, t. UNKNOWN
    /// samples as 2D. Nearest sampling returns the texel's bits unchanged (a move); bilinear
    /// sampling computes every channel with the float rules. SHADOW targets compare `coord.z`
    /// with each texel's first channel and filter the 0.0/1.0 results into `(res, res, res, 1)`.
    pub fn sample(&self, target: TextureTarget, coord: [u32; 4]) -> [u32; 4] {
        let c = coord.map(f32::from_bits);
        let mode = addressing(target);
        let (face, u, v, w) = if target == TextureTarget::Cube {
            let cube = select_face(c[0], c[1], c[2]);
            let face = if self.is_cube() { cube.face.index() } else { 0 };
            (face, cube.s, cube.t, 0.0)
        } else {
            (0, c[0], c[1], c[2])
        };
        let coords = [u, v, w];
        let sizes = [self.width, self.height, self.depth];
        let axes: [AxisSample; 3] = std::array::from_fn(|axis| {
            if axis >= mode.dims {
                AxisSample::Nearest(0)
            } else if self.filter == Filter::Nearest {
                AxisSample::Nearest(nearest_index(
                    coords[axis],
                    sizes[axis],
                    mode.normalized,
                    self.wrap[axis],
                ))
            } else {
                linear_indices(coords[axis], sizes[axis], mode.normalized, self.wrap[axis])
            }
        });
        if mode.shadow {
            let r = c[2];
            let value = self.filtered(face, axes, &|t| [shadow::compare(r, t), 0.0, 0.0, 0.0]);
            return shadow::result(value[0]);
        }
        if let [AxisSample::Nearest(x), AxisSample::Nearest(y), AxisSample::Nearest(z)] = axes {
            return self.texel(face, x, y, z).unwrap_or([0; 4]);
        }
        self.filtered(face, axes, &|t| t.map(f32::from_bits))
            .map(float::bits)
    }

    /// Combines the texels `axes` select: x first, then y, then z, as the formula nests.
    fn filtered(
        &self,
        face: u32,
        axes: [AxisSample; 3],
        read: &dyn Fn([u32; 4]) -> [f32; 4],
    ) -> [f32; 4] {
        let fetch = |x: u32, y: u32, z: u32| read(self.texel(face, x, y, z).unwrap_or([0; 4]));
        let combine = |axis: AxisSample, value: &dyn Fn(u32) -> [f32; 4]| match axis {
            AxisSample::Nearest(i) => value(i),
            AxisSample::Linear { i0, i1, f } => lerp(value(i0), value(i1), f),
        };
        combine(axes[2], &|z| {
            combine(axes[1], &|y| combine(axes[0], &|x| fetch(x, y, z)))
        })
    }

    /// TXF: the texel at integer coordinates `(x, y, z)`, no filtering or wrapping. 1-D targets
    /// use x (row 0), 2-D and RECT targets x, y (slice 0), 3D x, y, z; CUBE uses x, y on face z.
    /// Coordinates the target does not use are ignored; a used coordinate outside the texture
    /// returns all-zero bits `(0, 0, 0, 0)`. SHADOW targets return the stored texel (no compare).
    pub fn fetch(&self, target: TextureTarget, coord: [i32; 4]) -> [u32; 4] {
        let dims = addressing(target).dims;
        let used = |axis: usize| {
            if axis < dims {
                u32::try_from(coord[axis]).ok()
            } else {
                Some(0)
            }
        };
        let (face, z) = if target == TextureTarget::Cube {
            (u32::try_from(coord[2]).ok(), Some(0))
        } else {
            (Some(0), used(2))
        };
        match (face, used(0), used(1), z) {
            (Some(face), Some(x), Some(y), Some(z)) => self.texel(face, x, y, z).unwrap_or([0; 4]),
            _ => [0; 4],
        }
    }

    /// TXQ: `(width, height, depth, 1)` as int32 bits; depth is 1 for cube maps (each face is
    /// width x height). Single level, so the level operand has no effect.
    pub fn size(&self) -> [u32; 4] {
        [self.width, self.height, self.depth, 1]
    }
}

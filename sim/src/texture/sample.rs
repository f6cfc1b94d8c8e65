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
    /// Filtered axes (1 to 3).
    dims: usize,
    normalized: bool,
    /// A cube-map direction in x, y, z picks the face.
    cube: bool,
    /// The coordinate holding the array layer, and the axis it selects (y for 1D arrays, z for
    /// the others).
    layer: Option<(usize, usize)>,
    /// The coordinate holding the depth reference; `Some(None)` compares with 0 (SHADOWCUBE_ARRAY
    /// has no room for one).
    shadow: Option<Option<usize>>,
}

fn addressing(target: TextureTarget) -> Addressing {
    use TextureTarget as T;
    let plain = |dims, normalized| Addressing {
        dims,
        normalized,
        cube: false,
        layer: None,
        shadow: None,
    };
    match target {
        T::T1D => plain(1, true),
        T::T2D | T::Unknown | T::T2DMsaa => plain(2, true),
        T::T3D => plain(3, true),
        T::Rect => plain(2, false),
        T::Cube => Addressing {
            cube: true,
            ..plain(2, true)
        },
        T::Shadow1D => Addressing {
            shadow: Some(Some(2)),
            ..plain(1, true)
        },
        T::Shadow2D => Addressing {
            shadow: Some(Some(2)),
            ..plain(2, true)
        },
        T::ShadowRect => Addressing {
            shadow: Some(Some(2)),
            ..plain(2, false)
        },
        T::T1DArray => Addressing {
            layer: Some((1, 1)),
            ..plain(1, true)
        },
        T::T2DArray | T::T2DArrayMsaa => Addressing {
            layer: Some((2, 2)),
            ..plain(2, true)
        },
        T::Shadow1DArray => Addressing {
            layer: Some((1, 1)),
            shadow: Some(Some(2)),
            ..plain(1, true)
        },
        T::Shadow2DArray => Addressing {
            layer: Some((2, 2)),
            shadow: Some(Some(3)),
            ..plain(2, true)
        },
        T::ShadowCube => Addressing {
            cube: true,
            shadow: Some(Some(3)),
            ..plain(2, true)
        },
        T::CubeArray => Addressing {
            cube: true,
            layer: Some((3, 2)),
            ..plain(2, true)
        },
        T::ShadowCubeArray => Addressing {
            cube: true,
            layer: Some((3, 2)),
            shadow: Some(None),
            ..plain(2, true)
        },
    }
}

/// The array layer a coordinate selects: `floor(l + 0.5)` (a float operation) clamped to the
/// layers there are; NaN selects layer 0.
pub fn layer_index(l: f32, layers: u32) -> u32 {
    let l = operand(l.to_bits());
    if l.is_nan() {
        return 0;
    }
    let i = i64::from(floor_to_int(add(l, 0.5)));
    i.clamp(0, i64::from(layers.max(1) - 1)) as u32
}

impl Texture {
    /// Samples the texture as a TEX-family instruction with `target` does; `coord` is the
    /// coordinate register (binary32 bits; TXP already divided). Returns the four result bits.
    ///
    /// 1-D targets read row 0, 2-D targets slice 0, targets other than the cube ones face 0;
    /// a cube target on a texture that is not a cube map samples its 2-D image with the chosen
    /// face's s, t. UNKNOWN samples as 2D. The array targets take the layer
    /// ([`layer_index`]) from the coordinate after their own (1D_ARRAY: a row, 2D_ARRAY and
    /// CUBE_ARRAY: a slice). Nearest sampling returns the texel's bits unchanged (a move);
    /// bilinear sampling computes every channel with the float rules. SHADOW targets compare
    /// the reference (z, or w for SHADOW2D_ARRAY and SHADOWCUBE) with each texel's first
    /// channel and filter the 0.0/1.0 results into `(res, res, res, 1)`.
    pub fn sample(&self, target: TextureTarget, coord: [u32; 4]) -> [u32; 4] {
        let c = coord.map(f32::from_bits);
        let mode = addressing(target);
        let (face, u, v, w) = if mode.cube {
            let cube = select_face(c[0], c[1], c[2]);
            let face = if self.is_cube() { cube.face.index() } else { 0 };
            (face, cube.s, cube.t, 0.0)
        } else {
            (0, c[0], c[1], c[2])
        };
        let coords = [u, v, w];
        let sizes = [self.width, self.height, self.depth];
        let axes: [AxisSample; 3] = std::array::from_fn(|axis| {
            if let Some((at, layer_axis)) = mode.layer {
                if axis == layer_axis {
                    return AxisSample::Nearest(layer_index(c[at], sizes[axis]));
                }
            }
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
        if let Some(reference) = mode.shadow {
            let r = reference.map_or(0.0, |at| c[at]);
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
    /// The array targets read the layer after their coordinates (1D_ARRAY: row y, 2D_ARRAY:
    /// slice z; CUBE_ARRAY: face z, slice w). Coordinates the target does not use are ignored;
    /// a used coordinate outside the texture returns all-zero bits `(0, 0, 0, 0)`. SHADOW
    /// targets return the stored texel (no compare).
    pub fn fetch(&self, target: TextureTarget, coord: [i32; 4]) -> [u32; 4] {
        let mode = addressing(target);
        let dims = match mode.layer {
            Some((_, layer_axis)) if !mode.cube => layer_axis + 1,
            _ => mode.dims,
        };
        if mode.cube && mode.layer.is_some() {
            return match (
                u32::try_from(coord[0]),
                u32::try_from(coord[1]),
                u32::try_from(coord[2]),
                u32::try_from(coord[3]),
            ) {
                (Ok(x), Ok(y), Ok(face), Ok(z)) => self.texel(face, x, y, z).unwrap_or([0; 4]),
                _ => [0; 4],
            };
        }
        let used = |axis: usize| {
            if axis < dims {
                u32::try_from(coord[axis]).ok()
            } else {
                Some(0)
            }
        };
        let (face, z) = if mode.cube {
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

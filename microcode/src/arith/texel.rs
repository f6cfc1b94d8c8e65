//! The texture unit's bit operations (`TIDX`, `TFRC`, `TSEL`) and the sampler descriptors they
//! read.
//!
//! TEX on 1D, 2D and RECT targets is compiled into these operations, the texel fetch `TFET` and
//! ordinary multiply-adds (`microcode/src/compile/texture.rs`), so the result is exactly what
//! decisions.md section 6 and `sim::texture` compute: `a = u * size - 0.5` (bilinear) or
//! `u * size` (nearest) by one multiply-add, `i = floor(a)`, `f = a - i`, the integer index
//! `F2IF(a)`, then [`tidx`] wraps it, [`tfrc`] zeroes the weight where the model does, the lerps
//! are multiply-adds (`a * (1 - f) + b * f`, one rounding per operation) and [`tsel`] picks the
//! texel itself for nearest filtering.
//!
//! A sampler unit's state reaches the core as constant slots ([`descriptor`]), filled by the
//! host from the bound texture:
//! - part 0 (floats and base): `(width, height, offset, base)`: the sizes as binary32, the offset
//!   `-0.5` for bilinear and `-0.0` for nearest filtering, and the texture's first texel in texture
//!   memory as an integer;
//! - part 1 (axis words, [`axis`]): `(s, t, s + 1, t + 1)`: per axis the size, the wrap mode, the
//!   stride as a shift, the filter, and in the last two the "+1" flag of the second texel index;
//! - part 2: the sampler's size `(width, height, depth, levels)` as int32, which TXQ returns;
//! - part 3 (the third axis): `(r, r + 1, depth, face)`: the axis words of 3D's r axis, the depth
//!   as binary32, and the axis word that places a cube face (six faces of a cube map, one
//!   otherwise, clamped: a CUBE target reads face 0 of any other texture).
//!
//! TXF on 1D, 2D and RECT targets is `TIDXF` per axis ([`tidx_fetch`]: no wrap, [`OUTSIDE`] when
//! out of range), an OR, and `TFET`.
//!
//! Texel `(x, y, z)` lives at `base + (x | y << sx | z << (sx + sy))` with `sx = ceil(log2(width))`
//! and `sy = ceil(log2(height))`, so row and slice strides are powers of two and the address is an
//! OR of the wrapped indices; `z` is the slice of a 3D texture or the face of a cube map.

/// Bits of an axis word (descriptor part 1).
pub mod axis {
    /// Bits 0..14: the axis size minus one (sizes up to 16384).
    pub const SIZE_M1: u32 = 0x7FFF;
    /// Bits 16..19: the index is shifted left by this much (the stride of the axis).
    pub const SHIFT_LSB: u32 = 16;
    /// Bit 20: clamp to the edge (else repeat).
    pub const CLAMP: u32 = 1 << 20;
    /// Bit 21: the second texel of the pair (index + 1).
    pub const PLUS1: u32 = 1 << 21;
    /// Bit 22: bilinear filtering (else nearest).
    pub const LINEAR: u32 = 1 << 22;
}

/// What the descriptors say about a bound texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SamplerLayout {
    /// Width and height in texels (1..=16384).
    pub width: u32,
    /// Height in texels (1..=16384; 1 for a 1-D texture).
    pub height: u32,
    /// Slices in texture memory: the depth of a 3D texture, 6 for a cube map, else 1.
    pub depth: u32,
    /// A cube map (its slices are the faces +X, -X, +Y, -Y, +Z, -Z).
    pub cube: bool,
    /// Clamp to the edge on s, t, r (else repeat).
    pub clamp: [bool; 3],
    /// Bilinear filtering (else nearest).
    pub linear: bool,
}

/// The shift of a row: `ceil(log2(width))`.
pub fn row_shift(width: u32) -> u32 {
    width.max(1).next_power_of_two().trailing_zeros()
}

impl SamplerLayout {
    /// A 2D layout (one slice, not a cube map).
    pub fn planar(width: u32, height: u32, clamp: [bool; 2], linear: bool) -> SamplerLayout {
        SamplerLayout {
            width,
            height,
            depth: 1,
            cube: false,
            clamp: [clamp[0], clamp[1], false],
            linear,
        }
    }

    /// The TXF target that reads texel `(x, y, z)` of the texture: slice z of a 3D texture,
    /// face z of a cube map.
    pub fn fetch_target(&self) -> crate::tgsi::TextureTarget {
        use crate::tgsi::TextureTarget;
        if self.cube {
            TextureTarget::Cube
        } else if self.depth > 1 {
            TextureTarget::T3D
        } else {
            TextureTarget::T2D
        }
    }

    /// The shift of a slice: `ceil(log2(width)) + ceil(log2(height))`.
    pub fn slice_shift(&self) -> u32 {
        row_shift(self.width) + row_shift(self.height)
    }

    /// Texels the texture takes in texture memory (rows and slices padded to powers of two;
    /// the last slice is not padded).
    pub fn footprint(&self) -> u32 {
        if self.depth > 1 {
            ((self.depth - 1) << self.slice_shift()) + (self.height << row_shift(self.width))
        } else {
            self.height << row_shift(self.width)
        }
    }

    /// The address of texel `(x, y)` of slice (or face) `z` relative to the texture's base.
    pub fn address(&self, x: u32, y: u32, z: u32) -> u32 {
        x | y << row_shift(self.width) | z << self.slice_shift()
    }

    /// Texel `(x, y, z)` of an address relative to the base (the inverse of [`Self::address`]).
    pub fn texel_of(&self, address: u32) -> (u32, u32, u32) {
        let s = row_shift(self.width);
        let z = self.slice_shift();
        (
            address & ((1 << s) - 1),
            (address & ((1 << z) - 1)) >> s,
            address >> z,
        )
    }
}

/// `-0.5` and `-0.0` as binary32 bits.
const MINUS_HALF: u32 = 0xBF00_0000;
const MINUS_ZERO: u32 = 0x8000_0000;

/// Descriptor slot `part` (0, 1 or 3; part 2 is the size, which the caller fills from the
/// sampler) of a texture placed at `base` in texture memory.
pub fn descriptor(l: &SamplerLayout, base: u32, part: u16) -> [u32; 4] {
    let word = |size: u32, shift: u32, clamp: bool, linear: bool| {
        (size.clamp(1, axis::SIZE_M1 + 1) - 1)
            | (shift & 0xF) << axis::SHIFT_LSB
            | if clamp { axis::CLAMP } else { 0 }
            | if linear { axis::LINEAR } else { 0 }
    };
    let s = word(l.width, 0, l.clamp[0], l.linear);
    let t = word(l.height, row_shift(l.width), l.clamp[1], l.linear);
    let offset = if l.linear { MINUS_HALF } else { MINUS_ZERO };
    match part {
        0 => [
            (l.width as f32).to_bits(),
            (l.height as f32).to_bits(),
            offset,
            base,
        ],
        1 => [s, t, s | axis::PLUS1, t | axis::PLUS1],
        3 => {
            let slices = l.slice_shift();
            // A cube map's faces are its slices; a 3D texture is not a cube map (face 0).
            let (r_size, faces) = if l.cube { (1, 6) } else { (l.depth, 1) };
            let r = word(r_size, slices, l.clamp[2], l.linear);
            [
                r,
                r | axis::PLUS1,
                (r_size as f32).to_bits(),
                word(faces, slices, true, false),
            ]
        }
        _ => [0; 4],
    }
}

fn finite(bits: u32) -> bool {
    bits & 0x7F80_0000 != 0x7F80_0000
}

/// `TIDX`: the wrapped texel index of one axis, shifted to its place in the address. `n` is
/// `floor(a)` as int32 (`F2IF`), `coord` the coordinate the axis came from (a non-finite one
/// reads index 0, as the model's addressing does), `desc` the axis word. The "+1" of the second
/// index is added before wrapping, without overflow.
pub fn tidx(n: u32, coord: u32, desc: u32) -> u32 {
    let n = if finite(coord) {
        i64::from(n as i32)
    } else {
        0
    };
    let i = n + i64::from(desc & axis::PLUS1 != 0);
    let size = i64::from(desc & axis::SIZE_M1) + 1;
    let wrapped = if desc & axis::CLAMP != 0 {
        i.clamp(0, size - 1)
    } else {
        i.rem_euclid(size)
    };
    // In [0, size - 1], below 2^15.
    (wrapped as u32) << ((desc >> axis::SHIFT_LSB) & 0xF)
}

/// `TIDXF`: the unwrapped texel index of one axis for TXF, shifted to its place, or bit 31 alone
/// when `n` (int32) lies outside the axis (a texel fetch from such an address reads zeros).
pub fn tidx_fetch(n: u32, desc: u32) -> u32 {
    let n = n as i32;
    if n < 0 || n > (desc & axis::SIZE_M1) as i32 {
        OUTSIDE
    } else {
        (n as u32) << ((desc >> axis::SHIFT_LSB) & 0xF)
    }
}

/// The address bit that makes `TFET` read `(0, 0, 0, 0)`.
pub const OUTSIDE: u32 = 0x8000_0000;

/// `TFRC`: the bilinear weight `f`, or `+0` for nearest filtering and for a non-finite coordinate.
pub fn tfrc(f: u32, coord: u32, desc: u32) -> u32 {
    if finite(coord) && desc & axis::LINEAR != 0 {
        f
    } else {
        0
    }
}

/// `TSEL`: `a` (the filtered value) for bilinear filtering, `b` (the texel itself) for nearest.
pub fn tsel(a: u32, b: u32, desc: u32) -> u32 {
    if desc & axis::LINEAR != 0 {
        a
    } else {
        b
    }
}

/// The binary32 value of an 8-bit unorm channel, `k / 255` correctly rounded: the texture unit's
/// conversion table.
pub fn unorm8(k: u8) -> u32 {
    (f32::from(k) / 255.0).to_bits()
}

/// The 8-bit channel whose [`unorm8`] value is `bits`, if there is one: textures the hardware
/// stores as RGBA8.
pub fn to_unorm8(bits: u32) -> Option<u8> {
    let k = (f32::from_bits(bits) * 255.0).round();
    if (0.0..=255.0).contains(&k) && unorm8(k as u8) == bits {
        Some(k as u8)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(width: u32, height: u32, clamp: bool, linear: bool) -> SamplerLayout {
        SamplerLayout::planar(width, height, [clamp; 2], linear)
    }

    fn descriptors(l: &SamplerLayout, base: u32) -> [[u32; 4]; 2] {
        [descriptor(l, base, 0), descriptor(l, base, 1)]
    }

    #[test]
    fn repeat_and_clamp_wrap_like_the_texture_model() {
        let [_, d] = descriptors(&layout(16, 8, false, true), 0);
        assert_eq!(tidx((-1i32) as u32, 0, d[0]), 15);
        assert_eq!(tidx((-1i32) as u32, 0, d[2]), 0);
        assert_eq!(tidx(17, 0, d[0]), 1);
        // The t axis lands at bit 4 (16 columns).
        assert_eq!(tidx(9, 0, d[1]), 1 << 4);
        assert_eq!(tidx(7, 0, d[3]), 0);
        let [_, c] = descriptors(&layout(16, 8, true, true), 0);
        assert_eq!(tidx((-5i32) as u32, 0, c[0]), 0);
        assert_eq!(tidx(40, 0, c[1]), 7 << 4);
        // i32::MAX + 1 does not wrap to negative.
        assert_eq!(tidx(i32::MAX as u32, 0, c[2]), 15);
        // A non-finite coordinate reads index 0 (and 1).
        assert_eq!(tidx(5, 0x7F80_0000, d[0]), 0);
        assert_eq!(tidx(5, 0xFFC0_0000, d[2]), 1);
    }

    #[test]
    fn odd_widths_pad_rows_to_a_power_of_two() {
        let l = layout(5, 3, false, false);
        assert_eq!(row_shift(5), 3);
        assert_eq!(l.footprint(), 24);
        assert_eq!(l.texel_of(l.address(4, 2, 0)), (4, 2, 0));
        let [k, d] = descriptors(&l, 100);
        assert_eq!(k, [0x40A0_0000, 0x4040_0000, 0x8000_0000, 100]);
        assert_eq!(tidx(7, 0x3F80_0000, d[0]), 2);
    }

    #[test]
    fn fetch_indices_mark_what_lies_outside() {
        let [_, d] = descriptors(&layout(16, 8, false, true), 0);
        assert_eq!(tidx_fetch(15, d[0]), 15);
        assert_eq!(tidx_fetch(16, d[0]), OUTSIDE);
        assert_eq!(tidx_fetch((-1i32) as u32, d[0]), OUTSIDE);
        assert_eq!(tidx_fetch(7, d[1]), 7 << 4);
        assert_eq!(tidx_fetch(8, d[1]), OUTSIDE);
        assert_eq!(tidx_fetch(i32::MIN as u32, d[1]), OUTSIDE);
    }

    #[test]
    fn weight_and_select_follow_the_filter() {
        let [_, lin] = descriptors(&layout(4, 4, false, true), 0);
        let [_, near] = descriptors(&layout(4, 4, false, false), 0);
        assert_eq!(tfrc(0x3E80_0000, 0x3F00_0000, lin[0]), 0x3E80_0000);
        assert_eq!(tfrc(0x3E80_0000, 0x7F80_0000, lin[0]), 0);
        assert_eq!(tfrc(0x3E80_0000, 0x3F00_0000, near[0]), 0);
        assert_eq!(tsel(1, 2, lin[0]), 1);
        assert_eq!(tsel(1, 2, near[0]), 2);
    }

    #[test]
    fn volumes_and_cube_maps_stack_slices() {
        let v = SamplerLayout {
            depth: 3,
            clamp: [false, false, true],
            ..layout(4, 3, false, true)
        };
        assert_eq!(v.slice_shift(), 4);
        // Two padded slices of 16 texels and the last one's 3 rows of 4.
        assert_eq!(v.footprint(), 2 * 16 + 12);
        assert_eq!(v.texel_of(v.address(3, 2, 2)), (3, 2, 2));
        let d = descriptor(&v, 0, 3);
        assert_eq!(tidx(5, 0, d[0]), 2 << 4);
        assert_eq!(tidx(2, 0, d[1]), 2 << 4);
        assert_eq!(d[2], 3.0f32.to_bits());
        // Not a cube map: every face reads slice 0.
        assert_eq!(tidx(4, 0, d[3]), 0);
        let c = SamplerLayout {
            depth: 6,
            cube: true,
            ..layout(2, 2, true, false)
        };
        assert_eq!(c.footprint(), 24);
        let d = descriptor(&c, 0, 3);
        assert_eq!(tidx(5, 0, d[3]), 5 << 2);
        assert_eq!(tidx(3, 0, d[0]), 0);
        assert_eq!(descriptor(&c, 0, 2), [0; 4]);
    }

    #[test]
    fn unorm_channels_round_trip() {
        for k in 0..=255u8 {
            assert_eq!(to_unorm8(unorm8(k)), Some(k));
        }
        assert_eq!(unorm8(255), 0x3F80_0000);
        assert_eq!(to_unorm8(0x3F00_0000), None);
        assert_eq!(to_unorm8(0x8000_0000), None);
        assert_eq!(to_unorm8(0x7FC0_0000), None);
    }
}

//! [`Texture`] as the reference model's [`Sampler`](crate::run_io::Sampler).

use microcode::tgsi::TextureTarget;

use microcode::arith::texel::SamplerLayout;

use super::image::{Filter, Texture, Wrap};
use crate::run_io::Sampler;

impl Texture {
    /// The target a TXF without one addresses: CUBE for cube maps, 3D when there are several
    /// slices, 2D when there are several rows, else 1D. Coordinates of axes the texture does not
    /// have are therefore ignored rather than range-checked.
    pub fn shape_target(&self) -> TextureTarget {
        if self.is_cube() {
            TextureTarget::Cube
        } else if self.depth > 1 {
            TextureTarget::T3D
        } else if self.height > 1 {
            TextureTarget::T2D
        } else {
            TextureTarget::T1D
        }
    }
}

impl Sampler for Texture {
    fn sample(&self, target: TextureTarget, coord: [f32; 4]) -> [u32; 4] {
        Texture::sample(self, target, coord.map(f32::to_bits))
    }

    /// TXF without a target (`UNKNOWN`) addresses the texture by its shape
    /// ([`Texture::shape_target`]).
    fn fetch(&self, target: TextureTarget, texel: [i32; 4]) -> [u32; 4] {
        let target = match target {
            TextureTarget::Unknown => self.shape_target(),
            t => t,
        };
        Texture::fetch(self, target, texel)
    }

    fn size(&self) -> [u32; 4] {
        Texture::size(self)
    }

    fn layout(&self) -> Option<SamplerLayout> {
        Some(SamplerLayout {
            width: self.width,
            height: self.height,
            depth: if self.is_cube() { 6 } else { self.depth },
            cube: self.is_cube(),
            clamp: self.wrap.map(|w| w == Wrap::ClampToEdge),
            linear: self.filter == Filter::Bilinear,
        })
    }
}

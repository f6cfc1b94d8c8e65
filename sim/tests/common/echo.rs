//! A texture that returns its coordinates, so that texture opcodes always have something bound
//! and their results show what they were given.

use microcode::tgsi::TextureTarget;
use sim::run_io::Sampler;

/// Samples give the coordinates' bits, fetches the texel coordinates; a 4x4 size.
pub struct Echo;

impl Sampler for Echo {
    fn sample(&self, _: TextureTarget, coord: [f32; 4]) -> [u32; 4] {
        coord.map(f32::to_bits)
    }
    fn fetch(&self, _: TextureTarget, texel: [i32; 4]) -> [u32; 4] {
        texel.map(|t| t as u32)
    }
    fn size(&self) -> [u32; 4] {
        [4, 4, 1, 1]
    }
}

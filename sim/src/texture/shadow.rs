//! Depth comparison for the SHADOW targets.

use super::float::{le, operand};

/// The comparison result for one texel: 1.0 when `r <= texel.x` (a float comparison: subnormals
/// count as zero, NaN on either side gives 0.0), else 0.0.
pub fn compare(r: f32, texel: [u32; 4]) -> f32 {
    if le(r, operand(texel[0])) {
        1.0
    } else {
        0.0
    }
}

/// The returned vector `(res, res, res, 1)` as bits.
pub fn result(res: f32) -> [u32; 4] {
    let bits = super::float::bits(res);
    [bits, bits, bits, 1.0f32.to_bits()]
}

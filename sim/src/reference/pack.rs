//! NV_fragment_program pack and unpack opcodes.
//!
//! Where the extension leaves details open we define them (also in the opcode table):
//! - PK2H converts binary32 (subnormal inputs flushed) to IEEE binary16 rounding to nearest-even,
//!   keeping binary16 subnormals; overflow gives infinity; NaN gives 0x7E00.
//! - PK2US / PK4B / PK4UB clamp as selects (NaN clamps to the lower bound), scale exactly and round
//!   half to even.
//! - UP2H converts exactly (binary16 NaN gives the canonical binary32 NaN); UP2US / UP4B / UP4UB are
//!   one correctly rounded binary32 division each.

use super::float;
use super::state::{Vec4, Written};
use microcode::tgsi::Opcode;

/// Binary32 bits (subnormal flushed) to binary16 bits.
pub fn f32_to_f16(bits: u32) -> u16 {
    let x = float::input(bits);
    let sign = if x.is_sign_negative() { 0x8000u16 } else { 0 };
    if x.is_nan() {
        return 0x7E00;
    }
    let v = f64::from(x.abs());
    if v.is_infinite() || v >= 65520.0 {
        return sign | 0x7C00;
    }
    if v < f64::powi(2.0, -14) {
        // Subnormal grid of binary16: multiples of 2^-24 (1024 gives the smallest normal).
        let r = (v * f64::powi(2.0, 24)).round_ties_even() as u16;
        return sign | r;
    }
    let mut e = ((x.abs().to_bits() >> 23) as i32) - 127;
    let frac = (v / f64::powi(2.0, e) - 1.0) * 1024.0;
    let mut r = frac.round_ties_even() as u32;
    if r == 1024 {
        e += 1;
        r = 0;
    }
    if e > 15 {
        return sign | 0x7C00;
    }
    sign | (((e + 15) as u16) << 10) | r as u16
}

/// Binary16 bits to binary32 bits (exact; NaN canonical).
pub fn f16_to_f32(h: u16) -> u32 {
    let sign = if h & 0x8000 != 0 { -1.0f64 } else { 1.0 };
    let e = i32::from((h >> 10) & 0x1F);
    let m = f64::from(h & 0x3FF);
    let v = match e {
        0 => m * f64::powi(2.0, -24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1.0 + m / 1024.0) * f64::powi(2.0, e - 15),
    };
    float::output64(sign * v)
}

/// clamp(x, lo, hi) as selects: NaN gives lo.
fn clamp(bits: u32, lo: f64, hi: f64) -> f64 {
    let x = f64::from(float::input(bits));
    if x > lo {
        if x < hi {
            x
        } else {
            hi
        }
    } else {
        lo
    }
}

fn unorm(bits: u32, scale: f64) -> u32 {
    (clamp(bits, 0.0, 1.0) * scale).round_ties_even() as u32
}

/// Evaluates a pack/unpack opcode; `None` when the opcode is not one of these.
pub fn eval(op: Opcode, s: &[Vec4]) -> Option<Written> {
    use Opcode as O;
    let a = s.first().copied().unwrap_or([0; 4]);
    let div = |n: u32, d: f32| float::div((n as f32).to_bits(), d.to_bits());
    let w = match op {
        O::Pk2h => [Some(u32::from(f32_to_f16(a[0])) | u32::from(f32_to_f16(a[1])) << 16); 4],
        O::Pk2us => [Some(unorm(a[0], 65535.0) | unorm(a[1], 65535.0) << 16); 4],
        O::Pk4ub => {
            let v = (0..4).fold(0u32, |acc, c| acc | unorm(a[c], 255.0) << (8 * c));
            [Some(v); 4]
        }
        O::Pk4b => {
            let v = (0..4).fold(0u32, |acc, c| {
                let q = (clamp(a[c], -128.0 / 127.0, 1.0) * 127.0).round_ties_even() + 128.0;
                acc | (q.clamp(0.0, 255.0) as u32) << (8 * c)
            });
            [Some(v); 4]
        }
        O::Up2h => {
            let lo = f16_to_f32(a[0] as u16);
            let hi = f16_to_f32((a[0] >> 16) as u16);
            [Some(lo), Some(hi), Some(lo), Some(hi)]
        }
        O::Up2us => {
            let lo = div(a[0] & 0xFFFF, 65535.0);
            let hi = div(a[0] >> 16, 65535.0);
            [Some(lo), Some(hi), Some(lo), Some(hi)]
        }
        O::Up4ub => std::array::from_fn(|c| Some(div((a[0] >> (8 * c)) & 0xFF, 255.0))),
        O::Up4b => std::array::from_fn(|c| {
            let byte = ((a[0] >> (8 * c)) & 0xFF) as i32 - 128;
            Some(float::div((byte as f32).to_bits(), 127.0f32.to_bits()))
        }),
        _ => return None,
    };
    Some(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_conversion() {
        assert_eq!(f32_to_f16(1.0f32.to_bits()), 0x3C00);
        assert_eq!(f32_to_f16((-2.0f32).to_bits()), 0xC000);
        assert_eq!(f32_to_f16(65504.0f32.to_bits()), 0x7BFF);
        assert_eq!(f32_to_f16(65520.0f32.to_bits()), 0x7C00);
        assert_eq!(f32_to_f16(f32::powi(2.0, -24).to_bits()), 0x0001);
        // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even.
        assert_eq!(f32_to_f16((1.0f32 + f32::powi(2.0, -11)).to_bits()), 0x3C00);
        assert_eq!(f16_to_f32(0x3C00), 1.0f32.to_bits());
        assert_eq!(f16_to_f32(0x0001), f32::powi(2.0, -24).to_bits());
        assert_eq!(f16_to_f32(0x7E01), float::CANONICAL_NAN);
    }
}

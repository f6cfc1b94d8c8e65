//! Independent reference rules for the arith tests: host binary32 arithmetic (correctly rounded,
//! subnormals kept) with the project's input flush, output flush and canonical NaN applied around
//! it. Written without calling the code under test.

#![allow(dead_code)]

/// The canonical NaN.
pub const NAN: u32 = 0x7FC0_0000;

/// Input rule: subnormal -> signed zero.
pub fn fin(x: u32) -> f32 {
    let v = f32::from_bits(x);
    if v.is_subnormal() {
        if v.is_sign_negative() {
            -0.0
        } else {
            0.0
        }
    } else {
        v
    }
}

/// Output rule: NaN -> canonical, subnormal -> signed zero.
pub fn fout(v: f32) -> u32 {
    if v.is_nan() {
        NAN
    } else if v.is_subnormal() {
        v.to_bits() & 0x8000_0000
    } else {
        v.to_bits()
    }
}

/// Flushes a subnormal bit pattern (selects keep other bits, NaN payloads included).
pub fn flush_bits(x: u32) -> u32 {
    if f32::from_bits(x).is_subnormal() {
        x & 0x8000_0000
    } else {
        x
    }
}

/// Edge-case operands: signed zeros, subnormals, min/max normal, infinities, NaNs, values next
/// to 1 and to the subnormal boundary.
pub fn edge_cases() -> Vec<u32> {
    let mut v = vec![
        0x0000_0000,
        0x8000_0000,
        0x0000_0001,
        0x8000_0001,
        0x007F_FFFF,
        0x807F_FFFF,
        0x0040_0000,
        0x0080_0000,
        0x8080_0000,
        0x0080_0001,
        0x00FF_FFFF,
        0x0100_0000,
        0x7F7F_FFFF,
        0xFF7F_FFFF,
        0x7F00_0000,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0000,
        0xFFC0_0000,
        0x7F80_0001,
        0x7FBF_FFFF,
        0xFFFF_FFFF,
        0x3F80_0000,
        0xBF80_0000,
        0x3F80_0001,
        0x3F7F_FFFF,
        0x4000_0000,
        0x3F00_0000,
        0x4040_0000,
        0x4049_0FDB,
        0x3EAA_AAAB,
        0x3380_0000,
        0x3400_0000,
        0x4B80_0000,
        0x4B7F_FFFF,
        0x4F00_0000,
        0xCF00_0000,
        0x4EFF_FFFF,
        0x3FC0_0000,
        0xBFC0_0000,
        0x4020_0000,
        0x3F40_0000,
        0x1F80_0000,
        0x2000_0000,
        0x5F80_0000,
        0x6000_0000,
        0x0180_0000,
    ];
    v.sort_unstable();
    v
}

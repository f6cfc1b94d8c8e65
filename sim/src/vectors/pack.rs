//! Pack and unpack: PK2H PK2US PK4B PK4UB (float -> packed bits, replicated) and UP2H UP2US UP4B UP4UB
//! (src.x bits -> floats). Scaled values round half to even after one rounding of the product; clamps
//! are selects, so NaN takes the lower bound.

use super::oracle::result;
use super::{fl, x4, Class, Vector, NINF, NSUB, NZ, ONE, PINF, PZ, QNAN, SUB};
use microcode::tgsi::Opcode;
use Class::*;
use Opcode::*;

fn pk(op: Opcode, class: Class, note: &'static str, x: [u32; 4], want: u32) -> Vector {
    Vector::new(op, class, note).src(x).bits(x4(want))
}

/// PK2H: two halves, round to nearest even, overflow to infinity.
fn pk2h() -> Vec<Vector> {
    vec![
        pk(
            Pk2h,
            Ordinary,
            "(1, -2) -> 0xC000_3C00",
            fl([1.0, -2.0, 7.0, 7.0]),
            0xC000_3C00,
        ),
        pk(
            Pk2h,
            Ordinary,
            "(0.5, 65504)",
            fl([0.5, 65504.0, 0.0, 0.0]),
            0x7BFF_3800,
        ),
        pk(
            Pk2h,
            Rounding,
            "1 + 2^-11 ties to 1; 1 + 3*2^-11 ties to 1 + 2^-9",
            [0x3F80_1000, 0x3F80_3000, PZ, PZ],
            0x3C02_3C00,
        ),
        pk(
            Pk2h,
            Rounding,
            "65519 rounds to 65504",
            fl([65519.0, -65519.0, 0.0, 0.0]),
            0xFBFF_7BFF,
        ),
        pk(Pk2h, SignedZero, "(+0, -0)", [PZ, NZ, PZ, PZ], 0x8000_0000),
        pk(
            Pk2h,
            Infinity,
            "(inf, -inf)",
            [PINF, NINF, PZ, PZ],
            0xFC00_7C00,
        ),
        pk(
            Pk2h,
            Nan,
            "NaN packs as the half NaN 0x7E00",
            [QNAN, ONE, PZ, PZ],
            0x3C00_7E00,
        ),
        pk(
            Pk2h,
            Subnormal,
            "subnormal operands are signed zeros",
            [SUB, NSUB, PZ, PZ],
            0x8000_0000,
        ),
        pk(
            Pk2h,
            IntSign,
            "negative halves set bit 15 and 31",
            fl([-1.0, -0.5, 0.0, 0.0]),
            0xB800_BC00,
        ),
        pk(
            Pk2h,
            IntOverflow,
            "65520 ties up to inf; -1e6 overflows",
            fl([65520.0, -1e6, 0.0, 0.0]),
            0xFC00_7C00,
        ),
    ]
}

/// PK2US: two unsigned 16-bit normalised values (clamped to [0, 1]).
fn pk2us() -> Vec<Vector> {
    vec![
        pk(
            Pk2us,
            Ordinary,
            "(0, 1)",
            fl([0.0, 1.0, 9.0, 9.0]),
            0xFFFF_0000,
        ),
        pk(
            Pk2us,
            Rounding,
            "65535/3 and 655.35 round to nearest",
            fl([1.0 / 3.0, 0.01, 0.0, 0.0]),
            0x028F_5555,
        ),
        pk(
            Pk2us,
            Rounding,
            "32767.5 ties to even 32768; 16383.75",
            fl([0.5, 0.25, 0.0, 0.0]),
            0x4000_8000,
        ),
        pk(Pk2us, SignedZero, "(-0, +0)", [NZ, PZ, PZ, PZ], 0),
        pk(
            Pk2us,
            Infinity,
            "clamped",
            [PINF, NINF, PZ, PZ],
            0x0000_FFFF,
        ),
        pk(
            Pk2us,
            Nan,
            "NaN clamps to the lower bound 0",
            [QNAN, ONE, PZ, PZ],
            0xFFFF_0000,
        ),
        pk(
            Pk2us,
            Subnormal,
            "subnormals are zero",
            [SUB, NSUB, PZ, PZ],
            0,
        ),
        pk(
            Pk2us,
            IntSign,
            "negative values clamp to 0",
            fl([-0.5, 0.75, 0.0, 0.0]),
            0xBFFF_0000,
        ),
        pk(
            Pk2us,
            IntOverflow,
            "above 1 clamps to 65535",
            fl([2.0, -1.0, 0.0, 0.0]),
            0x0000_FFFF,
        ),
    ]
}

/// PK4B: four signed 8-bit normalised values (clamped to [-1, 1]).
fn pk4b() -> Vec<Vector> {
    vec![
        pk(
            Pk4b,
            Ordinary,
            "(1, -1, 0, 0.25)",
            fl([1.0, -1.0, 0.0, 0.25]),
            0xA0_80_01_FF,
        ),
        pk(
            Pk4b,
            Rounding,
            "38.1, -38.1, 12.7, -12.7",
            fl([0.3, -0.3, 0.1, -0.1]),
            0x73_8D_5A_A6,
        ),
        pk(
            Pk4b,
            Rounding,
            "63.5 ties to 64, -63.5 to -64",
            fl([0.5, -0.5, 0.0, 0.0]),
            0x80_80_40_C0,
        ),
        pk(
            Pk4b,
            SignedZero,
            "-0 is 128",
            [NZ, PZ, NZ, PZ],
            0x80_80_80_80,
        ),
        pk(
            Pk4b,
            Infinity,
            "clamped to [-128/127, 1]",
            [PINF, NINF, PINF, NINF],
            0x00_FF_00_FF,
        ),
        pk(
            Pk4b,
            Nan,
            "NaN clamps to the lower bound",
            [QNAN, ONE, QNAN, ONE],
            0xFF_00_FF_00,
        ),
        pk(
            Pk4b,
            Subnormal,
            "subnormals are zero",
            [SUB, NSUB, SUB, NSUB],
            0x80_80_80_80,
        ),
        pk(
            Pk4b,
            IntSign,
            "negative values give bytes below 128",
            fl([-0.25, -1.0, -0.5, -0.75]),
            0x21_40_01_60,
        ),
        pk(
            Pk4b,
            IntOverflow,
            "beyond the range clamps",
            fl([2.0, -2.0, 100.0, -100.0]),
            0x00_FF_00_FF,
        ),
    ]
}

/// PK4UB: four unsigned 8-bit normalised values (clamped to [0, 1]).
fn pk4ub() -> Vec<Vector> {
    vec![
        pk(
            Pk4ub,
            Ordinary,
            "(0, 1, 0.2, 0.4)",
            fl([0.0, 1.0, 0.2, 0.4]),
            0x66_33_FF_00,
        ),
        pk(
            Pk4ub,
            Rounding,
            "84.15, 168.3, 2.55, 252.45",
            fl([0.33, 0.66, 0.01, 0.99]),
            0xFC_03_A8_54,
        ),
        pk(
            Pk4ub,
            Rounding,
            "127.5 ties to 128",
            fl([0.5, 0.5, 0.0, 1.0]),
            0xFF_00_80_80,
        ),
        pk(Pk4ub, SignedZero, "-0 is 0", [NZ, PZ, NZ, PZ], 0),
        pk(
            Pk4ub,
            Infinity,
            "clamped",
            [PINF, NINF, PINF, NINF],
            0x00_FF_00_FF,
        ),
        pk(
            Pk4ub,
            Nan,
            "NaN clamps to 0",
            [QNAN, ONE, QNAN, ONE],
            0xFF_00_FF_00,
        ),
        pk(
            Pk4ub,
            Subnormal,
            "subnormals are zero",
            [SUB, NSUB, SUB, NSUB],
            0,
        ),
        pk(
            Pk4ub,
            IntSign,
            "negative values clamp to 0",
            fl([-0.5, 1.0, -1.0, 1.0]),
            0xFF_00_FF_00,
        ),
        pk(
            Pk4ub,
            IntOverflow,
            "above 1 clamps to 255",
            fl([2.0, 0.0, 100.0, 0.0]),
            0x00_FF_00_FF,
        ),
    ]
}

fn packs() -> Vec<Vector> {
    [pk2h(), pk2us(), pk4b(), pk4ub()].concat()
}

fn unpacks() -> Vec<Vector> {
    let up = |op, class, note, x: u32, want: [u32; 4]| {
        Vector::new(op, class, note)
            .src([x, 0xDEAD_BEEF, 0xDEAD_BEEF, 0xDEAD_BEEF])
            .bits(want)
    };
    let q = |a: i32, b: i32| result(f64::from(a) / f64::from(b));
    let us = |v: u32| {
        [
            q((v & 0xFFFF) as i32, 65535),
            q((v >> 16) as i32, 65535),
            q((v & 0xFFFF) as i32, 65535),
            q((v >> 16) as i32, 65535),
        ]
    };
    let b4 = |v: u32| -> [u32; 4] {
        std::array::from_fn(|k| q(((v >> (8 * k)) & 0xFF) as i32 - 128, 127))
    };
    let ub4 =
        |v: u32| -> [u32; 4] { std::array::from_fn(|k| q(((v >> (8 * k)) & 0xFF) as i32, 255)) };
    vec![
        up(
            Up2h,
            Ordinary,
            "0xC000_3C00 -> (1, -2, 1, -2)",
            0xC000_3C00,
            fl([1.0, -2.0, 1.0, -2.0]),
        ),
        up(
            Up2h,
            Rounding,
            "half subnormals are exact binary32 normals",
            0x8001_0001,
            [0x3380_0000, 0xB380_0000, 0x3380_0000, 0xB380_0000],
        ),
        up(
            Up2h,
            IntSign,
            "sign bits: -0 and -1",
            0xBC00_8000,
            [NZ, 0xBF80_0000, NZ, 0xBF80_0000],
        ),
        up(
            Up2h,
            IntOverflow,
            "half infinities",
            0x7C00_FC00,
            [NINF, PINF, NINF, PINF],
        ),
        up(
            Up2h,
            IntOverflow,
            "half NaN gives the canonical NaN",
            0xFFFF_7E01,
            x4(QNAN),
        ),
        up(
            Up2us,
            Ordinary,
            "(0, 1, 0, 1)",
            0xFFFF_0000,
            fl([0.0, 1.0, 0.0, 1.0]),
        ),
        up(
            Up2us,
            Rounding,
            "1/65535 and 21845/65535 correctly rounded",
            0x5555_0001,
            us(0x5555_0001),
        ),
        up(
            Up2us,
            IntSign,
            "the high bit of each half is magnitude",
            0x8000_7FFF,
            us(0x8000_7FFF),
        ),
        up(Up2us, IntOverflow, "all ones", 0xFFFF_FFFF, x4(ONE)),
        up(Up2us, IntOverflow, "zero", 0, x4(PZ)),
        up(
            Up4b,
            Ordinary,
            "bytes 0x01, 0xFF, 0x80, 0x00",
            0x00_80_FF_01,
            b4(0x00_80_FF_01),
        ),
        up(
            Up4b,
            Rounding,
            "n/127 correctly rounded",
            0x40_C0_11_A0,
            b4(0x40_C0_11_A0),
        ),
        up(
            Up4b,
            IntSign,
            "bytes above and below 128",
            0x7F_81_80_7F,
            b4(0x7F_81_80_7F),
        ),
        up(
            Up4b,
            IntOverflow,
            "all ones and all zeros",
            0xFFFF_0000,
            b4(0xFFFF_0000),
        ),
        up(
            Up4ub,
            Ordinary,
            "(0, 1, 0, 1)",
            0xFF00_FF00,
            fl([0.0, 1.0, 0.0, 1.0]),
        ),
        up(
            Up4ub,
            Rounding,
            "n/255 correctly rounded",
            0x01_80_33_55,
            ub4(0x01_80_33_55),
        ),
        up(
            Up4ub,
            IntSign,
            "high bytes are magnitude",
            0x80_80_80_80,
            ub4(0x80_80_80_80),
        ),
        up(Up4ub, IntOverflow, "all ones", 0xFFFF_FFFF, x4(ONE)),
    ]
}

/// The vectors of this family.
pub fn vectors() -> Vec<Vector> {
    let mut v = packs();
    v.extend(unpacks());
    v
}

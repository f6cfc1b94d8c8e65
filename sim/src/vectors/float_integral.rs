//! Integral rounding, sign and absolute value: FLR CEIL ROUND TRUNC FRC SSG ABS.

use super::oracle::{r, result};
use super::{
    fl, x4, Class, Vector, MAXF, MINN, NINF, NSUB, NZ, ONE, PINF, PZ, QNAN, SNAN, SUB, XNAN,
};
use microcode::tgsi::Opcode;
use Class::*;
use Opcode::*;

fn cw1(op: Opcode, class: Class, note: &'static str, a: [u32; 4], want: [u32; 4]) -> Vector {
    Vector::new(op, class, note).src(a).bits(want)
}

/// FLR, CEIL: toward minus and plus infinity; large values are already integral.
fn flr_ceil() -> Vec<Vector> {
    vec![
        cw1(
            Flr,
            Ordinary,
            "floor",
            fl([2.5, -2.5, 3.0, -7.0]),
            fl([2.0, -3.0, 3.0, -7.0]),
        ),
        cw1(
            Flr,
            Rounding,
            "just below integers; large values are integral",
            fl([0.999_999_94, -0.000_001, 8388607.5, 1e10]),
            fl([0.0, -1.0, 8388607.0, 1e10]),
        ),
        cw1(
            Flr,
            SignedZero,
            "floor(-0) = -0, floor(0.5) = +0",
            [NZ, PZ, 0x3F00_0000, 0x3E80_0000],
            [NZ, PZ, PZ, PZ],
        ),
        cw1(
            Flr,
            Infinity,
            "infinities are integral",
            [PINF, NINF, MAXF, 0xFF7F_FFFF],
            [PINF, NINF, MAXF, 0xFF7F_FFFF],
        ),
        cw1(Flr, Nan, "NaN", [QNAN, XNAN, SNAN, QNAN], x4(QNAN)),
        cw1(
            Flr,
            Subnormal,
            "-subnormal is -0, so floor is -0 (not -1)",
            [SUB, NSUB, 0x8000_0001, MINN],
            [PZ, NZ, NZ, PZ],
        ),
        cw1(
            Ceil,
            Ordinary,
            "ceil",
            fl([2.5, -2.5, 3.0, -7.0]),
            fl([3.0, -2.0, 3.0, -7.0]),
        ),
        cw1(
            Ceil,
            Rounding,
            "just above integers",
            fl([1.000_000_1, 0.000_001, -8388607.5, 1e10]),
            fl([2.0, 1.0, -8388607.0, 1e10]),
        ),
        cw1(
            Ceil,
            SignedZero,
            "ceil(-0.5) = -0 keeps the sign",
            [NZ, PZ, 0xBF00_0000, 0xBE80_0000],
            [NZ, PZ, NZ, NZ],
        ),
        cw1(
            Ceil,
            Infinity,
            "infinities",
            [PINF, NINF, MAXF, 0xFF7F_FFFF],
            [PINF, NINF, MAXF, 0xFF7F_FFFF],
        ),
        cw1(Ceil, Nan, "NaN", [QNAN, XNAN, SNAN, QNAN], x4(QNAN)),
        cw1(
            Ceil,
            Subnormal,
            "+subnormal is +0, so ceil is +0 (not 1)",
            [SUB, NSUB, 0x0000_0100, MINN],
            [PZ, NZ, PZ, ONE],
        ),
    ]
}

/// ROUND (to nearest even), TRUNC (toward zero).
fn round_trunc() -> Vec<Vector> {
    vec![
        cw1(
            Round,
            Ordinary,
            "round to nearest",
            fl([2.4, -2.6, 3.0, 7.7]),
            fl([2.0, -3.0, 3.0, 8.0]),
        ),
        cw1(
            Round,
            Rounding,
            "halves go to even",
            fl([0.5, 1.5, 2.5, -2.5]),
            fl([0.0, 2.0, 2.0, -2.0]),
        ),
        cw1(
            Round,
            Rounding,
            "halves go to even (negative, large)",
            fl([-1.5, -3.5, 8388607.5, 4.5]),
            fl([-2.0, -4.0, 8388608.0, 4.0]),
        ),
        cw1(
            Round,
            SignedZero,
            "round(-0.4) = -0, round(-0.5) = -0",
            [NZ, PZ, 0xBECC_CCCD, 0xBF00_0000],
            [NZ, PZ, NZ, NZ],
        ),
        cw1(
            Round,
            Infinity,
            "infinities",
            [PINF, NINF, MAXF, 0xFF7F_FFFF],
            [PINF, NINF, MAXF, 0xFF7F_FFFF],
        ),
        cw1(Round, Nan, "NaN", [QNAN, XNAN, SNAN, QNAN], x4(QNAN)),
        cw1(
            Round,
            Subnormal,
            "subnormals are signed zeros",
            [SUB, NSUB, 0x0040_0000, 0x8040_0000],
            [PZ, NZ, PZ, NZ],
        ),
        cw1(
            Trunc,
            Ordinary,
            "toward zero",
            fl([2.7, -2.7, 3.0, -7.0]),
            fl([2.0, -2.0, 3.0, -7.0]),
        ),
        cw1(
            Trunc,
            Rounding,
            "large values stay (not converted through int32)",
            fl([3e9, -3e9, 1e20, 0.999_999_94]),
            fl([3e9, -3e9, 1e20, 0.0]),
        ),
        cw1(
            Trunc,
            SignedZero,
            "trunc(-0.7) = -0",
            [NZ, PZ, 0xBF33_3333, 0x3F33_3333],
            [NZ, PZ, NZ, PZ],
        ),
        cw1(
            Trunc,
            Infinity,
            "infinities",
            [PINF, NINF, MAXF, 0xFF7F_FFFF],
            [PINF, NINF, MAXF, 0xFF7F_FFFF],
        ),
        cw1(Trunc, Nan, "NaN", [QNAN, XNAN, SNAN, QNAN], x4(QNAN)),
        cw1(
            Trunc,
            Subnormal,
            "subnormals are signed zeros",
            [SUB, NSUB, 0x0040_0000, 0x8040_0000],
            [PZ, NZ, PZ, NZ],
        ),
    ]
}

/// FRC: x - floor(x), one rounding (so a tiny negative x gives 1.0).
fn frc() -> Vec<Vector> {
    vec![
        cw1(
            Frc,
            Ordinary,
            "x - floor(x)",
            fl([2.5, -2.25, 3.0, -7.0]),
            fl([0.5, 0.75, 0.0, 0.0]),
        ),
        cw1(
            Frc,
            Rounding,
            "-1e-10 - (-1) rounds to 1.0",
            fl([-1e-10, 0.1, 1e10, -0.1]),
            [
                ONE,
                result(f64::from(0.1f32)),
                PZ,
                result(r(f64::from(-0.1f32) + 1.0)),
            ],
        ),
        cw1(
            Frc,
            SignedZero,
            "-0 - floor(-0) = +0; -3 - -3 = +0",
            [NZ, PZ, 0xC040_0000, 0x4040_0000],
            [PZ, PZ, PZ, PZ],
        ),
        cw1(
            Frc,
            Infinity,
            "inf - inf = NaN",
            [PINF, NINF, MAXF, 0xFF7F_FFFF],
            [QNAN, QNAN, PZ, PZ],
        ),
        cw1(Frc, Nan, "NaN", [QNAN, XNAN, SNAN, QNAN], x4(QNAN)),
        cw1(
            Frc,
            Subnormal,
            "-subnormal is -0, so FRC is +0 (not 1)",
            [SUB, NSUB, 0x8000_0001, MINN],
            [PZ, PZ, PZ, MINN],
        ),
    ]
}

fn integral() -> Vec<Vector> {
    [flr_ceil(), round_trunc(), frc()].concat()
}

fn sign_abs() -> Vec<Vector> {
    vec![
        cw1(
            Ssg,
            Ordinary,
            "signs",
            fl([2.5, -0.1, 0.0, -7.0]),
            fl([1.0, -1.0, 0.0, -1.0]),
        ),
        cw1(
            Ssg,
            Rounding,
            "tiny normal magnitudes still have a sign",
            [MINN, 0x8080_0000, 0x3380_0000, 0xB380_0000],
            fl([1.0, -1.0, 1.0, -1.0]),
        ),
        cw1(Ssg, SignedZero, "SSG(-0) = +0", [NZ, PZ, NZ, PZ], x4(PZ)),
        cw1(
            Ssg,
            Infinity,
            "infinities",
            [PINF, NINF, MAXF, 0xFF7F_FFFF],
            fl([1.0, -1.0, 1.0, -1.0]),
        ),
        cw1(
            Ssg,
            Nan,
            "NaN is neither > 0 nor < 0",
            [QNAN, XNAN, SNAN, QNAN],
            x4(PZ),
        ),
        cw1(
            Ssg,
            Subnormal,
            "subnormals are zero",
            [SUB, NSUB, 0x0040_0000, 0x8040_0000],
            x4(PZ),
        ),
        cw1(
            Abs,
            Ordinary,
            "clears the sign",
            fl([2.5, -0.1, 3.0, -7.0]),
            fl([2.5, 0.1, 3.0, 7.0]),
        ),
        cw1(
            Abs,
            Rounding,
            "inexact-looking values keep their bits",
            fl([-0.1, 1e-30, -1.000_000_1, 0.3]),
            fl([0.1, 1e-30, 1.000_000_1, 0.3]),
        ),
        cw1(Abs, SignedZero, "abs(-0) = +0", [NZ, PZ, NZ, PZ], x4(PZ)),
        cw1(
            Abs,
            Infinity,
            "infinities",
            [PINF, NINF, MAXF, 0xFF7F_FFFF],
            [PINF, PINF, MAXF, MAXF],
        ),
        cw1(
            Abs,
            Nan,
            "a move: NaN bits kept, sign cleared",
            [QNAN, XNAN, SNAN, 0xFF80_0001],
            [QNAN, 0x7FC0_0001, SNAN, SNAN],
        ),
        cw1(
            Abs,
            Subnormal,
            "a move: subnormals kept",
            [SUB, NSUB, 0x0040_0000, 0x8040_0000],
            [SUB, 0x007F_FFFF, 0x0040_0000, 0x0040_0000],
        ),
    ]
}

/// The vectors of this family.
pub fn vectors() -> Vec<Vector> {
    let mut v = integral();
    v.extend(sign_abs());
    v
}

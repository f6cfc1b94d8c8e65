//! Fragment-only opcodes: the derivatives DDX DDY (per-lane sources) and the kills KIL KILP.

use super::oracle::result;
use super::{
    fl, x4, Check, Class, Shape, Vector, MAXF, MINN, NINF, NSUB, NZ, ONE, PINF, PZ, QNAN, SNAN,
    SUB, XNAN,
};
use microcode::tgsi::Opcode;
use Class::*;
use Opcode::*;

fn derivatives() -> Vec<Vector> {
    // Lanes: 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right (decisions.md section 4).
    let d = |op, class, note, lanes: [u32; 4], want: [u32; 4]| {
        Vector::new(op, class, note)
            .shape(Shape::Fragment)
            .src_lanes(lanes.map(x4))
            .expect_lanes(want.map(|w| x4(w).map(Check::Bits)))
    };
    let f32s = |v: [f32; 4]| fl(v);
    let big = result(1e8 - 1.0);
    let small = result(f64::from(0.3f32) - f64::from(0.1f32));
    vec![
        d(
            Ddx,
            Ordinary,
            "fine: rows differ",
            f32s([1.0, 3.0, 10.0, 15.0]),
            f32s([2.0, 2.0, 5.0, 5.0]),
        ),
        d(
            Ddy,
            Ordinary,
            "fine: columns differ",
            f32s([1.0, 3.0, 10.0, 15.0]),
            f32s([9.0, 12.0, 9.0, 12.0]),
        ),
        d(
            Ddx,
            Rounding,
            "1e8 - 1 rounds",
            f32s([1.0, 1e8, 0.1, 0.3]),
            [big, big, small, small],
        ),
        d(
            Ddy,
            Rounding,
            "1e8 - 1 rounds",
            f32s([1.0, 0.1, 1e8, 0.3]),
            [big, small, big, small],
        ),
        d(
            Ddx,
            SignedZero,
            "-0 - +0 = -0; +0 - +0 = +0",
            [PZ, NZ, PZ, PZ],
            [NZ, NZ, PZ, PZ],
        ),
        d(
            Ddy,
            SignedZero,
            "-0 - +0 = -0; +0 - -0 = +0",
            [PZ, NZ, NZ, PZ],
            [NZ, PZ, NZ, PZ],
        ),
        d(
            Ddx,
            Infinity,
            "inf - inf; MAX - -MAX",
            [PINF, PINF, 0xFF7F_FFFF, MAXF],
            [QNAN, QNAN, PINF, PINF],
        ),
        d(
            Ddy,
            Infinity,
            "inf - inf; MAX - -MAX",
            [PINF, 0xFF7F_FFFF, PINF, MAXF],
            [QNAN, PINF, QNAN, PINF],
        ),
        d(
            Ddx,
            Nan,
            "NaN in one lane of each row",
            [ONE, QNAN, XNAN, ONE],
            x4(QNAN),
        ),
        d(
            Ddy,
            Nan,
            "NaN in one lane of each column",
            [ONE, QNAN, XNAN, ONE],
            x4(QNAN),
        ),
        d(
            Ddx,
            Subnormal,
            "1.5*2^-126 - 2^-126 is subnormal and flushes",
            [MINN, 0x00C0_0000, 0x00C0_0000, MINN],
            [PZ, PZ, NZ, NZ],
        ),
        d(
            Ddy,
            Subnormal,
            "subnormal lanes are zero",
            [SUB, NSUB, ONE, ONE],
            [ONE, ONE, ONE, ONE],
        ),
    ]
}

fn kills() -> Vec<Vector> {
    let k = |op, class, note| Vector::new(op, class, note).shape(Shape::Kill);
    vec![
        k(Kil, Ordinary, "any component < 0 kills")
            .src_lanes([
                fl([1.0, 1.0, 1.0, -1.0]),
                fl([0.0, 2.0, 3.0, 4.0]),
                fl([-0.5, 0.0, 0.0, 0.0]),
                x4(ONE),
            ])
            .killed([true, false, true, false]),
        k(Kil, SignedZero, "-0 is not < 0")
            .src_lanes([x4(NZ), [NZ, PZ, NZ, PZ], x4(PZ), [PZ, PZ, PZ, 0xBF80_0000]])
            .killed([false, false, false, true]),
        k(Kil, Infinity, "-inf kills, inf does not")
            .src_lanes([x4(PINF), [NINF, ONE, ONE, ONE], x4(ONE), x4(PINF)])
            .killed([false, true, false, false]),
        k(Kil, Nan, "NaN does not kill")
            .src_lanes([
                x4(QNAN),
                x4(XNAN),
                [XNAN, 0xBF80_0000, QNAN, QNAN],
                x4(SNAN),
            ])
            .killed([false, false, true, false]),
        k(Kil, Subnormal, "-subnormal is -0 and does not kill")
            .src_lanes([
                x4(NSUB),
                x4(0x8000_0001),
                x4(SUB),
                [NSUB, NSUB, NSUB, 0x8080_0000],
            ])
            .killed([false, false, false, true]),
        k(Kilp, Ordinary, "kills every active lane").killed([true; 4]),
    ]
}

/// The vectors of this family.
pub fn vectors() -> Vec<Vector> {
    let mut v = derivatives();
    v.extend(kills());
    v
}

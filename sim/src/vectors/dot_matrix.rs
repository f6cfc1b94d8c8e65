//! Dot products and vector formulas: DP2 DP3 DP4 DPH DP2A, XPD, X2D, RFL and the matrix opcodes
//! (MULTIPLYMATRIX M4X3 M3X4 M3X3 M3X2).

use super::oracle::{operand as o, r, result};
use super::{fl, x4, Class, Vector, MAXF, NINF, NSUB, NZ, ONE, PINF, PZ, QNAN, SUB, XNAN};
use microcode::tgsi::Opcode;
use Class::*;
use Opcode::*;

/// Dot product of the first `n` components, one rounding (and flush) per operation, left to right.
fn dot(a: [u32; 4], b: [u32; 4], n: usize) -> f64 {
    let mut acc = r(o(a[0]) * o(b[0]));
    for i in 1..n {
        acc = r(acc + r(o(a[i]) * o(b[i])));
    }
    acc
}

/// The dot products' operands: small integers (`a`, `b`) and values that round (`ra`, `rb`).
fn dot_operands() -> [[u32; 4]; 4] {
    [
        fl([1.0, 2.0, 3.0, 4.0]),
        fl([0.5, -1.0, 2.0, 0.25]),
        fl([0.1, 0.2, 0.3, 0.4]),
        fl([0.7, 1e8, -1e8, 3.3]),
    ]
}

/// DP2, DP3, DP4: one rounding per operation, left to right; the components not read.
fn dp2_dp3_dp4() -> Vec<Vector> {
    let [a, b, ra, rb] = dot_operands();
    let mut v = Vec::new();
    for (op, n) in [(Dp2, 2), (Dp3, 3), (Dp4, 4)] {
        v.push(
            Vector::new(op, Ordinary, "small integers")
                .src(a)
                .src(b)
                .bits(x4(result(dot(a, b, n)))),
        );
        v.push(
            Vector::new(op, Rounding, "left to right, one rounding per operation")
                .src(ra)
                .src(rb)
                .bits(x4(result(dot(ra, rb, n)))),
        );
        v.push(
            Vector::new(op, SignedZero, "all products -0 sum to -0")
                .src([NZ, PZ, NZ, PZ])
                .src([ONE, NZ, ONE, NZ])
                .bits(x4(NZ)),
        );
        v.push(
            Vector::new(op, SignedZero, "-0 + +0 = +0")
                .src([NZ, PZ, PZ, PZ])
                .src([ONE, ONE, ONE, ONE])
                .bits(x4(PZ)),
        );
        v.push(
            Vector::new(op, Infinity, "a product overflows")
                .src([MAXF, ONE, ONE, ONE])
                .src(fl([2.0, 1.0, 1.0, 1.0]))
                .bits(x4(PINF)),
        );
        v.push(
            Vector::new(op, Infinity, "inf - inf")
                .src([PINF, PINF, PZ, PZ])
                .src(fl([1.0, -1.0, 0.0, 0.0]))
                .bits(x4(QNAN)),
        );
        v.push(
            Vector::new(op, Nan, "NaN in the last used component")
                .src(x4(ONE))
                .src([ONE, XNAN, XNAN, XNAN])
                .bits(x4(QNAN)),
        );
        v.push(
            Vector::new(op, Subnormal, "products of 2^-70 flush to zero")
                .src(x4(0x1C80_0000))
                .src(x4(0x1C80_0000))
                .bits(x4(PZ)),
        );
        v.push(
            Vector::new(op, Subnormal, "subnormal operands are zero")
                .src([SUB, NSUB, SUB, SUB])
                .src(x4(0x7F00_0000))
                .bits(x4(PZ)),
        );
    }
    // DP2 ignores z and w; DP3 ignores w.
    v.push(
        Vector::new(Dp2, Ordinary, "z and w ignored")
            .src(fl([1.0, 1.0, f32::NAN, f32::INFINITY]))
            .src(fl([2.0, 3.0, 1.0, 1.0]))
            .bits(x4(0x40A0_0000)),
    );
    v.push(
        Vector::new(Dp3, Ordinary, "w ignored")
            .src(fl([1.0, 1.0, 1.0, f32::NAN]))
            .src(fl([2.0, 3.0, 4.0, 1.0]))
            .bits(x4(0x4110_0000)),
    );
    v
}

/// DPH: DP3 + src1.w.
fn dph() -> Vec<Vector> {
    let [a, b, ra, rb] = dot_operands();
    let mut v = Vec::new();
    let want = |a: [u32; 4], b: [u32; 4]| result(r(dot(a, b, 3) + o(b[3])));
    v.push(
        Vector::new(Dph, Ordinary, "DP3 + src1.w")
            .src(a)
            .src(b)
            .bits(x4(want(a, b))),
    );
    v.push(
        Vector::new(Dph, Rounding, "DP3 + src1.w rounded")
            .src(ra)
            .src(rb)
            .bits(x4(want(ra, rb))),
    );
    v.push(
        Vector::new(Dph, SignedZero, "-0 products + -0 w = -0")
            .src([NZ, NZ, NZ, ONE])
            .src([ONE, ONE, ONE, NZ])
            .bits(x4(NZ)),
    );
    v.push(
        Vector::new(Dph, Infinity, "src1.w = inf")
            .src(x4(ONE))
            .src([ONE, ONE, ONE, PINF])
            .bits(x4(PINF)),
    );
    v.push(
        Vector::new(Dph, Nan, "src0.w NaN is not read; src1.w NaN is")
            .src([ONE, ONE, ONE, QNAN])
            .src([ONE, ONE, ONE, XNAN])
            .bits(x4(QNAN)),
    );
    v.push(
        Vector::new(Dph, Subnormal, "src1.w subnormal is zero")
            .src([PZ, PZ, PZ, ONE])
            .src([ONE, ONE, ONE, SUB])
            .bits(x4(PZ)),
    );
    v
}

/// DP2A: DP2 + src2.x.
fn dp2a() -> Vec<Vector> {
    let [a, b, ra, rb] = dot_operands();
    let mut v = Vec::new();
    let want = |a: [u32; 4], b: [u32; 4], c: [u32; 4]| result(r(dot(a, b, 2) + o(c[0])));
    let c = fl([0.3, 9.0, 9.0, 9.0]);
    v.push(
        Vector::new(Dp2a, Ordinary, "DP2 + src2.x")
            .src(a)
            .src(b)
            .src(fl([10.0, 0.0, 0.0, 0.0]))
            .bits(x4(want(a, b, fl([10.0, 0.0, 0.0, 0.0])))),
    );
    v.push(
        Vector::new(Dp2a, Rounding, "DP2 + src2.x rounded")
            .src(ra)
            .src(rb)
            .src(c)
            .bits(x4(want(ra, rb, c))),
    );
    v.push(
        Vector::new(Dp2a, SignedZero, "-0 + -0 + -0")
            .src(x4(NZ))
            .src(x4(ONE))
            .src(x4(NZ))
            .bits(x4(NZ)),
    );
    v.push(
        Vector::new(Dp2a, Infinity, "inf + -inf addend")
            .src(x4(PINF))
            .src(x4(ONE))
            .src(x4(NINF))
            .bits(x4(QNAN)),
    );
    v.push(
        Vector::new(Dp2a, Nan, "NaN addend")
            .src(x4(ONE))
            .src(x4(ONE))
            .src(x4(XNAN))
            .bits(x4(QNAN)),
    );
    v.push(
        Vector::new(Dp2a, Subnormal, "subnormal addend is zero")
            .src(x4(PZ))
            .src(x4(ONE))
            .src(x4(NSUB))
            .bits(x4(PZ)),
    );
    v
}

fn dots() -> Vec<Vector> {
    [dp2_dp3_dp4(), dph(), dp2a()].concat()
}

fn xpd_x2d_rfl() -> Vec<Vector> {
    let xpd = |a: [u32; 4], b: [u32; 4]| -> [u32; 4] {
        let t = |i: usize, j: usize| result(r(o(a[i]) * o(b[j])) - r(o(a[j]) * o(b[i])));
        [t(1, 2), t(2, 0), t(0, 1), ONE]
    };
    let x2d = |s0: [u32; 4], s1: [u32; 4], s2: [u32; 4]| -> [u32; 4] {
        let x = result(r(o(s0[0]) + r(o(s1[0]) * o(s2[0]))) + r(o(s1[1]) * o(s2[1])));
        let y = result(r(o(s0[1]) + r(o(s1[0]) * o(s2[2]))) + r(o(s1[1]) * o(s2[3])));
        [x, y, x, y]
    };
    let rfl = |s0: [u32; 4], s1: [u32; 4]| -> [u32; 4] {
        let (d1, d2) = (dot(s0, s1, 3), dot(s0, s0, 3));
        let k = r(r(2.0 * d1) / d2);
        let c = |i: usize| result(r(k * o(s0[i])) - o(s1[i]));
        [c(0), c(1), c(2), ONE]
    };
    let (a, b) = (fl([1.0, 2.0, 3.0, 7.0]), fl([4.0, 5.0, 6.0, 9.0]));
    let (ra, rb) = (fl([0.1, 0.2, 0.3, 0.0]), fl([0.7, 1e8, -3.3, 0.0]));
    let (s2, rs2) = (fl([1.0, 2.0, 3.0, 4.0]), fl([0.3, 0.7, 1e-3, 3.0]));
    vec![
        Vector::new(Xpd, Ordinary, "cross product, w = 1")
            .src(a)
            .src(b)
            .bits(xpd(a, b)),
        Vector::new(Xpd, Rounding, "each component rounds twice")
            .src(ra)
            .src(rb)
            .bits(xpd(ra, rb)),
        Vector::new(
            Xpd,
            SignedZero,
            "x: -0*0 - 0*0 = -0; y: 0*0 - -0*0 = +0; z: -0 - -0 = +0",
        )
        .src([NZ, NZ, PZ, PZ])
        .src([PZ, PZ, PZ, PZ])
        .bits([NZ, PZ, PZ, ONE]),
        Vector::new(Xpd, Infinity, "inf*1 - inf*1 = NaN; overflow")
            .src([PINF, PINF, MAXF, PZ])
            .src([ONE, ONE, 0x4000_0000, PZ])
            .bits(xpd([PINF, PINF, MAXF, PZ], [ONE, ONE, 0x4000_0000, PZ])),
        Vector::new(Xpd, Nan, "NaN in x reaches y and z")
            .src([QNAN, ONE, ONE, ONE])
            .src(x4(ONE))
            .bits([PZ, QNAN, QNAN, ONE]),
        Vector::new(Xpd, Subnormal, "2^-70 * 2^-70 flushes")
            .src(x4(0x1C80_0000))
            .src([0x1C80_0000, 0x1C80_0000, 0x1C80_0000, PZ])
            .bits([PZ, PZ, PZ, ONE]),
        Vector::new(X2d, Ordinary, "2-D transform")
            .src(a)
            .src(b)
            .src(s2)
            .bits(x2d(a, b, s2)),
        Vector::new(X2d, Rounding, "src0 added first, then the second product")
            .src(ra)
            .src(rb)
            .src(rs2)
            .bits(x2d(ra, rb, rs2)),
        Vector::new(
            X2d,
            Rounding,
            "(1 + 1e8) - 1e8 = 0: src0 is added first (Mesa: last, giving 1)",
        )
        .src(x4(ONE))
        .src(fl([1.0, -1.0, 0.0, 0.0]))
        .src(x4(0x4CBE_BC20))
        .bits(x4(PZ)),
        Vector::new(X2d, SignedZero, "-0 + -0*1 + -0*1 = -0")
            .src(x4(NZ))
            .src([NZ, NZ, PZ, PZ])
            .src(x4(ONE))
            .bits(x4(NZ)),
        Vector::new(X2d, Infinity, "inf + -inf product")
            .src([PINF, PINF, PZ, PZ])
            .src([0xBF80_0000, PZ, PZ, PZ])
            .src([PINF, PZ, ONE, PZ])
            .bits([QNAN, PINF, QNAN, PINF]),
        Vector::new(X2d, Nan, "NaN in src2.w reaches y and w")
            .src(x4(ONE))
            .src(x4(ONE))
            .src([ONE, ONE, ONE, XNAN])
            .bits([0x4040_0000, QNAN, 0x4040_0000, QNAN]),
        Vector::new(X2d, Subnormal, "subnormal src0 is zero")
            .src([SUB, NSUB, PZ, PZ])
            .src(x4(PZ))
            .src(x4(ONE))
            .bits([PZ, PZ, PZ, PZ]),
        Vector::new(Rfl, Ordinary, "reflect (2,3,4) about (0,0,1)")
            .src(fl([0.0, 0.0, 1.0, 0.0]))
            .src(fl([2.0, 3.0, 4.0, 0.0]))
            .bits(rfl(fl([0.0, 0.0, 1.0, 0.0]), fl([2.0, 3.0, 4.0, 0.0]))),
        Vector::new(Rfl, Rounding, "((2*d1)/d2)*s0 - s1 with four roundings")
            .src(ra)
            .src(rb)
            .bits(rfl(ra, rb)),
        Vector::new(
            Rfl,
            SignedZero,
            "s0 = (1,0,0), s1 = (0,-0,0): y = 0*0 - -0 = +0, z = +0 - +0",
        )
        .src(fl([1.0, 0.0, 0.0, 0.0]))
        .src([PZ, NZ, PZ, PZ])
        .bits([PZ, PZ, PZ, ONE]),
        Vector::new(Rfl, Infinity, "2*MAX overflows: x = inf*1 - MAX, y = inf*0")
            .src(fl([1.0, 0.0, 0.0, 0.0]))
            .src([MAXF, PZ, PZ, PZ])
            .bits([PINF, QNAN, QNAN, ONE]),
        Vector::new(Rfl, Nan, "s0 = 0: 0/0")
            .src(x4(PZ))
            .src(x4(ONE))
            .bits([QNAN, QNAN, QNAN, ONE]),
        Vector::new(Rfl, Nan, "NaN in s1.x")
            .src(fl([1.0, 0.0, 0.0, 0.0]))
            .src([QNAN, ONE, ONE, ONE])
            .bits([QNAN, QNAN, QNAN, ONE]),
        Vector::new(Rfl, Subnormal, "subnormal s1 components are zero")
            .src(fl([1.0, 0.0, 0.0, 0.0]))
            .src([PZ, SUB, NSUB, PZ])
            .bits([PZ, PZ, PZ, ONE]),
    ]
}

fn matrices() -> Vec<Vector> {
    // src0 and rows src1, src1+1, ...; components beyond the rows stay 0 (the temporary's reset value).
    let rows = [
        fl([1.0, 0.0, 0.0, 0.0]),
        fl([0.5, 0.5, 0.5, 0.5]),
        fl([0.1, 0.2, 0.3, 0.4]),
        fl([-1.0, 1.0, -1.0, 1.0]),
    ];
    let cases: [(Class, &'static str, [u32; 4]); 6] = [
        (
            Ordinary,
            "rows in consecutive registers",
            fl([1.0, 2.0, 3.0, 4.0]),
        ),
        (
            Rounding,
            "each row a left-to-right dot product",
            fl([0.1, 1e8, -1e8, 0.3]),
        ),
        (
            SignedZero,
            "-0 products: row 3 sums to -0",
            [NZ, PZ, NZ, PZ],
        ),
        (
            Infinity,
            "inf times a 0 weight is NaN, else inf",
            [ONE, PINF, ONE, ONE],
        ),
        (Nan, "NaN in src0.y", [ONE, QNAN, ONE, ONE]),
        (
            Subnormal,
            "subnormal src0 is zero with its sign",
            [SUB, NSUB, SUB, NSUB],
        ),
    ];
    let mut out = Vec::new();
    for (op, n, k) in [
        (MultiplyMatrix, 4, 4),
        (M4x3, 3, 4),
        (M3x4, 4, 3),
        (M3x3, 3, 3),
        (M3x2, 2, 3),
    ] {
        for (class, note, v0) in cases {
            let want: [u32; 4] = std::array::from_fn(|i| {
                if i < n {
                    result(dot(v0, rows[i], k))
                } else {
                    PZ
                }
            });
            let mut v = Vector::new(op, class, note).src(v0);
            for row in rows.iter().take(n) {
                v = v.src(*row);
            }
            out.push(v.bits(want));
        }
    }
    out
}

/// The vectors of this family.
pub fn vectors() -> Vec<Vector> {
    let mut v = dots();
    v.extend(xpd_x2d_rfl());
    v.extend(matrices());
    v
}

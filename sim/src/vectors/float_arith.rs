//! Float arithmetic: ADD SUB MUL DIV MAD LRP RCP, dot products, XPD, X2D, RFL and the matrix opcodes.

use super::oracle::{op2, operand as o, r, result};
use super::{
    fl, x4, Class, Vector, MAXF, MINN, NINF, NSUB, NZ, ONE, PINF, PZ, QNAN, SNAN, SUB, XNAN,
};
use microcode::tgsi::{Opcode, Saturate};
use Class::*;
use Opcode::*;

/// Component-wise two-operand vector; the expectation is the oracle per component.
fn cw2(
    op: Opcode,
    class: Class,
    note: &'static str,
    a: [u32; 4],
    b: [u32; 4],
    g: fn(f64, f64) -> f64,
) -> Vector {
    let e: [u32; 4] = std::array::from_fn(|i| op2(a[i], b[i], g));
    Vector::new(op, class, note).src(a).src(b).bits(e)
}

/// Dot product of the first `n` components, one rounding (and flush) per operation, left to right.
fn dot(a: [u32; 4], b: [u32; 4], n: usize) -> f64 {
    let mut acc = r(o(a[0]) * o(b[0]));
    for i in 1..n {
        acc = r(acc + r(o(a[i]) * o(b[i])));
    }
    acc
}

fn add_sub_mul_div() -> Vec<Vector> {
    let a = fl([1.5, -2.25, 1e10, 0.1]);
    let b = fl([2.0, 0.75, 3.0, 0.2]);
    vec![
        cw2(Add, Ordinary, "plain sums", a, b, |x, y| x + y),
        cw2(
            Add,
            Rounding,
            "1 + 2^-24 ties to even; 1e8 + 1 rounds",
            fl([1.0, 1e8, 0.1, 16777216.0]),
            fl([5.960_464_5e-8, 1.0, 0.7, 3.0]),
            |x, y| x + y,
        ),
        Vector::new(Add, SignedZero, "+0 + -0 = +0, -0 + -0 = -0, x + -x = +0")
            .src([PZ, NZ, NZ, ONE])
            .src([NZ, NZ, PZ, 0xBF80_0000])
            .bits([PZ, NZ, PZ, PZ]),
        Vector::new(
            Add,
            Infinity,
            "inf + 1, inf + -inf, -inf + -inf, MAX + MAX overflows",
        )
        .src([PINF, PINF, NINF, MAXF])
        .src([ONE, NINF, NINF, MAXF])
        .bits([PINF, QNAN, NINF, PINF]),
        Vector::new(Add, Nan, "NaN operands give the canonical NaN")
            .src([QNAN, XNAN, SNAN, ONE])
            .src([ONE, PZ, ONE, XNAN])
            .bits(x4(QNAN)),
        Vector::new(
            Add,
            Subnormal,
            "subnormal operands count as zero; a subnormal sum flushes with its sign",
        )
        .src([SUB, NSUB, ONE, MINN])
        .src([PZ, PZ, SUB, 0x8080_0001])
        .bits([PZ, PZ, ONE, NZ]),
        Vector::new(Add, Ordinary, "source modifiers: -|x| + y")
            .src(fl([-3.0, 3.0, -0.0, 2.0]))
            .abs()
            .negate()
            .src(fl([1.0, 1.0, 0.0, 2.0]))
            .bits(fl([-2.0, -2.0, 0.0, 0.0])),
        Vector::new(
            Add,
            Ordinary,
            "_SAT clamps; NaN, -0 and subnormal saturate to +0",
        )
        .sat(Saturate::ZeroOne)
        .src([ONE, QNAN, NZ, SUB])
        .src(fl([0.5, 0.0, -0.0, 0.0]))
        .bits([ONE, PZ, PZ, PZ]),
        Vector::new(Add, Ordinary, "_SATNV clamps to [-1, 1]")
            .sat(Saturate::MinusPlusOne)
            .src(fl([3.0, -3.0, 0.25, -0.0]))
            .src(fl([0.0, 0.0, 0.0, -0.0]))
            .bits(fl([1.0, -1.0, 0.25, 0.0])),
        cw2(Sub, Ordinary, "plain differences", a, b, |x, y| x - y),
        cw2(
            Sub,
            Rounding,
            "cancellation and inexact differences",
            fl([1.0, 1e8, 0.3, 3.0]),
            fl([5.960_464_5e-8, -1.0, 0.1, 1e-8]),
            |x, y| x - y,
        ),
        Vector::new(
            Sub,
            SignedZero,
            "-0 - +0 = -0, +0 - +0 = +0, x - x = +0, +0 - -0 = +0",
        )
        .src([NZ, PZ, ONE, PZ])
        .src([PZ, PZ, ONE, NZ])
        .bits([NZ, PZ, PZ, PZ]),
        Vector::new(Sub, Infinity, "inf - inf, inf - -inf, 1 - inf, -MAX - MAX")
            .src([PINF, PINF, ONE, 0xFF7F_FFFF])
            .src([PINF, NINF, PINF, MAXF])
            .bits([QNAN, PINF, NINF, NINF]),
        Vector::new(Sub, Nan, "NaN operands")
            .src([QNAN, ONE, XNAN, SNAN])
            .src([ONE, XNAN, XNAN, PZ])
            .bits(x4(QNAN)),
        Vector::new(
            Sub,
            Subnormal,
            "2^-126 - (2^-126 + ulp) flushes to -0; subnormal operands are zero",
        )
        .src([MINN, SUB, NSUB, ONE])
        .src([0x0080_0001, PZ, NZ, SUB])
        .bits([NZ, PZ, PZ, ONE]),
        cw2(Mul, Ordinary, "plain products", a, b, |x, y| x * y),
        cw2(
            Mul,
            Rounding,
            "inexact products",
            fl([0.1, 3.0, 1.000_000_1, 1e-20]),
            fl([0.1, 0.333_333_34, 1.000_000_1, 1e-18]),
            |x, y| x * y,
        ),
        Vector::new(
            Mul,
            SignedZero,
            "-0 * 1 = -0, -0 * -0 = +0, 0 * -5 = -0, -0 * +0 = -0",
        )
        .src([NZ, NZ, PZ, NZ])
        .src(fl([1.0, -0.0, -5.0, 0.0]))
        .bits([NZ, PZ, NZ, NZ]),
        Vector::new(
            Mul,
            Infinity,
            "inf * 2, inf * 0, -inf * -inf, MAX * 2 overflows",
        )
        .src([PINF, PINF, NINF, MAXF])
        .src(fl([2.0, 0.0, f32::NEG_INFINITY, 2.0]))
        .bits([PINF, QNAN, PINF, PINF]),
        Vector::new(Mul, Nan, "NaN operands")
            .src([QNAN, XNAN, ONE, SNAN])
            .src([ONE, ONE, XNAN, PZ])
            .bits(x4(QNAN)),
        Vector::new(
            Mul,
            Subnormal,
            "2^-100 * 2^-30 is subnormal and flushes with its sign; subnormal * 2^100 is 0",
        )
        .src([0x0D80_0000, 0x8D80_0000, ONE, ONE])
        .src([0x3080_0000, 0x3080_0000, SUB, NSUB])
        .bits([PZ, NZ, PZ, NZ]),
        cw2(
            Div,
            Ordinary,
            "plain quotients",
            fl([3.0, -1.0, 1e10, 7.0]),
            fl([2.0, 4.0, 1e5, 7.0]),
            |x, y| x / y,
        ),
        cw2(
            Div,
            Rounding,
            "correctly rounded quotients",
            fl([1.0, 2.0, 10.0, 1e-30]),
            fl([3.0, 3.0, 0.3, 7.0]),
            |x, y| x / y,
        ),
        Vector::new(
            Div,
            SignedZero,
            "-0 / 1, 1 / -0 = -inf, 0 / 0 = NaN, 1 / -inf = -0",
        )
        .src([NZ, ONE, PZ, ONE])
        .src([ONE, NZ, PZ, NINF])
        .bits([NZ, NINF, QNAN, NZ]),
        Vector::new(
            Div,
            Infinity,
            "1 / 0 = inf, inf / inf = NaN, -inf / 2, MAX / 0.5 overflows",
        )
        .src([ONE, PINF, NINF, MAXF])
        .src(fl([0.0, f32::INFINITY, 2.0, 0.5]))
        .bits([PINF, QNAN, NINF, PINF]),
        Vector::new(Div, Nan, "NaN operands")
            .src([QNAN, ONE, XNAN, SNAN])
            .src([ONE, QNAN, ONE, ONE])
            .bits(x4(QNAN)),
        Vector::new(
            Div,
            Subnormal,
            "2^-126 / 4 flushes; 1 / subnormal divides by zero; subnormal / 1 is 0",
        )
        .src([MINN, ONE, SUB, 0x8080_0000])
        .src([0x4080_0000, SUB, ONE, 0x4040_0000])
        .bits([PZ, PINF, PZ, NZ]),
    ]
}

fn mad_lrp() -> Vec<Vector> {
    let mad = |a: [u32; 4], b: [u32; 4], c: [u32; 4]| -> [u32; 4] {
        std::array::from_fn(|i| result(r(o(a[i]) * o(b[i])) + o(c[i])))
    };
    let lrp = |a: [u32; 4], b: [u32; 4], c: [u32; 4]| -> [u32; 4] {
        std::array::from_fn(|i| result(r(o(a[i]) * r(o(b[i]) - o(c[i]))) + o(c[i])))
    };
    let (a, b, c) = (
        fl([0.5, 2.0, -3.0, 1.5]),
        fl([4.0, 0.25, 2.0, 1.5]),
        fl([1.0, -1.0, 0.5, 0.0]),
    );
    let (ra, rb, rc) = (
        fl([0.1, 1e8, 1.000_244_1, 3.0]),
        fl([0.3, 1e-8, 1.000_244_1, 0.333_333_34]),
        fl([0.7, 1.0, -1.000_488_3, -1.0]),
    );
    vec![
        Vector::new(Mad, Ordinary, "a*b + c")
            .src(a)
            .src(b)
            .src(c)
            .bits(mad(a, b, c)),
        // (1+2^-12)^2 rounds to 1+2^-11 before the add, so the unfused result is exactly 0.
        Vector::new(Mad, Rounding, "two roundings, never fused")
            .src(ra)
            .src(rb)
            .src(rc)
            .bits(mad(ra, rb, rc)),
        Vector::new(
            Mad,
            Rounding,
            "(1+2^-12)^2 - (1+2^-11) is 0 unfused (2^-24 fused)",
        )
        .src(x4(0x3F80_0800))
        .src(x4(0x3F80_0800))
        .src(x4(0xBF80_1000))
        .bits(x4(PZ)),
        Vector::new(
            Mad,
            SignedZero,
            "-0*1 + -0 = -0, -0*1 + +0 = +0, 0*-1 + 0 = +0, 1*1 + -1 = +0",
        )
        .src([NZ, NZ, PZ, ONE])
        .src(fl([1.0, 1.0, -1.0, 1.0]))
        .src([NZ, PZ, PZ, 0xBF80_0000])
        .bits([NZ, PZ, PZ, PZ]),
        Vector::new(
            Mad,
            Infinity,
            "MAX*2 overflows before the add; inf*1 - inf; 0*inf; 1*1 + inf",
        )
        .src([MAXF, PINF, PZ, ONE])
        .src(fl([2.0, 1.0, f32::INFINITY, 1.0]))
        .src([0xFF7F_FFFF, NINF, ONE, PINF])
        .bits([PINF, QNAN, QNAN, PINF]),
        Vector::new(Mad, Nan, "NaN in each position")
            .src([QNAN, ONE, ONE, SNAN])
            .src([ONE, XNAN, ONE, ONE])
            .src([ONE, ONE, QNAN, ONE])
            .bits(x4(QNAN)),
        Vector::new(
            Mad,
            Subnormal,
            "the product 2^-130 flushes before the add; subnormal addend is zero",
        )
        .src([0x0D80_0000, 0x8D80_0000, ONE, ONE])
        .src([0x3080_0000, 0x3080_0000, ONE, ONE])
        .src([PZ, NZ, SUB, NSUB])
        .bits([PZ, NZ, ONE, ONE]),
        Vector::new(Lrp, Ordinary, "a*(b-c) + c")
            .src(a)
            .src(b)
            .src(c)
            .bits(lrp(a, b, c)),
        Vector::new(Lrp, Rounding, "three roundings")
            .src(ra)
            .src(rb)
            .src(rc)
            .bits(lrp(ra, rb, rc)),
        Vector::new(Lrp, Rounding, "LRP(a, b, b) = b exactly")
            .src(fl([0.3, 0.7, 0.1, 5.0]))
            .src(fl([0.1, 1e-8, 3.3, 7.7]))
            .src(fl([0.1, 1e-8, 3.3, 7.7]))
            .bits(fl([0.1, 1e-8, 3.3, 7.7])),
        Vector::new(
            Lrp,
            SignedZero,
            "-1*(0 - -0) + -0 = -0; 1*(-0 - 0) + 0 = +0",
        )
        .src([PZ, 0xBF80_0000, ONE, NZ])
        .src([ONE, PZ, NZ, ONE])
        .src([ONE, NZ, PZ, ONE])
        .bits([ONE, NZ, PZ, ONE]),
        Vector::new(
            Lrp,
            Infinity,
            "inf weight, inf - inf endpoints, overflow of b - c",
        )
        .src([PINF, ONE, ONE, 0x3F00_0000])
        .src([0x4000_0000, PINF, NINF, MAXF])
        .src([ONE, PINF, ONE, 0xFF7F_FFFF])
        .bits([PINF, QNAN, NINF, PINF]),
        Vector::new(Lrp, Nan, "NaN in each position")
            .src([QNAN, ONE, ONE, XNAN])
            .src([ONE, QNAN, ONE, ONE])
            .src([ONE, ONE, SNAN, ONE])
            .bits(x4(QNAN)),
        Vector::new(
            Lrp,
            Subnormal,
            "subnormal weight is zero; a subnormal product flushes",
        )
        .src([SUB, 0x0C80_0000, NSUB, ONE])
        .src([0x4000_0000, 0x3300_0000, ONE, ONE])
        .src([ONE, PZ, PZ, SUB])
        .bits([ONE, PZ, PZ, ONE]),
    ]
}

fn reciprocal() -> Vec<Vector> {
    let rep =
        |class, note, x: u32, want: u32| Vector::new(Rcp, class, note).src(x4(x)).bits(x4(want));
    vec![
        rep(Ordinary, "1/4", 0x4080_0000, 0x3E80_0000),
        rep(Ordinary, "1/-0.5 replicated", 0xBF00_0000, 0xC000_0000),
        rep(
            Rounding,
            "1/3 correctly rounded",
            0x4040_0000,
            result(1.0 / 3.0),
        ),
        rep(
            Rounding,
            "1/10 correctly rounded",
            0x4120_0000,
            result(1.0 / 10.0),
        ),
        rep(SignedZero, "1/+0 = +inf", PZ, PINF),
        rep(SignedZero, "1/-0 = -inf", NZ, NINF),
        rep(Infinity, "1/inf = +0", PINF, PZ),
        rep(Infinity, "1/-inf = -0", NINF, NZ),
        rep(Nan, "NaN", XNAN, QNAN),
        rep(Subnormal, "1/subnormal = inf (operand is zero)", SUB, PINF),
        rep(Subnormal, "1/MAX is subnormal and flushes", MAXF, PZ),
        rep(Subnormal, "1/-MAX flushes to -0", 0xFF7F_FFFF, NZ),
        Vector::new(Rcp, Ordinary, "reads src.x only")
            .src(fl([2.0, 0.0, f32::NAN, 0.0]))
            .bits(x4(0x3F00_0000)),
    ]
}

fn dots() -> Vec<Vector> {
    let (a, b) = (fl([1.0, 2.0, 3.0, 4.0]), fl([0.5, -1.0, 2.0, 0.25]));
    let (ra, rb) = (fl([0.1, 0.2, 0.3, 0.4]), fl([0.7, 1e8, -1e8, 3.3]));
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
    // DPH: DP3 + src1.w; DP2A: DP2 + src2.x.
    let dph = |a: [u32; 4], b: [u32; 4]| result(r(dot(a, b, 3) + o(b[3])));
    v.push(
        Vector::new(Dph, Ordinary, "DP3 + src1.w")
            .src(a)
            .src(b)
            .bits(x4(dph(a, b))),
    );
    v.push(
        Vector::new(Dph, Rounding, "DP3 + src1.w rounded")
            .src(ra)
            .src(rb)
            .bits(x4(dph(ra, rb))),
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
    let dp2a = |a: [u32; 4], b: [u32; 4], c: [u32; 4]| result(r(dot(a, b, 2) + o(c[0])));
    let c = fl([0.3, 9.0, 9.0, 9.0]);
    v.push(
        Vector::new(Dp2a, Ordinary, "DP2 + src2.x")
            .src(a)
            .src(b)
            .src(fl([10.0, 0.0, 0.0, 0.0]))
            .bits(x4(dp2a(a, b, fl([10.0, 0.0, 0.0, 0.0])))),
    );
    v.push(
        Vector::new(Dp2a, Rounding, "DP2 + src2.x rounded")
            .src(ra)
            .src(rb)
            .src(c)
            .bits(x4(dp2a(ra, rb, c))),
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
    let mut v = add_sub_mul_div();
    v.extend(mad_lrp());
    v.extend(reciprocal());
    v.extend(dots());
    v.extend(xpd_x2d_rfl());
    v.extend(matrices());
    v
}

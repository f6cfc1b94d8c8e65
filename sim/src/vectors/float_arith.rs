//! Float arithmetic: ADD SUB MUL DIV MAD LRP RCP.

use super::oracle::{op2, operand as o, r, result};
use super::{
    fl, x4, Class, Vector, MAXF, MINN, NINF, NSUB, NZ, ONE, PINF, PZ, QNAN, SNAN, SUB, XNAN,
};
use microcode::tgsi::{Modulate, Opcode, Saturate};
use Class::*;
use Opcode::*;

/// The operands of the plain cases (exact or easily rounded results), one for each operand.
fn plain() -> ([u32; 4], [u32; 4]) {
    (fl([1.5, -2.25, 1e10, 0.1]), fl([2.0, 0.75, 3.0, 0.2]))
}

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

/// ADD, SUB: one rounding to nearest even; signed zeros, infinities, NaN and flushed subnormals.
fn add_sub() -> Vec<Vector> {
    let (a, b) = plain();
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
        Vector::new(
            Mul,
            Infinity,
            "_SAT after overflow: inf -> 1, -inf -> 0, NaN -> +0",
        )
        .sat(Saturate::ZeroOne)
        .src([PINF, NINF, PZ, MAXF])
        .src([ONE, ONE, PINF, 0x4000_0000])
        .bits([ONE, PZ, PZ, ONE]),
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
    ]
}

/// MUL: one rounding; products that overflow, underflow and flush.
fn mul() -> Vec<Vector> {
    let (a, b) = plain();
    vec![
        Vector::new(Mul, SignedZero, "_SAT maps -0 to +0")
            .sat(Saturate::ZeroOne)
            .src([NZ, NZ, PZ, 0xBF80_0000])
            .src([ONE, PZ, 0xBF80_0000, 0x3F00_0000])
            .bits([PZ, PZ, PZ, PZ]),
        Vector::new(Div, Nan, "_SAT maps 0/0 to +0")
            .sat(Saturate::ZeroOne)
            .src([PZ, ONE, 0x4000_0000, PINF])
            .src([PZ, 0x4000_0000, ONE, PINF])
            .bits([PZ, 0x3F00_0000, ONE, PZ]),
        cw2(Sub, Ordinary, "plain differences", a, b, |x, y| x - y),
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
    ]
}

/// DIV: the correctly rounded quotient; division by zero and infinity.
fn div() -> Vec<Vector> {
    vec![
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

fn add_sub_mul_div() -> Vec<Vector> {
    [add_sub(), mul(), div()].concat()
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

/// MODULATE scales the result (a float operation: overflow, flush) before saturate.
fn modulated() -> Vec<Vector> {
    vec![
        Vector::new(Mul, Ordinary, "x2 then _SAT: 0.3 -> 0.6, 0.6 -> 1")
            .modulate(Modulate::X2)
            .sat(Saturate::ZeroOne)
            .src(fl([0.3, 0.6, -0.25, 0.5]))
            .src(x4(ONE))
            .bits([result(f64::from(0.3f32) * 2.0), ONE, PZ, ONE]),
        Vector::new(Mul, Infinity, "x8 overflows; eighth of inf stays inf")
            .modulate(Modulate::X8)
            .src([MAXF, 0xFF00_0000, PINF, ONE])
            .src(x4(ONE))
            .bits([PINF, NINF, PINF, 0x4100_0000]),
        Vector::new(
            Mul,
            Subnormal,
            "half of 2^-126 is subnormal and flushes with its sign",
        )
        .modulate(Modulate::Half)
        .src([MINN, 0x8080_0000, 0x4000_0000, ONE])
        .src(x4(ONE))
        .bits([PZ, NZ, ONE, 0x3F00_0000]),
    ]
}

/// MAD with _SATNV: the flushed product, the clamp to [-1, 1] and NaN -> +0 in one vector.
fn mad_satnv() -> Vector {
    Vector::new(
        Mad,
        Subnormal,
        "_SATNV: a flushed -0 sum becomes +0; 2.5 -> 1; -2 -> -1; NaN -> +0",
    )
    .sat(Saturate::MinusPlusOne)
    .src([0x8D80_0000, 0x4000_0000, 0xC000_0000, QNAN])
    .src([0x3080_0000, ONE, ONE, ONE])
    .src([NZ, 0x3F00_0000, PZ, PZ])
    .bits([PZ, ONE, 0xBF80_0000, PZ])
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

/// The vectors of this family.
pub fn vectors() -> Vec<Vector> {
    let mut v = add_sub_mul_div();
    v.extend(mad_lrp());
    v.extend(reciprocal());
    v.push(mad_satnv());
    v.extend(modulated());
    v
}

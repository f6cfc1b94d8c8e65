//! Double opcodes: binary64 in component pairs (x, z low words; y, w high words), correctly rounded,
//! subnormals kept, NaN results canonical (`decisions.md` section 2).

use super::oracle::{dresult, DNAN};
use super::{Check, Class, Vector, ONE, PZ};
use microcode::tgsi::Opcode;
use Class::*;
use Opcode::*;

const DINF: u64 = 0x7FF0_0000_0000_0000;
const DNINF: u64 = 0xFFF0_0000_0000_0000;
const DNZ: u64 = 0x8000_0000_0000_0000;
const DMAX: u64 = 0x7FEF_FFFF_FFFF_FFFF;
/// The smallest positive binary64 subnormal.
const DSUB: u64 = 1;
/// 2^-1022, the smallest positive normal.
const DMINN: u64 = 0x0010_0000_0000_0000;
/// A NaN with a payload and the sign set.
const DXNAN: u64 = 0xFFF8_0000_0000_0001;
/// 1 + 2^-52, the next binary64 above 1.
const ONE_UP: u64 = 0x3FF0_0000_0000_0001;

/// Two binary64 values as the four components of a register.
fn pair(a: u64, b: u64) -> [u32; 4] {
    [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32]
}

/// 2^e exactly, subnormal range included (host `powi` overflows on the way to tiny powers).
fn p2(e: i32) -> f64 {
    if e >= -1022 {
        f64::from_bits(((e + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (e + 1074))
    }
}

fn d(x: f64) -> u64 {
    x.to_bits()
}

/// Two values as binary64 bits.
fn b2(v: [f64; 2]) -> [u64; 2] {
    v.map(d)
}

/// `g` on each pair of operands, rounded once to binary64 (`oracle::dresult`).
fn each(a: [f64; 2], b: [f64; 2], g: fn(f64, f64) -> f64) -> [u64; 2] {
    [dresult(g(a[0], b[0])), dresult(g(a[1], b[1]))]
}

/// A comparison of two pairs: each pair's result (`t`) as 1.0 or 0.0 in both its components.
fn cmp(
    op: Opcode,
    class: Class,
    note: &'static str,
    a: [u64; 2],
    b: [u64; 2],
    t: [bool; 2],
) -> Vector {
    let w = t.map(|x| if x { ONE } else { PZ });
    Vector::new(op, class, note)
        .src(pair(a[0], a[1]))
        .src(pair(b[0], b[1]))
        .bits([w[0], w[0], w[1], w[1]])
}

fn bin(
    op: Opcode,
    class: Class,
    note: &'static str,
    a: [u64; 2],
    b: [u64; 2],
    want: [u64; 2],
) -> Vector {
    Vector::new(op, class, note)
        .src(pair(a[0], a[1]))
        .src(pair(b[0], b[1]))
        .bits(pair(want[0], want[1]))
}

fn un(op: Opcode, class: Class, note: &'static str, a: [u64; 2], want: [u64; 2]) -> Vector {
    Vector::new(op, class, note)
        .src(pair(a[0], a[1]))
        .bits(pair(want[0], want[1]))
}

/// DADD: sums of pairs, correctly rounded, subnormals kept.
fn dadd() -> Vec<Vector> {
    vec![
        bin(
            Dadd,
            Ordinary,
            "1.5 + 2.25, -3 + 1e10",
            b2([1.5, -3.0]),
            b2([2.25, 1e10]),
            each([1.5, -3.0], [2.25, 1e10], |x, y| x + y),
        ),
        bin(
            Dadd,
            Rounding,
            "0.1 + 0.2, 1e16 + 1",
            b2([0.1, 1e16]),
            b2([0.2, 1.0]),
            each([0.1, 1e16], [0.2, 1.0], |x, y| x + y),
        ),
        bin(
            Dadd,
            SignedZero,
            "-0 + -0 = -0, +0 + -0 = +0",
            [DNZ, 0],
            [DNZ, DNZ],
            [DNZ, 0],
        ),
        bin(
            Dadd,
            Infinity,
            "inf + -inf, MAX + MAX",
            [DINF, DMAX],
            [DNINF, DMAX],
            [DNAN, DINF],
        ),
        bin(
            Dadd,
            Nan,
            "NaN operands give the canonical NaN",
            [DXNAN, d(1.0)],
            [d(1.0), 0x7FF0_0000_0000_0001],
            [DNAN, DNAN],
        ),
        bin(
            Dadd,
            Subnormal,
            "subnormals are kept",
            [DSUB, DMINN],
            [DSUB, DMINN + 1 + DNZ],
            [2, 1 + DNZ],
        ),
        Vector::new(Dadd, Ordinary, "negate acts on the binary64 sign")
            .src(pair(d(1.5), d(-2.0)))
            .negate()
            .src(pair(d(0.5), d(0.0)))
            .bits(pair(d(-1.0), d(2.0))),
        bin(
            Dmul,
            Ordinary,
            "1.5 * 4, -3 * 0.5",
            b2([1.5, -3.0]),
            b2([4.0, 0.5]),
            each([1.5, -3.0], [4.0, 0.5], |x, y| x * y),
        ),
    ]
}

/// DMUL: products of pairs, correctly rounded, subnormals kept.
fn dmul() -> Vec<Vector> {
    vec![
        bin(
            Dmul,
            Rounding,
            "0.1 * 3, (1 + 2^-30)^2",
            b2([0.1, 1.0 + p2(-30)]),
            b2([3.0, 1.0 + p2(-30)]),
            each([0.1, 1.0 + p2(-30)], [3.0, 1.0 + p2(-30)], |x, y| x * y),
        ),
        bin(
            Dmul,
            SignedZero,
            "-0 * 5, -0 * -0",
            [DNZ, DNZ],
            [d(5.0), DNZ],
            [DNZ, 0],
        ),
        bin(
            Dmul,
            Infinity,
            "inf * 0, MAX * 2",
            [DINF, DMAX],
            [0, d(2.0)],
            [DNAN, DINF],
        ),
        bin(
            Dmul,
            Nan,
            "NaN operands",
            [DNAN, d(2.0)],
            [d(2.0), DXNAN],
            [DNAN, DNAN],
        ),
        bin(
            Dmul,
            Subnormal,
            "2^-1000 * 2^-50 is a kept subnormal",
            b2([p2(-1000), -(p2(-1000))]),
            b2([p2(-50), p2(-50)]),
            b2([p2(-1050), -(p2(-1050))]),
        ),
    ]
}

/// DDIV: quotients of pairs, correctly rounded.
fn ddiv() -> Vec<Vector> {
    vec![
        bin(
            Ddiv,
            Ordinary,
            "1 / 4, -9 / 3",
            b2([1.0, -9.0]),
            b2([4.0, 3.0]),
            b2([0.25, -3.0]),
        ),
        bin(
            Ddiv,
            Rounding,
            "1 / 3, 2 / 7",
            b2([1.0, 2.0]),
            b2([3.0, 7.0]),
            each([1.0, 2.0], [3.0, 7.0], |x, y| x / y),
        ),
        bin(
            Ddiv,
            SignedZero,
            "-0 / 1, 1 / -0",
            [DNZ, d(1.0)],
            [d(1.0), DNZ],
            [DNZ, DNINF],
        ),
        bin(
            Ddiv,
            Infinity,
            "inf / inf, 1 / 0",
            [DINF, d(1.0)],
            [DINF, 0],
            [DNAN, DINF],
        ),
        bin(
            Ddiv,
            Nan,
            "0 / 0, NaN / 1",
            [0, DXNAN],
            [0, d(1.0)],
            [DNAN, DNAN],
        ),
        bin(
            Ddiv,
            Subnormal,
            "2^-1022 / 4 is kept, 1 / subnormal overflows",
            [DMINN, d(1.0)],
            [d(4.0), DSUB],
            [0x0004_0000_0000_0000, DINF],
        ),
    ]
}

fn arithmetic() -> Vec<Vector> {
    [dadd(), dmul(), ddiv()].concat()
}

fn mad_rcp_sqrt() -> Vec<Vector> {
    let mad3 = |class, note, a: [u64; 2], b: [u64; 2], c: [u64; 2], want: [u64; 2]| {
        Vector::new(Dmad, class, note)
            .src(pair(a[0], a[1]))
            .src(pair(b[0], b[1]))
            .src(pair(c[0], c[1]))
            .bits(pair(want[0], want[1]))
    };
    let e = 1.0 + p2(-27);
    vec![
        mad3(
            Ordinary,
            "2*3 + 1, 0.5*4 - 1",
            [d(2.0), d(0.5)],
            [d(3.0), d(4.0)],
            [d(1.0), d(-1.0)],
            [d(7.0), d(1.0)],
        ),
        mad3(
            Rounding,
            "(1+2^-27)^2 - (1+2^-26) is 0 unfused",
            [d(e), d(0.1)],
            [d(e), d(0.3)],
            [d(-(1.0 + p2(-26))), d(0.7)],
            [0, dresult(0.1 * 0.3 + 0.7)],
        ),
        mad3(
            SignedZero,
            "-0*1 + -0, -0*1 + +0",
            [DNZ, DNZ],
            [d(1.0), d(1.0)],
            [DNZ, 0],
            [DNZ, 0],
        ),
        mad3(
            Infinity,
            "MAX*2 - MAX overflows first; inf*0",
            [DMAX, DINF],
            [d(2.0), 0],
            [DMAX | DNZ, d(1.0)],
            [DINF, DNAN],
        ),
        mad3(
            Nan,
            "NaN addend",
            [d(1.0), DXNAN],
            [d(1.0), d(1.0)],
            [DNAN, d(1.0)],
            [DNAN, DNAN],
        ),
        mad3(
            Subnormal,
            "subnormal product kept",
            [d(p2(-1000)), DSUB],
            [d(p2(-60)), d(1.0)],
            [0, DSUB],
            [d(p2(-1060)), 2],
        ),
        un(
            Drcp,
            Ordinary,
            "1/4, 1/-0.5",
            [d(4.0), d(-0.5)],
            [d(0.25), d(-2.0)],
        ),
        un(
            Drcp,
            Rounding,
            "1/3, 1/10",
            [d(3.0), d(10.0)],
            [d(1.0 / 3.0), d(1.0 / 10.0)],
        ),
        un(Drcp, SignedZero, "1/+0, 1/-0", [0, DNZ], [DINF, DNINF]),
        un(Drcp, Infinity, "1/inf, 1/-inf", [DINF, DNINF], [0, DNZ]),
        un(Drcp, Nan, "NaN", [DXNAN, DNAN], [DNAN, DNAN]),
        un(
            Drcp,
            Subnormal,
            "1/2^1023 is a kept subnormal; 1/subnormal overflows",
            [d(p2(1023)), DSUB],
            [d(p2(-1023)), DINF],
        ),
        un(
            Dsqrt,
            Ordinary,
            "sqrt 4, sqrt 0.25",
            [d(4.0), d(0.25)],
            [d(2.0), d(0.5)],
        ),
        un(
            Dsqrt,
            Rounding,
            "sqrt 2, sqrt 10",
            [d(2.0), d(10.0)],
            [d(2f64.sqrt()), d(10f64.sqrt())],
        ),
        un(Dsqrt, SignedZero, "sqrt(-0) = -0", [DNZ, 0], [DNZ, 0]),
        un(
            Dsqrt,
            Infinity,
            "sqrt inf = inf, sqrt -inf = NaN",
            [DINF, DNINF],
            [DINF, DNAN],
        ),
        un(
            Dsqrt,
            Nan,
            "sqrt(-1) and NaN",
            [d(-1.0), DXNAN],
            [DNAN, DNAN],
        ),
        un(
            Dsqrt,
            Subnormal,
            "sqrt of subnormals",
            [DSUB, 4],
            [d(p2(-537)), d(p2(-536))],
        ),
    ]
}

fn frac_exp() -> Vec<Vector> {
    let fe = |class, note, a: [u64; 2], exp: [Check; 4], sig: [Check; 4]| {
        Vector::new(DfracExp, class, note)
            .src(pair(a[0], a[1]))
            .expect(exp)
            .expect(sig)
    };
    let b = |v: [u64; 2]| pair(v[0], v[1]).map(Check::Bits);
    // Exponent of 1.0 (1, as 1.0 = 0.5 * 2^1) in the low pair, an unspecified exponent in the high pair.
    let one_then_any = |p: [u32; 4]| [Check::Bits(p[0]), Check::Bits(p[1]), Check::Any, Check::Any];
    vec![
        un(
            Dfrac,
            Ordinary,
            "2.5 -> 0.5, -2.25 -> 0.75",
            [d(2.5), d(-2.25)],
            [d(0.5), d(0.75)],
        ),
        un(
            Dfrac,
            Rounding,
            "-1e-20 - (-1) rounds to 1.0; 0.1",
            [d(-1e-20), d(0.1)],
            [d(1.0), d(0.1)],
        ),
        un(
            Dfrac,
            SignedZero,
            "-0 - floor(-0) = +0",
            [DNZ, d(-3.0)],
            [0, 0],
        ),
        un(
            Dfrac,
            Infinity,
            "inf - inf = NaN",
            [DINF, DNINF],
            [DNAN, DNAN],
        ),
        un(Dfrac, Nan, "NaN", [DXNAN, DNAN], [DNAN, DNAN]),
        un(
            Dfrac,
            Subnormal,
            "subnormals are kept; -subnormal + 1 rounds to 1",
            [DSUB, DSUB | DNZ],
            [DSUB, d(1.0)],
        ),
        fe(
            Ordinary,
            "8 = 0.5 * 2^4; -3 = -0.75 * 2^2",
            [d(8.0), d(-3.0)],
            b([d(4.0), d(2.0)]),
            b([d(0.5), d(-0.75)]),
        ),
        fe(
            Rounding,
            "0.1 = 0.8 * 2^-3 exactly",
            [d(0.1), d(1e300)],
            b([d(-3.0), d(997.0)]),
            b([d(0.8), d(1e300 / p2(997))]),
        ),
        fe(
            SignedZero,
            "frexp(+-0) = (0, +-0)",
            [0, DNZ],
            b([0, 0]),
            b([0, DNZ]),
        ),
        fe(
            Infinity,
            "inf: significand inf, exponent unspecified",
            [d(1.0), DINF],
            one_then_any(pair(d(1.0), 0)),
            b([d(0.5), DINF]),
        ),
        fe(
            Nan,
            "NaN: significand NaN, exponent unspecified",
            [d(1.0), DXNAN],
            one_then_any(pair(d(1.0), 0)),
            b([d(0.5), DNAN]),
        ),
        fe(
            Subnormal,
            "2^-1074 = 0.5 * 2^-1073",
            [DSUB, d(-(p2(-1030)))],
            b([d(-1073.0), d(-1029.0)]),
            b([d(0.5), d(-0.5)]),
        ),
    ]
}

/// DLDEXP: a pair scaled by integral powers of two, into and out of the subnormal range.
fn dldexp() -> Vec<Vector> {
    vec![
        bin(
            Dldexp,
            Ordinary,
            "1.5 * 2^3, -1 * 2^-2",
            b2([1.5, -1.0]),
            b2([3.0, -2.0]),
            b2([12.0, -0.25]),
        ),
        bin(
            Dldexp,
            Rounding,
            "exponents truncate: 3.7 -> 3, -2.9 -> -2",
            b2([1.5, 1.0]),
            b2([3.7, -2.9]),
            b2([12.0, 0.25]),
        ),
        bin(
            Dldexp,
            Rounding,
            "1.5 and 2.5 times 2^-1074 tie to even",
            b2([1.5, 2.5]),
            b2([-1074.0, -1074.0]),
            [2, 2],
        ),
        bin(
            Dldexp,
            SignedZero,
            "-0 * 2^5 = -0",
            [DNZ, 0],
            b2([5.0, -5.0]),
            [DNZ, 0],
        ),
        bin(
            Dldexp,
            Infinity,
            "overflow; inf stays",
            [d(1.0), DINF],
            b2([2000.0, -5.0]),
            [DINF, DINF],
        ),
        bin(
            Dldexp,
            Nan,
            "NaN value",
            [DXNAN, DNAN],
            b2([1.0, 0.0]),
            [DNAN, DNAN],
        ),
        bin(
            Dldexp,
            Subnormal,
            "2^-1074 is kept",
            b2([1.0, -1.0]),
            b2([-1074.0, -1073.0]),
            [DSUB, 2 | DNZ],
        ),
    ]
}

/// DMIN, DMAX: the smaller and larger of each pair.
fn dmin_dmax() -> Vec<Vector> {
    vec![
        bin(
            Dmin,
            Ordinary,
            "smaller",
            b2([1.0, -5.0]),
            b2([2.0, 5.0]),
            b2([1.0, -5.0]),
        ),
        bin(
            Dmin,
            Rounding,
            "one ULP apart",
            [ONE_UP, d(1.0)],
            [d(1.0), ONE_UP],
            [d(1.0), d(1.0)],
        ),
        bin(
            Dmin,
            SignedZero,
            "-0 < +0 is false: src1",
            [DNZ, 0],
            [0, DNZ],
            [0, DNZ],
        ),
        bin(
            Dmin,
            Infinity,
            "infinities",
            [DINF, DNINF],
            [d(1.0), d(1.0)],
            [d(1.0), DNINF],
        ),
        bin(
            Dmin,
            Nan,
            "comparison with NaN is false: src1",
            [DNAN, d(1.0)],
            [d(1.0), DNAN],
            [d(1.0), DNAN],
        ),
        bin(
            Dmin,
            Subnormal,
            "subnormals are kept",
            [DSUB, DSUB | DNZ],
            [2, 0],
            [DSUB, DSUB | DNZ],
        ),
        bin(
            Dmax,
            Ordinary,
            "larger",
            b2([1.0, -5.0]),
            b2([2.0, 5.0]),
            b2([2.0, 5.0]),
        ),
        bin(
            Dmax,
            Rounding,
            "one ULP apart",
            [ONE_UP, d(1.0)],
            [d(1.0), ONE_UP],
            [ONE_UP, ONE_UP],
        ),
        bin(
            Dmax,
            SignedZero,
            "-0 > +0 is false: src1",
            [DNZ, 0],
            [0, DNZ],
            [0, DNZ],
        ),
        bin(
            Dmax,
            Infinity,
            "infinities",
            [DINF, DNINF],
            [d(1.0), d(1.0)],
            [DINF, d(1.0)],
        ),
        bin(
            Dmax,
            Nan,
            "comparison with NaN is false: src1",
            [DNAN, d(1.0)],
            [d(1.0), DNAN],
            [d(1.0), DNAN],
        ),
        bin(
            Dmax,
            Subnormal,
            "subnormals are kept",
            [DSUB, DSUB | DNZ],
            [2, 0],
            [2, 0],
        ),
    ]
}

/// DSEQ, DSLT: comparisons of pairs, 1.0 or 0.0 in both components of each.
fn dseq_dslt() -> Vec<Vector> {
    vec![
        cmp(
            Dseq,
            Ordinary,
            "1 == 1, 1 == 2",
            b2([1.0, 1.0]),
            b2([1.0, 2.0]),
            [true, false],
        ),
        cmp(
            Dseq,
            Rounding,
            "one ULP apart",
            [ONE_UP, d(0.1)],
            [d(1.0), d(0.1)],
            [false, true],
        ),
        cmp(
            Dseq,
            SignedZero,
            "-0 == +0",
            [DNZ, DNZ],
            [0, DNZ],
            [true, true],
        ),
        cmp(
            Dseq,
            Infinity,
            "inf == inf, inf == MAX",
            [DINF, DINF],
            [DINF, DMAX],
            [true, false],
        ),
        cmp(
            Dseq,
            Nan,
            "NaN == NaN is false",
            [DNAN, d(1.0)],
            [DNAN, DXNAN],
            [false, false],
        ),
        cmp(
            Dseq,
            Subnormal,
            "subnormals are not zero",
            [DSUB, DSUB],
            [0, DSUB],
            [false, true],
        ),
        cmp(
            Dslt,
            Ordinary,
            "1 < 2, 2 < 1",
            b2([1.0, 2.0]),
            b2([2.0, 1.0]),
            [true, false],
        ),
        cmp(
            Dslt,
            Rounding,
            "one ULP apart",
            [d(1.0), ONE_UP],
            [ONE_UP, d(1.0)],
            [true, false],
        ),
        cmp(
            Dslt,
            SignedZero,
            "-0 < +0 is false",
            [DNZ, d(-1.0)],
            [0, DNZ],
            [false, true],
        ),
        cmp(
            Dslt,
            Infinity,
            "-inf < MAX, inf < inf",
            [DNINF, DINF],
            [DMAX, DINF],
            [true, false],
        ),
        cmp(
            Dslt,
            Nan,
            "NaN is unordered",
            [DNAN, d(1.0)],
            [d(1.0), DNAN],
            [false, false],
        ),
        cmp(
            Dslt,
            Subnormal,
            "0 < 2^-1074",
            [0, DSUB | DNZ],
            [DSUB, 0],
            [true, true],
        ),
    ]
}

fn ldexp_select_compare() -> Vec<Vector> {
    [dldexp(), dmin_dmax(), dseq_dslt()].concat()
}

/// The vectors of this family.
pub fn vectors() -> Vec<Vector> {
    let mut v = arithmetic();
    v.extend(mad_rcp_sqrt());
    v.extend(frac_exp());
    v.extend(ldexp_select_compare());
    v
}

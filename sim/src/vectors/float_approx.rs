//! Approximated operations, checked against their `decisions.md` section 2 bounds: RSQ (1 ULP),
//! EX2 and LG2 (2 ULP), SIN, COS and SCS (2^-20 absolute), POW (2^-16 relative). Special operands
//! have exact, literal results.

use super::oracle::{operand as o, result};
use super::{
    x4, Check, Class, Vector, MAXF, MINN, NINF, NSUB, NZ, ONE, PINF, PZ, QNAN, SNAN, SUB, XNAN,
};
use microcode::tgsi::Opcode;
use Class::*;
use Opcode::*;

const TRIG_TOL: f64 = 1.0 / 1_048_576.0;
const POW_TOL: f64 = 1.0 / 65_536.0;

fn rep(op: Opcode, class: Class, note: &'static str, x: u32, want: Check) -> Vector {
    Vector::new(op, class, note).src(x4(x)).expect([want; 4])
}

fn ulp(x: f64, n: u32) -> Check {
    Check::Ulp {
        want: result(x),
        ulps: n,
    }
}

fn rsq_ex2_lg2() -> Vec<Vector> {
    let b = Check::Bits;
    let rsq = |x: u32| ulp(1.0 / o(x).abs().sqrt(), 1);
    let ex2 = |x: u32| ulp(o(x).exp2(), 2);
    let lg2 = |x: u32| ulp(o(x).log2(), 2);
    vec![
        rep(Rsq, Ordinary, "1/sqrt(4)", 0x4080_0000, rsq(0x4080_0000)),
        rep(
            Rsq,
            Ordinary,
            "1/sqrt(|-16|)",
            0xC180_0000,
            rsq(0xC180_0000),
        ),
        rep(Rsq, Rounding, "1/sqrt(2)", 0x4000_0000, rsq(0x4000_0000)),
        rep(Rsq, Rounding, "1/sqrt(MAX)", MAXF, rsq(MAXF)),
        rep(Rsq, Rounding, "1/sqrt(2^-126)", MINN, rsq(MINN)),
        rep(Rsq, SignedZero, "RSQ(+0) = +inf", PZ, b(PINF)),
        rep(
            Rsq,
            SignedZero,
            "RSQ(-0) = +inf (absolute value)",
            NZ,
            b(PINF),
        ),
        rep(Rsq, Infinity, "RSQ(inf) = 0", PINF, b(PZ)),
        rep(Rsq, Infinity, "RSQ(-inf) = 0", NINF, b(PZ)),
        rep(Rsq, Nan, "NaN", XNAN, b(QNAN)),
        rep(Rsq, Subnormal, "subnormal is zero: +inf", SUB, b(PINF)),
        rep(Rsq, Subnormal, "-subnormal is -0: +inf", NSUB, b(PINF)),
        rep(Ex2, Ordinary, "2^3", 0x4040_0000, ex2(0x4040_0000)),
        rep(Ex2, Ordinary, "2^-2.5", 0xC020_0000, ex2(0xC020_0000)),
        rep(Ex2, Rounding, "2^0.1", 0x3DCC_CCCD, ex2(0x3DCC_CCCD)),
        rep(Ex2, Rounding, "2^127.9", 0x42FF_CCCD, ex2(0x42FF_CCCD)),
        rep(Ex2, Rounding, "2^-125.3", 0xC2FA_999A, ex2(0xC2FA_999A)),
        rep(Ex2, SignedZero, "2^-0 = 1", NZ, ex2(NZ)),
        rep(Ex2, SignedZero, "2^+0 = 1", PZ, ex2(PZ)),
        rep(Ex2, Infinity, "EX2(inf) = inf", PINF, b(PINF)),
        rep(Ex2, Infinity, "EX2(-inf) = 0", NINF, b(PZ)),
        rep(Ex2, Infinity, "EX2(128) overflows", 0x4300_0000, b(PINF)),
        rep(Ex2, Nan, "NaN", SNAN, b(QNAN)),
        rep(
            Ex2,
            Subnormal,
            "2^-130 is subnormal and flushes",
            0xC302_0000,
            b(PZ),
        ),
        rep(Ex2, Subnormal, "2^subnormal = 1", SUB, ex2(PZ)),
        rep(Lg2, Ordinary, "log2(8) = 3", 0x4100_0000, lg2(0x4100_0000)),
        rep(Lg2, Ordinary, "log2(1) = 0 exactly", ONE, b(PZ)),
        rep(Lg2, Rounding, "log2(10)", 0x4120_0000, lg2(0x4120_0000)),
        rep(
            Lg2,
            Rounding,
            "log2(1 + 2^-23), relative bound near 1",
            0x3F80_0001,
            lg2(0x3F80_0001),
        ),
        rep(
            Lg2,
            Rounding,
            "log2(1 - 2^-24), relative bound near 1",
            0x3F7F_FFFF,
            lg2(0x3F7F_FFFF),
        ),
        rep(Lg2, Rounding, "log2(MAX)", MAXF, lg2(MAXF)),
        rep(Lg2, SignedZero, "LG2(+0) = -inf", PZ, b(NINF)),
        rep(Lg2, SignedZero, "LG2(-0) = -inf", NZ, b(NINF)),
        rep(Lg2, Infinity, "LG2(inf) = inf", PINF, b(PINF)),
        rep(Lg2, Infinity, "LG2(-inf) = NaN", NINF, b(QNAN)),
        rep(Lg2, Nan, "LG2(NaN)", XNAN, b(QNAN)),
        rep(Lg2, Nan, "LG2(x < 0) = NaN", 0xBF80_0000, b(QNAN)),
        rep(Lg2, Subnormal, "subnormal is zero: -inf", SUB, b(NINF)),
        rep(Lg2, Subnormal, "log2(2^-126) = -126", MINN, lg2(MINN)),
    ]
}

fn trig() -> Vec<Vector> {
    let b = Check::Bits;
    let sin = |x: u32| Check::Abs {
        want: o(x).sin(),
        tol: TRIG_TOL,
    };
    let cos = |x: u32| Check::Abs {
        want: o(x).cos(),
        tol: TRIG_TOL,
    };
    let scs = |class, note, x: u32| {
        Vector::new(Scs, class, note)
            .src(x4(x))
            .expect([cos(x), sin(x), b(PZ), b(ONE)])
    };
    let mut v = Vec::new();
    for (op, f) in [(Sin, &sin as &dyn Fn(u32) -> Check), (Cos, &cos)] {
        v.push(rep(op, Ordinary, "x = 1", ONE, f(ONE)));
        v.push(rep(op, Ordinary, "x = -pi/2", 0xBFC9_0FDB, f(0xBFC9_0FDB)));
        v.push(rep(op, Rounding, "x = 100", 0x42C8_0000, f(0x42C8_0000)));
        v.push(rep(
            op,
            Rounding,
            "x = 314 (near 100*pi)",
            0x439D_0000,
            f(0x439D_0000),
        ));
        v.push(rep(
            op,
            Rounding,
            "x = pi (float)",
            0x4049_0FDB,
            f(0x4049_0FDB),
        ));
        v.push(rep(op, SignedZero, "x = -0", NZ, f(NZ)));
        v.push(rep(op, SignedZero, "x = +0", PZ, f(PZ)));
        v.push(rep(op, Infinity, "x = inf gives NaN", PINF, b(QNAN)));
        v.push(rep(op, Infinity, "x = -inf gives NaN", NINF, b(QNAN)));
        v.push(rep(op, Nan, "NaN", QNAN, b(QNAN)));
        v.push(rep(op, Subnormal, "subnormal is zero", NSUB, f(NZ)));
    }
    v.extend([
        scs(Ordinary, "x = 1: (cos, sin, 0, 1)", ONE),
        scs(Rounding, "x = 100", 0x42C8_0000),
        scs(SignedZero, "x = -0", NZ),
        Vector::new(Scs, Infinity, "inf: (NaN, NaN, 0, 1)")
            .src(x4(PINF))
            .bits([QNAN, QNAN, PZ, ONE]),
        Vector::new(Scs, Nan, "NaN: (NaN, NaN, 0, 1)")
            .src(x4(XNAN))
            .bits([QNAN, QNAN, PZ, ONE]),
        scs(Subnormal, "subnormal is zero", SUB),
    ]);
    v
}

fn pow() -> Vec<Vector> {
    let b = Check::Bits;
    let p = |class, note, x: u32, y: u32, want: Check| {
        Vector::new(Pow, class, note)
            .src(x4(x))
            .src(x4(y))
            .expect([want; 4])
    };
    let rel = |x: u32, y: u32| Check::Rel {
        want: o(x).powf(o(y)),
        tol: POW_TOL,
    };
    vec![
        p(
            Ordinary,
            "2^10",
            0x4000_0000,
            0x4120_0000,
            rel(0x4000_0000, 0x4120_0000),
        ),
        p(
            Ordinary,
            "9^0.5",
            0x4110_0000,
            0x3F00_0000,
            rel(0x4110_0000, 0x3F00_0000),
        ),
        p(
            Rounding,
            "3.7^-2.3",
            0x406C_CCCD,
            0xC013_3333,
            rel(0x406C_CCCD, 0xC013_3333),
        ),
        p(
            Rounding,
            "1.5^100 (y*log2 x = 58.5)",
            0x3FC0_0000,
            0x42C8_0000,
            rel(0x3FC0_0000, 0x42C8_0000),
        ),
        p(
            SignedZero,
            "POW(0, 2) = EX2(2 * -inf) = 0",
            PZ,
            0x4000_0000,
            b(PZ),
        ),
        p(SignedZero, "POW(-0, 2) = 0", NZ, 0x4000_0000, b(PZ)),
        p(
            SignedZero,
            "POW(0, 0) = EX2(0 * -inf) = NaN",
            PZ,
            PZ,
            b(QNAN),
        ),
        p(
            SignedZero,
            "POW(x, -0) = 1",
            0x40A0_0000,
            NZ,
            rel(0x40A0_0000, PZ),
        ),
        p(Infinity, "POW(inf, 1) = inf", PINF, ONE, b(PINF)),
        p(Infinity, "POW(2, inf) = inf", 0x4000_0000, PINF, b(PINF)),
        p(Infinity, "POW(2, -inf) = 0", 0x4000_0000, NINF, b(PZ)),
        p(
            Infinity,
            "POW(1, inf) = EX2(inf * 0) = NaN",
            ONE,
            PINF,
            b(QNAN),
        ),
        p(
            Infinity,
            "POW(2, 200) overflows",
            0x4000_0000,
            0x4348_0000,
            b(PINF),
        ),
        p(Nan, "POW(NaN, 1)", QNAN, ONE, b(QNAN)),
        p(Nan, "POW(2, NaN)", 0x4000_0000, XNAN, b(QNAN)),
        p(
            Nan,
            "POW(-2, 2) = EX2(2 * LG2(-2)) = NaN",
            0xC000_0000,
            0x4000_0000,
            b(QNAN),
        ),
        p(
            Subnormal,
            "POW(2, -200) = 2^-200 flushes",
            0x4000_0000,
            0xC348_0000,
            b(PZ),
        ),
        p(Subnormal, "POW(subnormal, 2) = 0", SUB, 0x4000_0000, b(PZ)),
        p(
            Subnormal,
            "POW(2, subnormal) = 1",
            0x4000_0000,
            SUB,
            rel(0x4000_0000, PZ),
        ),
    ]
}

/// The vectors of this family.
pub fn vectors() -> Vec<Vector> {
    let mut v = rsq_ex2_lg2();
    v.extend(trig());
    v.extend(pow());
    v
}

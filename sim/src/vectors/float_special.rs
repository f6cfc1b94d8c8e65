//! Float opcodes with per-component formulas: DST LIT EXP LOG RCC NRM NRM4.

use super::oracle::{operand as o, r, result};
use super::{
    fl, x4, Check, Class, Vector, MINN, NINF, NSUB, NZ, ONE, PINF, PZ, QNAN, SNAN, SUB, XNAN,
};
use microcode::tgsi::Opcode;
use Class::*;
use Opcode::*;

fn dst_lit() -> Vec<Vector> {
    let dst = |class, note, a: [u32; 4], b: [u32; 4], want: [u32; 4]| {
        Vector::new(Dst, class, note).src(a).src(b).bits(want)
    };
    let lit = |class, note, a: [u32; 4], want: [Check; 4]| {
        Vector::new(Lit, class, note).src(a).expect(want)
    };
    let pow_check = |x: f64| Check::Rel {
        want: x,
        tol: 1.0 / 65536.0,
    };
    let bits = Check::Bits;
    vec![
        dst(
            Ordinary,
            "(1, y0*y1, z0, w1)",
            fl([9.0, 2.0, 3.0, 9.0]),
            fl([9.0, 4.0, 9.0, 5.0]),
            fl([1.0, 8.0, 3.0, 5.0]),
        ),
        dst(
            Rounding,
            "y product rounds",
            fl([0.0, 0.1, 0.3, 0.0]),
            fl([0.0, 0.7, 0.0, 0.9]),
            [
                ONE,
                result(r(f64::from(0.1f32) * f64::from(0.7f32))),
                0x3E99_999A,
                0x3F66_6666,
            ],
        ),
        dst(
            SignedZero,
            "-0 * 1 = -0; z, w keep -0",
            [PZ, NZ, NZ, PZ],
            [PZ, ONE, PZ, NZ],
            [ONE, NZ, NZ, NZ],
        ),
        dst(
            Infinity,
            "inf * 0 = NaN; z, w pass inf",
            [PZ, PINF, NINF, PZ],
            [PZ, PZ, PZ, PINF],
            [ONE, QNAN, NINF, PINF],
        ),
        dst(
            Nan,
            "z and w are moves: NaN bits kept",
            [PZ, ONE, XNAN, PZ],
            [PZ, QNAN, PZ, SNAN],
            [ONE, QNAN, XNAN, SNAN],
        ),
        dst(
            Subnormal,
            "y product flushes; z, w keep subnormal bits",
            [PZ, 0x1C80_0000, SUB, PZ],
            [PZ, 0x1C80_0000, PZ, NSUB],
            [ONE, PZ, SUB, NSUB],
        ),
        lit(
            Ordinary,
            "(1, x, y^w, 1)",
            fl([0.5, 0.5, 0.0, 2.0]),
            [bits(ONE), bits(0x3F00_0000), pow_check(0.25), bits(ONE)],
        ),
        lit(
            Ordinary,
            "x <= 0 gives z = 0",
            fl([-0.5, 0.5, 0.0, 2.0]),
            [bits(ONE), bits(PZ), bits(PZ), bits(ONE)],
        ),
        lit(
            Rounding,
            "y^w approximated within 2^-16",
            fl([2.0, 0.3, 0.0, 1.7]),
            [
                bits(ONE),
                bits(0x4000_0000),
                pow_check(0.3f64.powf(1.7)),
                bits(ONE),
            ],
        ),
        lit(
            Rounding,
            "w is clamped to 128",
            fl([1.0, 1.01, 0.0, 300.0]),
            [
                bits(ONE),
                bits(ONE),
                pow_check(f64::from(1.01f32).powi(128)),
                bits(ONE),
            ],
        ),
        lit(
            SignedZero,
            "max(y,0) = 0 and w = 0 give z = 1; x = -0 gives +0",
            [ONE, NZ, PZ, PZ],
            [bits(ONE), bits(ONE), bits(ONE), bits(ONE)],
        ),
        lit(
            SignedZero,
            "x = -0: y = max(-0, 0) = +0, z = 0",
            [NZ, ONE, PZ, ONE],
            [bits(ONE), bits(PZ), bits(PZ), bits(ONE)],
        ),
        lit(
            Infinity,
            "x = inf; y = inf with w = 1 gives inf",
            [PINF, PINF, PZ, ONE],
            [bits(ONE), bits(PINF), bits(PINF), bits(ONE)],
        ),
        lit(
            Infinity,
            "0^1 = EX2(-inf) = 0",
            [ONE, PZ, PZ, ONE],
            [bits(ONE), bits(ONE), bits(PZ), bits(ONE)],
        ),
        lit(
            Nan,
            "x = NaN is not > 0: y = 0, z = 0",
            [QNAN, ONE, PZ, ONE],
            [bits(ONE), bits(PZ), bits(PZ), bits(ONE)],
        ),
        lit(
            Nan,
            "y = NaN: max(y, 0) selects 0, and POW(0, 1) = 0",
            [ONE, QNAN, PZ, ONE],
            [bits(ONE), bits(ONE), bits(PZ), bits(ONE)],
        ),
        lit(
            Subnormal,
            "subnormal x is zero: y = +0, z = 0",
            [SUB, ONE, PZ, ONE],
            [bits(ONE), bits(PZ), bits(PZ), bits(ONE)],
        ),
    ]
}

fn exp_log() -> Vec<Vector> {
    let ex = |x: f64| Check::Ulp {
        want: result(x.exp2()),
        ulps: 2,
    };
    let lg = |x: f64| Check::Ulp {
        want: result(x.log2()),
        ulps: 2,
    };
    let b = Check::Bits;
    let e = |class, note, x: u32, want: [Check; 4]| {
        Vector::new(Exp, class, note).src(x4(x)).expect(want)
    };
    let l = |class, note, x: u32, want: [Check; 4]| {
        Vector::new(Log, class, note).src(x4(x)).expect(want)
    };
    vec![
        e(
            Ordinary,
            "EXP(2.5) = (4, 0.5, 2^2.5, 1)",
            0x4020_0000,
            [b(0x4080_0000), b(0x3F00_0000), ex(2.5), b(ONE)],
        ),
        e(
            Ordinary,
            "EXP(-1.25) = (0.25, 0.75, 2^-1.25, 1)",
            0xBFA0_0000,
            [b(0x3E80_0000), b(0x3F40_0000), ex(-1.25), b(ONE)],
        ),
        e(
            Rounding,
            "x - floor(x) rounds once",
            0xC1A0_0001,
            [
                b(result(2f64.powi(-21))),
                b(result(r(o(0xC1A0_0001) + 21.0))),
                ex(o(0xC1A0_0001)),
                b(ONE),
            ],
        ),
        e(
            SignedZero,
            "EXP(-0) = (1, +0, 1, 1)",
            NZ,
            [b(ONE), b(PZ), ex(0.0), b(ONE)],
        ),
        e(
            Infinity,
            "EXP(inf) = (inf, NaN, inf, 1)",
            PINF,
            [b(PINF), b(QNAN), b(PINF), b(ONE)],
        ),
        e(
            Infinity,
            "EXP(-inf) = (0, NaN, 0, 1)",
            NINF,
            [b(PZ), b(QNAN), b(PZ), b(ONE)],
        ),
        e(
            Infinity,
            "EXP(200): 2^200 overflows",
            0x4348_0000,
            [b(PINF), b(PZ), b(PINF), b(ONE)],
        ),
        e(Nan, "EXP(NaN)", XNAN, [b(QNAN), b(QNAN), b(QNAN), b(ONE)]),
        e(
            Subnormal,
            "EXP(-130.5): 2^-131 flushes",
            0xC302_8000,
            [b(PZ), b(0x3F00_0000), b(PZ), b(ONE)],
        ),
        e(
            Subnormal,
            "EXP(subnormal) = EXP(0)",
            SUB,
            [b(ONE), b(PZ), ex(0.0), b(ONE)],
        ),
        l(
            Ordinary,
            "LOG(8) = (3, 1, 3, 1)",
            0x4100_0000,
            [b(0x4040_0000), b(ONE), lg(8.0), b(ONE)],
        ),
        l(
            Ordinary,
            "LOG(-0.75) = (-1, 1.5, LG2(0.75), 1)",
            0xBF40_0000,
            [b(0xBF80_0000), b(0x3FC0_0000), lg(0.75), b(ONE)],
        ),
        l(
            Rounding,
            "LOG(10): z approximated",
            0x4120_0000,
            [b(0x4040_0000), b(0x3FA0_0000), lg(10.0), b(ONE)],
        ),
        l(
            SignedZero,
            "LOG(-0) = (-inf, NaN, -inf, 1)",
            NZ,
            [b(NINF), b(QNAN), b(NINF), b(ONE)],
        ),
        l(
            SignedZero,
            "LOG(+0) = (-inf, NaN, -inf, 1)",
            PZ,
            [b(NINF), b(QNAN), b(NINF), b(ONE)],
        ),
        l(
            Infinity,
            "LOG(-inf) = (inf, NaN, inf, 1)",
            NINF,
            [b(PINF), b(QNAN), b(PINF), b(ONE)],
        ),
        l(Nan, "LOG(NaN)", QNAN, [b(QNAN), b(QNAN), b(QNAN), b(ONE)]),
        l(
            Subnormal,
            "LOG(subnormal) = LOG(0)",
            SUB,
            [b(NINF), b(QNAN), b(NINF), b(ONE)],
        ),
        l(
            Subnormal,
            "LOG(2^-126) = (-126, 1, -126, 1)",
            MINN,
            [b(0xC2FC_0000), b(ONE), lg(2f64.powi(-126)), b(ONE)],
        ),
    ]
}

fn rcc_nrm() -> Vec<Vector> {
    let rcc =
        |class, note, x: u32, want: u32| Vector::new(Rcc, class, note).src(x4(x)).bits(x4(want));
    let nrm_want = |v: [f64; 4], n: usize| -> [Check; 4] {
        let len = v.iter().take(n).map(|c| c * c).sum::<f64>().sqrt();
        std::array::from_fn(|i| {
            if i < n {
                Check::Ulp {
                    want: result(v[i] / len),
                    ulps: 4,
                }
            } else {
                Check::Bits(ONE)
            }
        })
    };
    let nrm4_want = |v: [f64; 4]| -> [Check; 4] {
        let len = v.iter().map(|c| c * c).sum::<f64>().sqrt();
        v.map(|c| Check::Ulp {
            want: result(c / len),
            ulps: 4,
        })
    };
    let b = Check::Bits;
    let a = [0.1, -2.0, 3.0, 7.0];
    let a32 = a.map(|x| x as f32);
    let ad = a32.map(f64::from);
    vec![
        rcc(Ordinary, "1/4", 0x4080_0000, 0x3E80_0000),
        rcc(Rounding, "1/3", 0x4040_0000, result(1.0 / 3.0)),
        rcc(SignedZero, "1/+0 clamps to 2^64", PZ, 0x5F80_0000),
        rcc(
            SignedZero,
            "1/-0 clamps to -2^64 (sign kept)",
            NZ,
            0xDF80_0000,
        ),
        rcc(Infinity, "1/inf = 0 clamps up to 2^-64", PINF, 0x1F80_0000),
        rcc(Infinity, "1/-inf clamps to -2^-64", NINF, 0x9F80_0000),
        rcc(Infinity, "1/2^70 clamps to 2^-64", 0x6280_0000, 0x1F80_0000),
        rcc(Nan, "RCC(NaN) = NaN", XNAN, QNAN),
        rcc(Subnormal, "1/subnormal clamps to 2^64", SUB, 0x5F80_0000),
        rcc(
            Subnormal,
            "1/-MAX clamps to -2^-64 (would be subnormal)",
            0xFF7F_FFFF,
            0x9F80_0000,
        ),
        Vector::new(Nrm, Ordinary, "(3,0,4) -> (0.6, 0, 0.8, 1)")
            .src(fl([3.0, 0.0, 4.0, 9.0]))
            .expect(nrm_want([3.0, 0.0, 4.0, 9.0], 3)),
        Vector::new(Nrm, Rounding, "within 4 ULP of the exact direction")
            .src(fl(a32))
            .expect(nrm_want(ad, 3)),
        Vector::new(Nrm, SignedZero, "(3,-0,4): y = -0")
            .src([0x4040_0000, NZ, 0x4080_0000, PZ])
            .expect([
                nrm_want([3.0, 0.0, 4.0, 0.0], 3)[0],
                b(NZ),
                nrm_want([3.0, 0.0, 4.0, 0.0], 3)[2],
                b(ONE),
            ]),
        Vector::new(Nrm, Nan, "zero vector: 0 * RSQ(0) = 0 * inf")
            .src(x4(PZ))
            .bits([QNAN, QNAN, QNAN, ONE]),
        Vector::new(
            Nrm,
            Infinity,
            "dot product overflows: RSQ(inf) = 0, so 2^64 * 0 = 0",
        )
        .src([0x5F80_0000, PZ, PZ, PZ])
        .bits([PZ, PZ, PZ, ONE]),
        Vector::new(Nrm, Infinity, "inf component: inf * 0 = NaN")
            .src([PINF, ONE, PZ, PZ])
            .bits([QNAN, PZ, PZ, ONE]),
        Vector::new(Nrm, Subnormal, "subnormal components are zero")
            .src([SUB, 0x4040_0000, NSUB, PZ])
            .expect([b(PZ), nrm_want([0.0, 3.0, 0.0, 0.0], 3)[1], b(NZ), b(ONE)]),
        Vector::new(Nrm4, Ordinary, "(1,1,1,1) -> 0.5 each")
            .src(x4(ONE))
            .expect(nrm4_want([1.0; 4])),
        Vector::new(Nrm4, Rounding, "within 4 ULP")
            .src(fl(a32))
            .expect(nrm4_want(ad)),
        Vector::new(Nrm4, SignedZero, "(-0,3,0,4): x = -0")
            .src([NZ, 0x4040_0000, PZ, 0x4080_0000])
            .expect([
                b(NZ),
                nrm4_want([0.0, 3.0, 0.0, 4.0])[1],
                b(PZ),
                nrm4_want([0.0, 3.0, 0.0, 4.0])[3],
            ]),
        Vector::new(Nrm4, Infinity, "dot product overflows: all 0")
            .src([0x5F80_0000, PZ, PZ, ONE])
            .bits(x4(PZ)),
        Vector::new(Nrm4, Nan, "NaN component")
            .src([QNAN, ONE, ONE, ONE])
            .bits(x4(QNAN)),
        Vector::new(Nrm4, Subnormal, "subnormal components are zero")
            .src([SUB, 0x4040_0000, NSUB, 0x4080_0000])
            .expect([
                b(PZ),
                nrm4_want([0.0, 3.0, 0.0, 4.0])[1],
                b(NZ),
                nrm4_want([0.0, 3.0, 0.0, 4.0])[3],
            ]),
    ]
}

/// The vectors of this family.
pub fn vectors() -> Vec<Vector> {
    let mut v = dst_lit();
    v.extend(exp_log());
    v.extend(rcc_nrm());
    v
}

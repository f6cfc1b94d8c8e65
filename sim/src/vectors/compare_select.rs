//! Comparisons (SLT SGE SEQ SGT SLE SNE SFL STR), selects (MIN MAX CMP CND CLAMP: chosen bits kept,
//! a chosen subnormal becomes signed zero) and moves (MOV SWZ: bits kept).

use super::{
    fl, x4, Class, Vector, MAXF, MINN, NINF, NSUB, NZ, ONE, PINF, PZ, QNAN, SNAN, SUB, XNAN,
};
use microcode::tgsi::{ExtSel, ExtSwizzle, Opcode};
use Class::*;
use Opcode::*;

const T: u32 = ONE;
const F: u32 = PZ;

fn cmp2(
    op: Opcode,
    class: Class,
    note: &'static str,
    a: [u32; 4],
    b: [u32; 4],
    want: [u32; 4],
) -> Vector {
    Vector::new(op, class, note).src(a).src(b).bits(want)
}

fn compares() -> Vec<Vector> {
    // One row of operands for all six comparisons: a, b and the truth of <, >=, ==, >, <=, !=.
    struct Row {
        class: Class,
        note: &'static str,
        a: [u32; 4],
        b: [u32; 4],
        lt: [u32; 4],
        eq: [u32; 4],
        gt: [u32; 4],
        unordered: [bool; 4],
    }
    let rows = [
        Row {
            class: Ordinary,
            note: "1 vs 2, 2 vs 1, 3 vs 3, -1 vs 1",
            a: fl([1.0, 2.0, 3.0, -1.0]),
            b: fl([2.0, 1.0, 3.0, 1.0]),
            lt: [T, F, F, T],
            eq: [F, F, T, F],
            gt: [F, T, F, F],
            unordered: [false; 4],
        },
        Row {
            class: Rounding,
            note: "operands one ULP apart",
            a: [ONE, 0x3F80_0001, 0x3F7F_FFFF, 0xBF80_0001],
            b: [0x3F80_0001, ONE, ONE, 0xBF80_0000],
            lt: [T, F, T, T],
            eq: [F; 4],
            gt: [F, T, F, F],
            unordered: [false; 4],
        },
        Row {
            class: SignedZero,
            note: "-0 == +0",
            a: [NZ, PZ, NZ, NZ],
            b: [PZ, NZ, NZ, 0x8000_0000],
            lt: [F; 4],
            eq: [T; 4],
            gt: [F; 4],
            unordered: [false; 4],
        },
        Row {
            class: Infinity,
            note: "inf vs MAX, -inf vs -inf, -inf vs inf, MAX vs inf",
            a: [PINF, NINF, NINF, MAXF],
            b: [MAXF, NINF, PINF, PINF],
            lt: [F, F, T, T],
            eq: [F, T, F, F],
            gt: [T, F, F, F],
            unordered: [false; 4],
        },
        Row {
            class: Nan,
            note: "NaN is unordered: only != is true",
            a: [QNAN, ONE, XNAN, SNAN],
            b: [ONE, QNAN, XNAN, SNAN],
            lt: [F; 4],
            eq: [F; 4],
            gt: [F; 4],
            unordered: [true; 4],
        },
        Row {
            class: Subnormal,
            note: "subnormals equal zero and each other",
            a: [SUB, NSUB, SUB, MINN],
            b: [PZ, PZ, 0x0000_0002, SUB],
            lt: [F, F, F, F],
            eq: [T, T, T, F],
            gt: [F, F, F, T],
            unordered: [false; 4],
        },
    ];
    let mut v = Vec::new();
    for r in rows {
        let or = |x: [u32; 4], y: [u32; 4]| -> [u32; 4] {
            std::array::from_fn(|i| if x[i] == T || y[i] == T { T } else { F })
        };
        let not_eq: [u32; 4] = std::array::from_fn(|i| {
            if r.eq[i] == T && !r.unordered[i] {
                F
            } else {
                T
            }
        });
        v.push(cmp2(Slt, r.class, r.note, r.a, r.b, r.lt));
        v.push(cmp2(Sge, r.class, r.note, r.a, r.b, or(r.gt, r.eq)));
        v.push(cmp2(Seq, r.class, r.note, r.a, r.b, r.eq));
        v.push(cmp2(Sgt, r.class, r.note, r.a, r.b, r.gt));
        v.push(cmp2(Sle, r.class, r.note, r.a, r.b, or(r.lt, r.eq)));
        v.push(cmp2(Sne, r.class, r.note, r.a, r.b, not_eq));
        v.push(cmp2(Sfl, r.class, r.note, r.a, r.b, x4(F)));
        v.push(cmp2(Str, r.class, r.note, r.a, r.b, x4(T)));
    }
    v
}

fn min_max() -> Vec<Vector> {
    vec![
        cmp2(
            Min,
            Ordinary,
            "smaller",
            fl([1.0, 5.0, -3.0, 2.0]),
            fl([2.0, -5.0, -2.0, 2.0]),
            fl([1.0, -5.0, -3.0, 2.0]),
        ),
        cmp2(
            Max,
            Ordinary,
            "larger",
            fl([1.0, 5.0, -3.0, 2.0]),
            fl([2.0, -5.0, -2.0, 2.0]),
            fl([2.0, 5.0, -2.0, 2.0]),
        ),
        cmp2(
            Min,
            Rounding,
            "one ULP apart: exact bits chosen",
            [ONE, 0x3F80_0001, 0x3DCC_CCCD, 0x3DCC_CCCC],
            [0x3F80_0001, ONE, 0x3DCC_CCCC, 0x3DCC_CCCD],
            [ONE, ONE, 0x3DCC_CCCC, 0x3DCC_CCCC],
        ),
        cmp2(
            Max,
            Rounding,
            "one ULP apart: exact bits chosen",
            [ONE, 0x3F80_0001, 0x3DCC_CCCD, 0x3DCC_CCCC],
            [0x3F80_0001, ONE, 0x3DCC_CCCC, 0x3DCC_CCCD],
            [0x3F80_0001, 0x3F80_0001, 0x3DCC_CCCD, 0x3DCC_CCCD],
        ),
        cmp2(
            Min,
            SignedZero,
            "-0 < +0 is false, so src1 is chosen",
            [NZ, PZ, NZ, PZ],
            [PZ, NZ, NZ, ONE],
            [PZ, NZ, NZ, PZ],
        ),
        cmp2(
            Max,
            SignedZero,
            "-0 > +0 is false, so src1 is chosen",
            [NZ, PZ, NZ, NZ],
            [PZ, NZ, NZ, 0xBF80_0000],
            [PZ, NZ, NZ, NZ],
        ),
        cmp2(
            Min,
            Infinity,
            "infinities",
            [PINF, NINF, MAXF, PINF],
            [ONE, ONE, PINF, PINF],
            [ONE, NINF, MAXF, PINF],
        ),
        cmp2(
            Max,
            Infinity,
            "infinities",
            [PINF, NINF, MAXF, NINF],
            [ONE, ONE, PINF, NINF],
            [PINF, ONE, PINF, NINF],
        ),
        cmp2(
            Min,
            Nan,
            "comparison with NaN is false: src1 chosen, NaN bits kept",
            [QNAN, ONE, XNAN, ONE],
            [ONE, XNAN, ONE, SNAN],
            [ONE, XNAN, ONE, SNAN],
        ),
        cmp2(
            Max,
            Nan,
            "comparison with NaN is false: src1 chosen, NaN bits kept",
            [QNAN, ONE, XNAN, ONE],
            [ONE, XNAN, ONE, SNAN],
            [ONE, XNAN, ONE, SNAN],
        ),
        cmp2(
            Min,
            Subnormal,
            "a chosen subnormal becomes signed zero",
            [NSUB, SUB, SUB, MINN],
            [ONE, 0xBF80_0000, NSUB, SUB],
            [NZ, 0xBF80_0000, NZ, PZ],
        ),
        cmp2(
            Max,
            Subnormal,
            "a chosen subnormal becomes signed zero",
            [SUB, NSUB, SUB, MINN],
            [0xBF80_0000, ONE, NSUB, SUB],
            [PZ, ONE, NZ, MINN],
        ),
    ]
}

/// A three-operand vector with its expected bits.
fn sel3(
    op: Opcode,
    class: Class,
    note: &'static str,
    a: [u32; 4],
    b: [u32; 4],
    c: [u32; 4],
    want: [u32; 4],
) -> Vector {
    Vector::new(op, class, note).src(a).src(b).src(c).bits(want)
}

/// The selects' second and third operands: values that tell which one was chosen.
fn choices() -> ([u32; 4], [u32; 4]) {
    (fl([1.0, 1.5, 1.25, 1.75]), fl([2.0, 2.5, 2.25, 2.75]))
}

/// Per component, the second operand of [`choices`] where `m`, else the third.
fn chosen(m: [bool; 4]) -> [u32; 4] {
    let (one4, two4) = choices();
    std::array::from_fn(|i| if m[i] { one4[i] } else { two4[i] })
}

/// CMP: src0 < 0 ? src1 : src2, a select (NaN and -0 are not below zero).
fn cmp() -> Vec<Vector> {
    let (one4, two4) = choices();
    vec![
        sel3(
            Cmp,
            Ordinary,
            "src0 < 0 ? src1 : src2",
            fl([-1.0, 1.0, -0.5, 3.0]),
            one4,
            two4,
            chosen([true, false, true, false]),
        ),
        sel3(
            Cmp,
            Rounding,
            "tiny negative normal selects src1",
            [0x8080_0000, 0x0080_0000, 0xB380_0000, 0x3380_0000],
            one4,
            two4,
            chosen([true, false, true, false]),
        ),
        sel3(
            Cmp,
            SignedZero,
            "-0 is not < 0; chosen -0 kept",
            [NZ, PZ, 0xBF80_0000, NZ],
            [ONE, ONE, NZ, ONE],
            [NZ, NZ, ONE, PZ],
            [NZ, NZ, NZ, PZ],
        ),
        sel3(
            Cmp,
            Infinity,
            "-inf selects src1; chosen inf kept",
            [NINF, PINF, NINF, PINF],
            [PINF, ONE, NINF, ONE],
            [ONE, NINF, ONE, PINF],
            [PINF, NINF, NINF, PINF],
        ),
        sel3(
            Cmp,
            Nan,
            "NaN condition selects src2; chosen NaN bits kept",
            [QNAN, XNAN, 0xBF80_0000, ONE],
            [ONE, ONE, XNAN, ONE],
            [SNAN, 0x4000_0000, ONE, QNAN],
            [SNAN, 0x4000_0000, XNAN, QNAN],
        ),
        sel3(
            Cmp,
            Subnormal,
            "-subnormal condition is -0 (src2); chosen subnormal becomes signed zero",
            [NSUB, 0xBF80_0000, ONE, NSUB],
            [ONE, NSUB, ONE, ONE],
            [SUB, ONE, NSUB, 0x4000_0000],
            [PZ, NZ, NZ, 0x4000_0000],
        ),
    ]
}

/// CND: src2 > 0.5 ? src0 : src1, a select.
fn cnd() -> Vec<Vector> {
    let (one4, two4) = choices();
    vec![
        sel3(
            Cnd,
            Ordinary,
            "src2 > 0.5 ? src0 : src1",
            one4,
            two4,
            fl([1.0, 0.5, 0.75, -1.0]),
            chosen([true, false, true, false]),
        ),
        sel3(
            Cnd,
            Rounding,
            "one ULP either side of 0.5",
            one4,
            two4,
            [0x3F00_0001, 0x3EFF_FFFF, 0x3F00_0000, 0x3F00_0001],
            chosen([true, false, false, true]),
        ),
        sel3(
            Cnd,
            SignedZero,
            "chosen -0 kept",
            [NZ, NZ, PZ, NZ],
            [PZ, ONE, NZ, PZ],
            [ONE, ONE, PZ, NZ],
            [NZ, NZ, NZ, PZ],
        ),
        sel3(
            Cnd,
            Infinity,
            "inf condition selects src0",
            [PINF, NINF, ONE, ONE],
            [ONE, ONE, NINF, PINF],
            [PINF, PINF, NINF, PZ],
            [PINF, NINF, NINF, PINF],
        ),
        sel3(
            Cnd,
            Nan,
            "NaN condition selects src1; chosen NaN bits kept",
            [ONE, XNAN, ONE, ONE],
            [XNAN, ONE, 0x4000_0000, ONE],
            [QNAN, ONE, SNAN, ONE],
            [XNAN, XNAN, 0x4000_0000, ONE],
        ),
        sel3(
            Cnd,
            Subnormal,
            "chosen subnormal becomes signed zero",
            [NSUB, ONE, SUB, ONE],
            [ONE, NSUB, ONE, ONE],
            [ONE, PZ, ONE, SUB],
            [NZ, NZ, PZ, ONE],
        ),
    ]
}

/// CLAMP: (x < lo) ? lo : (x > hi) ? hi : x, two selects (a NaN x is kept; Mesa differs when lo > hi).
fn clamp() -> Vec<Vector> {
    vec![
        sel3(
            Clamp,
            Ordinary,
            "(x < lo) ? lo : (x > hi) ? hi : x",
            fl([0.5, -1.0, 3.0, 1.0]),
            fl([0.0, 0.0, 0.0, 1.0]),
            fl([1.0, 1.0, 2.0, 2.0]),
            fl([0.5, 0.0, 2.0, 1.0]),
        ),
        sel3(
            Clamp,
            Ordinary,
            "lo above hi: lo when x < lo, else hi when x > hi (Mesa's min(max()) gives hi)",
            fl([0.5, 3.0, 1.5, -1.0]),
            fl([1.0, 1.0, 2.0, 0.0]),
            fl([0.0, 2.0, 1.0, -2.0]),
            fl([1.0, 2.0, 2.0, 0.0]),
        ),
        sel3(
            Clamp,
            Rounding,
            "one ULP outside the bounds",
            [0x3F80_0001, 0xB380_0000, 0x3F7F_FFFF, ONE],
            x4(PZ),
            x4(ONE),
            [ONE, PZ, 0x3F7F_FFFF, ONE],
        ),
        sel3(
            Clamp,
            SignedZero,
            "-0 and +0 compare equal: x's bits are kept",
            [NZ, PZ, NZ, NZ],
            [PZ, NZ, NZ, NZ],
            [ONE, ONE, PZ, NZ],
            [NZ, PZ, NZ, NZ],
        ),
        sel3(
            Clamp,
            Infinity,
            "infinite values and bounds",
            [PINF, NINF, ONE, ONE],
            [PZ, PZ, NINF, NINF],
            [ONE, ONE, PINF, NINF],
            [ONE, PZ, ONE, NINF],
        ),
        sel3(
            Clamp,
            Nan,
            "NaN x compares false twice and is kept; a NaN bound is never chosen",
            [QNAN, ONE, ONE, 0x4000_0000],
            [PZ, XNAN, PZ, PZ],
            [ONE, ONE, XNAN, ONE],
            [QNAN, ONE, ONE, ONE],
        ),
        sel3(
            Clamp,
            Subnormal,
            "chosen subnormal becomes signed zero",
            [NSUB, SUB, ONE, ONE],
            [0xBF80_0000, PZ, NSUB, PZ],
            [ONE, ONE, ONE, SUB],
            [NZ, PZ, ONE, PZ],
        ),
    ]
}

fn cmp_cnd_clamp() -> Vec<Vector> {
    [cmp(), cnd(), clamp()].concat()
}

fn moves() -> Vec<Vector> {
    let mv = |op, class, note, a: [u32; 4], want: [u32; 4]| {
        Vector::new(op, class, note).src(a).bits(want)
    };
    let ext = |select: [ExtSel; 4], negate: [bool; 4]| ExtSwizzle {
        select,
        negate,
        divide: ExtSel::One,
    };
    use ExtSel::{One as E1, Zero as E0, W as EW, X as EX, Y as EY, Z as EZ};
    let id = ext([EX, EY, EZ, EW], [false; 4]);
    vec![
        mv(
            Mov,
            Ordinary,
            "bits moved",
            fl([1.0, -2.0, 0.1, 1e30]),
            fl([1.0, -2.0, 0.1, 1e30]),
        ),
        Vector::new(Mov, Ordinary, "swizzle .wzyx")
            .src(fl([1.0, 2.0, 3.0, 4.0]))
            .swizzle([3, 2, 1, 0])
            .bits(fl([4.0, 3.0, 2.0, 1.0])),
        Vector::new(Mov, Ordinary, "integer bits are not touched")
            .src([0xDEAD_BEEF, 0x0000_0001, 0xFFFF_FFFF, 0x8000_0000])
            .bits([0xDEAD_BEEF, 0x0000_0001, 0xFFFF_FFFF, 0x8000_0000]),
        mv(
            Mov,
            SignedZero,
            "-0 kept",
            [NZ, PZ, NZ, PZ],
            [NZ, PZ, NZ, PZ],
        ),
        Vector::new(Mov, SignedZero, "negate flips the sign of zero; |-0| = +0")
            .src([PZ, NZ, PZ, NZ])
            .negate()
            .bits([NZ, PZ, NZ, PZ]),
        Vector::new(Mov, SignedZero, "absolute clears the sign")
            .src([NZ, PZ, 0xBF80_0000, NZ])
            .abs()
            .bits([PZ, PZ, ONE, PZ]),
        mv(
            Mov,
            Infinity,
            "infinities kept",
            [PINF, NINF, MAXF, 0xFF7F_FFFF],
            [PINF, NINF, MAXF, 0xFF7F_FFFF],
        ),
        mv(
            Mov,
            Nan,
            "NaN payloads kept",
            [QNAN, XNAN, SNAN, 0x7FFF_FFFF],
            [QNAN, XNAN, SNAN, 0x7FFF_FFFF],
        ),
        Vector::new(Mov, Nan, "-|x| on NaN only sets the sign bit")
            .src([QNAN, XNAN, SNAN, 0x7FFF_FFFF])
            .abs()
            .negate()
            .bits([0xFFC0_0000, XNAN, 0xFF80_0001, 0xFFFF_FFFF]),
        mv(
            Mov,
            Subnormal,
            "subnormals kept",
            [SUB, NSUB, 0x0040_0000, 0x8000_0001],
            [SUB, NSUB, 0x0040_0000, 0x8000_0001],
        ),
        Vector::new(Mov, Subnormal, "negate keeps a subnormal")
            .src([SUB, NSUB, 0x0040_0000, 0x8000_0001])
            .negate()
            .bits([0x8000_0001, 0x007F_FFFF, 0x8040_0000, 0x0000_0001]),
        Vector::new(Swz, Ordinary, "(x, 0, 1, -w)")
            .src(fl([1.0, 2.0, 3.0, 4.0]))
            .ext_swizzle(ext([EX, E0, E1, EW], [false, false, false, true]))
            .bits(fl([1.0, 0.0, 1.0, -4.0])),
        Vector::new(Swz, Ordinary, "(-0 literal, -1 literal, z, y)")
            .src(fl([1.0, 2.0, 3.0, 4.0]))
            .ext_swizzle(ext([E0, E1, EZ, EY], [true, true, false, false]))
            .bits([NZ, 0xBF80_0000, 0x4040_0000, 0x4000_0000]),
        Vector::new(Swz, SignedZero, "-0 kept, negated +0 is -0")
            .src([NZ, PZ, NZ, PZ])
            .ext_swizzle(ext([EX, EY, EZ, EW], [false, true, true, false]))
            .bits([NZ, NZ, PZ, PZ]),
        Vector::new(Swz, Infinity, "infinities kept")
            .src([PINF, NINF, MAXF, ONE])
            .ext_swizzle(id)
            .bits([PINF, NINF, MAXF, ONE]),
        Vector::new(Swz, Nan, "NaN payloads kept")
            .src([QNAN, XNAN, SNAN, ONE])
            .ext_swizzle(id)
            .bits([QNAN, XNAN, SNAN, ONE]),
        Vector::new(Swz, Subnormal, "subnormals kept")
            .src([SUB, NSUB, ONE, ONE])
            .ext_swizzle(id)
            .bits([SUB, NSUB, ONE, ONE]),
    ]
}

/// The vectors of this family.
pub fn vectors() -> Vec<Vector> {
    let mut v = compares();
    v.extend(min_max());
    v.extend(cmp_cnd_clamp());
    v.extend(moves());
    v
}

//! Address opcodes: ARL (floor), ARR (round half to even), ARA (pairwise wrapping sums) and the
//! address stack PUSHA / POPA. Expected bits are the int32 values `ADDR[0]` must hold; the harness
//! observes them through indirect reads (values beyond the address table read 0).

use super::{fl, Class, Shape, Vector, MAXF, NINF, NSUB, NZ, PINF, PZ, QNAN, SUB, XNAN};
use microcode::tgsi::Opcode;
use Class::*;
use Opcode::*;

fn a(op: Opcode, class: Class, note: &'static str, x: [u32; 4], want: [i32; 4]) -> Vector {
    Vector::new(op, class, note)
        .shape(Shape::Address)
        .src(x)
        .bits(want.map(|v| v as u32))
}

fn arl_arr() -> Vec<Vector> {
    let (min, max) = (i32::MIN, i32::MAX);
    vec![
        a(
            Arl,
            Ordinary,
            "floor",
            fl([2.7, -2.5, 3.0, 0.2]),
            [2, -3, 3, 0],
        ),
        a(
            Arl,
            Rounding,
            "just below integers",
            fl([0.999_999_94, -0.000_001, 5.999_999_5, -4.000_000_5]),
            [0, -1, 5, -5],
        ),
        a(Arl, SignedZero, "-0 gives 0", [NZ, PZ, NZ, PZ], [0; 4]),
        a(
            Arl,
            Infinity,
            "infinities saturate",
            [PINF, NINF, MAXF, 0xFF7F_FFFF],
            [max, min, max, min],
        ),
        a(Arl, Nan, "NaN gives 0", [QNAN, XNAN, QNAN, XNAN], [0; 4]),
        a(
            Arl,
            Subnormal,
            "-subnormal is -0: 0, not -1",
            [SUB, NSUB, 0x8000_0001, NSUB],
            [0; 4],
        ),
        a(
            Arl,
            IntSign,
            "negative addresses",
            fl([-1.0, -7.5, -16.0, -0.5]),
            [-1, -8, -16, -1],
        ),
        a(
            Arl,
            IntOverflow,
            "beyond int32 saturates",
            fl([3e9, -3e9, 2_147_483_648.0, -2_147_483_904.0]),
            [max, min, max, min],
        ),
        a(
            Arr,
            Ordinary,
            "nearest",
            fl([2.7, -2.4, 3.0, 0.2]),
            [3, -2, 3, 0],
        ),
        a(
            Arr,
            Rounding,
            "halves go to even",
            fl([0.5, 1.5, 2.5, -2.5]),
            [0, 2, 2, -2],
        ),
        a(
            Arr,
            Rounding,
            "halves go to even (more)",
            fl([-0.5, -1.5, 3.5, 7.5]),
            [0, -2, 4, 8],
        ),
        a(Arr, SignedZero, "-0 gives 0", [NZ, PZ, NZ, PZ], [0; 4]),
        a(
            Arr,
            Infinity,
            "infinities saturate",
            [PINF, NINF, MAXF, 0xFF7F_FFFF],
            [max, min, max, min],
        ),
        a(Arr, Nan, "NaN gives 0", [QNAN, XNAN, QNAN, XNAN], [0; 4]),
        a(
            Arr,
            Subnormal,
            "subnormals give 0",
            [SUB, NSUB, 0x8000_0001, 0x0040_0000],
            [0; 4],
        ),
        a(
            Arr,
            IntSign,
            "negative addresses",
            fl([-1.0, -7.6, -16.0, -0.6]),
            [-1, -8, -16, -1],
        ),
        a(
            Arr,
            IntOverflow,
            "beyond int32 saturates",
            fl([3e9, -3e9, 2_147_483_648.0, -2_147_483_904.0]),
            [max, min, max, min],
        ),
    ]
}

fn ara_stack() -> Vec<Vector> {
    let i = |v: [i32; 4]| v.map(|x| x as u32);
    let ara = |class, note, x: [i32; 4]| {
        let (s, t) = (x[0].wrapping_add(x[2]), x[1].wrapping_add(x[3]));
        Vector::new(Ara, class, note)
            .shape(Shape::Address)
            .src(i(x))
            .bits(i([s, t, s, t]))
    };
    let stack = |op, class, note, x: [i32; 4]| {
        Vector::new(op, class, note)
            .shape(Shape::PushPop)
            .src(i(x))
            .bits(i(x))
    };
    let mut v = vec![
        ara(Ordinary, "(x+z, y+w, x+z, y+w)", [1, 2, 3, 4]),
        ara(IntSign, "negative components", [-5, 7, 2, -9]),
        ara(
            IntOverflow,
            "MAX + MAX wraps to -2, MIN + MIN to 0",
            [i32::MAX, i32::MIN, i32::MAX, i32::MIN],
        ),
        ara(
            IntOverflow,
            "MAX + 1 wraps to MIN (beyond the table)",
            [i32::MAX, -1, 1, 2],
        ),
    ];
    for op in [Pusha, Popa] {
        v.push(stack(
            op,
            Ordinary,
            "push then pop returns the vector",
            [1, 2, 3, 4],
        ));
        v.push(stack(op, IntSign, "negative values", [-1, -16, 5, -3]));
        v.push(stack(
            op,
            IntOverflow,
            "the ends of the range (beyond the table read 0)",
            [i32::MIN, i32::MAX, -16, 16],
        ));
    }
    v
}

/// The vectors of this family.
pub fn vectors() -> Vec<Vector> {
    let mut v = arl_arr();
    v.extend(ara_stack());
    v
}

//! The later-Mesa opcodes the corpus needs: UCMP UADD IMUL_HI UMUL_HI (`decisions.md` section 1)
//! and F2U UMUL (ARCHITECTURE.md, "Where decisions.md is silent"). Products come from host u64 /
//! i64 arithmetic written here, everything else is literal bits.

use super::{fl, Class, Vector, MAXF, MINN, NINF, NSUB, NZ, ONE, PINF, PZ, QNAN, SNAN, SUB, XNAN};
use microcode::tgsi::{Opcode, Saturate};
use Class::*;
use Opcode::*;

const MIN: u32 = 0x8000_0000;
const MAX: u32 = 0x7FFF_FFFF;
const M1: u32 = 0xFFFF_FFFF;

fn i(v: [i32; 4]) -> [u32; 4] {
    v.map(|x| x as u32)
}

/// A two-source vector whose expectation is `f` on each component.
fn product(
    op: Opcode,
    class: Class,
    note: &'static str,
    a: [u32; 4],
    b: [u32; 4],
    f: fn(u32, u32) -> u32,
) -> Vector {
    Vector::new(op, class, note)
        .src(a)
        .src(b)
        .bits(std::array::from_fn(|c| f(a[c], b[c])))
}

fn umul(a: u32, b: u32) -> u32 {
    (u64::from(a) * u64::from(b)) as u32
}

fn umul_hi(a: u32, b: u32) -> u32 {
    ((u64::from(a) * u64::from(b)) >> 32) as u32
}

fn imul_hi(a: u32, b: u32) -> u32 {
    ((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32
}

fn products() -> Vec<Vector> {
    vec![
        product(
            Umul,
            Ordinary,
            "small products",
            [3, 1000, 0xFFFF, 12345],
            [5, 1000, 0x1_0001, 6789],
            umul,
        ),
        product(
            Umul,
            IntSign,
            "negative operands: the low word of the signed product",
            i([-1, -2, -3, 7]),
            i([1, -3, -5, -9]),
            umul,
        ),
        product(
            Umul,
            IntOverflow,
            "wrap-around: (2^32-1)^2 = 1, 2^31 * 2 = 0, 2^16 * 2^16 = 0",
            [M1, MIN, 0x1_0000, 0xFFFF],
            [M1, 2, 0x1_0000, 0x1_0001],
            umul,
        ),
        product(
            Umul,
            IntOverflow,
            "carries across the 11-bit limbs, 0 and 1",
            [0x003F_FFFF, 0x7FF, 0, 1],
            [0x003F_FFFF, 0xFFFF_F801, M1, M1],
            umul,
        ),
        Vector::new(Umul, IntSign, "integer negate and absolute modifiers")
            .src(i([5, -5, i32::MIN, 3]))
            .abs()
            .src(i([-7, 7, 3, i32::MIN]))
            .negate()
            .bits(i([35, -35, i32::MIN, i32::MIN])),
        product(
            UmulHi,
            Ordinary,
            "4 * 2^30 = 2^32 (vert-umul_hi.sh) and ordinary words",
            [4, 0x1_0000, 3, 0x1234_5678],
            [0x4000_0000, 0x1_0000, 5, 0x9ABC_DEF0],
            umul_hi,
        ),
        product(
            UmulHi,
            IntSign,
            "sign bits read as 2^31",
            [M1, MIN, 0xFFFF_FFFE, 0x8000_0001],
            [2, M1, M1, 0x8000_0001],
            umul_hi,
        ),
        product(
            UmulHi,
            IntOverflow,
            "the largest product, 0 and 1",
            [M1, 0, 1, M1],
            [M1, M1, M1, 1],
            umul_hi,
        ),
        product(
            UmulHi,
            IntOverflow,
            "carries out of every column",
            [0xFFFF_F800, 0x003F_FFFF, 0xFFC0_07FF, 0x7FFF_FFFF],
            [0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFC0_07FF, 0x8000_0001],
            umul_hi,
        ),
        product(
            ImulHi,
            Ordinary,
            "positive products",
            [4, 0x1_0000, 3, 0x1234_5678],
            [0x4000_0000, 0x1_0000, 5, 0x1234],
            imul_hi,
        ),
        product(
            ImulHi,
            IntSign,
            "-2^31 * 2 = -2^32 (vert-imul_hi.sh), -1 * -1, small negatives",
            i([i32::MIN, -1, -5, 7]),
            i([2, -1, 3, -9]),
            imul_hi,
        ),
        product(
            ImulHi,
            IntOverflow,
            "the ends of the range: (-2^31)^2 = 2^62",
            i([i32::MIN, i32::MIN, i32::MAX, i32::MAX]),
            i([i32::MIN, i32::MAX, i32::MAX, -1]),
            imul_hi,
        ),
        // |(-2^31, -3, 5, -1)| = (-2^31, 3, 5, 1) (wrapping), -(-2, 2^30, -2^30, -2^31) =
        // (2, -2^30, 2^30, -2^31): products -2^32, -3 * 2^30, 5 * 2^30, -2^31; high words
        // floor(p / 2^32) = -1, -1, 1, -1.
        Vector::new(
            ImulHi,
            IntSign,
            "integer absolute and negate: |-2^31| wraps",
        )
        .src(i([i32::MIN, -3, 5, -1]))
        .abs()
        .src(i([-2, 0x4000_0000, -0x4000_0000, i32::MIN]))
        .negate()
        .bits(i([-1, -1, 1, -1])),
    ]
}

fn uadd() -> Vec<Vector> {
    let add =
        |class, note, a: [u32; 4], b: [u32; 4]| product(Uadd, class, note, a, b, u32::wrapping_add);
    vec![
        add(
            Ordinary,
            "sums; 0.5 + 1 on the bits (vert-uadd.sh)",
            [1, 2, 3, 0x3F00_0000],
            [1, 5, 7, 1],
        ),
        add(
            IntSign,
            "negative operands",
            i([-1, -5, 5, i32::MIN]),
            i([1, -5, -10, 1]),
        ),
        add(
            IntOverflow,
            "wrap-around",
            [M1, MAX, MIN, M1],
            [1, 1, M1, M1],
        ),
        Vector::new(Uadd, IntSign, "integer negate modifier")
            .src([10, 0, MIN, 5])
            .src([3, 1, 1, M1])
            .negate()
            .bits([7, M1, MAX, 6]),
    ]
}

fn f2u() -> Vec<Vector> {
    let f2u =
        |class, note, a: [u32; 4], want: [u32; 4]| Vector::new(F2u, class, note).src(a).bits(want);
    vec![
        f2u(
            Ordinary,
            "integral and fractional values",
            fl([1.0, 2.5, 100.75, 16_777_216.0]),
            [1, 2, 100, 16_777_216],
        ),
        f2u(
            SignedZero,
            "zeros and values between -1 and 1",
            [PZ, NZ, 0x3F00_0000, 0xBF00_0000],
            [0; 4],
        ),
        f2u(
            Infinity,
            "+inf and the largest float saturate, -inf gives 0",
            [PINF, NINF, MAXF, MAXF | MIN],
            [M1, 0, M1, 0],
        ),
        f2u(Nan, "NaN gives 0", [QNAN, XNAN, SNAN, M1], [0; 4]),
        f2u(
            Subnormal,
            "subnormals read as zero; the smallest normal truncates to 0",
            [SUB, NSUB, 0x007F_FFFF, MINN],
            [0; 4],
        ),
        f2u(
            Rounding,
            "truncation toward zero, never rounding up",
            [0x3F7F_FFFF, 0x3FFF_FFFF, 0x4039_999A, 0x4AFF_FFFF],
            [0, 1, 2, 8_388_607],
        ),
        f2u(
            IntSign,
            "negative values give 0",
            fl([-1.0, -2_147_483_648.0, -1e10, -0.999]),
            [0; 4],
        ),
        f2u(
            IntOverflow,
            "2^31 - 128, 2^31, 2^32 - 256 exactly; 2^32 saturates",
            [0x4EFF_FFFF, 0x4F00_0000, 0x4F7F_FFFF, 0x4F80_0000],
            [0x7FFF_FF80, MIN, 0xFFFF_FF00, M1],
        ),
        Vector::new(F2u, IntSign, "float negate and absolute modifiers")
            .src(fl([-3.5, 3.5, -7.0, 2.0]))
            .negate()
            .bits([3, 0, 7, 0]),
        Vector::new(F2u, IntSign, "-|x| gives 0")
            .src(fl([-3.5, 3.5, 1e9, 0.0]))
            .abs()
            .negate()
            .bits([0; 4]),
    ]
}

fn ucmp() -> Vec<Vector> {
    let sel = |class, note, c: [u32; 4], a: [u32; 4], b: [u32; 4], want: [u32; 4]| {
        Vector::new(Ucmp, class, note)
            .src(c)
            .src(a)
            .src(b)
            .bits(want)
    };
    let (a, b) = (fl([1.0, 2.0, 3.0, 4.0]), fl([5.0, 6.0, 7.0, 8.0]));
    vec![
        sel(
            Ordinary,
            "non-zero bits take src1 (frag-ucmp.sh's 1 and 0)",
            [1, 0, M1, 0],
            a,
            b,
            fl([1.0, 6.0, 3.0, 8.0]),
        ),
        sel(
            SignedZero,
            "-0.0 is non-zero bits; zeros are selected with their sign",
            [NZ, PZ, NZ, PZ],
            [NZ, PZ, PZ, NZ],
            [PZ, NZ, NZ, NZ],
            [NZ, NZ, PZ, NZ],
        ),
        sel(
            Infinity,
            "infinities as conditions and as chosen bits",
            [PINF, NINF, 0, 0],
            [PINF, NINF, ONE, ONE],
            [ONE, ONE, PINF, NINF],
            [PINF, NINF, PINF, NINF],
        ),
        sel(
            Nan,
            "NaN conditions are non-zero; NaN payloads are kept",
            [QNAN, XNAN, 0, SNAN],
            [XNAN, SNAN, ONE, QNAN],
            [ONE, ONE, XNAN, ONE],
            [XNAN, SNAN, XNAN, QNAN],
        ),
        sel(
            Subnormal,
            "subnormal conditions are non-zero; chosen subnormals are kept",
            [SUB, NSUB, 0, SUB],
            [NSUB, SUB, ONE, SUB],
            [ONE, ONE, NSUB, ONE],
            [NSUB, SUB, NSUB, SUB],
        ),
        Vector::new(
            Ucmp,
            SignedZero,
            "modifiers act on the sign bit: -(-0.0) is zero bits",
        )
        .src([NZ, PZ, NZ, 1])
        .negate()
        .src(a)
        .src(b)
        .negate()
        .bits([b[0] | MIN, a[1], b[2] | MIN, a[3]]),
        Vector::new(
            Ucmp,
            Ordinary,
            "saturate clamps the chosen value as a float",
        )
        .src([1, 0, 1, 0])
        .src(fl([2.0, 0.5, -3.0, 0.0]))
        .src([ONE, QNAN, ONE, NZ])
        .sat(Saturate::ZeroOne)
        .bits([ONE, PZ, PZ, PZ]),
    ]
}

/// The vectors of this family.
pub fn vectors() -> Vec<Vector> {
    let mut v = products();
    v.extend(uadd());
    v.extend(f2u());
    v.extend(ucmp());
    v
}

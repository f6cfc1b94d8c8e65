//! Integer opcodes: I2F NOT SHL SHR AND OR XOR MOD SAD (two's complement, wrapping).

use super::oracle::result;
use super::{Class, Vector};
use microcode::tgsi::Opcode;
use Class::*;
use Opcode::*;

const MIN: u32 = 0x8000_0000;
const MAX: u32 = 0x7FFF_FFFF;
const M1: u32 = 0xFFFF_FFFF;

fn i(v: [i32; 4]) -> [u32; 4] {
    v.map(|x| x as u32)
}

fn v2(
    op: Opcode,
    class: Class,
    note: &'static str,
    a: [u32; 4],
    b: [u32; 4],
    want: [u32; 4],
) -> Vector {
    Vector::new(op, class, note).src(a).src(b).bits(want)
}

fn conversions_and_logic() -> Vec<Vector> {
    let i2f = |class, note, a: [i32; 4]| {
        Vector::new(I2f, class, note)
            .src(i(a))
            .bits(a.map(|x| result(f64::from(x))))
    };
    let not = |class, note, a: [u32; 4]| Vector::new(Not, class, note).src(a).bits(a.map(|x| !x));
    vec![
        i2f(Ordinary, "small integers", [0, 1, 7, 1000]),
        Vector::new(I2f, Ordinary, "0 converts to +0")
            .src([0; 4])
            .bits([0; 4]),
        i2f(IntSign, "negative integers", [-1, -7, -1000, -16_777_216]),
        i2f(
            Rounding,
            "beyond 2^24: nearest-even",
            [16_777_217, 16_777_219, -16_777_217, 123_456_789],
        ),
        i2f(
            IntOverflow,
            "the ends of the range",
            [i32::MIN, i32::MAX, i32::MIN + 1, i32::MAX - 64],
        ),
        Vector::new(I2f, IntSign, "integer negate and absolute modifiers")
            .src(i([5, -5, i32::MIN, 0]))
            .abs()
            .negate()
            .bits([-5.0f32, -5.0, -2_147_483_648.0, 0.0].map(f32::to_bits)),
        not(
            Ordinary,
            "bitwise complement",
            [0, 0x0F0F_0F0F, 0x1234_5678, 1],
        ),
        not(IntSign, "sign bit", [M1, MIN, 0x8000_0001, 0xFFFF_FFFE]),
        not(IntOverflow, "the ends of the range", [MAX, MIN, 0, M1]),
        v2(
            And,
            Ordinary,
            "bitwise and",
            [0xFF00_FF00, 0x1234_5678, 0, 0xF0F0_F0F0],
            [0x0FF0_0FF0, M1, M1, 0x0F0F_0F0F],
            [0x0F00_0F00, 0x1234_5678, 0, 0],
        ),
        v2(
            And,
            IntSign,
            "negative operands",
            i([-1, -2, -256, i32::MIN]),
            i([5, -3, 0x7FFF, -1]),
            i([5, -4, 0x7F00, i32::MIN]),
        ),
        v2(
            And,
            IntOverflow,
            "MIN and MAX",
            [MIN, MAX, MIN, M1],
            [MAX, MAX, MIN, MIN],
            [0, MAX, MIN, MIN],
        ),
        Vector::new(And, IntSign, "integer negate modifier: x & -1")
            .src([0x1234_5678; 4])
            .src([1, 1, 2, 0])
            .negate()
            .bits([0x1234_5678, 0x1234_5678, 0x1234_5678, 0]),
        v2(
            Or,
            Ordinary,
            "bitwise or",
            [0xFF00_FF00, 0x1234_5678, 0, 0xF0F0_F0F0],
            [0x0FF0_0FF0, 0, 0, 0x0F0F_0F0F],
            [0xFFF0_FFF0, 0x1234_5678, 0, M1],
        ),
        v2(
            Or,
            IntSign,
            "negative operands",
            i([-1, -2, -256, i32::MIN]),
            i([5, 1, 0xFF, 1]),
            i([-1, -1, -1, i32::MIN + 1]),
        ),
        v2(
            Or,
            IntOverflow,
            "MIN and MAX",
            [MIN, MAX, MIN, 0],
            [MAX, MAX, MIN, MIN],
            [M1, MAX, MIN, MIN],
        ),
        v2(
            Xor,
            Ordinary,
            "bitwise xor",
            [0xFF00_FF00, 0x1234_5678, 0, 0xF0F0_F0F0],
            [0x0FF0_0FF0, 0x1234_5678, 7, 0x0F0F_0F0F],
            [0xF0F0_F0F0, 0, 7, M1],
        ),
        v2(
            Xor,
            IntSign,
            "negative operands",
            i([-1, -2, -256, i32::MIN]),
            i([5, -1, -1, -1]),
            i([-6, 1, 255, i32::MAX]),
        ),
        v2(
            Xor,
            IntOverflow,
            "MIN and MAX",
            [MIN, MAX, MIN, M1],
            [MAX, MAX, MIN, MIN],
            [M1, 0, 0, MAX],
        ),
    ]
}

fn shifts() -> Vec<Vector> {
    vec![
        v2(
            Shl,
            Ordinary,
            "every component by src1.x",
            [1, 3, 0x0000_FFFF, 5],
            [4, 99, 99, 99],
            [16, 48, 0x000F_FFF0, 80],
        ),
        v2(
            Shl,
            IntSign,
            "into and out of the sign bit",
            [1, 0xC000_0000, M1, 0x4000_0001],
            [31, 0, 0, 0],
            [MIN, 0, MIN, MIN],
        ),
        v2(
            Shl,
            IntOverflow,
            "count & 31: 33 shifts by 1, 32 by 0",
            [1, MAX, MIN, 3],
            [33, 0, 0, 0],
            [2, 0xFFFF_FFFE, 0, 6],
        ),
        v2(
            Shl,
            IntOverflow,
            "count 32 shifts by 0",
            [1, MAX, MIN, 3],
            [32, 7, 7, 7],
            [1, MAX, MIN, 3],
        ),
        v2(
            Shr,
            Ordinary,
            "every component by src1.x",
            [16, 48, 0x000F_FFF0, 80],
            [4, 99, 99, 99],
            [1, 3, 0x0000_FFFF, 5],
        ),
        v2(
            Shr,
            IntSign,
            "arithmetic: the sign is copied",
            i([-8, -1, i32::MIN, -7]),
            i([1, 0, 0, 0]),
            i([-4, -1, -1_073_741_824, -4]),
        ),
        v2(
            Shr,
            IntSign,
            "MIN >> 31 = -1",
            [MIN, MAX, M1, 0x4000_0000],
            [31, 0, 0, 0],
            [M1, 0, M1, 0],
        ),
        v2(
            Shr,
            IntOverflow,
            "count & 31: 33 shifts by 1, -1 by 31",
            [MIN, MAX, 4, M1],
            [33, 0, 0, 0],
            [0xC000_0000, 0x3FFF_FFFF, 2, M1],
        ),
        v2(
            Shr,
            IntOverflow,
            "count 0xFFFFFFFF shifts by 31",
            [MIN, MAX, 4, M1],
            [M1, 0, 0, 0],
            [M1, 0, 0, M1],
        ),
    ]
}

fn mod_sad() -> Vec<Vector> {
    let sad = |class, note, a: [i32; 4], b: [i32; 4], c: [i32; 4]| {
        let want: [u32; 4] = std::array::from_fn(|k| {
            a[k].wrapping_sub(b[k]).wrapping_abs().wrapping_add(c[k]) as u32
        });
        Vector::new(Sad, class, note)
            .src(i(a))
            .src(i(b))
            .src(i(c))
            .bits(want)
    };
    vec![
        v2(
            Mod,
            Ordinary,
            "remainders",
            i([7, 9, 100, 5]),
            i([3, 3, 7, 10]),
            i([1, 0, 2, 5]),
        ),
        v2(
            Mod,
            IntSign,
            "the sign of the dividend",
            i([-7, 7, -7, -9]),
            i([3, -3, -3, 3]),
            i([-1, 1, -1, 0]),
        ),
        v2(
            Mod,
            IntOverflow,
            "MIN % -1 = 0; by 0 gives 0xFFFFFFFF",
            i([i32::MIN, 5, i32::MIN, i32::MAX]),
            i([-1, 0, i32::MAX, i32::MIN]),
            [0, M1, M1, MAX],
        ),
        Vector::new(Mod, IntSign, "-|x| % y")
            .src(i([7, -7, 9, 0]))
            .abs()
            .negate()
            .src(i([4, 4, 5, 3]))
            .bits(i([-3, -3, -4, 0])),
        sad(
            Ordinary,
            "|a - b| + c",
            [5, 2, 10, 0],
            [2, 5, 10, 0],
            [1, 1, 0, 7],
        ),
        sad(
            IntSign,
            "negative differences and addends",
            [-5, 5, -5, -1],
            [5, -5, -5, 1],
            [-1, -20, 0, -2],
        ),
        sad(
            IntOverflow,
            "wrapping: MIN - 1, 0 - MIN, MAX + MAX",
            [i32::MIN, 0, i32::MAX, 1],
            [1, i32::MIN, 0, 0],
            [0, 0, i32::MAX, i32::MAX],
        ),
    ]
}

/// The vectors of this family.
pub fn vectors() -> Vec<Vector> {
    let mut v = conversions_and_logic();
    v.extend(shifts());
    v.extend(mod_sad());
    v
}

//! Texture opcodes on Mesa's graw test texture (16x16, nearest, repeat): TEX TXP TXB TXL TXD sample
//! at float coordinates, TXF fetches at integer coordinates, TXQ reports the size. Expectations come
//! from `decisions.md` section 6 computed here: index = floor(u * 16) converted like ARL (NaN 0,
//! saturating), wrapped modulo 16; a non-finite coordinate gives index 0; nearest returns the
//! texel's bits. The texel is (s*255/15, t*255/15, ((s^t)>>2)&1 ? 0 : 128, 255) / 255.

use super::oracle::{operand, r, result};
use super::{fl, x4, Class, Shape, Vector, NINF, NSUB, NZ, ONE, PINF, PZ, QNAN, SUB, XNAN};
use microcode::tgsi::{Opcode, TextureTarget};
use Class::*;
use Opcode::*;

const SIZE: i64 = 16;

/// Texel (s, t) of the graw texture as bits.
fn texel(s: i64, t: i64) -> [u32; 4] {
    let unorm = |b: i64| result(b as f64 / 255.0);
    let blue = if ((s ^ t) >> 2) & 1 == 1 { 0 } else { 128 };
    [unorm(s * 255 / 15), unorm(t * 255 / 15), unorm(blue), ONE]
}

/// Nearest index along one axis for coordinate `u` (given as the value after any TXP division).
fn index(u: f64) -> i64 {
    if !u.is_finite() {
        return 0;
    }
    let p = operand(result(u * SIZE as f64));
    let i = if p.is_nan() {
        0
    } else {
        p.floor().clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i64
    };
    i.rem_euclid(SIZE)
}

/// The texel a 2-D nearest sample at (u, v) returns; coordinates are bits, read as float operands.
fn at(u: u32, v: u32) -> [u32; 4] {
    texel(index(operand(u)), index(operand(v)))
}

fn tex(op: Opcode, class: Class, note: &'static str, coord: [u32; 4]) -> Vector {
    Vector::new(op, class, note)
        .shape(Shape::Texture(TextureTarget::T2D))
        .src(coord)
        .bits(at(coord[0], coord[1]))
}

fn txp(class: Class, note: &'static str, coord: [u32; 4]) -> Vector {
    let w = operand(coord[3]);
    let div = |c: u32| r(operand(c) / w);
    let want = texel(index(div(coord[0])), index(div(coord[1])));
    Vector::new(Txp, class, note)
        .shape(Shape::Texture(TextureTarget::T2D))
        .src(coord)
        .bits(want)
}

/// TXD at `coord` with every derivative `d`: the texel TEX samples there.
fn txd(class: Class, note: &'static str, coord: [u32; 4], d: u32) -> Vector {
    Vector::new(Txd, class, note)
        .shape(Shape::Texture(TextureTarget::T2D))
        .src(coord)
        .src(x4(d))
        .src(x4(d))
        .bits(at(coord[0], coord[1]))
}

/// TEX, TXB (w = bias) and TXL (w = lod): they sample alike on a single-level texture.
fn tex_txb_txl() -> Vec<Vector> {
    let mut v = Vec::new();
    for (op, w) in [(Tex, 0x4120_0000), (Txb, 0xC120_0000), (Txl, 0x4120_0000)] {
        v.extend([
            tex(
                op,
                Ordinary,
                "(0.5, 0.25) is texel (8, 4)",
                [0x3F00_0000, 0x3E80_0000, PZ, w],
            ),
            tex(
                op,
                Ordinary,
                "(0.03, 0.97) is texel (0, 15)",
                fl([0.03, 0.97, 0.0, 3.0]),
            ),
            tex(
                op,
                Rounding,
                "-0.16 floors to -1 and wraps to 15; 16.32 wraps to 0",
                fl([-0.01, 1.02, 0.0, 0.0]),
            ),
            tex(
                op,
                Rounding,
                "just below 1/16 and 1 stay in texels 0 and 15",
                [0x3D7F_FFFF, 0x3F7F_FFFF, PZ, w],
            ),
            tex(op, SignedZero, "-0 is texel 0", [NZ, NZ, NZ, w]),
            tex(
                op,
                Infinity,
                "non-finite coordinates give index 0",
                [PINF, 0x3F00_0000, PZ, w],
            ),
            tex(
                op,
                Infinity,
                "-inf and a lod/bias of inf",
                [NINF, NINF, PZ, PINF],
            ),
            tex(
                op,
                Infinity,
                "1e30 * 16 saturates to 2^31-1 (texel 15); -1e30 to -2^31 (texel 0)",
                fl([1e30, -1e30, 0.0, 0.0]),
            ),
            tex(
                op,
                Nan,
                "NaN coordinates give index 0; NaN lod/bias has no effect",
                [QNAN, XNAN, QNAN, QNAN],
            ),
            tex(
                op,
                Subnormal,
                "-subnormal is -0: texel 0, not 15",
                [NSUB, SUB, PZ, w],
            ),
            tex(
                op,
                Subnormal,
                "a subnormal lod/bias has no effect",
                [0x3F00_0000, 0x3E80_0000, PZ, SUB],
            ),
        ]);
    }
    v
}

/// TXP: the coordinates divided by w, one rounding, then sampled as TEX.
fn projected() -> Vec<Vector> {
    vec![
        txp(
            Ordinary,
            "(1, 0.5) / 2 is texel (8, 4)",
            fl([1.0, 0.5, 0.0, 2.0]),
        ),
        txp(
            Rounding,
            "the division rounds once: 0.1/0.1 = 1 wraps to 0",
            fl([0.1, 0.7, 0.0, 0.1]),
        ),
        txp(
            Rounding,
            "(1/3)/(1/7) and w = 3",
            fl([1.0 / 3.0, 2.0, 0.0, 3.0]),
        ),
        txp(
            SignedZero,
            "-0 / -1 = +0; 0.5 / -1 wraps",
            [NZ, 0x3F00_0000, PZ, 0xBF80_0000],
        ),
        txp(
            Infinity,
            "w = 0 gives infinite coordinates: index 0",
            [ONE, ONE, PZ, PZ],
        ),
        txp(Infinity, "inf / 1", [PINF, 0x3F00_0000, PZ, ONE]),
        txp(Nan, "w = NaN", [0x3F00_0000, 0x3F00_0000, PZ, QNAN]),
        txp(
            Subnormal,
            "a subnormal w is zero: index 0",
            [0x3F00_0000, 0x3E80_0000, PZ, SUB],
        ),
        txp(
            Subnormal,
            "a subnormal coordinate is zero",
            [NSUB, 0x3F00_0000, PZ, ONE],
        ),
    ]
}

/// TXD: the derivatives are read and have no effect (one level, no filtering by footprint).
fn with_derivatives() -> Vec<Vector> {
    vec![
        txd(
            Ordinary,
            "(0.5, 0.25) whatever the derivatives",
            [0x3F00_0000, 0x3E80_0000, PZ, PZ],
            ONE,
        ),
        txd(
            Rounding,
            "negative coordinates wrap",
            fl([-0.01, 1.02, 0.0, 0.0]),
            0x4120_0000,
        ),
        txd(SignedZero, "-0 coordinates and derivatives", x4(NZ), NZ),
        txd(
            Infinity,
            "infinite coordinate and derivatives",
            [PINF, 0x3F00_0000, PZ, PZ],
            PINF,
        ),
        txd(
            Nan,
            "NaN coordinate and derivatives",
            [QNAN, 0x3F00_0000, PZ, PZ],
            QNAN,
        ),
        txd(
            Subnormal,
            "subnormal coordinate and derivatives",
            [NSUB, 0x3F00_0000, PZ, PZ],
            SUB,
        ),
    ]
}

fn sampling() -> Vec<Vector> {
    [tex_txb_txl(), projected(), with_derivatives()].concat()
}

fn fetch_and_query() -> Vec<Vector> {
    let i = |v: [i32; 4]| v.map(|x| x as u32);
    let txf = |class, note, c: [i32; 4], want: [u32; 4]| {
        Vector::new(Txf, class, note)
            .shape(Shape::Texture(TextureTarget::T2D))
            .src(i(c))
            .bits(want)
    };
    let size = [16, 16, 1, 1];
    let txq = |class, note, lod: i32| {
        Vector::new(Txq, class, note)
            .shape(Shape::Texture(TextureTarget::T2D))
            .src(i([lod, 0, 0, 0]))
            .bits(size)
    };
    vec![
        txf(Ordinary, "texel (3, 5)", [3, 5, 0, 0], texel(3, 5)),
        txf(Ordinary, "texel (15, 0)", [15, 0, 0, 0], texel(15, 0)),
        txf(
            Rounding,
            "channels are n/255 correctly rounded: texel (7, 11)",
            [7, 11, 0, 0],
            texel(7, 11),
        ),
        txf(
            IntSign,
            "a negative coordinate is outside: (0, 0, 0, 0)",
            [-1, 2, 0, 0],
            [0; 4],
        ),
        txf(IntOverflow, "16 is just outside", [16, 0, 0, 0], [0; 4]),
        txf(
            IntOverflow,
            "2^31-1 and -2^31 are outside",
            [i32::MAX, i32::MIN, 0, 0],
            [0; 4],
        ),
        txq(Ordinary, "(width, height, depth, levels) of level 0", 0),
        txq(IntSign, "a negative lod reports the same single level", -1),
        txq(IntOverflow, "lod 2^31-1", i32::MAX),
    ]
}

/// The vectors of this family.
pub fn vectors() -> Vec<Vector> {
    let mut v = sampling();
    v.extend(fetch_and_query());
    v
}

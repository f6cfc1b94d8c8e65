//! Proof of meaning for integers: shaders computing with `i32` and `u32` in WGSL and GLSL,
//! translated, rendered on the reference model and on the core model, and compared exactly with
//! the same formulas evaluated here in plain Rust `i32` / `u32` / `f32` arithmetic.
//!
//! Each shader writes four 32-bit results per pixel, each folded to 8 bits as the XOR of its four
//! bytes (`fold`: every single-bit error shows) and written as `fold / 255`, so every channel must
//! match to the byte. Most shaders read a uniform table of 16 edge values (0, +-1, +-2^24 + 1,
//! `i32::MIN`, `i32::MAX`, ...) and combine entry `x` with entry `y` of the 16x16 frame: all 256
//! pairs of edges per operation. The core model runs the board's units (no divider, no multiplier)
//! with room for more than its 256 instructions. `int_fetch` reads a texture at integer
//! coordinates (TXF) and its size (TXQ).

use microcode::compile::compile;
use microcode::core::CoreConfig;
use microcode::tgsi::Program;
use sim::render::{render, Frame};
use sim::run_io::RunInputs;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const W: u32 = 16;
const H: u32 = 16;

/// The uniform table (`edges.v[i / 4][i % 4]` is entry i).
const EDGES: [i32; 16] = [
    0,
    1,
    -1,
    7,
    -7,
    16_777_217,
    -16_777_217,
    i32::MAX,
    i32::MIN,
    123_456_789,
    -987_654_321,
    1 << 30,
    -(1 << 30) - 1,
    65_535,
    2_147_483_520,
    -2,
];

fn shader(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/shaders")
        .join(name)
}

fn program(file: &str) -> Program {
    translate::translate_file(&shader(file), None)
        .unwrap_or_else(|e| panic!("{file}: {e}"))
        .program
}

/// The XOR of the four bytes of x.
fn fold(x: u32) -> u8 {
    (x ^ (x >> 8) ^ (x >> 16) ^ (x >> 24)) as u8
}

/// Renders `p` with `table` in CONST[0..3], on the reference model or the core model.
fn frame(p: &Program, table: &[i32; 16], core: bool) -> Frame {
    frame_with(p, table, core, RunInputs::default())
}

fn frame_with(p: &Program, table: &[i32; 16], core: bool, mut inputs: RunInputs) -> Frame {
    for r in 0..4 {
        let v: [u32; 4] = std::array::from_fn(|c| table[r * 4 + c] as u32);
        inputs.constants.insert((0, r as u32), v);
    }
    // The board's units (no divider: MOD and RCP are integer and multiply-add sequences) with
    // room for programs larger than its 256 instructions and 16 registers.
    let config = CoreConfig {
        registers: 48,
        program_size: 1024,
        ..CoreConfig::default()
    };
    let image = core.then(|| {
        compile(p, &config)
            .unwrap_or_else(|e| panic!("compile: {e}"))
            .image
    });
    render(
        p,
        W,
        H,
        &BTreeMap::new(),
        &mut inputs,
        &mut |i| match &image {
            Some(image) => sim::core_model::run(image, i).map_err(|e| e.to_string()),
            None => sim::reference::run(p, i).map_err(|e| e.to_string()),
        },
        &mut |_, _| {},
    )
    .unwrap_or_else(|e| panic!("render: {e}"))
}

/// Renders `name`.wgsl and `name`.frag on both models; every pixel must be `fold` of the four
/// results `formula` gives for entries (x, y) of the table.
fn check(name: &str, formula: fn(usize, usize) -> [u32; 4]) {
    for ext in ["wgsl", "frag"] {
        let file = format!("{name}.{ext}");
        let p = program(&file);
        for core in [false, true] {
            compare(&file, &p, &EDGES, core, &|x, y| formula(x, y));
        }
    }
}

/// Every pixel of `p` rendered with `table` against `formula`.
fn compare(
    file: &str,
    p: &Program,
    table: &[i32; 16],
    core: bool,
    formula: &dyn Fn(usize, usize) -> [u32; 4],
) {
    let engine = if core {
        "core model"
    } else {
        "reference model"
    };
    let f = frame(p, table, core);
    for y in 0..H as usize {
        for x in 0..W as usize {
            let got = f.pixels[y * W as usize + x];
            let want = formula(x, y).map(fold);
            assert_eq!(
                got, want,
                "{file} on the {engine}: pixel ({x}, {y}) (table entries {}, {})",
                table[x], table[y]
            );
        }
    }
}

fn edges(x: usize, y: usize) -> (i32, i32) {
    (EDGES[x], EDGES[y])
}

/// WGSL's `/` (and naga's rule for the back ends): `a / 0 = a`, `i32::MIN / -1 = i32::MIN`.
fn div_i(a: i32, b: i32) -> i32 {
    if b == 0 {
        a
    } else {
        a.wrapping_div(b)
    }
}

/// WGSL's `%`: `a % 0 = 0`, `i32::MIN % -1 = 0`, the sign of a.
fn rem_i(a: i32, b: i32) -> i32 {
    if b == 0 {
        0
    } else {
        a.wrapping_rem(b)
    }
}

fn div_u(a: u32, b: u32) -> u32 {
    a.checked_div(b).unwrap_or(a)
}

fn rem_u(a: u32, b: u32) -> u32 {
    a.checked_rem(b).unwrap_or(0)
}

/// WGSL's `i32(f)`: clamped to the floats `i32` holds ([-2^31, 2^31 - 128]), truncated.
fn f2i(f: f32) -> i32 {
    f.clamp(-2_147_483_648.0, 2_147_483_520.0) as i32
}

/// WGSL's `u32(f)`: clamped to [0, 2^32 - 256], truncated.
fn f2u(f: f32) -> u32 {
    f.clamp(0.0, 4_294_967_040.0) as u32
}

#[test]
fn bit_operations_and_shifts() {
    check("int_bits", |x, y| {
        let (a, b) = edges(x, y);
        let (ua, ub) = (a as u32, b as u32);
        let s = ub & 31;
        let v = [ua >> 3, ub >> (ua & 31)];
        let w = [(a << 1) as u32, (a << 2) as u32, (b << 3) as u32];
        [
            (ua & ub) | (!ua ^ (ub << 5)),
            (ua >> s) ^ (a >> s) as u32,
            ua.wrapping_shl(3) ^ (ua >> 29) ^ (a >> 7) as u32 ^ (!a) as u32,
            v[0] ^ v[1].rotate_left(16) ^ w[0] ^ w[1] ^ w[2] ^ ((a ^ b) | a) as u32,
        ]
    });
}

#[test]
fn arithmetic_wraps() {
    check("int_arith", |x, y| {
        let (a, b) = edges(x, y);
        let (ua, ub) = (a as u32, b as u32);
        let v = [
            a.wrapping_mul(b).wrapping_add(1),
            b.wrapping_mul(-7).wrapping_add(1),
            (a ^ b).wrapping_mul(65_537).wrapping_add(1),
        ];
        [
            a.wrapping_add(b.wrapping_mul(3))
                .wrapping_sub(a.wrapping_mul(b)) as u32,
            (a.wrapping_neg() as u32) ^ (a.wrapping_sub(b) as u32).rotate_left(8),
            (v[0] ^ v[1] ^ v[2]) as u32,
            ua.wrapping_mul(ub)
                .wrapping_add((ua >> 16).wrapping_mul(0x9E37_79B9))
                .wrapping_sub(ub),
        ]
    });
}

#[test]
fn comparisons_near_overflow() {
    check("int_compare", |x, y| {
        let (a, b) = edges(x, y);
        let (ua, ub) = (a as u32, b as u32);
        let signed = [a < b, a <= b, a > b, a >= b, a == b, a != b];
        let unsigned = [ua < ub, ua <= ub, ua > ub, ua >= ub, ua == ub, ua != ub];
        let constants = [
            a < 5,
            5 < a,
            ua < 3,
            ua >= 0x8000_0000,
            a > -100_000_000,
            ub <= 16_777_216,
            a == -7,
            ua != 65_535,
            true, // a >= i32::MIN
            ua <= 0xFFFF_FFFE,
        ];
        let bits = |c: &[bool]| {
            c.iter()
                .enumerate()
                .fold(0u32, |acc, (k, &t)| acc | (u32::from(t) << k))
        };
        let vectors = [(a < b && b < a) as u32, (a < b || b < a || ua > ub) as u32];
        [
            bits(&signed) | bits(&unsigned) << 8,
            bits(&constants),
            if a < b { ua } else { ub } ^ if ua < ub { ub << 1 } else { ua << 1 },
            vectors[0] | vectors[1] << 1,
        ]
    });
}

#[test]
fn min_max_clamp_abs_sign() {
    check("int_minmax", |x, y| {
        let (a, b) = edges(x, y);
        let (ua, ub) = (a as u32, b as u32);
        [
            (a.min(b) as u32).wrapping_add((a.max(b) as u32).wrapping_mul(7)),
            ua.min(ub) ^ (ua.max(ub) << 1),
            (a.clamp(-1000, 1_000_000) as u32)
                .wrapping_add((a.wrapping_abs() as u32).wrapping_mul(5)),
            (a.signum() as u32) ^ ((b.signum() as u32) << 4) ^ ua.clamp(7, 0x9000_0000),
        ]
    });
}

/// What `int_divide` computes from (a, b).
fn sdiv_formula(a: i32, b: i32) -> [u32; 4] {
    [
        (div_i(a, b) as u32)
            .wrapping_mul(31)
            .wrapping_add(rem_i(a, b) as u32),
        (a / 7) as u32 ^ ((a % -7) as u32).rotate_left(8),
        ((a / -16) as u32).rotate_left(16) ^ (a % 16) as u32 ^ ((a / 3) as u32).wrapping_mul(3),
        (a / i32::MIN) as u32
            ^ ((a % 1000) as u32).rotate_left(8)
            ^ ((a / 65536) as u32).rotate_left(16),
    ]
}

/// What `int_udivide` computes from (a, b).
fn udiv_formula(ua: u32, ub: u32) -> [u32; 4] {
    [
        div_u(ua, ub).wrapping_mul(31).wrapping_add(rem_u(ua, ub)),
        (ua / 10) ^ (ua % 10) << 8,
        (ua / 0x8000_0001) ^ (ua % 1_000_000_007) ^ ((ua / 641) << 3),
        (ua % 0x8000_0001) ^ (ua / 7) ^ ((ua % 7) << 4) ^ (ua / 65536),
    ]
}

#[test]
fn signed_division_and_remainder() {
    check("int_divide", |x, y| {
        let (a, b) = edges(x, y);
        sdiv_formula(a, b)
    });
}

#[test]
fn unsigned_division_and_remainder() {
    check("int_udivide", |x, y| {
        let (a, b) = edges(x, y);
        udiv_formula(a as u32, b as u32)
    });
}

/// The variable divisions (a float estimate corrected once) on tables of random values of every
/// magnitude, signed and unsigned, on the reference model.
#[test]
fn division_by_random_values() {
    let signed = program("int_divide.wgsl");
    let unsigned = program("int_udivide.wgsl");
    let mut rng = microcode::rng::XorShift::new(3);
    for _ in 0..24 {
        let table: [i32; 16] = std::array::from_fn(|_| {
            let v = rng.next_u32();
            (v >> (rng.next_u32() % 32)) as i32 * if rng.next_u32() & 1 == 0 { 1 } else { -1 }
        });
        compare("int_divide.wgsl", &signed, &table, false, &|x, y| {
            let (a, b) = (table[x], table[y]);
            sdiv_formula(a, b)
        });
        compare("int_udivide.wgsl", &unsigned, &table, false, &|x, y| {
            let (ua, ub) = (table[x] as u32, table[y] as u32);
            udiv_formula(ua, ub)
        });
    }
}

#[test]
fn conversions() {
    check("int_convert", |x, y| {
        let (a, b) = edges(x, y);
        let ua = a as u32;
        let f = a as f32 * 1.37 + b as f32;
        [
            f2i(f) as u32 ^ (f2i(-f * 3.0) as u32).rotate_left(8) ^ u32::from(a < b) << 5,
            f2u(f) ^ f2u(f * 0.5).rotate_left(16),
            (a as f32).to_bits() ^ ((a >> 3) as f32).to_bits().rotate_left(4),
            (ua as f32).to_bits() ^ ((ua >> 1) as f32).to_bits().rotate_left(8),
        ]
    });
}

/// The PCG hash of Jarzynski and Olano (2020).
fn pcg(v: u32) -> u32 {
    let state = v.wrapping_mul(747_796_405).wrapping_add(2_891_336_453);
    let word = ((state >> ((state >> 28) + 4)) ^ state).wrapping_mul(277_803_737);
    (word >> 22) ^ word
}

#[test]
fn pcg_hash_noise() {
    check("int_hash", |x, y| {
        let i = x as u32 + y as u32 * 16;
        let h = pcg(i);
        [
            ((h >> 8) as f32 / 16_777_216.0).to_bits(),
            pcg(i ^ 0xDEAD_BEEF),
            pcg(h),
            h,
        ]
    });
}

#[test]
fn xorshift_noise_in_an_integer_loop() {
    check("int_xorshift", |x, y| {
        let mut s = (x as u32)
            .wrapping_mul(0x9E37_79B9)
            .wrapping_add(y as u32 + 1);
        let mut trail = 0u32;
        for i in 0..5u32 {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            trail = trail.wrapping_add(s >> (i * 4));
        }
        let noise = (s >> 9) as f32 / 8_388_608.0;
        [s, trail, noise.to_bits(), (x as u32) << 8 | y as u32]
    });
}

#[test]
fn integer_loop_counters() {
    check("int_counter", |x, y| {
        let n = x as i32;
        let (mut s, mut t) = (0i32, 1u32);
        let mut lanes = [0u32; 4];
        for i in 0..n {
            s += i * i;
            lanes[i as usize % 4] += i as u32 * 7 + 1;
            if i % 3 == 2 {
                continue;
            }
            t = t.wrapping_mul(3).wrapping_add(i as u32);
        }
        let (mut j, mut k) = (y as i32, 0u32);
        loop {
            j -= 3;
            k += 1;
            if j < -5 {
                break;
            }
        }
        let mut down = 0u32;
        let mut m = y as u32;
        while m > 0 {
            down = down.wrapping_mul(5) ^ m;
            m -= 1;
        }
        let packed = lanes[0] ^ lanes[1] << 8 ^ lanes[2] << 16 ^ lanes[3] << 24;
        [s as u32, t, (j as u32) ^ k << 16, down ^ packed]
    });
}

/// The 4x4 texture of `texel_fetch_and_size`: texel (x, y) is ((x + 1) / 8, (y + 1) / 8,
/// (4 x + y) / 16, 1).
fn texel(x: i32, y: i32) -> [f32; 4] {
    [
        (x + 1) as f32 / 8.0,
        (y + 1) as f32 / 8.0,
        (4 * x + y) as f32 / 16.0,
        1.0,
    ]
}

/// textureLoad / texelFetch is TXF at the integer coordinates (0 outside the texture, as the
/// models define it), textureDimensions / textureSize is TXQ.
#[test]
fn texel_fetch_and_size() {
    let texels: Vec<[f32; 4]> = (0..16).map(|i| texel(i % 4, i / 4)).collect();
    let byte = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
    for ext in ["wgsl", "frag"] {
        let file = format!("int_fetch.{ext}");
        let p = program(&file);
        for core in [false, true] {
            let mut inputs = RunInputs::default();
            let t =
                sim::texture::Texture::from_floats(4, 4, 1, sim::texture::Format::Rgba, &texels)
                    .unwrap();
            inputs.textures = vec![Some(Box::new(t))];
            let f = frame_with(&p, &EDGES, core, inputs);
            for y in 0..H as i32 {
                for x in 0..W as i32 {
                    let (px, py) = (x / 4, y / 4);
                    let a = texel(px, py);
                    let (bx, by) = (3 - px, py * 5 - 9);
                    let b = if (0..4).contains(&bx) && (0..4).contains(&by) {
                        texel(bx, by)
                    } else {
                        [0.0; 4]
                    };
                    let want = [a[0], a[1], b[2], 44.0 / 255.0].map(byte);
                    let got = f.pixels[(y * W as i32 + x) as usize];
                    assert_eq!(got, want, "{file} (core model: {core}): pixel ({x}, {y})");
                }
            }
        }
    }
}

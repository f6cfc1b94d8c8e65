//! Proof of meaning: every test shader, in WGSL and in GLSL, translated, rendered on the
//! reference model and compared pixel by pixel with the same formula evaluated here in plain Rust
//! f32 (within 1/255 per channel: the model rounds once per TGSI operation and approximates the
//! transcendental functions within the bounds of `decisions.md`, so a channel may land on the
//! other side of an 8-bit rounding step), and the two languages' renders with each other. The
//! integer shaders (`int_*`) are checked bit-exactly in `integers.rs`.

use microcode::tgsi::Program;
use sim::render::{render, Frame};
use sim::run_io::RunInputs;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const W: u32 = 16;
const H: u32 = 16;

/// What a pixel should be: `None` when the shader discards it.
type Formula = fn(Pixel) -> Option<[f32; 4]>;

/// The inputs of one pixel: `uv` as the renderer interpolates it and the window position.
#[derive(Clone, Copy)]
struct Pixel {
    u: f32,
    v: f32,
    x: u32,
    y: u32,
}

fn uv(x: u32, y: u32) -> (f32, f32) {
    ((x as f32 + 0.5) / W as f32, (y as f32 + 0.5) / H as f32)
}

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

fn frame(p: &Program, constants: &[(u32, [f32; 4])]) -> Frame {
    let mut inputs = RunInputs::default();
    for (n, v) in constants {
        inputs.constants.insert((0, *n), v.map(f32::to_bits));
    }
    render(
        p,
        W,
        H,
        &BTreeMap::new(),
        &mut inputs,
        &mut |i| sim::reference::run(p, i).map_err(|e| e.to_string()),
        &mut |_, _| {},
    )
    .unwrap_or_else(|e| panic!("render: {e}"))
}

fn byte(x: f32) -> i32 {
    if x.is_nan() {
        0
    } else {
        (x.clamp(0.0, 1.0) * 255.0).round() as i32
    }
}

/// Renders `name`.wgsl and `name`.frag, compares both with `formula` and with each other.
fn check(name: &str, constants: &[(u32, [f32; 4])], formula: Formula) {
    let mut frames = Vec::new();
    for ext in ["wgsl", "frag"] {
        let file = format!("{name}.{ext}");
        let f = frame(&program(&file), constants);
        for y in 0..H {
            for x in 0..W {
                let (u, v) = uv(x, y);
                let got = f.pixels[(y * W + x) as usize];
                match formula(Pixel { u, v, x, y }) {
                    None => assert_eq!(got, [0; 4], "{file}: pixel ({x}, {y}) should be discarded"),
                    Some(want) => {
                        for c in 0..4 {
                            let d = (got[c] as i32 - byte(want[c])).abs();
                            assert!(
                                d <= 1,
                                "{file}: pixel ({x}, {y}) channel {c}: rendered {}, formula {} ({})",
                                got[c],
                                byte(want[c]),
                                want[c]
                            );
                        }
                    }
                }
            }
        }
        frames.push(f);
    }
    for (i, (a, b)) in frames[0].pixels.iter().zip(&frames[1].pixels).enumerate() {
        for c in 0..4 {
            assert!(
                (a[c] as i32 - b[c] as i32).abs() <= 1,
                "{name}: WGSL and GLSL differ at pixel {i} channel {c}: {} vs {}",
                a[c],
                b[c]
            );
        }
    }
}

fn fract(x: f32) -> f32 {
    x - x.floor()
}

fn smoothstep(e0: f32, e1: f32, x: f32) -> f32 {
    let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

fn mix(a: f32, b: f32, t: f32) -> f32 {
    a + (b - a) * t
}

#[test]
fn gradient() {
    check("gradient", &[], |p| Some([p.u, p.v, 0.5, 1.0]));
}

#[test]
fn checker() {
    check("checker", &[], |p| {
        let (cx, cy) = ((p.u * 8.0).floor(), (p.v * 8.0).floor());
        let t = if fract((cx + cy) * 0.5) >= 0.5 {
            1.0
        } else {
            0.0
        };
        Some([mix(0.9, 1.0, t), mix(0.35, 1.0, t), mix(0.1, 1.0, t), 1.0])
    });
}

#[test]
fn glow() {
    check("glow", &[], |p| {
        let d = ((p.u - 0.5).powi(2) + (p.v - 0.5).powi(2)).sqrt();
        let c = smoothstep(0.45, 0.05, d);
        Some([c * p.u, c * p.v, c, 1.0])
    });
}

#[test]
fn rings() {
    check("rings", &[], |p| {
        let r = ((p.u - 0.5).powi(2) + (p.v - 0.5).powi(2)).sqrt();
        let s = (r * 40.0).sin() * 0.5 + 0.5;
        Some([s, s * s, 1.0 - s, 1.0])
    });
}

#[test]
fn disc() {
    check("disc", &[], |p| {
        let (x, y) = (p.u - 0.5, p.v - 0.5);
        (x * x + y * y <= 0.2).then_some([p.u, 1.0 - p.v, 0.2, 1.0])
    });
}

#[test]
fn sphere() {
    check("sphere", &[], |p| {
        let (x, y) = (p.u * 2.0 - 1.0, p.v * 2.0 - 1.0);
        let r2 = x * x + y * y;
        if r2 > 1.0 {
            return None;
        }
        let n = [x, -y, (1.0 - r2).sqrt()];
        let k = 1.0 / (0.5f32 * 0.5 + 0.5 * 0.5 + 1.0).sqrt();
        let l = [0.5 * k, 0.5 * k, k];
        let dot = |a: [f32; 3], b: [f32; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        let diffuse = dot(n, l).max(0.0);
        // reflect(-l, n) = -l - 2 dot(n, -l) n; its z against (0, 0, 1).
        let d = dot(n, [-l[0], -l[1], -l[2]]);
        let rz = -l[2] - 2.0 * d * n[2];
        let spec = rz.max(0.0).powf(16.0);
        Some([
            0.1 * diffuse + spec,
            0.3 * diffuse + spec,
            0.8 * diffuse + spec,
            1.0,
        ])
    });
}

#[test]
fn waves() {
    check("waves", &[], |p| {
        let acc: f32 = (0..4)
            .map(|i| (p.u * (i + 1) as f32 * 3.0).sin() * 0.25)
            .sum();
        Some([acc * 0.5 + 0.5, p.v, 0.0, 1.0])
    });
}

#[test]
fn steps() {
    check("steps", &[], |p| {
        let (mut acc, mut i) = (0.0f32, 0);
        loop {
            if i >= 8 {
                break;
            }
            i += 1;
            if i == 3 {
                continue;
            }
            if i as f32 * 0.125 > p.v {
                break;
            }
            acc += 0.125;
        }
        Some([acc, i as f32 / 8.0, p.u, 1.0])
    });
}

#[test]
fn tri() {
    check("tri", &[], |p| {
        let tri = |x: f32| (fract(x) * 2.0 - 1.0).abs();
        let band = if p.u < p.v { 1.0 } else { 0.25 };
        Some([tri(p.u * 3.0), tri(p.v * 2.0 + 0.25), band, 1.0])
    });
}

#[test]
fn explog() {
    check("explog", &[], |p| {
        Some([
            (p.u * 3.0).exp2() / 8.0,
            (1.0 + p.v * 7.0).log2() / 3.0,
            p.u.exp() / 2.75,
            (1.0 + p.v * 1.7).ln(),
        ])
    });
}

#[test]
fn powers() {
    check("powers", &[], |p| {
        Some([
            p.u.powf(2.2),
            p.v.sqrt(),
            1.0 / (1.0 + p.u * 3.0).sqrt(),
            (p.v + 0.1).powf(0.45),
        ])
    });
}

#[test]
fn trig() {
    check("trig", &[], |p| {
        Some([
            (p.u * std::f32::consts::TAU).sin() * 0.5 + 0.5,
            (p.v * std::f32::consts::TAU).cos() * 0.5 + 0.5,
            (p.u * 0.7).tan(),
            1.0,
        ])
    });
}

#[test]
fn rounding() {
    check("rounding", &[], |p| {
        let (x, y) = (p.u * 4.0 - 2.0, p.v * 4.0 - 2.0);
        Some([
            fract(p.u * 3.7),
            y.floor() * 0.25 + 0.5,
            x.ceil() * 0.25 + 0.5,
            y.trunc() * 0.25 + 0.5,
        ])
    });
}

#[test]
fn signs() {
    check("signs", &[], |p| {
        let (x, y) = (p.u * 2.0 - 1.0, p.v * 2.0 - 1.0);
        let sign = if x > 0.0 {
            1.0
        } else if x < 0.0 {
            -1.0
        } else {
            0.0
        };
        Some([
            sign * 0.5 + 0.5,
            y.abs(),
            (p.u * 4.0).round_ties_even() * 0.25,
            -x * 0.5 + 0.5,
        ])
    });
}

#[test]
fn clamps() {
    check("clamps", &[], |p| {
        Some([
            (p.u * 2.0 - 0.5).clamp(0.0, 1.0),
            if p.v >= 0.5 { 1.0 } else { 0.0 },
            p.u.max(p.v),
            p.u.min(p.v),
        ])
    });
}

#[test]
fn choose() {
    check("choose", &[], |p| {
        let a = if p.u < p.v { 1.0 } else { 0.2 };
        let c = if p.u + p.v > 1.0 {
            [0.7, 0.9]
        } else {
            [0.1, 0.3]
        };
        Some([a, mix(0.2, 0.9, p.u), c[0], c[1]])
    });
}

#[test]
fn vectors() {
    check("vectors", &[], |p| {
        let a = [p.u, p.v, 1.0];
        let b = [1.0 - p.v, 0.5, p.u];
        let c = [
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ];
        let la = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
        let lb = (b[0] * b[0] + b[1] * b[1] + b[2] * b[2]).sqrt();
        Some([
            c[0] * 0.5 + 0.5,
            c[1] * 0.5 + 0.5,
            c[2] * 0.5 + 0.5,
            a[2] / la * lb * 0.5,
        ])
    });
}

#[test]
fn rotate() {
    check("rotate", &[], |p| {
        let (x, y) = (p.u - 0.5, p.v - 0.5);
        // Columns (0.8, 0.6) and (-0.6, 0.8): m * v and v * m.
        let mv = [0.8 * x - 0.6 * y, 0.6 * x + 0.8 * y];
        let vm_x = x * 0.8 + y * 0.6;
        Some([mv[0] + 0.5, mv[1] + 0.5, vm_x + 0.5, 1.0])
    });
}

#[test]
fn uniforms() {
    // The binding rule: each member of the uniform block takes one CONST register, in order.
    let tint = [0.9, 0.5, 0.25, 0.5];
    let offset = [0.05, 0.1, 0.2, 0.5];
    let consts = [(0, tint), (1, offset), (2, [0.75, 0.0, 0.0, 0.0])];
    check("uniforms", &consts, |p| {
        let (tint, offset) = ([0.9f32, 0.5, 0.25, 0.5], [0.05f32, 0.1, 0.2, 0.5]);
        Some(std::array::from_fn(|c| tint[c] * p.u * 0.75 + offset[c]))
    });
}

#[test]
fn quadrants() {
    check("quadrants", &[], |p| {
        let c = match (p.u < 0.5, p.v < 0.5) {
            (true, true) => [1.0, 0.0, 0.0],
            (true, false) => [0.0, 1.0, 0.0],
            (false, true) => [0.0, 0.0, 1.0],
            (false, false) => [p.u, p.v, 0.5],
        };
        Some([c[0], c[1], c[2], 1.0])
    });
}

#[test]
fn integers() {
    check("integers", &[], |p| {
        let k = (p.u * 8.0) as i32;
        let j = (p.v * 8.0) as i32;
        Some([
            (k % 3) as f32 / 2.0,
            ((k + j) / 3) as f32 / 4.0,
            (k * j) as f32 / 49.0,
            1.0,
        ])
    });
}

#[test]
fn slopes() {
    check("slopes", &[], |p| {
        // Fine derivatives: right minus left lane, bottom minus top lane of the 2x2 quad.
        let (x0, y0) = (p.x & !1, p.y & !1);
        let f = |x: u32| {
            let u = uv(x, 0).0;
            u * u * 8.0
        };
        let g = |y: u32| {
            let v = uv(0, y).1;
            v * v * 8.0
        };
        let dfdx = f(x0 + 1) - f(x0);
        let dgdy = g(y0 + 1) - g(y0);
        Some([dfdx * 2.0, dgdy * 2.0, dfdx.abs() + dgdy.abs(), 1.0])
    });
}

#[test]
fn struct_out() {
    check("struct_out", &[], |p| {
        let pos_x = p.x as f32 + 0.5;
        Some([p.v, p.u, fract(pos_x / 4.0), 1.0])
    });
}

#[test]
fn at_least_twenty_shaders_in_both_languages() {
    let dir = shader("");
    let names = |ext: &str| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| {
                let p = e.ok()?.path();
                if p.extension()? != ext {
                    return None;
                }
                Some(p.file_stem()?.to_string_lossy().into_owned())
            })
            .collect();
        v.sort();
        v
    };
    let (wgsl, glsl) = (names("wgsl"), names("frag"));
    assert_eq!(wgsl, glsl, "every shader comes in both languages");
    assert!(wgsl.len() >= 20, "{} shaders", wgsl.len());
}

#[test]
fn matrix() {
    // A uniform mat4 takes four CONST registers, one per column.
    const COLS: [[f32; 4]; 4] = [
        [0.5, 0.1, 0.2, 0.0],
        [0.2, 0.6, 0.1, 0.1],
        [0.1, 0.0, 0.4, 0.2],
        [0.1, 0.2, 0.1, 0.3],
    ];
    let consts: Vec<(u32, [f32; 4])> = (0..4).map(|c| (c as u32, COLS[c])).collect();
    check("matrix", &consts, |p| {
        let v = [p.u, p.v, 0.5, 1.0];
        // m * v: row r is sum over columns c of m[c][r] * v[c]; v * m: column c dotted with v.
        let mv = |r: usize| (0..4).fold(0.0f32, |s, c| s + COLS[c][r] * v[c]);
        let vm = |c: usize| (0..4).fold(0.0f32, |s, r| s + v[r] * COLS[c][r]);
        Some([mv(0), mv(1), vm(2), vm(3)])
    });
}

#[test]
fn dynindex() {
    check("dynindex", &[], |p| {
        let mut c = [0.0f32; 4];
        c[(p.u * 4.0) as usize] = 1.0;
        for i in 0..2 {
            c[i + 2] += p.v * 0.25;
        }
        let w = [0.1, 0.4, 0.7, 1.0];
        Some([c[0], c[1] + c[2] * 0.5, w[(p.v * 4.0) as usize], c[3]])
    });
}

#[test]
fn carried() {
    // Values read from variables before the variables change (in a loop, in a branch, a swap).
    check("carried", &[], |p| {
        let (mut a, mut x, mut y) = (p.u, p.u, p.v);
        let b = a;
        for _ in 0..3 {
            a = a * 0.5 + b;
            std::mem::swap(&mut x, &mut y);
        }
        if p.v > 0.5 {
            a *= 0.25;
        }
        Some([a * 0.5, b, x, y])
    });
}

#[test]
fn cases() {
    check("cases", &[], |p| {
        let c = match (p.u * 4.0) as i32 {
            0 => [1.0, 0.0, 0.0],
            1 | 2 if p.v > 0.5 => [0.0, p.v, 0.0],
            1 | 2 => [0.0, p.v, 0.5],
            _ => [0.2; 3],
        };
        Some([c[0], c[1], c[2], 1.0])
    });
}

#[test]
fn palette() {
    // A uniform array indexed at run time (ARL, CONST[ADDR[0].x+n]); out-of-range indices clamp.
    const COLOURS: [[f32; 4]; 4] = [
        [0.9, 0.1, 0.1, 1.0],
        [0.1, 0.8, 0.2, 1.0],
        [0.2, 0.3, 0.9, 0.5],
        [0.7, 0.7, 0.1, 0.25],
    ];
    const GAIN: [f32; 4] = [0.75, 0.25, 0.0, 0.0];
    let mut consts: Vec<(u32, [f32; 4])> = (0..4).map(|c| (c as u32, COLOURS[c])).collect();
    consts.push((4, GAIN));
    check("palette", &consts, |p| {
        let i = ((p.u * 4.0) as i32).clamp(0, 3) as usize;
        let j = ((p.v * 6.0) as i32 - 1).clamp(0, 3) as usize;
        Some(std::array::from_fn(|c| {
            COLOURS[i][c] * GAIN[0] + COLOURS[j][c] * GAIN[1]
        }))
    });
}

#[test]
fn arcs() {
    check("arcs", &[], |p| {
        let (x, y) = (p.u * 2.0 - 1.0, p.v * 2.0 - 1.0);
        Some([
            (x * 4.0).atan() / std::f32::consts::PI + 0.5,
            y.atan2(x) / std::f32::consts::TAU + 0.5,
            x.asin() / std::f32::consts::PI + 0.5,
            y.acos() / std::f32::consts::PI,
        ])
    });
}

/// The inverse trigonometric sequences' accuracy on the reference model, against f64: atan and
/// atan2 within 4e-7 radians (under 2 ULP of pi), asin and acos within 5e-7 on [-1, 1]
/// (ARCHITECTURE.md).
#[test]
fn inverse_trigonometry_accuracy() {
    let src = "@fragment\nfn main(@location(0) v: vec4<f32>) -> @location(0) vec4<f32> {\n\
               return vec4<f32>(atan(v.x), atan2(v.y, v.z), asin(v.w), acos(v.w));\n}\n";
    let t = translate::translate(src.as_bytes(), translate::Language::Wgsl, "acc.wgsl", None)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut worst = [0.0f64; 4];
    let mut rng = microcode::rng::XorShift::new(5);
    let mut next = move || rng.next_f64();
    for k in 0..4000 {
        let mut inputs = RunInputs::default();
        let mut lanes = [[0u32; 4]; 4];
        let mut args = [[0f32; 4]; 4];
        for (l, lane) in lanes.iter_mut().enumerate() {
            // atan over many magnitudes, atan2 over every direction (and radius), asin / acos
            // over [-1, 1] with the ends.
            let a = ((next() * 2.0 - 1.0) * 10f64.powf(next() * 8.0 - 4.0)) as f32;
            let angle = next() * std::f64::consts::TAU;
            let radius = 10f64.powf(next() * 6.0 - 3.0);
            let w = match (k * 4 + l) % 97 {
                0 => 1.0,
                1 => -1.0,
                2 => 0.0,
                _ => (next() * 2.0 - 1.0) as f32,
            };
            args[l] = [
                a,
                (angle.sin() * radius) as f32,
                (angle.cos() * radius) as f32,
                w,
            ];
            *lane = args[l].map(f32::to_bits);
        }
        inputs.inputs.insert(0, lanes);
        let out = sim::reference::run(&t.program, &inputs).unwrap_or_else(|e| panic!("{e}"));
        for (l, lane) in out.lanes.iter().enumerate() {
            let got = lane.outputs[&0].map(|b| f64::from(f32::from_bits(b)));
            let [a, y, x, w] = args[l].map(f64::from);
            let want = [a.atan(), y.atan2(x), w.asin(), w.acos()];
            for c in 0..4 {
                worst[c] = worst[c].max((got[c] - want[c]).abs());
            }
        }
    }
    eprintln!(
        "worst errors (radians): atan {:e}, atan2 {:e}, asin {:e}, acos {:e}",
        worst[0], worst[1], worst[2], worst[3]
    );
    assert!(worst[0] <= 4e-7 && worst[1] <= 4e-7, "{worst:?}");
    assert!(worst[2] <= 5e-7 && worst[3] <= 5e-7, "{worst:?}");
}

//! Proof of meaning for the constructs real shaders write beyond the basics: matrix functions,
//! hyperbolic functions, refraction, decomposition, constant aggregates, arrays indexed at run
//! time, packed uniforms, bit functions, override constants and the sample mask. Each shader is
//! translated, rendered on the reference model (and on the core model, which must agree bit for
//! bit) and compared with the same formula in plain Rust.

use microcode::compile::compile;
use microcode::core::CoreConfig;
use microcode::tgsi::Program;
use sim::render::{render, Frame};
use sim::run_io::RunInputs;
use std::collections::BTreeMap;
use translate::{Language, Stage};

const W: u32 = 16;
const H: u32 = 16;

/// What a pixel should be (`None`: discarded), from its interpolated (u, v).
type Formula<'a> = &'a dyn Fn(f32, f32) -> Option<[f32; 4]>;

fn translate_src(src: &str, lang: Language) -> translate::Translation {
    let name = match lang {
        Language::Wgsl => "t.wgsl",
        _ => "t.frag",
    };
    translate::translate(src.as_bytes(), lang, name, None).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

/// Renders `p` on the reference model and on the core model (which must agree exactly), each
/// with the inputs `inputs` makes.
fn frame(p: &Program, inputs: &dyn Fn() -> RunInputs) -> Frame {
    let run = |core: bool| {
        let mut i = inputs();
        let config = CoreConfig {
            registers: 64,
            program_size: 2048,
            ..CoreConfig::default()
        };
        let image = core.then(|| compile(p, &config).unwrap_or_else(|e| panic!("{e}")).image);
        render(
            p,
            W,
            H,
            &BTreeMap::new(),
            &mut i,
            &mut |x| match &image {
                Some(image) => sim::core_model::run(image, x).map_err(|e| e.to_string()),
                None => sim::reference::run(p, x).map_err(|e| e.to_string()),
            },
            &mut |_, _| {},
        )
        .unwrap_or_else(|e| panic!("render: {e}"))
    };
    let reference = run(false);
    let core = run(true);
    assert_eq!(reference.pixels, core.pixels, "the core model differs");
    reference
}

fn byte(x: f32) -> i32 {
    if x.is_nan() {
        0
    } else {
        (x.clamp(0.0, 1.0) * 255.0).round() as i32
    }
}

/// Every pixel of `src` rendered with `inputs` against `formula`, within `tolerance` of a byte.
fn check(
    src: &str,
    lang: Language,
    inputs: &dyn Fn() -> RunInputs,
    tolerance: i32,
    formula: Formula,
) {
    let t = translate_src(src, lang);
    check_program(&t, inputs, tolerance, formula);
}

fn check_program(
    t: &translate::Translation,
    inputs: &dyn Fn() -> RunInputs,
    tolerance: i32,
    formula: Formula,
) {
    let f = frame(&t.program, inputs);
    for y in 0..H {
        for x in 0..W {
            let (u, v) = ((x as f32 + 0.5) / W as f32, (y as f32 + 0.5) / H as f32);
            let got = f.pixels[(y * W + x) as usize];
            match formula(u, v) {
                None => assert_eq!(got, [0; 4], "pixel ({x}, {y}) should be discarded"),
                Some(want) => {
                    for c in 0..4 {
                        let d = (got[c] as i32 - byte(want[c])).abs();
                        assert!(
                            d <= tolerance,
                            "pixel ({x}, {y}) channel {c}: rendered {}, formula {} ({})\n{}",
                            got[c],
                            byte(want[c]),
                            want[c],
                            t.text
                        );
                    }
                }
            }
        }
    }
}

fn glsl() -> Language {
    Language::Glsl(Stage::Fragment)
}

// ---- matrices -------------------------------------------------------------------------------

type M = Vec<Vec<f64>>; // m[column][row]

fn det(m: &M) -> f64 {
    let n = m.len();
    if n == 1 {
        return m[0][0];
    }
    (0..n)
        .map(|c| {
            let minor: M = (0..n)
                .filter(|&k| k != c)
                .map(|k| m[k][1..].to_vec())
                .collect();
            let s = if c % 2 == 0 { 1.0 } else { -1.0 };
            s * m[c][0] * det(&minor)
        })
        .sum()
}

fn inverse(m: &M) -> M {
    let n = m.len();
    let d = det(m);
    // inv[c][r] = cofactor(r, c) / det: the cofactor of column r, row c.
    (0..n)
        .map(|c| {
            (0..n)
                .map(|r| {
                    let minor: M = (0..n)
                        .filter(|&k| k != r)
                        .map(|k| (0..n).filter(|&j| j != c).map(|j| m[k][j]).collect())
                        .collect();
                    let s = if (r + c) % 2 == 0 { 1.0 } else { -1.0 };
                    s * det(&minor) / d
                })
                .collect()
        })
        .collect()
}

fn mul_vec(m: &M, v: &[f64]) -> Vec<f64> {
    (0..m[0].len())
        .map(|r| (0..m.len()).map(|c| m[c][r] * v[c]).sum())
        .collect()
}

fn mats(u: f32, v: f32) -> (M, M, M) {
    let (u, v) = (u as f64, v as f64);
    let m2 = vec![vec![1.0 + u, v], vec![0.5, 2.0 - u]];
    let m3 = vec![
        vec![2.0, u, 0.1],
        vec![v, 1.5, 0.2],
        vec![0.3, 0.4, 1.0 + u],
    ];
    let m4 = vec![
        vec![2.0, u, 0.1, 0.0],
        vec![v, 1.5, 0.2, 0.1],
        vec![0.3, 0.4, 1.0 + u, 0.2],
        vec![0.1, 0.0, v, 1.2],
    ];
    (m2, m3, m4)
}

const MATRIX_WGSL: &str = "
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let m2 = mat2x2<f32>(vec2<f32>(1.0 + uv.x, uv.y), vec2<f32>(0.5, 2.0 - uv.x));
    let m3 = mat3x3<f32>(vec3<f32>(2.0, uv.x, 0.1), vec3<f32>(uv.y, 1.5, 0.2),
                         vec3<f32>(0.3, 0.4, 1.0 + uv.x));
    let m4 = mat4x4<f32>(vec4<f32>(2.0, uv.x, 0.1, 0.0), vec4<f32>(uv.y, 1.5, 0.2, 0.1),
                         vec4<f32>(0.3, 0.4, 1.0 + uv.x, 0.2), vec4<f32>(0.1, 0.0, uv.y, 1.2));
    let t = transpose(m3) * vec3<f32>(1.0, 0.5, 0.25);
    return vec4<f32>(determinant(m2) * 0.2, determinant(m3) * 0.1, determinant(m4) * 0.05,
                     t.y * 0.3);
}";

#[test]
fn transpose_and_determinant() {
    check(
        MATRIX_WGSL,
        Language::Wgsl,
        &RunInputs::default,
        1,
        &|u, v| {
            let (m2, m3, m4) = mats(u, v);
            let tr: M = (0..3).map(|c| (0..3).map(|r| m3[r][c]).collect()).collect();
            let t = mul_vec(&tr, &[1.0, 0.5, 0.25]);
            Some([
                (det(&m2) * 0.2) as f32,
                (det(&m3) * 0.1) as f32,
                (det(&m4) * 0.05) as f32,
                (t[1] * 0.3) as f32,
            ])
        },
    );
}

const INVERSE_GLSL: &str = "#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    mat2 m2 = mat2(vec2(1.0 + uv.x, uv.y), vec2(0.5, 2.0 - uv.x));
    mat3 m3 = mat3(vec3(2.0, uv.x, 0.1), vec3(uv.y, 1.5, 0.2), vec3(0.3, 0.4, 1.0 + uv.x));
    mat4 m4 = mat4(vec4(2.0, uv.x, 0.1, 0.0), vec4(uv.y, 1.5, 0.2, 0.1),
                   vec4(0.3, 0.4, 1.0 + uv.x, 0.2), vec4(0.1, 0.0, uv.y, 1.2));
    vec2 a = inverse(m2) * vec2(1.0, 0.5);
    vec3 b = inverse(m3) * vec3(1.0, 0.5, 0.25);
    vec4 c = inverse(m4) * vec4(1.0, 0.5, 0.25, 2.0);
    color = vec4(0.5 + 0.4 * a.x, 0.5 + 0.4 * b.y, 0.5 + 0.4 * c.z, 0.5 + 0.2 * c.w);
}";

#[test]
fn inverse_of_2x2_3x3_and_4x4() {
    check(INVERSE_GLSL, glsl(), &RunInputs::default, 1, &|u, v| {
        let (m2, m3, m4) = mats(u, v);
        let a = mul_vec(&inverse(&m2), &[1.0, 0.5]);
        let b = mul_vec(&inverse(&m3), &[1.0, 0.5, 0.25]);
        let c = mul_vec(&inverse(&m4), &[1.0, 0.5, 0.25, 2.0]);
        Some([
            (0.5 + 0.4 * a[0]) as f32,
            (0.5 + 0.4 * b[1]) as f32,
            (0.5 + 0.4 * c[2]) as f32,
            (0.5 + 0.2 * c[3]) as f32,
        ])
    });
}

// ---- hyperbolic functions, refraction, decomposition ----------------------------------------

const HYPERBOLIC_WGSL: &str = "
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let x = uv.x * 2.0 - 1.0;
    return vec4<f32>(0.5 + 0.4 * sinh(x), cosh(x) * 0.5 + 0.1 * tanh(x * 3.0),
                     0.5 + 0.2 * asinh(x * 4.0) + 0.1 * atanh(uv.y * 1.8 - 0.9),
                     0.3 * acosh(1.0 + uv.y * 3.0));
}";

const HYPERBOLIC_GLSL: &str = "#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    float x = uv.x * 2.0 - 1.0;
    color = vec4(0.5 + 0.4 * sinh(x), cosh(x) * 0.5 + 0.1 * tanh(x * 3.0),
                 0.5 + 0.2 * asinh(x * 4.0) + 0.1 * atanh(uv.y * 1.8 - 0.9),
                 0.3 * acosh(1.0 + uv.y * 3.0));
}";

#[test]
fn hyperbolic_functions_and_their_inverses() {
    let formula = |u: f32, v: f32| {
        let x = u * 2.0 - 1.0;
        Some([
            0.5 + 0.4 * x.sinh(),
            x.cosh() * 0.5 + 0.1 * (x * 3.0).tanh(),
            0.5 + 0.2 * (x * 4.0).asinh() + 0.1 * (v * 1.8 - 0.9).atanh(),
            0.3 * (1.0 + v * 3.0).acosh(),
        ])
    };
    check(
        HYPERBOLIC_WGSL,
        Language::Wgsl,
        &RunInputs::default,
        1,
        &formula,
    );
    check(HYPERBOLIC_GLSL, glsl(), &RunInputs::default, 1, &formula);
}

const REFRACT_WGSL: &str = "
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let i = normalize(vec3<f32>(uv.x - 0.5, uv.y - 0.5, -0.5));
    let n = vec3<f32>(0.0, 0.0, 1.0);
    let r = refract(i, n, 0.5 + 1.5 * uv.x);
    let f = faceForward(n, i, vec3<f32>(uv.y - 0.5, 0.0, 1.0));
    return vec4<f32>(r.x * 0.5 + 0.5, r.z * 0.5 + 0.5, r.y * 0.5 + 0.5, f.z * 0.25 + 0.5);
}";

const REFRACT_GLSL: &str = "#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    vec3 i = normalize(vec3(uv.x - 0.5, uv.y - 0.5, -0.5));
    vec3 n = vec3(0.0, 0.0, 1.0);
    vec3 r = refract(i, n, 0.5 + 1.5 * uv.x);
    vec3 f = faceforward(n, i, vec3(uv.y - 0.5, 0.0, 1.0));
    color = vec4(r.x * 0.5 + 0.5, r.z * 0.5 + 0.5, r.y * 0.5 + 0.5, f.z * 0.25 + 0.5);
}";

#[test]
fn refract_and_face_forward() {
    let formula = |u: f32, v: f32| {
        let i = [u - 0.5, v - 0.5, -0.5f32];
        let l = (i[0] * i[0] + i[1] * i[1] + i[2] * i[2]).sqrt();
        let i = i.map(|c| c / l);
        let n = [0.0, 0.0, 1.0f32];
        let eta = 0.5 + 1.5 * u;
        let d = i[2];
        let k = 1.0 - eta * eta * (1.0 - d * d);
        let r = if k < 0.0 {
            [0.0; 3]
        } else {
            std::array::from_fn(|c| eta * i[c] - (eta * d + k.sqrt()) * n[c])
        };
        // faceForward: n where dot(nref, i) < 0.
        let dn = (v - 0.5) * i[0] + i[2];
        let fz = if dn < 0.0 { 1.0 } else { -1.0 };
        Some([
            r[0] * 0.5 + 0.5,
            r[2] * 0.5 + 0.5,
            r[1] * 0.5 + 0.5,
            fz * 0.25 + 0.5,
        ])
    };
    check(
        REFRACT_WGSL,
        Language::Wgsl,
        &RunInputs::default,
        1,
        &formula,
    );
    check(REFRACT_GLSL, glsl(), &RunInputs::default, 1, &formula);
}

const DECOMPOSE_WGSL: &str = "
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let m = modf(uv.x * 7.3 - 3.0);
    let f = frexp(uv.y * 100.0 + 0.1);
    let l = ldexp(uv.y, i32(uv.x * 8.0) - 4);
    return vec4<f32>(m.fract * 0.5 + 0.5, m.whole * 0.1 + 0.5,
                     f.fract + f32(f.exp) * 0.01, l * 0.05);
}";

/// `frexp` in plain Rust: (fract in [0.5, 1), exp) of a positive normal float.
fn frexp(x: f32) -> (f32, i32) {
    let e = ((x.to_bits() >> 23) & 0xFF) as i32 - 126;
    (x / 2f32.powi(e), e)
}

#[test]
fn modf_frexp_and_ldexp() {
    let formula = |u: f32, v: f32| {
        let a = u * 7.3 - 3.0;
        let whole = a.trunc();
        let (fr, e) = frexp(v * 100.0 + 0.1);
        let l = v * 2f32.powi((u * 8.0) as i32 - 4);
        Some([
            (a - whole) * 0.5 + 0.5,
            whole * 0.1 + 0.5,
            fr + e as f32 * 0.01,
            l * 0.05,
        ])
    };
    // naga's GLSL front end has no `modf` / `frexp` with out parameters: WGSL only.
    check(
        DECOMPOSE_WGSL,
        Language::Wgsl,
        &RunInputs::default,
        1,
        &formula,
    );
}

// ---- constant aggregates and arrays indexed at run time -------------------------------------

const PALETTE: [[f32; 3]; 4] = [
    [0.1, 0.2, 0.3],
    [0.9, 0.5, 0.1],
    [0.2, 0.8, 0.4],
    [0.6, 0.1, 0.7],
];

const CONSTANTS_WGSL: &str = "
struct Tint { gain: f32, bias: vec2<f32> }
const PALETTE = array<vec3<f32>, 4>(vec3<f32>(0.1, 0.2, 0.3), vec3<f32>(0.9, 0.5, 0.1),
                                    vec3<f32>(0.2, 0.8, 0.4), vec3<f32>(0.6, 0.1, 0.7));
const TINT = Tint(0.5, vec2<f32>(0.25, 0.125));
const SWAP = mat2x2<f32>(vec2<f32>(0.0, 1.0), vec2<f32>(1.0, 0.0));
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let i = i32(uv.x * 4.0);
    let c = PALETTE[i];
    let s = SWAP * uv;
    return vec4<f32>(c * TINT.gain + vec3<f32>(TINT.bias, 0.0), s.x);
}";

const CONSTANTS_GLSL: &str = "#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
struct Tint { float gain; vec2 bias; };
const vec3 PALETTE[4] = vec3[4](vec3(0.1, 0.2, 0.3), vec3(0.9, 0.5, 0.1),
                                vec3(0.2, 0.8, 0.4), vec3(0.6, 0.1, 0.7));
const Tint TINT = Tint(0.5, vec2(0.25, 0.125));
const mat2 SWAP = mat2(vec2(0.0, 1.0), vec2(1.0, 0.0));
void main() {
    int i = int(uv.x * 4.0);
    vec3 c = PALETTE[i];
    vec2 s = SWAP * uv;
    color = vec4(c * TINT.gain + vec3(TINT.bias, 0.0), s.x);
}";

#[test]
fn constant_arrays_structs_and_matrices() {
    let formula = |u: f32, v: f32| {
        let c = PALETTE[(u * 4.0) as usize];
        Some([c[0] * 0.5 + 0.25, c[1] * 0.5 + 0.125, c[2] * 0.5, v])
    };
    for (src, lang) in [(CONSTANTS_WGSL, Language::Wgsl), (CONSTANTS_GLSL, glsl())] {
        let t = translate_src(src, lang);
        // The palette indexed at run time is read by relative addressing from IMMX.
        assert!(t.text.contains("IMMX[ADDR[0].x"), "{}", t.text);
        check_program(&t, &RunInputs::default, 1, &formula);
    }
}

const LOCAL_ARRAY_WGSL: &str = "
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    var a: array<f32, 4>;
    var m = mat3x3<f32>(vec3<f32>(0.1), vec3<f32>(0.2), vec3<f32>(0.3));
    for (var k = 0; k < 4; k++) {
        a[k] = f32(k) * 0.25 + uv.x * 0.1;
    }
    let i = i32(uv.y * 4.0);
    a[i] = a[i] + 0.05;
    m[i % 3] = vec3<f32>(uv.x);
    m[1][i % 3] = 0.9;
    return vec4<f32>(a[i], a[3 - i], m[i % 3].y, m[2].z);
}";

const LOCAL_ARRAY_GLSL: &str = "#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    float a[4];
    mat3 m = mat3(vec3(0.1), vec3(0.2), vec3(0.3));
    for (int k = 0; k < 4; k++) {
        a[k] = float(k) * 0.25 + uv.x * 0.1;
    }
    int i = int(uv.y * 4.0);
    a[i] = a[i] + 0.05;
    m[i % 3] = vec3(uv.x);
    m[1][i % 3] = 0.9;
    color = vec4(a[i], a[3 - i], m[i % 3].y, m[2].z);
}";

#[test]
fn arrays_and_matrices_in_variables_indexed_at_run_time() {
    let formula = |u: f32, v: f32| {
        let mut a: [f32; 4] = std::array::from_fn(|k| k as f32 * 0.25 + u * 0.1);
        let i = (v * 4.0) as usize;
        a[i] += 0.05;
        let mut m = [[0.1f32; 3], [0.2; 3], [0.3; 3]];
        m[i % 3] = [u; 3];
        m[1][i % 3] = 0.9;
        Some([a[i], a[3 - i], m[i % 3][1], m[2][2]])
    };
    check(
        LOCAL_ARRAY_WGSL,
        Language::Wgsl,
        &RunInputs::default,
        1,
        &formula,
    );
    check(LOCAL_ARRAY_GLSL, glsl(), &RunInputs::default, 1, &formula);
}

// ---- uniforms laid out as their bytes are ---------------------------------------------------

const UNIFORMS_WGSL: &str = "
struct Light { dir: vec3<f32>, intensity: f32 }
struct Params {
    time: f32,
    scale: vec2<f32>,
    tint: vec3<f32>,
    gain: f32,
    lights: array<Light, 3>,
    model: mat2x2<f32>,
}
@group(1) @binding(2) var<uniform> p: Params;
@group(0) @binding(0) var<uniform> extra: vec4<f32>;
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let l = p.lights[i32(uv.x * 3.0)];
    let m = p.model * uv;
    return vec4<f32>(l.dir.y * l.intensity, p.tint.z * p.gain + p.time, m.x * p.scale.y,
                     extra.w);
}";

const UNIFORMS_GLSL: &str = "#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
struct Light { vec3 dir; float intensity; };
layout(set = 1, binding = 2) uniform Params {
    float time;
    vec2 scale;
    vec3 tint;
    float gain;
    Light lights[3];
} p;
layout(set = 0, binding = 0) uniform Extra { vec4 extra; };
void main() {
    Light l = p.lights[int(uv.x * 3.0)];
    color = vec4(l.dir.y * l.intensity, p.tint.z * p.gain + p.time, uv.x * p.scale.y, extra.w);
}";

/// The bytes of `Params` as a wgpu program uploads them (WGSL's uniform layout, std140).
fn params_bytes(model: bool) -> Vec<u8> {
    let mut w: Vec<f32> = vec![0.05, 0.0, 0.5, 0.75]; // time, pad, scale
    w.extend([0.1, 0.2, 0.6, 0.5]); // tint, gain
    for k in 0..3 {
        let k = k as f32;
        w.extend([0.1, 0.2 + 0.3 * k, 0.3, 0.5 + 0.2 * k]); // lights[k].dir, .intensity
    }
    if model {
        w.extend([0.0, 1.0, 1.0, 0.0]); // model: the columns (0, 1) and (1, 0)
    }
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Constants from a buffer's bytes at `first`: word k to CONST[first + k / 4], component k % 4.
fn place(inputs: &mut RunInputs, first: u32, bytes: &[u8]) {
    for (k, w) in bytes.chunks_exact(4).enumerate() {
        let reg = first + (k / 4) as u32;
        let e = inputs.constants.entry((0, reg)).or_insert([0; 4]);
        e[k % 4] = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
    }
}

#[test]
fn uniforms_are_laid_out_as_their_bytes() {
    for (src, lang, model) in [
        (UNIFORMS_WGSL, Language::Wgsl, true),
        (UNIFORMS_GLSL, glsl(), false),
    ] {
        let t = translate_src(src, lang);
        let b = &t.bindings;
        // One CONST range per binding in (group, binding) order: `extra` first.
        assert_eq!((b.buffers[0].group, b.buffers[0].first), (0, 0), "{b:?}");
        assert_eq!((b.buffers[1].group, b.buffers[1].binding), (1, 2));
        let p = b.buffers[1].first;
        assert_eq!(p, 1);
        let at = |path: &str| {
            let m = b.find(path);
            assert_eq!(m.len(), 1, "{path}: {b:?}");
            (m[0].register, m[0].components(), m[0].offset)
        };
        assert_eq!(at("p.time"), (p, "x".into(), 0));
        assert_eq!(at("p.scale"), (p, "zw".into(), 8));
        assert_eq!(at("p.tint"), (p + 1, "xyz".into(), 16));
        assert_eq!(at("p.gain"), (p + 1, "w".into(), 28));
        assert_eq!(at("p.lights[2].intensity"), (p + 4, "w".into(), 76));
        if model {
            assert_eq!(at("p.model[1]"), (p + 5, "zw".into(), 88));
            assert_eq!(b.find("p.model").len(), 2);
        }
        // The map is in the text as comments.
        assert!(t.text.contains("p.lights[1].dir"), "{}", t.text);
        let inputs = || {
            let mut i = RunInputs::default();
            place(
                &mut i,
                0,
                &[0u8; 12]
                    .iter()
                    .chain(&0.25f32.to_le_bytes())
                    .copied()
                    .collect::<Vec<u8>>(),
            );
            place(&mut i, p, &params_bytes(model));
            i
        };
        check_program(&t, &inputs, 1, &|u, _v| {
            let k = (u * 3.0) as usize as f32;
            let (dy, intensity) = (0.2 + 0.3 * k, 0.5 + 0.2 * k);
            // model * uv with model's columns (0, 1) and (1, 0): x is uv.y... in GLSL, uv.x.
            let mx = if model { _v } else { u };
            Some([dy * intensity, 0.6 * 0.5 + 0.05, mx * 0.75, 0.25])
        });
    }
}

// ---- integer bit functions ------------------------------------------------------------------

const BITS_WGSL: &str = "
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let x = (u32(uv.x * 16.0) * 0x01010101u) ^ (u32(uv.y * 16.0) << 19u);
    let s = i32(x) - 0x08000000;
    return vec4<f32>(f32(countOneBits(x)) / 32.0,
                     f32(countLeadingZeros(x) + countTrailingZeros(x)) / 64.0,
                     f32(extractBits(x, 3u, 5u) + (reverseBits(x) >> 26u)) / 128.0,
                     f32(firstLeadingBit(s) + 1 + i32(firstTrailingBit(x) + 1u)) / 64.0
                       + f32(insertBits(0u, x, 28u, 8u) >> 28u) / 1024.0);
}";

const BITS_GLSL: &str = "#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    uint x = (uint(uv.x * 16.0) * 0x01010101u) ^ (uint(uv.y * 16.0) << 19u);
    int s = int(x) - 0x08000000;
    color = vec4(float(bitCount(x)) / 32.0,
                 float(findMSB(x) + 1 + findLSB(x) + 1) / 64.0,
                 float(bitfieldExtract(x, 3, 5) + (bitfieldReverse(x) >> 26u)) / 128.0,
                 float(findMSB(s) + 1 + findLSB(x) + 1) / 64.0
                   + float(bitfieldInsert(0u, x, 28, 4) >> 28u) / 1024.0);
}";

fn bits_inputs(u: f32, v: f32) -> (u32, i32) {
    let x = ((u * 16.0) as u32).wrapping_mul(0x0101_0101) ^ (((v * 16.0) as u32) << 19);
    (x, (x as i32).wrapping_sub(0x0800_0000))
}

fn first_leading(s: i32) -> i32 {
    let y = if s < 0 { !s } else { s };
    if y == 0 {
        -1
    } else {
        31 - y.leading_zeros() as i32
    }
}

fn first_trailing(x: u32) -> i32 {
    if x == 0 {
        -1
    } else {
        x.trailing_zeros() as i32
    }
}

#[test]
fn bit_counting_reversing_and_fields() {
    let wgsl = |u: f32, v: f32| {
        let (x, s) = bits_inputs(u, v);
        let insert = (x & 0xF) << 28 >> 28; // insertBits(0, x, 28, 8): 4 bits fit
        Some([
            x.count_ones() as f32 / 32.0,
            (x.leading_zeros() + x.trailing_zeros()) as f32 / 64.0,
            (((x >> 3) & 31) + (x.reverse_bits() >> 26)) as f32 / 128.0,
            (first_leading(s) + 1 + first_trailing(x) + 1) as f32 / 64.0 + insert as f32 / 1024.0,
        ])
    };
    check(BITS_WGSL, Language::Wgsl, &RunInputs::default, 0, &wgsl);
    let glsl_formula = |u: f32, v: f32| {
        let (x, s) = bits_inputs(u, v);
        let msb = if x == 0 {
            -1
        } else {
            31 - x.leading_zeros() as i32
        };
        Some([
            x.count_ones() as f32 / 32.0,
            (msb + 1 + first_trailing(x) + 1) as f32 / 64.0,
            (((x >> 3) & 31) + (x.reverse_bits() >> 26)) as f32 / 128.0,
            (first_leading(s) + 1 + first_trailing(x) + 1) as f32 / 64.0
                + ((x & 0xF) << 28 >> 28) as f32 / 1024.0,
        ])
    };
    check(BITS_GLSL, glsl(), &RunInputs::default, 0, &glsl_formula);
}

// ---- override constants and the sample mask ------------------------------------------------

const OVERRIDES_WGSL: &str = "
override gain: f32 = 0.5;
@id(7) override offset: f32 = 0.0;
override enabled: bool = true;
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    return vec4<f32>(select(0.0, uv.x * gain + offset, enabled), gain * 0.5, offset, 1.0);
}";

#[test]
fn override_constants_take_given_values_or_their_defaults() {
    let t = translate_src(OVERRIDES_WGSL, Language::Wgsl);
    check_program(&t, &RunInputs::default, 1, &|u, _| {
        Some([u * 0.5, 0.25, 0.0, 1.0])
    });
    let options = translate::Options {
        entry: None,
        overrides: BTreeMap::from([("gain".to_string(), 1.5), ("7".to_string(), 0.125)]),
    };
    let t = translate::translate_with(
        OVERRIDES_WGSL.as_bytes(),
        Language::Wgsl,
        "o.wgsl",
        &options,
    )
    .unwrap();
    check_program(&t, &RunInputs::default, 1, &|u, _| {
        Some([u * 1.5 + 0.125, 0.75, 0.125, 1.0])
    });
    let options = translate::Options {
        entry: None,
        overrides: BTreeMap::from([("enabled".to_string(), 0.0)]),
    };
    let t = translate::translate_with(
        OVERRIDES_WGSL.as_bytes(),
        Language::Wgsl,
        "o.wgsl",
        &options,
    )
    .unwrap();
    check_program(&t, &RunInputs::default, 1, &|_, _| {
        Some([0.0, 0.25, 0.0, 1.0])
    });
    // No default and no value: refused, naming the override and the flag.
    let src = "override needed: f32;\n@fragment\nfn main() -> @location(0) vec4<f32> {\n    \
               return vec4<f32>(needed);\n}\n";
    let e = translate::translate(src.as_bytes(), Language::Wgsl, "n.wgsl", None).unwrap_err();
    let text = e.to_string();
    assert!(
        text.starts_with("n.wgsl:1:1: error:") && text.contains("--override"),
        "{text}"
    );
}

const SAMPLE_MASK_WGSL: &str = "
struct Out { @location(0) c: vec4<f32>, @builtin(sample_mask) mask: u32 }
@fragment
fn main(@location(0) uv: vec2<f32>, @builtin(sample_index) s: u32,
        @builtin(sample_mask) covered: u32) -> Out {
    let keep = select(0u, covered, uv.x > 0.5);
    return Out(vec4<f32>(f32(s), f32(covered), uv), keep);
}";

#[test]
fn one_sample_per_pixel_index_zero_mask_one() {
    check(
        SAMPLE_MASK_WGSL,
        Language::Wgsl,
        &RunInputs::default,
        1,
        &|u, v| (u > 0.5).then_some([0.0, 1.0, u, v]),
    );
}

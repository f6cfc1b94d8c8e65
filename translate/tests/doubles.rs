//! Proof of meaning for doubles: `f64` shaders (WGSL, GLSL `double`, SPIR-V Float64) translated
//! to TGSI's double opcodes, run on the reference model and on the core model, and compared bit
//! for bit with the same formulas evaluated here in Rust `f64` (any NaN matches any NaN: the
//! contract makes every NaN result 0x7FF8000000000000, Rust's bits are not specified).
//!
//! Every shader reads two flat `vec2<f64>` inputs, `a = (T[i], T[j])` and `b = (T[j], T[i])`, for
//! all pairs of a table `T` of edge values (zeros of both signs, a subnormal, huge and tiny
//! magnitudes, 2^52 + 1, infinities, NaN), and writes its results as `vec2<f64>` outputs (two
//! doubles to a register, xy and zw) or `vec4<f32>` ones, read back as raw bits.

use microcode::compile::compile;
use microcode::core::CoreConfig;
use microcode::tgsi::Program;
use sim::run_io::RunInputs;
use translate::{Language, Translation};

/// The edge values, with the edges of `f64` to `f32` rounding last: an `f32` subnormal, the
/// largest value that rounds up to the smallest normal `f32`, ties to even down and up, and the
/// value above `f32::MAX` that still rounds to it.
const T: [f64; 24] = [
    0.0,
    -0.0,
    1.0,
    -1.5,
    2.5,
    0.1,
    -3.75e10,
    1e300,
    -1e-300,
    5e-324,
    4_503_599_627_370_497.0,
    -0.5,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    123_456.789,
    1e-40,
    1.175_494_280_757_364_3e-38,
    1.000_000_059_604_644_8,
    1.000_000_178_813_934_3,
    3.402_823_567_797_336_6e38,
    -3.402_823_453_708_782_6e38,
    1.175_494_315_789_825_9e-38,
    -0.3,
];

/// One run's lanes: (a, b) per lane.
type Lanes = [([f64; 2], [f64; 2]); 4];

/// What a lane wrote: each OUT register's four words.
type Outs = Vec<[u32; 4]>;

fn translate_src(src: &str, lang: Language) -> Translation {
    translate::translate(src.as_bytes(), lang, "doubles", None).unwrap_or_else(|e| panic!("{e}"))
}

fn words(p: [f64; 2]) -> [u32; 4] {
    let (x, y) = (p[0].to_bits(), p[1].to_bits());
    [x as u32, (x >> 32) as u32, y as u32, (y >> 32) as u32]
}

/// Runs `p` on one quad, on the reference model or the core model (the board's units, with room
/// for more than its 256 instructions).
fn run(p: &Program, lanes: &Lanes, mut inputs: RunInputs, core: bool, outs: u32) -> Vec<Outs> {
    inputs.inputs.insert(0, lanes.map(|(a, _)| words(a)));
    inputs.inputs.insert(1, lanes.map(|(_, b)| words(b)));
    let out = if core {
        let config = CoreConfig {
            registers: 48,
            program_size: 2048,
            ..CoreConfig::default()
        };
        let image = compile(p, &config)
            .unwrap_or_else(|e| panic!("compile: {e}"))
            .image;
        sim::core_model::run(&image, &inputs).map_err(|e| e.to_string())
    } else {
        sim::reference::run(p, &inputs).map_err(|e| e.to_string())
    }
    .unwrap_or_else(|e| panic!("run: {e}"));
    out.lanes
        .iter()
        .map(|l| {
            (0..outs)
                .map(|r| l.outputs.get(&r).copied().unwrap_or([0; 4]))
                .collect()
        })
        .collect()
}

/// The double in pair `k` (0 = xy, 1 = zw) of a register.
fn pair(r: [u32; 4], k: usize) -> f64 {
    f64::from_bits(u64::from(r[2 * k]) | u64::from(r[2 * k + 1]) << 32)
}

/// One expected result: a double (in a pair) or the bits of a 32-bit word.
#[derive(Clone, Copy, Debug)]
enum Want {
    D(f64),
    F(f32),
    W(u32),
}

fn same_f64(got: f64, want: f64) -> bool {
    got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan())
}

/// Compares what a lane wrote with `want`, laid out as the shader writes: doubles fill pairs,
/// 32-bit values single components, register after register.
fn matches(outs: &Outs, want: &[Want]) -> Result<(), String> {
    let mut comp = 0usize;
    for w in want {
        let (r, c) = (comp / 4, comp % 4);
        let reg = outs[r];
        match *w {
            Want::D(x) => {
                let got = pair(reg, c / 2);
                if !same_f64(got, x) {
                    return Err(format!(
                        "OUT[{r}] pair {}: got {got:e} ({:#x}), want {x:e}",
                        c / 2,
                        got.to_bits()
                    ));
                }
                comp += 2;
            }
            Want::F(x) => {
                let got = f32::from_bits(reg[c]);
                if !(got.to_bits() == x.to_bits() || (got.is_nan() && x.is_nan())) {
                    return Err(format!(
                        "OUT[{r}].{c}: got {got:e} ({:#x}), want {x:e}",
                        reg[c]
                    ));
                }
                comp += 1;
            }
            Want::W(x) => {
                if reg[c] != x {
                    return Err(format!("OUT[{r}].{c}: got {:#x}, want {x:#x}", reg[c]));
                }
                comp += 1;
            }
        }
    }
    Ok(())
}

/// Runs `t` over all pairs of the table on both models against `formula(a, b)`.
fn check(
    name: &str,
    t: &Translation,
    inputs: &dyn Fn() -> RunInputs,
    formula: &dyn Fn([f64; 2], [f64; 2]) -> Vec<Want>,
) {
    for core in [false, true] {
        let engine = if core {
            "core model"
        } else {
            "reference model"
        };
        for quad in 0..T.len() * T.len() / 4 {
            let lanes: Lanes = std::array::from_fn(|l| {
                let k = quad * 4 + l;
                let (i, j) = (k / T.len(), k % T.len());
                ([T[i], T[j]], [T[j], T[i]])
            });
            let got = run(&t.program, &lanes, inputs(), core, 4);
            for (l, (a, b)) in lanes.iter().enumerate() {
                if let Err(e) = matches(&got[l], &formula(*a, *b)) {
                    panic!("{name} on the {engine}, a = {a:?}, b = {b:?}: {e}");
                }
            }
        }
    }
}

/// The flat double inputs and four double outputs of the shaders below.
const HEAD: &str = "
struct Out {
    @location(0) r0: vec2<f64>,
    @location(1) r1: vec2<f64>,
    @location(2) r2: vec2<f64>,
    @location(3) r3: vec2<f64>,
}
@fragment
fn main(@location(0) @interpolate(flat) a: vec2<f64>,
        @location(1) @interpolate(flat) b: vec2<f64>) -> Out {
    var o: Out;
";

fn wgsl(body: &str) -> String {
    format!("{HEAD}{body}\n    return o;\n}}\n")
}

/// `DMIN` / `DMAX` as the contract selects (`x < y ? x : y`); WGSL and GLSL leave NaN open.
fn dmin(x: f64, y: f64) -> f64 {
    if x < y {
        x
    } else {
        y
    }
}

fn dmax(x: f64, y: f64) -> f64 {
    if x > y {
        x
    } else {
        y
    }
}

const ARITH_GLSL: &str = include_str!("shaders/f64_arith.frag");

/// `fma` is DMAD, which rounds the product and the sum (`decisions.md`): `a * b + c` in Rust.
fn arith(a: [f64; 2], b: [f64; 2]) -> Vec<Want> {
    let (x, y) = (a[0], b[0]);
    [
        x + y,
        x - y,
        x * y,
        x / y,
        x * y + a[1],
        x.sqrt(),
        dmin(x, y),
        dmax(x, y),
    ]
    .map(Want::D)
    .to_vec()
}

fn spirv_of(wgsl: &str) -> Vec<u8> {
    let module = naga::front::wgsl::parse_str(wgsl).expect("WGSL parses");
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::FLOAT64,
    )
    .validate(&module)
    .expect("valid");
    let words = naga::back::spv::write_vec(&module, &info, &Default::default(), None)
        .expect("SPIR-V written");
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn arithmetic_in_wgsl_glsl_and_spirv() {
    let src = include_str!("shaders/f64_arith.wgsl");
    let t = translate_src(src, Language::Wgsl);
    let text = &t.text;
    for op in ["DADD", "DMUL", "DDIV", "DMAD", "DSQRT", "DMIN", "DMAX"] {
        assert!(text.contains(op), "{op} in:\n{text}");
    }
    check("arith.wgsl", &t, &RunInputs::default, &arith);
    let glsl = translate_src(ARITH_GLSL, Language::Glsl(translate::Stage::Fragment));
    check("arith.frag", &glsl, &RunInputs::default, &arith);
    let spv = translate::translate(&spirv_of(src), Language::SpirV, "arith.spv", None)
        .unwrap_or_else(|e| panic!("{e}"));
    check("arith.spv", &spv, &RunInputs::default, &arith);
}

const ROUNDING: &str = "
    o.r0 = vec2<f64>(floor(a.x), ceil(a.x));
    o.r1 = vec2<f64>(trunc(a.x), round(a.x));
    o.r2 = vec2<f64>(fract(a.x), sign(a.x));
    o.r3 = vec2<f64>(-abs(a.x), 1.0lf / a.x);";

/// `sign` is 0 for zeros and NaN (as SSG); `fract(x)` is `x - floor(x)` (NaN for infinities).
fn rounding(a: [f64; 2], _b: [f64; 2]) -> Vec<Want> {
    let x = a[0];
    let sign = if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    };
    [
        x.floor(),
        x.ceil(),
        x.trunc(),
        x.round_ties_even(),
        x - x.floor(),
        sign,
        -x.abs(),
        1.0 / x,
    ]
    .map(Want::D)
    .to_vec()
}

#[test]
fn rounding_sign_and_reciprocal() {
    let t = translate_src(&wgsl(ROUNDING), Language::Wgsl);
    assert!(
        t.text.contains("DFRAC") && t.text.contains("DRCP"),
        "{}",
        t.text
    );
    check("rounding", &t, &RunInputs::default, &rounding);
}

const COMPARE: &str = "
struct Out { @location(0) c: vec4<f32>, @location(1) d: vec4<f32> }
@fragment
fn main(@location(0) @interpolate(flat) a: vec2<f64>,
        @location(1) @interpolate(flat) b: vec2<f64>) -> Out {
    let x = a.x;
    let y = b.x;
    var o: Out;
    o.c = vec4<f32>(select(0.0, 1.0, x < y), select(0.0, 1.0, x <= y),
                    select(0.0, 1.0, x == y), select(0.0, 1.0, x != y));
    o.d = vec4<f32>(select(0.0, 1.0, x > y), select(0.0, 1.0, x >= y),
                    select(0.0, 1.0, all(vec2<f64>(x, y) < vec2<f64>(y, x))), 0.5);
    return o;
}";

fn compare_formula(a: [f64; 2], b: [f64; 2]) -> Vec<Want> {
    let (x, y) = (a[0], b[0]);
    let f = |c: bool| Want::F(if c { 1.0 } else { 0.0 });
    vec![
        f(x < y),
        f(x <= y),
        f(x == y),
        f(x != y),
        f(x > y),
        f(x >= y),
        f(x < y && y < x),
        Want::F(0.5),
    ]
}

#[test]
fn comparisons_as_ieee_says() {
    let t = translate_src(COMPARE, Language::Wgsl);
    assert!(
        t.text.contains("DSLT") && t.text.contains("DSEQ"),
        "{}",
        t.text
    );
    check("compare", &t, &RunInputs::default, &compare_formula);
}

const CONVERT: &str = "
struct Out { @location(0) c: vec4<f32>, @location(1) d: vec2<f64>, @location(2) e: vec2<f64> }
@fragment
fn main(@location(0) @interpolate(flat) a: vec2<f64>,
        @location(1) @interpolate(flat) b: vec2<f64>) -> Out {
    var o: Out;
    let i = i32(a.x);
    let u = u32(a.x);
    o.c = vec4<f32>(f32(a.x), bitcast<f32>(i), bitcast<f32>(u), f32(b.y * 3.0lf));
    o.d = vec2<f64>(f64(f32(a.x)), f64(i));
    o.e = vec2<f64>(f64(u), f64(i32(b.y)) + f64(select(-2.5, 1.0e-40, a.y < 0.0lf)));
    return o;
}";

/// `f64` to `f32` as the contract rounds every float: to nearest even, a subnormal result
/// flushed to a zero of its sign.
fn to_f32(x: f64) -> f32 {
    let r = x as f32;
    if r.is_subnormal() {
        0.0f32.copysign(r)
    } else {
        r
    }
}

/// `f32` to `f64`, a subnormal (a zero to every float operation) a zero of its sign.
fn from_f32(x: f32) -> f64 {
    if x.is_subnormal() {
        0.0f64.copysign(f64::from(x))
    } else {
        f64::from(x)
    }
}

/// Rust's `as` saturates and makes NaN 0, as WGSL and GLSL's conversions do.
fn convert_formula(a: [f64; 2], b: [f64; 2]) -> Vec<Want> {
    let (i, u) = (a[0] as i32, a[0] as u32);
    // The literal 1.0e-40 is an f32 subnormal: a zero to the float select.
    let small = if a[1] < 0.0 { from_f32(1.0e-40) } else { -2.5 };
    vec![
        Want::F(to_f32(a[0])),
        Want::W(i as u32),
        Want::W(u),
        Want::F(to_f32(b[1] * 3.0)),
        Want::D(from_f32(to_f32(a[0]))),
        Want::D(f64::from(i)),
        Want::D(f64::from(u)),
        Want::D(f64::from(b[1] as i32) + small),
    ]
}

#[test]
fn conversions_between_f64_f32_i32_and_u32() {
    let t = translate_src(CONVERT, Language::Wgsl);
    check("convert", &t, &RunInputs::default, &convert_formula);
}

const VECTORS: &str = "
struct U { s: f32, d: f64, v: vec3<f64>, w: vec2<f64>, t: f32 }
@group(0) @binding(0) var<uniform> u: U;
struct Out {
    @location(0) r0: vec2<f64>,
    @location(1) r1: vec2<f64>,
    @location(2) r2: vec2<f64>,
    @location(3) r3: vec2<f64>,
}
@fragment
fn main(@location(0) @interpolate(flat) a: vec2<f64>,
        @location(1) @interpolate(flat) b: vec2<f64>) -> Out {
    let v = vec3<f64>(a, b.x);
    let w = vec3<f64>(b.y, u.d, 2.5lf);
    let m = mat2x2<f64>(a, u.w);
    var o: Out;
    o.r0 = vec2<f64>(dot(v, w), length(w));
    o.r1 = cross(v, w).yz;
    o.r2 = m * b + u.v.xz * f64(u.s);
    let parts = modf(a.x);
    o.r3 = vec2<f64>(parts.whole + ldexp(b.x, i32(a.y)), parts.fract + f64(u.t));
    return o;
}";

/// The uniform buffer's values and its bytes as WGSL lays them out (`f64` aligned to 8, `vec3`
/// of `f64` to 32): s at 0, d at 8, v at 32, w at 64, t at 80.
const S: f32 = 0.75;
const D: f64 = -1.0 / 3.0;
const V: [f64; 3] = [1e-3, 7.0, -2.0e10];
const W: [f64; 2] = [0.2, -4.5];
const TT: f32 = -0.125;

fn uniform_bytes() -> Vec<u8> {
    let mut b = vec![0u8; 96];
    b[0..4].copy_from_slice(&S.to_le_bytes());
    b[8..16].copy_from_slice(&D.to_le_bytes());
    for (k, x) in V.iter().enumerate() {
        b[32 + 8 * k..40 + 8 * k].copy_from_slice(&x.to_le_bytes());
    }
    for (k, x) in W.iter().enumerate() {
        b[64 + 8 * k..72 + 8 * k].copy_from_slice(&x.to_le_bytes());
    }
    b[80..84].copy_from_slice(&TT.to_le_bytes());
    b
}

/// CONST[0..] from the buffer's bytes: word k to CONST[k / 4], component k % 4.
fn uniform_inputs() -> RunInputs {
    let mut i = RunInputs::default();
    for (k, w) in uniform_bytes().chunks_exact(4).enumerate() {
        let e = i.constants.entry((0, (k / 4) as u32)).or_insert([0; 4]);
        e[k % 4] = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
    }
    i
}

/// `x * 2^n` for the exponents the table gives (small, or saturated at `i32::MIN` / `MAX`).
fn ldexp(x: f64, n: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    match n {
        n if n > 2000 => f64::INFINITY.copysign(x),
        n if n < -2000 => 0.0f64.copysign(x),
        n => x * 2f64.powi(n),
    }
}

/// `dot` sums as `(a0 b0 + a2 b2) + a1 b1` (two products to an instruction), `cross` and
/// `m * v` round each product and each sum; `modf(x)` is `(x - trunc(x), trunc(x))`.
fn vectors(a: [f64; 2], b: [f64; 2]) -> Vec<Want> {
    let v = [a[0], a[1], b[0]];
    let w = [b[1], D, 2.5];
    let dot = |p: [f64; 3], q: [f64; 3]| (p[0] * q[0] + p[2] * q[2]) + p[1] * q[1];
    let cross_y = v[2] * w[0] - v[0] * w[2];
    let cross_z = v[0] * w[1] - v[1] * w[0];
    let s = f64::from(S);
    let m = [a[0] * b[0] + W[0] * b[1], a[1] * b[0] + W[1] * b[1]];
    let whole = a[0].trunc();
    vec![
        Want::D(dot(v, w)),
        Want::D(dot(w, w).sqrt()),
        Want::D(cross_y),
        Want::D(cross_z),
        Want::D(m[0] + V[0] * s),
        Want::D(m[1] + V[2] * s),
        Want::D(whole + ldexp(b[0], a[1] as i32)),
        Want::D((a[0] - whole) + f64::from(TT)),
    ]
}

/// The same in GLSL (naga's GLSL front end has no `modf`): std140 lays the block out as WGSL does.
const VECTORS_GLSL: &str = "#version 450
layout(location = 0) flat in dvec2 a;
layout(location = 1) flat in dvec2 b;
layout(location = 0) out dvec2 r0;
layout(location = 1) out dvec2 r1;
layout(location = 2) out dvec2 r2;
layout(location = 3) out dvec2 r3;
layout(set = 0, binding = 0) uniform U { float s; double d; dvec3 v; dvec2 w; float t; } u;
void main() {
    dvec3 v = dvec3(a, b.x);
    dvec3 w = dvec3(b.y, u.d, double(2.5));
    dmat2 m = dmat2(a, u.w);
    r0 = dvec2(dot(v, w), length(w));
    r1 = cross(v, w).yz;
    r2 = m * b + u.v.xz * double(u.s);
    double whole = trunc(a.x);
    double fr = a.x - whole;
    r3 = dvec2(whole + ldexp(b.x, int(a.y)), fr + double(u.t));
}";

#[test]
fn vectors_matrices_and_uniforms() {
    let t = translate_src(VECTORS, Language::Wgsl);
    let b = &t.bindings;
    let at = |path: &str| {
        b.find(path)
            .iter()
            .map(|m| (m.register, m.components(), m.offset, m.kind))
            .collect::<Vec<_>>()
    };
    use translate::layout::ScalarKind::{Double, Float};
    assert_eq!(at("u.s"), [(0, "x".into(), 0, Float)], "{b:?}");
    assert_eq!(at("u.d"), [(0, "zw".into(), 8, Double)]);
    assert_eq!(
        at("u.v"),
        [(2, "xyzw".into(), 32, Double), (3, "xy".into(), 48, Double)]
    );
    assert_eq!(at("u.w"), [(4, "xyzw".into(), 64, Double)]);
    assert_eq!(at("u.t"), [(5, "x".into(), 80, Float)]);
    assert!(t.text.contains("DLDEXP"), "{}", t.text);
    check("vectors", &t, &uniform_inputs, &vectors);
    let glsl = translate_src(VECTORS_GLSL, Language::Glsl(translate::Stage::Fragment));
    let at = |path: &str| {
        let b = &glsl.bindings;
        b.find(path)
            .iter()
            .map(|m| (m.register, m.components(), m.offset))
            .collect::<Vec<_>>()
    };
    assert_eq!(at("u.v"), [(2, "xyzw".into(), 32), (3, "xy".into(), 48)]);
    assert_eq!(at("u.t"), [(5, "x".into(), 80)]);
    check("vectors.frag", &glsl, &uniform_inputs, &vectors);
}

/// What stays refused, by name and place: functions with no double opcode or sequence, inputs
/// a flat register pair cannot carry, derivatives.
#[test]
fn what_has_no_double_translation_is_refused_by_name() {
    let cases = [
        (
            "o.r0 = vec2<f64>(sin(a.x), 0.0lf);",
            "doubles:12:18: error: the built-in function `sin` is not translated",
        ),
        (
            "o.r0 = vec2<f64>(exp2(a.x), 0.0lf);",
            "doubles:12:18: error: the built-in function `exp2` is not translated",
        ),
        (
            "o.r0 = vec2<f64>(pow(a.x, b.x), 0.0lf);",
            "doubles:12:18: error: the built-in function `pow` is not translated",
        ),
        (
            "o.r0 = vec2<f64>(dpdx(a.x), 0.0lf);",
            "doubles:12:18: error: a derivative of an `f64` value",
        ),
    ];
    for (body, want) in cases {
        let src = wgsl(body);
        match translate::translate(src.as_bytes(), Language::Wgsl, "doubles", None) {
            Err(e) => {
                let text = e.to_string();
                assert!(text.starts_with(want), "{body}:\n{text}");
            }
            Ok(_) => panic!("{body}: translated"),
        }
    }
    let interpolated =
        "@fragment\nfn main(@location(0) a: vec2<f64>) -> @location(0) vec4<f32> {\n\
                        return vec4<f32>(f32(a.x));\n}\n";
    let text = translate::translate(interpolated.as_bytes(), Language::Wgsl, "doubles", None)
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(
        text.contains("`vec2<f64>`") && text.contains("must be flat"),
        "{text}"
    );
    let wide = "@fragment\nfn main(@location(0) @interpolate(flat) a: vec3<f64>) -> \
                @location(0) vec4<f32> {\nreturn vec4<f32>(f32(a.x));\n}\n";
    let text = translate::translate(wide.as_bytes(), Language::Wgsl, "doubles", None)
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(
        text.contains("`vec3<f64>`") && text.contains("at most two doubles"),
        "{text}"
    );
}

const MATRICES: &str = "
    let m = mat2x2<f64>(a, b);
    let n = transpose(m);
    o.r0 = (m * n)[1];
    o.r1 = b * m;
    o.r2 = vec2<f64>(determinant(m), (m - n)[0].y);
    o.r3 = (m * 2.0lf + n)[1];";

/// Products and sums round each product and each sum (DMUL, DMAD, DADD).
fn matrices(a: [f64; 2], b: [f64; 2]) -> Vec<Want> {
    let m = [a, b];
    let n = [[a[0], b[0]], [a[1], b[1]]];
    let mv = |v: [f64; 2]| {
        [
            m[0][0] * v[0] + m[1][0] * v[1],
            m[0][1] * v[0] + m[1][1] * v[1],
        ]
    };
    let mn1 = mv(n[1]);
    let bm = [b[0] * a[0] + b[1] * a[1], b[0] * b[0] + b[1] * b[1]];
    [
        mn1[0],
        mn1[1],
        bm[0],
        bm[1],
        a[0] * b[1] - b[0] * a[1],
        m[0][1] - n[0][1],
        m[1][0] * 2.0 + n[1][0],
        m[1][1] * 2.0 + n[1][1],
    ]
    .map(Want::D)
    .to_vec()
}

#[test]
fn matrix_products_transpose_and_determinant() {
    let t = translate_src(&wgsl(MATRICES), Language::Wgsl);
    check("matrices", &t, &RunInputs::default, &matrices);
}

const VERTEX: &str = "
struct V { @builtin(position) pos: vec4<f32>, @location(0) @interpolate(flat) q: vec2<f64> }
@vertex
fn main(@location(0) a: vec2<f64>, @location(1) b: vec2<f64>) -> V {
    var o: V;
    o.pos = vec4<f32>(f32(a.x), 0.0, 0.0, 1.0);
    o.q = vec2<f64>(a.x * b.y + a.y, sqrt(abs(b.x)));
    return o;
}";

#[test]
fn vertex_attributes_and_varyings() {
    let t = translate_src(VERTEX, Language::Wgsl);
    check("vertex", &t, &RunInputs::default, &|a, b| {
        vec![
            Want::F(to_f32(a[0])),
            Want::F(0.0),
            Want::F(0.0),
            Want::F(1.0),
            Want::D(a[0] * b[1] + a[1]),
            Want::D(b[0].abs().sqrt()),
        ]
    });
}

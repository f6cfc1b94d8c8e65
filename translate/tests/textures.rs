//! Proof of meaning for textures beyond plain 2-D lookups and for the vertex system values:
//! array layers, depth comparisons (also on arrays and cube-map arrays), cube-map arrays,
//! `textureGather`, texel offsets, multisampled loads, layer queries; `vertex_index` and
//! `instance_index`. Rendered (or run) on the reference model and on the core model, which must
//! agree, against plain-Rust formulas of nearest sampling.

use microcode::compile::compile;
use microcode::core::CoreConfig;
use microcode::tgsi::Program;
use sim::render::{render, Frame};
use sim::run_io::{RunInputs, Sampler};
use sim::texture::{Format, Texture};
use std::collections::BTreeMap;
use translate::{Language, Stage};

const W: u32 = 16;
const H: u32 = 16;
/// Texture size (each side) and layers.
const S: u32 = 4;
const LAYERS: u32 = 3;

/// Texel (x, y) of layer l: (x / 4, y / 4, l / 4, depth) with depth = (x + y + l) / 12.
fn texel(x: u32, y: u32, l: u32) -> [f32; 4] {
    [
        x as f32 / 4.0,
        y as f32 / 4.0,
        l as f32 / 4.0,
        (x + y + l) as f32 / 12.0,
    ]
}

fn array_texture() -> Texture {
    let mut texels = Vec::new();
    for l in 0..LAYERS {
        for y in 0..S {
            for x in 0..S {
                texels.push(texel(x, y, l).map(f32::to_bits));
            }
        }
    }
    Texture::new(S, S, LAYERS, Format::Rgba, texels).unwrap()
}

/// A depth texture: the first channel holds texel()'s depth.
fn depth_texture(layers: u32) -> Texture {
    let mut texels = Vec::new();
    for l in 0..layers {
        for y in 0..S {
            for x in 0..S {
                texels.push([texel(x, y, l)[3].to_bits(), 0, 0, 1.0f32.to_bits()]);
            }
        }
    }
    Texture::new(S, S, layers, Format::Rgba, texels).unwrap()
}

/// A cube-map array: face f, layer l, texel (x, y) holds (f / 8, l / 4, x / 4, y / 4).
fn cube_array() -> Texture {
    let mut texels = Vec::new();
    for f in 0..6 {
        for l in 0..LAYERS {
            for y in 0..S {
                for x in 0..S {
                    let t = [
                        f as f32 / 8.0,
                        l as f32 / 4.0,
                        x as f32 / 4.0,
                        y as f32 / 4.0,
                    ];
                    texels.push(t.map(f32::to_bits));
                }
            }
        }
    }
    Texture::new_cube_array(S, LAYERS, Format::Rgba, texels).unwrap()
}

/// Nearest texel index of a normalised coordinate with repeat wrapping.
fn at(c: f32) -> u32 {
    ((c * S as f32).floor() as i64).rem_euclid(S as i64) as u32
}

fn frame(p: &Program, textures: &dyn Fn() -> Vec<Option<Box<dyn Sampler>>>) -> Frame {
    let run = |core: bool| {
        let mut inputs = RunInputs {
            textures: textures(),
            ..RunInputs::default()
        };
        let image = core.then(|| {
            compile(p, &CoreConfig::default())
                .unwrap_or_else(|e| panic!("{e}"))
                .image
        });
        render(
            p,
            W,
            H,
            &BTreeMap::new(),
            &mut inputs,
            &mut |x| match &image {
                Some(image) => sim::core_model::run(image, x).map_err(|e| e.to_string()),
                None => sim::reference::run(p, x).map_err(|e| e.to_string()),
            },
            &mut |_, _| {},
        )
        .unwrap_or_else(|e| panic!("render: {e}"))
    };
    let reference = run(false);
    assert_eq!(reference.pixels, run(true).pixels, "the core model differs");
    reference
}

fn byte(x: f32) -> u8 {
    (x.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// Renders `src` (one texture per binding, in order) and compares every pixel exactly.
fn check(
    src: &str,
    lang: Language,
    textures: &dyn Fn() -> Vec<Option<Box<dyn Sampler>>>,
    formula: &dyn Fn(f32, f32) -> [f32; 4],
) {
    let name = if lang == Language::Wgsl {
        "t.wgsl"
    } else {
        "t.frag"
    };
    let t =
        translate::translate(src.as_bytes(), lang, name, None).unwrap_or_else(|e| panic!("{e}"));
    let f = frame(&t.program, textures);
    for y in 0..H {
        for x in 0..W {
            let (u, v) = ((x as f32 + 0.5) / W as f32, (y as f32 + 0.5) / H as f32);
            let want = formula(u, v).map(byte);
            assert_eq!(
                f.pixels[(y * W + x) as usize],
                want,
                "pixel ({x}, {y})\n{}",
                t.text
            );
        }
    }
}

fn boxed(t: Texture) -> Option<Box<dyn Sampler>> {
    Some(Box::new(t))
}

const ARRAYS_WGSL: &str = "
@group(0) @binding(0) var t: texture_2d_array<f32>;
@group(0) @binding(1) var s: sampler;
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let layer = i32(uv.x * 3.0);
    let a = textureSample(t, s, uv, layer);
    let b = textureLoad(t, vec2<i32>(uv * 4.0), 2 - layer, 0);
    let n = textureNumLayers(t);
    let d = textureDimensions(t);
    return vec4<f32>(a.x, a.z, b.w, f32(n * 10u + d.x) / 64.0);
}";

const ARRAYS_GLSL: &str = "#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform texture2DArray t;
layout(set = 0, binding = 1) uniform sampler s;
void main() {
    int layer = int(uv.x * 3.0);
    vec4 a = texture(sampler2DArray(t, s), vec3(uv, float(layer)));
    vec4 b = texelFetch(sampler2DArray(t, s), ivec3(uv * 4.0, 2 - layer), 0);
    ivec3 d = textureSize(sampler2DArray(t, s), 0);
    color = vec4(a.x, a.z, b.w, float(d.z * 10 + d.x) / 64.0);
}";

#[test]
fn array_layers_sample_fetch_and_query() {
    let formula = |u: f32, v: f32| {
        let layer = (u * 3.0) as u32;
        let a = texel(at(u), at(v), layer);
        let b = texel((u * 4.0) as u32, (v * 4.0) as u32, 2 - layer);
        [a[0], a[2], b[3], (3.0 * 10.0 + 4.0) / 64.0]
    };
    let textures = || vec![boxed(array_texture())];
    check(ARRAYS_WGSL, Language::Wgsl, &textures, &formula);
    check(
        ARRAYS_GLSL,
        Language::Glsl(Stage::Fragment),
        &textures,
        &formula,
    );
}

const DEPTH_WGSL: &str = "
@group(0) @binding(0) var d: texture_depth_2d;
@group(0) @binding(1) var da: texture_depth_2d_array;
@group(0) @binding(2) var sc: sampler_comparison;
@group(0) @binding(3) var s: sampler;
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let reference = uv.y;
    let a = textureSampleCompare(d, sc, uv, reference);
    let b = textureSampleCompareLevel(da, sc, uv, 2, reference);
    let c = textureSample(d, s, uv);
    return vec4<f32>(a, b, c, 1.0);
}";

#[test]
fn depth_textures_and_comparisons() {
    let formula = |u: f32, v: f32| {
        let depth = |l| texel(at(u), at(v), l)[3];
        let pass = |l| if v <= depth(l) { 1.0 } else { 0.0 };
        [pass(0), pass(2), depth(0), 1.0]
    };
    check(
        DEPTH_WGSL,
        Language::Wgsl,
        &|| vec![boxed(depth_texture(1)), boxed(depth_texture(3))],
        &formula,
    );
}

const CUBE_ARRAY_WGSL: &str = "
@group(0) @binding(0) var c: texture_cube_array<f32>;
@group(0) @binding(1) var dc: texture_depth_cube_array;
@group(0) @binding(2) var s: sampler;
@group(0) @binding(3) var sc: sampler_comparison;
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    // Directions through face +X: s = (-z / x + 1) / 2, t = (-y / x + 1) / 2.
    let dir = vec3<f32>(1.0, 1.0 - 2.0 * uv.y, 1.0 - 2.0 * uv.x);
    let layer = i32(uv.y * 3.0);
    let a = textureSample(c, s, dir, layer);
    let b = textureSampleCompare(dc, sc, dir, layer, 0.3);
    return vec4<f32>(a.x, a.y, a.z + a.w, b);
}";

#[test]
fn cube_map_arrays_and_their_depth_comparison() {
    // The depth cube array: every face and layer holds the depth of texel() of its layer.
    let depth_cube = || {
        let mut texels = Vec::new();
        for _ in 0..6 {
            for l in 0..LAYERS {
                for y in 0..S {
                    for x in 0..S {
                        texels.push([texel(x, y, l)[3].to_bits(), 0, 0, 0]);
                    }
                }
            }
        }
        Texture::new_cube_array(S, LAYERS, Format::Rgba, texels).unwrap()
    };
    let formula = |u: f32, v: f32| {
        let (s, t) = (u, v);
        let layer = (v * 3.0) as u32;
        let (x, y) = (at(s), at(t));
        let depth = texel(x, y, layer)[3];
        [
            0.0,
            layer as f32 / 4.0,
            x as f32 / 4.0 + y as f32 / 4.0,
            if 0.3 <= depth { 1.0 } else { 0.0 },
        ]
    };
    check(
        CUBE_ARRAY_WGSL,
        Language::Wgsl,
        &|| vec![boxed(cube_array()), boxed(depth_cube())],
        &formula,
    );
}

const GATHER_WGSL: &str = "
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let g = textureGather(1, t, s, uv);
    let o = textureSample(t, s, uv, vec2<i32>(1, -1));
    return vec4<f32>(g.x * 0.5 + g.w * 0.25, g.y * 0.5 + g.z * 0.25, o.x, o.y);
}";

#[test]
fn gather_and_texel_offsets() {
    let flat = || {
        let texels = (0..S * S)
            .map(|i| texel(i % S, i / S, 0).map(f32::to_bits))
            .collect();
        Texture::new(S, S, 1, Format::Rgba, texels).unwrap()
    };
    let formula = |u: f32, v: f32| {
        // The footprint: i0 = floor(u S - 0.5), wrapped; gather's order (-u +v, +u +v, +u -v,
        // -u -v); component 1 is y / 4 (y the row).
        let wrap = |i: i64| i.rem_euclid(S as i64) as u32;
        let i0 = ((u * S as f32 - 0.5).floor()) as i64;
        let j0 = ((v * S as f32 - 0.5).floor()) as i64;
        let g = |i: i64, j: i64| texel(wrap(i), wrap(j), 0)[1];
        let gx = g(i0, j0 + 1);
        let gy = g(i0 + 1, j0 + 1);
        let gz = g(i0 + 1, j0);
        let gw = g(i0, j0);
        let o = texel(wrap(at(u) as i64 + 1), wrap(at(v) as i64 - 1), 0);
        [gx * 0.5 + gw * 0.25, gy * 0.5 + gz * 0.25, o[0], o[1]]
    };
    check(
        GATHER_WGSL,
        Language::Wgsl,
        &|| vec![boxed(flat())],
        &formula,
    );
}

const MULTISAMPLED_WGSL: &str = "
@group(0) @binding(0) var t: texture_multisampled_2d<f32>;
@fragment
fn main(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {
    let c = textureLoad(t, vec2<i32>(p.xy) / 4, 0);
    return vec4<f32>(c.xy, f32(textureNumSamples(t)) * 0.5, 1.0);
}";

#[test]
fn multisampled_textures_hold_one_sample() {
    let flat = || {
        let texels = (0..S * S)
            .map(|i| texel(i % S, i / S, 0).map(f32::to_bits))
            .collect();
        Texture::new(S, S, 1, Format::Rgba, texels).unwrap()
    };
    check(
        MULTISAMPLED_WGSL,
        Language::Wgsl,
        &|| vec![boxed(flat())],
        &|u, v| {
            let (x, y) = ((u * W as f32) as u32 / 4, (v * H as f32) as u32 / 4);
            let c = texel(x, y, 0);
            [c[0], c[1], 0.5, 1.0]
        },
    );
}

const VERTEX_INDEX_WGSL: &str = "
struct Out { @builtin(position) pos: vec4<f32>, @location(0) uv: vec2<f32> }
@vertex
fn main(@builtin(vertex_index) i: u32, @builtin(instance_index) k: u32) -> Out {
    // The full-screen triangle of every post-process pass.
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return Out(vec4<f32>(uv * 2.0 - 1.0, f32(k), 1.0), uv);
}";

const VERTEX_INDEX_GLSL: &str = "#version 450
layout(location = 0) out vec2 uv;
void main() {
    uv = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2));
    gl_Position = vec4(uv * 2.0 - 1.0, float(gl_InstanceIndex), 1.0);
}";

#[test]
fn vertex_and_instance_index_are_system_values() {
    for (src, lang) in [
        (VERTEX_INDEX_WGSL, Language::Wgsl),
        (VERTEX_INDEX_GLSL, Language::Glsl(Stage::Vertex)),
    ] {
        let t =
            translate::translate(src.as_bytes(), lang, "v", None).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            t.text.contains("VERTEXID") && t.text.contains("INSTANCEID"),
            "{}",
            t.text
        );
        let p = &t.program;
        let inputs = RunInputs::default();
        let reference = sim::reference::run(p, &inputs).unwrap();
        let image = compile(p, &CoreConfig::default()).unwrap().image;
        let core = sim::core_model::run(
            &image,
            &RunInputs {
                inputs: inputs.effective_inputs(p),
                ..RunInputs::default()
            },
        )
        .unwrap();
        let pos = if t.text.contains("DCL OUT[0], POSITION") {
            0
        } else {
            1
        };
        for out in [&reference, &core] {
            for lane in 0..4u32 {
                // The run's four lanes are vertices 0 to 3 of instance 0.
                let uv = [((lane << 1) & 2) as f32, (lane & 2) as f32];
                let want = [uv[0] * 2.0 - 1.0, uv[1] * 2.0 - 1.0, 0.0, 1.0];
                let got = out.lanes[lane as usize].outputs[&pos].map(f32::from_bits);
                assert_eq!(got, want, "{} lane {lane}", out.engine);
            }
        }
    }
}

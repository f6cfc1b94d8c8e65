//! Vertex entry points: a transform written in WGSL and in GLSL, run on the reference model for
//! four vertices, against the same arithmetic in plain Rust f32.

use sim::run_io::RunInputs;

const WGSL: &str = "
struct Transform { scale: vec4<f32>, offset: vec4<f32> }
@group(0) @binding(0) var<uniform> t: Transform;
struct Out { @builtin(position) pos: vec4<f32>, @location(0) uv: vec2<f32> }
@vertex
fn main(@location(0) p: vec4<f32>, @location(1) c: vec2<f32>) -> Out {
    var o: Out;
    o.pos = p * t.scale + t.offset;
    o.uv = c.yx * 0.5 + vec2<f32>(dot(p.xy, p.xy));
    return o;
}";

const GLSL: &str = "#version 450
layout(location = 0) in vec4 p;
layout(location = 1) in vec2 c;
layout(location = 0) out vec2 uv;
layout(set = 0, binding = 0) uniform Transform { vec4 scale; vec4 offset; };
void main() {
    gl_Position = p * scale + offset;
    uv = c.yx * 0.5 + vec2(dot(p.xy, p.xy));
}";

const SCALE: [f32; 4] = [0.5, 2.0, 1.0, 1.0];
const OFFSET: [f32; 4] = [0.25, -1.0, 0.0, 0.0];

fn vertex(lane: usize) -> ([f32; 4], [f32; 4]) {
    let l = lane as f32;
    (
        [l - 1.5, 0.5 * l, 0.25, 1.0],
        [0.1 * l, 1.0 - 0.2 * l, 0.0, 1.0],
    )
}

#[test]
fn vertex_shaders_transform_like_the_formula() {
    for (name, src, lang) in [
        ("v.wgsl", WGSL, translate::Language::Wgsl),
        (
            "v.vert",
            GLSL,
            translate::Language::Glsl(translate::Stage::Vertex),
        ),
    ] {
        let t = translate::translate(src.as_bytes(), lang, name, None)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(t.stage, translate::Stage::Vertex);
        let p = &t.program;
        let mut inputs = RunInputs::default();
        inputs.constants.insert((0, 0), SCALE.map(f32::to_bits));
        inputs.constants.insert((0, 1), OFFSET.map(f32::to_bits));
        // Vertex inputs at location N are IN[N].
        for n in 0..2u32 {
            let lanes = std::array::from_fn(|lane| {
                let (pos, c) = vertex(lane);
                if n == 0 { pos } else { c }.map(f32::to_bits)
            });
            inputs.inputs.insert(n, lanes);
        }
        let out = sim::reference::run(p, &inputs).unwrap_or_else(|e| panic!("{name}: {e}"));
        // Outputs in declaration order: WGSL's struct puts position first, GLSL's wrapper too.
        let text = &t.text;
        let pos_reg = if text.contains("DCL OUT[0], POSITION") {
            0
        } else {
            1
        };
        let uv_reg = 1 - pos_reg;
        assert!(
            text.contains(&format!("DCL OUT[{uv_reg}], GENERIC[0]")),
            "{text}"
        );
        for lane in 0..4 {
            let (pos, c) = vertex(lane);
            let o = &out.lanes[lane].outputs;
            let got_pos = o[&pos_reg].map(f32::from_bits);
            let want_pos: [f32; 4] = std::array::from_fn(|i| pos[i] * SCALE[i] + OFFSET[i]);
            assert_eq!(got_pos, want_pos, "{name} lane {lane} position");
            let d = pos[0] * pos[0] + pos[1] * pos[1];
            let got_uv = o[&uv_reg].map(f32::from_bits);
            assert_eq!(got_uv[0], c[1] * 0.5 + d, "{name} lane {lane} uv.x");
            assert_eq!(got_uv[1], c[0] * 0.5 + d, "{name} lane {lane} uv.y");
        }
    }
}

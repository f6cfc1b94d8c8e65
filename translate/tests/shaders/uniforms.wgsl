struct Params {
    tint: vec4<f32>,
    offset: vec4<f32>,
    scale: f32,
}
@group(0) @binding(0) var<uniform> params: Params;
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    return params.tint * uv.x * params.scale + params.offset;
}

struct Transform {
    m: mat4x4<f32>,
}
@group(0) @binding(0) var<uniform> t: Transform;

@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let p = vec4<f32>(uv, 0.5, 1.0);
    let a = t.m * p;
    let b = p * t.m;
    return vec4<f32>(a.xy, b.zw);
}

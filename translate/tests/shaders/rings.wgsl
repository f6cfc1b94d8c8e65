@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let r = length(uv - vec2<f32>(0.5));
    let s = sin(r * 40.0) * 0.5 + 0.5;
    return vec4<f32>(s, s * s, 1.0 - s, 1.0);
}

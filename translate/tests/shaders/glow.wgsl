@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let d = distance(uv, vec2<f32>(0.5));
    let c = smoothstep(0.45, 0.05, d);
    return vec4<f32>(c * uv.x, c * uv.y, c, 1.0);
}

@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let a = select(0.2, 1.0, uv.x < uv.y);
    let b = mix(0.2, 0.9, uv.x);
    let c = select(vec2<f32>(0.1, 0.3), vec2<f32>(0.7, 0.9), uv.x + uv.y > 1.0);
    return vec4<f32>(a, b, c);
}

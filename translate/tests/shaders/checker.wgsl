@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let cell = floor(uv * 8.0);
    let t = step(0.5, fract((cell.x + cell.y) * 0.5));
    return mix(vec4<f32>(0.9, 0.35, 0.1, 1.0), vec4<f32>(1.0), t);
}

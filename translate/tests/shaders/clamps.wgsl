@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    return vec4<f32>(clamp(uv.x * 2.0 - 0.5, 0.0, 1.0), step(0.5, uv.y), max(uv.x, uv.y), min(uv.x, uv.y));
}

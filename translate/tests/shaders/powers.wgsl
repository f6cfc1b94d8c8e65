@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    return vec4<f32>(pow(uv.x, 2.2), sqrt(uv.y), inverseSqrt(1.0 + uv.x * 3.0), pow(uv.y + 0.1, 0.45));
}

fn tri(x: f32) -> f32 {
    return abs(fract(x) * 2.0 - 1.0);
}
fn band(x: f32, w: f32) -> f32 {
    if (x < w) {
        return 1.0;
    }
    return 0.25;
}
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    return vec4<f32>(tri(uv.x * 3.0), tri(uv.y * 2.0 + 0.25), band(uv.x, uv.y), 1.0);
}

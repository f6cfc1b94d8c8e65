@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    return vec4<f32>(exp2(uv.x * 3.0) / 8.0, log2(1.0 + uv.y * 7.0) / 3.0, exp(uv.x) / 2.75, log(1.0 + uv.y * 1.7));
}

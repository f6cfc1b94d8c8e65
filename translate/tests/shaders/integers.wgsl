@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let k = i32(uv.x * 8.0);
    let j = i32(uv.y * 8.0);
    return vec4<f32>(f32(k % 3) / 2.0, f32((k + j) / 3) / 4.0, f32(k * j) / 49.0, 1.0);
}

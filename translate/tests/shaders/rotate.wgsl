@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let m = mat2x2<f32>(vec2<f32>(0.8, 0.6), vec2<f32>(-0.6, 0.8));
    let p = m * (uv - vec2<f32>(0.5));
    let q = (uv - vec2<f32>(0.5)) * m;
    return vec4<f32>(p + vec2<f32>(0.5), q.x + 0.5, 1.0);
}

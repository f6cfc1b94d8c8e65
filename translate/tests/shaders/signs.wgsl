@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let x = uv * 2.0 - vec2<f32>(1.0);
    return vec4<f32>(sign(x.x) * 0.5 + 0.5, abs(x.y), round(uv.x * 4.0) * 0.25, -x.x * 0.5 + 0.5);
}

@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let x = uv * 4.0 - vec2<f32>(2.0);
    return vec4<f32>(fract(uv.x * 3.7), floor(x.y) * 0.25 + 0.5, ceil(x.x) * 0.25 + 0.5, trunc(x.y) * 0.25 + 0.5);
}

@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let p = uv - vec2<f32>(0.5);
    if (dot(p, p) > 0.2) {
        discard;
    }
    return vec4<f32>(uv.x, 1.0 - uv.y, 0.2, 1.0);
}

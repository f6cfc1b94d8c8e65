@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    var acc = 0.0;
    for (var i = 0; i < 4; i++) {
        acc += sin(uv.x * f32(i + 1) * 3.0) * 0.25;
    }
    return vec4<f32>(acc * 0.5 + 0.5, uv.y, 0.0, 1.0);
}

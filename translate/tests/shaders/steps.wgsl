@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    var acc = 0.0;
    var i = 0;
    loop {
        if (i >= 8) { break; }
        i += 1;
        if (i == 3) { continue; }
        if (f32(i) * 0.125 > uv.y) { break; }
        acc += 0.125;
    }
    return vec4<f32>(acc, f32(i) / 8.0, uv.x, 1.0);
}

@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    var c = vec4<f32>(0.0);
    let k = i32(uv.x * 4.0);
    c[k] = 1.0;
    for (var i = 0; i < 2; i++) {
        c[i + 2] += uv.y * 0.25;
    }
    let w = vec4<f32>(0.1, 0.4, 0.7, 1.0);
    let j = i32(uv.y * 4.0);
    return vec4<f32>(c.x, c.y + c.z * 0.5, w[j], c.w);
}

@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let f = uv.x * uv.x * 8.0;
    let g = uv.y * uv.y * 8.0;
    return vec4<f32>(dpdx(f) * 2.0, dpdy(g) * 2.0, fwidth(f + g), 1.0);
}

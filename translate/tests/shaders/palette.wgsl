struct Palette {
    colours: array<vec4<f32>, 4>,
    gain: vec4<f32>,
}
@group(0) @binding(0) var<uniform> palette: Palette;

@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let i = i32(uv.x * 4.0);
    let j = i32(uv.y * 6.0) - 1;
    return palette.colours[i] * palette.gain.x + palette.colours[j] * palette.gain.y;
}

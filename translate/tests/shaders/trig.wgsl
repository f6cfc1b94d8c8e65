@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    return vec4<f32>(sin(uv.x * 6.2831853) * 0.5 + 0.5, cos(uv.y * 6.2831853) * 0.5 + 0.5, tan(uv.x * 0.7), 1.0);
}

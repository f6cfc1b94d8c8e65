// Inverse trigonometry: atan, atan2 over all four quadrants, asin, acos.
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let x = uv.x * 2.0 - 1.0;
    let y = uv.y * 2.0 - 1.0;
    return vec4<f32>(
        atan(x * 4.0) / 3.14159265 + 0.5,
        atan2(y, x) / 6.2831853 + 0.5,
        asin(x) / 3.14159265 + 0.5,
        acos(y) / 3.14159265,
    );
}

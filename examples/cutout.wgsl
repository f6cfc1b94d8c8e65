// WGSL twin of cutout.tgsi: COS of a direction and a discard make a four-lobed cut-out.
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let p = uv - vec2<f32>(0.5);
    let r2 = dot(p, p);
    let rs = inverseSqrt(r2);
    let r = r2 * rs;
    let edge = cos(p.x * rs * 5.0) * 0.12 + 0.3;
    if (edge - r < 0.0) {
        discard;
    }
    let t = r * 5.0;
    return vec4<f32>(mix(vec3<f32>(1.0, 0.8, 0.2), vec3<f32>(0.0, 1.0, 0.2), t), 1.0);
}

// WGSL twin of rings.tgsi: a loop with a break, RSQ and SIN; three summed ring patterns.
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let p = uv - vec2<f32>(0.5);
    let r2 = dot(p, p);
    let r = r2 * inverseSqrt(r2);
    var acc = vec3<f32>(0.0);
    var i = 0.0;
    loop {
        if (i >= 3.0) {
            break;
        }
        let s = sin(r * 40.0 + i);
        acc = s * 0.25 + acc;
        acc.y = acc.y * 0.5;
        i = i + 1.0;
    }
    return vec4<f32>(acc * 0.3333333 + vec3<f32>(0.5), 1.0);
}

@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let a = vec3<f32>(uv, 1.0);
    let b = vec3<f32>(1.0 - uv.y, 0.5, uv.x);
    let c = cross(a, b);
    let n = normalize(a);
    return vec4<f32>(c * 0.5 + vec3<f32>(0.5), n.z * length(b) * 0.5);
}

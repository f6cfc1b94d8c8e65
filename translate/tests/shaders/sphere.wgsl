@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let p = uv * 2.0 - vec2<f32>(1.0);
    let r2 = dot(p, p);
    if (r2 > 1.0) {
        discard;
    }
    let n = vec3<f32>(p.x, -p.y, sqrt(1.0 - r2));
    let l = normalize(vec3<f32>(0.5, 0.5, 1.0));
    let diffuse = max(dot(n, l), 0.0);
    let spec = pow(max(dot(reflect(-l, n), vec3<f32>(0.0, 0.0, 1.0)), 0.0), 16.0);
    return vec4<f32>(vec3<f32>(0.1, 0.3, 0.8) * diffuse + vec3<f32>(spec), 1.0);
}

// A soft glow around the centre, tinted by position: distance, smoothstep and a vector mix.
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let d = distance(uv, vec2<f32>(0.5));
    let core = smoothstep(0.35, 0.0, d);
    let halo = smoothstep(0.5, 0.1, d) * 0.6;
    let tint = mix(vec3<f32>(0.1, 0.4, 1.0), vec3<f32>(1.0, 0.5, 0.1), uv.x);
    return vec4<f32>(tint * halo + vec3<f32>(core), 1.0);
}

// WGSL twin of mirror-ball.tgsi: a reflective sphere; the reflected view ray reads a cube map.
@group(0) @binding(0) var sky: texture_cube<f32>;
@group(0) @binding(1) var sky_sampler: sampler;

@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let p = vec2<f32>(uv.x * 2.0 - 1.0, -(uv.y * 2.0 - 1.0));
    let d = 1.0 - dot(p, p);
    if (d < 0.0) {
        discard;
    }
    let z = d * inverseSqrt(d);
    let k = z * 2.0;
    let ray = vec3<f32>(p, z) * k + vec3<f32>(0.0, 0.0, -1.0);
    let sky_colour = textureSample(sky, sky_sampler, ray);
    return vec4<f32>(sky_colour.xyz * (z * 0.4 + 0.6), 1.0);
}

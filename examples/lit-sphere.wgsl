// WGSL twin of lit-sphere.tgsi: a lit, textured sphere with a specular highlight and a rim.
struct Light {
    direction: vec4<f32>,
    albedo: vec4<f32>,
    ambient: vec4<f32>,
    specular: vec4<f32>,
}
@group(0) @binding(0) var<uniform> light: Light;
@group(0) @binding(1) var surface: texture_2d<f32>;
@group(0) @binding(2) var surface_sampler: sampler;

@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let p = uv * 2.0 - vec2<f32>(1.0);
    let r2 = dot(p, p);
    if (r2 > 1.0) {
        discard;
    }
    // 1 / inverseSqrt: RSQ then RCP, as the original computes sqrt.
    let z = 1.0 / inverseSqrt(1.0 - r2);
    let n = vec3<f32>(p, z);
    let diffuse = max(dot(n, light.direction.xyz), 0.0);
    let half_vector = normalize(light.direction.xyz + vec3<f32>(0.0, 0.0, 1.0));
    let spec = pow(max(dot(n, half_vector), 0.0), 24.0);
    var rim = 1.0 - z;
    for (var i = 0; i < 2; i++) {
        rim = rim * rim;
    }
    let texel = textureSample(surface, surface_sampler, p * 4.0);
    let albedo = texel * light.albedo;
    var colour = albedo.xyz * diffuse + light.ambient.xyz;
    colour = light.specular.xyz * spec + colour;
    return vec4<f32>(light.ambient.xyz * rim + colour, 1.0);
}

// textureLoad (TXF) at integer coordinates, some outside the texture, and textureDimensions (TXQ).
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;

@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let size = textureDimensions(t);
    let p = vec2<i32>(uv * vec2<f32>(size));
    let a = textureLoad(t, p, 0);
    let b = textureLoad(t, vec2<i32>(3 - p.x, p.y * 5 - 9), 0);
    return vec4<f32>(a.x, a.y, b.z, f32(size.x * 10u + size.y) / 255.0);
}

// Conversions: f32 to i32 / u32 (clamped, negatives, beyond 2^24), i32 / u32 to f32 (rounded
// to nearest even above 2^24), bool to u32, bit casts.
struct Edges {
    v: array<vec4<i32>, 4>,
}
@group(0) @binding(0) var<uniform> edges: Edges;

// Entry i of the edge table; the XOR of the four bytes of x as a channel value.
fn edge(i: i32) -> i32 {
    return edges.v[i / 4][i % 4];
}
fn fold(x: u32) -> f32 {
    return f32((x ^ (x >> 8u) ^ (x >> 16u) ^ (x >> 24u)) & 255u) * (1.0 / 255.0);
}
fn rotl(x: u32, k: u32) -> u32 {
    return (x << k) | (x >> (32u - k));
}

@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let a = edge(i32(uv.x * 16.0));
    let b = edge(i32(uv.y * 16.0));
    let ua = u32(a);
    let f = f32(a) * 1.37 + f32(b);
    return vec4<f32>(
        fold(u32(i32(f)) ^ rotl(u32(i32(-f * 3.0)), 8u) ^ (u32(a < b) << 5u)),
        fold(u32(f) ^ rotl(u32(f * 0.5), 16u)),
        fold(bitcast<u32>(f32(a)) ^ rotl(bitcast<u32>(f32(a >> 3u)), 4u)),
        fold(bitcast<u32>(f32(ua)) ^ rotl(bitcast<u32>(f32(ua >> 1u)), 8u)),
    );
}

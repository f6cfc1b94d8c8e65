// min, max, clamp, abs and sign of i32 and u32.
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
    let ub = u32(b);
    return vec4<f32>(
        fold(u32(min(a, b)) + u32(max(a, b)) * 7u),
        fold(min(ua, ub) ^ (max(ua, ub) << 1u)),
        fold(u32(clamp(a, -1000, 1000000)) + u32(abs(a)) * 5u),
        fold(u32(sign(a)) ^ (u32(sign(b)) << 4u) ^ clamp(ua, 7u, 0x90000000u)),
    );
}

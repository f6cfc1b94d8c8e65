// / and % of i32 by variables (zero and -1 among them) and by constants.
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
    return vec4<f32>(
        fold(u32(a / b) * 31u + u32(a % b)),
        fold(u32(a / 7) ^ rotl(u32(a % -7), 8u)),
        fold(rotl(u32(a / -16), 16u) ^ u32(a % 16) ^ (u32(a / 3) * 3u)),
        fold(u32(a / (-2147483647 - 1)) ^ rotl(u32(a % 1000), 8u) ^ rotl(u32(a / 65536), 16u)),
    );
}

// / and % of u32 by variables (zero and 2^31 + 1 among them) and by constants.
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
    let ua = u32(edge(i32(uv.x * 16.0)));
    let ub = u32(edge(i32(uv.y * 16.0)));
    return vec4<f32>(
        fold((ua / ub) * 31u + (ua % ub)),
        fold((ua / 10u) ^ ((ua % 10u) << 8u)),
        fold((ua / 0x80000001u) ^ (ua % 1000000007u) ^ ((ua / 641u) << 3u)),
        fold((ua % 0x80000001u) ^ (ua / 7u) ^ ((ua % 7u) << 4u) ^ (ua / 65536u)),
    );
}

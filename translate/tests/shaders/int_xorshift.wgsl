// Xorshift32, five rounds in a u32 loop, as a noise pattern.
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
    var s = u32(uv.x * 16.0) * 0x9E3779B9u + u32(uv.y * 16.0) + 1u;
    var trail = 0u;
    for (var i = 0u; i < 5u; i++) {
        s ^= s << 13u;
        s ^= s >> 17u;
        s ^= s << 5u;
        trail += s >> (i * 4u);
    }
    let noise = f32(s >> 9u) / 8388608.0;
    let xy = (u32(uv.x * 16.0) << 8u) | u32(uv.y * 16.0);
    return vec4<f32>(fold(s), fold(trail), fold(bitcast<u32>(noise)), fold(xy));
}

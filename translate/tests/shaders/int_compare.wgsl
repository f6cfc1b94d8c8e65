// Comparisons where a - b overflows, signed and unsigned, against variables and constants.
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

fn bit(c: bool, k: u32) -> u32 {
    return select(0u, 1u << k, c);
}

@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let a = edge(i32(uv.x * 16.0));
    let b = edge(i32(uv.y * 16.0));
    let ua = u32(a);
    let ub = u32(b);
    let r0 = bit(a < b, 0u) | bit(a <= b, 1u) | bit(a > b, 2u) | bit(a >= b, 3u)
        | bit(a == b, 4u) | bit(a != b, 5u)
        | bit(ua < ub, 8u) | bit(ua <= ub, 9u) | bit(ua > ub, 10u) | bit(ua >= ub, 11u)
        | bit(ua == ub, 12u) | bit(ua != ub, 13u);
    let r1 = bit(a < 5, 0u) | bit(5 < a, 1u) | bit(ua < 3u, 2u) | bit(ua >= 0x80000000u, 3u)
        | bit(a > -100000000, 4u) | bit(ub <= 16777216u, 5u) | bit(a == -7, 6u)
        | bit(ua != 65535u, 7u) | bit(a >= -2147483647 - 1, 8u) | bit(ua <= 0xFFFFFFFEu, 9u);
    let r2 = select(ub, ua, a < b) ^ select(ua << 1u, ub << 1u, ua < ub);
    let va = vec2<i32>(a, b);
    let vb = vec2<i32>(b, a);
    let r3 = u32(all(va < vb)) | (u32(any(va < vb) || ua > ub) << 1u);
    return vec4<f32>(fold(r0), fold(r1), fold(r2), fold(r3));
}

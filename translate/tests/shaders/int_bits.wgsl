// Bit operations and shifts: u32 >> is logical, i32 >> arithmetic; shift amounts per component.
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
    let s = ub & 31u;
    let v = vec2<u32>(ua, ub) >> vec2<u32>(3u, ua & 31u);
    let w = vec3<i32>(a, a, b) << vec3<u32>(1u, 2u, 3u);
    return vec4<f32>(
        fold((ua & ub) | (~ua ^ (ub << 5u))),
        fold((ua >> s) ^ u32(a >> s)),
        fold((ua << 3u) ^ (ua >> 29u) ^ u32(a >> 7u) ^ u32(~a)),
        fold(v.x ^ rotl(v.y, 16u) ^ u32(w.x) ^ u32(w.y) ^ u32(w.z) ^ u32((a ^ b) | a)),
    );
}

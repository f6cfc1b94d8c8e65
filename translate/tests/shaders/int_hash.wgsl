// A PCG hash (Jarzynski and Olano) of the pixel index as a noise pattern.
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

fn pcg(v: u32) -> u32 {
    let state = v * 747796405u + 2891336453u;
    let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let i = u32(uv.x * 16.0) + u32(uv.y * 16.0) * 16u;
    let h = pcg(i);
    let noise = f32(h >> 8u) / 16777216.0;
    return vec4<f32>(fold(bitcast<u32>(noise)), fold(pcg(i ^ 0xDEADBEEFu)), fold(pcg(h)), fold(h));
}

// Integer loop counters: a for loop to a run-time bound with continue, a loop with a break, a
// u32 count down; a vector written and read at a run-time index.
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
    let n = i32(uv.x * 16.0);
    var s = 0;
    var t = 1u;
    var lanes = vec4<u32>(0u);
    for (var i = 0; i < n; i++) {
        s += i * i;
        lanes[u32(i) % 4u] += u32(i) * 7u + 1u;
        if (i % 3 == 2) {
            continue;
        }
        t = t * 3u + u32(i);
    }
    var j = i32(uv.y * 16.0);
    var k = 0u;
    loop {
        j -= 3;
        k++;
        if (j < -5) {
            break;
        }
    }
    var down = 0u;
    var m = u32(uv.y * 16.0);
    while (m > 0u) {
        down = (down * 5u) ^ m;
        m--;
    }
    let packed = lanes.x ^ (lanes.y << 8u) ^ (lanes.z << 16u) ^ (lanes.w << 24u);
    return vec4<f32>(fold(u32(s)), fold(t), fold(u32(j) ^ (k << 16u)), fold(down ^ packed));
}

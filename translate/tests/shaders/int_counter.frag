#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform Edges {
    ivec4 v[4];
} edges;

// Entry i of the edge table; the XOR of the four bytes of x as a channel value.
int edge(int i) {
    return edges.v[i / 4][i % 4];
}
float fold(uint x) {
    return float((x ^ (x >> 8u) ^ (x >> 16u) ^ (x >> 24u)) & 255u) * (1.0 / 255.0);
}
uint rotl(uint x, uint k) {
    return (x << k) | (x >> (32u - k));
}

// Integer loop counters: a for loop to a run-time bound with continue, a loop with a break, a
// uint count down; a vector written and read at a run-time index.
void main() {
    int n = int(uv.x * 16.0);
    int s = 0;
    uint t = 1u;
    uvec4 lanes = uvec4(0u);
    for (int i = 0; i < n; i++) {
        s += i * i;
        lanes[uint(i) % 4u] += uint(i) * 7u + 1u;
        if (i % 3 == 2) {
            continue;
        }
        t = t * 3u + uint(i);
    }
    int j = int(uv.y * 16.0);
    uint k = 0u;
    while (true) {
        j -= 3;
        k++;
        if (j < -5) {
            break;
        }
    }
    uint down = 0u;
    uint m = uint(uv.y * 16.0);
    while (m > 0u) {
        down = (down * 5u) ^ m;
        m--;
    }
    uint packed = lanes.x ^ (lanes.y << 8u) ^ (lanes.z << 16u) ^ (lanes.w << 24u);
    color = vec4(fold(uint(s)), fold(t), fold(uint(j) ^ (k << 16u)), fold(down ^ packed));
}

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

// min, max, clamp, abs and sign of int and uint.
void main() {
    int a = edge(int(uv.x * 16.0));
    int b = edge(int(uv.y * 16.0));
    uint ua = uint(a);
    uint ub = uint(b);
    color = vec4(
        fold(uint(min(a, b)) + uint(max(a, b)) * 7u),
        fold(min(ua, ub) ^ (max(ua, ub) << 1u)),
        fold(uint(clamp(a, -1000, 1000000)) + uint(abs(a)) * 5u),
        fold(uint(sign(a)) ^ (uint(sign(b)) << 4u) ^ clamp(ua, 7u, 0x90000000u)));
}

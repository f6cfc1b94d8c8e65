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

// Wrapping + - * and negation, scalar and vector.
void main() {
    int a = edge(int(uv.x * 16.0));
    int b = edge(int(uv.y * 16.0));
    uint ua = uint(a);
    uint ub = uint(b);
    ivec3 v = ivec3(a, b, a ^ b) * ivec3(b, -7, 65537) + ivec3(1);
    color = vec4(
        fold(uint(a + b * 3 - a * b)),
        fold(uint(-a) ^ rotl(uint(a - b), 8u)),
        fold(uint(v.x ^ v.y ^ v.z)),
        fold(ua * ub + (ua >> 16u) * 0x9E3779B9u - ub));
}

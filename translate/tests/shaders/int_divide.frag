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

// / and % of int by variables (zero and -1 among them) and by constants.
void main() {
    int a = edge(int(uv.x * 16.0));
    int b = edge(int(uv.y * 16.0));
    color = vec4(
        fold(uint(a / b) * 31u + uint(a % b)),
        fold(uint(a / 7) ^ rotl(uint(a % -7), 8u)),
        fold(rotl(uint(a / -16), 16u) ^ uint(a % 16) ^ (uint(a / 3) * 3u)),
        fold(uint(a / (-2147483647 - 1)) ^ rotl(uint(a % 1000), 8u) ^ rotl(uint(a / 65536), 16u)));
}

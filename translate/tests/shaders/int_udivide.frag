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

// / and % of uint by variables (zero and 2^31 + 1 among them) and by constants.
void main() {
    uint ua = uint(edge(int(uv.x * 16.0)));
    uint ub = uint(edge(int(uv.y * 16.0)));
    color = vec4(
        fold((ua / ub) * 31u + (ua % ub)),
        fold((ua / 10u) ^ ((ua % 10u) << 8u)),
        fold((ua / 0x80000001u) ^ (ua % 1000000007u) ^ ((ua / 641u) << 3u)),
        fold((ua % 0x80000001u) ^ (ua / 7u) ^ ((ua % 7u) << 4u) ^ (ua / 65536u)));
}

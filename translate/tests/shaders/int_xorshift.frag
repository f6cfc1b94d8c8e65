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

// Xorshift32, five rounds in a uint loop, as a noise pattern.
void main() {
    uint s = uint(uv.x * 16.0) * 0x9E3779B9u + uint(uv.y * 16.0) + 1u;
    uint trail = 0u;
    for (uint i = 0u; i < 5u; i++) {
        s ^= s << 13u;
        s ^= s >> 17u;
        s ^= s << 5u;
        trail += s >> (i * 4u);
    }
    float noise = float(s >> 9u) / 8388608.0;
    uint xy = (uint(uv.x * 16.0) << 8u) | uint(uv.y * 16.0);
    color = vec4(fold(s), fold(trail), fold(floatBitsToUint(noise)), fold(xy));
}

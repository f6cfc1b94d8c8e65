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

// Conversions: float to int / uint (clamped, negatives, beyond 2^24), int / uint to float
// (rounded to nearest even above 2^24), bool to uint, bit casts.
void main() {
    int a = edge(int(uv.x * 16.0));
    int b = edge(int(uv.y * 16.0));
    uint ua = uint(a);
    float f = float(a) * 1.37 + float(b);
    color = vec4(
        fold(uint(int(f)) ^ rotl(uint(int(-f * 3.0)), 8u) ^ (uint(a < b) << 5u)),
        fold(uint(f) ^ rotl(uint(f * 0.5), 16u)),
        fold(floatBitsToUint(float(a)) ^ rotl(floatBitsToUint(float(a >> 3u)), 4u)),
        fold(floatBitsToUint(float(ua)) ^ rotl(floatBitsToUint(float(ua >> 1u)), 8u)));
}

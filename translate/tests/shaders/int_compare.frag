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

// Comparisons where a - b overflows, signed and unsigned, against variables and constants.
uint bit(bool c, uint k) {
    return c ? 1u << k : 0u;
}

void main() {
    int a = edge(int(uv.x * 16.0));
    int b = edge(int(uv.y * 16.0));
    uint ua = uint(a);
    uint ub = uint(b);
    uint r0 = bit(a < b, 0u) | bit(a <= b, 1u) | bit(a > b, 2u) | bit(a >= b, 3u)
        | bit(a == b, 4u) | bit(a != b, 5u)
        | bit(ua < ub, 8u) | bit(ua <= ub, 9u) | bit(ua > ub, 10u) | bit(ua >= ub, 11u)
        | bit(ua == ub, 12u) | bit(ua != ub, 13u);
    uint r1 = bit(a < 5, 0u) | bit(5 < a, 1u) | bit(ua < 3u, 2u) | bit(ua >= 0x80000000u, 3u)
        | bit(a > -100000000, 4u) | bit(ub <= 16777216u, 5u) | bit(a == -7, 6u)
        | bit(ua != 65535u, 7u) | bit(a >= -2147483647 - 1, 8u) | bit(ua <= 0xFFFFFFFEu, 9u);
    uint r2 = (a < b ? ua : ub) ^ (ua < ub ? ub << 1u : ua << 1u);
    ivec2 va = ivec2(a, b);
    ivec2 vb = ivec2(b, a);
    uint r3 = uint(all(lessThan(va, vb))) | (uint(any(lessThan(va, vb)) || ua > ub) << 1u);
    color = vec4(fold(r0), fold(r1), fold(r2), fold(r3));
}

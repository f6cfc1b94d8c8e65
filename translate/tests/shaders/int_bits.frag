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

// Bit operations and shifts: uint >> is logical, int >> arithmetic; shift amounts per component.
void main() {
    int a = edge(int(uv.x * 16.0));
    int b = edge(int(uv.y * 16.0));
    uint ua = uint(a);
    uint ub = uint(b);
    uint s = ub & 31u;
    uvec2 v = uvec2(ua, ub) >> uvec2(3u, ua & 31u);
    ivec3 w = ivec3(a, a, b) << uvec3(1u, 2u, 3u);
    color = vec4(
        fold((ua & ub) | (~ua ^ (ub << 5u))),
        fold((ua >> s) ^ uint(a >> s)),
        fold((ua << 3u) ^ (ua >> 29u) ^ uint(a >> 7u) ^ uint(~a)),
        fold(v.x ^ rotl(v.y, 16u) ^ uint(w.x) ^ uint(w.y) ^ uint(w.z) ^ uint((a ^ b) | a)));
}

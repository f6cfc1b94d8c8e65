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

// A PCG hash (Jarzynski and Olano) of the pixel index as a noise pattern.
uint pcg(uint v) {
    uint state = v * 747796405u + 2891336453u;
    uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

void main() {
    uint i = uint(uv.x * 16.0) + uint(uv.y * 16.0) * 16u;
    uint h = pcg(i);
    float noise = float(h >> 8u) / 16777216.0;
    color = vec4(fold(floatBitsToUint(noise)), fold(pcg(i ^ 0xDEADBEEFu)), fold(pcg(h)), fold(h));
}

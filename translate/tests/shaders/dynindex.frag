#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    vec4 c = vec4(0.0);
    int k = int(uv.x * 4.0);
    c[k] = 1.0;
    for (int i = 0; i < 2; i++) {
        c[i + 2] += uv.y * 0.25;
    }
    vec4 w = vec4(0.1, 0.4, 0.7, 1.0);
    int j = int(uv.y * 4.0);
    color = vec4(c.x, c.y + c.z * 0.5, w[j], c.w);
}

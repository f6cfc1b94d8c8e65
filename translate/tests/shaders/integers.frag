#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    int k = int(uv.x * 8.0);
    int j = int(uv.y * 8.0);
    color = vec4(float(k % 3) / 2.0, float((k + j) / 3) / 4.0, float(k * j) / 49.0, 1.0);
}

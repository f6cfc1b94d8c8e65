#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    float acc = 0.0;
    for (int i = 0; i < 4; i++) {
        acc += sin(uv.x * float(i + 1) * 3.0) * 0.25;
    }
    color = vec4(acc * 0.5 + 0.5, uv.y, 0.0, 1.0);
}

#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    float a = uv.x;
    float x = uv.x;
    float y = uv.y;
    float b = a;
    for (int i = 0; i < 3; i++) {
        a = a * 0.5 + b;
        float t = x;
        x = y;
        y = t;
    }
    if (uv.y > 0.5) {
        a = a * 0.25;
    }
    color = vec4(a * 0.5, b, x, y);
}

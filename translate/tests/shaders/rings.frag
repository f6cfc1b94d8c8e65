#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    float r = length(uv - vec2(0.5));
    float s = sin(r * 40.0) * 0.5 + 0.5;
    color = vec4(s, s * s, 1.0 - s, 1.0);
}

#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    float a = uv.x < uv.y ? 1.0 : 0.2;
    float b = mix(0.2, 0.9, uv.x);
    vec2 c = uv.x + uv.y > 1.0 ? vec2(0.7, 0.9) : vec2(0.1, 0.3);
    color = vec4(a, b, c);
}

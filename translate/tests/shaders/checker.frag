#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    vec2 cell = floor(uv * 8.0);
    float t = step(0.5, fract((cell.x + cell.y) * 0.5));
    color = mix(vec4(0.9, 0.35, 0.1, 1.0), vec4(1.0), t);
}

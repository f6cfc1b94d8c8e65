#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    color = vec4(clamp(uv.x * 2.0 - 0.5, 0.0, 1.0), step(0.5, uv.y), max(uv.x, uv.y), min(uv.x, uv.y));
}

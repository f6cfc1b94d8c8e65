#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    color = vec4(sin(uv.x * 6.2831853) * 0.5 + 0.5, cos(uv.y * 6.2831853) * 0.5 + 0.5, tan(uv.x * 0.7), 1.0);
}

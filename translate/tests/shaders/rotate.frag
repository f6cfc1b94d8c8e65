#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    mat2 m = mat2(vec2(0.8, 0.6), vec2(-0.6, 0.8));
    vec2 p = m * (uv - vec2(0.5));
    vec2 q = (uv - vec2(0.5)) * m;
    color = vec4(p + vec2(0.5), q.x + 0.5, 1.0);
}

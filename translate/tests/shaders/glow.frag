#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    float d = distance(uv, vec2(0.5));
    float c = smoothstep(0.45, 0.05, d);
    color = vec4(c * uv.x, c * uv.y, c, 1.0);
}

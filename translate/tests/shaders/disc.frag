#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    vec2 p = uv - vec2(0.5);
    if (dot(p, p) > 0.2) {
        discard;
    }
    color = vec4(uv.x, 1.0 - uv.y, 0.2, 1.0);
}

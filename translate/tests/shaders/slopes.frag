#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    float f = uv.x * uv.x * 8.0;
    float g = uv.y * uv.y * 8.0;
    color = vec4(dFdx(f) * 2.0, dFdy(g) * 2.0, fwidth(f + g), 1.0);
}

#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    vec2 x = uv * 4.0 - vec2(2.0);
    color = vec4(fract(uv.x * 3.7), floor(x.y) * 0.25 + 0.5, ceil(x.x) * 0.25 + 0.5, trunc(x.y) * 0.25 + 0.5);
}

#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    vec2 x = uv * 2.0 - vec2(1.0);
    color = vec4(sign(x.x) * 0.5 + 0.5, abs(x.y), roundEven(uv.x * 4.0) * 0.25, -x.x * 0.5 + 0.5);
}

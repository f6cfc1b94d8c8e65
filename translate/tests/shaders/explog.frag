#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    color = vec4(exp2(uv.x * 3.0) / 8.0, log2(1.0 + uv.y * 7.0) / 3.0, exp(uv.x) / 2.75, log(1.0 + uv.y * 1.7));
}

#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    color = vec4(pow(uv.x, 2.2), sqrt(uv.y), inversesqrt(1.0 + uv.x * 3.0), pow(uv.y + 0.1, 0.45));
}

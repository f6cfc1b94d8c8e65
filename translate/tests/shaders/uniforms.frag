#version 450
layout(set = 0, binding = 0) uniform Params {
    vec4 tint;
    vec4 offset;
    float scale;
};
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    color = tint * uv.x * scale + offset;
}

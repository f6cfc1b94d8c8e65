#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform Palette {
    vec4 colours[4];
    vec4 gain;
};
void main() {
    int i = int(uv.x * 4.0);
    int j = int(uv.y * 6.0) - 1;
    color = colours[i] * gain.x + colours[j] * gain.y;
}

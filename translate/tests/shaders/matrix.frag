#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform Transform {
    mat4 m;
};
void main() {
    vec4 p = vec4(uv, 0.5, 1.0);
    vec4 a = m * p;
    vec4 b = p * m;
    color = vec4(a.xy, b.zw);
}

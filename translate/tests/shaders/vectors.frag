#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    vec3 a = vec3(uv, 1.0);
    vec3 b = vec3(1.0 - uv.y, 0.5, uv.x);
    vec3 c = cross(a, b);
    vec3 n = normalize(a);
    color = vec4(c * 0.5 + vec3(0.5), n.z * length(b) * 0.5);
}

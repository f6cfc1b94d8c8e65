#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    vec3 c;
    if (uv.x < 0.5) {
        if (uv.y < 0.5) {
            c = vec3(1.0, 0.0, 0.0);
        } else {
            c = vec3(0.0, 1.0, 0.0);
        }
    } else if (uv.y < 0.5) {
        c = vec3(0.0, 0.0, 1.0);
    } else {
        c = vec3(uv.x, uv.y, 0.5);
    }
    color = vec4(c, 1.0);
}

#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    int k = int(uv.x * 4.0);
    vec3 c = vec3(0.0);
    switch (k) {
        case 0:
            c = vec3(1.0, 0.0, 0.0);
            break;
        case 1:
        case 2:
            c = vec3(0.0, uv.y, 0.0);
            if (uv.y > 0.5) {
                break;
            }
            c.z = 0.5;
            break;
        default:
            c = vec3(0.2);
            break;
    }
    color = vec4(c, 1.0);
}

#version 450
float tri(float x) {
    return abs(fract(x) * 2.0 - 1.0);
}
float band(float x, float w) {
    if (x < w) {
        return 1.0;
    }
    return 0.25;
}
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    color = vec4(tri(uv.x * 3.0), tri(uv.y * 2.0 + 0.25), band(uv.x, uv.y), 1.0);
}

#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    float acc = 0.0;
    int i = 0;
    while (true) {
        if (i >= 8) { break; }
        i += 1;
        if (i == 3) { continue; }
        if (float(i) * 0.125 > uv.y) { break; }
        acc += 0.125;
    }
    color = vec4(acc, float(i) / 8.0, uv.x, 1.0);
}

#version 450
// A Shadertoy-style plasma in GLSL: summed sines of position and radius, a palette from cosines.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

vec3 palette(float t) {
    return vec3(0.5) + 0.5 * cos(6.2831853 * (vec3(t) + vec3(0.0, 0.33, 0.67)));
}

void main() {
    vec2 p = uv * 6.0 - vec2(3.0);
    float v = sin(p.x) + sin(p.y * 1.3);
    v += sin(length(p) * 2.0);
    for (int i = 1; i < 3; i++) {
        v += 0.5 * sin(float(i) * (p.x + p.y));
    }
    color = vec4(palette(v * 0.25), 1.0);
}

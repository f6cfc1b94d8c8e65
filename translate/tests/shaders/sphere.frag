#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    vec2 p = uv * 2.0 - vec2(1.0);
    float r2 = dot(p, p);
    if (r2 > 1.0) {
        discard;
    }
    vec3 n = vec3(p.x, -p.y, sqrt(1.0 - r2));
    vec3 l = normalize(vec3(0.5, 0.5, 1.0));
    float diffuse = max(dot(n, l), 0.0);
    float spec = pow(max(dot(reflect(-l, n), vec3(0.0, 0.0, 1.0)), 0.0), 16.0);
    color = vec4(vec3(0.1, 0.3, 0.8) * diffuse + vec3(spec), 1.0);
}

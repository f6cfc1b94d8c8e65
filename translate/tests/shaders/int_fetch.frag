#version 450
// texelFetch (TXF) at integer coordinates, some outside the texture, and textureSize (TXQ).
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform texture2D t;
layout(set = 0, binding = 1) uniform sampler s;
void main() {
    ivec2 size = textureSize(sampler2D(t, s), 0);
    ivec2 p = ivec2(uv * vec2(size));
    vec4 a = texelFetch(sampler2D(t, s), p, 0);
    vec4 b = texelFetch(sampler2D(t, s), ivec2(3 - p.x, p.y * 5 - 9), 0);
    color = vec4(a.x, a.y, b.z, float(size.x * 10 + size.y) / 255.0);
}

#version 450
// Inverse trigonometry: atan, atan(y, x) over all four quadrants, asin, acos.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
    float x = uv.x * 2.0 - 1.0;
    float y = uv.y * 2.0 - 1.0;
    color = vec4(
        atan(x * 4.0) / 3.14159265 + 0.5,
        atan(y, x) / 6.2831853 + 0.5,
        asin(x) / 3.14159265 + 0.5,
        acos(y) / 3.14159265);
}

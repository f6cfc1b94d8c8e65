#version 450
layout(location = 0) flat in dvec2 a;
layout(location = 1) flat in dvec2 b;
layout(location = 0) out dvec2 r0;
layout(location = 1) out dvec2 r1;
layout(location = 2) out dvec2 r2;
layout(location = 3) out dvec2 r3;
void main() {
    r0 = dvec2(a.x + b.x, a.x - b.x);
    r1 = dvec2(a.x * b.x, a.x / b.x);
    r2 = dvec2(fma(a.x, b.x, a.y), sqrt(a.x));
    r3 = dvec2(min(a.x, b.x), max(a.x, b.x));
}

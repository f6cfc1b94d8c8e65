struct U { s: f32, d: f64, v: vec3<f64>, w: vec2<f64>, t: f32 }
@group(0) @binding(0) var<uniform> u: U;
struct Out {
    @location(0) r0: vec2<f64>,
    @location(1) r1: vec2<f64>,
    @location(2) r2: vec2<f64>,
    @location(3) r3: vec2<f64>,
}
@fragment
fn main(@location(0) @interpolate(flat) a: vec2<f64>,
        @location(1) @interpolate(flat) b: vec2<f64>) -> Out {
    let v = vec3<f64>(a, b.x);
    let w = vec3<f64>(b.y, u.d, 2.5lf);
    let m = mat2x2<f64>(a, u.w);
    var o: Out;
    o.r0 = vec2<f64>(dot(v, w), length(w));
    o.r1 = cross(v, w).yz;
    o.r2 = m * b + u.v.xz * f64(u.s);
    let parts = modf(a.x);
    o.r3 = vec2<f64>(parts.whole + ldexp(b.x, i32(a.y)), parts.fract + f64(u.t));
    return o;
}

struct Out { @location(0) c: vec4<f32>, @location(1) d: vec2<f64>, @location(2) e: vec2<f64> }
@fragment
fn main(@location(0) @interpolate(flat) a: vec2<f64>,
        @location(1) @interpolate(flat) b: vec2<f64>) -> Out {
    var o: Out;
    let i = i32(a.x);
    let u = u32(a.x);
    o.c = vec4<f32>(f32(a.x), bitcast<f32>(i), bitcast<f32>(u), f32(b.y * 3.0lf));
    o.d = vec2<f64>(f64(f32(a.x)), f64(i));
    o.e = vec2<f64>(f64(u), f64(i32(b.y)) + f64(select(-2.5, 1.0e-40, a.y < 0.0lf)));
    return o;
}

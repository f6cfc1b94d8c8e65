struct Out {
    @location(0) r0: vec2<f64>,
    @location(1) r1: vec2<f64>,
    @location(2) r2: vec2<f64>,
    @location(3) r3: vec2<f64>,
}
@fragment
fn main(@location(0) @interpolate(flat) a: vec2<f64>,
        @location(1) @interpolate(flat) b: vec2<f64>) -> Out {
    var o: Out;
    o.r0 = vec2<f64>(a.x + b.x, a.x - b.x);
    o.r1 = vec2<f64>(a.x * b.x, a.x / b.x);
    o.r2 = vec2<f64>(fma(a.x, b.x, a.y), sqrt(a.x));
    o.r3 = vec2<f64>(min(a.x, b.x), max(a.x, b.x));
    return o;
}

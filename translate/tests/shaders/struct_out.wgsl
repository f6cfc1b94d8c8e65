struct Out {
    @location(0) color: vec4<f32>,
}
struct In {
    @location(0) uv: vec2<f32>,
    @builtin(position) pos: vec4<f32>,
}
@fragment
fn main(i: In) -> Out {
    var o: Out;
    o.color = vec4<f32>(i.uv.yx, fract(i.pos.x / 4.0), 1.0);
    return o;
}

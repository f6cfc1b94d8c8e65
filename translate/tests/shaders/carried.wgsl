@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    var a = uv.x;
    var x = uv.x;
    var y = uv.y;
    let b = a;
    for (var i = 0; i < 3; i++) {
        a = a * 0.5 + b;
        let t = x;
        x = y;
        y = t;
    }
    if (uv.y > 0.5) {
        a = a * 0.25;
    }
    return vec4<f32>(a * 0.5, b, x, y);
}

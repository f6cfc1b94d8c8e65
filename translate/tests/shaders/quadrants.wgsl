@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    var c: vec3<f32>;
    if (uv.x < 0.5) {
        if (uv.y < 0.5) {
            c = vec3<f32>(1.0, 0.0, 0.0);
        } else {
            c = vec3<f32>(0.0, 1.0, 0.0);
        }
    } else if (uv.y < 0.5) {
        c = vec3<f32>(0.0, 0.0, 1.0);
    } else {
        c = vec3<f32>(uv.x, uv.y, 0.5);
    }
    return vec4<f32>(c, 1.0);
}

@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let k = i32(uv.x * 4.0);
    var c = vec3<f32>(0.0);
    switch k {
        case 0: {
            c = vec3<f32>(1.0, 0.0, 0.0);
        }
        case 1, 2: {
            c = vec3<f32>(0.0, uv.y, 0.0);
            if (uv.y > 0.5) {
                break;
            }
            c.z = 0.5;
        }
        default: {
            c = vec3<f32>(0.2);
        }
    }
    return vec4<f32>(c, 1.0);
}

// Integer hashing: each of 8x8 cells takes its colour from a PCG hash (Jarzynski and Olano) of
// its integer coordinates, and every pixel a grain from a Fibonacci hash and two xorshift steps
// of its own: u32 multiply, logical shifts by constant and run-time amounts, XOR, exact
// conversions both ways.
fn pcg(v: u32) -> u32 {
    let state = v * 747796405u + 2891336453u;
    let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let cell = vec2<u32>(uv * 8.0);
    let h = pcg(cell.x + cell.y * 8u);
    let colour = vec3<f32>(vec3<u32>(h, h >> 8u, h >> 16u) & vec3<u32>(255u)) * (1.0 / 255.0);
    let pixel = vec2<u32>(uv * 64.0);
    var g = (pixel.x * 64u + pixel.y) * 0x9E3779B9u;
    g ^= g >> 15u;
    g ^= g << 7u;
    let grain = f32(g >> 26u) * (0.25 / 63.0);
    return vec4<f32>(colour * 0.75 + vec3<f32>(grain), 1.0);
}

//! The bundled demo's inputs (`tgsi-core` with no arguments renders `examples/lit-sphere.tgsi`
//! with them), shared by the demo, its board estimate and the tests that render the shader.

/// CONST[0..3] of `examples/lit-sphere.tgsi`: the light direction, the diffuse colour, the
/// ambient and rim colour, the specular colour.
pub const LIT_SPHERE_CONSTANTS: [[f32; 4]; 4] = [
    [0.36, 0.48, 0.8, 0.0],
    [1.0, 0.9, 0.8, 1.0],
    [0.1, 0.1, 0.25, 0.0],
    [0.6, 0.6, 0.6, 0.0],
];

/// [`LIT_SPHERE_CONSTANTS`] as `--const N=x,y,z,w` arguments of `run` and `render`.
pub fn lit_sphere_const_args() -> Vec<String> {
    LIT_SPHERE_CONSTANTS
        .iter()
        .enumerate()
        .flat_map(|(k, v)| {
            let v = v.map(|x| x.to_string()).join(",");
            ["--const".to_string(), format!("{k}={v}")]
        })
        .collect()
}

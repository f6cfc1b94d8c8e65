//! The main job on a built-in default (`cargo run --release` with no arguments): the bundled
//! lit-sphere shader is parsed, validated, printed, encoded to tokens and back, and one quad of it
//! runs on the reference model.

use super::input::check_valid;
use anyhow::{bail, Context, Result};
use microcode::tgsi::{text, tokens};
use sim::run_io::RunInputs;
use sim::texture::Texture;
use std::process::ExitCode;

/// The bundled demo shader: lighting with DP3/RSQ/POW/NRM, a texture and a KIL.
const DEMO: &str = include_str!("../../examples/lit-sphere.tgsi");

/// Runs the built-in demo.
pub fn run() -> Result<ExitCode> {
    let program = text::parse(DEMO).map_err(|e| {
        anyhow::anyhow!("{}", e.render(DEMO, "examples/lit-sphere.tgsi").trim_end())
    })?;
    check_valid(&program, "examples/lit-sphere.tgsi")?;
    println!("== examples/lit-sphere.tgsi, canonical text ==");
    print!("{}", text::print(&program));

    let words = tokens::encode(&program);
    let decoded = tokens::decode(&words).context("decoding the demo's own tokens")?;
    if decoded.program != program {
        bail!("the demo program does not survive text -> tokens -> program");
    }
    println!(
        "== tokens: {} words (version 1.{}), decoded back to the same program ==",
        words.len(),
        decoded.minor_version
    );

    // One 2x2 quad near the sphere's rim, so that one lane is outside and is killed.
    let mut inputs = RunInputs::default();
    let uv = [[0.5f32, 0.5], [0.75, 0.5], [0.5, 0.9], [0.97, 0.97]];
    for (lane, [u, v]) in uv.iter().enumerate() {
        inputs.set_input_lane(0, lane, [u.to_bits(), v.to_bits(), 0, 1f32.to_bits()]);
    }
    let vec4 = |v: [f32; 4]| v.map(f32::to_bits);
    inputs.set_const(0, 0, vec4([0.36, 0.48, 0.8, 0.0])); // light direction
    inputs.set_const(0, 1, vec4([1.0, 0.9, 0.8, 1.0])); // diffuse colour
    inputs.set_const(0, 2, vec4([0.05, 0.05, 0.1, 0.0])); // ambient
    inputs.set_const(0, 3, vec4([0.6, 0.6, 0.6, 0.0])); // specular
    let checker = Texture::checkerboard(8, 8, 2, [[1.0, 1.0, 1.0, 1.0], [0.6, 0.7, 1.0, 1.0]])
        .context("building the demo texture")?;
    inputs.textures = vec![Some(Box::new(checker))];
    let out = sim::reference::run(&program, &inputs).context("running the demo quad")?;
    println!("== one quad on the reference model ==");
    print!("{}", out.to_table());
    Ok(ExitCode::SUCCESS)
}

//! `tgsi-core run --engine core`: compile the program (or load an image written by `compile`) and
//! execute it on the core model, printing the outputs like every engine, plus `--trace` lines.

use super::input;
use super::run::RunArgs;
use anyhow::{Context, Result};
use microcode::compile::compile;
use microcode::core::image::MAGIC;
use microcode::core::{CoreConfig, Image};
use sim::run_io::{args, RunInputs};
use std::process::ExitCode;

/// Runs the core engine for `tgsi-core run`.
pub fn run(a: &RunArgs) -> Result<ExitCode> {
    let bytes = std::fs::read(&a.file).with_context(|| format!("reading {}", a.file.display()))?;
    let name = a.file.display().to_string();
    let mut inputs = RunInputs {
        budget: a.budget,
        ..RunInputs::default()
    };
    args::apply_args(&mut inputs, &a.inputs, &a.consts, a.face.as_deref())?;
    args::apply_textures(&mut inputs, &a.textures)?;
    let image = if bytes.starts_with(&MAGIC) {
        let img = Image::from_bytes(&bytes).with_context(|| name.clone())?;
        img.check_config(&CoreConfig::default())
            .with_context(|| name.clone())?;
        img
    } else {
        let input = input::read(&a.file, a.format)?;
        input::warn(&input);
        input::require_valid(&input)?;
        let program = &input.loaded.program;
        inputs.inputs = inputs.effective_inputs(program);
        compile(program, &CoreConfig::default())
            .with_context(|| format!("compiling {name}"))?
            .image
    };
    let out = if a.trace {
        sim::core_model::run_traced(&image, &inputs, &mut |line| eprintln!("{line}"))
    } else {
        sim::core_model::run(&image, &inputs)
    }
    .with_context(|| format!("running {name}"))?;
    if a.json {
        println!("{}", out.to_json());
    } else {
        print!("{}", out.to_table());
    }
    Ok(ExitCode::SUCCESS)
}

//! The main job on a built-in default (`cargo run --release` with no arguments).

use std::process::ExitCode;

/// Runs the built-in demo.
pub fn run() -> anyhow::Result<ExitCode> {
    println!("tgsi-core: nothing to demo yet");
    Ok(ExitCode::SUCCESS)
}

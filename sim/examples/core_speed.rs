//! Quads per second of the core model (one thread) on TGSI text files, over the same 256x256
//! render as `tgsi-core bench --models`: a way to time or profile one shader at a time.
//!
//! `cargo run --release -p sim --no-default-features --example core_speed -- FILE... [--seconds S]`

use microcode::compile::compile;
use microcode::core::CoreConfig;
use microcode::tgsi::text;
use sim::run_io::batch::{BatchInputs, BatchOutputs};
use sim::run_io::RunInputs;
use std::time::Instant;

/// The side of the rendered square, in pixels (the bench's render).
const SIDE: u32 = 256;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut seconds = 1.0f64;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--seconds" {
            seconds = args.next().ok_or("--seconds needs a value")?.parse()?;
        } else {
            files.push(a);
        }
    }
    for file in files {
        let program = text::parse(&std::fs::read_to_string(&file)?)?;
        let image = compile(&program, &CoreConfig::default())?.image;
        let core = sim::core_model::Prepared::new(&image);
        let engine = |base: &RunInputs, quads: &BatchInputs, out: &mut BatchOutputs<_>| {
            core.run_flat(base, quads, out)
        };
        let corners = std::collections::BTreeMap::new();
        let inputs = RunInputs::default();
        let start = Instant::now();
        let mut best = 0.0f64;
        let mut cycles = 0;
        while start.elapsed().as_secs_f64() < seconds {
            let t = Instant::now();
            let frame =
                sim::render::render_batch(&program, SIDE, SIDE, &corners, &inputs, &engine, 1)?;
            best = best.max(frame.quads as f64 / t.elapsed().as_secs_f64());
            cycles = frame.cycles.unwrap_or(0) / frame.quads as u64;
        }
        println!("{file:<50} {:>10.0} quads/s {cycles:>6} clk/quad", best);
    }
    Ok(())
}

//! Quads per second of the core model (one thread) on TGSI text files, over the same 256x256
//! render as `tgsi-core bench --models` (best of samples
//! of repeated renders, in the thread's CPU time): a way to time or profile one shader at a time.
//!
//! `cargo run --release -p sim --no-default-features --example core_speed -- FILE... [--seconds S] [--disasm]`
//! (`--disasm`: print each compiled image first)

use microcode::compile::compile;
use microcode::core::CoreConfig;
use microcode::tgsi::text;
use sim::run_io::batch::{BatchInputs, BatchOutputs};
use sim::run_io::RunInputs;
use std::time::Instant;

/// The side of the rendered square, in pixels (the bench's render).
const SIDE: u32 = 256;

/// The shortest sample: many scheduler ticks.
const SAMPLE: std::time::Duration = std::time::Duration::from_millis(100);

/// CPU time of the calling thread in nanoseconds (Linux: the first field of
/// `/proc/thread-self/schedstat`), which other jobs on the machine do not inflate.
fn thread_cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut seconds = 1.0f64;
    let mut files = Vec::new();
    let mut disasm = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--disasm" {
            disasm = true;
        } else if a == "--seconds" {
            seconds = args.next().ok_or("--seconds needs a value")?.parse()?;
        } else {
            files.push(a);
        }
    }
    for file in files {
        let program = text::parse(&std::fs::read_to_string(&file)?)?;
        let image = compile(&program, &CoreConfig::default())?.image;
        if disasm {
            for (pc, i) in image.code.iter().enumerate() {
                println!("{pc:4}: {}", microcode::core::disasm::instr_text(i));
            }
        }
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
            // The thread's CPU time advances in scheduler ticks: each sample renders for at
            // least SAMPLE of wall time.
            let (t, wall) = (thread_cpu_ns().ok_or("no thread CPU time")?, Instant::now());
            let mut quads = 0;
            while wall.elapsed() < SAMPLE {
                let frame =
                    sim::render::render_batch(&program, SIDE, SIDE, &corners, &inputs, &engine, 1)?;
                quads += frame.quads;
                cycles = frame.cycles.unwrap_or(0) / frame.quads as u64;
            }
            let spent = thread_cpu_ns()
                .ok_or("no thread CPU time")?
                .saturating_sub(t);
            best = best.max(quads as f64 * 1e9 / spent.max(1) as f64);
        }
        println!("{file:<50} {:>10.0} quads/s {cycles:>6} clk/quad", best);
    }
    Ok(())
}

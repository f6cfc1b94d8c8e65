//! `tgsi-core bench`: how fast the models run and how many clocks the core spends, on this machine.
//! Numbers from a debug build mean little: run it with `cargo run --release -- bench`.

use anyhow::{Context, Result};
use clap::Args;
use microcode::compile::compile;
use microcode::core::CoreConfig;
use microcode::tgsi::text;
use sim::run_io::batch::{BatchInputs, BatchOutputs};
use sim::run_io::RunInputs;
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Seconds to spend on each measurement.
    #[arg(long, default_value_t = 1.0)]
    pub seconds: f64,
    /// Only the models' speed: quads per second per shader and engine over a 256x256 render
    /// (the set of issue #21), one thread and all threads.
    #[arg(long)]
    pub models: bool,
    /// Where the corpus is (`--models`).
    #[arg(long, default_value = "../shared/corpus")]
    pub corpus: std::path::PathBuf,
    /// `--models`: measure only this model (`reference` or `core`); the other's columns print `-`.
    #[arg(long, value_parser = ["reference", "core"])]
    pub engine: Option<String>,
    /// `--models`: measure only the shaders whose name contains this text (`dp4`, `rings`);
    /// may be given more than once.
    #[arg(long)]
    pub shader: Vec<String>,
    /// `--models`: only the one-thread columns (the all-threads columns print `-`).
    #[arg(long)]
    pub one_thread: bool,
    /// Only the boards' speed: RENDER of examples/checker.tgsi on each `--port` alone, then on
    /// all of them at once (the frame split over them), in quads per second of wall time and in
    /// board terms (core cycles and line bytes per quad).
    #[arg(long)]
    pub board_scaling: bool,
    /// `--board-scaling`: a board's serial port, once per board (`PATH@BAUD` sets its rate).
    #[arg(long, value_name = "PATH")]
    pub port: Vec<String>,
    /// `--board-scaling`: the frame's size, WxH.
    #[arg(long, default_value = "64x64")]
    pub size: String,
    /// `--board-scaling`: how to talk to the boards (`--baud` for those given without `@BAUD`).
    #[command(flatten)]
    pub link: super::board::LinkArgs,
}

/// The shaders of `--models`: corpus files (relative to `--corpus`) and the examples.
const MODEL_SHADERS: [(&str, Option<&str>); 9] = [
    ("frag-dp4", Some("mesa-graw/fragment-shader/frag-dp4.sh")),
    ("frag-mad", Some("mesa-graw/fragment-shader/frag-mad.sh")),
    (
        "frag-cmp",
        Some("mesa-python-regress-2010/fragment-shader/frag-cmp.sh"),
    ),
    ("frag-ex2", Some("mesa-graw/fragment-shader/frag-ex2.sh")),
    ("frag-lrp", Some("mesa-graw/fragment-shader/frag-lrp.sh")),
    ("frag-kil", Some("mesa-graw/fragment-shader/frag-kil.sh")),
    ("frag-rsq", Some("mesa-graw/fragment-shader/frag-rsq.sh")),
    ("checker.tgsi", None),
    ("rings.tgsi", None),
];

/// Quads per second of one engine over a 256x256 render on `threads` threads: the best of
/// repeated renders for about `seconds` (at least three).
fn model_rate<E: std::fmt::Display>(
    program: &microcode::tgsi::Program,
    engine: &sim::render::BatchEngine<E>,
    threads: usize,
    seconds: f64,
) -> Result<f64> {
    let inputs = RunInputs::default();
    let corners = std::collections::BTreeMap::new();
    let mut render = || -> Result<()> {
        let frame =
            sim::render::render_batch(program, 256, 256, &corners, &inputs, engine, threads)?;
        anyhow::ensure!(frame.quads == 128 * 128, "the render lost quads");
        Ok(())
    };
    best_rate(seconds, threads == 1, &mut render)
}

/// Quads per second of `job` (one 256x256 render, 16,384 quads, per call): the best of samples
/// taken for about `seconds`. Each sample repeats the call for at least [`SAMPLE_SECONDS`] of
/// wall time, because the thread's CPU time (`cpu`: one thread, whose CPU time other jobs on the
/// machine do not inflate) advances in scheduler ticks of a few milliseconds, longer than one
/// fast render: a single call's CPU time can read near zero.
fn best_rate(seconds: f64, cpu: bool, job: &mut dyn FnMut() -> Result<()>) -> Result<f64> {
    let start = Instant::now();
    let mut best = 0.0f64;
    let mut samples = 0;
    while samples < 3 || start.elapsed().as_secs_f64() < seconds {
        let t = Instant::now();
        let c0 = if cpu { thread_cpu_ns() } else { None };
        let mut calls = 0u64;
        while calls == 0 || t.elapsed().as_secs_f64() < SAMPLE_SECONDS {
            job()?;
            calls += 1;
        }
        let wall = t.elapsed().as_secs_f64();
        let spent = match (c0, thread_cpu_ns()) {
            // A CPU time far below the wall time of a busy loop is a stale reading.
            (Some(a), Some(b)) if b > a && (b - a) as f64 * 1e-9 > 0.2 * wall => {
                (b - a) as f64 * 1e-9
            }
            _ => wall,
        };
        best = best.max((128 * 128) as f64 * calls as f64 / spent);
        samples += 1;
    }
    Ok(best)
}

/// The shortest stretch of repeated calls one speed sample measures.
const SAMPLE_SECONDS: f64 = 0.1;

/// The fixed reference job's quads per second on this thread (after a warm-up, the best and the
/// spread of at least [`FIXED_SAMPLES`] samples of [`FIXED_SAMPLE_SECONDS`] CPU time each, for
/// about `seconds`): a tiny fixed interpreter in plain Rust that shades 16,384 quads with a
/// four-instruction program (MUL, MAD, DP4, MOV on four lanes of `f32` registers). It shares no
/// code with the models, so its rate moves only with the machine: the models' rates divided by
/// it, times the same job's rate next to another program (Mesa's `tgsi_exec`), compare the two
/// on different days and machines. Never change it, or old ratios mean nothing.
// Indexed loops on purpose: the job is written the way an interpreter indexes registers.
#[allow(clippy::needless_range_loop)]
fn fixed_job_rate(seconds: f64) -> FixedRate {
    #[derive(Clone, Copy)]
    enum Op {
        Mul(usize, usize, usize),
        Mad(usize, usize, usize, usize),
        Dp4(usize, usize, usize),
        Mov(usize, usize),
    }
    #[repr(C, align(64))]
    struct Registers([[[f32; 4]; 4]; 5]);
    const PROGRAM: [Op; 4] = [
        Op::Mul(2, 0, 1),
        Op::Mad(3, 2, 0, 1),
        Op::Dp4(2, 3, 1),
        Op::Mov(4, 2),
    ];
    let job = || -> f32 {
        let mut sum = 0.0f32;
        for quad in 0..128 * 128u32 {
            // Registers [register][component][lane]; 0 and 1 are the inputs. Aligned to a
            // cache line: left to the stack's (randomised) address, the same binary ran at
            // 103M or 54M quads/s from one process to the next.
            let mut regs = Registers([[[0.0f32; 4]; 4]; 5]);
            let r = &mut regs.0;
            for lane in 0..4 {
                let x = (quad % 128 * 2 + lane % 2) as f32 / 256.0;
                let y = (quad / 128 * 2 + lane / 2) as f32 / 256.0;
                r[0][0][lane as usize] = x;
                r[0][1][lane as usize] = y;
                r[1][0][lane as usize] = 1.0 - x;
                r[1][1][lane as usize] = 1.0 - y;
                r[1][3][lane as usize] = 1.0;
            }
            for &op in std::hint::black_box(&PROGRAM) {
                match op {
                    Op::Mul(d, a, b) => {
                        for c in 0..4 {
                            for l in 0..4 {
                                r[d][c][l] = r[a][c][l] * r[b][c][l];
                            }
                        }
                    }
                    Op::Mad(d, a, b, e) => {
                        for c in 0..4 {
                            for l in 0..4 {
                                r[d][c][l] = r[a][c][l] * r[b][c][l] + r[e][c][l];
                            }
                        }
                    }
                    Op::Dp4(d, a, b) => {
                        for l in 0..4 {
                            let v = (0..4).map(|c| r[a][c][l] * r[b][c][l]).sum::<f32>();
                            for c in 0..4 {
                                r[d][c][l] = v;
                            }
                        }
                    }
                    Op::Mov(d, a) => r[d] = r[a],
                }
            }
            sum += r[4][0].iter().sum::<f32>();
        }
        sum
    };
    // Warm up (caches, branch predictors, the CPU's clock), then take samples of at least
    // FIXED_SAMPLE_SECONDS of CPU time each: the best is the machine's rate, the spread of the
    // samples says how quiet the machine was.
    for _ in 0..8 {
        std::hint::black_box(job());
    }
    let start = Instant::now();
    let mut rates = Vec::new();
    while rates.len() < FIXED_SAMPLES || start.elapsed().as_secs_f64() < seconds {
        let (t, c0) = (Instant::now(), thread_cpu_ns());
        let mut calls = 0u64;
        while calls == 0 || t.elapsed().as_secs_f64() < FIXED_SAMPLE_SECONDS {
            std::hint::black_box(job());
            calls += 1;
        }
        let wall = t.elapsed().as_secs_f64();
        let spent = match (c0, thread_cpu_ns()) {
            (Some(a), Some(b)) if b > a && (b - a) as f64 * 1e-9 > 0.2 * wall => {
                (b - a) as f64 * 1e-9
            }
            _ => wall,
        };
        rates.push((128 * 128) as f64 * calls as f64 / spent);
    }
    rates.sort_by(f64::total_cmp);
    FixedRate {
        best: rates[rates.len() - 1],
        median: rates[rates.len() / 2],
        worst: rates[0],
        samples: rates.len(),
    }
}

/// The fixed job's samples: the best is the figure to compare, the rest its spread.
struct FixedRate {
    best: f64,
    median: f64,
    worst: f64,
    samples: usize,
}

/// Samples of the fixed job at the least.
const FIXED_SAMPLES: usize = 7;
/// The shortest stretch of the fixed job one sample measures.
const FIXED_SAMPLE_SECONDS: f64 = 0.25;

/// CPU time of the calling thread in nanoseconds (Linux: the first field of
/// `/proc/thread-self/schedstat`).
fn thread_cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// `bench --models`: the table of issue #21.
fn models(a: &BenchArgs) -> Result<ExitCode> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "quads per second over a 256x256 render (16,384 quads, best of repeated renders; \
         1 thread: its CPU time, {threads} threads: wall time){}",
        if cfg!(debug_assertions) {
            " (debug build: use --release for real numbers)"
        } else {
            ""
        }
    );
    let fixed = fixed_job_rate(a.seconds);
    println!(
        "fixed reference job (plain Rust, unchanged across versions; compare it with Mesa's \
         tgsi_exec on the same machine): {} quads/s, 1 thread (best of {} samples; median {}, \
         worst {})",
        thousands(fixed.best),
        fixed.samples,
        thousands(fixed.median),
        thousands(fixed.worst)
    );
    println!(
        "{:<14} {:>12} {:>12} {:>12} {:>12} {:>8}",
        "shader", "reference 1", "reference N", "core 1", "core N", "clk/quad"
    );
    let want_ref = a.engine.as_deref() != Some("core");
    let want_core = a.engine.as_deref() != Some("reference");
    let shaders = MODEL_SHADERS.iter().filter(|(name, _)| {
        a.shader.is_empty() || a.shader.iter().any(|s| name.contains(s.as_str()))
    });
    for &(name, path) in shaders {
        let program = match path {
            Some(p) => {
                let path = a.corpus.join(p);
                super::input::read(&path, super::input::InputFormat::Auto)?
                    .loaded
                    .program
            }
            None => text::parse(match name {
                "checker.tgsi" => include_str!("../../examples/checker.tgsi"),
                _ => include_str!("../../examples/rings.tgsi"),
            })
            .map_err(|e| anyhow::anyhow!("{name}: {e}"))?,
        };
        let reference =
            sim::reference::Prepared::new(&program).map_err(|e| anyhow::anyhow!("{e}"))?;
        let image = compile(&program, &CoreConfig::default())
            .with_context(|| format!("compiling {name}"))?
            .image;
        let core = sim::core_model::Prepared::new(&image);
        let ref_engine = |base: &RunInputs, quads: &BatchInputs, out: &mut BatchOutputs<_>| {
            reference.run_flat(base, quads, out)
        };
        let core_engine = |base: &RunInputs, quads: &BatchInputs, out: &mut BatchOutputs<_>| {
            core.run_flat(base, quads, out)
        };
        let measure = |want: bool, threads: usize, rate: &dyn Fn(usize) -> Result<f64>| {
            if want && (threads == 1 || !a.one_thread) {
                rate(threads).map(thousands)
            } else {
                Ok("-".to_string())
            }
        };
        let ref_rate = |t| model_rate(&program, &ref_engine, t, a.seconds);
        let core_rate = |t| model_rate(&program, &core_engine, t, a.seconds);
        let r1 = measure(want_ref, 1, &ref_rate)?;
        let rn = measure(want_ref, threads, &ref_rate)?;
        let c1 = measure(want_core, 1, &core_rate)?;
        let cn = measure(want_core, threads, &core_rate)?;
        let clocks = if want_core {
            let corners = std::collections::BTreeMap::new();
            let frame = sim::render::render_batch(
                &program,
                256,
                256,
                &corners,
                &RunInputs::default(),
                &core_engine,
                threads,
            )?;
            format!(
                "{:.0}",
                frame.cycles.unwrap_or(0) as f64 / frame.quads as f64
            )
        } else {
            "-".to_string()
        };
        println!("{name:<14} {r1:>12} {rn:>12} {c1:>12} {cn:>12} {clocks:>8}");
    }
    Ok(ExitCode::SUCCESS)
}

/// A rate as `348k` or `1.07M`.
fn thousands(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.2}M", x / 1e6)
    } else {
        format!("{:.0}k", x / 1e3)
    }
}

/// One opcode class: a program whose body is `n` copies of `line`.
const CLASSES: [(&str, &str); 19] = [
    ("MOV", "MOV TEMP[0], TEMP[1]"),
    ("ADD", "ADD TEMP[0], TEMP[1], TEMP[2]"),
    ("MAD", "MAD TEMP[0], TEMP[1], TEMP[2], TEMP[3]"),
    ("DP4", "DP4 TEMP[0], TEMP[1], TEMP[2]"),
    ("MIN", "MIN TEMP[0], TEMP[1], TEMP[2]"),
    // The divider's operations, and what stands in for them without it (`compile/div.rs`).
    ("DIV", "DIV TEMP[0], TEMP[1], TEMP[2]"),
    ("DIV by .x", "DIV TEMP[0], TEMP[1], TEMP[2].xxxx"),
    ("RCP", "RCP TEMP[0], TEMP[1].xxxx"),
    ("TXP 2D", "TXP TEMP[0], TEMP[1], SAMP[0], 2D"),
    ("MOD", "MOD TEMP[0], TEMP[1], TEMP[2]"),
    ("UP4UB", "UP4UB TEMP[0], TEMP[1].xxxx"),
    ("RSQ", "RSQ TEMP[0], TEMP[1].xxxx"),
    ("SIN", "SIN TEMP[0], TEMP[1].xxxx"),
    ("TEX 2D", "TEX TEMP[0], TEMP[1], SAMP[0], 2D"),
    ("TEX 3D", "TEX TEMP[0], TEMP[1], SAMP[0], 3D"),
    ("TEX CUBE", "TEX TEMP[0], TEMP[1], SAMP[0], CUBE"),
    ("TEX SHADOW2D", "TEX TEMP[0], TEMP[1], SAMP[0], SHADOW2D"),
    // Both pairs of a double operand: calls of the binary64 library.
    ("DADD", "DADD TEMP[0], TEMP[1], TEMP[2]"),
    ("DMUL", "DMUL TEMP[0], TEMP[1], TEMP[2]"),
];

fn program(line: &str, n: usize) -> String {
    let mut s = String::from("FRAG\nDCL IN[0]\nDCL OUT[0]\nDCL TEMP[0..3]\nDCL SAMP[0]\n");
    s.push_str("MOV TEMP[1], IN[0]\nMOV TEMP[2], IN[0]\nMOV TEMP[3], IN[0]\n");
    for _ in 0..n {
        s.push_str(line);
        s.push('\n');
    }
    s.push_str("MOV OUT[0], TEMP[0]\nEND\n");
    s
}

/// Repeats `f` for about `seconds`; returns calls per second.
fn rate(seconds: f64, mut f: impl FnMut() -> Result<()>) -> Result<f64> {
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed().as_secs_f64() < seconds {
        f()?;
        n += 1;
    }
    Ok(n as f64 / start.elapsed().as_secs_f64())
}

/// Prints the measurements.
pub fn run(a: BenchArgs) -> Result<ExitCode> {
    if a.models {
        return models(&a);
    }
    if !a.port.is_empty() && !a.board_scaling {
        anyhow::bail!("--port is for --board-scaling (the boards to measure)");
    }
    if a.board_scaling {
        let ports: Vec<_> = a
            .port
            .iter()
            .map(|p| super::farm::PortSpec::parse(p, a.link.baud))
            .collect();
        let size = super::render::parse_size(&a.size)?;
        super::farm::board_scaling(&ports, size, &a.link, a.seconds)?;
        return Ok(ExitCode::SUCCESS);
    }
    let cfg = CoreConfig::default();
    let mut inputs = RunInputs::default();
    inputs.set_input(0, [0.5f32, 1.5, 2.5, 3.5].map(f32::to_bits));
    // The sampling classes need a texture bound (the clocks do not depend on which).
    inputs.textures = vec![Some(Box::new(sim::texture::Texture::graw_test()))];
    println!(
        "machine: {} logical CPUs; build: {}",
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
        if cfg!(debug_assertions) {
            "debug (use --release for real numbers)"
        } else {
            "release"
        }
    );

    let demo = text::parse(include_str!("../../examples/lit-sphere.tgsi"))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let image = compile(&demo, &cfg).context("compiling the demo")?.image;
    let mut demo_inputs = RunInputs::default();
    demo_inputs.set_input(0, [0.3f32, 0.4, 0.0, 1.0].map(f32::to_bits));
    demo_inputs.textures = vec![Some(Box::new(sim::texture::Texture::graw_test()))];
    let r = rate(a.seconds, || {
        sim::reference::run(&demo, &demo_inputs)
            .map(|_| ())
            .map_err(|e| anyhow::anyhow!("{e}"))
    })?;
    let c = rate(a.seconds, || {
        sim::core_model::run(&image, &demo_inputs)
            .map(|_| ())
            .map_err(|e| anyhow::anyhow!("{e}"))
    })?;
    let cycles = sim::core_model::run(&image, &demo_inputs)
        .map_err(|e| anyhow::anyhow!("{e}"))?
        .cycles
        .unwrap_or(0);
    println!("demo shader, quads per second: reference model {r:.0}, core model {c:.0}");
    println!(
        "core model simulated clocks per second: {:.0} ({cycles} clocks per quad)",
        c * cycles as f64
    );

    hardware_speed(&cfg, a.seconds)?;

    // The board's 256-instruction memory cannot hold 1,000 instructions: time the compiler on the
    // largest MAD program that fits and scale.
    let n = usize::from(cfg.program_size) - 8;
    let big = text::parse(&program(CLASSES[2].1, n)).map_err(|e| anyhow::anyhow!("{e}"))?;
    let per = rate(a.seconds, || {
        compile(&big, &cfg)
            .map(|_| ())
            .map_err(|e| anyhow::anyhow!("{e}"))
    })?;
    println!(
        "compile: {:.3} ms per 1,000 TGSI instructions (measured on {n})",
        1000.0 / per * 1000.0 / n as f64
    );

    println!(
        "core clocks per vec4 instruction of a quad, by class (from the core model), with every \
         unit and, where it differs, without the divider:"
    );
    use microcode::core::config::Features;
    let with = CoreConfig {
        features: cfg.features | Features::DIVIDER,
        ..cfg.clone()
    };
    let without = CoreConfig {
        features: cfg.features & !Features::DIVIDER,
        ..cfg.clone()
    };
    for (name, line) in CLASSES {
        let with = class_clocks(line, &with, &inputs).with_context(|| format!("class {name}"))?;
        let without =
            class_clocks(line, &without, &inputs).with_context(|| format!("class {name}"))?;
        let mut row = format!(
            "  {name:<12} {with:>7.1} clocks ({:.1} per fragment)",
            with / 4.0
        );
        if without != with {
            row.push_str(&format!(
                "; without the divider {without:.1} ({:.1} per fragment)",
                without / 4.0
            ));
        }
        println!("{row}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Clocks one more copy of `line` adds to a program for `cfg`: copies against one, as many as
/// the 256-instruction memory holds up to five (the longest sequences fill most of it with two;
/// more copies than fit compile to the divider's operations, which `cfg` may not have).
fn class_clocks(line: &str, cfg: &CoreConfig, inputs: &RunInputs) -> Result<f64> {
    let measure = |n: usize| -> Result<Option<u64>> {
        let p = text::parse(&program(line, n)).map_err(|e| anyhow::anyhow!("{e}"))?;
        let img = match compile(&p, cfg) {
            Ok(c) => c.image,
            Err(microcode::compile::CompileError::Limit { .. }) if n > 1 => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        let unit_missing = img.code.iter().any(|i| {
            let need = i.op.info().unit.feature();
            need != 0 && !cfg.has(need)
        });
        // Copies that compile to calls of the shared division routine (a program too long for
        // a sequence per division) measure the routine, not the inline sequence.
        let calls_routine = img
            .origin
            .contains(&microcode::core::image::DIVISION_ORIGIN);
        if (unit_missing || calls_routine) && n > 1 {
            return Ok(None);
        }
        Ok(sim::core_model::run(&img, inputs)
            .map_err(|e| anyhow::anyhow!("{e}"))?
            .cycles)
    };
    let one = measure(1)?.context("no clocks")?;
    for n in (2..=5).rev() {
        if let Some(c) = measure(n)? {
            return Ok((c as f64 - one as f64) / (n - 1) as f64);
        }
    }
    anyhow::bail!("two copies do not fit the program memory")
}

/// Simulated clocks per second of the hardware engines, on the checker example (quads of a
/// running program, host-port traffic included) and, for Verilator, free-running.
fn hardware_speed(cfg: &CoreConfig, seconds: f64) -> Result<()> {
    use sim::hardware::{
        load_program, rtl::RtlCore, run_loaded, verilator::VerilatorCore, HostPort,
    };
    let p = text::parse(include_str!("../../examples/checker.tgsi"))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let image = compile(&p, cfg)
        .context("compiling the checker example")?
        .image;
    let mut inputs = RunInputs::default();
    inputs.set_input(0, [0.3f32, 0.4, 0.0, 1.0].map(f32::to_bits));
    let mut ports: Vec<Box<dyn HostPort>> = vec![Box::new(RtlCore::new(cfg)?)];
    match VerilatorCore::new(cfg, &mut |m| eprintln!("{m}")) {
        Ok(v) => ports.push(Box::new(v)),
        Err(e) => println!("verilator engine: not measured ({e})"),
    }
    for port in ports.iter_mut() {
        load_program(port.as_mut(), &image)?;
        let start_clocks = port.clocks();
        let t = Instant::now();
        let mut quads = 0u64;
        while t.elapsed().as_secs_f64() < seconds {
            run_loaded(port.as_mut(), &image, &inputs)?;
            quads += 1;
        }
        let s = t.elapsed().as_secs_f64();
        println!(
            "{} engine: {:.0} simulated clocks per second, {:.1} quads per second (checker example, host traffic included)",
            port.engine(),
            (port.clocks() - start_clocks) as f64 / s,
            quads as f64 / s
        );
    }
    if let Ok(mut v) = VerilatorCore::new(cfg, &mut |_| {}) {
        println!(
            "verilator engine, free-running core: {:.0} clocks per second",
            v.bench(2_000_000)?
        );
    }
    Ok(())
}

//! `tgsi-core conformance [DIR] [--engine a,b] [--minimal] [--no-divider] [--json]`: the
//! per-opcode vectors and every program of DIR on the chosen engines, each judged against the
//! reference model within the contract.
//! The JSON schema is in `docs/conformance-json.md`.

use anyhow::{anyhow, bail, Result};
use clap::Args;
use firmware_loader::host::Client;
use firmware_loader::port::SerialTransport;
use microcode::compile::compile;
use microcode::core::CoreConfig;
use microcode::tgsi::validate::{validate, Limits};
use microcode::tgsi::{load, File, Program};
use serde_json::json;
use sim::hardware::HostPort;
use sim::run_io::{RunInputs, RunOutput};
use sim::texture::Texture;
use sim::vectors::run_vectors;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `conformance`.
#[derive(Args)]
pub struct ConformanceArgs {
    /// Folder of TGSI programs to run too (e.g. ../shared/corpus); searched recursively for
    /// `.tgsi`, `.sh`, `.txt` and `.tok` files.
    pub dir: Option<PathBuf>,
    /// Engines to judge, comma-separated (reference, core, rtl, verilator, board).
    #[arg(long, default_value = "reference,core", value_delimiter = ',')]
    pub engine: Vec<String>,
    /// Print JSON instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Serial port of the board (engine board), e.g. /dev/ttyUSB1 or an `emulate` path.
    #[arg(long)]
    pub port: Option<String>,
    #[command(flatten)]
    pub link: super::board::LinkArgs,
    /// Compile for, and build (engines core, rtl, verilator), the board that fits the HX8K
    /// (`CoreConfig::minimal`, as `emulate --minimal` and `synth`); rows that need a unit it
    /// leaves out count as not built.
    #[arg(long)]
    pub minimal: bool,
    /// Leave the divider out of that build (engines core, rtl, verilator): DIV, RCP, MOD and
    /// the divisions of TXP, CUBE, RFL and ExtDivide are then multiply-add or integer sequences.
    #[arg(long)]
    pub no_divider: bool,
    /// Threads for the models (engines reference and core only): 0 uses every logical CPU.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
}

/// A core-model error; a fault on an operation the build leaves out says so as not built.
fn core_error(e: &sim::core_model::CoreFault, image: &microcode::core::Image) -> String {
    match (&e.kind, image.code.get(e.pc)) {
        (sim::core_model::FaultKind::MissingUnit { .. }, Some(i)) => format!(
            "{NOT_BUILT}: needs {}: {e}",
            microcode::core::config::Features::names(i.op.info().unit.feature())
        ),
        _ => e.to_string(),
    }
}

/// What a row that needs a unit the board's build leaves out says instead of failing.
const NOT_BUILT: &str = "not built in this board's hardware";

/// What follows [`NOT_BUILT`] in an engine's error: the unit needed, then the instruction.
fn why_not_built(detail: &str) -> String {
    detail
        .split_once(NOT_BUILT)
        .map_or(detail, |(_, why)| why.trim_start_matches(": "))
        .to_string()
}

/// One engine's verdict on one row.
struct Verdict {
    pass: bool,
    /// The engine cannot run the row: the board's build leaves out a unit it needs (a
    /// `synth --minimal` board). Counted apart, neither passed nor failed.
    not_built: bool,
    worst: String,
}

impl Verdict {
    fn new(pass: bool, worst: String) -> Verdict {
        Verdict {
            pass,
            not_built: false,
            worst,
        }
    }

    fn status(&self) -> &'static str {
        match (self.not_built, self.pass) {
            (true, _) => "not built",
            (_, true) => "pass",
            _ => "FAIL",
        }
    }
}

struct Row {
    kind: &'static str,
    name: String,
    verdicts: Vec<Verdict>,
}

/// The engines of one run, and what the hardware ones keep between rows: one simulated core per
/// hardware engine (built on first use) and one link to the board (opened on first use, each
/// program uploaded once). Owned by one thread and handed down to every row it judges: a run
/// that includes a hardware engine or the board judges every row, vectors and programs, on the
/// thread that made it, so the board's port is opened once per command (a second open of the
/// same port is refused as busy); the models keep no state and run on an `Engines` per thread.
struct Engines<'a> {
    /// The build the core, rtl and verilator engines compile for.
    config: &'a CoreConfig,
    /// Where the board is (engine board).
    at: BoardAt<'a>,
    cores: RefCell<Vec<Box<dyn HostPort>>>,
    board: RefCell<Option<BoardLink>>,
}

/// The board's port (engine board) and how to talk to it.
#[derive(Clone, Copy)]
struct BoardAt<'a> {
    port: Option<&'a str>,
    link: &'a super::board::LinkArgs,
}

/// The open link to the board and the configuration its core was built with.
type BoardLink = (Client<SerialTransport>, CoreConfig);

/// The engines `conformance` knows, in the order `--help` names them.
const ENGINES: &[&str] = &["reference", "core", "rtl", "verilator", "board"];

/// Engines that keep no state between rows and may run on every thread.
fn is_model(engine: &str) -> bool {
    matches!(engine, "reference" | "core")
}

impl<'a> Engines<'a> {
    fn new(config: &'a CoreConfig, at: BoardAt<'a>) -> Engines<'a> {
        Engines {
            config,
            at,
            cores: RefCell::new(Vec::new()),
            board: RefCell::new(None),
        }
    }

    /// Refuses an engine name this command does not know, or the board without a port.
    fn check(&self, engine: &str) -> Result<()> {
        if !ENGINES.contains(&engine) {
            bail!("unknown engine `{engine}` ({})", ENGINES.join(", "));
        }
        if engine == "board" && self.at.port.is_none() {
            bail!("engine board needs --port (see `tgsi-core ports`, or `tgsi-core emulate`)");
        }
        Ok(())
    }

    /// Runs `p` on one quad of `engine`.
    fn run(&self, engine: &str, p: &Program, i: &RunInputs) -> Result<RunOutput, String> {
        match engine {
            "reference" => sim::reference::run(p, i).map_err(|e| e.to_string()),
            "core" => {
                let image = compile(p, self.config).map_err(|e| e.to_string())?.image;
                sim::core_model::run(&image, i).map_err(|e| core_error(&e, &image))
            }
            "rtl" | "verilator" => self.hardware(p, i, engine),
            "board" => self.board(p, i),
            other => Err(format!("unknown engine `{other}` ({})", ENGINES.join(", "))),
        }
    }

    /// Compiles and runs on a hardware engine (built on first use).
    fn hardware(&self, p: &Program, i: &RunInputs, engine: &str) -> Result<RunOutput, String> {
        use sim::hardware::{open, run_image, HwError};
        let image = compile(p, self.config).map_err(|e| e.to_string())?.image;
        let mut cores = self.cores.borrow_mut();
        let at = match cores.iter().position(|c| c.engine() == engine) {
            Some(at) => at,
            None => {
                let core = open(engine, self.config, &mut |m| eprintln!("{m}"))
                    .map_err(|e| e.to_string())?;
                cores.push(core);
                cores.len() - 1
            }
        };
        run_image(cores[at].as_mut(), &image, i).map_err(|e| match &e {
            HwError::NotBuilt { unit, .. } => format!("{NOT_BUILT}: needs {unit}: {e}"),
            _ => e.to_string(),
        })
    }

    /// Compiles, uploads (unless active) and runs on the board, over the one link of the run.
    fn board(&self, p: &Program, i: &RunInputs) -> Result<RunOutput, String> {
        let port = self.at.port.ok_or("engine board needs --port")?;
        let mut link = self.board.borrow_mut();
        if link.is_none() {
            *link = Some(
                super::board::board_link(Some(port), self.at.link).map_err(|e| format!("{e:#}"))?,
            );
        }
        let (client, config) = link.as_mut().ok_or("no link to the board")?;
        let image = compile(p, config).map_err(|e| e.to_string())?.image;
        // The upload would refuse it too; said apart, so that the row counts as not built.
        if let Err(e) = sim::hardware::check_supported(&image, "board") {
            if let sim::hardware::HwError::NotBuilt { unit, .. } = &e {
                return Err(format!("{NOT_BUILT}: needs {unit}: {e}"));
            }
        }
        // One upload per program: not worth a line each.
        let file = super::board::board_upload(client, port, &image, i, &mut |_| {})
            .map_err(|e| format!("{e:#}"))?;
        super::board::board_quad(client, &image, &file, i).map_err(|e| format!("{e:#}"))
    }
}

/// Whether `p` uses an opcode whose results are approximations (its bounds are in
/// decisions.md section 2).
fn approximates(p: &Program) -> bool {
    p.instructions
        .iter()
        .any(|i| i.opcode.info().is_approximate())
}

/// Inputs that differ per lane and per register, a geometry program's `IN[vertex][index]` that
/// differ per vertex and index, Mesa's graw constant buffer 0, and Mesa's graw test texture on
/// every sampler `program` declares (as graw binds it), so that a textured program's row
/// compares samples rather than passing because every engine refuses an unbound sampler.
fn program_inputs(program: &Program) -> RunInputs {
    let mut inputs = RunInputs::default();
    for reg in 0..8u32 {
        let lanes = std::array::from_fn(|lane| {
            std::array::from_fn(|c| {
                (0.125 + 0.25 * lane as f32 + 0.0625 * c as f32 - 0.5 * (reg % 2) as f32).to_bits()
            })
        });
        inputs.inputs.insert(reg, lanes);
    }
    for vertex in 0..6u32 {
        for index in 0..4u32 {
            let v = std::array::from_fn(|c| {
                (0.5 * vertex as f32 - 0.25 * index as f32 + 0.125 * c as f32 + 0.0625).to_bits()
            });
            inputs.geometry_inputs.insert((vertex, index), v);
        }
    }
    for (i, v) in sim::vectors::MESA_GRAW_CONST0.iter().enumerate() {
        inputs.set_const(0, i as u32, v.map(f32::to_bits));
    }
    for d in program
        .declarations
        .iter()
        .filter(|d| d.file == File::Sampler)
    {
        for unit in d.first.max(0)..=d.last.min(MAX_SAMPLER) {
            let unit = unit as usize;
            if inputs.textures.len() <= unit {
                inputs.textures.resize_with(unit + 1, || None);
            }
            inputs.textures[unit] = Some(Box::new(Texture::graw_test()));
        }
    }
    inputs
}

/// The highest sampler unit given a texture (TGSI's 7.9 drivers bind at most 16).
const MAX_SAMPLER: i32 = 15;

/// Worst difference between two runs' outputs and emitted vertices; `None` when kills, output
/// sets, vertex counts or primitive ends differ.
fn compare(a: &RunOutput, b: &RunOutput) -> Option<(f64, bool)> {
    let mut worst = 0.0f64;
    let mut exact = true;
    for (la, lb) in a.lanes.iter().zip(&b.lanes) {
        if la.killed != lb.killed
            || la.outputs.keys().ne(lb.outputs.keys())
            || la.vertices.len() != lb.vertices.len()
        {
            return None;
        }
        let mut values = vec![(&la.outputs, &lb.outputs)];
        for (xa, xb) in la.vertices.iter().zip(&lb.vertices) {
            if xa.primitive_end != xb.primitive_end || xa.outputs.keys().ne(xb.outputs.keys()) {
                return None;
            }
            values.push((&xa.outputs, &xb.outputs));
        }
        for (va, vb) in values
            .iter()
            .flat_map(|(oa, ob)| oa.values().zip(ob.values()))
        {
            for (x, y) in va.iter().zip(vb) {
                if x != y {
                    exact = false;
                    let (fx, fy) = (f32::from_bits(*x) as f64, f32::from_bits(*y) as f64);
                    let d = if fx.is_nan() || fy.is_nan() {
                        f64::INFINITY
                    } else {
                        (fx - fy).abs() / fy.abs().max(1.0)
                    };
                    worst = worst.max(d);
                }
            }
        }
    }
    Some((worst, exact))
}

fn programs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        // Only real directories are entered (a symbolic link to a parent would loop forever) and
        // only regular files are read (a FIFO would block the scan).
        let Ok(own) = std::fs::symlink_metadata(&p) else {
            continue;
        };
        if own.is_dir() {
            programs(&p, out);
        } else if std::fs::metadata(&p).is_ok_and(|m| m.is_file())
            && matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("tgsi" | "sh" | "txt" | "tok")
            )
        {
            out.push(p);
        }
    }
}

/// Judges one program on every engine against the reference model.
fn program_row(path: &Path, names: &[String], engines: &Engines) -> Row {
    let name = path.display().to_string();
    let fail_all = |why: String| Row {
        kind: "program",
        name: name.clone(),
        verdicts: names
            .iter()
            .map(|_| Verdict::new(false, why.clone()))
            .collect(),
    };
    let program = match super::input::read_bytes(path)
        .map_err(|e| format!("{e:#}"))
        .and_then(|b| load::load(&b, None).map_err(|e| e.to_string()))
    {
        Ok(l) => l.program,
        Err(e) => return fail_all(format!("does not load: {e}")),
    };
    if let Err(errors) = validate(&program, &Limits::default()) {
        return fail_all(format!("invalid: {}", errors[0]));
    }
    let inputs = program_inputs(&program);
    let golden = sim::reference::run(&program, &inputs);
    let tolerance = if approximates(&program) { 1e-4 } else { 0.0 };
    let verdicts = names
        .iter()
        .map(|e| match (&golden, engines.run(e, &program, &inputs)) {
            (Err(g), Err(r)) => Verdict::new(true, format!("both fail: {g} / {r}")),
            (Ok(_), Err(r)) if r.contains(NOT_BUILT) => Verdict {
                pass: false,
                not_built: true,
                worst: why_not_built(&r),
            },
            (Ok(_), Err(r)) => Verdict::new(false, r),
            (Err(g), Ok(_)) => {
                Verdict::new(false, format!("reference fails ({g}) but the engine runs"))
            }
            (Ok(g), Ok(r)) => match compare(&r, g) {
                None => Verdict::new(false, "kills, outputs or vertices differ".into()),
                Some((_, true)) => Verdict::new(true, "exact".into()),
                Some((w, false)) => Verdict::new(w <= tolerance, format!("{w:.3e} rel")),
            },
        })
        .collect();
    Row {
        kind: "program",
        name,
        verdicts,
    }
}

/// One engine's vector report as a row verdict per opcode.
fn opcode_rows(reports: &[sim::vectors::VectorReport]) -> Vec<Row> {
    let Some(first) = reports.first() else {
        return Vec::new();
    };
    let mut rows = Vec::new();
    for (k, op) in first.opcodes.iter().enumerate() {
        let verdicts = reports
            .iter()
            .map(|r| opcode_verdict(&r.opcodes[k]))
            .collect();
        rows.push(Row {
            kind: "opcode",
            name: op.opcode.mnemonic().to_string(),
            verdicts,
        });
    }
    rows
}

/// One engine's verdict on one opcode's vectors.
fn opcode_verdict(o: &sim::vectors::OpcodeResult) -> Verdict {
    let w = &o.worst;
    let worst = match (w.ulp, w.abs, w.rel) {
        (Some(u), _, _) if u > 0 => format!("{u} ulp"),
        (_, Some(x), _) if x > 0.0 => format!("{x:.3e} abs"),
        (_, _, Some(x)) if x > 0.0 => format!("{x:.3e} rel"),
        _ => "exact".into(),
    };
    match o.failures.first() {
        // A row the board cannot run says why, not a worst deviation of nothing.
        Some(f) if o.passed == 0 && o.failures.iter().all(|f| f.detail.contains(NOT_BUILT)) => {
            Verdict {
                pass: false,
                not_built: true,
                worst: why_not_built(&f.detail),
            }
        }
        // Nothing passed: no deviation to report, the first reason instead.
        Some(f) if o.passed == 0 => {
            Verdict::new(false, format!("0/{} vectors: {}", o.vectors, f.detail))
        }
        _ => Verdict::new(
            o.passed == o.vectors,
            format!("{}/{} vectors, {worst}", o.passed, o.vectors),
        ),
    }
}

/// Every row of the run: each engine's opcode vectors, then every program of `files`.
///
/// With a hardware engine or the board among `names` everything runs on this thread with one
/// [`Engines`] (one simulated core per engine, one link to the board). With models only, the
/// vectors of each engine and the programs, split in `threads` parts, run on threads of their
/// own, each with its own `Engines`.
fn all_rows(
    names: &[String],
    files: &[PathBuf],
    config: &CoreConfig,
    at: BoardAt,
    threads: usize,
) -> Result<Vec<Row>> {
    let vectors = |engines: &Engines, name: &str| {
        run_vectors(|p: &Program, i: &RunInputs| engines.run(name, p, i))
    };
    if threads <= 1 || !names.iter().all(|e| is_model(e)) {
        let engines = Engines::new(config, at);
        let reports: Vec<_> = names.iter().map(|e| vectors(&engines, e)).collect();
        let mut rows = opcode_rows(&reports);
        rows.extend(files.iter().map(|f| program_row(f, names, &engines)));
        return Ok(rows);
    }
    std::thread::scope(|scope| {
        let vector_threads: Vec<_> = names
            .iter()
            .map(|e| scope.spawn(move || vectors(&Engines::new(config, at), e)))
            .collect();
        let chunk = files.len().div_ceil(threads).max(1);
        let program_threads: Vec<_> = files
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let engines = Engines::new(config, at);
                    part.iter()
                        .map(|f| program_row(f, names, &engines))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let reports = vector_threads
            .into_iter()
            .map(|h| h.join().map_err(|_| anyhow!("a vector thread panicked")))
            .collect::<Result<Vec<_>>>()?;
        let mut rows = opcode_rows(&reports);
        for h in program_threads {
            rows.extend(h.join().map_err(|_| anyhow!("a program thread panicked"))?);
        }
        Ok(rows)
    })
}

/// Runs everything and prints the table or the JSON.
pub fn run(a: ConformanceArgs) -> Result<ExitCode> {
    let mut config = if a.minimal {
        CoreConfig::minimal()
    } else {
        CoreConfig::default()
    };
    if a.no_divider {
        config.features &= !microcode::core::config::Features::DIVIDER;
    }
    let at = BoardAt {
        port: a.port.as_deref(),
        link: &a.link,
    };
    let checker = Engines::new(&config, at);
    for e in &a.engine {
        checker.check(e)?;
    }
    let engines = a.engine.clone();
    let mut files = Vec::new();
    if let Some(dir) = &a.dir {
        match std::fs::metadata(dir) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => bail!("{} is not a directory", dir.display()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                bail!("{} does not exist", dir.display())
            }
            Err(e) => bail!("cannot read {}: {e}", dir.display()),
        }
        programs(dir, &mut files);
    }
    // The models run on every thread; a hardware engine or the board keeps one core and one
    // link for the whole command, on this thread.
    let threads = super::render::thread_count(a.threads);
    let rows = all_rows(&engines, &files, &config, at, threads)?;
    let passed = rows
        .iter()
        .filter(|r| r.verdicts.iter().all(|v| v.pass))
        .count();
    let not_built = rows
        .iter()
        .filter(|r| r.verdicts.iter().any(|v| v.not_built))
        .filter(|r| r.verdicts.iter().all(|v| v.pass || v.not_built))
        .count();
    let failed = rows.len() - passed - not_built;
    if a.json {
        let rows_json: Vec<_> = rows
            .iter()
            .map(|r| {
                let results: serde_json::Map<_, _> = engines
                    .iter()
                    .zip(&r.verdicts)
                    .map(|(e, v)| {
                        (
                            e.clone(),
                            json!({"pass": v.pass, "not_built": v.not_built, "worst": v.worst}),
                        )
                    })
                    .collect();
                json!({"kind": r.kind, "name": r.name, "results": results})
            })
            .collect();
        let doc = json!({"engines": engines, "rows": rows_json, "passed": passed,
            "failed": failed, "not_built": not_built});
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        let mut header = format!("{:<8} {:<48}", "kind", "opcode or program");
        for e in &engines {
            header.push_str(&format!(" {e:<10} {:<28}", "worst"));
        }
        println!("{}", header.trim_end());
        for r in &rows {
            let mut line = format!("{:<8} {:<48}", r.kind, r.name);
            for v in &r.verdicts {
                let mut worst = v.worst.clone();
                worst.truncate(60);
                line.push_str(&format!(" {:<10} {:<28}", v.status(), worst));
            }
            println!("{}", line.trim_end());
        }
        if not_built > 0 {
            println!(
                "{passed} passed, {failed} failed, {not_built} {NOT_BUILT} (a unit it needs is \
                 left out of the board's build)"
            );
        } else {
            println!("{passed} passed, {failed} failed");
        }
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

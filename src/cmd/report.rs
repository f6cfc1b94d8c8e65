//! `tgsi-core translate --report DIR [--check]`: every vertex and fragment entry point of the
//! shaders under DIR (recursively, sorted) translated, one line each, then the counts and the
//! share of the entry points naga accepts that translate. `--check` runs each translation on the
//! reference and the core model and compares them: a fragment shader rendered 8x8 (the graw test
//! texture on every sampler unit, constants zero), a vertex shader one run of four vertices.

use anyhow::{Context, Result};
use microcode::compile::compile;
use microcode::core::CoreConfig;
use microcode::tgsi::{File, Processor, Program};
use sim::run_io::{RunInputs, RunOutput};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use translate::TranslateError;

/// What became of one entry point.
enum Outcome {
    Translated(Option<Check>),
    /// naga refused the file or this entry point: not counted in the share.
    NagaRefused(String),
    /// The translator refused it: the reason's class and the message's first line.
    Refused(String, String),
}

/// The two models on one translation.
enum Check {
    Same,
    Differ(String),
    /// Not runnable on the core (too large, or no colour to render): the reason.
    NotRunnable(String),
}

/// Runs the report.
pub fn run(dir: &Path, check: bool) -> Result<ExitCode> {
    let mut files = Vec::new();
    collect(dir, &mut files)?;
    let mut outcomes: Vec<(String, String, Outcome)> = Vec::new();
    for (k, path) in files.iter().enumerate() {
        eprint!("\r{}/{} files", k + 1, files.len());
        let name = path.display().to_string();
        let Some(language) = translate::language_of(path) else {
            continue;
        };
        let bytes = match super::input::read_bytes(path) {
            Ok(b) => b,
            Err(e) => {
                outcomes.push((name, "-".into(), Outcome::NagaRefused(format!("{e:#}"))));
                continue;
            }
        };
        let entries = match translate::entry_points(&bytes, language, &name) {
            Ok(e) => e,
            Err(e) => {
                outcomes.push((name, "-".into(), Outcome::NagaRefused(first_line(&e))));
                continue;
            }
        };
        for (entry, _) in entries {
            let o = match translate::translate(&bytes, language, &name, Some(&entry)) {
                Ok(t) => Outcome::Translated(check.then(|| compare(&t.program))),
                Err(e @ (TranslateError::Parse(_) | TranslateError::Invalid(_))) => {
                    Outcome::NagaRefused(first_line(&e))
                }
                Err(e) => Outcome::Refused(e.class(), first_line(&e)),
            };
            outcomes.push((name.clone(), entry, o));
        }
    }
    eprintln!();
    print_report(&outcomes);
    Ok(ExitCode::SUCCESS)
}

fn first_line(e: &TranslateError) -> String {
    e.to_string().lines().next().unwrap_or("").to_string()
}

/// Shader files under `dir`, sorted.
fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out)?;
        } else if translate::language_of(&p).is_some() {
            out.push(p);
        }
    }
    Ok(())
}

/// Inputs for one run: the graw test texture on every declared sampler unit.
fn inputs(program: &Program) -> RunInputs {
    let units = program
        .declarations
        .iter()
        .filter(|d| d.file == File::Sampler)
        .map(|d| d.last + 1)
        .max()
        .unwrap_or(0);
    RunInputs {
        textures: (0..units)
            .map(|_| {
                Some(Box::new(sim::texture::Texture::graw_test()) as Box<dyn sim::run_io::Sampler>)
            })
            .collect(),
        ..RunInputs::default()
    }
}

/// The reference and the core model on `program`.
fn compare(program: &Program) -> Check {
    let image = match compile(program, &CoreConfig::default()) {
        Ok(c) => c.image,
        Err(e) => return Check::NotRunnable(format!("{e}")),
    };
    if program.processor == Processor::Vertex {
        let base = inputs(program);
        let reference = sim::reference::run(program, &base);
        let core_inputs = RunInputs {
            inputs: base.effective_inputs(program),
            ..inputs(program)
        };
        let core = sim::core_model::run(&image, &core_inputs);
        return match (reference, core) {
            (Ok(a), Ok(b)) if same(&a, &b) => Check::Same,
            (Ok(_), Ok(_)) => Check::Differ("the outputs differ".into()),
            (Err(e), _) => Check::NotRunnable(format!("reference: {e}")),
            (_, Err(e)) => Check::NotRunnable(format!("core: {e}")),
        };
    }
    let frame = |core: bool| {
        let mut i = inputs(program);
        sim::render::render(
            program,
            8,
            8,
            &BTreeMap::new(),
            &mut i,
            &mut |x| {
                if core {
                    sim::core_model::run(&image, x).map_err(|e| e.to_string())
                } else {
                    sim::reference::run(program, x).map_err(|e| e.to_string())
                }
            },
            &mut |_, _| {},
        )
        .map_err(|e| e.to_string())
    };
    match (frame(false), frame(true)) {
        (Ok(a), Ok(b)) => {
            let (n, _) = a.diff(&b);
            if n == 0 {
                Check::Same
            } else {
                Check::Differ(format!("{n} of 64 pixels differ"))
            }
        }
        (Err(e), _) => Check::NotRunnable(e),
        (_, Err(e)) => Check::NotRunnable(format!("core: {e}")),
    }
}

/// The same kills and output bits in every lane.
fn same(a: &RunOutput, b: &RunOutput) -> bool {
    a.lanes
        .iter()
        .zip(&b.lanes)
        .all(|(x, y)| x.killed == y.killed && x.outputs == y.outputs)
}

fn print_report(outcomes: &[(String, String, Outcome)]) {
    let (mut translated, mut accepted, mut naga) = (0usize, 0usize, 0usize);
    let (mut same, mut differ, mut not_runnable) = (0usize, 0usize, 0usize);
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for (file, entry, o) in outcomes {
        match o {
            Outcome::Translated(check) => {
                translated += 1;
                accepted += 1;
                let note = match check {
                    None => String::new(),
                    Some(Check::Same) => {
                        same += 1;
                        "  (reference and core agree)".into()
                    }
                    Some(Check::Differ(why)) => {
                        differ += 1;
                        format!("  (MODELS DIFFER: {why})")
                    }
                    Some(Check::NotRunnable(why)) => {
                        not_runnable += 1;
                        format!("  (not run: {})", why.lines().next().unwrap_or(""))
                    }
                };
                println!("translated  {file}  {entry}{note}");
            }
            Outcome::NagaRefused(why) => {
                naga += 1;
                println!("naga-refused  {file}  {entry}  {why}");
            }
            Outcome::Refused(class, why) => {
                accepted += 1;
                *reasons.entry(class.clone()).or_default() += 1;
                println!("refused  {file}  {entry}  {why}");
            }
        }
    }
    println!();
    println!(
        "{} entry points (or files naga could not read): {naga} refused by naga, {accepted} \
         accepted by naga",
        outcomes.len()
    );
    let share = if accepted == 0 {
        0.0
    } else {
        100.0 * translated as f64 / accepted as f64
    };
    println!("translated: {translated} of {accepted} ({share:.1}%)");
    for (class, n) in &reasons {
        println!("refused: {n:4}  {class}");
    }
    if same + differ + not_runnable > 0 {
        println!(
            "checked on both models: {same} agree, {differ} differ, {not_runnable} not runnable \
             on the core or without a colour output"
        );
    }
}

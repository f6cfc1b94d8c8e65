//! `formal`: runs the formal proofs (`cargo xtask formal` builds and runs this).
//!
//! usage: formal [--list] [--ci] [--mutants] [NAME...]
use std::process::ExitCode;
use std::time::Instant;

use formal::{prove, select, Proof, Variant, Verdict, PROOFS};

const USAGE: &str = "usage: cargo xtask formal [--list] [--ci] [--mutants] [NAME...]

  NAME       a proof (`fadd-add`) or a group (`fadd`: every fadd-* proof); default: all
  --list     list the proofs with what each proves and assumes, run nothing
  --ci       only the proofs the default test suite (CI) runs
  --mutants  also run each proof's mutation check (its planted bug must be found)";

fn main() -> ExitCode {
    let mut list = false;
    let mut ci = false;
    let mut mutants = false;
    let mut chosen: Vec<&'static Proof> = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--verilog" => {
                // Debugging aid: the emitted Verilog of every unit into the work root.
                for unit in formal::units::Unit::ALL {
                    let path = formal::run::work_root().join(format!("{}.v", unit.name()));
                    let _ = std::fs::create_dir_all(formal::run::work_root());
                    if let Err(e) = std::fs::write(&path, unit.verilog()) {
                        eprintln!("formal: {}: {e}", path.display());
                        return ExitCode::FAILURE;
                    }
                    println!("{}", path.display());
                }
                return ExitCode::SUCCESS;
            }
            "--list" => list = true,
            "--ci" => ci = true,
            "--mutants" => mutants = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            flag if flag.starts_with('-') => {
                eprintln!("formal: unknown option `{flag}`\n{USAGE}");
                return ExitCode::FAILURE;
            }
            name => {
                let found = select(name);
                if found.is_empty() {
                    eprintln!(
                        "formal: error: {}",
                        formal::FormalError::UnknownProof(name.into())
                    );
                    return ExitCode::FAILURE;
                }
                chosen.extend(found);
            }
        }
    }
    if chosen.is_empty() {
        chosen = PROOFS.iter().collect();
    }
    if ci {
        chosen.retain(|p| p.ci);
    }
    if list {
        for p in &chosen {
            println!(
                "{:<16} {} [{}]\n    proves:  {}\n    assumes: {}\n    planted bug: {}",
                p.name,
                p.unit.name(),
                if p.ci { "CI" } else { "long run" },
                p.claim,
                p.assumes,
                p.mutation.what
            );
        }
        return ExitCode::SUCCESS;
    }
    run_all(&chosen, mutants)
}

fn run_all(chosen: &[&'static Proof], mutants: bool) -> ExitCode {
    let started = Instant::now();
    let mut failed = 0;
    for p in chosen {
        let mut variants = vec![Variant::Original];
        if mutants {
            variants.push(Variant::Mutant);
        }
        for variant in variants {
            let label = match variant {
                Variant::Original => p.name.to_string(),
                Variant::Mutant => format!("{} (planted bug: {})", p.name, p.mutation.what),
            };
            match (prove(p, variant), variant) {
                (Ok(o), Variant::Original) if o.verdict == Verdict::Proven => println!(
                    "PROVEN   {label}: {:.1} s (yosys {:.1} s, solver {:.1} s)",
                    (o.prepare + o.solve).as_secs_f64(),
                    o.prepare.as_secs_f64(),
                    o.solve.as_secs_f64()
                ),
                (Ok(o), Variant::Mutant) if o.verdict != Verdict::Proven => println!(
                    "CAUGHT   {label}: {:.1} s",
                    (o.prepare + o.solve).as_secs_f64()
                ),
                (Ok(o), Variant::Original) => {
                    failed += 1;
                    println!("FAILED   {label}: counterexample ({}):", o.dir.display());
                    if let Verdict::Refuted(values) = &o.verdict {
                        for (term, value) in values {
                            println!("    {term} = {value}");
                        }
                    }
                }
                (Ok(o), Variant::Mutant) => {
                    failed += 1;
                    println!(
                        "MISSED   {label}: the proof still holds with the bug ({})",
                        o.dir.display()
                    );
                }
                (Err(e), _) => {
                    failed += 1;
                    println!("ERROR    {label}: {e}");
                }
            }
        }
    }
    println!(
        "{} proofs, {failed} failed, in {:.1} s",
        chosen.len(),
        started.elapsed().as_secs_f64()
    );
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

//! `formal`: runs the formal proofs (`cargo xtask formal` builds and runs this).
use std::process::ExitCode;
use std::time::Instant;

use formal::{prove_within, select, Proof, Variant, Verdict, PROOFS};

const USAGE: &str =
    "usage: cargo xtask formal [--list] [--all] [--mutants] [--time-limit SECS] [NAME...]

  NAME        a proof (`fadd-add`) or a group (`fadd`: every fadd-* proof); without NAME the
              proofs CI runs (a few minutes)
  --all       every proof, the long run included (fmul-full: an hour's time limit)
  --list      list the proofs with what each proves and assumes, run nothing
  --mutants   also run each proof's mutation check (its planted bug must be found)
  --time-limit SECS
              the solver's time limit for every proof run (default: each proof's own)
  --verilog   write every unit's emitted Verilog into target/formal and stop";

/// What the command line asks for.
struct Request {
    list: bool,
    mutants: bool,
    time_limit: Option<Option<u32>>,
    chosen: Vec<&'static Proof>,
}

fn parse(args: &[String]) -> Result<Request, String> {
    let mut request = Request {
        list: false,
        mutants: false,
        time_limit: None,
        chosen: Vec::new(),
    };
    let mut all = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--list" => request.list = true,
            "--all" => all = true,
            "--mutants" => request.mutants = true,
            "--time-limit" => {
                let value = it.next().ok_or("--time-limit needs a number of seconds")?;
                let seconds: u32 = value
                    .parse()
                    .map_err(|_| format!("--time-limit takes whole seconds, got `{value}`"))?;
                request.time_limit = Some(Some(seconds));
            }
            flag if flag.starts_with('-') => return Err(format!("unknown option `{flag}`")),
            name => {
                let found = select(name);
                if found.is_empty() {
                    return Err(formal::FormalError::UnknownProof(name.into()).to_string());
                }
                request.chosen.extend(found);
            }
        }
    }
    if request.chosen.is_empty() {
        request.chosen = PROOFS.iter().filter(|p| all || p.ci).collect();
    }
    Ok(request)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    if args.iter().any(|a| a == "--verilog") {
        return write_verilog();
    }
    let request = match parse(&args) {
        Ok(request) => request,
        Err(message) => {
            eprintln!("formal: error: {message}\n{USAGE}");
            return ExitCode::FAILURE;
        }
    };
    if request.list {
        for p in &request.chosen {
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
    let skipped: Vec<&str> = PROOFS
        .iter()
        .filter(|p| !request.chosen.iter().any(|c| c.name == p.name) && !p.ci)
        .map(|p| p.name)
        .collect();
    let code = run_all(&request);
    if !skipped.is_empty() {
        println!(
            "not run (the long run: `cargo xtask formal --all`, or by name): {}",
            skipped.join(", ")
        );
    }
    code
}

/// Debugging aid: the emitted Verilog of every unit, into the work root.
fn write_verilog() -> ExitCode {
    let root = formal::run::work_root();
    if let Err(e) = std::fs::create_dir_all(&root) {
        eprintln!("formal: error: {}: {e}", root.display());
        return ExitCode::FAILURE;
    }
    for unit in formal::units::Unit::ALL {
        let path = root.join(format!("{}.v", unit.name()));
        if let Err(e) = std::fs::write(&path, unit.verilog()) {
            eprintln!("formal: error: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
        println!("{}", path.display());
    }
    ExitCode::SUCCESS
}

fn run_all(request: &Request) -> ExitCode {
    let started = Instant::now();
    let mut failed = 0;
    for p in &request.chosen {
        let mut variants = vec![Variant::Original];
        if request.mutants {
            variants.push(Variant::Mutant);
        }
        let limit = request.time_limit.unwrap_or(p.time_limit);
        for variant in variants {
            let label = match variant {
                Variant::Original => p.name.to_string(),
                Variant::Mutant => format!("{} (planted bug: {})", p.name, p.mutation.what),
            };
            if !report(&label, variant, prove_within(p, variant, limit)) {
                failed += 1;
            }
        }
    }
    println!(
        "{} proofs, {failed} failed, in {:.1} s",
        request.chosen.len(),
        started.elapsed().as_secs_f64()
    );
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Prints one run's line; true when it came out as it must (proven, or its mutant caught).
fn report(label: &str, variant: Variant, outcome: formal::Result<formal::Outcome>) -> bool {
    match (outcome, variant) {
        (Ok(o), Variant::Original) if o.verdict == Verdict::Proven => {
            println!(
                "PROVEN   {label}: {:.1} s (yosys {:.1} s, solver {:.1} s)",
                (o.prepare + o.solve).as_secs_f64(),
                o.prepare.as_secs_f64(),
                o.solve.as_secs_f64()
            );
            true
        }
        (Ok(o), Variant::Mutant) if o.verdict != Verdict::Proven => {
            println!(
                "CAUGHT   {label}: {:.1} s",
                (o.prepare + o.solve).as_secs_f64()
            );
            true
        }
        (Ok(o), Variant::Original) => {
            println!("FAILED   {label}: counterexample ({}):", o.dir.display());
            if let Verdict::Refuted(values) = &o.verdict {
                for (term, value) in values {
                    println!("    {term} = {value}");
                }
            }
            false
        }
        (Ok(o), Variant::Mutant) => {
            println!(
                "MISSED   {label}: the proof still holds with the bug ({})",
                o.dir.display()
            );
            false
        }
        (Err(formal::FormalError::Unknown(_)), _) => {
            println!("UNDECIDED {label}: the solver gave up (time limit reached)");
            false
        }
        (Err(e), _) => {
            println!("ERROR    {label}: {e}");
            false
        }
    }
}

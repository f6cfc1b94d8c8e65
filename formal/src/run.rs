//! Running one proof: the unit's Verilog (with a planted bug for a mutation check) through
//! yosys' `write_smt2`, the query put together with the contract and the pipeline's unrolling,
//! and the solver's verdict.
use std::collections::hash_map::DefaultHasher;
use std::fmt::Write as _;
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use toolchain::{run_logged, Tool};

use crate::error::{io, FormalError, Result};
use crate::proofs::Proof;

/// The reference definitions every query may use (`formal/smt/contract.smt2`).
pub const CONTRACT: &str = include_str!("../smt/contract.smt2");

/// The solver driver run by the venv's Python (`formal/bitwuzla_check.py`).
const DRIVER: &str = include_str!("../bitwuzla_check.py");

/// The solver's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No input violates the property: proven.
    Proven,
    /// A counterexample: the proof's `show` terms with their values.
    Refuted(Vec<(String, String)>),
}

/// A decided proof with its times.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// What the solver found.
    pub verdict: Verdict,
    /// Time to emit the Verilog and turn it into SMT-LIB2 (yosys).
    pub prepare: Duration,
    /// Time the solver took.
    pub solve: Duration,
    /// The work directory with the query and the logs.
    pub dir: PathBuf,
}

/// Which Verilog a run reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Variant {
    /// The unit as emitted.
    Original,
    /// The unit with the proof's planted bug.
    Mutant,
}

/// Where the proofs' work files go: `<workspace>/target/formal` (`TGSI_FORMAL_DIR` replaces
/// it). Not under `/tmp`: the WebAssembly yosys does not see the host's `/tmp`.
pub fn work_root() -> PathBuf {
    if let Some(dir) = std::env::var_os("TGSI_FORMAL_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    toolchain::workspace_root()
        .unwrap_or_else(|| PathBuf::from("."))
        .join("target")
        .join("formal")
}

/// Decides `proof` on the unit as emitted or with its planted bug, with the proof's own time
/// limit.
pub fn prove(proof: &Proof, variant: Variant) -> Result<Outcome> {
    prove_within(proof, variant, proof.time_limit)
}

/// [`prove`] with a time limit in seconds (`None`: none) in place of the proof's.
pub fn prove_within(proof: &Proof, variant: Variant, time_limit: Option<u32>) -> Result<Outcome> {
    let started = Instant::now();
    let suffix = match variant {
        Variant::Original => "",
        Variant::Mutant => "-mutant",
    };
    let dir = work_root().join(format!("{}{suffix}", proof.name));
    fs::create_dir_all(&dir).map_err(io(&dir))?;
    let mut verilog = proof.unit.verilog();
    if variant == Variant::Mutant {
        verilog = plant(proof, &verilog)?;
    }
    let smt = unit_smt2(&verilog, proof.flow, proof.yosys, &dir)?;
    let query = compose(proof, &smt)?;
    let query_path = dir.join("query.smt2");
    fs::write(&query_path, query).map_err(io(&query_path))?;
    let prepare = started.elapsed();

    let started = Instant::now();
    let verdict = solve(proof.name, proof.show, time_limit, &dir)?;
    Ok(Outcome {
        verdict,
        prepare,
        solve: started.elapsed(),
        dir,
    })
}

/// The Verilog with the proof's planted bug: its `find` text, which must occur exactly once,
/// replaced.
pub fn plant(proof: &Proof, verilog: &str) -> Result<String> {
    let m = &proof.mutation;
    let count = verilog.matches(m.find).count();
    if count != 1 {
        return Err(FormalError::StaleMutation {
            proof: proof.name,
            find: m.find,
            count,
        });
    }
    Ok(verilog.replacen(m.find, m.replace, 1))
}

/// How yosys turns a unit into SMT-LIB2. Either way there is one state sort `|top_s|`, each
/// signal (`-wires`: every named wire, hierarchical names joined with `.`) is `|top_n NAME|`, a
/// function of a state, and `|top_t|` relates a state to the next (one clock edge).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Flow {
    /// A datapath unit: `prep -flatten`, the state one bit-vector (`-stbv`).
    Datapath,
    /// A block with memories (the core, the loader): its block RAMs stay memories (SMT-LIB
    /// arrays, contents free in the first state: every program and register file), its ROMs
    /// become logic holding their contents (`proc -norom`, `memory_map` of memories without
    /// write ports), the state an uninterpreted sort.
    System,
    /// [`Flow::System`], and a memory whose write port is never enabled (the loader's
    /// firmware memory, a `Bram` with `we` tied low) loses the port (`opt_mem`) and becomes
    /// logic holding its contents too: the firmware is part of the design under proof.
    Firmware,
}

impl Flow {
    /// The yosys script, `extra` (the proof's cut points) before `write_smt2`.
    fn script(self, extra: &str) -> String {
        match self {
            Flow::Datapath => format!(
                "read_verilog unit.v; prep -top top -flatten; {extra} \
                 write_smt2 -stbv -wires unit.smt2"
            ),
            Flow::System | Flow::Firmware => format!(
                "read_verilog unit.v; hierarchy -check -top top; proc -norom; flatten; \
                 opt_expr; opt_clean; check; opt -noff -keepdc; wreduce -keepdc; peepopt; \
                 opt_clean; memory_collect; {}opt -noff -keepdc -fast; \
                 memory_map t:$mem_v2 r:WR_PORTS=0 %i; opt_clean; check; {extra} dffunmap; \
                 write_smt2 -wires unit.smt2",
                if self == Flow::Firmware {
                    "opt_mem; "
                } else {
                    ""
                }
            ),
        }
    }
}

/// The unit's SMT-LIB2 model from yosys (see [`Flow`]). Cached by content under the work root.
fn unit_smt2(verilog: &str, flow: Flow, extra: &str, dir: &Path) -> Result<String> {
    let script = flow.script(extra);
    let mut hasher = DefaultHasher::new();
    verilog.hash(&mut hasher);
    script.hash(&mut hasher);
    let hash = hasher.finish();
    let unit_v = dir.join("unit.v");
    fs::write(&unit_v, verilog).map_err(io(&unit_v))?;
    let cache = work_root().join("smt2-cache");
    let cached = cache.join(format!("{hash:016x}.smt2"));
    if let Ok(text) = fs::read_to_string(&cached) {
        return Ok(text);
    }
    let yosys = toolchain::find(Tool::Yosys)?;
    run_logged(
        yosys.command().current_dir(dir).args(["-q", "-p", &script]),
        &dir.join("yosys.log"),
    )?;
    let out = dir.join("unit.smt2");
    let text = fs::read_to_string(&out).map_err(io(&out))?;
    fs::create_dir_all(&cache).map_err(io(&cache))?;
    // Written beside under a name of its own and renamed: a parallel run (another process or
    // thread) never reads half a file.
    static WRITES: AtomicUsize = AtomicUsize::new(0);
    let partial = cache.join(format!(
        "{hash:016x}.{}.{}.partial",
        std::process::id(),
        WRITES.fetch_add(1, Ordering::Relaxed)
    ));
    fs::write(&partial, &text).map_err(io(&partial))?;
    fs::rename(&partial, &cached).map_err(io(&cached))?;
    Ok(text)
}

/// The whole query: the unit, the contract, `depth` clock edges from state `s0` to
/// `s{depth}` (registers start anywhere: every reachable and unreachable state), the proof.
fn compose(proof: &Proof, unit: &str) -> Result<String> {
    let mut q = String::from("(set-logic ALL)\n");
    q += unit;
    q += &crate::encodings::prelude();
    q += CONTRACT;
    if proof.unit == crate::units::Unit::Loader {
        q += &crate::loader::prelude()?;
    }
    let _ = writeln!(q, "; ---- {} clock edges", proof.depth);
    for i in 0..=proof.depth {
        let _ = writeln!(q, "(declare-const s{i} |top_s|)\n(assert (|top_h| s{i}))");
    }
    for i in 0..proof.depth {
        let _ = writeln!(q, "(assert (|top_t| s{i} s{}))", i + 1);
    }
    if proof.from_reset {
        q += "(assert (|top_i| s0))\n";
    }
    let _ = writeln!(q, "; ---- {}: {}", proof.name, proof.claim);
    for part in proof.query {
        q += part;
    }
    // The per-edge part comes after the query, whose definitions it uses, and the proof is
    // then that every edge's check holds.
    if !proof.steps.is_empty() {
        for i in 0..proof.depth {
            q += &proof
                .steps
                .replace("{i}", &i.to_string())
                .replace("{j}", &(i + 1).to_string())
                .replace(
                    "{last}",
                    if i + 1 == proof.depth {
                        "true"
                    } else {
                        "false"
                    },
                );
        }
        let all: Vec<String> = (1..=proof.depth).map(|j| format!("ok{j}")).collect();
        let _ = writeln!(q, "(assert (not (and true {})))", all.join(" "));
    }
    Ok(q)
}

/// Decides a query written without a unit: `text` after the encodings and the contract (the
/// tests check the contract's definitions on known values this way). Work files go to
/// `<work root>/name`.
pub fn decide(name: &'static str, text: &str, show: &[&str]) -> Result<Verdict> {
    let dir = work_root().join(name);
    fs::create_dir_all(&dir).map_err(io(&dir))?;
    let query = format!(
        "(set-logic ALL)\n{}{CONTRACT}{text}",
        crate::encodings::prelude()
    );
    let path = dir.join("query.smt2");
    fs::write(&path, query).map_err(io(&path))?;
    solve(name, show, None, &dir)
}

/// Runs the solver on the work directory's `query.smt2`.
fn solve(
    name: &'static str,
    show: &[&str],
    time_limit: Option<u32>,
    dir: &Path,
) -> Result<Verdict> {
    let python = toolchain::find(Tool::Bitwuzla)?;
    let driver = dir.join("bitwuzla_check.py");
    fs::write(&driver, DRIVER).map_err(io(&driver))?;
    let log = dir.join("solver.log");
    let mut cmd: Command = python.command();
    cmd.current_dir(dir)
        .arg("bitwuzla_check.py")
        .arg("query.smt2");
    if let Some(seconds) = time_limit {
        cmd.arg("--time-limit").arg(seconds.to_string());
    }
    cmd.args(show);
    let out = run_logged(&mut cmd, &log)?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut lines = text.lines();
    match lines.next() {
        Some("unsat") => Ok(Verdict::Proven),
        Some("sat") => Ok(Verdict::Refuted(
            lines
                .filter_map(|l| l.split_once(" = "))
                .map(|(t, v)| (t.to_string(), v.to_string()))
                .collect(),
        )),
        Some("unknown") => Err(FormalError::Unknown(name)),
        _ => Err(FormalError::SolverOutput {
            proof: name,
            log,
            output: text,
        }),
    }
}

//! What a run of vectors reports: pass counts and worst errors per opcode, failures, coverage.

use super::Class;
use microcode::tgsi::Opcode;
use std::fmt::{self, Display, Write as _};

/// How far a result was from its expectation (only the measures that apply are set).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Deviation {
    /// Distance in units in the last place, for [`Check::Ulp`](super::Check::Ulp) components.
    pub ulp: Option<u64>,
    /// Absolute error, for [`Check::Abs`](super::Check::Abs) components.
    pub abs: Option<f64>,
    /// Error relative to the expected magnitude, for [`Check::Rel`](super::Check::Rel)
    /// components.
    pub rel: Option<f64>,
}

/// One vector that did not pass.
#[derive(Clone, Debug, PartialEq)]
pub struct VectorFailure {
    /// The vector's opcode.
    pub opcode: Opcode,
    /// The vector's class of values.
    pub class: Class,
    /// What the vector shows (`Vector::note`).
    pub note: &'static str,
    /// Every mismatch (lane, component, values) or the engine's error.
    pub detail: String,
}

impl Display for VectorFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} [{}] {}: {}",
            self.opcode, self.class, self.note, self.detail
        )
    }
}

/// The results of one opcode's vectors.
#[derive(Clone, Debug, PartialEq)]
pub struct OpcodeResult {
    /// The opcode.
    pub opcode: Opcode,
    /// Vectors run.
    pub vectors: usize,
    /// Vectors whose every checked component passed.
    pub passed: usize,
    /// Worst deviations seen over all checked components (passing or not).
    pub worst: Deviation,
    /// The vectors that did not pass, in run order.
    pub failures: Vec<VectorFailure>,
}

/// The results of a whole run of vectors on one engine.
#[derive(Clone, Debug, PartialEq)]
pub struct VectorReport {
    /// Per opcode, in table order.
    pub opcodes: Vec<OpcodeResult>,
    /// Supported opcodes lacking a vector of an applicable class.
    pub missing: Vec<(Opcode, Vec<Class>)>,
    /// Opcodes covered by other tests, with the reason.
    pub exempt: Vec<(Opcode, &'static str)>,
}

impl VectorReport {
    /// True when every vector passed and no opcode lacks a required class.
    pub fn all_passed(&self) -> bool {
        self.missing.is_empty() && self.opcodes.iter().all(|o| o.failures.is_empty())
    }

    /// Every failure, in table order.
    pub fn failures(&self) -> impl Iterator<Item = &VectorFailure> {
        self.opcodes.iter().flat_map(|o| o.failures.iter())
    }

    /// A readable table: one row per opcode with pass counts and worst errors, then the exempt and
    /// missing opcodes and every failure.
    pub fn to_table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{:<15} {:>7} {:>8} {:>9} {:>10} {:>10}",
            "opcode", "vectors", "passed", "worst ULP", "worst abs", "worst rel"
        );
        for o in &self.opcodes {
            let opt = |v: Option<f64>| v.map(|x| format!("{x:.3e}")).unwrap_or_else(|| "-".into());
            let ulp = o
                .worst
                .ulp
                .map(|u| u.to_string())
                .unwrap_or_else(|| "-".into());
            let _ = writeln!(
                s,
                "{:<15} {:>7} {:>8} {:>9} {:>10} {:>10}{}",
                o.opcode.mnemonic(),
                o.vectors,
                o.passed,
                ulp,
                opt(o.worst.abs),
                opt(o.worst.rel),
                if o.failures.is_empty() { "" } else { "  FAIL" }
            );
        }
        for (op, why) in &self.exempt {
            let _ = writeln!(s, "{:<15} exempt: {why}", op.mnemonic());
        }
        for (op, classes) in &self.missing {
            let list: Vec<String> = classes.iter().map(|c| c.to_string()).collect();
            let _ = writeln!(
                s,
                "{:<15} MISSING vectors: {}",
                op.mnemonic(),
                list.join(", ")
            );
        }
        for fail in self.failures() {
            let _ = writeln!(s, "FAIL {fail}");
        }
        s
    }
}

pub(super) fn worst(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    a.max(b)
}

pub(super) fn worst_f(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

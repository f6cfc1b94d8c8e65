//! What can go wrong running a proof (other than the proof failing, which is a
//! [`crate::Verdict`]).
use std::path::PathBuf;

/// Why a proof could not be decided.
#[derive(Debug, thiserror::Error)]
pub enum FormalError {
    /// No proof of that name (or prefix).
    #[error("no proof named `{0}` (`cargo xtask formal --list` lists them)")]
    UnknownProof(String),
    /// A tool (yosys, the solver) is missing or failed.
    #[error(transparent)]
    Tool(#[from] toolchain::ToolError),
    /// A work file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A planted bug no longer matches the Verilog exactly once (the unit changed: the
    /// mutation must be updated, or the mutation check would test nothing).
    #[error("the planted bug of `{proof}` matches the emitted Verilog {count} times, not once: `{find}`")]
    StaleMutation {
        /// The proof.
        proof: &'static str,
        /// The text it replaces.
        find: &'static str,
        /// How often that text occurs.
        count: usize,
    },
    /// The solver printed something other than a verdict.
    #[error("the solver's answer for `{proof}` is not sat/unsat ({log}): {output}", log = log.display())]
    SolverOutput {
        /// The proof.
        proof: &'static str,
        /// The solver's log.
        log: PathBuf,
        /// What it printed.
        output: String,
    },
    /// The solver gave up (`unknown`), e.g. when the time limit ran out.
    #[error("undecided: the solver answered `unknown` for `{0}` (time limit reached?)")]
    Unknown(&'static str),
    /// The loader's firmware no longer has the shape the loader proofs read their addresses
    /// from (`formal/src/loader.rs`).
    #[error("the loader firmware: {0}")]
    Firmware(String),
}

/// `Result` of this crate.
pub type Result<T> = std::result::Result<T, FormalError>;

/// The error of an I/O operation on `path`.
pub fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> FormalError {
    let path = path.into();
    move |source| FormalError::Io { path, source }
}

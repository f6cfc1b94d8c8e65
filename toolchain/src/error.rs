//! Errors of tool lookup and tool runs.

use std::io;
use std::path::PathBuf;
use std::process::ExitStatus;

use crate::tool::Tool;

/// Why a tool could not be found or did not run successfully.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// No copy of the tool was found in any of the places searched.
    #[error("{tool} not found (searched: {}).\n{hint}", searched.join("; "))]
    NotFound {
        /// The tool that was looked up.
        tool: Tool,
        /// Every place looked at, in order.
        searched: Vec<String>,
        /// How to get the tool.
        hint: String,
    },
    /// A `TGSI_*` variable names a program that does not exist.
    #[error("{var}={} does not name a program: {reason}", value.display())]
    BadEnvVar {
        /// The variable, e.g. `TGSI_YOSYS`.
        var: &'static str,
        /// Its value.
        value: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// The program could not be started at all.
    #[error("could not start {tool} ({}): {source}", program.display())]
    Spawn {
        /// The tool's name (the program's file name).
        tool: String,
        /// The program that was started.
        program: PathBuf,
        /// The operating system's error.
        #[source]
        source: io::Error,
    },
    /// The log file could not be written.
    #[error("could not write the log file {}: {source}", path.display())]
    Log {
        /// The log file.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: io::Error,
    },
    /// The tool ran and reported failure.
    #[error("{tool} failed ({status}); full log: {}\n--- last lines of the log ---\n{tail}", log.display())]
    Failed {
        /// The tool's name (the program's file name).
        tool: String,
        /// Its exit status.
        status: ExitStatus,
        /// The log file holding its whole output.
        log: PathBuf,
        /// The last lines of its output.
        tail: String,
    },
}

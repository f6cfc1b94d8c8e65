//! The tools this crate knows about and their names in each place they can come from.

use std::fmt;

/// One program of the FPGA toolchain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tool {
    /// Yosys, the synthesis tool.
    Yosys,
    /// nextpnr for the iCE40 family (place and route).
    NextpnrIce40,
    /// icepack, which turns nextpnr's ASCII bitstream into a binary one.
    Icepack,
    /// nextpnr for the ECP5 family (place and route).
    NextpnrEcp5,
    /// ecppack, which turns nextpnr-ecp5's textual configuration into an ECP5 bitstream.
    Ecppack,
    /// Verilator, the Verilog linter and simulator compiler.
    Verilator,
    /// iceprog, which writes a bitstream to the board's flash (native only).
    Iceprog,
    /// The Bitwuzla SMT solver of the formal proofs (`formal/`), run through its Python module:
    /// the program is a Python 3 interpreter that can `import bitwuzla` (the PyPI wheel has no
    /// command-line solver).
    Bitwuzla,
}

impl Tool {
    /// Every tool, in the order the toolchain is usually run.
    pub const ALL: [Tool; 8] = [
        Tool::Yosys,
        Tool::NextpnrIce40,
        Tool::Icepack,
        Tool::NextpnrEcp5,
        Tool::Ecppack,
        Tool::Verilator,
        Tool::Iceprog,
        Tool::Bitwuzla,
    ];

    /// The tools the pinned venv provides (everything but iceprog).
    pub const PINNED: [Tool; 7] = [
        Tool::Yosys,
        Tool::NextpnrIce40,
        Tool::Icepack,
        Tool::NextpnrEcp5,
        Tool::Ecppack,
        Tool::Verilator,
        Tool::Bitwuzla,
    ];

    /// The tool's usual program name (as installed natively, e.g. by Debian packages).
    pub fn name(self) -> &'static str {
        match self {
            Tool::Yosys => "yosys",
            Tool::NextpnrIce40 => "nextpnr-ice40",
            Tool::Icepack => "icepack",
            Tool::NextpnrEcp5 => "nextpnr-ecp5",
            Tool::Ecppack => "ecppack",
            Tool::Verilator => "verilator",
            Tool::Iceprog => "iceprog",
            Tool::Bitwuzla => "bitwuzla",
        }
    }

    /// The environment variable that names this tool's program explicitly.
    pub fn env_var(self) -> &'static str {
        match self {
            Tool::Yosys => "TGSI_YOSYS",
            Tool::NextpnrIce40 => "TGSI_NEXTPNR_ICE40",
            Tool::Icepack => "TGSI_ICEPACK",
            Tool::NextpnrEcp5 => "TGSI_NEXTPNR_ECP5",
            Tool::Ecppack => "TGSI_ECPPACK",
            Tool::Verilator => "TGSI_VERILATOR",
            Tool::Iceprog => "TGSI_ICEPROG",
            Tool::Bitwuzla => "TGSI_BITWUZLA_PYTHON",
        }
    }

    /// The Debian package that provides the native tool (Bitwuzla's Python module is not
    /// packaged: its entry names the PyPI package instead).
    pub fn debian_package(self) -> &'static str {
        match self {
            Tool::Yosys => "yosys",
            Tool::NextpnrIce40 => "nextpnr-ice40",
            Tool::Icepack | Tool::Iceprog => "fpga-icestorm",
            Tool::NextpnrEcp5 => "nextpnr-ecp5",
            Tool::Ecppack => "prjtrellis",
            Tool::Verilator => "verilator",
            Tool::Bitwuzla => "(none: pip install bitwuzla)",
        }
    }

    /// The program looked up on `PATH` for a native tool: the tool's name, except for
    /// Bitwuzla, which runs as a Python 3 with the `bitwuzla` module.
    pub fn native_program(self) -> &'static str {
        match self {
            Tool::Bitwuzla => "python3",
            other => other.name(),
        }
    }
}

impl fmt::Display for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

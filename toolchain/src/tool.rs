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
}

impl Tool {
    /// Every tool, in the order the toolchain is usually run.
    pub const ALL: [Tool; 7] = [
        Tool::Yosys,
        Tool::NextpnrIce40,
        Tool::Icepack,
        Tool::NextpnrEcp5,
        Tool::Ecppack,
        Tool::Verilator,
        Tool::Iceprog,
    ];

    /// The tools the pinned venv provides (everything but iceprog).
    pub const PINNED: [Tool; 6] = [
        Tool::Yosys,
        Tool::NextpnrIce40,
        Tool::Icepack,
        Tool::NextpnrEcp5,
        Tool::Ecppack,
        Tool::Verilator,
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
        }
    }

    /// The Debian package that provides the native tool.
    pub fn debian_package(self) -> &'static str {
        match self {
            Tool::Yosys => "yosys",
            Tool::NextpnrIce40 => "nextpnr-ice40",
            Tool::Icepack | Tool::Iceprog => "fpga-icestorm",
            Tool::NextpnrEcp5 => "nextpnr-ecp5",
            Tool::Ecppack => "prjtrellis",
            Tool::Verilator => "verilator",
        }
    }
}

impl fmt::Display for Tool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

//! The hardware under proof: each unit's Verilog exactly as rust-hdl emits it from the blocks in
//! `hdl` (the Verilog that synthesis and Verilator read), with `top` as its module name.
use microcode::core::config::{CoreConfig, Features};
use rust_hdl::prelude::*;

/// A block of `hdl` that proofs are about.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// `hdl::fadd::FAdd`: the adder and its conversions.
    FAdd,
    /// `hdl::fmul::FMul`: the multiplier.
    FMul,
    /// `hdl::fcmp::FCmp`: compares and the min/max/select pick.
    FCmp,
    /// `hdl::misc_unit::MiscUnit` of a build with the integer ALU (the core's short path:
    /// moves, compares, selects, `EXPN`, `MANT`, `ISGN`/`USGN`, the integer ALU).
    MiscUnit,
    /// `hdl::shader_core::ShaderCore` of the board build (`CoreConfig::default()`).
    ShaderCore,
}

impl Unit {
    /// Every unit.
    pub const ALL: [Unit; 5] = [
        Unit::FAdd,
        Unit::FMul,
        Unit::FCmp,
        Unit::MiscUnit,
        Unit::ShaderCore,
    ];

    /// The block's name as the reports print it.
    pub fn name(self) -> &'static str {
        match self {
            Unit::FAdd => "FAdd",
            Unit::FMul => "FMul",
            Unit::FCmp => "FCmp",
            Unit::MiscUnit => "MiscUnit",
            Unit::ShaderCore => "ShaderCore",
        }
    }

    /// The Verilog rust-hdl emits for the block (top module `top`).
    pub fn verilog(self) -> String {
        match self {
            Unit::FAdd => emit(hdl::fadd::FAdd::default()),
            Unit::FMul => emit(hdl::fmul::FMul::default()),
            Unit::FCmp => emit(hdl::fcmp::FCmp::default()),
            Unit::MiscUnit => emit(hdl::misc_unit::MiscUnit::new(&misc_config())),
            Unit::ShaderCore => emit(hdl::shader_core::ShaderCore::new(&CoreConfig::default())),
        }
    }
}

/// The misc unit's build for its proof: the board's configuration with the integer ALU and
/// without the transcendental and texture steps (whose results the proof does not select;
/// synthesis and yosys' `prep` remove them).
pub fn misc_config() -> CoreConfig {
    CoreConfig {
        features: Features::INTEGER,
        ..CoreConfig::default()
    }
}

fn emit<B: Block>(mut block: B) -> String {
    block.connect_all();
    generate_verilog(&block)
}

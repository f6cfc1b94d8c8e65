//! The board design goes through the whole open flow once (pinned seed): it fits the HX8K with
//! room to spare (at most 7,300 of the 7,680 logic cells, 95%), meets the Fmax floor (the 50 MHz
//! the PLL clocks it at), and every block is still in the netlist with a plausible size.
//!
//! The build is what `tgsi-core synth` makes by default (`CoreConfig::default`): the core with
//! every unit (transcendental steps, address stack, texture unit with 256 texels, integer ALU;
//! the divider's operations are sequences), the on-chip loader and the UART.

use std::path::PathBuf;
use std::process::Command;

#[test]
fn board_design_fits_meets_timing_and_keeps_its_blocks() {
    // yowasp tools only see paths below the current directory: keep the output in the workspace.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = root.join("target").join("synth-test");
    let _ = std::fs::remove_dir_all(&out);
    let run = Command::new(env!("CARGO_BIN_EXE_tgsi-core"))
        .current_dir(&root)
        .args(["synth", "--out", "target/synth-test", "--seed", "1"])
        .output()
        .expect("tgsi-core runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        run.status.success(),
        "synth failed (the FPGA tools come from `cargo xtask setup`):\n{stdout}\n{stderr}"
    );
    let value = |key: &str| -> u64 {
        let line = stdout
            .lines()
            .find(|l| l.trim_start().starts_with(key))
            .unwrap_or_else(|| panic!("no `{key}` line in:\n{stdout}"));
        line.split_whitespace()
            .find_map(|w| w.parse::<u64>().ok())
            .unwrap_or_else(|| panic!("no number in `{line}`"))
    };
    let cells = value("logic cells");
    assert!(cells > 1_000 && cells <= 7_300, "{cells} logic cells");
    let units = stdout
        .lines()
        .find(|l| l.starts_with("units"))
        .unwrap_or_else(|| panic!("no units line in:\n{stdout}"));
    for (bit, name) in microcode::core::config::Features::UNITS {
        if bit != microcode::core::config::Features::DIVIDER {
            assert!(
                units.contains(name),
                "the default build lacks the {name}: {units}"
            );
        }
    }
    assert!(value("block RAMs") <= 32);
    assert_eq!(value("PLLs"), 1, "the PLL makes the core clock");
    // Each block synthesised alone keeps a plausible size: nothing was optimised away.
    let blocks = synth::board_blocks(microcode::core::CoreConfig::default().features);
    for unit in ["core$misc$tex", "core$misc$trans"] {
        assert!(
            blocks.iter().any(|b| b.0 == unit),
            "the default build has {unit}"
        );
    }
    for (block, least) in blocks {
        let n = value(block);
        assert!(n >= least, "{block}: {n} cells, expected at least {least}");
    }
    let fmax: f64 = stdout
        .lines()
        .find(|l| l.starts_with("Fmax"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no Fmax in:\n{stdout}"));
    assert!(fmax >= 50.0, "Fmax {fmax} MHz");
    let bin = std::fs::metadata(out.join("top.bin")).expect("bitstream written");
    assert!(bin.len() > 100_000, "bitstream of {} bytes", bin.len());
    for log in ["yosys.log", "nextpnr.log", "icepack.log", "report.json"] {
        assert!(out.join(log).exists(), "{log} kept");
    }
}

//! Bitstreams for the boards (`microcode::board::Board`) with the open toolchain: rust-hdl emits
//! the Verilog, yosys maps it (`synth_ice40` for the Alchitry Cu's HX8K, `synth_ecp5` for the
//! ULX3S's ECP5), nextpnr places and routes it at a target frequency, icepack or ecppack writes
//! the bitstream. Every tool's exit status is checked and its log kept.

#![warn(missing_docs)]

pub mod flow;
pub mod report;

pub use flow::{synthesise, Options, Outcome, SynthError};
pub use report::Report;

use microcode::core::CoreConfig;

/// The clock the board's logic runs at in the bitstream (Hz): the PLL's output from the
/// Alchitry Cu's 100 MHz oscillator ([`hdl::board_chip`]).
pub const BOARD_CLOCK_HZ: u32 = hdl::board_chip::CORE_CLOCK_HZ as u32;

/// Instance of the board top inside the chip: the prefix of every [`BOARD_BLOCKS`] path in the
/// netlist synthesis reads.
pub const BOARD_INSTANCE: &str = "board";

/// The serial line rate of the board build (the loader's rate is fixed per build).
pub const BOARD_BAUD: u32 = 115_200;

/// The blocks of the board top that synthesis must keep (rust-hdl instance paths below the
/// board top, [`BOARD_INSTANCE`] in the chip),
/// with the least yosys cells each must still have when synthesised alone.
pub const BOARD_BLOCKS: [(&str, u64); 10] = [
    ("core$fmad$mul", 1_000),
    ("core$fmad$add", 500),
    ("core$misc", 800),
    ("core$misc$trans", 150),
    ("core$misc$tex", 150),
    ("core$seq", 400),
    ("loader", 500),
    ("loader$frame_rx", 50),
    ("uart_rx", 50),
    ("uart_tx", 40),
];

/// The blocks of the multi-core board top (the ECP5 boards, `hdl::multi_board_top`) that
/// synthesis costs, as [`BOARD_BLOCKS`]: the first core's (the others are the same module),
/// the loader, the core mux and the RENDER dispatcher.
pub const MULTI_BOARD_BLOCKS: [(&str, u64); 12] = [
    ("cores$0$fmad$mul", 200),
    ("cores$0$fmad$add", 500),
    ("cores$0$misc", 800),
    ("cores$0$misc$trans", 150),
    ("cores$0$misc$tex", 150),
    ("cores$0$seq", 400),
    ("loader", 500),
    ("loader$frame_rx", 50),
    ("mux", 50),
    ("dispatch", 100),
    ("uart_rx", 50),
    ("uart_tx", 40),
];

/// The blocks of the board top of `family` (the iCE40's one-core [`BOARD_BLOCKS`], the ECP5's
/// [`MULTI_BOARD_BLOCKS`]) a build with `features` has.
pub fn board_blocks_for(
    family: microcode::board::Family,
    features: u32,
) -> Vec<(&'static str, u64)> {
    use microcode::board::Family;
    match family {
        Family::Ice40 => board_blocks(features),
        Family::Ecp5 => with_features(&MULTI_BOARD_BLOCKS, features),
    }
}

/// The [`BOARD_BLOCKS`] a build with `features` (`CoreConfig::features`) has: the
/// transcendental steps and the texture unit only when their feature is on.
pub fn board_blocks(features: u32) -> Vec<(&'static str, u64)> {
    with_features(&BOARD_BLOCKS, features)
}

fn with_features(blocks: &[(&'static str, u64)], features: u32) -> Vec<(&'static str, u64)> {
    use microcode::core::config::Features;
    blocks
        .iter()
        .copied()
        .filter(|(name, _)| {
            let need = if name.ends_with("misc$trans") {
                Features::TRANSCENDENTAL
            } else if name.ends_with("misc$tex") {
                Features::TEXTURE
            } else {
                0
            };
            features & need == need
        })
        .collect()
}

/// Verilog of `board`'s chip with `cores` shader cores and its UART at `baud`, and its pin
/// constraints (PCF for the iCE40, LPF for the ECP5), written from the pads the chip's ports
/// carry. The Alchitry Cu's core is `core` (its board build is `CoreConfig::default`, the
/// `--no-*` options of `synth` leave units out); a ULX3S's is `core` too (its board build,
/// `Board::core_config`).
pub fn board_design(
    board: microcode::board::Board,
    core: &CoreConfig,
    cores: u16,
    baud: u32,
) -> Result<(String, String), String> {
    use microcode::board::Family;
    if cores == 0 || cores > board.max_cores() {
        return Err(format!(
            "{board} builds 1 to {} shader cores, not {cores}",
            board.max_cores()
        ));
    }
    match board.family() {
        Family::Ice40 => board_files(core, baud),
        Family::Ecp5 => {
            hdl::ulx3s_chip::files_for(board, core, cores, baud).map_err(|e| e.to_string())
        }
    }
}

/// Verilog of the chip (`hdl::board_chip`: the PLL, and the board top with a core for `core`,
/// the loader and the UART at `baud`, normally [`BOARD_BAUD`], at [`BOARD_CLOCK_HZ`]) and its pin
/// constraints (PCF), written from the pads the chip's ports carry.
pub fn board_files(core: &CoreConfig, baud: u32) -> Result<(String, String), String> {
    hdl::board_chip::files(core, baud).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use microcode::core::config::Features;

    #[test]
    fn blocks_follow_the_features() {
        let all = CoreConfig::default().features;
        assert_eq!(board_blocks(all).len(), BOARD_BLOCKS.len());
        let small = all & !Features::TEXTURE;
        let names: Vec<&str> = board_blocks(small).iter().map(|b| b.0).collect();
        assert!(!names.contains(&"core$misc$tex"));
        assert!(names.contains(&"core$misc$trans") && names.contains(&"loader"));
        // The ECP5's multi-core top: the first core's blocks, the mux and the dispatcher.
        use microcode::board::Family;
        assert_eq!(board_blocks_for(Family::Ice40, all), board_blocks(all));
        let ecp5 = board_blocks_for(Family::Ecp5, all);
        assert_eq!(ecp5.len(), MULTI_BOARD_BLOCKS.len());
        let names: Vec<&str> = board_blocks_for(Family::Ecp5, small)
            .iter()
            .map(|b| b.0)
            .collect();
        assert!(!names.contains(&"cores$0$misc$tex"));
        assert!(names.contains(&"cores$0$misc$trans") && names.contains(&"dispatch"));
    }

    /// The pins the constraints put the chip's ports on are the Alchitry Cu's documented pads
    /// (its schematic and the board support crate), and `constraints/alchitry_cu.pcf` is exactly
    /// what the design writes.
    #[test]
    fn the_pcf_comes_from_the_design_and_matches_the_board() {
        let (_, pcf) = board_files(&CoreConfig::default(), BOARD_BAUD).expect("the board builds");
        let mut pins: Vec<(String, String)> = pcf
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                assert_eq!(w.len(), 3, "{l}");
                assert_eq!(w[0], "set_io", "{l}");
                (w[1].to_string(), w[2].to_string())
            })
            .collect();
        pins.sort();
        let mut want: Vec<(String, String)> = [
            ("clock", "P7"),
            ("reset_n", "P8"),
            ("rx", "P14"),
            ("tx", "M9"),
            ("leds[0]", "J11"),
            ("leds[1]", "K11"),
            ("leds[2]", "K12"),
            ("leds[3]", "K14"),
            ("leds[4]", "L12"),
            ("leds[5]", "L14"),
            ("leds[6]", "M12"),
            ("leds[7]", "N14"),
        ]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        want.sort();
        assert_eq!(pins, want);
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../constraints/alchitry_cu.pcf"
        );
        let file = std::fs::read_to_string(path).expect("constraints/alchitry_cu.pcf");
        assert_eq!(
            file, pcf,
            "constraints/alchitry_cu.pcf is not what the design writes"
        );
    }

    /// The ULX3S's LPF puts the chip's ports on the board's documented pads (its v2.0
    /// constraints file: `clk_25mhz` G2, `btn[0]` D6 with a pull-up, the FT231X's `ftdi_txd` M1
    /// and `ftdi_rxd` L4, `led[0..7]`), LVCMOS33 each, and `constraints/ulx3s.lpf` is exactly what
    /// the design writes (the same for every ULX3S: the pins do not depend on the FPGA's size).
    #[test]
    fn the_lpf_comes_from_the_design_and_matches_the_ulx3s() {
        use microcode::board::Board;
        let core = Board::Ulx3s85f.core_config();
        let (verilog, lpf) =
            board_design(Board::Ulx3s85f, &core, 1, BOARD_BAUD).expect("the ULX3S builds");
        assert!(verilog.contains("EHXPLLL"), "the ECP5 PLL makes the clock");
        let mut sites: Vec<(String, String)> = lpf
            .lines()
            .filter_map(|l| l.strip_prefix("LOCATE COMP \""))
            .map(|l| {
                let (port, rest) = l.split_once('"').expect(l);
                let site = rest
                    .trim()
                    .trim_start_matches("SITE \"")
                    .trim_end_matches("\";");
                (port.to_string(), site.to_string())
            })
            .collect();
        sites.sort();
        let mut want: Vec<(String, String)> = [
            ("clk_25mhz", "G2"),
            ("btn_pwr_n", "D6"),
            ("ftdi_txd", "M1"),
            ("ftdi_rxd", "L4"),
            ("led[0]", "B2"),
            ("led[1]", "C2"),
            ("led[2]", "C1"),
            ("led[3]", "D2"),
            ("led[4]", "D1"),
            ("led[5]", "E2"),
            ("led[6]", "E1"),
            ("led[7]", "H3"),
        ]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        want.sort();
        assert_eq!(sites, want);
        for (port, _) in &want {
            assert!(
                lpf.contains(&format!("IOBUF PORT \"{port}\" IO_TYPE=LVCMOS33;")),
                "{port}"
            );
        }
        assert!(lpf.contains("IOBUF PORT \"btn_pwr_n\" PULLMODE=UP;"));
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../constraints/ulx3s.lpf");
        let file = std::fs::read_to_string(path).expect("constraints/ulx3s.lpf");
        assert_eq!(
            file, lpf,
            "constraints/ulx3s.lpf is not what the design writes"
        );
        for board in [Board::Ulx3s45f, Board::Ulx3s25f, Board::Ulx3s12f] {
            let (_, other) = board_design(board, &board.core_config(), 1, BOARD_BAUD).unwrap();
            assert_eq!(other, lpf, "{board}");
        }
    }

    #[test]
    fn core_counts_outside_the_board_are_refused() {
        use microcode::board::Board;
        let core = CoreConfig::default();
        let e = board_design(Board::AlchitryCu, &core, 2, BOARD_BAUD).unwrap_err();
        assert!(e.contains("1 to 1"), "{e}");
        let e = board_design(Board::Ulx3s85f, &core, 0, BOARD_BAUD).unwrap_err();
        assert!(e.contains("not 0"), "{e}");
    }
}

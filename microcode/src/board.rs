//! The boards the project builds for: one table that says, per board, which FPGA it carries,
//! the clocks, the core configuration ([`CoreConfig`]) its build holds and how many cores it
//! gets by default. `tgsi-core synth --board NAME`, `emulate --board NAME`, the host tools
//! (which recognise a board's core by its ISA hash) and the synthesis flow read it; the pads
//! each board's top level puts its ports on live with the hardware (`hdl::board_chip`,
//! `hdl::ulx3s_chip`), the tool flags for each FPGA with the flow (`synth`).

use crate::core::CoreConfig;

/// The FPGA family of a board: which synthesis and place-and-route flow builds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Lattice iCE40 (yosys `synth_ice40`, nextpnr-ice40, icepack).
    Ice40,
    /// Lattice ECP5 (yosys `synth_ecp5`, nextpnr-ecp5, ecppack).
    Ecp5,
}

impl Family {
    /// The family's name as the reports print it.
    pub fn name(self) -> &'static str {
        match self {
            Family::Ice40 => "iCE40",
            Family::Ecp5 => "ECP5",
        }
    }
}

/// What one FPGA offers, as the vendor's data sheet counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resources {
    /// Four-input lookup tables (each paired with a flip-flop).
    pub luts: u32,
    /// Block RAMs (iCE40 `SB_RAM40_4K` of 4 Kbit, ECP5 `DP16KD` of 18 Kbit).
    pub block_rams: u32,
    /// 18x18 multipliers (ECP5 `MULT18X18D`; the iCE40 HX8K has none).
    pub multipliers: u32,
    /// PLLs.
    pub plls: u32,
}

/// A board the project builds a bitstream for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Board {
    /// Alchitry Cu: iCE40 HX8K (CB132), 100 MHz oscillator. The original board.
    AlchitryCu,
    /// ULX3S with the LFE5U-85F (CABGA381), 25 MHz oscillator.
    Ulx3s85f,
    /// ULX3S with the LFE5U-45F.
    Ulx3s45f,
    /// ULX3S with the LFE5U-25F.
    Ulx3s25f,
    /// ULX3S with the LFE5U-12F.
    Ulx3s12f,
}

impl Board {
    /// Every board, the default (the Alchitry Cu) first.
    pub const ALL: [Board; 5] = [
        Board::AlchitryCu,
        Board::Ulx3s85f,
        Board::Ulx3s45f,
        Board::Ulx3s25f,
        Board::Ulx3s12f,
    ];

    /// The board's name on the command line (`--board NAME`).
    pub fn name(self) -> &'static str {
        match self {
            Board::AlchitryCu => "alchitry-cu",
            Board::Ulx3s85f => "ulx3s-85f",
            Board::Ulx3s45f => "ulx3s-45f",
            Board::Ulx3s25f => "ulx3s-25f",
            Board::Ulx3s12f => "ulx3s-12f",
        }
    }

    /// The board named `name` (case-insensitive).
    pub fn from_name(name: &str) -> Option<Board> {
        Board::ALL
            .iter()
            .copied()
            .find(|b| b.name().eq_ignore_ascii_case(name))
    }

    /// The names of every board, comma-separated (for error messages and help texts).
    pub fn names() -> String {
        Board::ALL.map(Board::name).join(", ")
    }

    /// The board's number (what a device's INFO could name it by; stable, never reused).
    pub fn id(self) -> u16 {
        match self {
            Board::AlchitryCu => 1,
            Board::Ulx3s85f => 2,
            Board::Ulx3s45f => 3,
            Board::Ulx3s25f => 4,
            Board::Ulx3s12f => 5,
        }
    }

    /// The board with number `id`.
    pub fn from_id(id: u16) -> Option<Board> {
        Board::ALL.iter().copied().find(|b| b.id() == id)
    }

    /// The FPGA family.
    pub fn family(self) -> Family {
        match self {
            Board::AlchitryCu => Family::Ice40,
            _ => Family::Ecp5,
        }
    }

    /// The FPGA's part name.
    pub fn chip(self) -> &'static str {
        match self {
            Board::AlchitryCu => "iCE40 HX8K-CB132",
            Board::Ulx3s85f => "LFE5U-85F-6BG381C",
            Board::Ulx3s45f => "LFE5U-45F-6BG381C",
            Board::Ulx3s25f => "LFE5U-25F-6BG381C",
            Board::Ulx3s12f => "LFE5U-12F-6BG381C",
        }
    }

    /// What the FPGA offers: the iCE40's logic cells as LUTs; the ECP5's LUTs as nextpnr-ecp5
    /// 0.11 counts them (`TRELLIS_COMB`, carry halves included), but the 12F's as its data
    /// sheet's 12K (nextpnr places the 25F's 24,288 on its die).
    pub fn resources(self) -> Resources {
        match self {
            Board::AlchitryCu => Resources {
                luts: 7_680,
                block_rams: 32,
                multipliers: 0,
                plls: 2,
            },
            Board::Ulx3s85f => Resources {
                luts: 83_640,
                block_rams: 208,
                multipliers: 156,
                plls: 4,
            },
            Board::Ulx3s45f => Resources {
                luts: 43_848,
                block_rams: 108,
                multipliers: 72,
                plls: 4,
            },
            Board::Ulx3s25f => Resources {
                luts: 24_288,
                block_rams: 56,
                multipliers: 28,
                plls: 2,
            },
            Board::Ulx3s12f => Resources {
                luts: 12_000,
                block_rams: 32,
                multipliers: 28,
                plls: 2,
            },
        }
    }

    /// The board's oscillator (Hz).
    pub fn oscillator_hz(self) -> u32 {
        match self {
            Board::AlchitryCu => 100_000_000,
            _ => 25_000_000,
        }
    }

    /// The clock the board's PLL makes for the core, the loader and the UART (Hz): a clock its
    /// build places and routes above (`docs/numbers.md` has the measured Fmax per board).
    pub fn clock_hz(self) -> u32 {
        match self {
            Board::AlchitryCu => 50_000_000,
            // One core places at 49 MHz on the 85F (2026-11-28); 40 MHz is 25 MHz x 8 / 5.
            _ => 40_000_000,
        }
    }

    /// Shader cores a build has unless `--cores` says otherwise: the largest count measured to
    /// fit at [`Board::clock_hz`]: eight on the 85F (60% of its LUT4, 42.0 / 43.7 / 44.6 MHz with
    /// seeds 1 / 2 / 3 for the 40 MHz clock, `docs/numbers.md` "Several cores"); one where no larger build has been placed yet.
    pub fn default_cores(self) -> u16 {
        match self {
            Board::Ulx3s85f => 8,
            _ => 1,
        }
    }

    /// The most cores the board's build can be asked for: one on the Alchitry Cu (the HX8K is
    /// full with one), the cores whose logic and block RAMs the data sheet's counts could hold
    /// on the ECP5 boards (whether they place at the clock is what `synth` measures).
    pub fn max_cores(self) -> u16 {
        match self {
            Board::AlchitryCu => 1,
            Board::Ulx3s85f => 16,
            Board::Ulx3s45f => 8,
            Board::Ulx3s25f => 4,
            Board::Ulx3s12f => 2,
        }
    }

    /// The core configuration the board's build holds: on the Alchitry Cu every unit but the
    /// divider with 256 texels and a 4-frame mask stack ([`CoreConfig::default`], what fits the
    /// HX8K); on the ECP5 boards the largest memories the core's hardware builds today, 512
    /// texels and an 8-frame mask stack ([`CoreConfig::full`]: both fit in the block RAMs and
    /// logic one core takes anyway).
    pub fn core_config(self) -> CoreConfig {
        match self {
            Board::AlchitryCu => CoreConfig::default(),
            _ => CoreConfig::full(),
        }
    }

    /// The board whose core configuration has this ISA hash (the first in [`Board::ALL`]
    /// order: boards of one family share a configuration).
    pub fn from_isa_hash(hash: u32) -> Option<Board> {
        Board::ALL
            .iter()
            .copied()
            .find(|b| b.core_config().isa_hash() == hash)
    }
}

impl std::fmt::Display for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_ids_are_unique_and_round_trip() {
        for (i, a) in Board::ALL.iter().enumerate() {
            assert_eq!(Board::from_name(a.name()), Some(*a));
            assert_eq!(Board::from_name(&a.name().to_uppercase()), Some(*a));
            assert_eq!(Board::from_id(a.id()), Some(*a));
            for b in &Board::ALL[i + 1..] {
                assert_ne!(a.name(), b.name());
                assert_ne!(a.id(), b.id());
            }
        }
        assert_eq!(Board::from_name("ulx3s"), None);
        assert_eq!(Board::from_id(0), None);
        assert_eq!(Board::ALL[0], Board::AlchitryCu);
    }

    #[test]
    fn the_alchitry_cu_keeps_the_build_that_fits_the_hx8k() {
        let b = Board::AlchitryCu;
        assert_eq!(b.core_config(), CoreConfig::default());
        assert_eq!((b.default_cores(), b.max_cores()), (1, 1));
        assert_eq!(b.family(), Family::Ice40);
        assert_eq!(b.clock_hz(), 50_000_000);
    }

    #[test]
    fn every_board_builds_its_default_and_the_pll_can_make_its_clock() {
        for b in Board::ALL {
            assert!(
                b.default_cores() >= 1 && b.default_cores() <= b.max_cores(),
                "{b}"
            );
            assert!(b.clock_hz() <= b.oscillator_hz() * 4, "{b}");
            // The host recognises every board's core by its hash.
            let found = Board::from_isa_hash(b.core_config().isa_hash()).unwrap();
            assert_eq!(found.core_config(), b.core_config());
        }
        // The ECP5 boards hold the larger memories the HX8K cannot.
        let big = Board::Ulx3s85f.core_config();
        assert!(big.texture_texels > CoreConfig::default().texture_texels);
        assert!(big.mask_stack_depth > CoreConfig::default().mask_stack_depth);
    }
}

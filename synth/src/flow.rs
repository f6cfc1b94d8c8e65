//! The flow: Verilog -> yosys -> nextpnr -> bitstream, in one output folder that keeps every
//! input, log and report. The board's FPGA family picks the tools: `synth_ice40`, nextpnr-ice40
//! and icepack (`top.bin`) for the Alchitry Cu, `synth_ecp5`, nextpnr-ecp5 and ecppack
//! (`top.bit`) for the ULX3S.

use crate::report::Report;
use microcode::board::{Board, Family};
use microcode::output::write_atomically;
use std::path::{Path, PathBuf};
use thiserror::Error;
use toolchain::{find, run_logged, Tool, ToolError};

/// What to build and how.
#[derive(Clone, Debug)]
pub struct Options {
    /// Output folder (created); yowasp tools see only paths below the current directory, so every
    /// tool runs inside it with relative paths.
    pub out: PathBuf,
    /// Target clock in MHz for nextpnr's timing-driven placement and the pass/fail check.
    pub freq_mhz: f64,
    /// Placement seed.
    pub seed: u64,
    /// The board: its family picks the tools, its FPGA the device flags and the limits.
    pub board: Board,
    /// Pin constraints ([`hdl::board_chip::BoardChip::pcf`] for the iCE40, written to
    /// `board.pcf`; [`hdl::ulx3s_chip::Ulx3sChip::lpf`] for the ECP5, written to `board.lpf`).
    pub constraints: String,
    /// Blocks (rust-hdl instance paths below `block_root`, e.g. `core$fmad$mul`) to cost one by
    /// one, reported under these names.
    pub blocks: Vec<String>,
    /// Instance path below `top` that the block paths start from (empty: `top` itself).
    pub block_root: String,
}

/// What the flow produced.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// nextpnr's utilisation and achieved clock, read from its `report.json`.
    pub report: Report,
    /// The bitstream to program the board with (`top.bin` for the iCE40, `top.bit` for the
    /// ECP5), in [`Options::out`] beside every tool's log.
    pub bitstream: PathBuf,
    /// Cells per cell type of the whole design after yosys (`stat`).
    pub yosys_cells: Vec<(String, u64)>,
    /// Per block of [`Options::blocks`]: the yosys cells (LUT4 + CARRY + flip-flops) it maps to
    /// when synthesised alone; a block missing from the design is reported with 0.
    pub block_cells: Vec<(String, u64)>,
}

/// Why the flow stopped.
#[derive(Debug, Error)]
pub enum SynthError {
    /// A file or folder of the output folder could not be created, written or read back
    /// (a full disk, missing permissions, an output path that is a file).
    #[error("cannot prepare {path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// A tool is missing, could not start or failed (its exit status and the tail of its log
    /// are in the error; the whole log stays in the output folder).
    #[error(transparent)]
    Tool(#[from] ToolError),
    /// A file of the flow's own (the Verilog, the constraints) could not be written.
    #[error(transparent)]
    Write(#[from] microcode::output::WriteError),
    /// nextpnr succeeded but its `--report` JSON lacks a field the flow reads (a nextpnr
    /// version other than the pinned one).
    #[error("nextpnr report {path}: {message}")]
    Report {
        /// The report file.
        path: PathBuf,
        /// What is missing or malformed in it.
        message: String,
    },
    /// yosys mapped the design to more LUTs than the device has logic cells, or to more block
    /// RAMs (or multipliers) than it has: placement cannot succeed, so the flow stops before
    /// nextpnr (the yosys log and statistics are kept).
    #[error(
        "the design does not fit the {chip}: yosys maps it to {luts} LUT4s, {ffs} flip-flops, \
         {brams} block RAMs and {mults} multipliers; the device has {available} LUT4s (each \
         with a flip-flop), {available_brams} block RAMs and {available_mults} multipliers; see \
         {stat}"
    )]
    DoesNotFit {
        /// The FPGA ([`microcode::board::Board::chip`]: `iCE40 HX8K-CB132`, ...).
        chip: &'static str,
        /// LUT4s yosys mapped the design to (an ECP5 carry cell counts as two).
        luts: u64,
        /// 18x18 multipliers used (always 0 on the iCE40).
        mults: u64,
        /// 18x18 multipliers the device has.
        available_mults: u64,
        /// Flip-flops used; each needs a logic cell too.
        ffs: u64,
        /// Block RAMs used.
        brams: u64,
        /// LUT4s (logic cells) the device has.
        available: u64,
        /// Block RAMs the device has.
        available_brams: u64,
        /// yosys's statistics file, for the per-cell-type breakdown.
        stat: PathBuf,
    },
    /// nextpnr packed the design into more logic cells (or block RAMs) than the device has: a
    /// flip-flop or carry that cannot share a cell with a LUT takes a cell of its own, so a design
    /// under the limit in LUT4s can still be over it in cells.
    #[error(
        "the design does not fit the {chip}: nextpnr packs it into {cells} logic cells of \
         {available} ({percent}%) and {brams} block RAMs of {available_brams}; by block \
         (yosys cells of each alone): {blocks}; see {log}"
    )]
    DoesNotPack {
        /// The FPGA ([`microcode::board::Board::chip`]: `iCE40 HX8K-CB132`, ...).
        chip: &'static str,
        /// Logic cells nextpnr packed the design into.
        cells: u64,
        /// Logic cells the device has.
        available: u64,
        /// `cells` as a whole percentage of `available`.
        percent: u64,
        /// Block RAMs used.
        brams: u64,
        /// Block RAMs the device has.
        available_brams: u64,
        /// Each block of [`Options::blocks`] with its yosys cells alone, to show where the
        /// area went.
        blocks: String,
        /// nextpnr's log.
        log: PathBuf,
    },
}

/// `(used, available)` of nextpnr's utilisation line for `resource` (e.g. `ICESTORM_LC`).
pub fn utilisation(log: &str, resource: &str) -> Option<(u64, u64)> {
    let line = log.lines().find(|l| {
        l.trim_start_matches("Info:")
            .trim_start()
            .starts_with(resource)
    })?;
    let (_, rest) = line.split_once(':').and_then(|(_, r)| r.split_once(':'))?;
    let (used, rest) = rest.split_once('/')?;
    let available = rest.split_whitespace().next()?;
    Some((used.trim().parse().ok()?, available.parse().ok()?))
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> SynthError + '_ {
    move |source| SynthError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// What each family's flow is called with.
struct FamilyFlow {
    /// yosys's synthesis command.
    synth: &'static str,
    /// nextpnr.
    nextpnr: Tool,
    /// The constraints file's name and nextpnr's flag for it.
    constraints: (&'static str, &'static str),
    /// nextpnr's output and its flag, the packer, the bitstream's name.
    routed: (&'static str, &'static str),
    pack: Tool,
    bitstream: &'static str,
    /// nextpnr's names of its logic cells and block RAMs (for a failed placement's counts).
    cells: (&'static str, &'static str),
}

fn family_flow(family: Family) -> FamilyFlow {
    match family {
        Family::Ice40 => FamilyFlow {
            synth: "synth_ice40",
            nextpnr: Tool::NextpnrIce40,
            constraints: ("board.pcf", "--pcf"),
            routed: ("top.asc", "--asc"),
            pack: Tool::Icepack,
            bitstream: "top.bin",
            cells: ("ICESTORM_LC", "ICESTORM_RAM"),
        },
        Family::Ecp5 => FamilyFlow {
            synth: "synth_ecp5",
            nextpnr: Tool::NextpnrEcp5,
            constraints: ("board.lpf", "--lpf"),
            routed: ("top.config", "--textcfg"),
            pack: Tool::Ecppack,
            bitstream: "top.bit",
            cells: ("TRELLIS_COMB", "DP16KD"),
        },
    }
}

/// nextpnr's device flags for the board's FPGA.
pub fn device_args(board: Board) -> [&'static str; 3] {
    let ecp5 = |size| [size, "--package", "CABGA381"];
    match board {
        Board::AlchitryCu => ["--hx8k", "--package", "cb132"],
        Board::Ulx3s85f => ecp5("--85k"),
        Board::Ulx3s45f => ecp5("--45k"),
        Board::Ulx3s25f => ecp5("--25k"),
        Board::Ulx3s12f => ecp5("--12k"),
    }
}

/// The yosys cell counts against the board's FPGA: `Err` when placement cannot succeed.
fn check_fit(board: Board, counts: &[(String, u64)], stat: PathBuf) -> Result<(), SynthError> {
    let count = |f: &dyn Fn(&str) -> bool| -> u64 {
        counts.iter().filter(|(n, _)| f(n)).map(|(_, c)| c).sum()
    };
    let (luts, ffs, brams, mults) = match board.family() {
        Family::Ice40 => (
            count(&|n| n == "SB_LUT4"),
            count(&|n| n.starts_with("SB_DFF")),
            count(&|n| n.starts_with("SB_RAM40")),
            0,
        ),
        // A CCU2C is two LUT4s of a slice, as nextpnr's TRELLIS_COMB counts them.
        Family::Ecp5 => (
            count(&|n| n == "LUT4") + 2 * count(&|n| n == "CCU2C"),
            count(&|n| n == "TRELLIS_FF"),
            count(&|n| n == "DP16KD"),
            count(&|n| n == "MULT18X18D"),
        ),
    };
    let r = board.resources();
    let (lut_limit, bram_limit, mult_limit) = (
        u64::from(r.luts),
        u64::from(r.block_rams),
        u64::from(r.multipliers),
    );
    if luts > lut_limit || ffs > lut_limit || brams > bram_limit || mults > mult_limit {
        return Err(SynthError::DoesNotFit {
            chip: board.chip(),
            luts,
            ffs,
            brams,
            mults,
            available: lut_limit,
            available_brams: bram_limit,
            available_mults: mult_limit,
            stat,
        });
    }
    Ok(())
}

/// Runs the whole flow on `verilog` (a module named `top`). `progress` receives one line per stage.
pub fn synthesise(
    verilog: &str,
    opts: &Options,
    progress: &mut dyn FnMut(&str),
) -> Result<Outcome, SynthError> {
    let flow = family_flow(opts.board.family());
    // An existing file, FIFO or device named as the output folder is refused, never replaced.
    if std::fs::metadata(&opts.out).is_ok_and(|m| !m.is_dir()) {
        let source = std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a directory");
        return Err(io(&opts.out)(source));
    }
    std::fs::create_dir_all(&opts.out).map_err(io(&opts.out))?;
    write_atomically(&opts.out.join("top.v"), verilog.as_bytes())?;
    write_atomically(
        &opts.out.join(flow.constraints.0),
        opts.constraints.as_bytes(),
    )?;

    progress(&format!("yosys: {} (this takes a while)", flow.synth));
    let mut yosys = find(Tool::Yosys)?.command();
    yosys.current_dir(&opts.out).args([
        "-p",
        &format!(
            "read_verilog top.v; {} -top top -json top.json; tee -o yosys-stat.txt stat",
            flow.synth
        ),
    ]);
    run_logged(&mut yosys, &opts.out.join("yosys.log"))?;
    let stat = std::fs::read_to_string(opts.out.join("yosys-stat.txt")).unwrap_or_default();
    check_fit(
        opts.board,
        &cell_counts(&stat),
        opts.out.join("yosys-stat.txt"),
    )?;
    let block_cells = block_costs(opts, flow.synth, progress)?;

    progress(&format!(
        "{}: place and route for the {} at {} MHz, seed {}",
        flow.nextpnr,
        opts.board.chip(),
        opts.freq_mhz,
        opts.seed
    ));
    let mut pnr = find(flow.nextpnr)?.command();
    pnr.current_dir(&opts.out)
        .args(device_args(opts.board))
        .args([flow.constraints.1, flow.constraints.0])
        .args(["--json", "top.json", flow.routed.1, flow.routed.0])
        .args([
            "--report",
            "report.json",
            "--freq",
            &opts.freq_mhz.to_string(),
            "--seed",
            &opts.seed.to_string(),
            // A missed target is judged by the caller against its floor, with the report in hand.
            "--timing-allow-fail",
        ]);
    let pnr_log = opts.out.join("nextpnr.log");
    if let Err(e) = run_logged(&mut pnr, &pnr_log) {
        let text = std::fs::read_to_string(&pnr_log).unwrap_or_default();
        let (cells, available) = utilisation(&text, flow.cells.0).unwrap_or((0, 1));
        let (rams, available_rams) = utilisation(&text, flow.cells.1).unwrap_or((0, 1));
        if cells > available || rams > available_rams {
            let blocks = block_cells
                .iter()
                .map(|(b, n)| format!("{b} {n}"))
                .collect::<Vec<_>>()
                .join(", ");
            return Err(SynthError::DoesNotPack {
                chip: opts.board.chip(),
                cells,
                available,
                percent: cells * 100 / available.max(1),
                brams: rams,
                available_brams: available_rams,
                blocks,
                log: pnr_log,
            });
        }
        return Err(e.into());
    }
    let report_path = opts.out.join("report.json");
    let json = std::fs::read_to_string(&report_path).map_err(io(&report_path))?;
    let report = Report::parse(&json).map_err(|message| SynthError::Report {
        path: report_path.clone(),
        message,
    })?;

    progress(&format!("{}: bitstream", flow.pack));
    let mut pack = find(flow.pack)?.command();
    pack.current_dir(&opts.out)
        .args([flow.routed.0, flow.bitstream]);
    run_logged(
        &mut pack,
        &opts.out.join(format!("{}.log", flow.pack.name())),
    )?;
    Ok(Outcome {
        report,
        bitstream: opts.out.join(flow.bitstream),
        yosys_cells: cell_counts(&stat),
        block_cells,
    })
}

/// Each of [`Options::blocks`] synthesised alone (`synth` the family's yosys command): its
/// yosys cells (LUT4 + carries + flip-flops + ...), 0 for a block missing from the design.
fn block_costs(
    opts: &Options,
    synth: &str,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<(String, u64)>, SynthError> {
    if opts.blocks.is_empty() {
        return Ok(Vec::new());
    }
    progress("yosys: cost of each block");
    let mut script = String::from("read_verilog top.v; design -save all;");
    for b in &opts.blocks {
        let module = if opts.block_root.is_empty() {
            format!("top${b}")
        } else {
            format!("top${}${b}", opts.block_root)
        };
        script.push_str(&format!(
            " design -load all; hierarchy -top {module}; {synth} -top {module}; \
             tee -q -o block-{b}.txt stat;"
        ));
    }
    let mut yosys = find(Tool::Yosys)?.command();
    yosys.current_dir(&opts.out).args(["-p", &script]);
    run_logged(&mut yosys, &opts.out.join("yosys-blocks.log"))?;
    Ok(opts
        .blocks
        .iter()
        .map(|b| {
            let text = std::fs::read_to_string(opts.out.join(format!("block-{b}.txt")))
                .unwrap_or_default();
            (b.clone(), cell_counts(&text).iter().map(|c| c.1).sum())
        })
        .collect())
}

/// Cell types and counts from yosys `stat` output (`     SB_LUT4     1234` lines): the FPGA's
/// cells, whose names are upper case (`SB_LUT4`, `LUT4`, `TRELLIS_FF`, `DP16KD`), not yosys's
/// own counters (`wires`, `cells`).
pub fn cell_counts(stat: &str) -> Vec<(String, u64)> {
    let cell = |n: &str| {
        n.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && n.chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    };
    stat.lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            let (a, b) = (it.next()?, it.next()?);
            if it.next().is_some() {
                return None;
            }
            // yosys 0.70 prints "count name"; older versions "name count".
            match (a.parse::<u64>(), b.parse::<u64>()) {
                (Ok(n), Err(_)) if cell(b) => Some((b.to_string(), n)),
                (Err(_), Ok(n)) if cell(a) => Some((a.to_string(), n)),
                _ => None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_nextpnr_utilisation() {
        let log =
            "Info: Device utilisation:\nInfo: \t         ICESTORM_LC:    8773/   7680   114%\n\
                   Info: \t        ICESTORM_RAM:      29/     32    90%\n";
        assert_eq!(utilisation(log, "ICESTORM_LC"), Some((8773, 7680)));
        assert_eq!(utilisation(log, "ICESTORM_RAM"), Some((29, 32)));
        assert_eq!(utilisation(log, "ICESTORM_PLL"), None);
    }

    #[test]
    fn reads_both_stat_layouts() {
        let old = "   Number of cells:   10\n     SB_CARRY    3\n     SB_LUT4     7\n";
        let new = "       7   SB_LUT4\n       3   SB_CARRY\n   10 cells\n";
        let want = |v: Vec<(String, u64)>| {
            let mut v = v;
            v.sort();
            v
        };
        assert_eq!(
            want(cell_counts(old)),
            vec![("SB_CARRY".into(), 3), ("SB_LUT4".into(), 7)]
        );
        assert_eq!(
            want(cell_counts(new)),
            vec![("SB_CARRY".into(), 3), ("SB_LUT4".into(), 7)]
        );
        // yosys 0.70's `stat` of an ECP5 design (synth_ecp5), its counters left out.
        let ecp5 = "       53 wires\n       57 cells\n       12   CCU2C\n       15   LUT4\n\
                    2   PFUMX\n       28   TRELLIS_FF\n        1   DP16KD\n";
        assert_eq!(
            want(cell_counts(ecp5)),
            vec![
                ("CCU2C".into(), 12),
                ("DP16KD".into(), 1),
                ("LUT4".into(), 15),
                ("PFUMX".into(), 2),
                ("TRELLIS_FF".into(), 28)
            ]
        );
    }

    #[test]
    fn the_fit_check_counts_the_ecp5_cells() {
        let counts = |luts: u64, ccu: u64, rams: u64| {
            vec![
                ("LUT4".to_string(), luts),
                ("CCU2C".to_string(), ccu),
                ("DP16KD".to_string(), rams),
            ]
        };
        let stat = PathBuf::from("stat.txt");
        assert!(check_fit(Board::Ulx3s85f, &counts(80_000, 1_000, 200), stat.clone()).is_ok());
        let e = check_fit(Board::Ulx3s85f, &counts(80_000, 2_000, 200), stat.clone())
            .unwrap_err()
            .to_string();
        assert!(e.contains("LFE5U-85F") && e.contains("84000 LUT4s"), "{e}");
        assert!(check_fit(Board::Ulx3s85f, &counts(1_000, 0, 209), stat.clone()).is_err());
        assert!(check_fit(Board::Ulx3s12f, &counts(12_500, 0, 1), stat).is_err());
        assert_eq!(
            device_args(Board::Ulx3s45f),
            ["--45k", "--package", "CABGA381"]
        );
        assert_eq!(
            device_args(Board::AlchitryCu),
            ["--hx8k", "--package", "cb132"]
        );
    }
}

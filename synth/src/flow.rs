//! The flow: Verilog -> yosys -> nextpnr-ice40 -> icepack, in one output folder that keeps every
//! input, log and report.

use crate::report::Report;
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
    /// Pin constraints (PCF text, [`hdl::board_chip::BoardChip::pcf`]), written to `board.pcf`.
    pub pcf: String,
    /// Blocks (rust-hdl instance paths below `block_root`, e.g. `core$fmad$mul`) to cost one by
    /// one, reported under these names.
    pub blocks: Vec<String>,
    /// Instance path below `top` that the block paths start from (empty: `top` itself).
    pub block_root: String,
}

/// What the flow produced.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub report: Report,
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
    #[error("cannot prepare {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Tool(#[from] ToolError),
    /// A file of the flow's own (the Verilog, the constraints) could not be written.
    #[error(transparent)]
    Write(#[from] microcode::output::WriteError),
    #[error("nextpnr report {path}: {message}")]
    Report { path: PathBuf, message: String },
    /// yosys mapped the design to more LUTs than the device has logic cells, or to more block
    /// RAMs than it has: placement cannot succeed, so the flow stops before nextpnr (the yosys
    /// log and statistics are kept).
    #[error(
        "the design does not fit the HX8K: yosys maps it to {luts} LUT4s, {ffs} flip-flops and \
         {brams} block RAMs; the device has {available} logic cells (each one LUT4 and one \
         flip-flop) and {available_brams} block RAMs; see {stat}"
    )]
    DoesNotFit {
        luts: u64,
        ffs: u64,
        brams: u64,
        available: u64,
        available_brams: u64,
        stat: PathBuf,
    },
    /// nextpnr packed the design into more logic cells (or block RAMs) than the device has: a
    /// flip-flop or carry that cannot share a cell with a LUT takes a cell of its own, so a design
    /// under the limit in LUT4s can still be over it in cells.
    #[error(
        "the design does not fit the HX8K: nextpnr packs it into {cells} logic cells of \
         {available} ({percent}%) and {brams} block RAMs of {available_brams}; by block \
         (yosys cells of each alone): {blocks}; see {log}"
    )]
    DoesNotPack {
        cells: u64,
        available: u64,
        percent: u64,
        brams: u64,
        available_brams: u64,
        blocks: String,
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

/// Logic cells of the iCE40 HX8K.
pub const HX8K_LOGIC_CELLS: u64 = 7_680;
/// Block RAMs (`SB_RAM40_4K`, 256 x 16) of the iCE40 HX8K.
pub const HX8K_BLOCK_RAMS: u64 = 32;

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> SynthError + '_ {
    move |source| SynthError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Runs the whole flow on `verilog` (a module named `top`). `progress` receives one line per stage.
pub fn synthesise(
    verilog: &str,
    opts: &Options,
    progress: &mut dyn FnMut(&str),
) -> Result<Outcome, SynthError> {
    // An existing file, FIFO or device named as the output folder is refused, never replaced.
    if std::fs::metadata(&opts.out).is_ok_and(|m| !m.is_dir()) {
        let source = std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a directory");
        return Err(io(&opts.out)(source));
    }
    std::fs::create_dir_all(&opts.out).map_err(io(&opts.out))?;
    write_atomically(&opts.out.join("top.v"), verilog.as_bytes())?;
    write_atomically(&opts.out.join("board.pcf"), opts.pcf.as_bytes())?;

    progress("yosys: synth_ice40 (this takes a while)");
    let mut yosys = find(Tool::Yosys)?.command();
    yosys.current_dir(&opts.out).args([
        "-p",
        "read_verilog top.v; synth_ice40 -top top -json top.json; tee -o yosys-stat.txt stat",
    ]);
    run_logged(&mut yosys, &opts.out.join("yosys.log"))?;
    let stat = std::fs::read_to_string(opts.out.join("yosys-stat.txt")).unwrap_or_default();
    let counts = cell_counts(&stat);
    let count = |f: &dyn Fn(&str) -> bool| -> u64 {
        counts.iter().filter(|(n, _)| f(n)).map(|(_, c)| c).sum()
    };
    let luts = count(&|n| n == "SB_LUT4");
    let ffs = count(&|n| n.starts_with("SB_DFF"));
    let brams = count(&|n| n.starts_with("SB_RAM40"));
    if luts > HX8K_LOGIC_CELLS || ffs > HX8K_LOGIC_CELLS || brams > HX8K_BLOCK_RAMS {
        return Err(SynthError::DoesNotFit {
            luts,
            ffs,
            brams,
            available: HX8K_LOGIC_CELLS,
            available_brams: HX8K_BLOCK_RAMS,
            stat: opts.out.join("yosys-stat.txt"),
        });
    }

    let block_cells = if opts.blocks.is_empty() {
        Vec::new()
    } else {
        progress("yosys: cost of each block");
        let mut script = String::from("read_verilog top.v; design -save all;");
        for b in &opts.blocks {
            let module = if opts.block_root.is_empty() {
                format!("top${b}")
            } else {
                format!("top${}${b}", opts.block_root)
            };
            script.push_str(&format!(
                " design -load all; hierarchy -top {module}; synth_ice40 -top {module}; \
                 tee -q -o block-{b}.txt stat;"
            ));
        }
        let mut yosys = find(Tool::Yosys)?.command();
        yosys.current_dir(&opts.out).args(["-p", &script]);
        run_logged(&mut yosys, &opts.out.join("yosys-blocks.log"))?;
        opts.blocks
            .iter()
            .map(|b| {
                let text = std::fs::read_to_string(opts.out.join(format!("block-{b}.txt")))
                    .unwrap_or_default();
                (b.clone(), cell_counts(&text).iter().map(|c| c.1).sum())
            })
            .collect()
    };

    progress(&format!(
        "nextpnr-ice40: place and route for the HX8K at {} MHz, seed {}",
        opts.freq_mhz, opts.seed
    ));
    let mut pnr = find(Tool::NextpnrIce40)?.command();
    pnr.current_dir(&opts.out).args([
        "--hx8k",
        "--package",
        "cb132",
        "--pcf",
        "board.pcf",
        "--json",
        "top.json",
        "--asc",
        "top.asc",
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
        let (cells, available) = utilisation(&text, "ICESTORM_LC").unwrap_or((0, 1));
        let (rams, available_rams) = utilisation(&text, "ICESTORM_RAM").unwrap_or((0, 1));
        if cells > available || rams > available_rams {
            let blocks = block_cells
                .iter()
                .map(|(b, n)| format!("{b} {n}"))
                .collect::<Vec<_>>()
                .join(", ");
            return Err(SynthError::DoesNotPack {
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

    progress("icepack: bitstream");
    let mut pack = find(Tool::Icepack)?.command();
    pack.current_dir(&opts.out).args(["top.asc", "top.bin"]);
    run_logged(&mut pack, &opts.out.join("icepack.log"))?;
    Ok(Outcome {
        report,
        bitstream: opts.out.join("top.bin"),
        yosys_cells: cell_counts(&stat),
        block_cells,
    })
}

/// Cell types and counts from yosys `stat` output (`     SB_LUT4     1234` lines).
pub fn cell_counts(stat: &str) -> Vec<(String, u64)> {
    stat.lines()
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            let (a, b) = (it.next()?, it.next()?);
            if it.next().is_some() {
                return None;
            }
            // yosys 0.70 prints "count name"; older versions "name count".
            match (a.parse::<u64>(), b.parse::<u64>()) {
                (Ok(n), Err(_)) if b.starts_with("SB_") => Some((b.to_string(), n)),
                (Err(_), Ok(n)) if a.starts_with("SB_") => Some((a.to_string(), n)),
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
    }
}

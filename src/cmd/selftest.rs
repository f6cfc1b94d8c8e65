//! `tgsi-core selftest --port PATH`: the bring-up check of a new board.
//!
//! 1. The loader: INFO, STATUS, upload of a pattern image, COMMIT, STATUS CRC and a read-back, then the
//!    pattern is invalidated (never left runnable).
//! 2. The core: built-in programs, one or more per unit (`selftest_programs/*.tgsi`), are compiled for
//!    the board's core, loaded, run on one quad with fixed inputs and CONST values, and compared bit
//!    for bit (live lanes), by kill mask and by cycle count with the core model. On a board with
//!    several cores each program runs on every core at once (the board checks that they agree)
//!    and then on each core alone; `--core N` (or `all`) runs it on that selection only.

use super::board::{connect, PortArgs};
use anyhow::{bail, Context, Result};
use clap::Args;
use firmware_loader::board::{run_image, Lanes};
use firmware_loader::host::Client;
use firmware_loader::image::{ImageFile, Upload};
use firmware_loader::port::Transport;
use firmware_loader::protocol::{Begin, LoadState, Region, IMAGE_REGIONS};
use microcode::compile::compile;
use microcode::core::CoreConfig;
use microcode::tgsi::load::{load, Format};
use sim::run_io::RunInputs;
use std::collections::BTreeMap;
use std::process::ExitCode;

/// Arguments of `selftest`.
#[derive(Args)]
pub struct SelftestArgs {
    #[command(flatten)]
    pub link: PortArgs,
}

/// The built-in programs: (what they exercise, TGSI text).
const PROGRAMS: [(&str, &str); 6] = [
    (
        "adder and multiplier (MAD, ADD, MUL, CONST)",
        include_str!("selftest_programs/mad.tgsi"),
    ),
    (
        "reciprocal (RCP, RCC; without the divider a multiply-add sequence)",
        include_str!("selftest_programs/rcp.tgsi"),
    ),
    (
        "division (DIV; without the divider a multiply-add sequence)",
        include_str!("selftest_programs/div.tgsi"),
    ),
    (
        "compare and select (SLT, MIN, MAX, CMP)",
        include_str!("selftest_programs/cmp.tgsi"),
    ),
    (
        "mask stack and kill (IF, ELSE, FLR, KIL)",
        include_str!("selftest_programs/flow.tgsi"),
    ),
    (
        "sequenced functions (EX2, LG2, SIN, RSQ)",
        include_str!("selftest_programs/trans.tgsi"),
    ),
];

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// `IN[0]` and `IN[1]` per lane: lane 1 has `IN[0].x = 0` (IF false), lanes 2 and 3 have `IN[0].y < 0` (KIL).
fn inputs() -> [(u16, Lanes); 2] {
    let lane0 = |l: f32| [f(l - 1.0), f(0.5 - 0.4 * l), f(2.0 + l), f(0.25 + l)];
    let lane1 = |l: f32| [f(0.5 + l), f(4.0 - l), f(-1.5 * l), f(3.0)];
    [
        (0, [lane0(0.0), lane0(1.0), lane0(2.0), lane0(3.0)]),
        (1, [lane1(0.0), lane1(1.0), lane1(2.0), lane1(3.0)]),
    ]
}

/// `CONST[buffer][index]`.
fn constant(buffer: u16, index: u16) -> [u32; 4] {
    if (buffer, index) == (0, 0) {
        [f(0.5), f(2.0), f(-1.0), f(4.0)]
    } else {
        [0; 4]
    }
}

/// A deterministic pattern that exercises every byte value, escapes included.
fn pattern(len: usize, salt: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(salt) ^ (i >> 8) as u8)
        .collect()
}

fn loader_check<T: Transport>(c: &mut Client<T>, port: &str) -> Result<()> {
    let info = c.info().with_context(|| format!("{port}: INFO"))?;
    println!(
        "INFO: core {}.{}, ISA hash {:08x}, features {:#x}, clock {} Hz, {} baud",
        info.core_version.0,
        info.core_version.1,
        info.isa_hash,
        info.features,
        info.clock_hz,
        info.baud
    );
    let l = info.limits;
    println!(
        "      program {} B, constants {} B, textures {} B, maps {} B, inputs {} B, outputs {} B, params {} B, {} quads per run",
        l.program, l.constants, l.textures, l.maps, l.inputs, l.outputs, l.params, l.max_quads
    );
    let s = c.status().with_context(|| format!("{port}: STATUS"))?;
    println!("STATUS: {:?}, active CRC {:08x}", s.state, s.active_crc);
    let board = microcode::board::Board::from_id(info.board).map_or_else(
        || format!("board {} (not a board this tool knows)", info.board),
        |b| format!("{b} ({})", b.chip()),
    );
    println!(
        "      {board}, {} core{}, core configuration {}",
        info.cores,
        if info.cores == 1 { "" } else { "s" },
        if info.core_config().is_some() {
            "named (its CRC is the ISA hash)"
        } else {
            "not named (a loader before protocol 2)"
        }
    );

    // The pattern is not a program: it carries the device's own ISA hash so the loader accepts it,
    // and it is invalidated before the core programs run.
    let sizes = [l.program, l.constants, l.textures, l.maps].map(|n| (n as usize).min(1024));
    // PROGRAM keeps only the instruction word of each 16-byte slot (the rest reads as zero).
    let mut program = pattern(sizes[0], 1);
    for (i, b) in program.iter_mut().enumerate() {
        if i % 16 >= firmware_loader::protocol::PROGRAM_WORD_BYTES {
            *b = 0;
        }
    }
    let image = Upload {
        isa_hash: info.isa_hash,
        regions: [
            program,
            pattern(sizes[1], 2),
            pattern(sizes[2], 3),
            pattern(sizes[3], 4),
        ],
    };
    let report = c
        .upload(&image, &mut |_, _| {})
        .with_context(|| format!("{port}: upload of the loader pattern"))?;
    println!(
        "upload: {} bytes committed, STATUS CRC {:08x} matches ({} retries)",
        report.bytes,
        report.crc,
        report.stats.attempts - report.stats.requests
    );
    for (data, region) in image.regions.iter().zip(Region::IMAGE) {
        let back = c.read_region(region, 0, data.len())?;
        if &back != data {
            bail!("{port}: read-back of {region:?} differs from what was written");
        }
    }
    println!("read-back: all image regions match");
    c.begin(&Begin {
        isa_hash: info.isa_hash,
        lengths: [0; IMAGE_REGIONS],
    })?;
    c.reset()?;
    let s = c.status()?;
    if s.state != LoadState::NoImage {
        bail!("{port}: after RESET the device reports {:?}", s.state);
    }
    println!("cleanup: pattern invalidated, no image active");
    Ok(())
}

/// What one core check found.
enum Check {
    /// Board and core model agree.
    Same,
    /// They differ: one line per difference.
    Differs(Vec<String>),
    /// The program uses an operation the board's hardware does not build, and the board said so
    /// (fault MISSING_UNIT): nothing to compare.
    NotBuilt(String),
}

/// Runs one program on the board, on each selection of `cores` (CORE's values) in turn, and
/// on the core model; the differences name the selection.
fn core_check<T: Transport>(
    c: &mut Client<T>,
    config: &CoreConfig,
    source: &str,
    cores: &[u8],
) -> Result<Check> {
    let program = load(source.as_bytes(), Some(Format::Text))
        .map_err(|e| anyhow::anyhow!("built-in program: {e:?}"))?
        .program;
    let compiled = compile(&program, config)?;
    let file = ImageFile::from_image(&compiled.image);
    c.upload(&file.upload, &mut |_, _| {})?;
    let (mut diffs, mut not_built) = (Vec::new(), None);
    for &core in cores {
        if cores.len() > 1 || core != firmware_loader::protocol::ALL_CORES {
            c.select_core(core)?;
        }
        let which = if core == firmware_loader::protocol::ALL_CORES {
            "every core at once".to_string()
        } else {
            format!("core {core}")
        };
        match run_and_compare(c, &compiled.image, &file)? {
            Check::Same => {}
            Check::NotBuilt(why) => {
                not_built = Some(why);
                break;
            }
            Check::Differs(d) => diffs.extend(d.into_iter().map(|l| format!("{which}: {l}"))),
        }
    }
    // Back to every core (the power-up selection) for the commands that follow.
    if cores.len() > 1 {
        c.select_core(firmware_loader::protocol::ALL_CORES)?;
    }
    if let Some(why) = not_built {
        return Ok(Check::NotBuilt(why));
    }
    Ok(verdict(diffs))
}

/// Runs the uploaded `file` (compiled as `image`) on the selected core(s) and on the core
/// model.
fn run_and_compare<T: Transport>(
    c: &mut Client<T>,
    image: &microcode::core::Image,
    file: &ImageFile,
) -> Result<Check> {
    let compiled = image;
    let quad = inputs();
    let board = run_image(c, file, &[quad.to_vec()], &constant)?;
    let Some(board) = board.first() else {
        bail!("the board ran no quad");
    };
    if let Err(e) = sim::hardware::check_supported(compiled, "board") {
        if board.fault == sim::hardware::fault_code::MISSING_UNIT {
            return Ok(Check::NotBuilt(e.to_string()));
        }
    }

    let mut run_inputs = RunInputs::default();
    for (n, v) in quad {
        run_inputs.inputs.insert(u32::from(n), v);
    }
    for &(_, buffer, index) in &file.buffer_slots {
        run_inputs.constants.insert(
            (u32::from(buffer), u32::from(index)),
            constant(buffer, index),
        );
    }
    let mut diffs = Vec::new();
    let model = match sim::core_model::run(compiled, &run_inputs) {
        Ok(m) => m,
        Err(fault) => {
            if board.fault == 0 {
                diffs.push(format!(
                    "the core model faults ({fault}), the board does not"
                ));
            }
            return Ok(verdict(diffs));
        }
    };
    if board.fault != 0 {
        diffs.push(format!(
            "the board faults (code {}: {})",
            board.fault,
            sim::hardware::fault_name(board.fault)
        ));
    }
    // The core model counts the core's clocks: the board's count must be the same.
    if let Some(want) = model.cycles {
        if u64::from(board.cycles) != want {
            diffs.push(format!("{} cycles, core model {want}", board.cycles));
        }
    }
    let model_kills = (0..4).fold(0u8, |m, l| m | (u8::from(model.lanes[l].killed) << l));
    if board.kill_mask != model_kills {
        diffs.push(format!(
            "kill mask {:04b}, core model {:04b}",
            board.kill_mask, model_kills
        ));
    }
    let board_outputs: BTreeMap<u16, Lanes> = board.outputs.iter().copied().collect();
    for (l, lane) in model.lanes.iter().enumerate() {
        if lane.killed {
            continue;
        }
        for (&n, want) in &lane.outputs {
            let got = u16::try_from(n)
                .ok()
                .and_then(|n| board_outputs.get(&n))
                .map(|v| v[l]);
            if got != Some(*want) {
                diffs.push(format!(
                    "OUT[{n}] lane {l}: board {got:08x?}, core model {want:08x?}"
                ));
            }
        }
    }
    Ok(verdict(diffs))
}

fn verdict(diffs: Vec<String>) -> Check {
    if diffs.is_empty() {
        Check::Same
    } else {
        Check::Differs(diffs)
    }
}

/// Runs the checks, printing one line per step.
pub fn run(args: SelftestArgs) -> Result<ExitCode> {
    let port = &args.link.port;
    // A bad `--core` is refused before the port is opened.
    if let Some(core) = &args.link.core {
        super::board::parse_core(core)?;
    }
    let mut c = connect(&args.link)?;
    loader_check(&mut c, port)?;
    let config = super::board::board_config(&mut c).with_context(|| port.clone())?;
    // Every core at once, then each alone (a board with one core: its one selection); or the
    // selection --core names.
    let n = c.device_info()?.cores;
    let cores: Vec<u8> = match &args.link.core {
        Some(text) => {
            super::board::select_core(&mut c, Some(text))?;
            vec![super::board::parse_core(text)?]
        }
        None if n > 1 => std::iter::once(firmware_loader::protocol::ALL_CORES)
            .chain((0..n).filter_map(|k| u8::try_from(k).ok()))
            .collect(),
        None => vec![firmware_loader::protocol::ALL_CORES],
    };
    let on = if cores.len() > 1 {
        format!(" (every core at once, then each of the {n})")
    } else {
        String::new()
    };
    let (mut failed, mut skipped) = (0, 0);
    for (what, source) in PROGRAMS {
        match core_check(&mut c, &config, source, &cores) {
            Ok(Check::Same) => println!("core: {what}: ok{on}"),
            Ok(Check::NotBuilt(why)) => {
                skipped += 1;
                println!("core: {what}: not built in this board's hardware ({why})");
            }
            Ok(Check::Differs(d)) => {
                failed += 1;
                println!("core: {what}: DIFFERS");
                for line in d {
                    println!("      {line}");
                }
            }
            Err(e) => {
                failed += 1;
                println!("core: {what}: error: {e:#}");
            }
        }
    }
    if failed > 0 {
        println!(
            "selftest: {failed} of {} core checks failed",
            PROGRAMS.len()
        );
        return Ok(ExitCode::FAILURE);
    }
    if skipped > 0 {
        println!(
            "selftest: loader and {} core checks OK; {skipped} use operations this hardware does not build",
            PROGRAMS.len() - skipped
        );
    } else {
        println!("selftest: loader and {} core checks OK", PROGRAMS.len());
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_programs_compile_for_the_board_core() {
        for (what, source) in PROGRAMS {
            let program = load(source.as_bytes(), Some(Format::Text))
                .unwrap_or_else(|e| panic!("{what}: {e:?}"))
                .program;
            let compiled =
                compile(&program, &CoreConfig::default()).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(!compiled.image.code.is_empty(), "{what}");
        }
    }

    #[test]
    fn the_inputs_kill_two_lanes_and_skip_one_if() {
        let [(_, in0), _] = inputs();
        let kills: Vec<bool> = in0.iter().map(|l| f32::from_bits(l[1]) < 0.0).collect();
        assert_eq!(kills, [false, false, true, true]);
        assert_eq!(f32::from_bits(in0[1][0]), 0.0);
    }
}

//! Several boards for one frame: `render --engine board --port A --port B ...` and
//! `bench --board-scaling`. Each board gets its own link, its own compile of the frame's
//! transformed program for the core configuration its INFO reports, its own upload and PARAMS
//! (in parallel, one thread per board); then `firmware_loader::farm` hands out blocks of rows.

use super::board::{board_link, board_upload, say_uploaded, LinkArgs};
use anyhow::{Context, Result};
use firmware_loader::farm::{render_farm, FarmBoard, FarmError, FarmEvent, FarmFrame, FarmJob};
use firmware_loader::port::SerialTransport;
use firmware_loader::protocol::Info;
use indicatif::ProgressBar;
use microcode::compile::compile;
use microcode::tgsi::Program;
use sim::run_io::RunInputs;

/// RENDER attempts after the first that a board of several gets when an attempt brings nothing
/// (each waits the client's `run_timeout`, 2 s): a board that stops answering is given up, and
/// its block handed to the others, after about 6 s instead of the 18 s one board alone waits (a
/// block lost on a noisy line is asked for again within an attempt and costs none).
pub const FARM_RENDER_RETRIES: u32 = 2;

/// A board's port as `--port` gives it: `PATH` (at the command's `--baud`) or `PATH@BAUD`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortSpec {
    /// The serial port.
    pub path: String,
    /// Its line rate.
    pub baud: u32,
}

impl PortSpec {
    /// `spec` read as `PATH` or `PATH@BAUD` (a suffix that is not a number stays in the path).
    pub fn parse(spec: &str, baud: u32) -> PortSpec {
        match spec.rsplit_once('@') {
            Some((path, rate)) if !path.is_empty() => match rate.parse::<u32>() {
                Ok(rate) => PortSpec {
                    path: path.to_string(),
                    baud: rate,
                },
                Err(_) => PortSpec {
                    path: spec.to_string(),
                    baud,
                },
            },
            _ => PortSpec {
                path: spec.to_string(),
                baud,
            },
        }
    }
}

/// The boards ready to RENDER the frame (their images active, their PARAMS written), and what
/// each one's INFO said, in the same order.
pub struct Boards {
    /// The farm's boards.
    pub farm: Vec<FarmBoard<SerialTransport>>,
    /// Their INFO.
    pub infos: Vec<Info>,
}

/// Why a board was left out before the frame started.
pub enum Unready {
    /// The transformed program does not fit the board's core.
    NoFit(String),
    /// The link, the board's configuration or the upload failed.
    Link(anyhow::Error),
}

impl std::fmt::Display for Unready {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unready::NoFit(why) => write!(f, "{why}"),
            Unready::Link(e) => write!(f, "{e:#}"),
        }
    }
}

/// Connects to `spec`, compiles `program` for the board's core, uploads it with `inputs`'
/// textures and writes its PARAMS from `inputs`' constants.
fn ready(
    spec: &PortSpec,
    link: &LinkArgs,
    program: &Program,
    inputs: &RunInputs,
) -> Result<(FarmBoard<SerialTransport>, Info), Unready> {
    let (mut client, config) =
        board_link(Some(&spec.path), &link.at(spec.baud)).map_err(Unready::Link)?;
    let image = compile(program, &config)
        .map_err(|e| Unready::NoFit(format!("the transformed program does not fit: {e}")))?
        .image;
    let file = board_upload(
        &mut client,
        &spec.path,
        &image,
        inputs,
        &mut say_uploaded(&spec.path),
    )
    .map_err(Unready::Link)?;
    let constant = |b: u16, i: u16| inputs.constant(b, i);
    firmware_loader::board::write_params(&mut client, &file, &constant)
        .with_context(|| format!("{}: writing PARAMS", spec.path))
        .map_err(Unready::Link)?;
    let info = client
        .device_info()
        .with_context(|| format!("{}: INFO", spec.path))
        .map_err(Unready::Link)?;
    // From here a board is one of several: a silent one is given up sooner, for the others.
    client.opts.retries = FARM_RENDER_RETRIES;
    let name = spec.path.clone();
    Ok((FarmBoard { name, client }, info))
}

/// Readies every port at once (one thread each): the boards ready, in the order given, and the
/// ports left out with why.
pub fn prepare(
    ports: &[PortSpec],
    link: &LinkArgs,
    program: &Program,
    inputs: &RunInputs,
) -> (Boards, Vec<(String, Unready)>) {
    type Readied = Result<(FarmBoard<SerialTransport>, Info), Unready>;
    let results: Vec<Readied> = std::thread::scope(|s| {
        let threads: Vec<_> = ports
            .iter()
            .map(|p| s.spawn(move || ready(p, link, program, inputs)))
            .collect();
        threads
            .into_iter()
            .map(|t| t.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    let mut boards = Boards {
        farm: Vec::new(),
        infos: Vec::new(),
    };
    let mut left_out = Vec::new();
    for (spec, r) in ports.iter().zip(results) {
        match r {
            Ok((board, info)) => {
                boards.farm.push(board);
                boards.infos.push(info);
            }
            Err(e) => left_out.push((spec.path.clone(), e)),
        }
    }
    (boards, left_out)
}

/// Renders `job` on `boards`, with `bar` counting rows of quads over the whole frame: a board
/// that fails is named in a warning (its block goes to the others); with `verbose`, each block
/// is named as it comes back.
pub fn render_on(
    boards: &mut [FarmBoard<SerialTransport>],
    job: &FarmJob,
    bar: &ProgressBar,
    verbose: bool,
) -> Result<FarmFrame> {
    let on_event = |e: &FarmEvent| match e {
        FarmEvent::Delivered { board, y, rows } => {
            bar.inc(u64::from(*rows));
            if verbose {
                bar.suspend(|| {
                    eprintln!(
                        "rows {y}..{} of quads from {board}",
                        u32::from(*y) + u32::from(*rows)
                    )
                });
            }
        }
        FarmEvent::Failed {
            board,
            y,
            rows,
            error,
        } => bar.suspend(|| {
            eprintln!(
                "warning: {board} failed at rows {y}..{} of quads ({error}); the other boards \
                 render its blocks",
                u32::from(*y) + u32::from(*rows)
            )
        }),
    };
    let got = render_farm(boards, job, &on_event);
    got.map_err(|e| match e {
        FarmError::Fault {
            board,
            column,
            row,
            fault,
        } => anyhow::anyhow!(
            "quad at ({}, {}): the board's core stopped with fault {fault} ({}) on {board}",
            2 * u32::from(column),
            2 * u32::from(row),
            sim::hardware::fault_name(fault)
        ),
        other => anyhow::Error::new(other),
    })
}

/// One measurement of `bench --board-scaling`: frames rendered on a set of boards.
struct Measured {
    /// Wall time of all the frames.
    seconds: f64,
    /// Quads of all the frames.
    quads: usize,
    /// Per board of the set: quads delivered, core cycles, bytes received.
    boards: Vec<(usize, u64, u64)>,
}

/// Renders `job` on `boards` as many times as fit in `seconds` (at least once); every frame
/// must equal `first` (the first frame rendered, which it becomes if empty).
fn measure(
    boards: &mut [FarmBoard<SerialTransport>],
    job: &FarmJob,
    seconds: f64,
    first: &mut Option<Vec<firmware_loader::host::RenderRecord>>,
) -> Result<Measured> {
    let received: Vec<u64> = boards
        .iter()
        .map(|b| b.client.stats.bytes_received)
        .collect();
    let mut m = Measured {
        seconds: 0.0,
        quads: 0,
        boards: vec![(0, 0, 0); boards.len()],
    };
    let bar = ProgressBar::hidden();
    while m.quads == 0 || m.seconds < seconds {
        let frame = render_on(boards, job, &bar, false)?;
        if frame.shares.iter().any(|s| s.failure.is_some()) {
            anyhow::bail!("a board failed during the measurement (see the warning)");
        }
        match first {
            Some(f) if *f != frame.records => {
                anyhow::bail!("the boards' frames differ: a board shades otherwise")
            }
            Some(_) => {}
            None => *first = Some(frame.records.clone()),
        }
        m.seconds += frame.elapsed.as_secs_f64();
        m.quads += frame.records.len();
        for (acc, s) in m.boards.iter_mut().zip(&frame.shares) {
            acc.0 += s.quads;
            acc.1 += s.cycles;
        }
    }
    for ((acc, b), before) in m.boards.iter_mut().zip(boards.iter()).zip(received) {
        acc.2 = b.client.stats.bytes_received - before;
    }
    Ok(m)
}

/// A rate for the table: `312.0`, `17.0k`, `1.20M`.
fn rate(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.2}M", x / 1e6)
    } else if x >= 1e4 {
        format!("{:.1}k", x / 1e3)
    } else {
        format!("{x:.1}")
    }
}

/// `bench --board-scaling`: RENDER of `examples/checker.tgsi` at `size` (packed RGBA8) on each
/// port alone, then on all of them at once, for at least `seconds` each. Prints quads per second
/// of wall time per board (alone and in the set) and for the set, and in board terms: the core
/// cycles per quad the RENDER end frames report (the core-bound rate at the clock INFO reports)
/// and the bytes per quad received (the line-bound rate at the link's rate).
pub fn board_scaling(
    ports: &[PortSpec],
    size: (u32, u32),
    link: &LinkArgs,
    seconds: f64,
) -> Result<()> {
    use microcode::compile::render_program::{render_program, ColourOut};
    anyhow::ensure!(
        !ports.is_empty(),
        "--board-scaling needs --port (once per board)"
    );
    let program = microcode::tgsi::text::parse(include_str!("../../examples/checker.tgsi"))
        .map_err(|e| anyhow::anyhow!("examples/checker.tgsi: {e}"))?;
    let rp = render_program(&program, size.0, size.1, &|_| None, ColourOut::Rgba8)
        .context("transforming examples/checker.tgsi for RENDER")?;
    let mut inputs = RunInputs::default();
    for (slot, v) in &rp.constants {
        inputs.constants.insert((0, *slot), *v);
    }
    let (mut boards, left_out) = prepare(ports, link, &rp.program, &inputs);
    if !left_out.is_empty() {
        let why: Vec<String> = left_out.iter().map(|(p, w)| format!("{p}: {w}")).collect();
        anyhow::bail!("every board must take part: {}", why.join("; "));
    }
    let (row_quads, rows) = (
        u16::try_from(size.0 / 2).context("width")?,
        u16::try_from(size.1 / 2).context("height")?,
    );
    let n = boards.farm.len();
    let job = FarmJob::new(row_quads, rows, 1, n);
    println!(
        "board scaling: RENDER of examples/checker.tgsi at {}x{} ({} quads a frame, packed \
         RGBA8, blocks of {} rows of quads on a board alone, {} on the set), frames for at least \
         {seconds} s a measurement{}",
        size.0,
        size.1,
        job.quads(),
        FarmJob::new(row_quads, rows, 1, 1).block_rows,
        job.block_rows,
        if cfg!(debug_assertions) {
            " (debug build: use --release)"
        } else {
            ""
        }
    );
    let mut first = None;
    let mut alone = Vec::new();
    for i in 0..n {
        let one = FarmJob::new(row_quads, rows, 1, 1);
        alone.push(measure(&mut boards.farm[i..=i], &one, seconds, &mut first)?);
    }
    let set = measure(&mut boards.farm, &job, seconds, &mut first)?;
    println!(
        "{:<24} {:>11} {:>11} {:>11} {:>11} {:>10} {:>11}",
        "board", "alone q/s", "in set q/s", "cycles/quad", "core q/s", "bytes/quad", "line q/s"
    );
    let (mut core_sum, mut line_sum, mut alone_sum) = (0.0, 0.0, 0.0);
    for (i, a) in alone.iter().enumerate() {
        let info = &boards.infos[i];
        let (quads, cycles, bytes) = a.boards[0];
        let per_quad = cycles as f64 / quads as f64;
        let bytes_per_quad = bytes as f64 / quads as f64;
        let core = f64::from(info.clock_hz) / per_quad;
        let line = f64::from(info.baud) / 10.0 / bytes_per_quad;
        let alone_rate = a.quads as f64 / a.seconds;
        core_sum += core;
        line_sum += line;
        alone_sum += alone_rate;
        println!(
            "{:<24} {:>11} {:>11} {:>11.1} {:>11} {:>10.1} {:>11}",
            boards.farm[i].name,
            rate(alone_rate),
            rate(set.boards[i].0 as f64 / set.seconds),
            per_quad,
            rate(core),
            bytes_per_quad,
            rate(line)
        );
    }
    let set_rate = set.quads as f64 / set.seconds;
    let best_alone = alone
        .iter()
        .map(|a| a.quads as f64 / a.seconds)
        .fold(0.0, f64::max);
    println!(
        "{:<24} {:>11} {:>11} {:>11} {:>11} {:>10} {:>11}",
        format!("set of {n}"),
        rate(alone_sum),
        rate(set_rate),
        "-",
        rate(core_sum),
        "-",
        rate(line_sum)
    );
    println!(
        "the set: {:.2}x the fastest board alone, {:.0}% of the boards' rates alone added up \
         (core and line q/s: what the boards' clocks and links allow, added up)",
        set_rate / best_alone,
        100.0 * set_rate / alone_sum
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::PortSpec;

    #[test]
    fn a_port_may_carry_its_own_line_rate() {
        let spec = |path: &str, baud| PortSpec {
            path: path.into(),
            baud,
        };
        assert_eq!(
            PortSpec::parse("/dev/pts/3", 9600),
            spec("/dev/pts/3", 9600)
        );
        assert_eq!(
            PortSpec::parse("/dev/ttyUSB1@3000000", 9600),
            spec("/dev/ttyUSB1", 3_000_000)
        );
        // Not a rate: the whole text is the path (its error will name it).
        assert_eq!(PortSpec::parse("/dev/a@b", 9600), spec("/dev/a@b", 9600));
        assert_eq!(PortSpec::parse("@115200", 9600), spec("@115200", 9600));
    }
}

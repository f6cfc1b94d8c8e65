//! `tgsi-core synth`: the bitstream for a board (`--board`, default the Alchitry Cu), with what it
//! costs and how fast it runs. By default it builds the board's own build
//! (`microcode::board::Board::core_config`: on the Alchitry Cu every unit of the core, the one
//! configuration `emulate` also runs); `--full` asks for the larger memories the HX8K cannot
//! hold (for measuring them), and the `--no-*` options leave units out of either.

use anyhow::{bail, Context, Result};
use clap::Args;
use microcode::board::{Board, Family};
use microcode::core::CoreConfig;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `synth`.
#[derive(Args)]
pub struct SynthArgs {
    /// The board: alchitry-cu (iCE40 HX8K), ulx3s-85f, ulx3s-45f, ulx3s-25f or ulx3s-12f
    /// (ECP5).
    #[arg(long, default_value = "alchitry-cu")]
    pub board: String,
    /// Shader cores behind the loader (default: the board's, the largest count measured to
    /// fit at its clock).
    #[arg(long)]
    pub cores: Option<u16>,
    /// Folder for the Verilog, every tool's log, the report JSON and the bitstream (default
    /// out/synth for the Alchitry Cu, out/synth-BOARD for the others).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Target clock in MHz for placement and routing (default: the clock the board's PLL
    /// makes, 50 MHz on the Alchitry Cu, 40 MHz on the ULX3S); a higher target only makes
    /// nextpnr try harder.
    #[arg(long)]
    pub freq: Option<f64>,
    /// Placement seed (pinned so that runs are repeatable).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Lowest acceptable Fmax in MHz; below it the command fails. Never below the board's
    /// clock (the bitstream runs at it).
    #[arg(long, default_value_t = 0.0)]
    pub fmax_floor: f64,
    /// Line rate of the board's UART (fixed in the bitstream; the host tools then need
    /// `--baud` with the same rate).
    #[arg(long, default_value_t = synth::BOARD_BAUD)]
    pub baud: u32,
    /// The Alchitry Cu with the larger memories it cannot hold (512 texels of texture memory,
    /// an 8-frame mask stack): does not fit the HX8K; the command then stops with the counts
    /// (for measuring what they cost). The ULX3S builds have them anyway.
    #[arg(long, conflicts_with = "minimal")]
    pub full: bool,
    /// Accepted for scripts: no board build has the iterative divider any more (RCP, DIV, MOD
    /// and the divisions of TXP and CUBE are multiply-add and integer sequences on every build).
    #[arg(long)]
    pub no_divider: bool,
    /// Leave out the integer ALU (integer operations fault MISSING_UNIT on the board).
    #[arg(long)]
    pub no_integer: bool,
    /// Leave out the transcendental step unit and its 5 block RAMs of tables (RSQ, EX2, LG2,
    /// SIN, COS, POW fault MISSING_UNIT on the board). `--no-sequencer` is its older name.
    #[arg(long, alias = "no-sequencer")]
    pub no_transcendental: bool,
    /// Leave out the per-lane address stack and its 4 block RAMs (PUSHA and POPA fault
    /// MISSING_UNIT on the board).
    #[arg(long)]
    pub no_address_stack: bool,
    /// Leave out the texture unit and its texture memory (2 block RAMs; sampling faults
    /// MISSING_UNIT on the board).
    #[arg(long)]
    pub no_texture: bool,
    /// The board build, which is also the default (the name is kept for scripts).
    #[arg(long)]
    pub minimal: bool,
}

/// The board `name` names, or an error listing the boards.
pub fn parse_board(name: &str) -> Result<Board> {
    Board::from_name(name)
        .with_context(|| format!("unknown board `{name}` (boards: {})", Board::names()))
}

/// The core configuration `args` asks for on `board`.
fn core_config(args: &SynthArgs, board: Board) -> CoreConfig {
    use microcode::core::config::Features;
    let mut core = if args.full && board == Board::AlchitryCu {
        CoreConfig::full()
    } else {
        board.core_config()
    };
    for (off, bit) in [
        (args.no_integer, Features::INTEGER),
        (args.no_transcendental, Features::TRANSCENDENTAL),
        (args.no_address_stack, Features::ADDRESS_STACK),
        (args.no_texture, Features::TEXTURE),
    ] {
        if off {
            core.features &= !bit;
        }
    }
    core
}

/// Runs the flow and prints the resources and the clock achieved.
pub fn run(args: SynthArgs) -> Result<ExitCode> {
    let board = parse_board(&args.board)?;
    let cores = args.cores.unwrap_or(board.default_cores());
    let core = core_config(&args, board);
    // Whether this is the board build (which fits).
    let board_build = core == board.core_config();
    let clock_mhz = f64::from(board.clock_hz()) / 1e6;
    let freq = args.freq.unwrap_or(clock_mhz);
    let out = args.out.clone().unwrap_or_else(|| match board {
        Board::AlchitryCu => PathBuf::from("out/synth"),
        b => PathBuf::from(format!("out/synth-{b}")),
    });
    // A board built without a unit has another ISA hash; the host tools read the features from
    // INFO and compile for them (`load::board_config`), and refuse image files built for another.
    let (verilog, constraints) =
        synth::board_design(board, &core, cores, args.baud).map_err(anyhow::Error::msg)?;
    let opts = synth::Options {
        out: out.clone(),
        freq_mhz: freq,
        seed: args.seed,
        board,
        constraints,
        blocks: synth::board_blocks_for(board.family(), core.features)
            .iter()
            .map(|b| b.0.to_string())
            .collect(),
        block_root: synth::BOARD_INSTANCE.to_string(),
    };
    let started = std::time::Instant::now();
    let outcome = match synth::synthesise(&verilog, &opts, &mut |line| {
        eprintln!("[synth {:>5.1} s] {line}", started.elapsed().as_secs_f64())
    }) {
        Err(e @ (synth::SynthError::DoesNotFit { .. } | synth::SynthError::DoesNotPack { .. }))
            if !board_build =>
        {
            return Err(anyhow::Error::new(e).context(format!(
                "the board with these units or memories does not fit the {}; `tgsi-core synth \
                 --board {board}` without options builds the one that fits",
                board.chip()
            )))
        }
        r => r?,
    };
    print_report(&outcome, board, cores, &core, &args, freq);
    println!("bitstream    {}", outcome.bitstream.display());
    println!("logs         {}", out.display());
    let r = &outcome.report;
    if r.logic_cells.used > r.logic_cells.available || r.block_rams.used > r.block_rams.available {
        bail!("the design does not fit the {}", board.chip());
    }
    let fmax = r.fmax().context("nextpnr reported no clock")?;
    // The bitstream runs at the PLL's clock whatever the floor asked for.
    let floor = args.fmax_floor.max(clock_mhz);
    if fmax < floor {
        bail!(
            "timing missed: {fmax:.1} MHz is below the {floor} MHz floor (the bitstream clocks the \
             board at {clock_mhz} MHz)"
        );
    }
    if fmax < freq {
        eprintln!("note: {fmax:.1} MHz is below the {freq} MHz target");
    }
    Ok(ExitCode::SUCCESS)
}

/// The report: board, family, cores, resources, units, cells, blocks, Fmax per clock.
fn print_report(
    outcome: &synth::Outcome,
    board: Board,
    cores: u16,
    core: &CoreConfig,
    args: &SynthArgs,
    freq: f64,
) {
    use microcode::core::config::Features;
    let r = &outcome.report;
    let pct = |u: &synth::report::Usage| 100.0 * u.used as f64 / u.available.max(1) as f64;
    let line = |name: &str, u: &synth::report::Usage| {
        println!(
            "{name:<12} {:>6} / {:<6} ({:.0}%)",
            u.used,
            u.available,
            pct(u)
        );
    };
    println!(
        "board        {board} ({} {}), {cores} core{}",
        board.family().name(),
        board.chip(),
        if cores == 1 { "" } else { "s" }
    );
    let shading = match (board.family(), cores) {
        (Family::Ice40, _) => "shader core".to_string(),
        (Family::Ecp5, 1) => "shader core with its product on the multipliers".to_string(),
        (Family::Ecp5, n) => {
            format!("{n} shader cores with their products on the multipliers, core mux, RENDER dispatcher")
        }
    };
    println!(
        "design: board top ({shading}, on-chip loader, UART at {} baud) at {} MHz from the PLL",
        args.baud,
        board.clock_hz() / 1_000_000
    );
    match board.family() {
        Family::Ice40 => line("logic cells", &r.logic_cells),
        Family::Ecp5 => line("LUT4", &r.logic_cells),
    }
    if let Some(ff) = &r.flip_flops {
        line("flip-flops", ff);
    }
    if let Some(dsp) = &r.multipliers {
        line("DSP", dsp);
    }
    line("block RAMs", &r.block_rams);
    println!("PLLs         {:>6} / {:<6}", r.plls.used, r.plls.available);
    let units: Vec<&str> = Features::UNITS
        .iter()
        .filter(|(bit, _)| core.has(*bit))
        .map(|(_, name)| *name)
        .collect();
    println!(
        "units        {}{}",
        units.join(", "),
        if core.has(Features::DIVIDER) {
            ""
        } else {
            " (no divider: its operations are multiply-add and integer sequences)"
        }
    );
    println!(
        "memories     {} instructions, {} registers, {} texels, {}-frame mask stack",
        core.program_size, core.registers, core.texture_texels, core.mask_stack_depth
    );
    println!("I/O          {:>6} / {:<6}", r.io.used, r.io.available);
    for (name, cells) in &outcome.yosys_cells {
        println!("  {name:<12} {cells:>6}");
    }
    println!("per block (yosys cells: LUTs, carries, flip-flops, ..., synthesised alone)");
    for (name, cells) in &outcome.block_cells {
        println!("  {name:<12} {cells:>6}");
    }
    for (name, achieved, constraint) in &r.clocks {
        println!("clock        {name}: {achieved:.1} MHz (constraint {constraint} MHz)");
    }
    if let Some(fmax) = r.fmax() {
        println!("Fmax         {fmax:.1} MHz (target {freq} MHz)");
    }
}

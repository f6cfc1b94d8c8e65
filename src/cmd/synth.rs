//! `tgsi-core synth`: the bitstream for the Alchitry Cu, with what it costs and how fast it runs.
//! By default it builds the board ([`CoreConfig::default`]: every unit of the core, the one
//! configuration `emulate` also runs); `--full` asks for the larger memories the HX8K cannot
//! hold (for measuring them), and the `--no-*` options leave units out of either.

use anyhow::{bail, Context, Result};
use clap::Args;
use microcode::core::CoreConfig;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `synth`.
#[derive(Args)]
pub struct SynthArgs {
    /// Folder for the Verilog, every tool's log, the report JSON and the bitstream.
    #[arg(long, default_value = "out/synth")]
    pub out: PathBuf,
    /// Target clock in MHz for placement and routing. The bitstream clocks the board at 50 MHz
    /// from the PLL (the 100 MHz oscillator halved); a higher target only makes nextpnr try
    /// harder.
    #[arg(long, default_value_t = synth::BOARD_CLOCK_HZ as f64 / 1e6)]
    pub freq: f64,
    /// Placement seed (pinned so that runs are repeatable).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Lowest acceptable Fmax in MHz; below it the command fails.
    #[arg(long, default_value_t = 50.0)]
    pub fmax_floor: f64,
    /// Line rate of the board's UART (fixed in the bitstream; the host tools then need
    /// `--baud` with the same rate).
    #[arg(long, default_value_t = synth::BOARD_BAUD)]
    pub baud: u32,
    /// The board with the larger memories it cannot hold (512 texels of texture memory, an
    /// 8-frame mask stack): does not fit the HX8K; the command then stops with the counts (for
    /// measuring what they cost).
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

/// Runs the flow and prints the resources and the clock achieved.
pub fn run(args: SynthArgs) -> Result<ExitCode> {
    use microcode::core::config::Features;
    let mut core = if args.full {
        CoreConfig::full()
    } else {
        CoreConfig::default()
    };
    if args.no_integer {
        core.features &= !Features::INTEGER;
    }
    if args.no_transcendental {
        core.features &= !Features::TRANSCENDENTAL;
    }
    if args.no_address_stack {
        core.features &= !Features::ADDRESS_STACK;
    }
    if args.no_texture {
        core.features &= !Features::TEXTURE;
    }
    // Whether this is the board build (which fits).
    let board = core == CoreConfig::default();
    // A board built without a unit has another ISA hash; the host tools read the features from
    // INFO and compile for them (`load::board_config`), and refuse image files built for another.
    let (verilog, pcf) = synth::board_files(&core, args.baud).map_err(anyhow::Error::msg)?;
    let opts = synth::Options {
        out: args.out.clone(),
        freq_mhz: args.freq,
        seed: args.seed,
        pcf,
        blocks: synth::board_blocks(core.features)
            .iter()
            .map(|b| b.0.to_string())
            .collect(),
        block_root: synth::BOARD_INSTANCE.to_string(),
    };
    let started = std::time::Instant::now();
    let outcome =
        match synth::synthesise(&verilog, &opts, &mut |line| {
            eprintln!("[synth {:>5.1} s] {line}", started.elapsed().as_secs_f64())
        }) {
            Err(
                e @ (synth::SynthError::DoesNotFit { .. } | synth::SynthError::DoesNotPack { .. }),
            ) if !board => return Err(anyhow::Error::new(e).context(
                "the board with these units or memories does not fit the HX8K; `tgsi-core synth` \
                 without options builds the one that fits (every unit of the core)",
            )),
            r => r?,
        };
    let r = &outcome.report;
    let pct = |u: &synth::report::Usage| 100.0 * u.used as f64 / u.available.max(1) as f64;
    println!(
        "design: board top (shader core, on-chip loader, UART at {} baud) at {} MHz from the PLL",
        args.baud,
        synth::BOARD_CLOCK_HZ / 1_000_000
    );
    println!(
        "logic cells  {:>5} / {:<5} ({:.0}%)",
        r.logic_cells.used,
        r.logic_cells.available,
        pct(&r.logic_cells)
    );
    println!(
        "block RAMs   {:>5} / {:<5} ({:.0}%)",
        r.block_rams.used,
        r.block_rams.available,
        pct(&r.block_rams)
    );
    println!("PLLs         {:>5} / {:<5}", r.plls.used, r.plls.available);
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
    println!("I/O          {:>5} / {:<5}", r.io.used, r.io.available);
    for (name, cells) in &outcome.yosys_cells {
        println!("  {name:<12} {cells:>6}");
    }
    println!("per block (yosys cells: LUT4 + CARRY + flip-flops, synthesised alone)");
    for (name, cells) in &outcome.block_cells {
        println!("  {name:<12} {cells:>6}");
    }
    let fmax = r.fmax().context("nextpnr reported no clock")?;
    println!("Fmax         {fmax:.1} MHz (target {} MHz)", args.freq);
    println!("bitstream    {}", outcome.bitstream.display());
    println!("logs         {}", args.out.display());
    if r.logic_cells.used > r.logic_cells.available || r.block_rams.used > r.block_rams.available {
        bail!("the design does not fit the HX8K");
    }
    // The bitstream runs at the PLL's clock whatever the floor asked for.
    let clock_mhz = f64::from(synth::BOARD_CLOCK_HZ) / 1e6;
    if fmax < args.fmax_floor.max(clock_mhz) {
        bail!(
            "timing missed: {fmax:.1} MHz is below the {} MHz floor (the bitstream clocks the \
             board at {clock_mhz} MHz)",
            args.fmax_floor.max(clock_mhz)
        );
    }
    if fmax < args.freq {
        eprintln!("note: {fmax:.1} MHz is below the {} MHz target", args.freq);
    }
    Ok(ExitCode::SUCCESS)
}

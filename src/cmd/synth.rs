//! `tgsi-core synth`: the bitstream for the Alchitry Cu, with what it costs and how fast it runs.
//! By default it builds the board that fits the HX8K ([`CoreConfig::minimal`]); `--full` asks
//! for every optional unit (which does not fit: for measuring what each one costs), and the
//! `--no-*` options leave units out of either.

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
    /// Every optional unit of the core (the divider, the integer ALU, the transcendental steps,
    /// the address stack, the texture unit with 512 texels) and an 8-frame mask stack: does not
    /// fit the HX8K; the command then stops with the counts (for measuring what the units cost).
    #[arg(long, conflicts_with = "minimal")]
    pub full: bool,
    /// Leave out the divider (the host tools then compile DIV, RCP, RCC and the divisions of
    /// TXP, CUBE, RFL and ExtDivide as multiply-add sequences for the board, MOD as an integer
    /// ALU sequence).
    #[arg(long)]
    pub no_divider: bool,
    /// Leave out the integer ALU (integer operations fault MISSING_UNIT on the board).
    #[arg(long)]
    pub no_integer: bool,
    /// Leave out the transcendental step unit and its 6 block RAMs of tables (RSQ, EX2, LG2,
    /// SIN, COS, POW fault MISSING_UNIT on the board).
    #[arg(long)]
    pub no_sequencer: bool,
    /// Leave out the per-lane address stack and its 4 block RAMs (PUSHA and POPA fault
    /// MISSING_UNIT on the board).
    #[arg(long)]
    pub no_address_stack: bool,
    /// Leave out the texture unit and its texture memory (4 block RAMs; sampling faults
    /// MISSING_UNIT on the board).
    #[arg(long)]
    pub no_texture: bool,
    /// The build that fits the HX8K, which is also the default: every optional unit but the
    /// texture unit left out (the divider, the integer ALU, the transcendental steps, the
    /// address stack), 256 texels of texture memory and a 4-frame mask stack (the host tools
    /// compile for what the board's INFO reports, so `load`, `run --engine board` and
    /// `selftest` work with it unchanged).
    #[arg(long)]
    pub minimal: bool,
}

/// Runs the flow and prints the resources and the clock achieved.
pub fn run(args: SynthArgs) -> Result<ExitCode> {
    use microcode::core::config::Features;
    let mut core = if args.full {
        CoreConfig::default()
    } else {
        CoreConfig::minimal()
    };
    if args.no_divider {
        core.features &= !Features::DIVIDER;
    }
    if args.no_integer {
        core.features &= !Features::INTEGER;
    }
    if args.no_sequencer {
        core.features &= !Features::SEQUENCER;
    }
    if args.no_address_stack {
        core.features &= !Features::ADDRESS_STACK;
    }
    if args.no_texture {
        core.features &= !Features::TEXTURE;
    }
    // Whether this is already the build that fits.
    let minimal = core == CoreConfig::minimal();
    // A board built without a unit has another ISA hash; the host tools read the features from
    // INFO and compile for them (`load::board_config`), and refuse image files built for another.
    let verilog = synth::board_verilog(&core, args.baud).map_err(anyhow::Error::msg)?;
    let pcf = toolchain::workspace_root()
        .map(|r| r.join("constraints/alchitry_cu.pcf"))
        .filter(|p| p.exists())
        .context("constraints/alchitry_cu.pcf not found (run from the workspace)")?;
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
    let outcome = match synth::synthesise(&verilog, &opts, &mut |line| {
        eprintln!("[synth {:>5.1} s] {line}", started.elapsed().as_secs_f64())
    }) {
        Err(e @ (synth::SynthError::DoesNotFit { .. } | synth::SynthError::DoesNotPack { .. }))
            if !minimal =>
        {
            return Err(anyhow::Error::new(e).context(
                "the board with these units does not fit the HX8K; `tgsi-core synth` without \
                 `--full` builds the one that fits (of the optional units the texture unit)",
            ))
        }
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

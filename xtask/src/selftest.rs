//! Setup's self-test: a small design through verilator, yosys, nextpnr-ice40 and icepack, and
//! through yosys, nextpnr-ecp5 and ecppack.

use std::fs;
use std::time::Instant;

use anyhow::{bail, Context};
use toolchain::{run_logged, Lookup, Tool, ToolchainLayout};

use crate::say;

/// An LED counter for the Alchitry Cu: small, but it needs a clock, a carry chain and pins.
const DESIGN: &str = "\
// Setup self-test: the top byte of a free-running counter on the eight LEDs.
module counter (
    input  wire       clk,
    output wire [7:0] led
);
    reg [31:0] count = 32'd0;
    always @(posedge clk) count <= count + 32'd1;
    assign led = count[31:24];
endmodule
";

/// The Alchitry Cu pins of the self-test design (clock P7, LEDs 0-7).
const PINS: &str = "\
set_io clk P7
set_io led[0] J11
set_io led[1] K11
set_io led[2] K12
set_io led[3] K14
set_io led[4] L12
set_io led[5] L14
set_io led[6] M12
set_io led[7] N14
";

/// The ULX3S pins of the self-test design (the 25 MHz oscillator G2, LEDs 0-7).
const LPF: &str = "\
LOCATE COMP \"clk\" SITE \"G2\";
LOCATE COMP \"led[0]\" SITE \"B2\";
LOCATE COMP \"led[1]\" SITE \"C2\";
LOCATE COMP \"led[2]\" SITE \"C1\";
LOCATE COMP \"led[3]\" SITE \"D2\";
LOCATE COMP \"led[4]\" SITE \"D1\";
LOCATE COMP \"led[5]\" SITE \"E2\";
LOCATE COMP \"led[6]\" SITE \"E1\";
LOCATE COMP \"led[7]\" SITE \"H3\";
";

/// Runs the self-test in `layout`'s scratch directory with the tools `lookup` finds.
pub fn run(lookup: &Lookup, layout: &ToolchainLayout) -> anyhow::Result<()> {
    let dir = layout.scratch();
    fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    fs::write(dir.join("counter.v"), DESIGN).context("writing the self-test design")?;
    fs::write(dir.join("counter.pcf"), PINS).context("writing the self-test pins")?;
    fs::write(dir.join("counter.lpf"), LPF).context("writing the self-test pins")?;
    let _ = fs::remove_file(dir.join("counter.bin"));
    let _ = fs::remove_file(dir.join("counter.bit"));

    // Relative paths with the scratch directory as working directory: the yowasp tools' sandbox
    // hides the host's /tmp, so absolute paths are avoided on principle.
    let steps: [(Tool, &[&str]); 7] = [
        (Tool::Verilator, &["--lint-only", "counter.v"]),
        (
            Tool::Yosys,
            &[
                "-q",
                "-p",
                "synth_ice40 -top counter -json counter.json",
                "counter.v",
            ],
        ),
        (
            Tool::NextpnrIce40,
            &[
                "--hx8k",
                "--package",
                "cb132",
                "--pcf",
                "counter.pcf",
                "--json",
                "counter.json",
                "--asc",
                "counter.asc",
                "--freq",
                "100",
                "-q",
            ],
        ),
        (Tool::Icepack, &["counter.asc", "counter.bin"]),
        (
            Tool::Yosys,
            &[
                "-q",
                "-p",
                "synth_ecp5 -top counter -json counter-ecp5.json",
                "counter.v",
            ],
        ),
        (
            Tool::NextpnrEcp5,
            &[
                "--12k",
                "--package",
                "CABGA381",
                "--lpf",
                "counter.lpf",
                "--json",
                "counter-ecp5.json",
                "--textcfg",
                "counter.config",
                "--freq",
                "25",
                "-q",
            ],
        ),
        (Tool::Ecppack, &["counter.config", "counter.bit"]),
    ];
    for (step, (tool, args)) in steps.into_iter().enumerate() {
        let found = lookup.find(tool)?;
        let started = Instant::now();
        let log = dir.join(format!("{step}-{}.log", tool.name()));
        run_logged(found.command().args(args).current_dir(&dir), &log)?;
        say(
            "setup",
            format!(
                "self-test: {tool} {} ok ({:.1} s)",
                args.join(" "),
                started.elapsed().as_secs_f64()
            ),
        );
    }
    let size = fs::metadata(dir.join("counter.bin"))
        .map(|m| m.len())
        .unwrap_or(0);
    if size == 0 {
        bail!("self-test: icepack wrote no bitstream in {}", dir.display());
    }
    let ecp5 = fs::metadata(dir.join("counter.bit"))
        .map(|m| m.len())
        .unwrap_or(0);
    if ecp5 == 0 {
        bail!("self-test: ecppack wrote no bitstream in {}", dir.display());
    }
    say(
        "setup",
        format!("self-test: bitstreams of {size} (iCE40) and {ecp5} (ECP5) bytes written"),
    );
    Ok(())
}

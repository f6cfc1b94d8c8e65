//! Setup's self-test: a small design through verilator, yosys, nextpnr-ice40 and icepack.

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

/// Runs the self-test in `layout`'s scratch directory with the tools `lookup` finds.
pub fn run(lookup: &Lookup, layout: &ToolchainLayout) -> anyhow::Result<()> {
    let dir = layout.scratch();
    fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    fs::write(dir.join("counter.v"), DESIGN).context("writing the self-test design")?;
    fs::write(dir.join("counter.pcf"), PINS).context("writing the self-test pins")?;
    let _ = fs::remove_file(dir.join("counter.bin"));

    // Relative paths with the scratch directory as working directory: the yowasp tools' sandbox
    // hides the host's /tmp, so absolute paths are avoided on principle.
    let steps: [(Tool, &[&str]); 4] = [
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
    ];
    for (tool, args) in steps {
        let found = lookup.find(tool)?;
        let started = Instant::now();
        let log = dir.join(format!("{}.log", tool.name()));
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
    say(
        "setup",
        format!("self-test: bitstream of {size} bytes written"),
    );
    Ok(())
}

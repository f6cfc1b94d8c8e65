//! `tgsi-core accuracy [--samples N]`: worst errors of the approximated operations against their
//! bounds (`microcode::arith::accuracy_report`); fails when a bound is exceeded.

use anyhow::Result;
use clap::Args;
use microcode::arith::{accuracy_report, ErrorUnit};
use std::process::ExitCode;

/// Arguments of `accuracy`.
#[derive(Args)]
pub struct AccuracyArgs {
    /// Random inputs per operation.
    #[arg(long, default_value_t = 60_000)]
    pub samples: usize,
}

/// Prints the table; exit code 1 when any operation exceeds its bound.
pub fn run(a: AccuracyArgs) -> Result<ExitCode> {
    let rows = accuracy_report(a.samples);
    println!(
        "{:<5} {:>14} {:>14} {:<9} {:>9}  {:<6} worst at",
        "op", "worst", "bound", "unit", "samples", "result"
    );
    let mut failed = false;
    for r in &rows {
        let unit = match r.unit {
            ErrorUnit::Ulp => "ulp",
            ErrorUnit::Absolute => "absolute",
            ErrorUnit::Relative => "relative",
        };
        let ok = r.passes();
        failed |= !ok;
        let at: Vec<String> = r.at.iter().map(|b| format!("{b:#010x}")).collect();
        println!(
            "{:<5} {:>14.6e} {:>14.6e} {:<9} {:>9}  {:<6} {}",
            r.op,
            r.worst,
            r.bound,
            unit,
            r.samples,
            if ok { "ok" } else { "FAIL" },
            at.join(" ")
        );
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

//! The readable form of a run: one row per output register and lane.

use super::{format_f32, RunOutput};
use std::fmt::Write;

pub(super) fn to_table(run: &RunOutput) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "engine: {}", run.engine);
    if let Some(n) = run.instructions {
        let _ = writeln!(s, "instructions: {n}");
    }
    if let Some(n) = run.cycles {
        let _ = writeln!(s, "cycles: {n}");
    }
    if let Some(f) = &run.fault {
        let _ = writeln!(s, "fault: {f}");
    }
    for (l, lane) in run.lanes.iter().enumerate() {
        let killed = if lane.killed { "  (killed)" } else { "" };
        let _ = writeln!(s, "lane {l}{killed}");
        for (i, v) in &lane.outputs {
            let _ = writeln!(s, "  OUT[{i}] {}", row(v));
        }
        for (n, vertex) in lane.vertices.iter().enumerate() {
            let end = if vertex.primitive_end {
                "  (primitive end)"
            } else {
                ""
            };
            let _ = writeln!(s, "  vertex {n}{end}");
            for (i, v) in &vertex.outputs {
                let _ = writeln!(s, "    OUT[{i}] {}", row(v));
            }
        }
    }
    for w in &run.warnings {
        let _ = writeln!(s, "warning: {w}");
    }
    s
}

/// `( 1.0, 0.5, 0.0, 1.0)  [3f800000 3f000000 00000000 3f800000]`
fn row(v: &[u32; 4]) -> String {
    let floats: Vec<String> = v
        .iter()
        .map(|b| format!("{:>14}", format_f32(*b)))
        .collect();
    let bits: Vec<String> = v.iter().map(|b| format!("{b:08x}")).collect();
    format!("({})  [{}]", floats.join(","), bits.join(" "))
}

//! Cost and speed of each block: `cargo xtask measure [blocks|core]` (minutes of yosys and
//! nextpnr; the xtask sets the pinned toolchain up first, and a missing tool is an error).
//!
//! `blocks` prints one markdown row per block: yosys `synth_ice40` cells of the block alone,
//! nextpnr-ice40 (`--hx8k --package cb132 --freq 100 --seed 1`) logic cells, block RAMs and
//! Fmax of the block inside a wrapper (operands from a shift register fed by one pin, result
//! registered and XOR-reduced to one pin, so every output bit stays live), rust-hdl
//! direct-drive and Verilator simulation speed. `core` prints the row of the whole shader core
//! (`CoreConfig::default`) in the same wrapper. With no argument, both. The tables are in
//! `hdl/README.md` ("Measurements"). A measurement, not a test: nothing here can fail but the tools.

// The test helpers (tools, direct drive) are shared with `hdl/tests` (their module allows the
// ones the measurement does not use).
#[path = "../tests/common/mod.rs"]
mod common;

use common::sim::tick;
use common::tools::{run, scratch, tool, verilator_model, Port};
use hdl::bram::Bram;
use hdl::fadd::FAdd;
use hdl::fcmp::FCmp;
use hdl::fmul::FMul;
use rust_hdl::prelude::*;
use std::process::Command;
use std::process::ExitCode;
use std::time::Instant;
use toolchain::Tool;

/// Verilog wrapper: `inputs` bits of operands shifted in from `din`, `dout` = XOR of the
/// registered outputs.
fn wrapper(inputs: usize, connections: &str, out_width: usize) -> String {
    format!(
        "module wrap(input clk, input din, output dout);
  reg [{im}:0] sh; always @(posedge clk) sh <= {{sh[{im2}:0], din}};
  wire [{om}:0] r; reg [{om}:0] ro;
  top u(.clock(clk), {connections});
  always @(posedge clk) ro <= r;
  assign dout = ^ro;
endmodule
",
        im = inputs - 1,
        im2 = inputs - 2,
        om = out_width - 1
    )
}

fn number_after(text: &str, key: &str) -> Option<f64> {
    let at = text.find(key)? + key.len();
    let rest = text[at..].trim_start_matches([' ', ':', '"']);
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

struct Cost {
    cells: u64,
    lut: u64,
    carry: u64,
    dff: u64,
    lc: f64,
    ram: f64,
    fmax: f64,
}

fn cost(name: &str, verilog: &str, wrap: &str) -> Option<Cost> {
    tool(Tool::Yosys)?;
    let mut nextpnr = tool(Tool::NextpnrIce40)?;
    let dir = scratch(&format!("measure-{name}"));
    std::fs::write(dir.join("top.v"), verilog).expect("write top.v");
    std::fs::write(dir.join("wrap.v"), wrap).expect("write wrap.v");
    std::fs::write(
        dir.join("wrap.pcf"),
        "set_io clk P7\nset_io din P8\nset_io dout J11\n",
    )
    .expect("write pcf");
    run(
        tool(Tool::Yosys)?.current_dir(&dir).args([
            "-q",
            "-p",
            "read_verilog top.v; synth_ice40 -top top; tee -q -o stat.txt stat",
        ]),
        "yosys synth_ice40 (block)",
    );
    let stat = std::fs::read_to_string(dir.join("stat.txt")).expect("stat.txt");
    let (mut lut, mut carry, mut dff) = (0, 0, 0);
    for line in stat.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.len() == 2 && w[1].starts_with("SB_") {
            let n: u64 = w[0].parse().unwrap_or(0);
            match w[1] {
                "SB_LUT4" => lut += n,
                "SB_CARRY" => carry += n,
                x if x.starts_with("SB_DFF") => dff += n,
                _ => {}
            }
        }
    }
    run(
        tool(Tool::Yosys)?.current_dir(&dir).args([
            "-q",
            "-p",
            "read_verilog top.v wrap.v; synth_ice40 -top wrap -json wrap.json",
        ]),
        "yosys synth_ice40 (wrapper)",
    );
    // nextpnr exits non-zero when the 100 MHz target is missed; the report is still written.
    let out = nextpnr
        .current_dir(&dir)
        .args([
            "--hx8k",
            "--package",
            "cb132",
            "--pcf",
            "wrap.pcf",
            "--json",
            "wrap.json",
        ])
        .args(["--freq", "100", "--seed", "1", "--report", "report.json"])
        .output()
        .expect("start nextpnr");
    let report = std::fs::read_to_string(dir.join("report.json")).unwrap_or_else(|_| {
        panic!(
            "nextpnr wrote no report:\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let util = |cell: &str| {
        let at = report.find(&format!("\"{cell}\"")).unwrap_or(0);
        number_after(&report[at..], "\"used\"").unwrap_or(f64::NAN)
    };
    Some(Cost {
        cells: lut + carry + dff,
        lut,
        carry,
        dff,
        lc: util("ICESTORM_LC"),
        ram: util("ICESTORM_RAM"),
        fmax: number_after(&report, "\"achieved\"").unwrap_or(f64::NAN),
    })
}

fn verilator_speed(name: &str, verilog: &str, inputs: &[Port], outputs: &[Port]) -> String {
    let Some(exe) = verilator_model(name, verilog, inputs, outputs) else {
        return "-".into();
    };
    let text = run(
        Command::new(exe).args(["bench", "2000000"]),
        "verilator bench",
    );
    text.split(": ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .unwrap_or("?")
        .to_string()
}

fn row(name: &str, c: &Cost, latency: &str, rust_hz: f64, verilator_hz: &str) {
    println!(
        "| {name} | {} ({} LUT4 + {} CARRY + {} DFF) | {} | {} | {:.1} MHz | {latency} | 1/clock | {:.0}k | {verilator_hz} |",
        c.cells, c.lut, c.carry, c.dff, c.lc, c.ram, c.fmax, rust_hz / 1e3
    );
}

/// Cycles per second of direct drive over `cycles` clocks, inputs changing every clock.
fn rust_speed<B: Block>(
    uut: &mut B,
    cycles: usize,
    clock: impl Fn(&mut B) -> &mut Signal<In, Clock> + Copy,
    mut drive: impl FnMut(&mut B, usize),
) -> f64 {
    let t0 = Instant::now();
    for i in 0..cycles {
        drive(uut, i);
        tick(uut, clock);
    }
    cycles as f64 / t0.elapsed().as_secs_f64()
}

/// Ports of the Verilator harness, from (name, width) pairs.
fn ports(list: &[(&'static str, usize)]) -> Vec<Port> {
    list.iter()
        .map(|&(name, width)| Port { name, width })
        .collect()
}

/// Operand bits that change every clock (a multiplicative hash of the clock number), so that
/// the simulators do work on every cycle.
fn operand(i: usize, multiplier: u64) -> Bits<32> {
    ((i as u64).wrapping_mul(multiplier) & 0xFFFF_FFFF).into()
}

/// The table's header and one row per block.
fn measure_blocks() {
    println!("| block | yosys cells | nextpnr LCs (with wrapper) | BRAMs | Fmax | latency | throughput | rust-hdl cycles/s | Verilator cycles/s |");
    println!("|---|---|---|---|---|---|---|---|---|");
    measure_fmul();
    measure_fadd();
    measure_fcmp();
    measure_bram();
}

fn measure_fmul() {
    let mut fmul = FMul::default();
    fmul.connect_all();
    let v = generate_verilog(&fmul);
    let w = wrapper(64, ".a(sh[31:0]), .b(sh[63:32]), .result(r)", 32);
    let hz = rust_speed(
        &mut fmul,
        50_000,
        |u| &mut u.clock,
        |u, i| {
            u.a.next = operand(i, 0x9E37_79B9);
            u.b.next = operand(i, 0x85EB_CA6B);
        },
    );
    if let Some(c) = cost("fmul", &v, &w) {
        let ins = ports(&[("a", 32), ("b", 32)]);
        let speed = verilator_speed("fmul", &v, &ins, &ports(&[("result", 32)]));
        row("FMul", &c, "5", hz, &speed);
    }
}

fn measure_fadd() {
    let mut fadd = FAdd::default();
    fadd.connect_all();
    let v = generate_verilog(&fadd);
    let w = wrapper(
        70,
        ".a(sh[31:0]), .b(sh[63:32]), .sub(sh[64]), .op(sh[67:65]), .round(sh[69:68]), .result(r)",
        32,
    );
    let hz = rust_speed(
        &mut fadd,
        50_000,
        |u| &mut u.clock,
        |u, i| {
            u.a.next = operand(i, 0x9E37_79B9);
            u.b.next = operand(i, 0x85EB_CA6B);
            u.sub.next = i & 1 == 1;
        },
    );
    if let Some(c) = cost("fadd", &v, &w) {
        let ins = ports(&[("a", 32), ("b", 32), ("sub", 1)]);
        let speed = verilator_speed("fadd", &v, &ins, &ports(&[("result", 32)]));
        row("FAdd", &c, "5", hz, &speed);
    }
}

fn measure_fcmp() {
    let mut fcmp = FCmp::default();
    fcmp.connect_all();
    let v = generate_verilog(&fcmp);
    let w = "module wrap(input clk, input din, output dout);
  reg [63:0] sh; always @(posedge clk) sh <= {sh[62:0], din};
  reg [63:0] sh1; always @(posedge clk) sh1 <= sh;
  wire lt, eq, gt, un; wire [31:0] pk; reg [35:0] ro;
  top u(.clock(clk), .a(sh[31:0]), .b(sh[63:32]), .a1(sh1[31:0]), .b1(sh1[63:32]), .mode(sh1[1:0]), .lt(lt), .eq(eq), .gt(gt), .unordered(un), .pick(pk));
  always @(posedge clk) ro <= {lt, eq, gt, un, pk};
  assign dout = ^ro;
endmodule
";
    let hz = rust_speed(
        &mut fcmp,
        200_000,
        |u| &mut u.clock,
        |u, i| {
            u.a.next = operand(i, 0x9E37_79B9);
            u.b.next = operand(i, 0x85EB_CA6B);
        },
    );
    if let Some(c) = cost("fcmp", &v, w) {
        let ins = ports(&[("a", 32), ("b", 32)]);
        let outs = ports(&[
            ("lt", 1),
            ("eq", 1),
            ("gt", 1),
            ("unordered", 1),
            ("pick", 32),
        ]);
        let speed = verilator_speed("fcmp", &v, &ins, &outs);
        row("FCmp", &c, "1", hz, &speed);
    }
}

fn measure_bram() {
    let mut bram = Bram::<16, 8>::default();
    bram.connect_all();
    let v = generate_verilog(&bram);
    let w = wrapper(
        33,
        ".we(sh[0]), .wa(sh[8:1]), .wd(sh[24:9]), .ra(sh[32:25]), .rd(r)",
        16,
    );
    let hz = rust_speed(
        &mut bram,
        200_000,
        |u| &mut u.clock,
        |u, i| {
            u.we.next = i & 1 == 1;
            u.wa.next = ((i as u64 * 7) & 255).into();
            u.wd.next = ((i as u64 * 31) & 0xFFFF).into();
            u.ra.next = ((i as u64 * 13 + 1) & 255).into();
        },
    );
    if let Some(c) = cost("bram", &v, &w) {
        let ins = ports(&[("we", 1), ("wa", 8), ("wd", 16), ("ra", 8)]);
        let speed = verilator_speed("bram", &v, &ins, &ports(&[("rd", 16)]));
        row("Bram<16, 8>", &c, "1 (read)", hz, &speed);
    }
}

/// The whole shader core inside the measuring wrapper: host-port inputs from the shift register,
/// every output XOR-reduced to one pin.
fn measure_shader_core() {
    use hdl::shader_core::ShaderCore;
    let mut core = ShaderCore::new(&microcode::core::CoreConfig::default());
    core.connect_all();
    let v = generate_verilog(&core);
    let w = wrapper(
        84,
        ".host$addr(sh[15:0]), .host$wdata(sh[47:16]), .host$we(sh[48]), .host$clear(sh[49]), \
         .host$start(sh[50]), .host$budget(sh[82:51]), \
         .host$rdata(r[31:0]), .host$busy(r[32]), .host$done(r[33]), .host$fault(r[37:34]), .host$killed(r[41:38]), \
         .host$cycles(r[73:42])",
        74,
    );
    let Some(c) = cost("shader_core", &v, &w) else {
        return;
    };
    println!(
        "| ShaderCore | {} ({} LUT4, {} carry, {} FF) | {} | {} | {:.1} MHz |",
        c.cells, c.lut, c.carry, c.dff, c.lc, c.ram, c.fmax
    );
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (blocks, core) = match args.as_slice() {
        [] => (true, true),
        [what] if what == "blocks" => (true, false),
        [what] if what == "core" => (false, true),
        _ => {
            eprintln!("usage: measure [blocks|core]");
            return ExitCode::from(2);
        }
    };
    if blocks {
        measure_blocks();
    }
    if core {
        measure_shader_core();
    }
    ExitCode::SUCCESS
}

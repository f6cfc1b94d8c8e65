//! The ECP5 cell models the netlist engine simulates with (`sim/src/hardware/ecp5_models.v`)
//! against the Verilog they were mapped from: memories of every width yosys's ECP5 block RAM
//! mapping has (1, 2, 4, 9, 18 and the 36-bit pseudo dual-port, with byte enables), initialised
//! and written at random while read at random, and multipliers (unsigned, signed, and 24x24 split
//! over several MULT18X18D as the ECP5 float multiplier's product is), through `synth_ecp5` and
//! Verilator next to the same RTL under Verilator, clock for clock. A model that lays out
//! INITVAL, an address bit or a byte enable differently from yosys's mapping fails here.

use microcode::board::Family;
use sim::hardware::emulate::synthesised_netlist_for;
use sim::hardware::verilator::build_verilated;

/// The memories and multipliers, as module `top` (the name `synthesised_netlist_for` maps).
const RTL: &str = r#"
module top(input clk, input [13:0] ra, input [13:0] wa, input [35:0] wd, input [7:0] we,
           input [3:0] be, input [35:0] ma, input [35:0] mb, output [237:0] q);
  reg [0:0] m1 [0:16383];  reg [0:0] q1;
  reg [1:0] m2 [0:8191];   reg [1:0] q2;
  reg [3:0] m4 [0:4095];   reg [3:0] q4;
  reg [8:0] m9 [0:2047];   reg [8:0] q9;
  reg [17:0] m18 [0:1023]; reg [17:0] q18;
  reg [31:0] m32 [0:511];  reg [31:0] q32;
  reg [35:0] m36 [0:511];  reg [35:0] q36;
  reg [15:0] rom [0:1023]; reg [15:0] qr;
  reg [35:0] pu; reg [35:0] ps; reg [47:0] p24;
  integer i;
  initial begin
    for (i = 0; i < 16384; i = i + 1) m1[i] = i[3] ^ i[0];
    for (i = 0; i < 8192; i = i + 1) m2[i] = i * 3;
    for (i = 0; i < 4096; i = i + 1) m4[i] = i * 5 + 1;
    for (i = 0; i < 2048; i = i + 1) m9[i] = i * 37 + 11;
    for (i = 0; i < 1024; i = i + 1) m18[i] = i * 1237 + 5;
    for (i = 0; i < 512; i = i + 1) m32[i] = i * 32'h01234567 + 32'h89ABCDEF;
    for (i = 0; i < 512; i = i + 1) m36[i] = {i[3:0], i * 32'h7654321 + 32'h13579BDF};
    for (i = 0; i < 1024; i = i + 1) rom[i] = i * 16'h9E37 + 16'h7F4A;
  end
  // One process reads and writes (the read sees the old word).
  always @(posedge clk) begin
    if (we[0]) m1[wa] <= wd[0];
    q1 <= m1[ra];
    if (we[1]) m2[wa[12:0]] <= wd[1:0];
    q2 <= m2[ra[12:0]];
    if (we[2]) m4[wa[11:0]] <= wd[3:0];
    q4 <= m4[ra[11:0]];
    if (we[3]) m9[wa[10:0]] <= wd[8:0];
    q9 <= m9[ra[10:0]];
    // 8-bit byte enables.
    if (we[5]) begin
      if (be[0]) m32[wa[8:0]][7:0] <= wd[7:0];
      if (be[1]) m32[wa[8:0]][15:8] <= wd[15:8];
      if (be[2]) m32[wa[8:0]][23:16] <= wd[23:16];
      if (be[3]) m32[wa[8:0]][31:24] <= wd[31:24];
    end
    q32 <= m32[ra[8:0]];
    qr <= rom[ra[9:0]];
    pu <= ma[17:0] * mb[17:0];
    ps <= $signed(ma[35:18]) * $signed(mb[35:18]);
    p24 <= ma[23:0] * mb[23:0];
  end
  // The shape rust-hdl writes: the write and the read in processes of their own.
  always @(posedge clk) if (we[4]) m18[wa[9:0]] <= wd[17:0];
  always @(posedge clk) q18 <= m18[ra[9:0]];
  always @(posedge clk) if (we[6]) m36[wa[8:0]] <= wd;
  always @(posedge clk) q36 <= m36[ra[8:0]];
  assign q = {p24, ps, pu, qr, q36, q32, q18, q9, q4, q2, q1};
endmodule
"#;

/// Both under one clock: the RTL (`mems_rtl`) and the netlist with the models (`mems_net`).
const PAIR: &str = r#"
module top(input clk, input [13:0] ra, input [13:0] wa, input [35:0] wd, input [7:0] we,
           input [3:0] be, input [35:0] ma, input [35:0] mb, output same, output [237:0] q);
  wire [237:0] q_net;
  mems_rtl r(.clk(clk), .ra(ra), .wa(wa), .wd(wd), .we(we), .be(be), .ma(ma), .mb(mb), .q(q));
  mems_net n(.clk(clk), .ra(ra), .wa(wa), .wd(wd), .we(we), .be(be), .ma(ma), .mb(mb), .q(q_net));
  assign same = q == q_net;
endmodule
"#;

/// Random inputs each clock (xorshift), the outputs compared after each edge; prints
/// `mismatches N first C` (C the first clock that differed, or -1).
const HARNESS: &str = r#"
#include "Vtop.h"
#include "verilated.h"
#include <cstdio>
#include <cstdint>
static uint64_t s = 0x9E3779B97F4A7C15ull;
static uint64_t next() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; }
int main() {
  VerilatedContext* ctx = new VerilatedContext;
  Vtop* t = new Vtop{ctx};
  long mismatches = 0, first = -1;
  for (long c = 0; c < 40000; c++) {
    uint64_t r = next();
    // Reads near recent writes half of the time, so collisions and written words are read.
    t->ra = (c & 1) ? (r & 0x3FFF) : (t->wa ^ (r & 3));
    t->wa = (r >> 14) & 0x3FFF;
    t->wd = next() & 0xFFFFFFFFFull;
    t->we = (c < 256) ? 0 : (r >> 28) & 0xFF;
    t->be = (r >> 36) & 0xF;
    t->ma = next() & 0xFFFFFFFFFull;
    t->mb = next() & 0xFFFFFFFFFull;
    t->clk = 1; t->eval(); t->clk = 0; t->eval();
    if (!t->same) { if (first < 0) first = c; mismatches++; }
  }
  printf("mismatches %ld first %ld\n", mismatches, first);
  delete t; delete ctx;
  return 0;
}
"#;

#[test]
fn the_ecp5_cell_models_run_a_netlist_like_its_rtl() {
    let mut progress = |m: &str| eprintln!("{m}");
    let netlist = synthesised_netlist_for(RTL, Family::Ecp5, &mut progress)
        .expect("yosys maps the memories (`cargo xtask setup` installs it)");
    // What the test is about: the mapping used the blocks the models describe.
    for cell in ["DP16KD", "MULT18X18D"] {
        assert!(
            netlist.matches(&format!("\n  {cell} ")).count() >= 2,
            "yosys mapped no (or one) {cell}: the test no longer covers its model"
        );
    }
    assert!(
        netlist.contains(".DATA_WIDTH_A(32'd36)"),
        "no 36-bit pseudo dual-port block RAM in the netlist"
    );
    let design = format!(
        "{}\n{}\n{PAIR}",
        RTL.replacen("module top(", "module mems_rtl(", 1),
        netlist.replacen("module top(", "module mems_net(", 1)
    );
    let exe = build_verilated(
        "ecp5-models",
        &design,
        HARNESS,
        false,
        &["--no-timing", "-Wno-lint", "-Wno-style"],
        &mut progress,
    )
    .expect("Verilator builds the pair");
    let out = std::process::Command::new(&exe).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(text.trim(), "mismatches 0 first -1");
}

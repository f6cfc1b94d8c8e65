// Simulation models of the two ECP5 hard blocks the board build maps to, for the netlist engine
// (`emulate --board ulx3s-* --engine netlist`). yosys's ECP5 library declares both without a
// behaviour: DP16KD is a parameter-only blackbox in ecp5/cells_sim.v and MULT18X18D is in
// cells_bb.v. sim/src/hardware/emulate.rs drops yosys's DP16KD and appends these.
//
// What they model is exactly what yosys's mapping relies on (yosys techlibs/lattice:
// brams_16kd.txt, brams_map_16kd.v and dsp_map_18x18.v), so that a netlist behaves as its RTL:
//
// DP16KD: 18 Kbit as 1024 words of 18 bits, loaded from INITVAL_00..3F (word w in bits
// [20*(w%16) +: 18] of INITVAL_{w/16}). A port of width W takes the 14-bit address ADx13..0:
//   W = 36 (the pseudo dual-port PDPW16KD yosys builds from port A writing, port B reading):
//        words 2*a[13:5] (DIA / DOA) and 2*a[13:5]+1 (DIB / DOB); a write's 9-bit byte enables
//        on ADA0..ADA3;
//   W = 18: word a[13:4]; a write's byte enables on ADx0 (bits 8:0) and ADx1 (bits 17:9);
//   W = 9, 4, 2, 1: word a[13:4], bits from offset a[3]*9 + a[2]*4 + a[1]*2 + a[0], counting
//        only the address bits at and above the width's own (yosys memory_libmap's swizzle: a
//        9-bit half holds two 4-bit quarters and a parity bit).
// Reads are synchronous (REGMODE NOREG): on the clock edge with CE, the output takes the word,
// or during a write on the same port keeps its value (WRITEMODE NORMAL), takes the new data
// (WRITETHROUGH) or the old (READBEFOREWRITE). RST clears the output: at the edge, before CE
// (RESETMODE SYNC), or at once (ASYNC). CLKxMUX "INV" clocks the port on the falling edge. The chip
// selects are tied off by yosys (CSDECODE 0b000) and OCE is a no-op without output registers.
module DP16KD(
  input DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9, DIA8, DIA7, DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0,
  input ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3, ADA2, ADA1, ADA0,
  input CEA, OCEA, CLKA, WEA, RSTA,
  input CSA2, CSA1, CSA0,
  output DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0,
  input DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9, DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0,
  input ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3, ADB2, ADB1, ADB0,
  input CEB, OCEB, CLKB, WEB, RSTB,
  input CSB2, CSB1, CSB0,
  output DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0
);
  parameter DATA_WIDTH_A = 18;
  parameter DATA_WIDTH_B = 18;
  parameter REGMODE_A = "NOREG";
  parameter REGMODE_B = "NOREG";
  parameter RESETMODE = "SYNC";
  parameter ASYNC_RESET_RELEASE = "SYNC";
  parameter CSDECODE_A = "0b000";
  parameter CSDECODE_B = "0b000";
  parameter WRITEMODE_A = "NORMAL";
  parameter WRITEMODE_B = "NORMAL";
  parameter CLKAMUX = "CLKA";
  parameter CLKBMUX = "CLKB";
  parameter GSR = "ENABLED";
  parameter WID = 0;
  parameter INIT_DATA = "STATIC";
  parameter [319:0] INITVAL_00 = 320'h0; parameter [319:0] INITVAL_01 = 320'h0;
  parameter [319:0] INITVAL_02 = 320'h0; parameter [319:0] INITVAL_03 = 320'h0;
  parameter [319:0] INITVAL_04 = 320'h0; parameter [319:0] INITVAL_05 = 320'h0;
  parameter [319:0] INITVAL_06 = 320'h0; parameter [319:0] INITVAL_07 = 320'h0;
  parameter [319:0] INITVAL_08 = 320'h0; parameter [319:0] INITVAL_09 = 320'h0;
  parameter [319:0] INITVAL_0A = 320'h0; parameter [319:0] INITVAL_0B = 320'h0;
  parameter [319:0] INITVAL_0C = 320'h0; parameter [319:0] INITVAL_0D = 320'h0;
  parameter [319:0] INITVAL_0E = 320'h0; parameter [319:0] INITVAL_0F = 320'h0;
  parameter [319:0] INITVAL_10 = 320'h0; parameter [319:0] INITVAL_11 = 320'h0;
  parameter [319:0] INITVAL_12 = 320'h0; parameter [319:0] INITVAL_13 = 320'h0;
  parameter [319:0] INITVAL_14 = 320'h0; parameter [319:0] INITVAL_15 = 320'h0;
  parameter [319:0] INITVAL_16 = 320'h0; parameter [319:0] INITVAL_17 = 320'h0;
  parameter [319:0] INITVAL_18 = 320'h0; parameter [319:0] INITVAL_19 = 320'h0;
  parameter [319:0] INITVAL_1A = 320'h0; parameter [319:0] INITVAL_1B = 320'h0;
  parameter [319:0] INITVAL_1C = 320'h0; parameter [319:0] INITVAL_1D = 320'h0;
  parameter [319:0] INITVAL_1E = 320'h0; parameter [319:0] INITVAL_1F = 320'h0;
  parameter [319:0] INITVAL_20 = 320'h0; parameter [319:0] INITVAL_21 = 320'h0;
  parameter [319:0] INITVAL_22 = 320'h0; parameter [319:0] INITVAL_23 = 320'h0;
  parameter [319:0] INITVAL_24 = 320'h0; parameter [319:0] INITVAL_25 = 320'h0;
  parameter [319:0] INITVAL_26 = 320'h0; parameter [319:0] INITVAL_27 = 320'h0;
  parameter [319:0] INITVAL_28 = 320'h0; parameter [319:0] INITVAL_29 = 320'h0;
  parameter [319:0] INITVAL_2A = 320'h0; parameter [319:0] INITVAL_2B = 320'h0;
  parameter [319:0] INITVAL_2C = 320'h0; parameter [319:0] INITVAL_2D = 320'h0;
  parameter [319:0] INITVAL_2E = 320'h0; parameter [319:0] INITVAL_2F = 320'h0;
  parameter [319:0] INITVAL_30 = 320'h0; parameter [319:0] INITVAL_31 = 320'h0;
  parameter [319:0] INITVAL_32 = 320'h0; parameter [319:0] INITVAL_33 = 320'h0;
  parameter [319:0] INITVAL_34 = 320'h0; parameter [319:0] INITVAL_35 = 320'h0;
  parameter [319:0] INITVAL_36 = 320'h0; parameter [319:0] INITVAL_37 = 320'h0;
  parameter [319:0] INITVAL_38 = 320'h0; parameter [319:0] INITVAL_39 = 320'h0;
  parameter [319:0] INITVAL_3A = 320'h0; parameter [319:0] INITVAL_3B = 320'h0;
  parameter [319:0] INITVAL_3C = 320'h0; parameter [319:0] INITVAL_3D = 320'h0;
  parameter [319:0] INITVAL_3E = 320'h0; parameter [319:0] INITVAL_3F = 320'h0;

  localparam [20479:0] INITVAL = {
    INITVAL_3F, INITVAL_3E, INITVAL_3D, INITVAL_3C, INITVAL_3B, INITVAL_3A, INITVAL_39, INITVAL_38,
    INITVAL_37, INITVAL_36, INITVAL_35, INITVAL_34, INITVAL_33, INITVAL_32, INITVAL_31, INITVAL_30,
    INITVAL_2F, INITVAL_2E, INITVAL_2D, INITVAL_2C, INITVAL_2B, INITVAL_2A, INITVAL_29, INITVAL_28,
    INITVAL_27, INITVAL_26, INITVAL_25, INITVAL_24, INITVAL_23, INITVAL_22, INITVAL_21, INITVAL_20,
    INITVAL_1F, INITVAL_1E, INITVAL_1D, INITVAL_1C, INITVAL_1B, INITVAL_1A, INITVAL_19, INITVAL_18,
    INITVAL_17, INITVAL_16, INITVAL_15, INITVAL_14, INITVAL_13, INITVAL_12, INITVAL_11, INITVAL_10,
    INITVAL_0F, INITVAL_0E, INITVAL_0D, INITVAL_0C, INITVAL_0B, INITVAL_0A, INITVAL_09, INITVAL_08,
    INITVAL_07, INITVAL_06, INITVAL_05, INITVAL_04, INITVAL_03, INITVAL_02, INITVAL_01, INITVAL_00};

  reg [17:0] mem [0:1023];
  integer w;
  initial begin
    for (w = 0; w < 1024; w = w + 1)
      mem[w] = INITVAL[w * 20 +: 18];
  end

  wire [17:0] dia = {DIA17, DIA16, DIA15, DIA14, DIA13, DIA12, DIA11, DIA10, DIA9, DIA8, DIA7, DIA6, DIA5, DIA4, DIA3, DIA2, DIA1, DIA0};
  wire [17:0] dib = {DIB17, DIB16, DIB15, DIB14, DIB13, DIB12, DIB11, DIB10, DIB9, DIB8, DIB7, DIB6, DIB5, DIB4, DIB3, DIB2, DIB1, DIB0};
  wire [13:0] ada = {ADA13, ADA12, ADA11, ADA10, ADA9, ADA8, ADA7, ADA6, ADA5, ADA4, ADA3, ADA2, ADA1, ADA0};
  wire [13:0] adb = {ADB13, ADB12, ADB11, ADB10, ADB9, ADB8, ADB7, ADB6, ADB5, ADB4, ADB3, ADB2, ADB1, ADB0};
  wire clka = CLKAMUX == "INV" ? ~CLKA : CLKA;
  wire clkb = CLKBMUX == "INV" ? ~CLKB : CLKB;

  // The first bit a narrow port of width `width` reaches in its 18-bit word.
  function automatic integer offset(input [13:0] a, input integer width);
    offset = 0;
    if (width <= 9 && a[3]) offset = offset + 9;
    if (width <= 4 && a[2]) offset = offset + 4;
    if (width <= 2 && a[1]) offset = offset + 2;
    if (width <= 1 && a[0]) offset = offset + 1;
  endfunction

  // `word` with the 9-bit bytes that `be` enables replaced by `data`'s.
  function automatic [17:0] bytes(input [17:0] word, input [1:0] be, input [17:0] data);
    bytes = {be[1] ? data[17:9] : word[17:9], be[0] ? data[8:0] : word[8:0]};
  endfunction

  // The 18-bit word at `a` after a port of width `width` (18 or narrower) writes `data` there.
  function automatic [17:0] merged(input [17:0] word, input [13:0] a, input integer width,
                                   input [17:0] data);
    integer k;
    if (width == 18) begin
      merged = bytes(word, a[1:0], data);
    end else begin
      merged = word;
      for (k = 0; k < width; k = k + 1)
        merged[offset(a, width) + k] = data[k];
    end
  endfunction

  // What a port of width `width` (18 or narrower) reads at `a` of `word`.
  function automatic [35:0] extract(input [17:0] word, input [13:0] a, input integer width);
    integer k;
    extract = 36'h0;
    for (k = 0; k < width; k = k + 1)
      extract[k] = word[offset(a, width) + k];
  endfunction

  // The read of one port: 36 bits from two words, else the port's bits of one word.
  function automatic [35:0] read(input [13:0] a, input integer width);
    if (width == 36) read = {mem[{a[13:5], 1'b1}], mem[{a[13:5], 1'b0}]};
    else read = extract(mem[a[13:4]], a, width);
  endfunction

  // Writes are non-blocking so that a read on the other port in the same clock sees the old
  // word, as the RTL's memories (a read register and a write process) do.
  reg [35:0] qa = 36'h0;
  reg [35:0] qb = 36'h0;
  wire [13:0] wa_lo = {ada[13:5], 5'b0};
  wire [13:0] wa_hi = {ada[13:5], 5'b10000};
  wire [35:0] wide_new = {bytes(mem[wa_hi[13:4]], ada[3:2], dib), bytes(mem[wa_lo[13:4]], ada[1:0], dia)};
  wire [17:0] a_new = merged(mem[ada[13:4]], ada, DATA_WIDTH_A, dia);
  wire [17:0] b_new = merged(mem[adb[13:4]], adb, DATA_WIDTH_B, dib);

  // RESETMODE ASYNC: RST clears the output at once, not only at an edge.
  wire arsta = RESETMODE == "ASYNC" && RSTA;
  wire arstb = RESETMODE == "ASYNC" && RSTB;

  /* verilator lint_off MULTIDRIVEN */
  always @(posedge clka or posedge arsta) begin
    if (RSTA) begin
      qa <= 36'h0;
    end else if (CEA) begin
      if (WEA) begin
        if (DATA_WIDTH_A == 36) begin
          mem[wa_lo[13:4]] <= wide_new[17:0];
          mem[wa_hi[13:4]] <= wide_new[35:18];
        end else begin
          mem[ada[13:4]] <= a_new;
        end
        if (WRITEMODE_A == "WRITETHROUGH")
          qa <= DATA_WIDTH_A == 36 ? wide_new : extract(a_new, ada, DATA_WIDTH_A);
        else if (WRITEMODE_A == "READBEFOREWRITE")
          qa <= read(ada, DATA_WIDTH_A);
      end else begin
        qa <= read(ada, DATA_WIDTH_A);
      end
    end
  end

  // Port B never writes as the read half of a pseudo dual-port (yosys ties WEB low then).
  always @(posedge clkb or posedge arstb) begin
    if (RSTB) begin
      qb <= 36'h0;
    end else if (CEB) begin
      if (WEB && DATA_WIDTH_B != 36) begin
        mem[adb[13:4]] <= b_new;
        if (WRITEMODE_B == "WRITETHROUGH") qb <= extract(b_new, adb, DATA_WIDTH_B);
        else if (WRITEMODE_B == "READBEFOREWRITE") qb <= read(adb, DATA_WIDTH_B);
      end else begin
        qb <= read(adb, DATA_WIDTH_B);
      end
    end
  end
  /* verilator lint_on MULTIDRIVEN */

  // yosys maps no output register (brams_map_16kd.v: NOREG); a netlist that has one is not
  // what this model describes, and is refused rather than simulated a clock early.
  initial begin
    if (REGMODE_A != "NOREG" || REGMODE_B != "NOREG") $fatal(1, "DP16KD model: output registers are not modelled");
  end

  // A 36-bit read comes out on both ports' pins; otherwise each port drives its own.
  wire [17:0] doa = DATA_WIDTH_B == 36 ? qb[17:0] : qa[17:0];
  wire [17:0] dob = DATA_WIDTH_B == 36 ? qb[35:18] : qb[17:0];
  assign {DOA17, DOA16, DOA15, DOA14, DOA13, DOA12, DOA11, DOA10, DOA9, DOA8, DOA7, DOA6, DOA5, DOA4, DOA3, DOA2, DOA1, DOA0} = doa;
  assign {DOB17, DOB16, DOB15, DOB14, DOB13, DOB12, DOB11, DOB10, DOB9, DOB8, DOB7, DOB6, DOB5, DOB4, DOB3, DOB2, DOB1, DOB0} = dob;
endmodule

// MULT18X18D as yosys's dsp_map_18x18.v uses it: no input, pipeline or output registers (the
// REG_* parameters at "NONE"), C unused, so P is the 36-bit product of A and B, each signed
// when its SIGNEDx pin is high.
module MULT18X18D(
  input A17, A16, A15, A14, A13, A12, A11, A10, A9, A8, A7, A6, A5, A4, A3, A2, A1, A0,
  input B17, B16, B15, B14, B13, B12, B11, B10, B9, B8, B7, B6, B5, B4, B3, B2, B1, B0,
  input C17, C16, C15, C14, C13, C12, C11, C10, C9, C8, C7, C6, C5, C4, C3, C2, C1, C0,
  input SIGNEDA, SIGNEDB, SOURCEA, SOURCEB,
  output P35, P34, P33, P32, P31, P30, P29, P28, P27, P26, P25, P24, P23, P22, P21, P20, P19, P18,
  output P17, P16, P15, P14, P13, P12, P11, P10, P9, P8, P7, P6, P5, P4, P3, P2, P1, P0
);
  parameter REG_INPUTA_CLK = "NONE";
  parameter REG_INPUTB_CLK = "NONE";
  parameter REG_INPUTC_CLK = "NONE";
  parameter REG_PIPELINE_CLK = "NONE";
  parameter REG_OUTPUT_CLK = "NONE";
  parameter GSR = "ENABLED";
  parameter SOURCEB_MODE = "B_SHIFT";
  parameter MULT_BYPASS = "DISABLED";
  parameter RESETMODE = "SYNC";
  parameter CLK0_DIV = "ENABLED";
  parameter CLK1_DIV = "ENABLED";
  parameter CLK2_DIV = "ENABLED";
  parameter CLK3_DIV = "ENABLED";

  wire [17:0] a = {A17, A16, A15, A14, A13, A12, A11, A10, A9, A8, A7, A6, A5, A4, A3, A2, A1, A0};
  wire [17:0] b = {B17, B16, B15, B14, B13, B12, B11, B10, B9, B8, B7, B6, B5, B4, B3, B2, B1, B0};
  wire signed [18:0] sa = {SIGNEDA & a[17], a};
  wire signed [18:0] sb = {SIGNEDB & b[17], b};
  wire signed [37:0] p = sa * sb;
  assign {P35, P34, P33, P32, P31, P30, P29, P28, P27, P26, P25, P24, P23, P22, P21, P20, P19, P18,
          P17, P16, P15, P14, P13, P12, P11, P10, P9, P8, P7, P6, P5, P4, P3, P2, P1, P0} = p[35:0];
endmodule

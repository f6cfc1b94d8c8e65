//! Every proof: the unit, how many clock edges it spans, the SMT-LIB2 query (in `formal/smt/`),
//! what it proves and assumes, whether CI runs it, and its planted bug.
use crate::run::Flow;
use crate::units::Unit;

/// A bug planted in the emitted Verilog for a proof's mutation check: the proof must find it.
#[derive(Copy, Clone, Debug)]
pub struct Mutation {
    /// What the bug breaks.
    pub what: &'static str,
    /// Verilog text that occurs exactly once in the unit ...
    pub find: &'static str,
    /// ... and what it becomes.
    pub replace: &'static str,
}

/// One property of one unit, decided by the solver (unsat = proven for every input).
#[derive(Copy, Clone, Debug)]
pub struct Proof {
    /// Name on the command line (`cargo xtask formal NAME`).
    pub name: &'static str,
    /// The unit.
    pub unit: Unit,
    /// What is proven, against what.
    pub claim: &'static str,
    /// What the proof takes for granted (constraints on the inputs, trusted parts).
    pub assumes: &'static str,
    /// Clock edges from the inputs (state `s0`) to the last state the query reads.
    pub depth: usize,
    /// The query's parts, in order (each asserts the negation of the property).
    pub query: &'static [&'static str],
    /// Terms printed with a counterexample.
    pub show: &'static [&'static str],
    /// How yosys models the unit.
    pub flow: Flow,
    /// Start from the reset state (every register at its initial value; memories still free)
    /// instead of any state.
    pub from_reset: bool,
    /// SMT-LIB2 written once per clock edge after the query, `{i}` the state before it and
    /// `{j}` the one after (j = 1..=depth; `{last}` is `true` for the last), defining `ok{j}`; the proof
    /// is then that every `ok{j}` holds. Empty for none (the query asserts the negated
    /// property itself).
    pub steps: &'static str,
    /// Yosys commands just before `write_smt2` (e.g. cut points), each ending in `;`.
    pub yosys: &'static str,
    /// The planted bug of the mutation check.
    pub mutation: Mutation,
    /// Whether the default test suite (CI) and a plain `cargo xtask formal` run it; the
    /// others are the long run (`--all`, or by name).
    pub ci: bool,
    /// The solver's time limit in seconds (`None`: none); a proof that runs out is reported
    /// undecided, not proven.
    pub time_limit: Option<u32>,
}

const FADD: &str = include_str!("../smt/fadd.smt2");
const FADD_SHOW: &[&str] = &["A", "B", "SUB", "OP", "ROUND", "RESULT"];
const FMUL: &str = include_str!("../smt/fmul.smt2");
/// Clocks core-stop spans: the stop, then the drain (`core_stop.smt2` names states s0..s14:
/// `formal/tests/proofs.rs` checks the drain is still 13 clocks).
const STOP_DEPTH: usize = hdl::sequencer::DRAIN_CLOCKS as usize + 1;
/// frame-crc's clock edge: the bytes-apart assumption, the reference CRC register over the
/// bytes written to the frame buffer (restarted at address 0), and the check at each verdict.
const FRAME_CRC_STEP: &str = "\
(assert (=> (|top_n valid| s{i}) (not (|top_n crc_busy| s{i}))))
(define-fun R{j} () (_ BitVec 32)
  (ite (|top_n we| s{i})
       (crc_byte (ite (= (|top_n wa| s{i}) #b000000000) #xffffffff R{i}) (|top_n wd| s{i}))
       R{i}))
(define-fun ok{j} () Bool
  (=> (and (|top_n closed| s{j}) (distinct (|top_n body_len| s{j}) #b000000000))
      (= R{j} CRC32_RESIDUE)))
";
const CORE: &str = include_str!("../smt/core.smt2");
const LOADER: &str = include_str!("../smt/loader.smt2");
const LOADER_ANSWER: &str = include_str!("../smt/loader_answer.smt2");
/// loader-write's clock edge: the inputs; until the firmware executes `nak` with a reason
/// (`N`), the core left alone, no byte sent, the loader memory written only in the
/// variables; by the last clock it has.
const LOADER_WRITE_STEP: &str = "\
(assert (ldr_inputs s{i}))
(define-fun N{j} () Bool (or N{i} (ldr_at_nak s{i})))
(define-fun ok{j} () Bool
  (and (=> (not N{i}) (and (ldr_core_quiet s{i}) (not (|top_n txv.q| s{j}))
                           (ldr_writes_within s{i} LDR_VARS_BASE LDR_VARS_END)))
       (=> {last} N{j})))
";
/// loader-drop's clock edge: the inputs, the loader touching nothing but the counter, and
/// the counter's value once the firmware waits again.
const LOADER_DROP_STEP: &str = "\
(assert (ldr_inputs s{i}))
(define-fun ok{j} () Bool
  (and (ldr_core_quiet s{i}) (ldr_writes_within s{i} LDR_BADF (bvadd LDR_BADF #b00000000100))
       (not (|top_n txv.q| s{j}))
       (= (|top_n led_ld.q| s{j}) (|top_n led_ld.q| s0))
       (= (|top_n led_fault.q| s{j}) (|top_n led_fault.q| s0))
       (=> {last} (ldr_drop_done s{j}))))
";
/// loader-info's and loader-status's clock edge: the inputs, the wire bytes counted (`W`)
/// and checked up to the result byte, nothing written; by the last clock the result byte is
/// out.
const LOADER_ANSWER_STEP: &str = "\
(assert (ldr_inputs s{i}))
(define-fun W{j} () (_ BitVec 8) (ite (|top_n tx_valid| s{i}) (bvadd W{i} #x01) W{i}))
(define-fun ok{j} () Bool
  (and (ldr_core_quiet s{i}) (not (|top_n mem.we| s{i}))
       (=> (and (|top_n tx_valid| s{i}) (bvult W{i} ldr_head_bytes))
           (= (|top_n tx_data| s{i}) (ldr_head W{i} ldr_len ldr_cmd)))
       (=> {last} (bvuge W{j} ldr_head_bytes))))
";
const MISC: &str = include_str!("../smt/misc.smt2");
const MISC_SHOW: &[&str] = &[
    "A",
    "B",
    "SELECT",
    "(|top_n int_op| s0)",
    "(|top_n cond| s0)",
    "(|top_n p| s0)",
    "(|top_n i2f_mode| s0)",
    "RESULT",
];

/// Every proof, in the order `cargo xtask formal` runs them.
pub const PROOFS: &[Proof] = &[
    Proof {
        name: "fadd-add",
        unit: Unit::FAdd,
        claim: "ADD and SUB equal SMT-LIB fp.add (RNE) wrapped with the contract's flush and NaN \
                rules, for all operand pairs",
        assumes: "nothing",
        depth: 5,
        query: &[FADD, include_str!("../smt/fadd_add.smt2")],
        show: FADD_SHOW,
        flow: Flow::Datapath,
        from_reset: false,
        steps: "",
        yosys: "",
        mutation: Mutation {
            what: "ties round down instead of to even",
            find: "s5c_round = s4_norm$q[32'h7] & (|s4_norm$q[(32'h0)+:(7)] | s4_norm$q[32'h8]);",
            replace: "s5c_round = s4_norm$q[32'h7] & (|s4_norm$q[(32'h0)+:(7)]);",
        },
        ci: true,
        time_limit: None,
    },
    Proof {
        name: "fadd-integral",
        unit: Unit::FAdd,
        claim: "FLR, CEIL, TRUNC, ROUND equal fp.roundToIntegral (RTN, RTP, RTZ, RNE) with the \
                flush and NaN rules, for all operands",
        assumes: "sub = 0 (FAdd's `sub` is for ADD only; FmadPipe ties it low)",
        depth: 5,
        query: &[FADD, include_str!("../smt/fadd_integral.smt2")],
        show: FADD_SHOW,
        flow: Flow::Datapath,
        from_reset: false,
        steps: "",
        yosys: "",
        mutation: Mutation {
            what: "CEIL rounds negative fractions away from zero",
            find: "s3c_inc = ~s2_sign$q & s3c_frac;",
            replace: "s3c_inc = s3c_frac;",
        },
        ci: true,
        time_limit: None,
    },
    Proof {
        name: "fadd-f2i",
        unit: Unit::FAdd,
        claim: "F2IF and F2IR (every rounding direction) equal fp.roundToIntegral then \
                fp.to_sbv, NaN giving 0 and values beyond int32 saturating, for all operands",
        assumes: "sub = 0 (as FmadPipe drives it)",
        depth: 5,
        query: &[FADD, include_str!("../smt/fadd_f2i.smt2")],
        show: FADD_SHOW,
        flow: Flow::Datapath,
        from_reset: false,
        steps: "",
        yosys: "",
        mutation: Mutation {
            what: "saturation starts one binade late (2^31..2^32 wrap)",
            find: "(s3_e_big$q >= ((32'h9e) & 8'hff))",
            replace: "(s3_e_big$q >= ((32'h9f) & 8'hff))",
        },
        ci: true,
        time_limit: None,
    },
    Proof {
        name: "fadd-i2f",
        unit: Unit::FAdd,
        claim: "I2F and U2F equal SMT-LIB to_fp / to_fp_unsigned (RNE), for all 2^32 operands",
        assumes: "sub = 0 (as FmadPipe drives it)",
        depth: 5,
        query: &[FADD, include_str!("../smt/fadd_i2f.smt2")],
        show: FADD_SHOW,
        flow: Flow::Datapath,
        from_reset: false,
        steps: "",
        yosys: "",
        mutation: Mutation {
            what: "negative int32 not negated",
            find: "s3c_neg = s3c_i2f & s2_sign$q;",
            replace: "s3c_neg = 1'b0;",
        },
        ci: true,
        time_limit: None,
    },
    Proof {
        name: "fadd-expx",
        unit: Unit::FAdd,
        claim: "EXPX (EXP.x) equals 2^floor(x) from fp.roundToIntegral RTN with the flush rule, \
                infinity above 2^127 and NaN kept, for all operands",
        assumes: "round = Floor (the decoder's only direction for EXPX); sub = 0",
        depth: 5,
        query: &[FADD, include_str!("../smt/fadd_expx.smt2")],
        show: FADD_SHOW,
        flow: Flow::Datapath,
        from_reset: false,
        steps: "",
        yosys: "",
        mutation: Mutation {
            what: "2^-126 flushed as if it were subnormal",
            find: "(s5c_n8 == ((32'h7f) & 8'hff))",
            replace: "(s5c_n8 == ((32'h7e) & 8'hff))",
        },
        ci: true,
        time_limit: None,
    },
    Proof {
        name: "fcmp",
        unit: Unit::FCmp,
        claim: "lt, eq, gt, unordered equal fp.lt, fp.eq, fp.gt, fp.isNaN of the flushed \
                operands, and pick returns the chosen operand's bits (a subnormal as a signed \
                zero) in all four modes, for all operand pairs",
        assumes: "the caller presents the operands registered on a1/b1 one clock later (as \
                  MiscUnit does; proven there too by misc-compare)",
        depth: 1,
        query: &[include_str!("../smt/fcmp.smt2")],
        show: &[
            "A",
            "B",
            "MODE",
            "(|top_n lt| s1)",
            "(|top_n eq| s1)",
            "(|top_n gt| s1)",
            "(|top_n pick| s1)",
        ],
        flow: Flow::Datapath,
        from_reset: false,
        steps: "",
        yosys: "",
        mutation: Mutation {
            what: "-0 and +0 (and subnormals) no longer equal",
            find: "c_eq = (mag_eq & (fa[32'h1f] == fb[32'h1f])) | zeros;",
            replace: "c_eq = (mag_eq & (fa[32'h1f] == fb[32'h1f]));",
        },
        ci: true,
        time_limit: None,
    },
    Proof {
        name: "misc-int",
        unit: Unit::MiscUnit,
        claim: "the integer ALU's IADD, ISUB, AND, OR, XOR, NOT, SHL, SHR equal SMT-LIB bvadd, \
                bvsub, bvand, bvor, bvxor, bvnot, bvshl, bvashr (shift by b & 31), for all \
                operand pairs, through the misc unit's 4-clock result chain",
        assumes: "nothing",
        depth: 4,
        query: &[MISC, include_str!("../smt/misc_int.smt2")],
        show: MISC_SHOW,
        flow: Flow::Datapath,
        from_reset: false,
        steps: "",
        yosys: "",
        mutation: Mutation {
            what: "SHR shifts in zeros (logical, not arithmetic)",
            find: "flip = ~((32'h0) & 32'hffffffff);",
            replace: "flip = ((32'h0) & 32'hffffffff);",
        },
        ci: true,
        time_limit: None,
    },
    Proof {
        name: "misc-compare",
        unit: Unit::MiscUnit,
        claim: "SET under each of the 8 conditions gives 1.0/0.0 from IEEE comparisons of the \
                flushed operands; MIN, MAX and SEL return the chosen operand's bits (a \
                subnormal as a signed zero), for all operand pairs",
        assumes: "nothing",
        depth: 4,
        query: &[MISC, include_str!("../smt/misc_compare.smt2")],
        show: MISC_SHOW,
        flow: Flow::Datapath,
        from_reset: false,
        steps: "",
        yosys: "",
        mutation: Mutation {
            what: "a chosen subnormal is not flushed",
            find: "pick = ((chosen[32'h1f]) & 32'hffffffff) << 32'h1f;",
            replace: "pick = chosen;",
        },
        ci: true,
        time_limit: None,
    },
    Proof {
        name: "misc-exact",
        unit: Unit::MiscUnit,
        claim: "MOV keeps bits; EXPN and MANT are LOG's exact exponent and significand (with \
                LOG(0), LOG(inf), NaN); ISGN and USGN give -1.0, 0.0, 1.0; for all operands",
        assumes: "i2f_mode is SIGNED or UNSIGNED (the decoder's two codes)",
        depth: 4,
        query: &[MISC, include_str!("../smt/misc_exact.smt2")],
        show: MISC_SHOW,
        flow: Flow::Datapath,
        from_reset: false,
        steps: "",
        yosys: "",
        mutation: Mutation {
            what: "EXPN's exponent bias off by one",
            find: "xd = xe - ((32'h7f) & 8'hff);",
            replace: "xd = xe - ((32'h7e) & 8'hff);",
        },
        ci: true,
        time_limit: None,
    },
    Proof {
        name: "fmul-round",
        unit: Unit::FMul,
        claim: "MUL's exponent, normalisation, rounding, overflow, flush and special cases: \
                for all operand pairs and every significand product P in [2^46, 2^48) at the \
                cut point, the result is P * 2^(ea+eb-300) (exact in binary64) rounded by \
                SMT-LIB to_fp (RNE) with the flush and NaN rules; fp.mul for special operands",
        assumes: "the registered product bits and sticky bits are those of P = ma * mb (the cut \
                  point; proven by fmul-product)",
        depth: 5,
        query: &[FMUL, include_str!("../smt/fmul_round.smt2")],
        show: &["A", "B", "P", "RESULT"],
        flow: Flow::Datapath,
        from_reset: false,
        steps: "",
        yosys: "cutpoint w:s4_p$d w:s4_sticky47$d w:s4_sticky46$d;",
        mutation: Mutation {
            what: "ties round down instead of to even (P[47] set)",
            find: "s5c_round47 = s4_p$q[32'hf] & (s4_sticky47$q | s4_p$q[32'h10]);",
            replace: "s5c_round47 = s4_p$q[32'hf] & (s4_sticky47$q);",
        },
        ci: true,
        time_limit: None,
    },
    Proof {
        name: "fmul-product",
        unit: Unit::FMul,
        claim: "the significand product: stages 1-2 give the six radix-16 partial products \
                ma * mb[4m+3:4m], stage 3 adds them in pairs exactly, stage 4 registers bits \
                47..8 and the sticky bits of t0 + 2^8 t1 + 2^16 t2; with distributivity, \
                P = ma * mb for all operand pairs",
        assumes: "one step of algebra outside the solver: sum_m 16^m ma mb[4m+3:4m] = ma * mb",
        depth: 5,
        query: &[FMUL, include_str!("../smt/fmul_product.smt2")],
        show: &["A", "B"],
        flow: Flow::Datapath,
        from_reset: false,
        steps: "",
        yosys: "",
        mutation: Mutation {
            what: "3 * ma computed as 2 * ma (every row with digit 3 wrong)",
            find: "s1_ma3$d = (s1c_ma26 << 32'h1) + s1c_ma26;",
            replace: "s1_ma3$d = (s1c_ma26 << 32'h1);",
        },
        ci: true,
        time_limit: None,
    },
    Proof {
        name: "core-mask",
        unit: Unit::ShaderCore,
        claim: "a lane whose execution mask is off is never written: every register-file and \
                predicate write is that of a slot issued 12 (long path) or 6 (short path) \
                clocks before, whose lane was on in the execution mask at issue; from any \
                state, for any program and host activity",
        assumes: "nothing (bounded: the 12 clocks from any state to the write)",
        depth: 12,
        query: &[CORE, include_str!("../smt/core_mask.smt2")],
        show: &[
            "WLANE",
            "(|top_n seq.e| s0)",
            "(|top_n seq.e| s6)",
            "(|top_n seq.slot| s0)",
        ],
        flow: Flow::System,
        from_reset: false,
        steps: "",
        yosys: "",
        mutation: Mutation {
            what: "the execution-mask check dropped from the register write enable",
            find: "dec$write$wmask[comp] & seq$e[lane] & pass",
            replace: "dec$write$wmask[comp] & pass",
        },
        ci: true,
        time_limit: None,
    },
    Proof {
        name: "core-stop",
        unit: Unit::ShaderCore,
        claim: "when execution stops (END, end of program, a fault, the budget, no live lane, a \
                pause), the core drains for DRAIN_CLOCKS and is then idle with done pulsed and \
                the fault code on the host port; no slot issues after the stop; a faulting \
                instruction issues no slot and enables no write; from any state, any program",
        assumes: "nothing (bounded: the DRAIN_CLOCKS + 1 clocks after the stop)",
        depth: STOP_DEPTH,
        query: &[CORE, include_str!("../smt/core_stop.smt2")],
        show: &[
            "FAULT",
            "(|top_n seq.timer.q| s1)",
            "(|top_n seq.pause.q| s1)",
        ],
        flow: Flow::System,
        from_reset: false,
        steps: "",
        yosys: "",
        mutation: Mutation {
            what: "an executing lane's address-stack overflow no longer blocks the slot's write",
            find: "& ((dec$unit$rel != rel_write) | lane_ok) & ~|ext_fault;",
            replace: "& ((dec$unit$rel != rel_write) | lane_ok);",
        },
        ci: true,
        time_limit: None,
    },
    Proof {
        name: "core-host",
        unit: Unit::ShaderCore,
        claim: "the idle (or paused) core answers the host port: a read of any program, \
                register or constant word returns that memory word READ_LATENCY edges later, \
                busy low; from any idle state and memory content",
        assumes: "the host starts, clears, resumes and writes nothing during the read",
        depth: 2,
        query: &[CORE, include_str!("../smt/core_host.smt2")],
        show: &["ADDR", "RDATA", "PROGRAM"],
        flow: Flow::System,
        from_reset: false,
        steps: "",
        yosys: "",
        mutation: Mutation {
            what: "the last instruction word's bank read unmasked",
            find: "rdata$d = imem$3$rd & ((32'hffff) & 32'hffffffff);",
            replace: "rdata$d = imem$3$rd;",
        },
        ci: true,
        time_limit: None,
    },
    Proof {
        name: "core-stacks",
        unit: Unit::ShaderCore,
        claim: "the mask stack and the address stack never wrap: their invariants (at most \
                MASK_FRAMES frames; room for every executing lane of a PUSHA past its \
                overflow check) are inductive over one clock from any state, every change is \
                one push onto a stack with room, pops from a non-empty one, or a reset, and an \
                address-stack entry is only written one above a depth below its capacity",
        assumes: "nothing (induction: the invariants hold after reset, every count 0)",
        depth: 1,
        query: &[CORE, include_str!("../smt/core_stacks.smt2")],
        show: &[
            "(count s0)",
            "(count s1)",
            "(|top_n seq.stack.sp_q.q| s0)",
            "PUSH_DEPTH",
        ],
        flow: Flow::System,
        from_reset: false,
        steps: "",
        yosys: "",
        mutation: Mutation {
            what: "the mask stack's full test is off by one (one frame too many)",
            find: "full = stack$sp >= stack_depth;",
            replace: "full = stack$sp > stack_depth;",
        },
        ci: true,
        time_limit: None,
    },
    Proof {
        name: "loader-drop",
        unit: Unit::Loader,
        claim: "a dropped segment (the receiver's verdict 0: a bad CRC, a broken escape, an \
                overlong body) changes nothing but the dropped-frame counter: from the \
                firmware waiting in WAITF with any variables, registers and core status, until \
                it waits again, no loader-memory write but to the counter, no core write or \
                command, no byte sent, LEDs kept; the counter then +1, saturating at 0xFFFF",
        assumes: "no reset and no line byte in the window; the CRC unit idle at the verdict \
                  (bytes 9 clocks apart); with frame-crc: a bad CRC gives verdict 0",
        depth: 44,
        query: &[LOADER, include_str!("../smt/loader_drop.smt2")],
        show: &[
            "(ldr_word s0 LDR_BADF)",
            "(ldr_word s44 LDR_BADF)",
            "(|top_n pc.q| s44)",
        ],
        flow: Flow::Firmware,
        from_reset: false,
        steps: LOADER_DROP_STEP,
        yosys: "",
        mutation: Mutation {
            what: "WAITF reads every verdict as 8 (a dropped segment executed as a request)",
            find: "iob = frame_rx$body_len[(32'h0)+:(8)];",
            replace: "iob = 8'h8;",
        },
        ci: true,
        time_limit: None,
    },
    Proof {
        name: "loader-info",
        unit: Unit::Loader,
        claim: "INFO is answered in every state: from the firmware waiting in WAITF with any \
                variables (every load and run state, any counters), registers and core \
                status, an INFO request with any sequence number is answered with END, its \
                length, the command with the answer bit, the sequence number (stuffed) and \
                ACK within 130 clocks, writing nothing and leaving the core alone",
        assumes: "no reset and no line byte in the window; the transmitter takes each byte at \
                  once; REASON (the result byte variable) is 0 between requests",
        depth: 130,
        query: &[
            LOADER,
            LOADER_ANSWER,
            include_str!("../smt/loader_info.smt2"),
        ],
        show: &["SEQ", "W130", "(|top_n pc.q| s130)"],
        flow: Flow::Firmware,
        from_reset: false,
        steps: LOADER_ANSWER_STEP,
        yosys: "",
        mutation: Mutation {
            what: "ESC in an answer's body goes out unstuffed",
            find: "if ((txbyte == 32'hc0) | (txbyte == 32'hdb)) begin",
            replace: "if ((txbyte == 32'hc0)) begin",
        },
        ci: true,
        time_limit: None,
    },
    Proof {
        name: "loader-status",
        unit: Unit::Loader,
        claim: "STATUS is answered in every state: as loader-info, for a STATUS request (its \
                data, the variables' values, follow the result byte)",
        assumes: "as loader-info",
        depth: 130,
        query: &[
            LOADER,
            LOADER_ANSWER,
            include_str!("../smt/loader_status.smt2"),
        ],
        show: &["SEQ", "W130", "(|top_n pc.q| s130)"],
        flow: Flow::Firmware,
        from_reset: false,
        steps: LOADER_ANSWER_STEP,
        yosys: "",
        mutation: Mutation {
            what: "a byte or half load at an address in the instruction ignores its low two bits",
            find: "maddr = (k & ((32'h7fc) & 11'h7ff)) | ((low2) & 11'h7ff);",
            replace: "maddr = (k & ((32'h7fc) & 11'h7ff));",
        },
        ci: true,
        time_limit: None,
    },
    Proof {
        name: "loader-write",
        unit: Unit::Loader,
        claim: "a WRITE outside the area it may write is refused: from WRITE's handler entered \
                in any state, a WRITE naming no region or a read-only one (OUTPUTS, RESULTS), \
                or whose address plus length passes the region's limit (the length BEGIN \
                latched, the INFO record's size; any values), or into an image region while \
                no upload is in progress (no image, or the committed one VALID), with any \
                payload the receiver takes, reaches `nak` with a reason within 160 clocks, and until then nothing \
                is written to the core, nothing sent, and nothing written to the loader memory \
                outside the firmware's variables",
        assumes: "no reset or line byte; the dispatcher entered WRITE with the payload length \
                  (loader-info/status cover the dispatcher); a region's limit is the u32 at the \
                  address the firmware's WRITE table holds (tested, not proven: loader_cross)",
        depth: 160,
        query: &[LOADER, include_str!("../smt/loader_write.smt2")],
        show: &["R", "ADDR", "PAYLOAD", "LIMIT", "LD", "(|top_n pc.q| s160)"],
        flow: Flow::Firmware,
        from_reset: false,
        steps: LOADER_WRITE_STEP,
        yosys: "",
        mutation: Mutation {
            what: "additions never carry (an end past 2^32 wraps back into range)",
            find: "c$d = sum[32'h8] ^ sub;",
            replace: "c$d = sub & ~sum[32'h8];",
        },
        ci: true,
        time_limit: None,
    },
    Proof {
        name: "frame-crc",
        unit: Unit::FrameCheck,
        claim: "the loader's frame receiver with its CRC unit accepts a segment (body_len not \
                0) only if the bytes it wrote to the frame buffer, the segment's whole body, \
                end with their own CRC-32 (zlib's, computed bit by bit in the query); from \
                reset, over 60 clocks: segments of up to 5 bytes at the fastest byte rate",
        assumes: "bytes arrive when the CRC unit has absorbed the previous one (PROTOCOL.md's \
                  at least 9 clocks apart; a UART byte takes at least 80)",
        depth: 60,
        query: &[include_str!("../smt/frame_crc.smt2")],
        show: &["(|top_n body_len| s60)"],
        flow: Flow::System,
        from_reset: true,
        steps: FRAME_CRC_STEP,
        yosys: "",
        mutation: Mutation {
            what: "the CRC residue test dropped from the receiver's verdict",
            find: "if (~error$q & ~escaped$q & crc_residue) begin",
            replace: "if (~error$q & ~escaped$q) begin",
        },
        ci: false,
        time_limit: Some(3600),
    },
    Proof {
        name: "fmul-full",
        unit: Unit::FMul,
        claim: "MUL equals SMT-LIB fp.mul (RNE) with the flush and NaN rules for all operand \
                pairs, the 24x24 significand product included",
        assumes: "nothing",
        depth: 5,
        query: &[FMUL, include_str!("../smt/fmul_full.smt2")],
        show: &["A", "B", "RESULT"],
        flow: Flow::Datapath,
        from_reset: false,
        steps: "",
        yosys: "",
        mutation: Mutation {
            what: "ties round down instead of to even (P[47] clear)",
            find: "s5c_round46 = s4_p$q[32'he] & (s4_sticky46$q | s4_p$q[32'hf]);",
            replace: "s5c_round46 = s4_p$q[32'he] & (s4_sticky46$q);",
        },
        ci: false,
        time_limit: Some(3600),
    },
];

/// The proofs `name` selects: the one of that name, or all whose name starts with `name-`
/// (`fadd` selects every FAdd proof).
pub fn select(name: &str) -> Vec<&'static Proof> {
    let prefix = format!("{name}-");
    PROOFS
        .iter()
        .filter(|p| p.name == name || p.name.starts_with(&prefix))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::plant;
    use crate::FormalError;

    #[test]
    fn names_select_one_proof_or_a_group() {
        assert_eq!(select("fadd-add").len(), 1);
        assert_eq!(select("fadd").len(), 5);
        assert_eq!(select("core").len(), 4);
        assert!(select("fadd-").is_empty());
        assert!(select("nothing").is_empty());
    }

    #[test]
    fn every_proof_is_named_once_and_plants_a_real_change() {
        for (i, p) in PROOFS.iter().enumerate() {
            assert!(
                PROOFS[i + 1..].iter().all(|q| q.name != p.name),
                "{} twice",
                p.name
            );
            assert_ne!(p.mutation.find, p.mutation.replace, "{}", p.name);
            // Each query asserts the negation of its property, or its steps define the checks
            // whose conjunction the runner negates.
            assert!(
                p.query.concat().contains("(assert (not") || p.steps.contains("(define-fun ok{j}"),
                "{}",
                p.name
            );
        }
    }

    #[test]
    fn a_mutation_that_no_longer_matches_is_an_error() {
        let p = select("fcmp")[0];
        match plant(p, "module top(); endmodule") {
            Err(FormalError::StaleMutation { count: 0, .. }) => {}
            other => panic!("expected a stale mutation, got {other:?}"),
        }
        let twice = format!("{0}\n{0}", p.mutation.find);
        assert!(matches!(
            plant(p, &twice),
            Err(FormalError::StaleMutation { count: 2, .. })
        ));
        let once = plant(p, &format!("x {} y", p.mutation.find)).expect("plants");
        assert_eq!(once, format!("x {} y", p.mutation.replace));
    }
}

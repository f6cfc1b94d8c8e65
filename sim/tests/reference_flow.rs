//! Control flow of the reference model: divergent IF/ELSE, loops with BRK/CONT, REP, BGNFOR,
//! calls and returns, KIL/KILP, BRA, the budget and the stacks.

mod reference_support;

use microcode::tgsi::*;
use reference_support::*;
use sim::reference::{RunErrorKind, CALL_STACK_LIMIT};
use sim::run_io::RunInputs;

fn label(i: Instruction, l: u32) -> Instruction {
    let mut i = i;
    i.label = Some(l);
    i
}

#[test]
fn nested_if_else_with_divergent_lanes() {
    let mut b = Builder::frag();
    let one = b.imm([1.0; 4]);
    let two = b.imm([2.0; 4]);
    let three = b.imm([3.0; 4]);
    b.op(Opcode::If, &[], &[inp(0).swz("x")]);
    b.op(Opcode::If, &[], &[inp(0).swz("y")]);
    b.op(Opcode::Mov, &[out(0)], &[one]);
    b.op(Opcode::Else, &[], &[]);
    b.op(Opcode::Mov, &[out(0)], &[two]);
    b.op(Opcode::EndIf, &[], &[]);
    b.op(Opcode::Else, &[], &[]);
    b.op(Opcode::Mov, &[out(0)], &[three]);
    b.op(Opcode::EndIf, &[], &[]);
    b.op(Opcode::End, &[], &[]);
    let inputs = lanes_input(
        0,
        [
            [1.0, 1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0],
            [1.0, 0.0, 0.0, 0.0],
            [0.0; 4],
        ],
    );
    let o = run(&b, &inputs);
    assert_eq!(
        outs(&o, 0),
        [v4([1.0; 4]), v4([3.0; 4]), v4([2.0; 4]), v4([3.0; 4])]
    );
    assert!(o.lanes.iter().all(|l| !l.killed));
}

#[test]
fn if_tests_a_float_not_bits() {
    let mut b = Builder::frag();
    let one = b.imm([1.0; 4]);
    b.op(Opcode::If, &[], &[inp(0)]);
    b.op(Opcode::Mov, &[out(0)], &[one]);
    b.op(Opcode::EndIf, &[], &[]);
    let mut inputs = RunInputs::default();
    // -0.0, NaN, a subnormal, integer 1 (also a subnormal as a float).
    for (l, x) in [0x8000_0000u32, 0x7FC0_0000, 0x0000_0100, 1]
        .iter()
        .enumerate()
    {
        inputs.set_input_lane(0, l, [*x, 0, 0, 0]);
    }
    let o = run(&b, &inputs);
    let taken: Vec<bool> = outs(&o, 0).iter().map(|v| v[0] == fb(1.0)).collect();
    assert_eq!(taken, [false, true, false, false]);
}

#[test]
fn loop_with_break_and_continue_in_some_lanes() {
    let mut b = Builder::frag();
    let zero = b.imm([0.0; 4]);
    let one = b.imm([1.0; 4]);
    let two = b.imm([2.0; 4]);
    b.op(Opcode::Mov, &[tmpd(0)], &[zero]);
    b.op(Opcode::BgnLoop, &[], &[]);
    b.op(Opcode::Add, &[tmpd(0).mask("x")], &[tmp(0).swz("x"), one]);
    b.op(
        Opcode::Sge,
        &[tmpd(1).mask("x")],
        &[tmp(0).swz("x"), inp(0).swz("x")],
    );
    b.op(Opcode::If, &[], &[tmp(1).swz("x")]);
    b.op(Opcode::Brk, &[], &[]);
    b.op(Opcode::EndIf, &[], &[]);
    b.op(Opcode::Slt, &[tmpd(1).mask("y")], &[tmp(0).swz("x"), two]);
    b.op(Opcode::If, &[], &[tmp(1).swz("y")]);
    b.op(Opcode::Cont, &[], &[]);
    b.op(Opcode::EndIf, &[], &[]);
    b.op(Opcode::Add, &[tmpd(0).mask("y")], &[tmp(0).swz("y"), one]);
    b.op(Opcode::EndLoop, &[], &[]);
    b.op(Opcode::Mov, &[out(0)], &[tmp(0)]);
    b.op(Opcode::End, &[], &[]);
    let inputs = lanes_input(0, [[1.0; 4], [2.0; 4], [3.0; 4], [4.0; 4]]);
    let o = run(&b, &inputs);
    // Lane with limit L stops when the counter reaches L; y counts the iterations with
    // 2 <= counter < L.
    let expect = |l: f32, y: f32| v4([l, y, 0.0, 0.0]);
    assert_eq!(
        outs(&o, 0),
        [
            expect(1.0, 0.0),
            expect(2.0, 0.0),
            expect(3.0, 1.0),
            expect(4.0, 2.0)
        ]
    );
}

#[test]
fn rep_counts_per_lane() {
    let mut b = Builder::frag();
    let one = b.imm([1.0; 4]);
    b.op(Opcode::Rep, &[], &[inp(0).swz("x")]);
    b.op(Opcode::Add, &[tmpd(0).mask("x")], &[tmp(0), one]);
    b.op(Opcode::EndRep, &[], &[]);
    b.op(Opcode::Mov, &[out(0)], &[tmp(0)]);
    let inputs = lanes_input(0, [[0.0; 4], [1.0; 4], [2.5; 4], [-1.0; 4]]);
    let o = run(&b, &inputs);
    let xs: Vec<f32> = outs(&o, 0).iter().map(|v| f32::from_bits(v[0])).collect();
    assert_eq!(xs, [0.0, 1.0, 2.0, 0.0]);
}

#[test]
fn bgnfor_steps_the_loop_register_used_as_index() {
    let mut b = Builder::frag();
    b.decl(File::Constant, 0, 15);
    b.decl(File::Loop, 0, 0);
    let params = b.imm([2.0, 3.0, 5.0, 0.0]); // start 2, three iterations, step 5
    b.op(Opcode::BgnFor, &[dst(File::Loop, 0)], &[params]);
    b.op(
        Opcode::Add,
        &[tmpd(0)],
        &[tmp(0), src(File::Constant, 0).ind(File::Loop, 0, 0)],
    );
    b.op(Opcode::EndFor, &[dst(File::Loop, 0)], &[]);
    b.op(Opcode::Mov, &[out(0)], &[tmp(0)]);
    let mut inputs = RunInputs::default();
    inputs.set_const(0, 2, v4([1.0; 4]));
    inputs.set_const(0, 7, v4([10.0; 4]));
    inputs.set_const(0, 12, v4([100.0; 4]));
    inputs.set_const(0, 3, v4([1000.0; 4]));
    let o = run(&b, &inputs);
    assert_eq!(outs(&o, 0), [v4([111.0; 4]); 4]);
}

#[test]
fn bgnfor_with_zero_count_skips_the_body() {
    let mut b = Builder::frag();
    b.decl(File::Loop, 0, 0);
    let params = b.imm([0.0, 0.0, 1.0, 0.0]);
    let one = b.imm([1.0; 4]);
    b.op(Opcode::BgnFor, &[dst(File::Loop, 0)], &[params]);
    b.op(Opcode::Mov, &[out(0)], &[one]);
    b.op(Opcode::EndFor, &[dst(File::Loop, 0)], &[]);
    let o = run(&b, &RunInputs::default());
    assert_eq!(outs(&o, 0), [[0; 4]; 4]);
    // BGNFOR and ENDFOR execute (the skipped body does not).
    assert_eq!(o.instructions, Some(2));
}

#[test]
fn call_with_early_return_in_some_lanes() {
    let mut b = Builder::frag();
    let one = b.imm([1.0; 4]);
    b.push(label(inst(Opcode::Cal, &[], &[]), 3));
    b.op(Opcode::Mov, &[out(0)], &[tmp(0)]);
    b.op(Opcode::End, &[], &[]);
    b.op(Opcode::BgnSub, &[], &[]);
    b.op(Opcode::Add, &[tmpd(0).mask("x")], &[tmp(0), one]);
    b.op(Opcode::If, &[], &[inp(0).swz("x")]);
    b.op(Opcode::Ret, &[], &[]);
    b.op(Opcode::EndIf, &[], &[]);
    b.op(Opcode::Add, &[tmpd(0).mask("y")], &[tmp(0), one]);
    b.op(Opcode::EndSub, &[], &[]);
    let inputs = lanes_input(0, [[1.0; 4], [0.0; 4], [0.0; 4], [1.0; 4]]);
    let o = run(&b, &inputs);
    let r = v4([1.0, 0.0, 0.0, 0.0]);
    let full = v4([1.0, 1.0, 0.0, 0.0]);
    assert_eq!(outs(&o, 0), [r, full, full, r]);
}

#[test]
fn callnz_calls_only_lanes_whose_test_is_true() {
    let mut b = Builder::frag();
    let one = b.imm([1.0; 4]);
    b.push(label(inst(Opcode::CallNz, &[], &[inp(0).swz("x")]), 3));
    b.op(Opcode::Mov, &[out(0)], &[tmp(0)]);
    b.op(Opcode::End, &[], &[]);
    b.op(Opcode::BgnSub, &[], &[]);
    b.op(Opcode::Mov, &[tmpd(0)], &[one]);
    b.op(Opcode::Ret, &[], &[]);
    b.op(Opcode::EndSub, &[], &[]);
    let inputs = lanes_input(0, [[0.0; 4], [-2.0; 4], [0.0; 4], [0.5; 4]]);
    let o = run(&b, &inputs);
    assert_eq!(outs(&o, 0), [[0; 4], v4([1.0; 4]), [0; 4], v4([1.0; 4])]);
}

#[test]
fn unbounded_recursion_overflows_the_call_stack() {
    let mut b = Builder::frag();
    b.push(label(inst(Opcode::Cal, &[], &[]), 2));
    b.op(Opcode::End, &[], &[]);
    b.op(Opcode::BgnSub, &[], &[]);
    b.push(label(inst(Opcode::Cal, &[], &[]), 2));
    b.op(Opcode::EndSub, &[], &[]);
    let e = sim::reference::run(&b.p, &RunInputs::default()).unwrap_err();
    assert_eq!(e.index, 3);
    assert_eq!(
        e.kind,
        RunErrorKind::CallStackOverflow {
            limit: CALL_STACK_LIMIT
        }
    );
}

#[test]
fn kil_kills_lanes_with_a_negative_component_only_when_active() {
    let mut b = Builder::frag();
    let one = b.imm([1.0; 4]);
    b.op(Opcode::If, &[], &[inp(1).swz("x")]);
    b.op(Opcode::Kil, &[], &[inp(0)]);
    b.op(Opcode::EndIf, &[], &[]);
    b.op(Opcode::Mov, &[out(0)], &[one]);
    let mut inputs = RunInputs::default();
    let vals = [
        [1.0, 1.0, 1.0, 1.0],
        [1.0, 1.0, 1.0, -1.0],
        [f32::NAN, 0.0, -0.0, 0.0],
        [-1.0, 0.0, 0.0, 0.0],
    ];
    for (l, v) in vals.iter().enumerate() {
        inputs.set_input_lane(0, l, v4(*v));
        // Lane 3 does not enter the IF, so its KIL does not happen.
        inputs.set_input_lane(1, l, v4([if l == 3 { 0.0 } else { 1.0 }; 4]));
    }
    let o = run(&b, &inputs);
    let killed: Vec<bool> = o.lanes.iter().map(|l| l.killed).collect();
    assert_eq!(killed, [false, true, false, false]);
    assert_eq!(
        outs(&o, 0),
        [v4([1.0; 4]), [0; 4], v4([1.0; 4]), v4([1.0; 4])]
    );
}

#[test]
fn kilp_kills_the_active_lanes() {
    let mut b = Builder::frag();
    b.op(Opcode::If, &[], &[inp(0).swz("x")]);
    b.op(Opcode::Kilp, &[], &[]);
    b.op(Opcode::EndIf, &[], &[]);
    let inputs = lanes_input(0, [[0.0; 4], [1.0; 4], [1.0; 4], [0.0; 4]]);
    let o = run(&b, &inputs);
    let killed: Vec<bool> = o.lanes.iter().map(|l| l.killed).collect();
    assert_eq!(killed, [false, true, true, false]);
}

#[test]
fn budget_stops_an_endless_loop() {
    let mut b = Builder::frag();
    b.op(Opcode::BgnLoop, &[], &[]);
    b.op(Opcode::Nop, &[], &[]);
    b.op(Opcode::EndLoop, &[], &[]);
    let inputs = RunInputs {
        budget: 100,
        ..RunInputs::default()
    };
    let e = sim::reference::run(&b.p, &inputs).unwrap_err();
    assert_eq!(e.kind, RunErrorKind::BudgetExhausted { budget: 100 });
    // 100 executed: BGNLOOP, then (NOP, ENDLOOP) x 49, then NOP; the 101st is ENDLOOP.
    assert_eq!(e.index, 2);
}

#[test]
fn budget_counts_every_executed_instruction() {
    let mut b = Builder::frag();
    let one = b.imm([1.0; 4]);
    b.op(Opcode::Mov, &[out(0)], &[one]);
    b.op(Opcode::Add, &[out(0)], &[one, one]);
    b.op(Opcode::End, &[], &[]);
    let exact = RunInputs {
        budget: 3,
        ..RunInputs::default()
    };
    let o = run(&b, &exact);
    assert_eq!(o.instructions, Some(3));
    assert_eq!(outs(&o, 0)[0], v4([2.0; 4]));
    let short = RunInputs {
        budget: 2,
        ..RunInputs::default()
    };
    let e = sim::reference::run(&b.p, &short).unwrap_err();
    assert_eq!((e.index, e.opcode), (2, Opcode::End));
}

#[test]
fn bra_jumps_for_the_whole_quad() {
    let mut b = Builder::frag();
    let one = b.imm([1.0; 4]);
    let two = b.imm([2.0; 4]);
    b.push(label(inst(Opcode::Bra, &[], &[]), 2));
    b.op(Opcode::Mov, &[out(0)], &[one]);
    b.op(Opcode::Mov, &[out(1)], &[two]);
    let o = run(&b, &RunInputs::default());
    assert_eq!(outs(&o, 0), [[0; 4]; 4]);
    assert_eq!(outs(&o, 1), [v4([2.0; 4]); 4]);
}

#[test]
fn bra_with_a_condition_jumps_when_lanes_agree_and_fails_when_they_differ() {
    let build = || {
        let mut b = Builder::frag();
        let one = b.imm([1.0; 4]);
        let mut set = inst(Opcode::Mov, &[dst(File::Null, 0)], &[inp(0)]);
        set.cond_update = Some(0);
        b.push(set);
        let mut bra = label(inst(Opcode::Bra, &[], &[]), 3);
        bra.cond_flow = Some(cc(CondMask::Gt, "x"));
        b.push(bra);
        b.op(Opcode::Mov, &[out(0)], &[one]);
        b.op(Opcode::End, &[], &[]);
        b
    };
    let b = build();
    let agree = lanes_input(0, [[1.0; 4]; 4]);
    let o = run(&b, &agree);
    assert_eq!(outs(&o, 0), [[0; 4]; 4]);
    let none = lanes_input(0, [[-1.0; 4]; 4]);
    let o = run(&b, &none);
    assert_eq!(outs(&o, 0), [v4([1.0; 4]); 4]);
    let differ = lanes_input(0, [[1.0; 4], [1.0; 4], [-1.0; 4], [1.0; 4]]);
    let e = sim::reference::run(&b.p, &differ).unwrap_err();
    assert_eq!(e.index, 1);
    assert_eq!(
        e.kind,
        RunErrorKind::DivergentBranch {
            taken: [true, true, false, true]
        }
    );
}

#[test]
fn address_stack_push_pop_and_overflow() {
    let mut b = Builder::frag();
    let five = b.imm([5.0, 6.0, 7.0, 8.0]);
    let zero = b.imm([0.0; 4]);
    b.op(Opcode::Arl, &[addrd(0)], &[five]);
    b.op(Opcode::Pusha, &[], &[src(File::Address, 0)]);
    b.op(Opcode::Arl, &[addrd(0)], &[zero]);
    b.op(Opcode::Popa, &[addrd(0)], &[]);
    b.op(Opcode::Mov, &[out(0)], &[src(File::Address, 0)]);
    let o = run(&b, &RunInputs::default());
    assert_eq!(outs(&o, 0), [[5, 6, 7, 8]; 4]);

    let mut b = Builder::frag();
    b.op(Opcode::BgnLoop, &[], &[]);
    b.op(Opcode::Pusha, &[], &[src(File::Address, 0)]);
    b.op(Opcode::EndLoop, &[], &[]);
    let e = sim::reference::run(&b.p, &RunInputs::default()).unwrap_err();
    assert!(matches!(
        e.kind,
        RunErrorKind::AddressStackOverflow { lane: 0, .. }
    ));

    let mut b = Builder::frag();
    b.op(Opcode::Popa, &[addrd(0)], &[]);
    let e = sim::reference::run(&b.p, &RunInputs::default()).unwrap_err();
    assert_eq!(e.kind, RunErrorKind::AddressStackUnderflow { lane: 0 });
}

#[test]
fn unmatched_structure_is_an_error() {
    let mut b = Builder::frag();
    b.op(Opcode::If, &[], &[inp(0)]);
    let e = sim::reference::run(&b.p, &RunInputs::default()).unwrap_err();
    assert!(matches!(e.kind, RunErrorKind::Structure(_)));
    assert_eq!(e.index, 0);
}

const HEAD: &str = "FRAG\nDCL IN[0..3]\nDCL OUT[0..3]\nDCL TEMP[0..7]\nDCL LOOP[0]\n\
    IMM FLT32 { 1.0, 0.0, 2.0, 3.0 }\n";

fn xs(o: &sim::run_io::RunOutput, reg: u32, c: usize) -> Vec<f32> {
    outs(o, reg).iter().map(|v| f32::from_bits(v[c])).collect()
}

#[test]
fn continue_in_counted_loops_still_steps_the_counters() {
    // REP 3 and BGNFOR (0, 3, 1): lanes with IN[0].x != 0 skip the accumulation by CONT.
    let text = format!(
        "{HEAD}REP IMM[0].wwww\nIF IN[0].xxxx\nCONT\nENDIF\nADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\nENDREP\n\
         BGNFOR LOOP[0], IMM[0].ywxx\nIF IN[0].xxxx\nCONT\nENDIF\nADD TEMP[0].y, TEMP[0].yyyy, IMM[0].xxxx\nENDFOR LOOP[0]\n\
         ADD TEMP[0].z, TEMP[0].zzzz, IMM[0].xxxx\nMOV OUT[0], TEMP[0]\nEND\n"
    );
    let o = run_text(
        &text,
        &lanes_input(0, [[0.0; 4], [1.0; 4], [0.0; 4], [1.0; 4]]),
    );
    assert_eq!(xs(&o, 0, 0), [3.0, 0.0, 3.0, 0.0]);
    assert_eq!(xs(&o, 0, 1), [3.0, 0.0, 3.0, 0.0]);
    assert_eq!(xs(&o, 0, 2), [1.0; 4]);
}

#[test]
fn breakc_and_ifc_test_src_x() {
    let text = format!(
        "{HEAD}BGNLOOP\nADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\nSGE TEMP[1].x, TEMP[0].xxxx, IN[0].xxxx\n\
         BREAKC TEMP[1].xxxx\nENDLOOP\nIFC IN[1].xxxx\nMOV TEMP[0].y, IMM[0].zzzz\nENDIF\nMOV OUT[0], TEMP[0]\nEND\n"
    );
    let mut i = lanes_input(0, [[1.0; 4], [2.0; 4], [5.0; 4], [3.0; 4]]);
    for l in 0..4 {
        i.set_input_lane(1, l, v4([if l % 2 == 0 { -0.5 } else { 0.0 }; 4]));
    }
    let o = run_text(&text, &i);
    assert_eq!(xs(&o, 0, 0), [1.0, 2.0, 5.0, 3.0]);
    assert_eq!(xs(&o, 0, 1), [2.0, 0.0, 2.0, 0.0]);
}

#[test]
fn ret_in_the_main_program_stops_those_lanes() {
    let text = format!(
        "{HEAD}MOV OUT[0], IMM[0].xxxx\nIF IN[0].xxxx\nRET\nENDIF\nMOV OUT[0], IMM[0].zzzz\nEND\n"
    );
    let o = run_text(
        &text,
        &lanes_input(0, [[1.0; 4], [0.0; 4], [0.0; 4], [1.0; 4]]),
    );
    assert_eq!(xs(&o, 0, 0), [1.0, 2.0, 2.0, 1.0]);
    // All lanes returning ends the run at the RET.
    let o = run_text(&text, &lanes_input(0, [[1.0; 4]; 4]));
    assert_eq!(xs(&o, 0, 0), [1.0; 4]);
    assert_eq!(o.instructions, Some(3));
}

#[test]
fn loop_inside_a_subroutine_with_return_from_the_loop() {
    // The subroutine counts up to 4 but lanes whose IN[0].x is below the counter return early.
    let text = format!(
        "{HEAD}CAL :3\nMOV OUT[0], TEMP[0]\nEND\nBGNSUB\nBGNLOOP\nADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\n\
         SLT TEMP[1].x, IN[0].xxxx, TEMP[0].xxxx\nIF TEMP[1].xxxx\nRET\nENDIF\nSGE TEMP[1].y, TEMP[0].xxxx, IMM[0].wwww\n\
         IF TEMP[1].yyyy\nBRK\nENDIF\nENDLOOP\nMOV TEMP[0].y, IMM[0].xxxx\nENDSUB\n"
    );
    let o = run_text(
        &text,
        &lanes_input(0, [[0.0; 4], [1.0; 4], [2.0; 4], [9.0; 4]]),
    );
    // Lane with limit L returns when the counter exceeds L (lanes 0-2, counters 1, 2, 3); lane 3
    // reaches 3 first, breaks and finishes the subroutine.
    assert_eq!(xs(&o, 0, 0), [1.0, 2.0, 3.0, 3.0]);
    assert_eq!(xs(&o, 0, 1), [0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn skipped_blocks_cost_only_their_closing_instruction() {
    let text = format!(
        "{HEAD}IF IMM[0].yyyy\nMOV OUT[0], IMM[0].xxxx\nMOV OUT[0], IMM[0].xxxx\nELSE\nMOV OUT[1], IMM[0].xxxx\nENDIF\nEND\n"
    );
    let o = run_text(&text, &RunInputs::default());
    // IF, ELSE, MOV, ENDIF, END.
    assert_eq!(o.instructions, Some(5));
    assert_eq!(xs(&o, 1, 0), [1.0; 4]);
    assert_eq!(xs(&o, 0, 0), [0.0; 4]);
}

#[test]
fn vertex_programs_run_four_independent_vertices() {
    let text = "VERT\nDCL IN[0]\nDCL OUT[0]\nMUL OUT[0], IN[0], IN[0]\nEND\n";
    let o = run_text(
        text,
        &lanes_input(0, [[1.0; 4], [2.0; 4], [3.0; 4], [-4.0; 4]]),
    );
    assert_eq!(xs(&o, 0, 3), [1.0, 4.0, 9.0, 16.0]);
    assert!(o.lanes.iter().all(|l| l.vertices.is_empty() && !l.killed));
}

#[test]
fn bra_leaves_and_enters_blocks() {
    // Out of a loop when the counter reaches 3 (all lanes agree).
    let text = format!(
        "{HEAD}BGNLOOP\nADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\nSGE.CC TEMP[1].x, TEMP[0].xxxx, IMM[0].wwww\n\
         (GT.x) BRA :5\nENDLOOP\nMOV OUT[0], TEMP[0]\nEND\n"
    );
    let o = run_text(&text, &RunInputs::default());
    assert_eq!(xs(&o, 0, 0), [3.0; 4]);
    // Into an IF whose test is false: as if the branch had been taken; ENDIF balances it.
    let text = format!(
        "{HEAD}BRA :2\nIF IMM[0].yyyy\nMOV OUT[0], IMM[0].xxxx\nELSE\nMOV OUT[1], IMM[0].xxxx\nENDIF\nMOV OUT[2], IMM[0].zzzz\nEND\n"
    );
    let o = run_text(&text, &RunInputs::default());
    assert_eq!(
        (xs(&o, 0, 0), xs(&o, 1, 0), xs(&o, 2, 0)),
        (vec![1.0; 4], vec![0.0; 4], vec![2.0; 4])
    );
}

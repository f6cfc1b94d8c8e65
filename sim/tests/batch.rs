//! The prepared-program batch path of both models gives, quad for quad, what a fresh `run` gives:
//! the same outputs, kills, warnings, instruction counts and core cycles, whatever ran before
//! on the same machine.

use microcode::compile::compile;
use microcode::core::CoreConfig;
use microcode::tgsi::text;
use sim::run_io::batch::{BatchInputs, BatchOutputs, CountUnit};
use sim::run_io::{Face, QuadInputs, RunInputs, LANES};

/// Reads a temporary before writing it (so a register left over from the previous quad would
/// show), kills some lanes, reads the FACE input, constants directly and through an address register (out of range in some quads),
/// and loops a data-dependent number of times (so quads take different cycle counts).
const PROGRAM: &str = "FRAG
DCL IN[0], GENERIC[0], LINEAR
DCL IN[1], FACE, CONSTANT
DCL OUT[0], COLOR
DCL TEMP[0..2]
DCL ADDR[0]
DCL CONST[0..3]
IMM FLT32 { 0.5, 1.0, 0.25, 4.0 }
  0: ADD TEMP[1], TEMP[1], IN[0]
  1: MUL TEMP[0], IN[0], CONST[0]
  2: ADD TEMP[0], TEMP[0], IN[1].xxxx
  3: SUB TEMP[2].x, IN[0].xxxx, IMM[0].zzzz
  4: KIL TEMP[2].xxxx
  5: MUL TEMP[2].x, IN[0].yyyy, IMM[0].wwww
  6: ARL ADDR[0].x, TEMP[2].xxxx
  7: ADD TEMP[1], TEMP[1], CONST[ADDR[0].x]
  8: BGNLOOP
  9:   SUB TEMP[2].x, TEMP[2].xxxx, IMM[0].yyyy
 10:   SLT TEMP[2].y, TEMP[2].xxxx, IMM[0].xxxx
 11:   IF TEMP[2].yyyy
 12:     BRK
 13:   ENDIF
 14:   ADD TEMP[0], TEMP[0], IMM[0].zzzz
 15: ENDLOOP
 16: ADD OUT[0], TEMP[0], TEMP[1]
 17: END
";

/// Quads whose inputs differ per lane and per quad; the ninth has no IN[0] at all.
fn quads() -> Vec<QuadInputs> {
    let mut out: Vec<QuadInputs> = (0..8)
        .map(|q| {
            let mut m = QuadInputs::new();
            let lanes: [[u32; 4]; LANES] = std::array::from_fn(|l| {
                std::array::from_fn(|c| {
                    (0.125 * q as f32 + 0.1 * l as f32 + 0.03 * c as f32 - 0.05).to_bits()
                })
            });
            m.insert(0, lanes);
            m
        })
        .collect();
    out.push(QuadInputs::new());
    out
}

fn base_inputs() -> RunInputs {
    let mut base = RunInputs::default();
    base.set_const(0, 0, [2.0f32, -1.0, 0.5, 3.0].map(f32::to_bits));
    base.set_const(0, 2, [0.5f32, 0.25, -2.0, 1.0].map(f32::to_bits));
    base.face = Some(Face::Back);
    base
}

#[test]
fn reference_batch_equals_single_runs() {
    let program = text::parse(PROGRAM).expect("parses");
    let prepared = sim::reference::Prepared::new(&program).expect("prepares");
    let base = base_inputs();
    let quads = quads();
    let batch = prepared.run_batch(&base, &quads);
    assert_eq!(batch.len(), quads.len());
    let mut killed = 0;
    for (q, got) in quads.iter().zip(batch) {
        let mut single = base_inputs();
        single.inputs = q.clone();
        let want = sim::reference::run(&program, &single).expect("runs");
        let got = got.expect("batch runs");
        assert_eq!(got, want);
        killed += got.lanes.iter().filter(|l| l.killed).count();
    }
    // The program's paths are exercised: some lanes die, some live.
    assert!(
        killed > 0 && killed < quads.len() * LANES,
        "killed {killed}"
    );
}

#[test]
fn core_batch_equals_single_runs_cycles_included() {
    let program = text::parse(PROGRAM).expect("parses");
    let image = compile(&program, &CoreConfig::default())
        .expect("compiles")
        .image;
    let prepared = sim::core_model::Prepared::new(&image);
    let mut base = base_inputs();
    // The core model reads FACE from the inputs as given (callers apply it).
    base.face = None;
    let quads = quads();
    let batch = prepared.run_batch(&base, &quads);
    assert_eq!(batch.len(), quads.len());
    let mut cycles = std::collections::BTreeSet::new();
    for (q, got) in quads.iter().zip(batch) {
        let single = RunInputs {
            constants: base.constants.clone(),
            inputs: q.clone(),
            ..RunInputs::default()
        };
        let want = sim::core_model::run(&image, &single).expect("runs");
        let got = got.expect("batch runs");
        assert_eq!(got, want);
        cycles.insert(got.cycles);
    }
    // Quads loop different numbers of times, so the counts must differ between quads.
    assert!(cycles.len() > 1, "{cycles:?}");
}

#[test]
fn batch_errors_stay_with_their_quad() {
    // A loop without exit: every quad exhausts the budget, each reported on its own.
    let program = text::parse(
        "FRAG\nDCL IN[0]\nDCL OUT[0]\nBGNLOOP\nADD OUT[0], OUT[0], IN[0]\nENDLOOP\nEND\n",
    )
    .expect("parses");
    let prepared = sim::reference::Prepared::new(&program).expect("prepares");
    let base = RunInputs {
        budget: 50,
        ..RunInputs::default()
    };
    let results = prepared.run_batch(&base, &quads()[..3]);
    assert_eq!(results.len(), 3);
    for r in results {
        let e = r.expect_err("budget");
        assert!(matches!(
            e.kind,
            sim::reference::RunErrorKind::BudgetExhausted { budget: 50 }
        ));
    }
}

/// `quads()` as a flat batch of `IN[0]` (the ninth quad's zero values read as its absent input).
fn flat_quads() -> BatchInputs {
    let mut flat = BatchInputs::new(vec![0]);
    for q in quads() {
        let values = flat.push_quad();
        if let Some(lanes) = q.get(&0) {
            values.copy_from_slice(lanes);
        }
    }
    flat
}

/// Checks quad `q` of flat outputs for `OUT[0]` and the undeclared `OUT[5]` against a single run.
fn assert_flat_quad<E>(out: &BatchOutputs<E>, q: usize, want: &sim::run_io::RunOutput, count: u64) {
    let values = out.quad(q);
    for l in 0..LANES {
        assert_eq!(values[l], want.lanes[l].outputs[&0], "quad {q} lane {l}");
        assert_eq!(values[LANES + l], [0; 4], "quad {q} lane {l}: OUT[5]");
    }
    assert_eq!(out.killed(q), std::array::from_fn(|l| want.lanes[l].killed));
    assert_eq!(out.count(q), count);
    let warnings = out
        .warnings()
        .iter()
        .find(|(k, _)| *k == q)
        .map(|(_, w)| w.clone());
    assert_eq!(warnings.unwrap_or_default(), want.warnings, "quad {q}");
}

#[test]
fn reference_flat_batch_equals_single_runs_twice_in_reused_buffers() {
    let program = text::parse(PROGRAM).expect("parses");
    let prepared = sim::reference::Prepared::new(&program).expect("prepares");
    let base = base_inputs();
    let flat = flat_quads();
    let mut out = BatchOutputs::new(vec![0, 5]);
    let mut warned = 0;
    for _ in 0..2 {
        prepared.run_flat(&base, &flat, &mut out);
        assert_eq!(out.quads(), 9);
        assert!(out.errors().is_empty());
        assert_eq!(out.count_unit(), CountUnit::Instructions);
        for (q, inputs) in quads().into_iter().enumerate() {
            let mut single = base_inputs();
            single.inputs = inputs;
            let want = sim::reference::run(&program, &single).expect("runs");
            assert_flat_quad(&out, q, &want, want.instructions.expect("counted"));
            warned += usize::from(!want.warnings.is_empty());
        }
    }
    // The address register leaves the constant range in some quads: warnings are exercised.
    assert!(warned > 0);
}

#[test]
fn core_flat_batch_equals_single_runs() {
    let program = text::parse(PROGRAM).expect("parses");
    let image = compile(&program, &CoreConfig::default())
        .expect("compiles")
        .image;
    let prepared = sim::core_model::Prepared::new(&image);
    let mut base = base_inputs();
    base.face = None;
    let mut out = BatchOutputs::new(vec![0, 5]);
    prepared.run_flat(&base, &flat_quads(), &mut out);
    assert_eq!(out.quads(), 9);
    assert!(out.errors().is_empty());
    assert_eq!(out.count_unit(), CountUnit::Cycles);
    for (q, inputs) in quads().into_iter().enumerate() {
        let single = RunInputs {
            constants: base.constants.clone(),
            inputs,
            ..RunInputs::default()
        };
        let want = sim::core_model::run(&image, &single).expect("runs");
        assert_flat_quad(&out, q, &want, want.cycles.expect("clocked"));
    }
}

#[test]
fn flat_batch_errors_stay_with_their_quad() {
    let program = text::parse(
        "FRAG\nDCL IN[0]\nDCL OUT[0]\nBGNLOOP\nADD OUT[0], OUT[0], IN[0]\nENDLOOP\nEND\n",
    )
    .expect("parses");
    let prepared = sim::reference::Prepared::new(&program).expect("prepares");
    let base = RunInputs {
        budget: 50,
        ..RunInputs::default()
    };
    let mut out = BatchOutputs::new(vec![0]);
    prepared.run_flat(&base, &flat_quads(), &mut out);
    let failed: Vec<usize> = out.errors().iter().map(|(q, _)| *q).collect();
    assert_eq!(failed, (0..9).collect::<Vec<_>>());
    assert!(out.errors().iter().all(|(_, e)| matches!(
        e.kind,
        sim::reference::RunErrorKind::BudgetExhausted { budget: 50 }
    )));
}

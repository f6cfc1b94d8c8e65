//! Every per-opcode vector on the reference model, and the coverage rule: every supported opcode has
//! a vector of every class its table row makes applicable.

use sim::reference;
use sim::vectors::{all_vectors, coverage, run_vector_set, run_vectors, Check, Class, Shape};

#[test]
fn every_supported_opcode_has_every_applicable_class() {
    let vectors = all_vectors();
    let missing = coverage::missing(&vectors);
    let text: Vec<String> = missing
        .iter()
        .map(|(op, classes)| {
            let c: Vec<String> = classes.iter().map(Class::to_string).collect();
            format!("{op}: {}", c.join(", "))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "opcodes lacking vectors:\n{}",
        text.join("\n")
    );
    let misplaced = coverage::misplaced(&vectors);
    assert!(
        misplaced.is_empty(),
        "vectors for exempt or unsupported opcodes: {misplaced:?}"
    );
}

#[test]
fn every_exemption_names_a_reason() {
    for (op, why) in coverage::exempt() {
        assert!(!why.is_empty(), "{op} exempt without a reason");
    }
}

#[test]
fn every_vector_has_expectations_for_its_shape() {
    for v in all_vectors() {
        let info = v.opcode.info();
        // Texture opcodes get their sampler operand from the harness.
        let sources = usize::from(info.num_src) - usize::from(matches!(v.shape, Shape::Texture(_)));
        assert!(
            v.src.len() >= sources,
            "{} [{}] {}: too few sources",
            v.opcode,
            v.class,
            v.note
        );
        let want_dsts = match v.shape {
            Shape::Kill => 0,
            _ => usize::from(info.num_dst.max(1)),
        };
        assert_eq!(
            v.expect.len(),
            want_dsts,
            "{} [{}] {}: expectations per destination",
            v.opcode,
            v.class,
            v.note
        );
    }
}

#[test]
fn reference_model_passes_every_vector() {
    let report = run_vectors(reference::run);
    println!("{}", report.to_table());
    let failures: Vec<String> = report.failures().map(|f| f.to_string()).collect();
    assert!(
        failures.is_empty(),
        "{} failing vectors:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(report.all_passed());
}

#[test]
fn a_broken_engine_is_caught() {
    // Flip a high significand bit of OUT[0].x in lane 2: every vector that checks that component must fail.
    let broken = |p: &microcode::tgsi::Program, i: &sim::run_io::RunInputs| {
        reference::run(p, i).map(|mut out| {
            if let Some(v) = out.lanes[2].outputs.get_mut(&0) {
                v[0] ^= 0x0040_0000;
            }
            out
        })
    };
    let mut total = 0;
    for v in all_vectors() {
        total += 1;
        let survived = run_vector_set(std::slice::from_ref(&v), broken)
            .failures()
            .count()
            == 0;
        // Only vectors that check nothing there may miss it: kills (no outputs), unchecked components
        // and absolute tolerances around results near zero.
        let lenient =
            v.shape == Shape::Kill || matches!(v.expect[0][2][0], Check::Any | Check::Abs { .. });
        assert!(
            !survived || lenient,
            "{} [{}] {}: a flipped bit went unnoticed",
            v.opcode,
            v.class,
            v.note
        );
    }
    let erroring = run_vectors(|_: &microcode::tgsi::Program, _: &sim::run_io::RunInputs| {
        Err::<sim::run_io::RunOutput, _>("no engine")
    });
    assert_eq!(erroring.failures().count(), total);
}

//! Every proof CI runs: it must hold on the unit as emitted, and fail (the solver finds a
//! counterexample) on the unit with its planted bug, so a proof that proves nothing cannot pass.
//! A missing yosys or solver fails these tests (`cargo xtask setup` installs both).
use formal::{prove, Proof, Variant, Verdict, PROOFS};

fn proof(name: &str) -> &'static Proof {
    PROOFS
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no proof named {name}"))
}

/// The proof holds and its planted bug is caught.
fn holds_and_catches(name: &str) {
    let p = proof(name);
    let outcome = prove(p, Variant::Original).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(
        outcome.verdict,
        Verdict::Proven,
        "{name} does not hold (work files in {})",
        outcome.dir.display()
    );
    let mutant = prove(p, Variant::Mutant).unwrap_or_else(|e| panic!("{name} mutant: {e}"));
    assert!(
        matches!(mutant.verdict, Verdict::Refuted(_)),
        "{name} still holds with its planted bug ({}): it proves nothing about that part \
         (work files in {})",
        p.mutation.what,
        mutant.dir.display()
    );
}

macro_rules! proofs {
    ($($test:ident => $name:literal),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                holds_and_catches($name);
            }
        )*
        /// The tests above are exactly the proofs marked for CI.
        #[test]
        fn every_ci_proof_has_a_test() {
            let tested = [$($name),*];
            let ci: Vec<&str> = PROOFS.iter().filter(|p| p.ci).map(|p| p.name).collect();
            assert_eq!(tested.to_vec(), ci, "update the list in formal/tests/proofs.rs");
        }
    };
}

proofs! {
    fadd_add => "fadd-add",
    fadd_integral => "fadd-integral",
    fadd_f2i => "fadd-f2i",
    fadd_i2f => "fadd-i2f",
    fadd_expx => "fadd-expx",
    fcmp => "fcmp",
    misc_int => "misc-int",
    misc_compare => "misc-compare",
    misc_exact => "misc-exact",
    fmul_round => "fmul-round",
    fmul_product => "fmul-product",
    core_mask => "core-mask",
    core_stop => "core-stop",
    core_host => "core-host",
    core_stacks => "core-stacks",
    loader_drop => "loader-drop",
    loader_info => "loader-info",
    loader_status => "loader-status",
    loader_write => "loader-write",
}

/// `core_stop.smt2` names the states of the drain one by one (s1..s14): it is written for a
/// drain of 13 clocks.
#[test]
fn core_stop_is_written_for_the_drain_it_checks() {
    assert_eq!(
        hdl::sequencer::DRAIN_CLOCKS,
        13,
        "update formal/smt/core_stop.smt2 (its quiet s1..s13 and s14) for the new drain"
    );
    let p = PROOFS
        .iter()
        .find(|p| p.name == "core-stop")
        .expect("core-stop");
    assert!(p.query.concat().contains("(quiet s13)") && p.query.concat().contains("s14"));
}

/// The proofs too slow for CI, run by `cargo test -p formal -- --ignored` or
/// `cargo xtask formal`.
#[test]
#[ignore = "long run: minutes to hours (cargo xtask formal NAME)"]
fn long_proofs() {
    for p in PROOFS.iter().filter(|p| !p.ci) {
        holds_and_catches(p.name);
    }
}

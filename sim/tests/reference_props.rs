//! Random valid programs on the reference model: it never panics, fails only for run-time reasons
//! (budget, divergent BRA, address stack), reports every declared output and is deterministic.

mod common;

use common::echo::Echo;
use microcode::tgsi::arbitrary;
use microcode::tgsi::{File, Processor, Program};
use proptest::prelude::*;
use sim::reference::{self, RunErrorKind};
use sim::run_io::{RunInputs, Sampler};

fn inputs(seed: &[u32]) -> RunInputs {
    let mut i = RunInputs {
        budget: 20_000,
        ..RunInputs::default()
    };
    let word = |k: usize| {
        seed.get(k % seed.len().max(1))
            .copied()
            .unwrap_or(0x3F80_0000)
    };
    for n in 0..8u32 {
        for l in 0..4 {
            let k = (n as usize) * 16 + l * 4;
            i.set_input_lane(n, l, [word(k), word(k + 1), word(k + 2), word(k + 3)]);
        }
        for v in 0..6u32 {
            let k = (v * 8 + n) as usize;
            i.geometry_inputs
                .insert((v, n), [word(k + 3), word(k), word(k + 1), word(k + 2)]);
        }
    }
    for b in 0..4u32 {
        for n in 0..16u32 {
            let k = (b * 16 + n) as usize * 3;
            i.set_const(b, n, [word(k), word(k + 2), word(k + 1), word(k + 5)]);
        }
    }
    i.textures = (0..16)
        .map(|_| Some(Box::new(Echo) as Box<dyn Sampler>))
        .collect();
    i
}

fn declared_outputs(p: &Program) -> usize {
    p.declarations
        .iter()
        .filter(|d| d.file == File::Output)
        .map(|d| (d.last - d.first + 1) as usize)
        .sum()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn valid_programs_run_or_fail_for_run_time_reasons(
        p in arbitrary::program(),
        seed in proptest::collection::vec(any::<u32>(), 1..64),
    ) {
        let i = inputs(&seed);
        match reference::run(&p, &i) {
            Ok(o) => {
                let again = reference::run(&p, &i).expect("a second run succeeds too");
                prop_assert_eq!(&o, &again);
                prop_assert!(o.instructions.is_some_and(|n| n >= 1 && n <= i.budget));
                for lane in &o.lanes {
                    prop_assert!(lane.outputs.len() <= declared_outputs(&p));
                    prop_assert!(!lane.killed || p.processor == Processor::Fragment);
                    prop_assert!(lane.vertices.is_empty() || p.processor == Processor::Geometry);
                }
            }
            Err(e) => prop_assert!(
                matches!(
                    e.kind,
                    RunErrorKind::BudgetExhausted { .. }
                        | RunErrorKind::DivergentBranch { .. }
                        | RunErrorKind::AddressStackOverflow { .. }
                        | RunErrorKind::AddressStackUnderflow { .. }
                ),
                "unexpected failure on a valid program: {}", e
            ),
        }
    }
}

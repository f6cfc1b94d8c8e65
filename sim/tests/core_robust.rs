//! Robustness of the compiler, the image reader and the core model on arbitrary input: every
//! valid program of the shared generator (`microcode::tgsi::arbitrary`) either compiles or gets a
//! typed error, never a panic; what compiles round-trips through bytes and runs on the core model
//! to a result or a fault; arbitrary bytes never make the image reader panic.

use microcode::compile::{compile, CompileError};
use microcode::core::{CoreConfig, Image};
use microcode::tgsi::arbitrary;
use microcode::tgsi::validate::{validate, Limits};
use proptest::prelude::*;
use sim::run_io::RunInputs;

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_programs_compile_or_fail_cleanly(p in arbitrary::program()) {
        prop_assume!(validate(&p, &Limits::default()).is_ok());
        match compile(&p, &CoreConfig::default()) {
            Ok(c) => {
                let bytes = c.image.to_bytes();
                prop_assert_eq!(Image::from_bytes(&bytes), Ok(c.image.clone()));
                let inputs = RunInputs { budget: 20_000, ..RunInputs::default() };
                // A result or a fault, both fine, but never a stack overflow: the compiler
                // checked the static depths against the config.
                if let Err(f) = sim::core_model::run(&c.image, &inputs) {
                    prop_assert!(
                        !matches!(
                            f.kind,
                            sim::core_model::FaultKind::StackOverflow { .. }
                                | sim::core_model::FaultKind::CallStackOverflow { .. }
                        ),
                        "{}",
                        f
                    );
                }
                prop_assert!(!c.listing(&p).is_empty());
            }
            Err(CompileError::Unsupported { index, .. }) => {
                prop_assert!(index < p.instructions.len());
            }
            Err(e) => {
                prop_assert!(!e.to_string().is_empty());
            }
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic_the_reader(mut b in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = Image::from_bytes(&b);
        // With a valid header and checksum the body is parsed too.
        let mut img = b"TGCI".to_vec();
        img.extend_from_slice(&microcode::core::image::VERSION.0.to_le_bytes());
        img.extend_from_slice(&[0, 0]);
        img.append(&mut b);
        let crc = crc32fast_hash(&img);
        img.extend_from_slice(&crc.to_le_bytes());
        let _ = Image::from_bytes(&img);
    }
}

/// CRC-32 (IEEE), bit by bit, so the test does not depend on the crate under test's choice.
fn crc32fast_hash(b: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &x in b {
        crc ^= u32::from(x);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

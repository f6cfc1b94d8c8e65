//! Formal proofs of the shader core's hardware against independent definitions of the project's
//! numeric contract (`shared/notes/decisions.md`), for ALL inputs rather than samples.
//!
//! Each [`Proof`] takes a unit's Verilog exactly as rust-hdl emits it from `hdl` ([`units`]),
//! turns it into SMT-LIB2 with yosys (`write_smt2`), unrolls its pipeline over the clock edges
//! from operands to result, and asks Bitwuzla for an input on which the unit and the reference
//! (`formal/smt/contract.smt2`: SMT-LIB's FloatingPoint operations wrapped with the contract's
//! flush and NaN rules, and bit-vector operations) differ. `unsat` is a proof. Every proof has
//! a planted bug ([`Mutation`]) that it must find, so that a proof that proves nothing fails
//! its test. `cargo xtask formal` runs them; ARCHITECTURE.md says what is proven and assumed.

#![warn(missing_docs)]

pub mod encodings;
pub mod error;
pub mod loader;
pub mod proofs;
pub mod run;
pub mod units;

pub use error::{FormalError, Result};
pub use proofs::{select, Mutation, Proof, PROOFS};
pub use run::{decide, prove, prove_within, Outcome, Variant, Verdict};

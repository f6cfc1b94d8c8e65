//! The core's arithmetic algorithms, written once as Rust functions on bits.

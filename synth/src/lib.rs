//! synth crate (under construction).

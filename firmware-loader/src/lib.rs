//! firmware-loader crate (under construction).

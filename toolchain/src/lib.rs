//! toolchain crate (under construction).

//! sim crate (under construction).

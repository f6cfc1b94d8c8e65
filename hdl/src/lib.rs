//! hdl crate (under construction).

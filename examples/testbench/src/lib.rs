//! An example testbench project: the shaders under `shaders/` are tested in `tests/` with
//! `tgsi_core::testbench`. Copy the folder, put your own shaders in `shaders/`, and run
//! `cargo test`.

#![warn(missing_docs)]

//! The memories the blocks share: block RAM and ROM wrappers.

pub mod bram;
pub mod rom;

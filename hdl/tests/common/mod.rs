//! Shared test support: the reference model, direct-drive simulation, external tools.
#![allow(dead_code)]

pub mod model;
pub mod sim;
pub mod tools;

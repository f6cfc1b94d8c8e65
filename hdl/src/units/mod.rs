//! The core's other execution units: the misc unit (integer ALU, compares, selects, moves), its transcendental steps and its texture unit.

pub mod misc_unit;
pub mod tex_unit;
pub mod trans_unit;

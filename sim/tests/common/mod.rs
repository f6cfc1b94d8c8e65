//! Helpers shared by the integration tests (each test binary uses a part of them).

#[allow(dead_code)]
pub mod echo;
#[allow(dead_code)]
pub mod mesa79;
#[allow(dead_code)]
pub mod programs;

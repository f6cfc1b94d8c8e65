//! One module per subcommand, plus the helpers they share.

pub mod accuracy;
pub mod bench;
pub mod board;
pub mod check;
pub mod compile;
pub mod conformance;
pub mod decode;
pub mod demo;
pub mod disasm;
pub mod dump;
pub mod emulate;
pub mod encode;
pub mod farm;
pub mod flash;
pub mod input;
pub mod load;
pub mod ports;
pub mod render;
pub mod report;
pub mod run;

pub mod selftest;
pub mod synth;
pub mod translate;
pub mod uniform;

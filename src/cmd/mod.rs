//! One module per subcommand, plus the helpers they share.

pub mod check;
pub mod decode;
pub mod demo;
pub mod dump;
pub mod encode;
pub mod input;
pub mod output;
pub mod run;

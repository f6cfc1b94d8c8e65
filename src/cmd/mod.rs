//! One module per subcommand.

pub mod demo;

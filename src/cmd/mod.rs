//! One module per subcommand, plus the helpers they share.

pub mod accuracy;
pub mod check;
pub mod compile;
pub mod decode;
pub mod demo;
<<<<<<< HEAD
=======
pub mod disasm;
>>>>>>> isa
pub mod dump;
pub mod encode;
pub mod input;
pub mod output;
pub mod run;
<<<<<<< HEAD
=======
pub mod run_core;
>>>>>>> isa

//! `tgsi-core`: the command-line tool.

fn main() {}

//! The validator between parsing and everything else.

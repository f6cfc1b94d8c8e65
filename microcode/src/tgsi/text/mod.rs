//! The TGSI text form: parser (both Mesa dialects) and printer.
//!
//! - [`parse`] reads `FRAG1.1`-style (Mesa <= 7.7) and `FRAG`-style (Mesa 7.8/7.9) text, plus the
//!   spellings `docs/text-syntax.md` defines for what only tokens could say before (condition
//!   codes, MODULATE, precision, EXT_MOD nesting, extended swizzles, ExtDivide).
//! - [`print()`] / [`print_with`] write Mesa 7.9 `tgsi_dump` layout with exact numbers; for every
//!   program `parse(&print(p)) == Ok(p)`.
//! - [`number`] formats and reads binary32 values and integers as the text (and the JSON output of
//!   the tools) writes them.
//!
//! The parser never panics; every failure is a [`ParseError`] located at the offending token.

mod error;
mod instruction;
mod lexer;
mod names;
pub mod number;
mod operand;
mod parse;
mod print;

pub use error::ParseError;
pub use parse::parse;
pub use print::{print, print_with, PrintOptions};

//! The TGSI text form: parser (both Mesa dialects) and printer.

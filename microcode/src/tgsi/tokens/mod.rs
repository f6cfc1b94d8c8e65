//! The TGSI binary token stream (version 1.1 of the 004 document, extended to 1.2).

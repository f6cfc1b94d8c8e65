//! The serial loader of the tgsi-core shader core: protocol, device model, host client, transports.
//!
//! - [`frame`]: framing (delimiters, byte stuffing, CRC-32) and a resynchronising streaming decoder.
//! - [`protocol`]: commands, answers, NAK reasons and payload layouts (`PROTOCOL.md` is the prose).
//! - [`device`]: the executable model of the on-chip loader, the reference for the HDL loader.
//! - [`server`]: the loop that serves a device model over a transport (tests, emulation).
//! - [`host`]: the client: retries, chunked uploads, verification, runs.
//! - [`port`]: transports (serial port, in-memory pipe, pseudo-terminal, fault injector).
//! - [`image`]: reading the compiler's image file into upload regions.
//! - [`board`]: running an image's quads in TGSI terms (inputs, CONST values, outputs).
//! - [`farm`]: one frame's RENDER over several boards, block by block, surviving a lost board.

#![warn(missing_docs)]

pub mod board;
pub mod device;
pub mod farm;
pub mod frame;
pub mod host;
pub mod image;
pub mod port;
pub mod protocol;
pub mod server;

//! `tgsi-core` as a library: a testbench for your own shaders, for `cargo test`.
//!
//! Load a TGSI program, pick an engine (the reference model, the core model, rust-hdl's
//! simulation of the core's hardware or its Verilog under Verilator), give a quad its inputs,
//! constants and textures, run it, and compare the outputs bit for bit or within a number of
//! units in the last place. A failed comparison names the output, lane and component that differ.
//!
//! ```
//! use tgsi_core::testbench::{Engine, Quad, Shader};
//!
//! let shader = Shader::parse(
//!     "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\nDCL CONST[0]\n\
//!      MAD OUT[0], IN[0], CONST[0], IN[0]\nEND\n",
//! )
//! .unwrap();
//! let quad = Quad::new()
//!     .input(0, [0.5, 1.0, 2.0, 1.0])
//!     .constant(0, [2.0, 2.0, 2.0, 0.0]);
//! let reference = shader.run(Engine::Reference, &quad).unwrap();
//! let core = shader.run(Engine::Core, &quad).unwrap();
//! reference.compare_bits(&core).unwrap();
//! assert_eq!(core.output(0)[0], [1.5, 3.0, 6.0, 1.0]);
//! ```
//!
//! `examples/testbench` is a project to copy: its `tests/` run shaders this way.

#![warn(missing_docs)]

pub mod demo;
pub mod testbench;

pub use microcode;
pub use sim;

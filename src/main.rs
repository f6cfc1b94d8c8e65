//! `tgsi-core`: compile, simulate, synthesise and load TGSI shaders for the iCE40 shader core.
//!
//! Each subcommand lives in `src/cmd/<name>.rs` with its clap arguments and a `run` function; this
//! file only dispatches and turns errors into a message and an exit status.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod cmd;

#[derive(Parser)]
#[command(name = "tgsi-core", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Print a program (text or tokens) as canonical text.
    Dump(cmd::dump::DumpArgs),
    /// Encode a program as binary tokens.
    Encode(cmd::encode::EncodeArgs),
    /// Decode binary tokens to text.
    Decode(cmd::decode::DecodeArgs),
    /// Parse and validate programs.
    Check(cmd::check::CheckArgs),
    /// Execute a TGSI program on one quad and print its outputs.
    Run(cmd::run::RunArgs),
    /// Build the bitstream for a board (Alchitry Cu, ULX3S) and report what it costs.
    Synth(cmd::synth::SynthArgs),
    /// Measure the models' speed and the core's clocks per instruction.
    Bench(cmd::bench::BenchArgs),
    /// Per-opcode vectors and programs on the engines, judged against the reference model.
    Conformance(cmd::conformance::ConformanceArgs),
    /// Render a fragment shader over a grid of quads to a PNG.
    Render(cmd::render::RenderArgs),
    /// Program a board with a bitstream (iceprog; openFPGALoader or fujprog for the ECP5).
    Flash(cmd::flash::FlashArgs),
    /// Compile a program to a core image.
    Compile(cmd::compile::CompileArgs),
    /// Print a core image as a listing.
    Disasm(cmd::disasm::DisasmArgs),
    /// Worst errors of the approximated operations against their bounds.
    Accuracy(cmd::accuracy::AccuracyArgs),
    /// List serial ports.
    Ports(cmd::ports::PortsArgs),
    /// Upload an image to the board over the serial loader, verify and commit it.
    Load(cmd::load::LoadArgs),
    /// Bring-up check of a board: loader round trip, core programs against the core model.
    Selftest(cmd::selftest::SelftestArgs),
    /// Translate a WGSL, GLSL or SPIR-V shader (through naga) to TGSI text.
    Translate(cmd::translate::TranslateArgs),
    /// Simulate the whole board and serve its serial port on a pseudo-terminal.
    Emulate(cmd::emulate::EmulateArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => cmd::demo::run(),
        Some(Command::Dump(a)) => cmd::dump::run(a),
        Some(Command::Encode(a)) => cmd::encode::run(a),
        Some(Command::Decode(a)) => cmd::decode::run(a),
        Some(Command::Check(a)) => cmd::check::run(a),
        Some(Command::Run(a)) => cmd::run::run(a),
        Some(Command::Synth(a)) => cmd::synth::run(a),
        Some(Command::Bench(a)) => cmd::bench::run(a),
        Some(Command::Conformance(a)) => cmd::conformance::run(a),
        Some(Command::Render(a)) => cmd::render::run(a),
        Some(Command::Flash(a)) => cmd::flash::run(a),
        Some(Command::Compile(a)) => cmd::compile::run(a),
        Some(Command::Disasm(a)) => cmd::disasm::run(a),
        Some(Command::Accuracy(a)) => cmd::accuracy::run(a),
        Some(Command::Ports(a)) => cmd::ports::run(a),
        Some(Command::Load(a)) => cmd::load::run(a),
        Some(Command::Selftest(a)) => cmd::selftest::run(a),
        Some(Command::Emulate(a)) => cmd::emulate::run(a),
        Some(Command::Translate(a)) => cmd::translate::run(a),
    };
    match result {
        Ok(code) => code,
        // A translation error already reads `FILE:LINE:COL: error: ...`, as compilers write.
        Err(e) if e.chain().count() == 1 && e.is::<translate::TranslateError>() => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("error: {}", render_error(&e));
            ExitCode::FAILURE
        }
    }
}

/// The error and its causes joined by ": ", like `{:#}`, but a cause whose text the message
/// before it already ends with is left out: library errors that show their source in their own
/// message would otherwise print it twice ("bits above bit 108 are set: bits above bit 108 are
/// set").
fn render_error(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if out.ends_with(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_source_shown_in_its_message_is_printed_once() {
        let e = microcode::core::Image::from_bytes(&[]).unwrap_err();
        let e = anyhow::Error::new(e).context("f.img");
        assert_eq!(render_error(&e), format!("f.img: {}", e.root_cause()));
        let inner = std::io::Error::other("bits above bit 108 are set");
        let outer = anyhow::Error::new(inner)
            .context("offset 12: instruction 0: bits above bit 108 are set");
        assert_eq!(
            render_error(&outer),
            "offset 12: instruction 0: bits above bit 108 are set"
        );
    }
}

//! `render --engine board` on the emulated board (the whole board design under Verilator, served
//! on a pseudo-terminal at its line rate): the RENDER path (the program transformed to make its
//! inputs on the chip and pack its colour, the frame streamed) draws the bundled examples pixel
//! for pixel as the core model does, and a render interrupted with Ctrl-C leaves the board
//! usable for the next command.
#![cfg(unix)]

use microcode::core::CoreConfig;
use sim::hardware::emulate::{self, EmuEngine, Emulation, EMULATED_BAUD};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

fn emulation() -> Emulation {
    emulate::start(
        EmuEngine::Verilator,
        &CoreConfig::default(),
        EMULATED_BAUD,
        &mut |m| eprintln!("{m}"),
    )
    .expect("the emulated board starts (the toolchain comes from `cargo xtask setup`)")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tgsi-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name)
}

/// `tgsi-core render FILE -o OUT --size SIZE --engine ENGINE [--port PORT] EXTRA...`.
fn render(file: &Path, out: &Path, size: &str, engine: &str, port: &str, extra: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tgsi-core"));
    c.arg("render")
        .arg(file)
        .arg("-o")
        .arg(out)
        .args(["--size", size, "--engine", engine])
        .args(extra);
    if engine == "board" {
        c.args(["--port", port]);
    }
    c.output().expect("tgsi-core runs")
}

fn ok(o: &Output, what: &str) -> String {
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(
        o.status.success(),
        "{what}: {}{err}",
        String::from_utf8_lossy(&o.stdout)
    );
    err
}

/// The bundled examples that need no texture, on the board through RENDER (no fallback to the
/// per-quad path), packed RGBA8 and float, equal the core model's pictures byte for byte.
#[test]
fn bundled_examples_render_on_the_board_like_the_core_model() {
    let emu = emulation();
    let dir = scratch("board-render");
    for name in ["checker.tgsi", "cutout.tgsi", "rings.tgsi"] {
        let core = dir.join(format!("{name}-core.png"));
        ok(&render(&example(name), &core, "12x10", "core", "", &[]), name);
        for extra in [&[][..], &["--float"][..]] {
            let board = dir.join(format!("{name}-board.png"));
            let err = ok(
                &render(&example(name), &board, "12x10", "board", &emu.port, extra),
                name,
            );
            assert!(!err.contains("quad by quad"), "{name} {extra:?}: {err}");
            assert_eq!(
                std::fs::read(&board).expect("board PNG"),
                std::fs::read(&core).expect("core PNG"),
                "{name} {extra:?}: board and core model pictures differ"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl-C (SIGINT) in the middle of a board render: the next `render --engine board` succeeds
/// and draws the core model's picture.
#[test]
fn a_render_interrupted_with_ctrl_c_leaves_the_board_usable() {
    let emu = emulation();
    let dir = scratch("board-ctrl-c");
    let long = dir.join("long.png");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tgsi-core"))
        .arg("render")
        .arg(example("checker.tgsi"))
        .arg("-o")
        .arg(&long)
        .args(["--size", "64x64", "--engine", "board", "--port", &emu.port])
        .spawn()
        .expect("tgsi-core starts");
    // Past the upload, into the stream (a 64x64 render streams for seconds on the emulation).
    std::thread::sleep(Duration::from_millis(2500));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let status = child.wait().expect("the render ends");
    assert!(!status.success(), "the render was interrupted, not finished");
    assert!(!long.exists(), "an interrupted render writes no picture");
    let core = dir.join("core.png");
    ok(&render(&example("rings.tgsi"), &core, "8x8", "core", "", &[]), "core");
    let board = dir.join("board.png");
    ok(
        &render(&example("rings.tgsi"), &board, "8x8", "board", &emu.port, &[]),
        "the render after Ctrl-C",
    );
    assert_eq!(std::fs::read(&board).unwrap(), std::fs::read(&core).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

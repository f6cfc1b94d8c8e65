//! `tgsi-core load`, `selftest` and `ports` end to end over a real pseudo-terminal, with the
//! firmware-loader device model serving the other end in a thread.
#![cfg(unix)]

mod board_support;

use board_support::{board, board_config, CoreRunner, Runner};
use firmware_loader::device::CopyRunner;
use firmware_loader::protocol::LoadState;
use microcode::core::image::{ConstSlot, ConstSource, Image, RegMap};
use microcode::core::isa::{Instr, Op};
use microcode::core::CoreConfig;
use std::path::PathBuf;
use std::process::{Command, Output};

/// The core the stand-in boards are: the default configuration.
fn config() -> CoreConfig {
    CoreConfig::default()
}

fn tgsi_core(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tgsi-core"))
        .args(args)
        .output()
        .expect("the tgsi-core binary runs")
}

fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tgsi-core-loader-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write temp file");
    p
}

/// `instructions` MOVs (different for each `seed`) and END, as an image would hold them.
fn instrs(seed: u8, instructions: usize) -> Vec<Instr> {
    (0..instructions)
        .map(|i| {
            let mut x = Instr::new(if i + 1 == instructions {
                Op::End
            } else {
                Op::Mov
            });
            x.dst = (i as u8).wrapping_mul(seed) % 32;
            x.wmask = 1 + (seed + i as u8) % 15;
            x
        })
        .collect()
}

/// The PROGRAM region of `instrs(seed, instructions)`: each 109-bit word in 16 little-endian
/// bytes, as the image file's CODE section holds it.
fn code(seed: u8, instructions: usize) -> Vec<u8> {
    instrs(seed, instructions)
        .iter()
        .flat_map(|i| microcode::core::isa::encode(i).to_le_bytes())
        .collect()
}

/// An image file for the core `config` with `instrs(seed, instructions)`.
fn image_file(
    config: &CoreConfig,
    seed: u8,
    instructions: usize,
    constants: &[ConstSlot],
    inputs: &[RegMap],
    outputs: &[RegMap],
) -> Vec<u8> {
    let code = instrs(seed, instructions);
    Image {
        config: config.clone(),
        processor: 0,
        origin: vec![0; code.len()],
        code,
        constants: constants.to_vec(),
        inputs: inputs.to_vec(),
        outputs: outputs.to_vec(),
    }
    .to_bytes()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn load_replaces_the_image_and_verifies() {
    let b = board(&config().to_bytes(), Runner::Copy(CopyRunner));
    let first = code(7, 40);
    let file = image_file(
        &config(),
        7,
        40,
        &[ConstSlot {
            k: 0,
            source: ConstSource::Data([0x3F80_0000, 0, 0, 0x3F80_0000]),
        }],
        &[RegMap { tgsi: 0, reg: 0 }],
        &[RegMap { tgsi: 0, reg: 1 }],
    );
    let path = scratch("first.tgci", &file);
    let out = tgsi_core(&["load", "--port", &b.slave_path, path.to_str().unwrap()]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("committed and verified"),
        "{}",
        text(&out.stdout)
    );
    {
        let dev = b.device.lock().unwrap();
        let active = dev.active_image().expect("an active image");
        assert_eq!(active.program, &first[..]);
        assert_eq!(&active.constants[..4], &[0, 0, 0x80, 0x3F]);
    }

    // A second load at 3 Mbaud replaces the first.
    let second = code(13, 9);
    let file = image_file(&config(), 13, 9, &[], &[], &[]);
    let path = scratch("second.tgci", &file);
    let out = tgsi_core(&[
        "load",
        "--port",
        &b.slave_path,
        "--baud",
        "3000000",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let dev = b.device.lock().unwrap();
    assert_eq!(dev.active_image().expect("active").program, &second[..]);
    // The image CRC covers PROGRAM, then MAPS (zero counts: no inputs, outputs or CONST slots).
    let whole = [&second[..], &[0u8; 8]].concat();
    assert_eq!(dev.status().active_crc, crc32fast::hash(&whole));
    assert_eq!(dev.baud(), 3_000_000);
}

#[test]
fn image_for_another_core_is_refused_and_the_old_one_stays() {
    let b = board(&config().to_bytes(), Runner::Copy(CopyRunner));
    let mine = scratch("mine.tgci", &image_file(&config(), 3, 4, &[], &[], &[]));
    let out = tgsi_core(&["load", "--port", &b.slave_path, mine.to_str().unwrap()]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let other = scratch(
        "other.tgci",
        &image_file(
            &CoreConfig {
                registers: config().registers / 2,
                ..config()
            },
            5,
            4,
            &[],
            &[],
            &[],
        ),
    );
    let out = tgsi_core(&["load", "--port", &b.slave_path, other.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("ISA hash mismatch"),
        "{}",
        text(&out.stderr)
    );
    let dev = b.device.lock().unwrap();
    assert_eq!(
        dev.active_image().expect("still active").program,
        &code(3, 4)[..]
    );
}

#[test]
fn selftest_checks_the_loader_and_compares_the_core_with_the_core_model() {
    // The stand-in board runs its quads on the core model, so every comparison must agree; this
    // checks the whole path (compile, image, upload, MAPS, PARAMS, INPUTS/OUTPUTS layout, READ).
    let b = board(&board_config(), Runner::Core(CoreRunner));
    let out = tgsi_core(&["selftest", "--port", &b.slave_path]);
    let stdout = text(&out.stdout);
    assert!(
        out.status.success(),
        "stdout: {stdout}\nstderr: {}",
        text(&out.stderr)
    );
    assert!(
        stdout.contains("read-back: all image regions match"),
        "{stdout}"
    );
    assert_eq!(stdout.matches(": ok\n").count(), 6, "{stdout}");
    assert!(
        stdout.contains("selftest: loader and 6 core checks OK"),
        "{stdout}"
    );
}

#[test]
fn selftest_reports_a_board_that_computes_wrong() {
    // The copy runner is no core: the loader checks pass, the core checks must fail.
    let b = board(&board_config(), Runner::Copy(CopyRunner));
    let out = tgsi_core(&["selftest", "--port", &b.slave_path]);
    let stdout = text(&out.stdout);
    assert!(!out.status.success(), "{stdout}");
    assert!(
        stdout.contains("cleanup: pattern invalidated, no image active"),
        "{stdout}"
    );
    assert!(stdout.contains("DIFFERS"), "{stdout}");
    assert!(stdout.contains("core checks failed"), "{stdout}");
    // The last program stays loaded; the pattern never does.
    assert_eq!(b.device.lock().unwrap().status().state, LoadState::Valid);
}

#[test]
fn clear_errors_for_missing_port_and_tgsi_input() {
    let img = scratch("any.tgci", &image_file(&config(), 1, 1, &[], &[], &[]));
    let out = tgsi_core(&[
        "load",
        "--port",
        "/dev/tgsi-core-no-such-port",
        img.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("no such serial port"),
        "{}",
        text(&out.stderr)
    );

    let junk = scratch("junk.bin", b"\x00\x01not a program");
    let out = tgsi_core(&["load", "--port", "/dev/null", junk.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("neither a core image nor a TGSI program"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn load_compiles_tgsi_for_the_board_core() {
    // The device is built for the board's default core configuration.
    let b = board(&board_config(), Runner::Copy(CopyRunner));
    let src = scratch(
        "p.tgsi",
        b"FRAG\nDCL IN[0], COLOR, LINEAR\nDCL OUT[0], COLOR\nIMM FLT32 {0.5, 1.0, 0.0, 1.0}\nMAD OUT[0], IN[0], IMM[0], IMM[0]\nEND\n",
    );
    let out = tgsi_core(&["load", "--port", &b.slave_path, src.to_str().unwrap()]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    // What `tgsi-core compile` writes for the same program is what became active.
    let img = scratch("p.img", b"");
    let out = tgsi_core(&[
        "compile",
        src.to_str().unwrap(),
        "-o",
        img.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let parsed = firmware_loader::image::ImageFile::from_image(
        &Image::from_bytes(&std::fs::read(&img).unwrap()).unwrap(),
    );
    assert!(!parsed.upload.regions[0].is_empty());
    let dev = b.device.lock().unwrap();
    let active = dev.active_image().expect("an active image");
    assert_eq!(active.program, &parsed.upload.regions[0][..]);
    assert_eq!(active.constants, &parsed.upload.regions[1][..]);
    assert_eq!(active.maps, &parsed.upload.regions[3][..]);
    assert_eq!(dev.status().active_crc, parsed.upload.crc());
}

#[test]
fn ports_lists_without_failing() {
    let out = tgsi_core(&["ports"]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
}

/// A `--core` that names no core is refused before the port is opened, naming the flag.
#[test]
fn a_bad_core_selection_is_refused_before_connecting() {
    for cmd in [
        &["selftest", "--port", "/nonexistent/port", "--core", "x"][..],
        &[
            "load",
            "--port",
            "/nonexistent/port",
            "--core",
            "255",
            "f.tgsi",
        ][..],
    ] {
        let o = tgsi_core(cmd);
        let err = text(&o.stderr);
        assert!(!o.status.success(), "{cmd:?}");
        assert!(err.contains("--core") && err.contains("or `all`"), "{err}");
        assert!(
            !err.contains("/nonexistent/port"),
            "not connected first: {err}"
        );
    }
}

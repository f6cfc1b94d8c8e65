//! `tgsi-core load`, `selftest` and `ports` end to end over a real pseudo-terminal, with the
//! firmware-loader device model serving the other end in a thread.
#![cfg(unix)]

use firmware_loader::device::{CopyRunner, Device, DeviceConfig};
use firmware_loader::image::{write_image, KSlot, RegMap};
use firmware_loader::port::pty_pair;
use firmware_loader::protocol::LoadState;
use firmware_loader::server::{serve, ServeOptions};
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

const CONFIG: [u8; 22] = *b"test core config bytes";

struct Board {
    slave_path: String,
    device: Arc<Mutex<Device<CopyRunner>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for Board {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn board() -> Board {
    let pty = pty_pair(115_200).expect("a pseudo-terminal pair");
    let isa = crc32fast::hash(&CONFIG);
    let device = Arc::new(Mutex::new(Device::new(
        DeviceConfig::board(isa),
        CopyRunner,
    )));
    let stop = Arc::new(AtomicBool::new(false));
    let (d, s) = (device.clone(), stop.clone());
    let slave_path = pty.slave_path.clone();
    let thread = std::thread::spawn(move || {
        let mut master = pty.master;
        let _slave = pty.slave;
        serve(&mut master, &d, &s, ServeOptions::default()).expect("device server");
    });
    Board {
        slave_path,
        device,
        stop,
        thread: Some(thread),
    }
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

fn code(seed: u8, instructions: usize) -> Vec<u8> {
    (0..instructions * 16)
        .map(|i| (i as u8).wrapping_mul(seed) ^ 0xC0)
        .collect()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn load_replaces_the_image_and_verifies() {
    let b = board();
    let first = code(7, 40);
    let file = write_image(
        &CONFIG,
        0,
        &first,
        &[KSlot::Data(0, [0x3F80_0000, 0, 0, 0x3F80_0000])],
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
    let file = write_image(&CONFIG, 0, &second, &[], &[], &[]);
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
    // The image CRC covers PROGRAM, then MAPS (two zero counts: no inputs, no outputs).
    let whole = [&second[..], &[0u8; 4]].concat();
    assert_eq!(dev.status().active_crc, crc32fast::hash(&whole));
    assert_eq!(dev.baud(), 3_000_000);
}

#[test]
fn image_for_another_core_is_refused_and_the_old_one_stays() {
    let b = board();
    let mine = scratch(
        "mine.tgci",
        &write_image(&CONFIG, 0, &code(3, 4), &[], &[], &[]),
    );
    let out = tgsi_core(&["load", "--port", &b.slave_path, mine.to_str().unwrap()]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let other = scratch(
        "other.tgci",
        &write_image(b"another core's config", 0, &code(5, 4), &[], &[], &[]),
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
fn selftest_runs_the_loader_checks_and_leaves_no_image() {
    let b = board();
    let out = tgsi_core(&["selftest", "--port", &b.slave_path]);
    assert!(out.status.success(), "stderr: {}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("read-back: all image regions match"),
        "{stdout}"
    );
    assert!(stdout.contains("selftest: loader OK"), "{stdout}");
    assert_eq!(b.device.lock().unwrap().status().state, LoadState::NoImage);
}

#[test]
fn clear_errors_for_missing_port_and_tgsi_input() {
    let img = scratch(
        "any.tgci",
        &write_image(&CONFIG, 0, &code(1, 1), &[], &[], &[]),
    );
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
    use microcode::core::CoreConfig;
    let pty = pty_pair(115_200).expect("a pseudo-terminal pair");
    // The device is built for the board's default core configuration.
    let isa = crc32fast::hash(&CoreConfig::default().to_bytes());
    let device = Arc::new(Mutex::new(Device::new(
        DeviceConfig::board(isa),
        CopyRunner,
    )));
    let stop = Arc::new(AtomicBool::new(false));
    let (d, s) = (device.clone(), stop.clone());
    let b = Board {
        slave_path: pty.slave_path.clone(),
        device,
        stop,
        thread: Some(std::thread::spawn(move || {
            let mut master = pty.master;
            let _slave = pty.slave;
            serve(&mut master, &d, &s, ServeOptions::default()).expect("device server");
        })),
    };
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
    let parsed = firmware_loader::image::parse(&std::fs::read(&img).unwrap()).unwrap();
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

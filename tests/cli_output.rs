//! Every command that writes a file a user names (`render -o` and its `--diff` PNG, `compile`,
//! `encode`, `translate`, `synth --out`) writes through a symbolic link and into a FIFO or a
//! device, never replacing it, and reports a device that refuses the bytes with the system's
//! reason and a failing exit status.
//!
//! Only nodes made in a temporary folder are used (a FIFO; a full device made with `mknod` where
//! the suite runs as root): a regression would replace them, never a device of the machine.
#![cfg(unix)]

use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tgsi_core(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tgsi-core"))
        .args(args)
        .output()
        .expect("the tgsi-core binary runs")
}

/// A folder of its own per test: the tests run in parallel threads of one process.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tgsi-output-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

fn example(name: &str) -> String {
    format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

const PROGRAM: &str = "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\n\
                       MOV OUT[0], IN[0]\nEND\n";

/// A command that writes one file: its arguments with `{}` where the output path goes, and the
/// bytes every output of it starts with.
struct Writer {
    name: &'static str,
    args: Vec<String>,
    magic: &'static [u8],
}

fn writers(d: &Path) -> Vec<Writer> {
    let src = d.join("p.tgsi");
    std::fs::write(&src, PROGRAM).expect("writes the program");
    let src = s(&src).to_string();
    let argv = |a: &[&str]| a.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        Writer {
            name: "render",
            args: argv(&["render", &src, "--size", "4x4", "-o", "{}"]),
            magic: b"\x89PNG",
        },
        Writer {
            name: "compile",
            args: argv(&["compile", &src, "-o", "{}"]),
            magic: b"TGCI",
        },
        Writer {
            name: "encode",
            args: argv(&["encode", &src, "-o", "{}"]),
            magic: b"",
        },
        Writer {
            name: "translate",
            args: argv(&["translate", &example("checker.wgsl"), "-o", "{}"]),
            magic: b"FRAG",
        },
    ]
}

fn run(w: &Writer, out: &Path) -> Output {
    let args: Vec<&str> = w
        .args
        .iter()
        .map(|a| if a == "{}" { s(out) } else { a.as_str() })
        .collect();
    tgsi_core(&args)
}

fn no_leftovers(d: &Path) {
    let leftovers: Vec<_> = std::fs::read_dir(d)
        .expect("reads the folder")
        .map(|e| e.expect("an entry").file_name())
        .filter(|n| n.to_string_lossy().ends_with(".partial"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
}

fn is_fifo(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

/// Reads a FIFO to its end on a thread of its own (the writer's open blocks until a reader
/// comes).
fn drain(fifo: &Path) -> std::thread::JoinHandle<Vec<u8>> {
    let fifo = fifo.to_path_buf();
    std::thread::spawn(move || std::fs::read(fifo).expect("reads the FIFO"))
}

#[test]
fn outputs_go_through_symbolic_links() {
    let d = scratch("links");
    for w in writers(&d) {
        let real = d.join(format!("real-{}", w.name));
        std::fs::write(&real, b"old").expect("writes the old file");
        let link = d.join(format!("link-{}", w.name));
        std::os::unix::fs::symlink(&real, &link).expect("makes the link");
        let out = run(&w, &link);
        assert!(out.status.success(), "{}: {}", w.name, stderr(&out));
        let meta = std::fs::symlink_metadata(&link).expect("the link is there");
        assert!(
            meta.file_type().is_symlink(),
            "{}: the link was replaced",
            w.name
        );
        let bytes = std::fs::read(&real).expect("reads the link's target");
        assert!(bytes != b"old" && bytes.starts_with(w.magic), "{}", w.name);
    }
    no_leftovers(&d);
    std::fs::remove_dir_all(&d).expect("removes the folder");
}

#[test]
fn outputs_go_into_fifos() {
    let d = scratch("fifos");
    for w in writers(&d) {
        let fifo = d.join(format!("pipe-{}", w.name));
        mkfifo(&fifo);
        let reader = drain(&fifo);
        let out = run(&w, &fifo);
        assert!(out.status.success(), "{}: {}", w.name, stderr(&out));
        // Checked first: a FIFO renamed over leaves its reader waiting for ever.
        assert!(is_fifo(&fifo), "{}: the FIFO was replaced", w.name);
        let bytes = reader.join().expect("the reader ends");
        assert!(
            !bytes.is_empty() && bytes.starts_with(w.magic),
            "{}",
            w.name
        );
    }
    no_leftovers(&d);
    std::fs::remove_dir_all(&d).expect("removes the folder");
}

#[test]
fn the_diff_picture_goes_through_links_and_into_fifos() {
    let d = scratch("diff");
    let src = d.join("p.tgsi");
    std::fs::write(&src, PROGRAM).expect("writes the program");
    let out_png = d.join("out.png");
    // render names the difference picture OUT-diff.png.
    let diff = d.join("out-diff.png");
    let real = d.join("real-diff.png");
    std::fs::write(&real, b"old").expect("writes the old file");
    std::os::unix::fs::symlink(&real, &diff).expect("makes the link");
    let args = [
        "render",
        s(&src),
        "--size",
        "4x4",
        "--diff",
        "core",
        "-o",
        s(&out_png),
    ];
    let out = tgsi_core(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(&diff)
        .expect("the link is there")
        .file_type()
        .is_symlink());
    assert!(std::fs::read(&real)
        .expect("reads the target")
        .starts_with(b"\x89PNG"));
    std::fs::remove_file(&diff).expect("removes the link");
    mkfifo(&diff);
    let reader = drain(&diff);
    let out = tgsi_core(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(is_fifo(&diff), "the FIFO was replaced");
    assert!(reader
        .join()
        .expect("the reader ends")
        .starts_with(b"\x89PNG"));
    no_leftovers(&d);
    std::fs::remove_dir_all(&d).expect("removes the folder");
}

/// `synth --out` names a folder: through a link to one it writes into the folder the link
/// names; a FIFO there is refused before any work, and kept.
#[test]
fn synth_out_goes_through_links_and_refuses_a_fifo() {
    let d = scratch("synth");
    let fifo = d.join("pipe");
    mkfifo(&fifo);
    let out = tgsi_core(&["synth", "--out", s(&fifo)]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("not a directory"), "{}", stderr(&out));
    assert!(is_fifo(&fifo));
    // A yosys that fails at once: the flow's own files are written first, into the link's
    // folder, and the failure is reported.
    let real = d.join("real-out");
    std::fs::create_dir_all(&real).expect("makes the folder");
    let link = d.join("link-out");
    std::os::unix::fs::symlink(&real, &link).expect("makes the link");
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi-core"))
        .args(["synth", "--out", s(&link)])
        .env("TGSI_YOSYS", "false")
        .output()
        .expect("tgsi-core runs");
    assert!(!out.status.success());
    assert!(std::fs::symlink_metadata(&link)
        .expect("the link is there")
        .file_type()
        .is_symlink());
    let verilog = std::fs::read_to_string(real.join("top.v")).expect("top.v in the folder");
    assert!(verilog.contains("module top"), "{}", stderr(&out));
    no_leftovers(&real);
    std::fs::remove_dir_all(&d).expect("removes the folder");
}

/// True when this process may make device nodes (root, or CAP_MKNOD).
fn full_device(path: &Path) -> bool {
    Command::new("mknod")
        .arg(path)
        .args(["c", "1", "7"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn a_full_device_fails_the_command_and_stays_a_device() {
    let d = scratch("full");
    let full = d.join("full");
    if !full_device(&full) {
        // Only root makes device nodes; a FIFO whose reader leaves at once fails the same way.
        println!("NOTE: mknod is refused (not root): the full device is not tried");
        std::fs::remove_dir_all(&d).expect("removes the folder");
        return;
    }
    for w in writers(&d) {
        let out = run(&w, &full);
        assert!(!out.status.success(), "{}: exit 0 on a full device", w.name);
        assert!(
            stderr(&out).contains("No space left on device"),
            "{}: {}",
            w.name,
            stderr(&out)
        );
        let meta = std::fs::symlink_metadata(&full).expect("the node is there");
        assert!(meta.file_type().is_char_device(), "{}: replaced", w.name);
    }
    no_leftovers(&d);
    std::fs::remove_dir_all(&d).expect("removes the folder");
}

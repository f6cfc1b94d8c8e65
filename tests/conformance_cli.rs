//! `tgsi-core conformance`: the table's last line, the JSON and the exit status.

use std::process::Command;

fn conformance(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi-core"))
        .arg("conformance")
        .args(args)
        .output()
        .expect("tgsi-core runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn dir_with(files: &[(&str, &str)]) -> std::path::PathBuf {
    // One folder per call: the tests run in parallel threads of one process.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("tgsi-conf-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    dir
}

const GOOD: &str =
    "FRAG\nDCL IN[0], COLOR, LINEAR\nDCL OUT[0], COLOR\nMAD OUT[0], IN[0], IN[0], IN[0]\nEND\n";

#[test]
fn reference_passes_everything_and_counts_rows() {
    let dir = dir_with(&[("good.tgsi", GOOD)]);
    let (ok, out) = conformance(&[dir.to_str().unwrap(), "--engine", "reference"]);
    assert!(ok, "{out}");
    let last = out.lines().last().unwrap_or("");
    let opcode_rows = out.lines().filter(|l| l.starts_with("opcode ")).count();
    assert!(opcode_rows > 90, "{opcode_rows} opcode rows");
    assert_eq!(last, format!("{} passed, 0 failed", opcode_rows + 1));
}

#[test]
fn a_broken_program_fails_and_is_named() {
    let dir = dir_with(&[
        ("good.tgsi", GOOD),
        ("broken.tgsi", "FRAG\nMOV OUT[0\nEND\n"),
    ]);
    let (ok, out) = conformance(&[dir.to_str().unwrap(), "--engine", "reference", "--json"]);
    assert!(!ok);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["failed"], 1);
    assert_eq!(v["engines"][0], "reference");
    let broken = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"].as_str().unwrap_or("").ends_with("broken.tgsi"))
        .expect("the broken program has a row");
    assert_eq!(broken["kind"], "program");
    assert_eq!(broken["results"]["reference"]["pass"], false);
    assert!(broken["results"]["reference"]["worst"]
        .as_str()
        .unwrap()
        .contains("does not load"));
}

#[test]
fn core_engine_agrees_with_the_reference_on_a_program() {
    let dir = dir_with(&[("good.tgsi", GOOD)]);
    let (_, out) = conformance(&[dir.to_str().unwrap(), "--engine", "core", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let row = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "program")
        .unwrap();
    assert_eq!(row["results"]["core"]["pass"], true, "{row}");
    assert_eq!(row["results"]["core"]["worst"], "exact");
}

//! `tgsi-core run`: argument syntax, the JSON of decisions.md section 7, errors and exit status.

use std::path::PathBuf;
use std::process::{Command, Output};

fn tgsi_core(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tgsi-core"))
        .args(args)
        .output()
        .expect("the tgsi-core binary runs")
}

fn write(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tgsi-core-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write temp file");
    p
}

const PROGRAM: &str =
    "FRAG\nDCL IN[0]\nDCL IN[1], FACE, CONSTANT\nDCL OUT[0..1]\nDCL CONST[0..1]\n\
    ADD OUT[0], IN[0], CONST[1]\nMOV OUT[1], IN[1]\nEND\n";

#[test]
fn json_output_with_inputs_constants_and_face() {
    let file = write("add.tgsi", PROGRAM);
    let out = tgsi_core(&[
        "run",
        file.to_str().unwrap(),
        "--input",
        "0=1,2,3,4",
        "--input",
        "0@3=-1,-0,inf,0x3f800000",
        "--const",
        "1=0.5,0.5,0.5,0.5",
        "--face",
        "back",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lane = |o0: &str, b0: &str| {
        format!(
            "{{\"killed\":false,\"outputs\":{{\"OUT[0]\":[{o0}],\"OUT[1]\":[-1.0,0.0,0.0,1.0]}},\
             \"bits\":{{\"OUT[0]\":[{b0}],\"OUT[1]\":[\"bf800000\",\"00000000\",\"00000000\",\"3f800000\"]}}}}"
        )
    };
    let common = lane(
        "1.5,2.5,3.5,4.5",
        "\"3fc00000\",\"40200000\",\"40600000\",\"40900000\"",
    );
    let last = lane(
        "-0.5,0.5,\"inf\",1.5",
        "\"bf000000\",\"3f000000\",\"7f800000\",\"3fc00000\"",
    );
    let expected =
        format!("{{\"engine\":\"reference\",\"lanes\":[{common},{common},{common},{last}],\"instructions\":3}}\n");
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
}

#[test]
fn table_output_by_default() {
    let file = write("table.tgsi", PROGRAM);
    let out = tgsi_core(&["run", file.to_str().unwrap(), "--input", "0=1,2,3,4"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("engine: reference\ninstructions: 3\nlane 0\n"),
        "{text}"
    );
    assert!(text.contains("OUT[0] (           1.0,           2.0,           3.0,           4.0)  [3f800000 40000000 40400000 40800000]"), "{text}");
}

#[test]
fn errors_name_what_went_wrong() {
    let file = write("loop.tgsi", "FRAG\nBGNLOOP\nENDLOOP\nEND\n");
    let f = file.to_str().unwrap();
    let out = tgsi_core(&["run", f, "--budget", "10"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("instruction budget of 10 exhausted"), "{err}");
    let out = tgsi_core(&["run", f, "--engine", "fpga"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("reference, core, rtl, verilator, board"),
        "{err}"
    );
    let out = tgsi_core(&["run", f, "--input", "0=1,2,3"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected 4 comma-separated numbers"));
    let out = tgsi_core(&["run", f, "--face", "sideways"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected `front` or `back`"));
}

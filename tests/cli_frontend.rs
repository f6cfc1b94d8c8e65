//! The front-end commands of the `tgsi-core` binary: dump, encode, decode, check.

use std::path::PathBuf;
use std::process::{Command, Output};

fn tgsi_core(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tgsi-core"))
        .args(args)
        .output()
        .expect("the tgsi-core binary runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tgsi-core-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

fn write(name: &str, text: &str) -> PathBuf {
    let p = scratch(name);
    std::fs::write(&p, text).expect("write temp file");
    p
}

const PROGRAM: &str = "frag\n\
    dcl in[0], color, linear\n\
    dcl out[0], color\n\
    imm flt32 { 0.5, 1.0, 0.1, 0.0 }\n\
    mad_sat out[0].xyz, -in[0].zyxw, |imm[0].xxxx|, imm[0]\n\
    end\n";

const CANONICAL: &str = "FRAG\n\
    DCL IN[0], COLOR, LINEAR\n\
    DCL OUT[0], COLOR\n\
    IMM FLT32 {0.5, 1.0, 0.1, 0.0}\n\
    \x20 0: MAD_SAT OUT[0].xyz, -IN[0].zyxw, |IMM[0].xxxx|, IMM[0]\n\
    \x20 1: END\n";

#[test]
fn dump_prints_canonical_text() {
    let src = write("dump.tgsi", PROGRAM);
    let out = tgsi_core(&["dump", src.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), CANONICAL);
}

#[test]
fn encode_then_decode_gives_the_same_text() {
    let src = write("enc.tgsi", PROGRAM);
    let tok = scratch("enc.tok");
    let out = tgsi_core(&["encode", src.to_str().unwrap(), "-o", tok.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&tok).unwrap();
    // VERSION 1.2 (declaration semantics need it), then HEADER and PROCESSOR; the instruction is
    // the worked example of the notes.
    assert_eq!(&bytes[..4], &[1, 2, 0, 0]);
    let words: Vec<u32> = bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let example = [
        0x03510062, 0x00000073, 0x00001c62, 0x80000007, 0x00000081, 0x00000e47,
    ];
    assert!(
        words.windows(6).any(|w| w == example),
        "worked example not found in {words:08x?}"
    );
    let out = tgsi_core(&["decode", tok.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), CANONICAL);
    // `dump` detects tokens by itself.
    let out = tgsi_core(&["dump", tok.to_str().unwrap()]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), CANONICAL);
}

#[test]
fn check_reports_syntax_errors_with_a_caret() {
    let src = write("bad.tgsi", "FRAG\nDCL OUT[0]\nMOV OUT[0, IN[0]\nEND\n");
    let out = tgsi_core(&["check", src.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.tgsi:3:"), "{err}");
    assert!(err.contains("MOV OUT[0, IN[0]\n"), "{err}");
    assert!(err.lines().any(|l| l.trim() == "^"), "{err}");
}

#[test]
fn check_reports_validation_errors() {
    let src = write(
        "undeclared.tgsi",
        "FRAG\nDCL OUT[0]\nMOV OUT[0], TEMP[3]\nEND\n",
    );
    let out = tgsi_core(&["check", src.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("undeclared.tgsi:3:"), "{err}");
    assert!(err.contains("TEMP"), "{err}");
}

#[test]
fn bad_inputs_fail_cleanly() {
    let missing = scratch("does-not-exist.tgsi");
    let out = tgsi_core(&["dump", missing.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));

    let odd = scratch("odd.tok");
    std::fs::write(&odd, [1u8, 1, 0, 0, 7]).unwrap();
    let out = tgsi_core(&["decode", odd.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");

    let tok = scratch("truncated.tok");
    std::fs::write(&tok, [1u8, 1, 0, 0, 0x02, 0x00, 0x00, 0x10]).unwrap();
    let out = tgsi_core(&["decode", tok.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn encode_refuses_an_invalid_program_and_writes_nothing() {
    let src = write(
        "invalid.tgsi",
        "FRAG\nDCL OUT[0]\nMOV OUT[0], TEMP[0]\nEND\n",
    );
    let tok = scratch("invalid.tok");
    let _ = std::fs::remove_file(&tok);
    let out = tgsi_core(&["encode", src.to_str().unwrap(), "-o", tok.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(!tok.exists());
}

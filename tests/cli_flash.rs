//! `tgsi-core flash` refuses what is not a bitstream, says how to get iceprog, and names the ECP5
//! programmers and their command lines for a ULX3S bitstream.

use std::process::Command;

fn flash(file: &std::path::Path) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi-core"))
        .args(["flash", file.to_str().unwrap()])
        .env_remove("TGSI_ICEPROG")
        .env_remove("TGSI_OPENFPGALOADER")
        .env_remove("TGSI_FUJPROG")
        .env("PATH", "/nonexistent")
        .output()
        .expect("tgsi-core runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn refuses_a_file_that_is_not_a_bitstream() {
    let (ok, err) = flash(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("README.md")
            .as_path(),
    );
    assert!(!ok);
    assert!(err.contains("not an iCE40 HX8K bitstream"), "{err}");
}

#[test]
fn says_how_to_get_iceprog() {
    let dir = std::env::temp_dir().join(format!("tgsi-flash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bin = dir.join("top.bin");
    std::fs::write(&bin, vec![0u8; 135_100]).unwrap();
    let (ok, err) = flash(&bin);
    assert!(!ok);
    assert!(err.contains("iceprog"), "{err}");
    assert!(err.contains("fpga-icestorm"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn names_the_ecp5_programmers_and_their_commands() {
    let dir = std::env::temp_dir().join(format!("tgsi-flash-ecp5-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bit = dir.join("top.bit");
    // What ecppack writes: a comment block naming the part, then the ECP5 preamble.
    let mut bytes = b"\xff\x00Part: LFE5U-85F-6CABGA381\x00\xff".to_vec();
    bytes.extend_from_slice(&[0xFF, 0xFF, 0xBD, 0xB3]);
    bytes.resize(1_927_725, 0);
    std::fs::write(&bit, bytes).unwrap();
    let (ok, err) = flash(&bit);
    assert!(!ok);
    assert!(err.contains("ECP5 bitstream"), "{err}");
    for want in [
        "openFPGALoader --board ulx3s --write-flash",
        "openFPGALoader --board ulx3s ",
        "fujprog -j flash",
        "TGSI_OPENFPGALOADER",
        "TGSI_FUJPROG",
    ] {
        assert!(err.contains(want), "`{want}` missing: {err}");
    }
    assert!(err.contains(bit.to_str().unwrap()), "{err}");
    assert!(!err.contains("iceprog"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

//! `tgsi-core flash` refuses what is not a bitstream and says how to get iceprog.

use std::process::Command;

fn flash(file: &std::path::Path) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi-core"))
        .args(["flash", file.to_str().unwrap()])
        .env_remove("TGSI_ICEPROG")
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

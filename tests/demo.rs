//! The main job (`tgsi-core` with no arguments) renders the bundled shader on a hardware engine,
//! agrees with the core model and the reference model and writes `demo.png`.

use std::process::Command;

#[test]
fn demo_renders_and_cross_checks() {
    let dir = std::env::temp_dir().join(format!("tgsi-demo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi-core"))
        .current_dir(&dir)
        .output()
        .expect("tgsi-core runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Verilator at 64x64, or (without the toolchain) rust-hdl's simulation at 8x8.
    assert!(
        stdout.contains("rendered 64x64 on the verilator engine")
            || stdout.contains("rendered 8x8 on the rtl engine"),
        "{stdout}"
    );
    assert!(
        stdout.contains("checked against the core model: 0 pixels differ"),
        "{stdout}"
    );
    assert!(
        stdout.contains("checked against the reference model"),
        "{stdout}"
    );
    assert!(stdout.contains("core cycles:"), "{stdout}");
    // The board runs at the PLL's clock of the bitstream `tgsi-core synth` builds.
    let clock = format!(
        "on the board at {:.1} MHz",
        f64::from(synth::BOARD_CLOCK_HZ) / 1e6
    );
    assert!(stdout.contains(&clock), "{stdout}");
    // The estimate for the board streams through RENDER (the transformed demo fits the core).
    assert!(
        stdout.contains("with RENDER") && !stdout.contains("cannot stream"),
        "{stdout}"
    );
    // The board estimate counts the upload with its texture: more than the image's program.
    let upload: usize = stdout
        .split("s of serial transfer")
        .nth(1)
        .and_then(|rest| rest.split("the ").nth(1))
        .and_then(|rest| rest.split("-byte upload").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no upload size in {stdout}"));
    let instructions: usize = stdout
        .split(" core instructions")
        .next()
        .and_then(|head| head.rsplit("-> ").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no instruction count in {stdout}"));
    // 16 bytes per instruction, and the 8x8 RGBA8 texture's 256 bytes.
    assert!(
        upload >= 16 * instructions + 256,
        "{upload} bytes: {stdout}"
    );
    let png = std::fs::read(dir.join("demo.png")).expect("demo.png written");
    assert_eq!(&png[1..4], b"PNG");
}

//! Every example shader renders, through the command line, the same on the core model as on the
//! reference model (the hardware engines' equality with the core model is `sim/tests/hw_cross.rs`
//! and the demo's test); the ones needing a texture get the one the examples folder ships.

use std::path::Path;
use std::process::Command;

fn render(example: &str, extra: &[&str]) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::env::temp_dir().join(format!(
        "tgsi-example-{}-{}.png",
        example.replace('.', "-"),
        std::process::id()
    ));
    let o = Command::new(env!("CARGO_BIN_EXE_tgsi-core"))
        .current_dir(root)
        .arg("render")
        .arg(Path::new("examples").join(example))
        .arg("-o")
        .arg(&out)
        .args(["--size", "16x16", "--engine", "core", "--diff", "reference"])
        .args(extra)
        .output()
        .expect("tgsi-core runs");
    let text =
        String::from_utf8_lossy(&o.stderr).into_owned() + &String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{example}: {text}");
    let _ = std::fs::remove_file(&out);
    let diff = out.with_file_name(format!(
        "{}-diff.png",
        out.file_stem().and_then(|s| s.to_str()).unwrap_or_default()
    ));
    let _ = std::fs::remove_file(diff);
    text
}

#[test]
fn examples_render_the_same_on_the_core_and_reference_models() {
    for example in ["checker.tgsi", "rings.tgsi", "cutout.tgsi"] {
        let text = render(example, &[]);
        assert!(text.contains("0 of 256 pixels differ"), "{example}: {text}");
    }
    let text = render(
        "mirror-ball.tgsi",
        &["--texture", "0=examples/sky-cube.png,cube,bilinear"],
    );
    assert!(text.contains("0 of 256 pixels differ"), "{text}");
    // The ball covers most of the frame; the corners are killed.
    assert!(text.contains("pixels killed"), "{text}");
    // Integers through the translator: the board's sequences for UMUL and the shifts.
    let text = render("noise.wgsl", &[]);
    assert!(text.contains("0 of 256 pixels differ"), "{text}");
}

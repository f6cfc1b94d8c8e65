//! The core commands end to end: `compile` (image + listing), `disasm`, `run --engine core`
//! (from TGSI and from the image, with `--trace`) and `accuracy`.

use std::path::PathBuf;
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tgsi-core"))
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tgsi-core-cli-core-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir.join(name)
}

const PROGRAM: &str = "FRAG\nDCL IN[0]\nDCL OUT[0]\nIMM FLT32 { 1.0, 2.0, 0.5, 0.0 }\n  0: MAD OUT[0], IN[0], IMM[0], IMM[0].zzzz\n  1: END\n";

#[test]
fn compile_disasm_and_run_on_the_core() {
    let src = tmp("mad.tgsi");
    let img = tmp("mad.img");
    std::fs::write(&src, PROGRAM).expect("write program");
    let out = bin()
        .args(["compile"])
        .arg(&src)
        .arg("-o")
        .arg(&img)
        .arg("--listing")
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listing = String::from_utf8_lossy(&out.stdout);
    assert!(
        listing.contains("; tgsi 0: MAD OUT[0], IN[0], IMM[0], IMM[0].zzzz"),
        "{listing}"
    );
    // The product and the addend read two views of K0: the constant rule makes it a multiply
    // into the destination and an add (the same bits: FMAD rounds the product anyway).
    assert!(
        listing.contains("   0: FMAD R1.xyzw, R0.xyzw, K0.xyzw, -L0.xyzw")
            && listing.contains("   1: FMAD R1.xyzw, R1.xyzw, L1.xyzw, K0.zzzz"),
        "{listing}"
    );

    let dis = bin().arg("disasm").arg(&img).output().expect("runs");
    assert!(dis.status.success());
    let text = String::from_utf8_lossy(&dis.stdout);
    assert!(
        text.contains("K0 = {0x3f800000, 0x40000000, 0x3f000000, 0x00000000}"),
        "{text}"
    );
    assert!(text.contains("   2: END"), "{text}");

    for file in [&src, &img] {
        let run = bin()
            .args([
                "run",
                "--engine",
                "core",
                "--json",
                "--trace",
                "--input",
                "0=2,3,4,5",
            ])
            .arg(file)
            .output()
            .expect("runs");
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let json = String::from_utf8_lossy(&run.stdout);
        // (2*1 + 0.5, 3*2 + 0.5, 4*0.5 + 0.5, 5*0 + 0.5); two FMADs of 16 clocks (the second
        // reads the first's result, 13 clocks after it issued) + END 14.
        assert!(json.contains(r#""OUT[0]":[2.5,6.5,2.5,0.5]"#), "{json}");
        assert!(json.contains(r#""cycles":46"#), "{json}");
        assert!(json.contains(r#""engine":"core""#), "{json}");
        let trace = String::from_utf8_lossy(&run.stderr);
        assert!(trace.contains("0: FMAD"), "{trace}");
    }

    let mut bad = std::fs::read(&img).expect("image");
    let n = bad.len();
    bad[n - 1] ^= 0xFF;
    let bad_img = tmp("bad.img");
    std::fs::write(&bad_img, bad).expect("write");
    let dis = bin().arg("disasm").arg(&bad_img).output().expect("runs");
    assert!(!dis.status.success());
    assert!(String::from_utf8_lossy(&dis.stderr).contains("checksum"));
}

#[test]
fn accuracy_table_passes_its_bounds() {
    let out = bin()
        .args(["accuracy", "--samples", "2000"])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    for op in ["RSQ", "EX2", "LG2", "SIN", "COS", "POW", "NRM"] {
        assert!(
            text.lines()
                .any(|l| l.starts_with(op) && l.contains(" ok ")),
            "{op}: {text}"
        );
    }
}

/// Double arithmetic compiles to the binary64 library, which the listing names; a program that
/// cannot hold it still compiles (the model-only DOP), with a note on stderr saying so.
#[test]
fn compile_names_the_binary64_library_and_its_fallback() {
    let src = tmp("dadd.tgsi");
    let img = tmp("dadd.img");
    let compile = |body: &str| {
        std::fs::write(&src, format!("FRAG\nDCL IN[0..1]\nDCL OUT[0]\n{body}END\n"))
            .expect("write program");
        let out = bin()
            .arg("compile")
            .arg(&src)
            .arg("-o")
            .arg(&img)
            .arg("--listing")
            .output()
            .expect("runs");
        assert!(out.status.success());
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (listing, err) = compile("DADD OUT[0], IN[0], IN[1]\n");
    assert!(listing.contains("; binary64 library"), "{listing}");
    assert!(err.is_empty(), "{err}");
    let (_, err) =
        compile("DADD OUT[0], IN[0], IN[1]\nDDIV OUT[0], OUT[0], IN[0]\nDSQRT OUT[0], OUT[0]\n");
    assert!(
        err.contains("3 double arithmetic instruction(s) compiled to the model-only DOP"),
        "{err}"
    );
}

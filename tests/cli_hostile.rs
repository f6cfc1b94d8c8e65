//! Issue #20 ("Hostile input, bounded") through the binary: formats named before parsing, bounded
//! reads of regular files only, one-line messages for hostile files, the core model refusing
//! images its core cannot hold. (`-o` through links and into devices: `cli_output.rs`.)

use std::path::PathBuf;
use std::process::{Command, Output};

fn tgsi_core(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tgsi-core"))
        .args(args)
        .output()
        .expect("the tgsi-core binary runs")
}

/// A folder of its own per test: the tests run in parallel threads of one process.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tgsi-hostile-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const PROGRAM: &str = "FRAG\nDCL IN[0]\nDCL OUT[0]\nMOV OUT[0], IN[0]\nEND\n";

fn s(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn formats_are_named_before_parsing() {
    let d = scratch("formats");
    let src = d.join("p.tgsi");
    std::fs::write(&src, PROGRAM).unwrap();
    let tok = d.join("p.tok");
    let img = d.join("p.img");
    assert!(tgsi_core(&["encode", s(&src), "-o", s(&tok)])
        .status
        .success());
    let out = tgsi_core(&["compile", s(&src), "-o", s(&img)]);
    assert!(out.status.success(), "{}", stderr(&out));

    // A compiled image given where a program is expected.
    for cmd in ["check", "dump"] {
        let out = tgsi_core(&[cmd, s(&img)]);
        assert!(!out.status.success());
        let e = stderr(&out);
        assert!(
            e.contains("found a compiled core image (magic \"TGCI\", version 3.0)"),
            "{e}"
        );
    }
    let out = tgsi_core(&["run", "--engine", "reference", s(&img)]);
    assert!(
        stderr(&out).contains("found a compiled core image"),
        "{}",
        stderr(&out)
    );

    // Tokens of major version 2.
    let mut v2 = std::fs::read(&tok).unwrap();
    v2[0] = 2;
    let v2_path = d.join("v2.tok");
    std::fs::write(&v2_path, &v2).unwrap();
    let e = stderr(&tgsi_core(&["check", s(&v2_path)]));
    assert!(
        e.contains("found TGSI tokens of version 2.1; expected version 1.x tokens or TGSI text"),
        "{e}"
    );

    // A 7-byte token file is named as tokens with a partial word, not parsed as text.
    let short = d.join("short.tok");
    std::fs::write(&short, &std::fs::read(&tok).unwrap()[..7]).unwrap();
    let e = stderr(&tgsi_core(&["check", s(&short)]));
    assert!(e.contains("not a multiple of 4"), "{e}");

    // An image with a damaged magic.
    let mut damaged = std::fs::read(&img).unwrap();
    damaged[0] = b'X';
    let damaged_path = d.join("damaged.img");
    std::fs::write(&damaged_path, &damaged).unwrap();
    let e = stderr(&tgsi_core(&["check", s(&damaged_path)]));
    assert!(e.contains("damaged magic"), "{e}");

    // A program where an image is expected.
    let e = stderr(&tgsi_core(&["disasm", s(&src)]));
    assert!(
        e.contains("found TGSI text; expected a compiled core image (magic \"TGCI\""),
        "{e}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn only_regular_files_are_read() {
    let out = tgsi_core(&["check", "/dev/zero"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("it is a character device, not a regular file"),
        "{}",
        stderr(&out)
    );
    let d = scratch("fifo");
    let fifo = d.join("pipe.tgsi");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let out = tgsi_core(&["check", s(&fifo)]);
        assert!(stderr(&out).contains("it is a FIFO"), "{}", stderr(&out));
        // A conformance scan skips it instead of blocking on it.
        std::fs::write(d.join("ok.tgsi"), PROGRAM).unwrap();
        let out = tgsi_core(&["conformance", "--engine", "reference", s(&d)]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.contains("pipe.tgsi"), "{text}{}", stderr(&out));
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn messages_stay_short_and_say_what_is_wrong() {
    let d = scratch("messages");
    // A million-digit number is not echoed whole.
    let long = d.join("long.tgsi");
    let digits = "7".repeat(1_000_000);
    std::fs::write(&long, format!("FRAG\nIMM FLT32 {{ 1{digits}x }}\nEND\n")).unwrap();
    let out = tgsi_core(&["check", s(&long)]);
    assert!(!out.status.success());
    assert!(out.stderr.len() < 2_000, "{} bytes", out.stderr.len());

    // A byte order mark is skipped.
    let bom = d.join("bom.tgsi");
    std::fs::write(&bom, format!("\u{feff}{PROGRAM}")).unwrap();
    let out = tgsi_core(&["check", s(&bom)]);
    assert!(out.status.success(), "{}", stderr(&out));

    // A missing END is located at a real line.
    let no_end = d.join("no-end.tgsi");
    std::fs::write(&no_end, "FRAG\nDCL IN[0]\nDCL OUT[0]\n").unwrap();
    let e = stderr(&tgsi_core(&["check", s(&no_end)]));
    assert!(e.contains("no-end.tgsi:3:1: the program has no END"), "{e}");
    assert!(!e.contains("<generated>"), "{e}");

    // A folder that does not exist says so.
    let e = stderr(&tgsi_core(&["conformance", s(&d.join("missing-dir"))]));
    assert!(e.contains("missing-dir does not exist"), "{e}");

    // 10,000 nested IFs: one nesting error with a count, and a dump of linear size.
    let deep = d.join("deep.tgsi");
    let n = 10_000;
    let text = format!(
        "FRAG\nDCL IN[0]\n{}{}END\n",
        "IF IN[0].xxxx\n".repeat(n),
        "ENDIF\n".repeat(n)
    );
    std::fs::write(&deep, &text).unwrap();
    let out = tgsi_core(&["check", s(&deep)]);
    let e = stderr(&out);
    assert!(e.lines().count() < 10, "{} lines", e.lines().count());
    assert!(e.contains("(and 9983 more blocks nested beyond it)"), "{e}");
    let out = tgsi_core(&["dump", s(&deep)]);
    assert!(out.stdout.len() < 40 * text.len(), "{}", out.stdout.len());

    // A duplicated source text appears once.
    let src = d.join("p.tgsi");
    std::fs::write(&src, PROGRAM).unwrap();
    let img = d.join("p.img");
    assert!(tgsi_core(&["compile", s(&src), "-o", s(&img)])
        .status
        .success());
    let mut b = std::fs::read(&img).unwrap();
    // The first instruction word's top byte (bits 120-127 are above the 109-bit word), then a
    // fresh checksum so that the reader gets as far as decoding it.
    let code = find(&b, b"CODE") + 8;
    b[code + 15] = 0xFF;
    let body = b.len() - 4;
    let crc = crc32fast::hash(&b[..body]);
    b[body..].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&img, &b).unwrap();
    let e = stderr(&tgsi_core(&["disasm", s(&img)]));
    assert_eq!(e.matches("are set").count(), 1, "{e}");
    std::fs::remove_dir_all(&d).unwrap();
}

fn find(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len())
        .position(|w| w == needle)
        .expect("section present")
}

#[test]
fn the_core_model_refuses_images_its_core_cannot_hold() {
    use microcode::core::{CoreConfig, Image};
    let d = scratch("too-big");
    let p = microcode::tgsi::text::parse(PROGRAM).unwrap();
    let mut img = microcode::compile::compile(&p, &CoreConfig::default())
        .unwrap()
        .image;
    // More instructions than the core's program memory, as `--engine rtl` refuses: the compiler
    // never writes such an image, a hand-made or damaged one can.
    let first = img.code[0];
    let extra = usize::from(img.config.program_size);
    img.code.splice(0..0, std::iter::repeat_n(first, extra));
    img.origin.splice(0..0, std::iter::repeat_n(0, extra));
    let path = d.join("big.img");
    std::fs::write(&path, Image::to_bytes(&img)).unwrap();
    let out = tgsi_core(&["run", "--engine", "core", s(&path)]);
    assert!(!out.status.success());
    let e = stderr(&out);
    assert!(
        e.contains(&format!(
            "the image has {} instructions; the core holds {extra}",
            img.code.len()
        )),
        "{e}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

//! Every corpus program (Mesa 7.7 and 7.9 dialects) parses, prints, re-parses to the same program
//! and prints again identically; the five post-7.9 files give the errors listed here.

use microcode::tgsi::text::{parse, print, print_with, PrintOptions};
use microcode::tgsi::Dialect;
use std::path::{Path, PathBuf};

/// `<workspace root>/../shared/corpus`, if present.
fn corpus() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent()?;
    let dir = root.join("..").join("shared").join("corpus");
    dir.is_dir().then_some(dir)
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if matches!(p.extension().and_then(|e| e.to_str()), Some("sh" | "txt")) {
            out.push(p);
        }
    }
}

/// The files Mesa 7.9 itself rejects, and the error we give (line, column, message).
const NEWER: [(&str, u32, u32, &str); 5] = [
    (
        "frag-ucmp.sh",
        8,
        4,
        "unknown opcode `F2U`: added to TGSI after Mesa 7.9, not supported",
    ),
    (
        "vert-uadd.sh",
        8,
        1,
        "unknown opcode `UADD`: added to TGSI after Mesa 7.9, not supported",
    ),
    (
        "vert-imul_hi.sh",
        10,
        1,
        "unknown opcode `IMUL_HI`: added to TGSI after Mesa 7.9, not supported",
    ),
    (
        "vert-umul_hi.sh",
        9,
        1,
        "unknown opcode `UMUL_HI`: added to TGSI after Mesa 7.9, not supported",
    ),
    // `IMM[n]` numbering is our syntax too, so this one parses.
    ("vert-rcp.sh", 0, 0, ""),
];

#[test]
fn corpus_round_trips() {
    let Some(dir) = corpus() else {
        println!("note: ../shared/corpus not found; corpus test skipped");
        return;
    };
    let mut all = Vec::new();
    files(&dir, &mut all);
    all.sort();
    assert!(all.len() >= 120, "only {} corpus files found", all.len());
    let mut checked = 0;
    for path in &all {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let src = std::fs::read_to_string(path).expect("readable corpus file");
        let graw = path.to_string_lossy().contains("mesa-graw");
        if let Some(&(_, line, col, msg)) = NEWER.iter().find(|n| n.0 == name && graw) {
            if line != 0 {
                let e = parse(&src).expect_err(name);
                assert_eq!(
                    (e.line, e.col, e.message.as_str()),
                    (line, col, msg),
                    "{name}"
                );
                continue;
            }
        }
        let p =
            parse(&src).unwrap_or_else(|e| panic!("{}", e.render(&src, &path.to_string_lossy())));
        let text = print(&p);
        let q = parse(&text).unwrap_or_else(|e| panic!("{}", e.render(&text, "printed")));
        assert_eq!(p, q, "{name}: re-parse differs\n{text}");
        assert_eq!(print(&q), text, "{name}: second print differs");
        let old = print_with(
            &p,
            &PrintOptions {
                dialect: Dialect::V11,
            },
        );
        assert_eq!(parse(&old).as_ref(), Ok(&p), "{name}: V11 text differs");
        checked += 1;
    }
    assert_eq!(checked, all.len() - 4);
}

/// The project's own example programs (`examples/*.tgsi`) round-trip the same way.
#[test]
fn examples_round_trip() {
    let Some(root) = Path::new(env!("CARGO_MANIFEST_DIR")).parent() else {
        return;
    };
    let mut all = Vec::new();
    if let Ok(entries) = std::fs::read_dir(root.join("examples")) {
        for e in entries.flatten() {
            if e.path().extension().and_then(|x| x.to_str()) == Some("tgsi") {
                all.push(e.path());
            }
        }
    }
    for path in &all {
        let src = std::fs::read_to_string(path).expect("readable example");
        let p =
            parse(&src).unwrap_or_else(|e| panic!("{}", e.render(&src, &path.to_string_lossy())));
        let text = print(&p);
        assert_eq!(parse(&text).as_ref(), Ok(&p), "{}", path.display());
        assert_eq!(print(&parse(&text).unwrap()), text);
    }
}

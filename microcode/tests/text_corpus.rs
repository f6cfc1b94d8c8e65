//! Every corpus program (Mesa 7.7 and 7.9 dialects) parses, prints, re-parses to the same program
//! and prints again identically, the five post-7.9 files too.

use microcode::tgsi::text::{parse, print, print_with, PrintOptions};
use microcode::tgsi::Dialect;
use std::path::{Path, PathBuf};

/// `<workspace root>/../shared/corpus`, if present.
fn corpus() -> Option<PathBuf> {
    toolchain::corpus()
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

/// The files Mesa 7.9 itself rejects (later opcodes, `IMM[n]` numbering, INT32/UINT32
/// immediates): our parser reads them, and the opcodes they need have rows.
const NEWER: [(&str, &[&str]); 5] = [
    ("frag-ucmp.sh", &["F2U", "UCMP"]),
    ("vert-uadd.sh", &["UADD"]),
    ("vert-imul_hi.sh", &["IMUL_HI", "UMUL"]),
    ("vert-umul_hi.sh", &["UMUL_HI"]),
    ("vert-rcp.sh", &[]),
];

#[test]
fn corpus_round_trips() {
    let Some(dir) = corpus() else {
        return;
    };
    let mut all = Vec::new();
    files(&dir, &mut all);
    all.sort();
    assert!(all.len() >= 120, "only {} corpus files found", all.len());
    let mut checked = 0;
    let mut newer = 0;
    for path in &all {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let src = std::fs::read_to_string(path).expect("readable corpus file");
        let graw = path.to_string_lossy().contains("mesa-graw");
        let p =
            parse(&src).unwrap_or_else(|e| panic!("{}", e.render(&src, &path.to_string_lossy())));
        if let Some(&(_, later)) = NEWER.iter().find(|n| n.0 == name && graw) {
            for m in later {
                assert!(
                    p.instructions.iter().any(|i| i.opcode.mnemonic() == *m),
                    "{name}: no {m}"
                );
            }
            newer += 1;
        }
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
    assert_eq!(checked, all.len());
    assert_eq!(newer, NEWER.len());
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

//! Every corpus program that parses encodes to tokens, decodes back to the same program, loads by
//! format detection, and validates.

use microcode::tgsi::text::parse;
use microcode::tgsi::tokens::{decode, encode, to_bytes};
use microcode::tgsi::validate::{validate, Limits};
use microcode::tgsi::{load, Format};
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

#[test]
fn corpus_programs_round_trip_through_tokens_and_validate() {
    let Some(dir) = corpus() else {
        return;
    };
    let mut all = Vec::new();
    files(&dir, &mut all);
    all.sort();
    let mut checked = 0;
    for path in &all {
        let name = path.to_string_lossy();
        let src = std::fs::read_to_string(path).expect("readable corpus file");
        // The post-7.9 files the text front end rejects are its own test's business.
        let Ok(p) = parse(&src) else { continue };
        let words = encode(&p);
        let d = decode(&words).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(d.program, p, "{name}");
        assert!(d.warnings.is_empty(), "{name}: {:?}", d.warnings);
        let loaded = load(&to_bytes(&words), None).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(loaded.format, Format::Tokens, "{name}");
        if let Err(errors) = validate(&p, &Limits::default()) {
            let list: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            panic!("{name}:\n{}", list.join("\n"));
        }
        checked += 1;
    }
    assert!(checked >= 120, "only {checked} corpus programs checked");
}

//! Replays the stored mangled token streams: `ok-*` files must decode, `err-*` files must fail with
//! a `DecodeError`, and nothing may panic.

use microcode::tgsi::tokens::{decode, from_bytes, DecodeError};
use std::path::Path;

fn decode_bytes(bytes: &[u8]) -> Result<(), DecodeError> {
    decode(&from_bytes(bytes)?).map(|_| ())
}

#[test]
fn stored_mangled_streams() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-corpus/tokens");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "bin"))
        .collect();
    files.sort();
    assert!(files.len() >= 25, "only {} corpus files", files.len());
    for path in files {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let bytes = std::fs::read(&path).expect("readable corpus file");
        let result = decode_bytes(&bytes);
        if name.starts_with("ok-") {
            assert!(result.is_ok(), "{name}: {result:?}");
        } else {
            let e = result.expect_err(&name);
            eprintln!("{name}: {e}");
            assert!(
                e.to_string().starts_with("word ") || e.to_string().starts_with("byte length"),
                "{name}: {e}"
            );
        }
    }
}

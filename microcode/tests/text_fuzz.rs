//! The parser never panics: not on arbitrary strings, not on TGSI-like token soup, not on valid
//! programs with random edits. Every error it returns is located inside the input and carries a
//! specific message (never nom's generic one).

use microcode::tgsi::text::parse;
use proptest::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

/// The sample below plus every corpus file (when `../shared/corpus` is present).
fn texts() -> &'static [String] {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    TEXTS.get_or_init(|| {
        let mut out = vec![SAMPLE.to_string()];
        let Some(root) = Path::new(env!("CARGO_MANIFEST_DIR")).parent() else {
            return out;
        };
        let mut dirs = vec![root.join("..").join("shared").join("corpus")];
        while let Some(dir) = dirs.pop() {
            for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if matches!(p.extension().and_then(|x| x.to_str()), Some("sh" | "txt")) {
                    out.extend(std::fs::read_to_string(&p).ok());
                }
            }
        }
        out
    })
}

const SAMPLE: &str = "FRAG1.1\n\
PROPERTY FS_COORD_ORIGIN UPPER_LEFT\n\
DCL IN[0].xy, COLOR[1], LINEAR\n\
DCL IN[][0], POSITION, CONSTANT\n\
DCL CONST[1][0..6]\n\
DCL IMMX[0..1] {{0.5, 0.4, 0.6, 1.0},\n  {0.5, 0x7fc00000, -inf, 1e-3}}\n\
IMM[0] FLT32 { 1.0, -0.5, nan, 2e3 }\n\
IMM INT32 { -1, 0x10, 3, 4 }\n\
  0: MAD_SAT.CC1.F16 OUT[0].xyz_X2 (NE1.xxxx), -IN[0].zyxw, |IMM[0].x|, CONST[ADDR[0].x+3]\n\
1: (GT1.xxxx) BRA :3\n\
  2: MOV TEMP[0], -( | 2*( ( 1-( -IN[0] ) ) - 0.5 ) | )\n\
  3: TEX TEMP[0], IN[0]{x,-y,0,1}/w, SAMP[0], 2D\n\
  4: IF TEMP[0].x :6\n\
  5: ELSE :7\n\
  6: ENDIF\n\
  7: END\n";

/// Parses and checks the error, if any, for a location inside the input and a real message.
fn check(src: &str) -> Result<(), TestCaseError> {
    if let Err(e) = parse(src) {
        let lines = src.split('\n').count() as u32;
        prop_assert!(
            e.line >= 1 && e.line <= lines,
            "line {} of {}",
            e.line,
            lines
        );
        prop_assert!(e.col >= 1);
        prop_assert!(
            !e.message.starts_with("syntax error"),
            "generic message: {}",
            e.message
        );
        let _ = e.render(src, "fuzz");
    }
    Ok(())
}

fn token() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "FRAG",
        "VERT",
        "GEOM",
        "1.1",
        "DCL",
        "IMM",
        "IMMX",
        "PROPERTY",
        "MOV",
        "MAD",
        "TEX",
        "BRA",
        "IF",
        "END",
        "_SAT",
        "_SATNV",
        ".CC",
        ".CC1",
        ".F16",
        "_X2",
        "_D8",
        "TEMP",
        "IN",
        "OUT",
        "CONST",
        "ADDR",
        "SAMP",
        "[",
        "]",
        "[]",
        "..",
        "(",
        ")",
        "(GT1.x)",
        "|",
        "-",
        "1-(",
        "2*(",
        ")-0.5",
        "{",
        "}",
        "/w",
        ",",
        ":",
        ".",
        ".x",
        ".xyzw",
        "x",
        "0",
        "1",
        "-3",
        "+",
        "99999",
        "0x7fc00000",
        "nan",
        "inf",
        "1e-45",
        "2D",
        "SHADOWRECT",
        "COLOR",
        "GENERIC[2]",
        "LINEAR",
        "FLT32",
        "INT32",
        "TRIANGLES",
        " ",
        " ",
        "\n",
        "\t",
        "\r\n",
        "/*",
        "*/",
        "#",
        "é",
        "\u{0}",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn arbitrary_strings_never_panic(s in "\\PC*") {
        check(&s)?;
        check(&format!("FRAG\n{s}"))?;
    }

    #[test]
    fn token_soup_never_panics(tokens in prop::collection::vec(token(), 0..40)) {
        let s: String = tokens.concat();
        check(&s)?;
        check(&format!("VERT\n{s}"))?;
    }

    #[test]
    fn mangled_programs_never_panic(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, token()), 1..6)
    ) {
        let mut s = which.get(texts()).clone();
        for (at, kind, tok) in edits {
            let mut k = at.index(s.len() + 1);
            while !s.is_char_boundary(k) {
                k -= 1;
            }
            match kind {
                0 => s.insert_str(k, tok),
                1 => {
                    let mut end = (k + tok.len()).min(s.len());
                    while !s.is_char_boundary(end) {
                        end -= 1;
                    }
                    s.replace_range(k..end, "");
                }
                _ => {
                    s.truncate(k);
                }
            }
        }
        check(&s)?;
    }
}

#[test]
fn the_sample_itself_parses() {
    let p = parse(SAMPLE).unwrap();
    assert_eq!(p.instructions.len(), 8);
}

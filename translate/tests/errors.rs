//! What the translator refuses, and how: `FILE:LINE:COL: error: <construct in the language's
//! words>: <why>`, never Rust debug formatting, never a panic or a half-made program; naga's own
//! diagnostics keep their excerpt and name the file on the first line; hostile input runs into
//! a named budget before it takes time or memory.

use translate::{translate, Budget, Construct, Language, Stage, TranslateError};

const HEAD: &str = "@fragment\nfn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {\n";

fn wgsl(src: &str) -> Result<translate::Translation, TranslateError> {
    translate(src.as_bytes(), Language::Wgsl, "t.wgsl", None)
}

/// Translates a WGSL body (line 3 on) and returns the unsupported construct and its place.
fn refused(body: &str) -> (Construct, Option<(u32, u32)>, String) {
    let src = format!("{HEAD}{body}\n}}\n");
    match wgsl(&src) {
        Err(e @ TranslateError::Unsupported { .. }) => {
            let text = e.to_string();
            let TranslateError::Unsupported {
                construct,
                location,
                file,
                ..
            } = e
            else {
                unreachable!()
            };
            assert_eq!(file, "t.wgsl");
            (construct, location, text)
        }
        other => panic!("{body}: expected an unsupported construct, got {other:?}"),
    }
}

/// No Rust debug dump in a message: no `Struct {`, `Some(`, `[1]` of an arena.
fn assert_plain(text: &str) {
    for dump in ["{ ", "Some(", "StorageAccess", "Handle", "::"] {
        assert!(!text.contains(dump), "a debug dump ({dump}) in: {text}");
    }
}

#[test]
fn refusals_read_file_line_col_error_construct_and_why() {
    let (c, at, text) =
        refused("    let d = dot4I8Packed(u32(uv.x), 2u);\n    return vec4<f32>(f32(d));");
    assert_eq!(c, Construct::Function("dot4I8Packed".into()));
    assert_eq!(at, Some((3, 13)));
    assert!(
        text.starts_with(
            "t.wgsl:3:13: error: the built-in function `dot4I8Packed` is not translated: "
        ),
        "{text}"
    );
    assert_plain(&text);
    let src = "@group(0) @binding(0) var<storage, read_write> buf: array<f32>;\n\
               @fragment\nfn main() -> @location(0) vec4<f32> {\n    buf[0] = 1.0;\n    \
               return vec4<f32>(1.0);\n}\n";
    let e = wgsl(src).unwrap_err().to_string();
    assert!(
        e.starts_with("t.wgsl:1:23: error: storage buffers (`var<storage>`) are not translated:"),
        "{e}"
    );
    assert!(e.contains("memory writes"), "{e}");
    assert_plain(&e);
    // GLSL names GLSL's words.
    let frag = "#version 450\nlayout(location = 0) out vec4 c;\n\
                layout(std430, set = 0, binding = 0) buffer B { float v[]; } b;\n\
                void main() { c = vec4(b.v[0]); }\n";
    let e = translate(
        frag.as_bytes(),
        Language::Glsl(Stage::Fragment),
        "b.frag",
        None,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with("b.frag:3:") && e.contains("`buffer` blocks"),
        "{e}"
    );
    let (c, _, text) = refused(
        "    var x = 0.0;\n    for (var i = 0; i < 3; i++) {\n        \
         switch i { case 0: { continue; } default: { x += 1.0; } }\n    }\n    \
         return vec4<f32>(x);",
    );
    assert_eq!(c, Construct::Other("a `continue` inside a `switch`".into()));
    assert!(
        text.contains(": error: a `continue` inside a `switch` is not translated: "),
        "{text}"
    );
}

#[test]
fn naga_diagnostics_name_the_file_first_and_keep_their_excerpt() {
    let e = wgsl(&format!("{HEAD}    return vec4<f32>(1.0, 2.0;\n}}\n"))
        .unwrap_err()
        .to_string();
    let first = e.lines().next().unwrap();
    assert!(first.starts_with("t.wgsl:3:30: error: expected `)`"), "{e}");
    assert!(
        e.contains("return vec4<f32>(1.0, 2.0;"),
        "the source line: {e}"
    );
    assert!(!e.starts_with("error:"), "{e}");
    // A bare validation message gets its causes.
    let e = wgsl(
        "struct O { @builtin(position) p: vec4<f32>, @location(0) i: u32 }\n@vertex\n\
         fn vs() -> O { return O(vec4<f32>(1.0), 1u); }\n",
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with("t.wgsl:1:1: error: Entry point vs at Vertex is invalid: ")
            && e.contains("@interpolate(flat)"),
        "{e}"
    );
}

#[test]
fn only_what_the_entry_point_reaches_is_translated() {
    // A compute pass's storage buffer, another entry point's texture, and another entry point
    // that naga refuses (an integer output without `@interpolate(flat)`).
    let src = "@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n\
               @group(0) @binding(1) var other: texture_2d<f32>;\n\
               @compute @workgroup_size(1)\nfn cs() { data[0] = 1u; }\n\
               struct O { @builtin(position) p: vec4<f32>, @location(0) i: u32 }\n\
               @vertex\nfn vs() -> O { return O(vec4<f32>(1.0), 1u); }\n\
               @fragment\nfn fs() -> @location(0) vec4<f32> { return vec4<f32>(0.5); }\n";
    let t = translate(src.as_bytes(), Language::Wgsl, "m.wgsl", Some("fs")).unwrap();
    assert!(t.bindings.textures.is_empty() && t.bindings.buffers.is_empty());
    assert!(!t.text.contains("SAMP"), "{}", t.text);
    assert!(translate(src.as_bytes(), Language::Wgsl, "m.wgsl", Some("vs")).is_err());
}

#[test]
fn hostile_inlining_is_bounded() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/errors/deep-inlining.wgsl");
    let e = translate::translate_file(&path, None).unwrap_err();
    assert!(
        matches!(
            e,
            TranslateError::Budget {
                budget: Budget::Inlining | Budget::Instructions,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("exceeds the in"), "{e}");
    // A chain of 2,000 functions each calling the next: the inlining budget, with the place.
    let mut src = String::from("fn g0(x: f32) -> f32 { return x + 1.0; }\n");
    for i in 1..2000 {
        src += &format!("fn g{i}(x: f32) -> f32 {{ return g{}(x) * 0.5; }}\n", i - 1);
    }
    src += &format!("{HEAD}    return vec4<f32>(g1999(uv.x));\n}}\n");
    let e = wgsl(&src).unwrap_err();
    assert!(
        matches!(
            e,
            TranslateError::Budget {
                budget: Budget::Inlining,
                location: Some(_),
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn stages_and_languages_by_extension() {
    use std::path::Path;
    assert_eq!(
        translate::language_of(Path::new("a.WGSL")),
        Some(Language::Wgsl)
    );
    assert_eq!(
        translate::language_of(Path::new("a.vert")),
        Some(Language::Glsl(Stage::Vertex))
    );
    assert_eq!(
        translate::language_of(Path::new("a.glsl")),
        Some(Language::Glsl(Stage::Fragment))
    );
    assert_eq!(
        translate::language_of(Path::new("a.spv")),
        Some(Language::SpirV)
    );
    assert_eq!(translate::language_of(Path::new("a.tgsi")), None);
    let vert = "#version 450\nlayout(location = 0) in vec4 p;\nlayout(location = 0) out vec2 uv;\n\
                void main() { gl_Position = p * 0.5; uv = p.xy; }\n";
    let t = translate(
        vert.as_bytes(),
        Language::Glsl(Stage::Vertex),
        "v.vert",
        None,
    )
    .unwrap();
    assert_eq!(t.stage, Stage::Vertex);
    assert!(t.text.starts_with("VERT\n"), "{}", t.text);
    assert!(
        t.text.contains("POSITION") && t.text.contains("GENERIC[0]"),
        "{}",
        t.text
    );
}

/// The budget an error names.
fn budget(e: &TranslateError) -> Option<Budget> {
    match e {
        TranslateError::Budget { budget, .. } => Some(*budget),
        _ => None,
    }
}

#[test]
fn hostile_nesting_and_chains_are_refused_before_naga_recurses() {
    let deep = format!(
        "{HEAD}    return vec4<f32>({}1.0{});\n}}\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let e = wgsl(&deep).unwrap_err();
    assert_eq!(budget(&e), Some(Budget::Nesting), "{e}");
    assert!(e.to_string().starts_with("t.wgsl:3:"), "{e}");
    // Within naga's reach, beyond the validator's 16 levels: refused while lowering.
    let mut body = String::from("    var v = 0.0;\n");
    body += &"    if (uv.x > 0.1) {\n".repeat(20);
    body += "    v = 1.0;\n";
    body += &"    }\n".repeat(20);
    body += "    return vec4<f32>(v);";
    let e = wgsl(&format!("{HEAD}{body}\n}}\n")).unwrap_err();
    assert!(e.to_string().contains("nested deeper than 16"), "{e}");
    // 100,000 terms without brackets.
    let sum = format!(
        "{HEAD}    let x = uv.x{};\n    return vec4<f32>(x);\n}}\n",
        " + uv.y".repeat(100_000)
    );
    assert_eq!(budget(&wgsl(&sum).unwrap_err()), Some(Budget::Chain));
    let lets: String = (1..100_000)
        .map(|i| format!("    let a{i} = a{} + 1.0;\n", i - 1))
        .collect();
    let lets = format!("{HEAD}    let a0 = uv.x;\n{lets}    return vec4<f32>(a99999);\n}}\n");
    assert_eq!(budget(&wgsl(&lets).unwrap_err()), Some(Budget::Chain));
    let ternary: String = (0..100_000)
        .map(|i| format!("x > {i}.0 ? {i}.0 : "))
        .collect();
    let frag = format!(
        "#version 450\nlayout(location = 0) in vec2 uv;\nlayout(location = 0) out vec4 c;\n\
         void main() {{ float x = uv.x; c = vec4({ternary}0.0); }}\n"
    );
    let e = translate(
        frag.as_bytes(),
        Language::Glsl(Stage::Fragment),
        "t.frag",
        None,
    )
    .unwrap_err();
    assert_eq!(budget(&e), Some(Budget::Chain), "{e}");
}

#[test]
fn sizes_the_core_cannot_hold_are_refused_before_anything_is_allocated() {
    for body in [
        "    var a: array<f32, 100000000>;\n    a[1] = uv.x;\n    return vec4<f32>(a[1]);",
        "    var a: array<f32, 100000000>;\n    return vec4<f32>(uv.x);",
    ] {
        let e = wgsl(&format!("{HEAD}{body}\n}}\n")).unwrap_err();
        assert_eq!(budget(&e), Some(Budget::TypeSize), "{e}");
        let text = e.to_string();
        assert!(
            text.starts_with("t.wgsl:3:") && text.contains("100000000"),
            "{text}"
        );
    }
    let frag = "#version 450\nlayout(location = 0) in vec2 uv;\nlayout(location = 0) out vec4 c;\n\
                void main() { float a[100000000]; a[1] = uv.x; c = vec4(a[1]); }\n";
    let e = translate(
        frag.as_bytes(),
        Language::Glsl(Stage::Fragment),
        "a.frag",
        None,
    )
    .unwrap_err();
    assert_eq!(budget(&e), Some(Budget::TypeSize), "{e}");
    // A location TGSI cannot number, before naga's validator sizes a table by it.
    let e = wgsl(
        "@fragment\nfn main(@location(4294967295u) uv: vec2<f32>) -> @location(0) vec4<f32> {\n    \
         return vec4<f32>(uv.x);\n}\n",
    )
    .unwrap_err();
    assert_eq!(budget(&e), Some(Budget::Location), "{e}");
    assert!(e.to_string().contains("@location(4294967295)"), "{e}");
}

#[test]
fn macros_that_double_run_into_the_preprocessor_budget() {
    let mut src = String::from("#version 450\nlayout(location = 0) out vec4 c;\n#define A0 1.0\n");
    for i in 1..=40 {
        src += &format!("#define A{i} A{}+A{}\n", i - 1, i - 1);
    }
    src += "void main() { c = vec4(A40); }\n";
    let e = translate(
        src.as_bytes(),
        Language::Glsl(Stage::Fragment),
        "l.frag",
        None,
    )
    .unwrap_err();
    assert_eq!(budget(&e), Some(Budget::Preprocessor), "{e}");
    assert!(e.to_string().starts_with("l.frag:"), "{e}");
}

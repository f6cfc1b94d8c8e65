//! What the translator refuses, and how: a typed error with the file, line and column of the
//! construct, never a panic and never a half-made program.

use translate::{translate, Construct, Language, Stage, TranslateError};

const HEAD: &str = "@fragment\nfn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {\n";

/// Translates a WGSL body (line 3 on) and returns the unsupported construct and its place.
fn refused(body: &str) -> (Construct, Option<(u32, u32)>) {
    let src = format!("{HEAD}{body}\n}}\n");
    match translate(src.as_bytes(), Language::Wgsl, "t.wgsl", None) {
        Err(TranslateError::Unsupported {
            construct,
            location,
            file,
            ..
        }) => {
            assert_eq!(file, "t.wgsl");
            (construct, location)
        }
        other => panic!("{body}: expected an unsupported construct, got {other:?}"),
    }
}

#[test]
fn unsupported_constructs_name_the_construct_and_the_place() {
    let (c, at) = refused("    return vec4<f32>(sinh(uv.x));");
    assert_eq!(c, Construct::Function("Sinh".into()));
    assert_eq!(at, Some((3, 22)));
    let (c, at) =
        refused("    let i = u32(uv.x * 4.0);\n    return vec4<f32>(f32(countOneBits(i)));");
    assert_eq!(c, Construct::Function("CountOneBits".into()));
    assert_eq!(at.map(|a| a.0), Some(4));
    let (c, at) = refused(
        "    let i = i32(uv.x * 2.0);\n    var a = array<f32, 2>(1.0, 2.0);\n    return vec4<f32>(a[i]);",
    );
    assert!(
        matches!(c, Construct::Other(ref s) if s.contains("non-constant index")),
        "{c}"
    );
    assert_eq!(at.map(|a| a.0), Some(5));
    let (c, _) = refused(
        "    var x = 0.0;\n    for (var i = 0; i < 3; i++) {\n        \
         switch i { case 0: { continue; } default: { x += 1.0; } }\n    }\n    \
         return vec4<f32>(x);",
    );
    assert_eq!(c, Construct::Other("a continue inside a switch".into()));
}

#[test]
fn hostile_inlining_is_bounded() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/errors/deep-inlining.wgsl");
    let e = translate::translate_file(&path, None).unwrap_err();
    assert!(e.to_string().contains("over 4096 TGSI instructions"), "{e}");
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

#[test]
fn hostile_nesting_is_refused_before_naga_recurses() {
    let deep = format!(
        "{HEAD}    return vec4<f32>({}1.0{});\n}}\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let e = translate(deep.as_bytes(), Language::Wgsl, "deep.wgsl", None).unwrap_err();
    assert!(e.to_string().contains("nested deeper than 256"), "{e}");
    // Within naga's reach, beyond the validator's 16 levels: refused while lowering.
    let mut body = String::from("    var v = 0.0;\n");
    body += &"    if (uv.x > 0.1) {\n".repeat(20);
    body += "    v = 1.0;\n";
    body += &"    }\n".repeat(20);
    body += "    return vec4<f32>(v);";
    let (c, _) = refused(&body);
    assert!(
        matches!(c, Construct::Other(ref s) if s.contains("nested deeper than 16")),
        "{c}"
    );
}

//! `tgsi-core translate` and shader files (WGSL, GLSL, SPIR-V) where programs are read: the
//! WGSL twins of the bundled examples render like the TGSI originals, errors name the place.

use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tgsi-translate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// (success, exit code, stdout, stderr)
fn tgsi_core(args: &[&str]) -> (bool, Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi-core"))
        .args(args)
        .output()
        .expect("tgsi-core runs");
    (
        out.status.success(),
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name)
        .display()
        .to_string()
}

fn pixels(path: &Path) -> Vec<u8> {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf[..info.buffer_size()].to_vec()
}

/// Renders `name`.tgsi and its twin `name`.wgsl with the same arguments: the same pixels (the
/// twins are written operation for operation, and MAD rounds like MUL then ADD).
fn twin(name: &str, extra: &[&str]) {
    let mut frames = Vec::new();
    for ext in ["tgsi", "wgsl"] {
        let out = scratch(&format!("{name}-{ext}.png"));
        let file = example(&format!("{name}.{ext}"));
        let mut args = vec![
            "render",
            &file,
            "-o",
            out.to_str().unwrap(),
            "--size",
            "32x32",
        ];
        args.extend_from_slice(extra);
        let (ok, _, _, err) = tgsi_core(&args);
        assert!(ok, "{name}.{ext}: {err}");
        frames.push(pixels(&out));
    }
    assert!(
        frames[0] == frames[1],
        "{name}: the WGSL twin renders differently"
    );
}

#[test]
fn twins_render_like_the_tgsi_examples() {
    twin("checker", &[]);
    twin("rings", &[]);
    twin("cutout", &[]);
    let sky = format!("0={},cube,bilinear", example("sky-cube.png"));
    twin("mirror-ball", &["--texture", &sky]);
    let tex = format!("0={},bilinear", example("checker-8.png"));
    let mut lit = vec!["--texture".to_string(), tex];
    lit.extend(tgsi_core::demo::lit_sphere_const_args());
    let lit: Vec<&str> = lit.iter().map(String::as_str).collect();
    twin("lit-sphere", &lit);
}

#[test]
fn translate_writes_a_program_the_other_commands_read() {
    let out = scratch("rings.tgsi");
    let (ok, _, _, err) = tgsi_core(&[
        "translate",
        &example("rings.wgsl"),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(
        err.contains("TGSI instructions") && err.contains("core instructions"),
        "{err}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("FRAG\n"), "{text}");
    assert!(text.contains("DCL IN[0], GENERIC[0]"), "{text}");
    assert!(text.contains("DCL OUT[0], COLOR[0]"), "{text}");
    let (ok, _, stdout, err) = tgsi_core(&["check", out.to_str().unwrap()]);
    assert!(ok && stdout.contains(": ok"), "{stdout}{err}");
}

#[test]
fn commands_take_shader_files_directly() {
    let wgsl = example("checker.wgsl");
    let (ok, _, stdout, err) = tgsi_core(&["check", &wgsl]);
    assert!(ok && stdout.contains(": ok"), "{stdout}{err}");
    let img = scratch("checker.img");
    let (ok, _, _, err) = tgsi_core(&["compile", &wgsl, "-o", img.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(std::fs::metadata(&img).unwrap().len() > 0);
    let (ok, _, stdout, err) = tgsi_core(&["run", &wgsl, "--input", "0=0.1,0.1,0,1"]);
    assert!(ok, "{stdout}{err}");
    // GLSL by its extension, on the core model.
    let frag = scratch("g.frag");
    std::fs::write(
        &frag,
        "#version 450\nlayout(location = 0) in vec2 uv;\nlayout(location = 0) out vec4 c;\n\
         void main() { c = vec4(uv, 0.25, 1.0); }\n",
    )
    .unwrap();
    let png = scratch("g.png");
    let (ok, _, _, err) = tgsi_core(&[
        "render",
        frag.to_str().unwrap(),
        "-o",
        png.to_str().unwrap(),
        "--size",
        "4x4",
        "--engine",
        "core",
    ]);
    assert!(ok, "{err}");
    let p = pixels(&png);
    // Pixel (1, 2): uv = (1.5/4, 2.5/4).
    let at = (2 * 4 + 1) * 4;
    assert_eq!(&p[at..at + 4], &[96, 159, 64, 255]);
}

#[test]
fn unsupported_constructs_are_named_with_file_line_and_column() {
    let f = scratch("sinh.wgsl");
    std::fs::write(
        &f,
        "@fragment\nfn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {\n    \
         let a = sinh(uv.x);\n    return vec4<f32>(a);\n}\n",
    )
    .unwrap();
    let o = scratch("sinh.tgsi");
    let (ok, code, _, err) =
        tgsi_core(&["translate", f.to_str().unwrap(), "-o", o.to_str().unwrap()]);
    assert!(!ok && code == Some(1), "{err}");
    let want = format!("{}:3:13: unsupported built-in function Sinh", f.display());
    assert!(err.contains(&want), "{err}");
    assert!(!o.exists(), "nothing written on failure");
}

#[test]
fn syntax_and_validation_errors_come_from_naga_with_the_place() {
    let f = scratch("bad.wgsl");
    std::fs::write(
        &f,
        "@fragment\nfn main() -> @location(0) vec4<f32> {\n  return vec4<f32>(1.0, 2.0;\n}\n",
    )
    .unwrap();
    let (ok, code, _, err) = tgsi_core(&["check", f.to_str().unwrap()]);
    assert!(!ok && code == Some(1), "{err}");
    assert!(err.contains(&format!("{}:3:", f.display())), "{err}");
    let g = scratch("bad.frag");
    std::fs::write(
        &g,
        "#version 450\nvoid main() { float x = undefined_name; }\n",
    )
    .unwrap();
    let (ok, code, _, err) = tgsi_core(&["check", g.to_str().unwrap()]);
    assert!(!ok && code == Some(1), "{err}");
    assert!(
        err.contains("undefined_name") && err.contains(":2:"),
        "{err}"
    );
}

#[test]
fn hostile_shader_files_fail_cleanly() {
    for (name, bytes) in [
        ("junk.spv", vec![1u8, 2, 3]),
        ("junk2.spv", vec![0x07, 0x23, 0x02, 0x03, 0, 0, 0, 0]),
        ("junk.wgsl", vec![0xff, 0xfe, 0x00]),
        ("empty.frag", vec![]),
        ("empty.wgsl", vec![]),
    ] {
        let f = scratch(name);
        std::fs::write(&f, &bytes).unwrap();
        let (ok, code, _, err) = tgsi_core(&["check", f.to_str().unwrap()]);
        assert!(!ok && code == Some(1), "{name}: {code:?} {err}");
        assert!(err.contains(name), "{name}: {err}");
    }
}

#[test]
fn entry_points_are_chosen_by_name() {
    let f = scratch("two.wgsl");
    std::fs::write(
        &f,
        "@fragment\nfn red() -> @location(0) vec4<f32> { return vec4<f32>(1.0, 0.0, 0.0, 1.0); }\n\
         @fragment\nfn green() -> @location(0) vec4<f32> { return vec4<f32>(0.0, 1.0, 0.0, 1.0); }\n\
         @vertex\nfn vs(@location(0) p: vec4<f32>) -> @builtin(position) vec4<f32> { return p * 2.0; }\n",
    )
    .unwrap();
    let path = f.to_str().unwrap();
    let o = scratch("two.tgsi");
    let (ok, _, _, err) = tgsi_core(&["translate", path, "-o", o.to_str().unwrap()]);
    assert!(
        !ok && err.contains("--entry") && err.contains("green"),
        "{err}"
    );
    let (ok, _, _, err) = tgsi_core(&[
        "translate",
        path,
        "-o",
        o.to_str().unwrap(),
        "--entry",
        "blue",
    ]);
    assert!(!ok && err.contains("\"blue\""), "{err}");
    let (ok, _, _, err) = tgsi_core(&[
        "translate",
        path,
        "-o",
        o.to_str().unwrap(),
        "--entry",
        "green",
    ]);
    assert!(ok, "{err}");
    let (ok, _, stdout, err) = tgsi_core(&["run", o.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(
        stdout.contains("[00000000 3f800000 00000000 3f800000]"),
        "{stdout}"
    );
    let (ok, _, _, err) = tgsi_core(&[
        "translate",
        path,
        "-o",
        o.to_str().unwrap(),
        "--entry",
        "vs",
    ]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&o).unwrap();
    assert!(
        text.starts_with("VERT\n") && text.contains("DCL OUT[0], POSITION"),
        "{text}"
    );
    assert!(text.contains("MUL OUT[0], IN[0], IMM[0].x"), "{text}");
}

#[test]
fn every_example_shader_fits_the_boards_core() {
    // `compile` targets the board's configuration (256 core instructions, 16 registers).
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut shaders: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| translate::language_of(p).is_some())
        .collect();
    shaders.sort();
    assert!(shaders.len() >= 7, "{shaders:?}");
    for s in shaders {
        let img = scratch("fit.img");
        let (ok, _, _, err) =
            tgsi_core(&["compile", s.to_str().unwrap(), "-o", img.to_str().unwrap()]);
        assert!(ok, "{}: {err}", s.display());
    }
}

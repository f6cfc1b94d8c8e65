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
    assert!(text.contains("DCL OUT[0], COLOR"), "{text}");
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
    let f = scratch("storage.wgsl");
    std::fs::write(
        &f,
        "@group(0) @binding(0) var<storage, read_write> buf: array<f32>;\n@fragment\n\
         fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {\n    \
         buf[0] = uv.x;\n    return vec4<f32>(uv.x);\n}\n",
    )
    .unwrap();
    let o = scratch("storage.tgsi");
    let (ok, code, _, err) =
        tgsi_core(&["translate", f.to_str().unwrap(), "-o", o.to_str().unwrap()]);
    assert!(!ok && code == Some(1), "{err}");
    // As compilers write it: the place first, no second "error:" before it.
    let want = format!(
        "{}:1:23: error: storage buffers (`var<storage>`) are not translated: ",
        f.display()
    );
    assert!(err.starts_with(&want), "{err}");
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
    assert!(text.contains("MUL OUT[0], IN[0], IMM[0].xxxx"), "{text}");
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

/// A shader with a packed uniform struct, as a wgpu program would write it.
const UNIFORM_SHADER: &str = "
struct Params {
    time: f32,
    scale: vec2<f32>,
    tint: vec3<f32>,
    gain: f32,
    model: mat2x2<f32>,
}
@group(0) @binding(3) var<uniform> params: Params;
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let p = params.model * (uv * params.scale);
    return vec4<f32>(params.tint * params.gain, fract(p.x + p.y + params.time));
}";

#[test]
fn bindings_are_printed_as_comments_and_json() {
    let f = scratch("params.wgsl");
    std::fs::write(&f, UNIFORM_SHADER).unwrap();
    let (ok, _, stdout, err) = tgsi_core(&["translate", f.to_str().unwrap(), "--bindings"]);
    assert!(ok, "{err}");
    for want in [
        "\"path\": \"params.time\", \"register\": 0, \"components\": \"x\"",
        "\"path\": \"params.scale\", \"register\": 0, \"components\": \"zw\"",
        "\"path\": \"params.tint\", \"register\": 1, \"components\": \"xyz\"",
        "\"path\": \"params.gain\", \"register\": 1, \"components\": \"w\"",
        "\"path\": \"params.model[1]\", \"register\": 2, \"components\": \"zw\"",
        "\"group\": 0, \"binding\": 3, \"name\": \"params\", \"first\": 0, \"size\": 48",
    ] {
        assert!(stdout.contains(want), "{want} in {stdout}");
    }
    let (ok, _, text, err) = tgsi_core(&["translate", f.to_str().unwrap(), "-o", "-"]);
    assert!(ok, "{err}");
    assert!(
        text.contains("#   CONST[1].w = params.gain (f32, offset 28)"),
        "{text}"
    );
}

#[test]
fn a_uniform_buffers_bytes_render_like_its_named_values() {
    let f = scratch("params2.wgsl");
    std::fs::write(&f, UNIFORM_SHADER).unwrap();
    let file = f.to_str().unwrap();
    // The bytes a wgpu program uploads: time, pad, scale, tint, gain, model's columns.
    let words: [f32; 12] = [0.3, 0.0, 2.0, 3.0, 0.2, 0.4, 0.8, 0.5, 1.0, 0.5, -0.25, 1.0];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let bin = scratch("params.bin");
    std::fs::write(&bin, &bytes).unwrap();
    let a = scratch("named.png");
    let b = scratch("bytes.png");
    let (ok, _, _, err) = tgsi_core(&[
        "render",
        file,
        "-o",
        a.to_str().unwrap(),
        "--size",
        "8x8",
        "--uniform",
        "params.time=0.3",
        "--uniform",
        "scale=2,3",
        "--uniform",
        "params.tint=0.2,0.4,0.8",
        "--uniform",
        "params.gain=0.5",
        "--uniform",
        "params.model=1,0.5,-0.25,1",
    ]);
    assert!(ok, "{err}");
    assert!(!err.contains("warning"), "every uniform is set: {err}");
    let buffer = format!("0:3={}", bin.display());
    let (ok, _, _, err) = tgsi_core(&[
        "render",
        file,
        "-o",
        b.to_str().unwrap(),
        "--size",
        "8x8",
        "--uniform-buffer",
        &buffer,
    ]);
    assert!(ok, "{err}");
    assert_eq!(pixels(&a), pixels(&b));
    // The same on the core model, through `run`.
    let (ok, _, named, err) = tgsi_core(&[
        "run",
        file,
        "--engine",
        "core",
        "--input",
        "0=0.25,0.75,0,1",
        "--uniform-buffer",
        &buffer,
    ]);
    assert!(ok, "{err}");
    let (ok, _, reference, err) = tgsi_core(&[
        "run",
        file,
        "--input",
        "0=0.25,0.75,0,1",
        "--uniform-buffer",
        &buffer,
    ]);
    assert!(ok, "{err}");
    let outputs = |s: &str| {
        s.lines()
            .filter(|l| l.contains("OUT[0]"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(outputs(&named), outputs(&reference));
}

#[test]
fn unset_uniforms_are_named_and_bad_uniform_arguments_refused() {
    let f = scratch("params3.wgsl");
    std::fs::write(&f, UNIFORM_SHADER).unwrap();
    let file = f.to_str().unwrap();
    let (ok, _, _, err) = tgsi_core(&["run", file, "--uniform", "params.gain=0.5"]);
    assert!(ok, "{err}");
    assert!(
        err.contains("warning: uniform `params.time` (f32, CONST[0].x) is not set"),
        "{err}"
    );
    assert!(!err.contains("`params.gain`"), "{err}");
    for (args, want) in [
        (vec!["--uniform", "params.gain=1,2"], "takes 1 value(s)"),
        (vec!["--uniform", "nothing=1"], "reads no uniform `nothing`"),
        (
            vec!["--uniform-buffer", "1:0=/nonexistent"],
            "no uniform buffer at group 1",
        ),
        (vec!["--uniform", "params.gain=zero"], "is not a number"),
    ] {
        let mut all = vec!["run", file];
        all.extend(args);
        let (ok, _, _, err) = tgsi_core(&all);
        assert!(!ok && err.contains(want), "{want}: {err}");
    }
    let short = scratch("short.bin");
    std::fs::write(&short, [0u8; 8]).unwrap();
    let spec = format!("0:3={}", short.display());
    let (ok, _, _, err) = tgsi_core(&["run", file, "--uniform-buffer", &spec]);
    assert!(!ok && err.contains("the binding takes 48"), "{err}");
    // TGSI has no binding map.
    let (ok, _, _, err) = tgsi_core(&["run", &example("checker.tgsi"), "--uniform", "a=1"]);
    assert!(!ok && err.contains("need a shader source"), "{err}");
}

#[test]
fn overrides_and_reports() {
    let dir = scratch("collection");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(
        dir.join("o.wgsl"),
        "override gain: f32 = 0.5;\n@fragment\nfn main() -> @location(0) vec4<f32> {\n    \
         return vec4<f32>(gain);\n}\n",
    )
    .unwrap();
    let o = dir.join("o.wgsl");
    let (ok, _, text, err) = tgsi_core(&[
        "translate",
        o.to_str().unwrap(),
        "-o",
        "-",
        "--override",
        "gain=0.25",
    ]);
    assert!(ok, "{err}");
    assert!(text.contains("IMM FLT32 {0.25}"), "{text}");
    let (ok, _, _, err) = tgsi_core(&[
        "translate",
        o.to_str().unwrap(),
        "-o",
        "-",
        "--override",
        "nope=1",
    ]);
    assert!(!ok && err.contains("--override nope"), "{err}");
    std::fs::write(
        dir.join("sub/two.wgsl"),
        "@group(0) @binding(0) var<storage, read_write> b: array<f32>;\n\
         @fragment\nfn a() -> @location(0) vec4<f32> { b[0] = 1.0; return vec4<f32>(1.0); }\n\
         @fragment\nfn c() -> @location(0) vec4<f32> { return vec4<f32>(0.5); }\n",
    )
    .unwrap();
    std::fs::write(dir.join("broken.wgsl"), "fn (").unwrap();
    let (ok, _, stdout, err) = tgsi_core(&["translate", "--report", dir.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(stdout.contains("translated: 2 of 3 (66.7%)"), "{stdout}");
    assert!(
        stdout.contains("1 refused by naga, 3 accepted by naga"),
        "{stdout}"
    );
    assert!(
        stdout.contains("refused:    1  storage buffers (`var<storage>`)"),
        "{stdout}"
    );
}

/// A uniform struct with doubles: `f64` aligned to 8 bytes, `vec3<f64>` to 32.
const DOUBLE_UNIFORMS: &str = "
struct P { s: f32, d: f64, v: vec3<f64>, t: f32 }
@group(0) @binding(0) var<uniform> p: P;
@fragment
fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    return vec4<f32>(f32(p.d * p.v.x), f32(p.v.z - p.v.y), p.s + p.t, f32(p.d / 3.0lf));
}";

#[test]
fn f64_uniforms_take_values_and_bytes_alike() {
    let f = scratch("doubles.wgsl");
    std::fs::write(&f, DOUBLE_UNIFORMS).unwrap();
    let file = f.to_str().unwrap();
    let (ok, _, stdout, err) = tgsi_core(&["translate", file, "--bindings"]);
    assert!(ok, "{err}");
    for want in [
        "\"path\": \"p.d\", \"register\": 0, \"components\": \"zw\", \"type\": \"f64\", \"kind\": \"double\", \"offset\": 8",
        "\"path\": \"p.v\", \"register\": 2, \"components\": \"xyzw\"",
        "\"path\": \"p.v\", \"register\": 3, \"components\": \"xy\"",
        "\"path\": \"p.t\", \"register\": 3, \"components\": \"z\"",
    ] {
        assert!(stdout.contains(want), "{want} in {stdout}");
    }
    // s, pad, d; pad to 32; v (x, y, z); t at 56.
    let mut bytes = vec![0u8; 64];
    bytes[0..4].copy_from_slice(&0.5f32.to_le_bytes());
    bytes[8..16].copy_from_slice(&(1.0f64 / 3.0).to_le_bytes());
    for (k, x) in [3.0f64, 1e10, 1e10 + 2.5].iter().enumerate() {
        bytes[32 + 8 * k..40 + 8 * k].copy_from_slice(&x.to_le_bytes());
    }
    bytes[56..60].copy_from_slice(&0.25f32.to_le_bytes());
    let bin = scratch("doubles.bin");
    std::fs::write(&bin, &bytes).unwrap();
    let buffer = format!("0:0={}", bin.display());
    let input = ["--input", "0=0.25,0.75,0,1"];
    let (ok, _, named, err) = tgsi_core(
        &[
            &[
                "run",
                file,
                "--uniform",
                "p.s=0.5",
                "--uniform",
                "p.d=0.3333333333333333",
            ][..],
            &[
                "--uniform",
                "p.v=3,1e10,10000000002.5",
                "--uniform",
                "p.t=0x3e800000",
            ],
            &input,
        ]
        .concat(),
    );
    assert!(ok, "{err}");
    assert!(!err.contains("warning"), "every uniform is set: {err}");
    let (ok, _, bytes_run, err) =
        tgsi_core(&[&["run", file, "--uniform-buffer", &buffer][..], &input].concat());
    assert!(ok, "{err}");
    let outputs = |s: &str| {
        s.lines()
            .filter(|l| l.contains("OUT[0]"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(outputs(&named), outputs(&bytes_run));
    // 1/3 * 3 = 1 exactly in binary64, 2.5 survives 1e10, 0.5 + 0.25, (1/3) / 3 rounded to f32.
    let want = format!(
        "[{:08x} {:08x} {:08x} {:08x}]",
        1.0f32.to_bits(),
        2.5f32.to_bits(),
        0.75f32.to_bits(),
        (((1.0f64 / 3.0) / 3.0) as f32).to_bits()
    );
    assert!(outputs(&named).contains(&want), "{want} in {named}");
    let (ok, _, _, err) = tgsi_core(&["run", file, "--uniform", "p.v=1,2"]);
    assert!(!ok && err.contains("takes 3 value(s)"), "{err}");
}

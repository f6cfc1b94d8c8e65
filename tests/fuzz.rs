//! In-process fuzzing of every entry point that reads user input (issue #20): format detection,
//! text parse, token decode, validation, printing (a valid program prints as text that parses back
//! to it), encode/decode round trip, compilation, image decode, disassembly, both models, the
//! command line's value parsers, PNG decoding and the shader translator (mutated WGSL and GLSL,
//! SPIR-V bytes). Every
//! call runs under `catch_unwind` and is timed; the run fails on any panic, any call over the
//! time limit (1 s), or a valid program whose text or tokens do not read back, and a watchdog
//! aborts it when one call hangs (30 s).
//!
//! Inputs are seeded mutations of the examples, the corpus (`../shared/corpus`, when present) and
//! a built-in sample: byte and word edits, TGSI token soup, long numbers, repeated lines (for
//! size), truncation, damaged image headers with and without a fresh checksum.
//!
//! The default suite runs a short bounded version; the full run is ignored:
//! `FUZZ_INPUTS=1000000 FUZZ_SEED=1 cargo test --release --test fuzz -- --ignored --nocapture`.
//!
//! A second target fuzzes the shader translator alone (issue #33): mutations of the translator's
//! own test shaders (`translate/tests/shaders`) with shader-aware edits (huge arrays, deep
//! nesting, long operator chains, doubling macros, recursive and chained functions, absurd
//! locations, every texture and built-in form) under a per-call limit of a few seconds, and the
//! process's peak memory is printed: `SHADER_FUZZ_INPUTS=20000 cargo test --release --test fuzz
//! fuzz_shaders_long -- --ignored --nocapture` (`SHADER_FUZZ_SAVE=FILE` keeps the input being
//! translated, for a hang).

use microcode::compile::compile;
use microcode::core::disasm::listing;
use microcode::core::{CoreConfig, Image};
use microcode::rng::XorShift;
use microcode::tgsi::text::{parse, print};
use microcode::tgsi::validate::{validate, Limits};
use microcode::tgsi::{load, tokens, Program};
use sim::run_io::RunInputs;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::time::{Duration, Instant};

/// A call slower than this counts as a failure (the bound).
const CALL_LIMIT: Duration = Duration::from_secs(1);
/// A call still running after this is a hang: the watchdog reports it and aborts the run, so a
/// hang fails the test instead of stalling it.
const HANG_LIMIT: Duration = Duration::from_secs(30);
/// Instructions each model may execute per run: enough for every seed, bounded for loops.
const BUDGET: u64 = 20_000;

const SAMPLE: &str = "FRAG\n\
DCL IN[0], COLOR, LINEAR\n\
DCL IN[1], GENERIC[0], PERSPECTIVE\n\
DCL OUT[0], COLOR\n\
DCL TEMP[0..3]\n\
DCL ADDR[0]\n\
DCL CONST[0..3]\n\
IMM FLT32 { 0.5, 1.0, -2.0, 0.0 }\n\
IMM INT32 { 1, -3, 7, 0 }\n\
  0: MAD TEMP[0], IN[0], IMM[0].xxxx, IMM[0].yyyy\n\
  1: CLAMP TEMP[1], TEMP[0], IMM[0].wwww, IMM[0].yyyy\n\
  2: ARL ADDR[0].x, IN[1].xxxx\n\
  3: MOV TEMP[2], CONST[ADDR[0].x+1]\n\
  4: IF TEMP[1].xxxx\n\
  5:   RCP TEMP[3].x, TEMP[2].yyyy\n\
  6: ELSE\n\
  7:   EX2 TEMP[3].x, TEMP[2].zzzz\n\
  8: ENDIF\n\
  9: BGNLOOP\n\
 10:   ADD TEMP[0].x, TEMP[0], IMM[0].yyyy\n\
 11:   SGT TEMP[2].x, TEMP[0], IMM[0].yyyy\n\
 12:   IF TEMP[2].xxxx\n\
 13:     BRK\n\
 14:   ENDIF\n\
 15: ENDLOOP\n\
 16: UADD TEMP[2], IMM[1], IMM[1]\n\
 17: DP4 OUT[0], TEMP[0], TEMP[3]\n\
 18: END\n";

/// TGSI fragments spliced into text.
const SOUP: &[&str] = &[
    "DCL TEMP[0..99999]\n",
    "DCL IN[][0..3]\n",
    "IF TEMP[0].xxxx\n",
    "ENDIF\n",
    "BGNLOOP\n",
    "ENDLOOP\n",
    "BGNSUB\n",
    "ENDSUB\n",
    "CAL :3\n",
    "RET\n",
    "END\n",
    "MOV OUT[0], TEMP[99999]\n",
    "TEMP[ADDR[0].x-32768]",
    ".xyzw",
    "_SAT",
    "|",
    "-",
    "{",
    "}",
    "[",
    "]",
    "..",
    "IMM[0]",
    "0x7fc00000",
    "1e-45",
    "-inf",
    "nan",
    "99999999999999999999999999999999",
    "\u{feff}",
    "\t",
    "\r\n",
    "\0",
    "GEOM\n",
    "PROPERTY GS_MAX_OUTPUT_VERTICES 4\n",
    "TEX TEMP[0], IN[0], SAMP[0], 2D\n",
    "DDIV TEMP[0].xy, TEMP[0], TEMP[1]\n",
    "UMUL_HI TEMP[0], TEMP[0], TEMP[1]\n",
];

/// What a run found.
#[derive(Default)]
struct Report {
    inputs: u64,
    calls: u64,
    panics: Vec<String>,
    slow: Vec<(String, Duration)>,
    round_trip: Vec<String>,
    slowest: Duration,
    /// The per-call limit (zero: [`CALL_LIMIT`]).
    limit: Duration,
    /// Inputs that loaded as a program, validated, compiled.
    loaded: u64,
    valid: u64,
    compiled: u64,
}

impl Report {
    /// Runs one entry point under `catch_unwind` and the clock.
    fn call<T>(&mut self, what: &str, f: impl FnOnce() -> T) -> Option<T> {
        self.calls += 1;
        let start = Instant::now();
        watchdog::enter(what, self.inputs);
        let r = catch_unwind(AssertUnwindSafe(f));
        watchdog::leave();
        let t = start.elapsed();
        self.slowest = self.slowest.max(t);
        let limit = if self.limit.is_zero() {
            CALL_LIMIT
        } else {
            self.limit
        };
        if t > limit {
            self.slow
                .push((format!("{what} (input {})", self.inputs), t));
        }
        match r {
            Ok(v) => Some(v),
            Err(e) => {
                let msg = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                self.panics
                    .push(format!("{what} (input {}): {msg}", self.inputs));
                None
            }
        }
    }
}

/// The per-call hang limit: a thread that aborts the process when one call runs past
/// [`HANG_LIMIT`] (a call cannot be interrupted in-process).
mod watchdog {
    use super::HANG_LIMIT;
    use std::sync::Mutex;
    use std::time::Instant;

    static CURRENT: Mutex<Option<(Instant, String)>> = Mutex::new(None);
    static STARTED: std::sync::Once = std::sync::Once::new();

    pub fn enter(what: &str, input: u64) {
        STARTED.call_once(|| {
            std::thread::spawn(|| loop {
                std::thread::sleep(std::time::Duration::from_millis(500));
                let current = CURRENT.lock().map(|c| c.clone()).unwrap_or(None);
                if let Some((since, what)) = current {
                    if since.elapsed() > HANG_LIMIT {
                        eprintln!("fuzz: {what} has run for over {HANG_LIMIT:?}: aborting");
                        std::process::abort();
                    }
                }
            });
        });
        if let Ok(mut c) = CURRENT.lock() {
            *c = Some((Instant::now(), format!("{what} (input {input})")));
        }
    }

    pub fn leave() {
        if let Ok(mut c) = CURRENT.lock() {
            *c = None;
        }
    }
}

/// The seed programs: the sample, the examples, the corpus.
fn seeds() -> Vec<Program> {
    let mut texts = vec![SAMPLE.to_string()];
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = vec![root.join("examples"), root.join("../shared/corpus")];
    while let Some(dir) = dirs.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                dirs.push(p);
            } else if matches!(
                p.extension().and_then(|x| x.to_str()),
                Some("tgsi" | "sh" | "txt")
            ) {
                texts.extend(std::fs::read_to_string(&p).ok());
            }
        }
    }
    texts.iter().filter_map(|t| parse(t).ok()).collect()
}

fn mutate_bytes(rng: &mut XorShift, b: &mut Vec<u8>, soup: bool) {
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(b.len() + 1);
        match rng.below(if soup { 8 } else { 6 }) {
            0 if !b.is_empty() => {
                let k = rng.below(b.len());
                b[k] ^= 1 << rng.below(8);
            }
            1 if !b.is_empty() => {
                let k = rng.below(b.len());
                b[k] = rng.byte();
            }
            2 => {
                let end = (at + rng.below(32)).min(b.len());
                b.drain(at..end);
            }
            3 => {
                // A repeated slice: large inputs, deep nesting, many declarations.
                let end = (at + 1 + rng.below(64)).min(b.len());
                let piece = b[at.min(end)..end].to_vec();
                let most = if rng.below(50) == 0 { 5000 } else { 8 };
                let times = 1 + rng.below(most);
                for _ in 0..times {
                    b.splice(at..at, piece.iter().copied());
                }
            }
            4 => b.truncate(at),
            5 => {
                let noise: Vec<u8> = (0..rng.below(8)).map(|_| rng.byte()).collect();
                b.splice(at..at, noise);
            }
            6 => {
                let s = SOUP[rng.below(SOUP.len())];
                let times = if rng.below(30) == 0 { 2000 } else { 1 };
                b.splice(at..at, s.repeat(times).bytes());
            }
            _ => {
                let digits = "9".repeat(1 + rng.below(5000));
                b.splice(at..at, digits.bytes());
            }
        }
        // Bounded so that one input stays one input (the CLI reads at most 64 MiB).
        b.truncate(4 << 20);
    }
}

/// Line edits: programs that still parse, often still validate, and reach the later stages.
fn mutate_lines(rng: &mut XorShift, text: &str) -> Vec<u8> {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(lines.len() + 1);
        match rng.below(5) {
            0 if at < lines.len() => {
                lines.remove(at);
            }
            1 if at < lines.len() => {
                let most = if rng.below(40) == 0 { 3000 } else { 3 };
                let line = lines[at].clone();
                for _ in 0..1 + rng.below(most) {
                    lines.insert(at, line.clone());
                }
            }
            2 if lines.len() > 1 => {
                let other = rng.below(lines.len());
                let at = at.min(lines.len() - 1);
                lines.swap(at, other);
            }
            3 => {
                let s = SOUP[rng.below(SOUP.len())];
                lines.insert(at, s.trim_end().to_string());
            }
            _ if at < lines.len() => {
                // Renumber a register or change a number in place.
                let line = &mut lines[at];
                if let Some(k) = line.find(|c: char| c.is_ascii_digit()) {
                    let n = [0u64, 1, 3, 15, 255, 4095, 32767, 65535, 1 << 31][rng.below(9)];
                    line.replace_range(k..k + 1, &n.to_string());
                }
            }
            _ => {}
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out.into_bytes()
}

fn mutate_words(rng: &mut XorShift, w: &mut Vec<u32>) {
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(w.len() + 1);
        match rng.below(6) {
            0 if !w.is_empty() => {
                let k = rng.below(w.len());
                w[k] ^= 1 << rng.below(32);
            }
            1 if !w.is_empty() => {
                let k = rng.below(w.len());
                w[k] = rng.next_u32();
            }
            2 => {
                let end = (at + rng.below(8)).min(w.len());
                w.drain(at..end);
            }
            3 => {
                let end = (at + 1 + rng.below(16)).min(w.len());
                let piece = w[at.min(end)..end].to_vec();
                let most = if rng.below(50) == 0 { 3000 } else { 4 };
                for _ in 0..1 + rng.below(most) {
                    w.splice(at..at, piece.iter().copied());
                }
            }
            4 => w.truncate(at),
            _ => w.insert(at, rng.next_u32()),
        }
    }
}

/// Everything downstream of a loaded program.
fn program_paths(r: &mut Report, p: &Program) {
    r.loaded += 1;
    let valid = r
        .call("validate", || validate(p, &Limits::default()).is_ok())
        .unwrap_or(false);
    let text = r.call("print", || print(p));
    if !valid {
        return;
    }
    r.valid += 1;
    if let Some(text) = text {
        match r.call("parse printed", || parse(&text)) {
            // A token stream of a newer minor version loads as not executable, which text does not
            // carry; everything else must come back.
            Some(Ok(q)) if same(&q, p) => {}
            Some(q) => {
                if let Ok(dir) = std::env::var("FUZZ_DEBUG_DIR") {
                    let _ = std::fs::write(
                        format!("{dir}/{}.txt", r.inputs),
                        format!("{text}\n{p:#?}\n{q:#?}"),
                    );
                }
                r.round_trip
                    .push(format!("text (input {}): {text:.300}", r.inputs))
            }
            None => {}
        }
    }
    if let Some(words) = r.call("encode", || tokens::encode(p)) {
        match r.call("decode encoded", || tokens::decode(&words)) {
            Some(Ok(d)) if same(&d.program, p) => {}
            Some(_) => r
                .round_trip
                .push(format!("tokens (input {}): {:.300}", r.inputs, print(p))),
            None => {}
        }
    }
    let inputs = RunInputs {
        budget: BUDGET,
        ..RunInputs::default()
    };
    r.call("reference run", || sim::reference::run(p, &inputs).is_ok());
    let compiled = r.call("compile", || compile(p, &CoreConfig::default()).ok());
    if let Some(Some(c)) = compiled {
        r.compiled += 1;
        image_paths(r, &c.image.to_bytes());
    }
}

/// Equal programs, but for the executable flag.
fn same(a: &Program, b: &Program) -> bool {
    let mut a = a.clone();
    a.executable = b.executable;
    a == *b
}

/// Image decode, disassembly and the core model.
fn image_paths(r: &mut Report, bytes: &[u8]) {
    let Some(Ok(img)) = r.call("image decode", || Image::from_bytes(bytes)) else {
        return;
    };
    r.call("disassembly", || listing(&img));
    let inputs = RunInputs {
        budget: BUDGET,
        ..RunInputs::default()
    };
    r.call("core model run", || {
        sim::core_model::run(&img, &inputs).is_ok()
    });
}

/// A small RGBA8 PNG, the seed of the decoder's inputs.
fn seed_png() -> Vec<u8> {
    let mut out = Vec::new();
    let mut e = png::Encoder::new(&mut out, 4, 2);
    e.set_color(png::ColorType::Rgba);
    e.set_depth(png::BitDepth::Eight);
    let mut w = e.write_header().expect("PNG header");
    let pixels: Vec<u8> = (0..32u8).map(|i| i.wrapping_mul(37)).collect();
    w.write_image_data(&pixels).expect("PNG data");
    drop(w);
    out
}

/// The command line's value parsers (`--input`, `--const`, `--face`, `--texture`) and the PNG
/// decoder, on mutated arguments and bytes.
fn argument_and_png_paths(r: &mut Report, rng: &mut XorShift, png: &[u8]) {
    const ARGS: [&str; 6] = [
        "0=0.5,1,2,3",
        "1@2=1,-0,inf,0x7fc00000",
        "0:3=1,2,3,4",
        "0=examples/checker-8.png,bilinear,repeat",
        "2=sky.png,cube,nearest,clamp",
        "front",
    ];
    let mut a = ARGS[rng.below(ARGS.len())].as_bytes().to_vec();
    mutate_bytes(rng, &mut a, true);
    let a = String::from_utf8_lossy(&a).into_owned();
    r.call("--input parser", || {
        sim::run_io::args::parse_input_arg(&a).is_ok()
    });
    r.call("--const parser", || {
        sim::run_io::args::parse_const_arg(&a).is_ok()
    });
    r.call("--face parser", || {
        sim::run_io::args::parse_face(&a).is_ok()
    });
    r.call("--texture parser", || {
        sim::run_io::args::parse_texture_arg(&a).is_ok()
    });
    let mut b = png.to_vec();
    mutate_bytes(rng, &mut b, false);
    r.call("PNG decoding", || {
        sim::texture::png::decode_png(&b, Path::new("fuzz.png"), &Default::default()).is_ok()
    });
}

/// Shader sources the translator starts from: the examples' WGSL twins and a GLSL shader.
fn shader_seeds() -> Vec<(translate::Language, Vec<u8>)> {
    let mut v = Vec::new();
    if let Ok(dir) = std::fs::read_dir("examples") {
        let mut files: Vec<_> = dir.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        files.sort();
        for f in files {
            if let (Some(lang), Ok(b)) = (translate::language_of(&f), std::fs::read(&f)) {
                v.push((lang, b));
            }
        }
    }
    v.push((
        translate::Language::Glsl(translate::Stage::Fragment),
        b"#version 450\nlayout(location = 0) in vec2 uv;\nlayout(location = 0) out vec4 c;\n\
          float f(float x) { if (x < 0.5) { return x; } return 1.0 - x; }\n\
          void main() { vec3 a = vec3(0.0); for (int i = 0; i < 3; i++) { a += vec3(f(uv.x)); }\n\
          if (uv.y > 0.9) discard; c = vec4(a, 1.0); }\n"
            .to_vec(),
    ));
    // Integers: wrapping arithmetic, shifts, divisions, conversions, an integer loop.
    v.push((
        translate::Language::Wgsl,
        b"@fragment\nfn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {\n\
          var h = u32(uv.x * 64.0) * 747796405u + 2891336453u;\n\
          let i = i32(uv.y * 16.0) - 8;\n\
          for (var k = 0; k < 3; k++) { h ^= h >> 13u; h *= 0x9E3779B9u; }\n\
          let q = vec2<i32>(i / 3, i % -5) + vec2<i32>(min(i, 2), abs(i)) / vec2<i32>(i | 1);\n\
          let u = (h % 7u) + (h / 10u) + select(0u, 1u, i < 0) + (h >> u32(i & 31));\n\
          return vec4<f32>(f32(q.x), f32(u >> 8u), f32(i32(h) >> 7u), f32(h & 255u) / 255.0);\n}\n"
            .to_vec(),
    ));
    v
}

/// The translator on mutated shader text (and the same bytes read as SPIR-V); what translates
/// goes through the program paths.
fn shader_paths(r: &mut Report, rng: &mut XorShift, seeds: &[(translate::Language, Vec<u8>)]) {
    let (lang, src) = &seeds[rng.below(seeds.len())];
    let b = if rng.below(2) == 0 {
        mutate_lines(rng, &String::from_utf8_lossy(src))
    } else {
        let mut b = src.clone();
        mutate_bytes(rng, &mut b, false);
        b
    };
    // Translations have the shader target's limit (issue #33: "within a few seconds").
    let limit = std::mem::replace(&mut r.limit, SHADER_CALL_LIMIT);
    let t = r.call("translate", || {
        translate::translate(&b, *lang, "fuzz", None)
    });
    let mut w = b.clone();
    w.truncate(w.len() & !3);
    r.call("translate SPIR-V", || {
        translate::translate(&w, translate::Language::SpirV, "fuzz.spv", None).is_ok()
    });
    r.limit = limit;
    if let Some(Ok(t)) = t {
        program_paths(r, &t.program);
    }
}

/// Fuzzes `n` inputs from `seed`; returns the report.
fn fuzz(n: u64, seed: u64) -> Report {
    let seeds = seeds();
    assert!(!seeds.is_empty());
    let images: Vec<Vec<u8>> = seeds
        .iter()
        .filter_map(|p| compile(p, &CoreConfig::default()).ok())
        .map(|c| c.image.to_bytes())
        .collect();
    let png = seed_png();
    let shaders = shader_seeds();
    let mut rng = XorShift::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut r = Report::default();
    for k in 0..n {
        r.inputs = k;
        if k % 8 == 5 {
            argument_and_png_paths(&mut r, &mut rng, &png);
        }
        if k % 8 == 3 && !shaders.is_empty() {
            shader_paths(&mut r, &mut rng, &shaders);
        }
        let p = &seeds[rng.below(seeds.len())];
        match k % 4 {
            // Text: mutated, detected, loaded.
            0 | 1 => {
                let b = if k % 4 == 0 {
                    mutate_lines(&mut rng, &print(p))
                } else {
                    let mut b = print(p).into_bytes();
                    mutate_bytes(&mut rng, &mut b, true);
                    b
                };
                if let Some(Ok(l)) = r.call("load text", || load::load(&b, None)) {
                    program_paths(&mut r, &l.program);
                }
            }
            // Tokens: mutated words, detected, loaded.
            2 => {
                let mut w = tokens::encode(p);
                mutate_words(&mut rng, &mut w);
                let b = tokens::to_bytes(&w);
                if let Some(Ok(l)) = r.call("load tokens", || load::load(&b, None)) {
                    program_paths(&mut r, &l.program);
                }
            }
            // Images: mutated bytes, half of them with a fresh checksum so decoding goes deep.
            _ => {
                let Some(img) = images.get(rng.below(images.len())) else {
                    continue;
                };
                let mut b = img.clone();
                mutate_bytes(&mut rng, &mut b, false);
                if rng.below(2) == 0 && b.len() >= 4 {
                    let body = b.len() - 4;
                    let crc = crc32fast::hash(&b[..body]);
                    b[body..].copy_from_slice(&crc.to_le_bytes());
                }
                r.call("load image as a program", || load::load(&b, None).is_ok());
                image_paths(&mut r, &b);
            }
        }
    }
    r.inputs = n;
    r
}

fn check(r: &Report) {
    let limit = if r.limit.is_zero() {
        CALL_LIMIT
    } else {
        r.limit
    };
    eprintln!(
        "fuzz: {} inputs ({} loaded, {} valid, {} compiled), {} calls, {} panics, {} calls over \
         {:?}, {} round-trip failures, slowest call {:?}",
        r.inputs,
        r.loaded,
        r.valid,
        r.compiled,
        r.calls,
        r.panics.len(),
        r.slow.len(),
        limit,
        r.round_trip.len(),
        r.slowest
    );
    assert!(
        r.panics.is_empty(),
        "{:#?}",
        &r.panics[..r.panics.len().min(5)]
    );
    assert!(r.slow.is_empty(), "{:#?}", &r.slow[..r.slow.len().min(5)]);
    assert!(
        r.round_trip.is_empty(),
        "{:#?}",
        &r.round_trip[..r.round_trip.len().min(3)]
    );
}

/// The bounded version in the default suite: a few thousand inputs.
#[test]
fn fuzz_short() {
    check(&fuzz(20_000, 20));
}

/// The full run: `FUZZ_INPUTS` (default 1,000,000) inputs from `FUZZ_SEED` (default 1).
#[test]
#[ignore = "long: run with --ignored (FUZZ_INPUTS, FUZZ_SEED)"]
fn fuzz_long() {
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let start = Instant::now();
    let r = fuzz(env("FUZZ_INPUTS", 1_000_000), env("FUZZ_SEED", 1));
    eprintln!("fuzz: {:.0?} in all", start.elapsed());
    check(&r);
}

/// A translation slower than this counts as a failure (issue #33: "within a few seconds").
const SHADER_CALL_LIMIT: Duration = Duration::from_secs(5);

/// Shader fragments spliced into sources: what hostile and unusual shaders write.
const SHADER_SOUP: &[&str] = &[
    "var a: array<f32, 100000000>;",
    "var<private> p: array<vec4<f32>, 70000>;",
    "float a[100000000];",
    "@location(4294967295u)",
    "@location(65536)",
    "#define A A A\n",
    "#define B(x) x x x x\n",
    "fn r(x: f32) -> f32 { return r(x); }\n",
    "fn h(x: f32) -> f32 { return h2(x) + h2(x); }\n",
    "let q = textureGather(0, t, s, uv);",
    "let q = textureSampleCompare(d, sc, uv, 0.5);",
    "@builtin(vertex_index) vi: u32, ",
    "@builtin(sample_mask) m: u32, ",
    "override k: f32;\n",
    "override k: f32 = 1.0;\n",
    "loop { continuing { break if true; } }",
    "for (var i = 0u; i < 4294967295u; i++) { }",
    "switch i32(uv.x) { case 0, 1: { } default: { } }",
    "var<storage, read_write> s: array<u32>;",
    "var<workgroup> w: array<u32, 64>;",
    "atomicAdd(&w, 1u);",
    "inverse(m)",
    "transpose(mat4x4<f32>())",
    "determinant(mat3x3<f32>())",
    " + uv.x",
    " ? 1.0 : 0.0",
    "((((((((((",
    "))))))))))",
    "else if (uv.x > 0.5) { }",
    "0x7fffffffu",
    "-2147483648",
    "1e39",
    "f64(1.0)",
    "vec4<f16>()",
    "i64(1)",
    "\u{feff}",
    "\0",
];

/// The translator's own test shaders (WGSL and GLSL), and the examples' shaders.
fn own_shaders() -> Vec<(translate::Language, Vec<u8>)> {
    let mut v = Vec::new();
    for dir in ["translate/tests/shaders", "examples"] {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut files: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        files.sort();
        for f in files {
            if let (Some(lang), Ok(b)) = (translate::language_of(&f), std::fs::read(&f)) {
                v.push((lang, b));
            }
        }
    }
    v
}

/// Shader-aware edits: fragments of [`SHADER_SOUP`] spliced at line and byte positions, lines
/// repeated (up to thousands: long chains and many declarations), brackets deepened, numbers
/// changed; or the generic line and byte mutations.
fn mutate_shader(rng: &mut XorShift, src: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(src);
    match rng.below(4) {
        0 => mutate_lines(rng, &text),
        1 => {
            let mut b = src.to_vec();
            mutate_bytes(rng, &mut b, false);
            b
        }
        _ => {
            let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(lines.len() + 1);
                let piece = SHADER_SOUP[rng.below(SHADER_SOUP.len())];
                let times = match rng.below(20) {
                    0 => 5000,
                    1 => 300,
                    _ => 1,
                };
                match rng.below(3) {
                    0 => lines.insert(at, piece.repeat(times)),
                    1 if at < lines.len() && !lines[at].is_empty() => {
                        let line = &mut lines[at];
                        let mut k = rng.below(line.len() + 1);
                        while !line.is_char_boundary(k) {
                            k -= 1;
                        }
                        line.insert_str(k, &piece.repeat(times));
                    }
                    _ if at < lines.len() => {
                        let line = lines[at].clone();
                        for _ in 0..times.min(3000) {
                            lines.insert(at, line.clone());
                        }
                    }
                    _ => {}
                }
            }
            let mut out = lines.join("\n");
            out.push('\n');
            out.truncate(4 << 20);
            out.into_bytes()
        }
    }
}

/// Translates `n` mutated shaders from `seed`; what translates goes through the program paths.
fn shader_fuzz(n: u64, seed: u64) -> Report {
    let shaders = own_shaders();
    assert!(
        shaders.len() >= 20,
        "the translator's test shaders: {}",
        shaders.len()
    );
    let mut rng = XorShift::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut r = Report {
        limit: SHADER_CALL_LIMIT,
        ..Report::default()
    };
    let mut translated = 0u64;
    // Each input is written here before it runs: after a hang, the file holds it.
    let save = std::env::var_os("SHADER_FUZZ_SAVE");
    for k in 0..n {
        r.inputs = k;
        let (lang, src) = &shaders[rng.below(shaders.len())];
        let b = mutate_shader(&mut rng, src);
        if let Some(path) = &save {
            let _ = std::fs::write(path, &b);
        }
        if let Some(Ok(t)) = r.call("translate", || {
            translate::translate(&b, *lang, "fuzz", None)
        }) {
            translated += 1;
            if k % 4 == 0 {
                program_paths(&mut r, &t.program);
            }
        }
    }
    r.inputs = n;
    eprintln!(
        "shader fuzz: {translated} of {n} mutated shaders translated; peak memory {}",
        peak_memory()
    );
    r
}

/// The process's peak resident memory (Linux `VmHWM`), for the report.
fn peak_memory() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l["VmHWM:".len()..].trim().to_string())
        })
        .unwrap_or_else(|| "unknown".to_string())
}

/// The bounded shader target in the default suite.
#[test]
fn fuzz_shaders_short() {
    check(&shader_fuzz(1_500, 33));
}

/// The full shader run: `SHADER_FUZZ_INPUTS` (default 20,000) from `SHADER_FUZZ_SEED` (1).
#[test]
#[ignore = "long: run with --ignored (SHADER_FUZZ_INPUTS, SHADER_FUZZ_SEED)"]
fn fuzz_shaders_long() {
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let start = Instant::now();
    let r = shader_fuzz(
        env("SHADER_FUZZ_INPUTS", 20_000),
        env("SHADER_FUZZ_SEED", 1),
    );
    eprintln!("shader fuzz: {:.0?} in all", start.elapsed());
    check(&r);
}

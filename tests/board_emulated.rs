//! The whole board design (UART, on-chip loader, shader core; the Verilog under Verilator, its
//! serial pins driven bit by bit) served on a pseudo-terminal, end to end:
//! - `tgsi-core load` and `tgsi-core run --engine board` against it, outputs equal to the core
//!   model's, and a geometry program's vertices streamed through the loader (RESUME) equal to
//!   the core model's;
//! - a second upload replaces the first only at COMMIT (STATUS CRC); no RUN in between;
//! - uploads through a proxy that drops, duplicates and flips 1% of the bytes all complete and
//!   verify, and the active image is never a corrupt one.
#![cfg(unix)]

mod board_support;
use board_support::emulation;
use firmware_loader::board::run_image;
use firmware_loader::host::{Client, ClientOptions, HostError};
use firmware_loader::image::ImageFile;
use firmware_loader::port::{FaultyTransport, SerialTransport};
use firmware_loader::protocol::{Begin, LoadState, Reason, Region, IMAGE_REGIONS};
use microcode::core::CoreConfig;
use sim::hardware::board::BoardBuild;
use sim::hardware::emulate::{self, EmuEngine, Emulation, EMULATED_BAUD};
use sim::run_io::RunInputs;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// The board build `synth` makes by default (every unit but the divider; it fits the HX8K)
/// serves the host tools: the selftest builds every check, and `conformance --engine board`
/// passes every opcode row's vectors and every row of a folder of programs (corpus programs, a
/// geometry program, a textured one) over one link for the whole command, none "not built".
#[test]
fn the_default_board_build_runs_every_opcode_row() {
    let emu = emulate::start(
        EmuEngine::Verilator,
        &CoreConfig::default(),
        EMULATED_BAUD,
        &mut |m| eprintln!("{m}"),
    )
    .expect("the emulated board starts (the toolchain comes from `cargo xtask setup`)");
    runs_every_opcode_row(&emu, 1);
}

/// The ULX3S's build with two cores behind its loader (`synth --board ulx3s-85f --cores 2`:
/// the larger texture memory and mask stack, `microcode::board::Board::core_config`, the
/// float multiplier on the ECP5's multiplier blocks) likewise: the host tools recognise its
/// core from INFO, compile for it, and every row passes with both cores running each quad in
/// lock step (the board checks that they agree); `selftest` runs every check on each core
/// alone as well, and each core alone gives the core model's outputs and cycle counts.
#[test]
fn the_ulx3s_two_core_build_runs_every_opcode_row_on_every_core() {
    let build = BoardBuild::new(microcode::board::Board::Ulx3s85f, 2);
    assert_ne!(build.core, CoreConfig::default());
    let emu = emulate::start_board(EmuEngine::Verilator, &build, EMULATED_BAUD, &mut |m| {
        eprintln!("{m}")
    })
    .expect("the emulated board starts (the toolchain comes from `cargo xtask setup`)");
    assert_eq!(emu.device.cores, 2);
    each_core_runs_like_the_core_model(&emu.port, &build.core, 2);
    runs_every_opcode_row(&emu, 2);
}

/// Core by core (CORE n), three quads of `examples/checker.tgsi` and `cutout.tgsi` (a KIL): each
/// quad's outputs, kill mask and cycle count equal to the core model's.
fn each_core_runs_like_the_core_model(port: &str, core: &CoreConfig, cores: u8) {
    let mut c = client(port);
    for name in ["checker.tgsi", "cutout.tgsi"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples")
            .join(name);
        let program =
            microcode::tgsi::text::parse(&std::fs::read_to_string(&path).expect("example"))
                .expect("parses");
        let image = microcode::compile::compile(&program, core)
            .expect("compiles")
            .image;
        let file = ImageFile::from_image(&image);
        c.upload(&file.upload, &mut |_, _| {}).expect("uploads");
        let quads: Vec<Vec<(u16, [[u32; 4]; 4])>> = (0..3u32)
            .map(|seed| {
                file.inputs
                    .iter()
                    .map(|m| (m.tgsi, lanes(seed + u32::from(m.tgsi))))
                    .collect()
            })
            .collect();
        let constant = |_: u16, i: u16| [0x3f00_0000 + u32::from(i), 0x3e80_0000, 0, 0x3f80_0000];
        for k in 0..cores {
            c.select_core(k).expect("CORE");
            let got = run_image(&mut c, &file, &quads, &constant).expect("RUN");
            for (q, (quad, board)) in quads.iter().zip(&got).enumerate() {
                let mut inputs = RunInputs::default();
                for &(n, v) in quad {
                    inputs.inputs.insert(u32::from(n), v);
                }
                for &(_, b, i) in &file.buffer_slots {
                    inputs
                        .constants
                        .insert((u32::from(b), u32::from(i)), constant(b, i));
                }
                let model = sim::core_model::run(&image, &inputs).expect("the core model runs");
                let at = format!("{name}, core {k}, quad {q}");
                assert_eq!(board.fault, 0, "{at}");
                assert_eq!(Some(u64::from(board.cycles)), model.cycles, "{at}: cycles");
                let kills = (0..4).fold(0u8, |m, l| m | (u8::from(model.lanes[l].killed) << l));
                assert_eq!(board.kill_mask, kills, "{at}: kill mask");
                for (n, v) in &board.outputs {
                    for (l, lane) in model.lanes.iter().enumerate() {
                        if !lane.killed {
                            assert_eq!(
                                Some(&v[l]),
                                lane.outputs.get(&u32::from(*n)),
                                "{at}: OUT[{n}] lane {l}"
                            );
                        }
                    }
                }
            }
        }
    }
    c.reset().expect("RESET selects every core again");
}

/// `selftest`, `conformance --engine board` and a textured render against the emulated board
/// `emu` with `cores` cores.
fn runs_every_opcode_row(emu: &Emulation, cores: u16) {
    let selftest = Command::new(env!("CARGO_BIN_EXE_tgsi-core"))
        .args(["selftest", "--port", &emu.port])
        .output()
        .expect("tgsi-core runs");
    let text = String::from_utf8_lossy(&selftest.stdout);
    assert!(
        selftest.status.success(),
        "selftest: {text}{}",
        String::from_utf8_lossy(&selftest.stderr)
    );
    assert!(!text.contains("not built"), "{text}");
    let ok = if cores > 1 {
        format!(": ok (every core at once, then each of the {cores})\n")
    } else {
        ": ok\n".to_string()
    };
    assert!(text.contains(&ok), "checks run on the board: {text}");
    assert!(
        text.contains(&format!("{cores} core")),
        "INFO's core count: {text}"
    );
    assert!(text.contains("core checks OK\n"), "{text}");
    // Program rows as well as vector rows, over one link to the board: a few corpus programs
    // (fragment and vertex), a geometry program (its vertices streamed through RESUME) and a
    // textured one (the graw test texture bound to its sampler).
    let dir = std::env::temp_dir().join(format!("tgsi-default-tex-{}", std::process::id()));
    let programs = dir.join("programs");
    std::fs::create_dir_all(&programs).expect("scratch folder");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let picked = [
        "mesa-7.7-python-regress/fragment-shader/frag-lrp.sh",
        "mesa-7.7-python-regress/vertex-shader/vert-lit.sh",
        "mesa-python-regress-2010/fragment-shader/frag-cmp.sh",
        "mesa-graw/geometry-shader/add-mix.txt",
    ];
    for rel in picked {
        let from = corpus.join(rel);
        let bytes = std::fs::read(&from).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (the corpus is `../shared/corpus` beside the workspace)",
                from.display()
            )
        });
        let name = rel.replace('/', "-");
        std::fs::write(programs.join(name), bytes).expect("copies a corpus program");
    }
    std::fs::write(
        programs.join("textured.tgsi"),
        "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL TEMP[0]\n\
         IMM FLT32 { 3.0, -1.0, 0.5, 0.0 }\nMAD TEMP[0], IN[0], IMM[0].xxxx, IMM[0].yyyy\n\
         TEX OUT[0], TEMP[0], SAMP[0], 2D\nEND\n",
    )
    .expect("writes the textured program");
    let conf = Command::new(env!("CARGO_BIN_EXE_tgsi-core"))
        .arg("conformance")
        .arg(&programs)
        .args(["--engine", "board", "--json", "--port", &emu.port])
        .output()
        .expect("tgsi-core runs");
    let doc: serde_json::Value = serde_json::from_slice(&conf.stdout).unwrap_or_else(|e| {
        panic!(
            "conformance JSON: {e}\n{}",
            String::from_utf8_lossy(&conf.stderr)
        )
    });
    let rows = doc["rows"].as_array().expect("rows");
    assert!(rows.len() >= 102 + 5, "{} rows", rows.len());
    for r in rows {
        let b = &r["results"]["board"];
        assert_eq!(b["pass"], true, "{}: {b}", r["name"]);
        assert_eq!(b["not_built"], false, "{}: {b}", r["name"]);
    }
    assert!(
        conf.status.success(),
        "{}",
        String::from_utf8_lossy(&conf.stderr)
    );
    // Every program ran on the board (a refusal on both sides would also count as a pass).
    let program_rows: Vec<_> = rows.iter().filter(|r| r["kind"] == "program").collect();
    assert_eq!(program_rows.len(), 5, "{program_rows:?}");
    for r in &program_rows {
        let worst = r["results"]["board"]["worst"].as_str().unwrap_or("");
        assert!(!worst.contains("fail"), "{}: {worst}", r["name"]);
    }
    // Its texture unit renders a bilinear, repeating 2D texture like the core model.
    let shader = dir.join("tex.tgsi");
    std::fs::write(
        &shader,
        "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL TEMP[0]\n\
         IMM FLT32 { 3.0, -1.0, 0.5, 0.0 }\nMAD TEMP[0], IN[0], IMM[0].xxxx, IMM[0].yyyy\n\
         TEX OUT[0], TEMP[0], SAMP[0], 2D\nEND\n",
    )
    .expect("writes the shader");
    let stripes = dir.join("stripes.png");
    write_png(&stripes, 8, 4, |x, y| {
        [(x * 32) as u8, (y * 60) as u8, ((x ^ y) * 30) as u8, 255]
    });
    let render = |engine: &str| {
        let out = dir.join(format!("{engine}.png"));
        let mut c = Command::new(env!("CARGO_BIN_EXE_tgsi-core"));
        c.arg("render")
            .arg(&shader)
            .arg("-o")
            .arg(&out)
            .args(["--size", "8x8", "--engine", engine, "--texture"])
            .arg(format!("0={},bilinear,repeat", stripes.display()));
        on_engine(&mut c, engine, &emu.port);
        std::fs::read(&out).expect("the PNG")
    };
    assert_eq!(
        render("board"),
        render("core"),
        "board and core model pictures differ"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn compiled(name: &str) -> (microcode::core::Image, ImageFile) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name);
    compiled_text(&std::fs::read_to_string(&path).expect("example"))
}

fn compiled_text(text: &str) -> (microcode::core::Image, ImageFile) {
    let program = microcode::tgsi::text::parse(text).expect("parses");
    let image = microcode::compile::compile(&program, &CoreConfig::default())
        .expect("compiles")
        .image;
    let file = ImageFile::from_image(&image);
    (image, file)
}

fn client(port: &str) -> Client<SerialTransport> {
    let t = SerialTransport::open(port, 115_200).expect("opens the pseudo-terminal");
    Client::new(t, ClientOptions::default())
}

/// Runs a `tgsi-core` command on `engine` (the emulated board on `port` when it is `board`),
/// which must succeed.
fn on_engine(c: &mut Command, engine: &str, port: &str) -> std::process::Output {
    if engine == "board" {
        c.args(["--port", port]);
    }
    let o = c.output().expect("tgsi-core runs");
    assert!(
        o.status.success(),
        "{engine}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn lanes(seed: u32) -> [[u32; 4]; 4] {
    let mut v = [[0u32; 4]; 4];
    for (l, lane) in v.iter_mut().enumerate() {
        for (c, x) in lane.iter_mut().enumerate() {
            let f = ((seed * 7 + l as u32 * 3 + c as u32) % 23) as f32 / 7.0 - 1.1;
            *x = f.to_bits();
        }
    }
    v
}

#[test]
fn cli_load_and_run_on_the_emulated_board_match_the_core_model() {
    let emu = emulation();
    let bin = env!("CARGO_BIN_EXE_tgsi-core");
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/checker.tgsi");
    let out = Command::new(bin)
        .args(["load", "--port", &emu.port])
        .arg(&example)
        .output()
        .expect("tgsi-core runs");
    assert!(
        out.status.success(),
        "load: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let selftest = Command::new(bin)
        .args(["selftest", "--port", &emu.port])
        .output()
        .expect("tgsi-core runs");
    let text = String::from_utf8_lossy(&selftest.stdout);
    assert!(selftest.status.success(), "selftest: {text}");
    assert!(text.contains("loader and 6 core checks OK"), "{text}");
    for input in ["0=0.3,0.7,0,1", "0=0.05,0.2,0,1", "0@2=0.9,0.1,0,1"] {
        let run = |engine: &str| {
            let mut c = Command::new(bin);
            c.args(["run", "--json", "--engine", engine, "--input", input])
                .arg(&example);
            let o = on_engine(&mut c, engine, &emu.port);
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
            (v["lanes"].clone(), v["cycles"].clone())
        };
        assert_eq!(run("board"), run("core"), "input {input}");
    }
}

/// An RGBA PNG of `w` x `h` pixels from `f(x, y)`.
fn write_png(path: &Path, w: u32, h: u32, f: impl Fn(u32, u32) -> [u8; 4]) {
    let file = std::fs::File::create(path).expect("creates the PNG");
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), w, h);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let data: Vec<u8> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .flat_map(|(x, y)| f(x, y))
        .collect();
    enc.write_header()
        .and_then(|mut wr| wr.write_image_data(&data))
        .expect("writes the PNG");
}

/// Textures travel with the image on the board: a shader sampling a bilinear 2D texture and a
/// nearest cube map renders on the emulated board exactly as on the core model; binding
/// another texture uploads the image again; `load` refuses a sampling program without its
/// textures, and with them uploads the very image `render` uses.
#[test]
fn textured_shaders_render_on_the_emulated_board_like_the_core_model() {
    let emu = emulation();
    let bin = env!("CARGO_BIN_EXE_tgsi-core");
    let dir = std::env::temp_dir().join(format!("tgsi-board-tex-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let shader = dir.join("tex.tgsi");
    std::fs::write(
        &shader,
        "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SAMP[1]\n\
         DCL TEMP[0..1]\nIMM FLT32 { 2.0, -1.0, 0.5, 0.0 }\n\
         TEX TEMP[0], IN[0], SAMP[0], 2D\nMAD TEMP[1], IN[0].xyxx, IMM[0].xxxx, IMM[0].yyyy\n\
         MOV TEMP[1].z, IMM[0].zzzz\nTEX TEMP[1], TEMP[1], SAMP[1], CUBE\n\
         LRP OUT[0], IMM[0].zzzz, TEMP[0], TEMP[1]\nEND\n",
    )
    .expect("writes the shader");
    let stripes = dir.join("stripes.png");
    write_png(&stripes, 8, 4, |x, y| {
        [(x * 32) as u8, (y * 60) as u8, ((x ^ y) * 30) as u8, 255]
    });
    let cube = dir.join("cube.png");
    write_png(&cube, 4, 24, |x, y| {
        [(y / 4 * 40) as u8, (x * 60) as u8, 200, 255]
    });
    let render = |engine: &str, tex0: &Path, out: &str| {
        let mut c = Command::new(bin);
        c.arg("render")
            .arg(&shader)
            .arg("-o")
            .arg(dir.join(out))
            .args(["--size", "8x8", "--engine", engine, "--texture"])
            .arg(format!("0={},bilinear", tex0.display()))
            .arg("--texture")
            .arg(format!("1={},cube", cube.display()));
        let o = on_engine(&mut c, engine, &emu.port);
        (
            std::fs::read(dir.join(out)).expect("the PNG"),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (board, said) = render("board", &stripes, "board.png");
    let (core, _) = render("core", &stripes, "core.png");
    assert_eq!(board, core, "board and core model pictures differ");
    assert!(said.contains("uploaded the image"), "{said}");
    // Another texture on unit 0: another image, uploaded again, and still equal.
    let dots = dir.join("dots.png");
    write_png(&dots, 4, 4, |x, y| [255 * ((x + y) % 2) as u8, 90, 30, 255]);
    let (board2, said2) = render("board", &dots, "board2.png");
    let (core2, _) = render("core", &dots, "core2.png");
    assert_eq!(board2, core2);
    assert_ne!(board2, board);
    assert!(said2.contains("uploaded the image"), "{said2}");
    let load = Command::new(bin)
        .args(["load", "--port", &emu.port])
        .arg(&shader)
        .output()
        .expect("tgsi-core runs");
    let err = String::from_utf8_lossy(&load.stderr);
    assert!(!load.status.success() && err.contains("SAMP[0]"), "{err}");
    // With its textures `load` uploads the program as written; `render` streams through RENDER
    // with the transformed program (another image), so it uploads once more and a second render
    // with the same textures finds that image active: no upload.
    let mut c = Command::new(bin);
    c.args(["load"])
        .arg(&shader)
        .arg("--texture")
        .arg(format!("0={},bilinear", stripes.display()))
        .arg("--texture")
        .arg(format!("1={},cube", cube.display()));
    on_engine(&mut c, "board", &emu.port);
    let (again, said) = render("board", &stripes, "board3.png");
    assert_eq!(again, core);
    assert!(said.contains("uploaded the image"), "{said}");
    let (cached, said) = render("board", &stripes, "board4.png");
    assert_eq!(cached, core);
    assert!(!said.contains("uploaded the image"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A geometry program on the emulated board: its quad pauses at each EMIT and ENDPRIM, the
/// loader stops the RUN there with the vertex in OUTPUTS, and the host resumes it; `run --engine
/// board` prints the vertices `run --engine core` prints (with the same cycles), for two sets of
/// geometry inputs and CONST values (the inputs are image data on the board: two uploads).
#[test]
fn geometry_programs_stream_their_vertices_like_the_core_model() {
    let emu = emulation();
    let bin = env!("CARGO_BIN_EXE_tgsi-core");
    let dir = std::env::temp_dir().join(format!("tgsi-board-geom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let geom = dir.join("geom.tgsi");
    std::fs::write(
        &geom,
        "GEOM\nPROPERTY GS_INPUT_PRIMITIVE TRIANGLES\nPROPERTY GS_OUTPUT_PRIMITIVE LINE_STRIP\n\
         PROPERTY GS_MAX_OUTPUT_VERTICES 3\nDCL IN[][0], POSITION\nDCL IN[][1], COLOR\n\
         DCL OUT[0], POSITION\nDCL OUT[1], COLOR\nDCL CONST[0]\nDCL TEMP[0]\n\
         MOV OUT[0], IN[0][0]\nADD OUT[1], IN[0][1], CONST[0]\nEMIT\n\
         MUL TEMP[0], IN[1][0], CONST[0].wzyx\nMOV OUT[0], TEMP[0]\nEMIT\nENDPRIM\n\
         MAD OUT[0], IN[2][0], TEMP[0], IN[1][1]\nMOV OUT[1], IN[2][1]\nEMIT\nEND\n",
    )
    .expect("writes the shader");
    for (k, values) in [
        [
            "0:0=1,2,3,4",
            "1:0=-0.5,0.25,8,1",
            "2:0=3,1.5,-2,0",
            "0:1=0.5,0.5,0,1",
            "1:1=1,0,1,0",
        ],
        [
            "0:0=0.1,0.2,0.3,0.4",
            "1:0=5,6,7,8",
            "2:0=-1,-2,-3,-4",
            "1:1=2,2,2,2",
            "2:1=9,8,7,6",
        ],
    ]
    .iter()
    .enumerate()
    {
        let run = |engine: &str| {
            let mut c = Command::new(bin);
            c.args(["run", "--json", "--engine", engine]);
            for v in values {
                c.args(["--input", v]);
            }
            c.args(["--const", &format!("0={},0.5,-1,2", k + 1)])
                .arg(&geom);
            let o = on_engine(&mut c, engine, &emu.port);
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
            (v["lanes"].clone(), v["cycles"].clone())
        };
        let (board, core) = (run("board"), run("core"));
        assert_eq!(board, core, "inputs {k}");
        // Three vertices per lane, the second and the third ending a primitive, the first
        // holding IN[0][0]: streamed, not empty.
        for lane in board.0.as_array().expect("lanes") {
            let ends: Vec<bool> = lane["vertices"]
                .as_array()
                .expect("vertices")
                .iter()
                .map(|v| v["primitive_end"].as_bool().expect("a flag"))
                .collect();
            assert_eq!(ends, [false, true, true], "inputs {k}");
            let first = &lane["vertices"][0]["outputs"]["OUT[0]"];
            let want: Vec<f64> = values[0][4..]
                .split(',')
                .map(|x| x.parse().expect("a number"))
                .collect();
            let got: Vec<f64> = first
                .as_array()
                .expect("OUT[0]")
                .iter()
                .map(|x| x.as_f64().expect("a number"))
                .collect();
            assert_eq!(got, want, "inputs {k}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn second_image_replaces_the_first_only_at_commit() {
    let emu = emulation();
    let mut c = client(&emu.port);
    let (img_a, a) = compiled("checker.tgsi");
    let (_, b) = compiled("rings.tgsi");
    c.upload(&a.upload, &mut |_, _| {}).expect("first upload");
    let s = c.status().expect("status");
    assert_eq!((s.state, s.active_crc), (LoadState::Valid, a.upload.crc()));

    // Quads on the board equal the core model's.
    let quads: Vec<Vec<(u16, [[u32; 4]; 4])>> = (0..5).map(|q| vec![(0, lanes(q))]).collect();
    let got = run_image(&mut c, &a, &quads, &|_, _| [0; 4]).expect("runs");
    for (q, r) in quads.iter().zip(&got) {
        let mut inputs = RunInputs::default();
        inputs.inputs.insert(0, q[0].1);
        let want = sim::core_model::run(&img_a, &inputs).expect("core model");
        assert_eq!(r.fault, 0);
        assert_eq!(u64::from(r.cycles), want.cycles.unwrap());
        for (n, v) in &r.outputs {
            for (l, lane) in v.iter().enumerate() {
                assert_eq!(
                    want.lanes[l].outputs[&u32::from(*n)],
                    *lane,
                    "OUT[{n}] lane {l}"
                );
            }
        }
    }

    // Upload B by hand: after BEGIN nothing is valid and RUN is refused; at COMMIT B is active.
    let mut lengths = [0u32; IMAGE_REGIONS];
    for (l, r) in lengths.iter_mut().zip(&b.upload.regions) {
        *l = r.len() as u32;
    }
    c.begin(&Begin {
        isa_hash: b.upload.isa_hash,
        lengths,
    })
    .expect("begin");
    for (data, region) in b.upload.regions.iter().zip(Region::IMAGE) {
        c.write_region(region, 0, data, 200, &mut |_| {})
            .expect("write");
        let s = c.status().expect("status");
        assert_eq!((s.state, s.active_crc), (LoadState::Uploading, 0));
    }
    match run_image(&mut c, &a, &quads[..1], &|_, _| [0; 4]) {
        Err(HostError::NotLoaded { .. }) => {}
        other => panic!("RUN before COMMIT: {other:?}"),
    }
    match c.request(
        firmware_loader::protocol::Command::Run,
        &[1, 0, 64, 0, 64, 0],
    ) {
        Err(HostError::Nak {
            reason: Reason::NoValidImage,
            ..
        }) => {}
        other => panic!("RUN before COMMIT: {other:?}"),
    }
    c.commit(b.upload.crc()).expect("commit");
    let s = c.status().expect("status");
    assert_eq!((s.state, s.active_crc), (LoadState::Valid, b.upload.crc()));
}

/// Uploads `n` images through a proxy that damages `rate` of the bytes; after each, the active
/// image is none or one uploaded whole (its CRC in STATUS, its bytes read back). Returns how many
/// uploads completed.
fn lossy_uploads(emu: &Emulation, rate: f64, seed: u64, n: usize) -> usize {
    let t = SerialTransport::open(&emu.port, 115_200).expect("opens");
    let opts = ClientOptions {
        timeout: Duration::from_millis(150),
        retries: 12,
        ..ClientOptions::default()
    };
    let mut c = Client::new(FaultyTransport::new(t, rate, seed), opts);
    let images: Vec<ImageFile> = ["checker.tgsi", "rings.tgsi", "cutout.tgsi"]
        .iter()
        .map(|n| compiled(n).1)
        .collect();
    let mut done = 0;
    for i in 0..n {
        let img = &images[i % images.len()];
        if c.upload(&img.upload, &mut |_, _| {}).is_ok() {
            done += 1;
        }
        // Checked on a clean line: long answers rarely survive heavy damage.
        c.transport_mut().set_rate(0.0);
        let s = c.status().expect("STATUS on a clean line");
        if s.state == LoadState::Valid {
            let m = images
                .iter()
                .find(|m| m.upload.crc() == s.active_crc)
                .unwrap_or_else(|| panic!("active CRC {:08x} is no uploaded image", s.active_crc));
            for (data, region) in m.upload.regions.iter().zip(Region::IMAGE) {
                if !data.is_empty() {
                    let back = c.read_region(region, 0, data.len()).expect("read back");
                    assert_eq!(&back, data, "{region:?} of the active image");
                }
            }
        }
        c.transport_mut().set_rate(rate);
    }
    done
}

#[test]
fn uploads_through_a_lossy_line_complete_and_verify() {
    let emu = emulation();
    let n = 12;
    assert_eq!(
        lossy_uploads(&emu, 0.01, 11, n),
        n,
        "uploads completed at 1% byte faults"
    );
    // At 5% some uploads may give up; the active image is still never a corrupt one.
    let done = lossy_uploads(&emu, 0.05, 12, 3);
    eprintln!("{done} of 3 uploads completed at 5% byte faults");
}

#[test]
fn upload_throughput_in_board_time() {
    let emu = emulation();
    let mut c = client(&emu.port);
    c.info().expect("INFO");
    let (_, a) = compiled("rings.tgsi");
    let wait_idle = |emu: &Emulation| {
        // The harness reports its clock count each time the board falls idle.
        let mut last = emu.clocks();
        loop {
            std::thread::sleep(Duration::from_millis(50));
            let now = emu.clocks();
            if now == last {
                return now;
            }
            last = now;
        }
    };
    let before = wait_idle(&emu);
    let report = c.upload(&a.upload, &mut |_, _| {}).expect("upload");
    let after = wait_idle(&emu);
    let seconds = (after - before) as f64 / f64::from(emulate::EMULATED_CLOCK_HZ);
    let rate = report.bytes as f64 / seconds;
    let line = f64::from(EMULATED_BAUD) / 10.0;
    eprintln!(
        "upload of {} image bytes: {} clocks, {:.0} bytes/s of board time, {:.1}% of the {} baud line",
        report.bytes,
        after - before,
        rate,
        100.0 * rate / line,
        EMULATED_BAUD
    );
    // INFO, BEGIN, the WRITEs, COMMIT and STATUS, each waiting for its answer: the payload must
    // still use a fair share of the line.
    assert!(rate > 0.25 * line, "{rate:.0} bytes/s");
}

#[test]
fn rtl_engine_serves_the_same_board() {
    // rust-hdl's own simulation of the board, at the smallest divisor (8 clocks per bit) to keep
    // it quick: it is slow, so the client waits long.
    let emu = emulate::start(
        EmuEngine::Rtl,
        &CoreConfig::default(),
        emulate::EMULATED_CLOCK_HZ / 8,
        &mut |m| eprintln!("{m}"),
    )
    .expect("the rtl board starts");
    assert_eq!(emu.divisor, 8);
    let t = SerialTransport::open(&emu.port, 115_200).expect("opens");
    let opts = ClientOptions {
        timeout: Duration::from_secs(60),
        retries: 1,
        ..ClientOptions::default()
    };
    let mut c = Client::new(t, opts);
    let info = c.info().expect("INFO from the rtl board");
    assert_eq!(info, {
        let d = &emu.device;
        firmware_loader::protocol::Info {
            protocol: firmware_loader::protocol::PROTOCOL_VERSION,
            core_version: d.core_version,
            isa_hash: d.isa_hash,
            features: d.features,
            clock_hz: d.clock_hz,
            baud: d.baud,
            limits: d.limits,
            board: d.board,
            cores: d.cores,
            config: d.config,
        }
    });
    assert_eq!(info.core_config(), Some(CoreConfig::default()));
    let s = c.status().expect("STATUS");
    assert_eq!(s.state, LoadState::NoImage);
    assert!(emu.clocks() > 0);
}

#[test]
fn synthesised_netlist_runs_programs_through_the_uart() {
    // What yosys builds for the board `synth` makes by default (iCE40 LUTs, carries,
    // flip-flops and block RAMs with yosys's cell models) under Verilator, its UART at 8 clocks
    // per bit: programs covering the float pipeline, the compare unit, the mask stack, the
    // exponent/logarithm steps, the transcendental steps, the integer ALU, relative
    // addressing, DIV and RCP without the divider and the texture unit (a bilinear 2D
    // texture, part of the upload),
    // uploaded and run through the serial path, equal to the core model; then RENDER of the
    // transformed demo shader.
    netlist_runs_programs(&BoardBuild::alchitry(&CoreConfig::default()));
}

/// The ULX3S build's netlist (yosys `synth_ecp5`: LUT4s, carries, flip-flops, DP16KD block
/// RAMs and MULT18X18D multipliers, the last two with the project's models,
/// `sim/src/hardware/ecp5_models.v`) runs the same programs and RENDER as the Alchitry Cu's,
/// equal to the core model. One core: the cores' lock step and dispatch are the RTL's, checked
/// by the two-core test; this is about the ECP5 cells. Long (yosys `synth_ecp5` of the whole
/// board, then Verilator on its netlist: 779 s with the machine's load near 8, 2026-11-28), so
/// outside the default suite, where `sim/tests/ecp5_models.rs` checks the models themselves:
/// `cargo test --test board_emulated the_ulx3s_netlist -- --ignored`.
#[test]
#[ignore = "long: yosys synth_ecp5 of the board and Verilator on its netlist (~13 min)"]
fn the_ulx3s_netlist_runs_programs_through_the_uart() {
    netlist_runs_programs(&BoardBuild::new(microcode::board::Board::Ulx3s85f, 1));
}

fn netlist_runs_programs(build: &BoardBuild) {
    let core = build.core.clone();
    let emu = emulate::start_board(
        EmuEngine::Netlist,
        build,
        emulate::EMULATED_CLOCK_HZ / 8,
        &mut |m| eprintln!("{m}"),
    )
    .expect("the netlist board starts (yosys and Verilator come from `cargo xtask setup`)");
    let t = SerialTransport::open(&emu.port, 115_200).expect("opens");
    let opts = ClientOptions {
        timeout: Duration::from_secs(60),
        retries: 2,
        run_timeout: Duration::from_secs(120),
        ..ClientOptions::default()
    };
    let mut c = Client::new(t, opts);
    let dir = std::env::temp_dir().join(format!("tgsi-netlist-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let stripes = dir.join("stripes.png");
    write_png(&stripes, 8, 4, |x, y| {
        [(x * 32) as u8, (y * 60) as u8, ((x ^ y) * 30) as u8, 255]
    });
    let programs = [
        include_str!("../src/cmd/selftest_programs/mad.tgsi"),
        include_str!("../src/cmd/selftest_programs/cmp.tgsi"),
        include_str!("../src/cmd/selftest_programs/flow.tgsi"),
        // DIV's multiply-add sequence (`compile/div.rs`).
        include_str!("../src/cmd/selftest_programs/div.tgsi"),
        // EXP and LOG (the transcendental steps) and RCP's multiply-add sequence.
        "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\nDCL OUT[1], GENERIC[0]\n\
         DCL OUT[2], GENERIC[1]\nDCL SAMP[0]\nTEX OUT[0], IN[0], SAMP[0], 2D\n\
         EXP OUT[1], IN[0].xxxx\nLOG OUT[2], IN[0].yyyy\nRCP OUT[2].w, IN[0].x\nEND\n",
        // RSQ, POW and SIN (transcendental steps), the integer ALU, and a relative constant
        // read through the address register.
        "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\nDCL OUT[1], GENERIC[0]\n\
         DCL CONST[0..3]\nDCL TEMP[0]\nDCL ADDR[0]\nIMM FLT32 { 3.0, 0.5, 0.0, 0.0 }\n\
         RSQ OUT[0].x, IN[0].xxxx\nPOW OUT[0].y, IN[0].yyyy, IMM[0].xxxx\n\
         SIN OUT[0].zw, IN[0].xxxx\nXOR TEMP[0].x, IN[0].xxxx, IN[0].yyyy\n\
         SHR TEMP[0].y, IN[0].zzzz, IN[0].wwww\nI2F OUT[1].xy, TEMP[0]\n\
         ARL ADDR[0].x, IMM[0].xxxx\nMOV OUT[1].zw, CONST[ADDR[0].x-1]\nEND\n",
    ];
    for (k, text) in programs.iter().enumerate() {
        let program = microcode::tgsi::text::parse(text).expect("parses");
        let img = microcode::compile::compile(&program, &core)
            .expect("compiles for the board that fits")
            .image;
        let mut inputs = RunInputs::default();
        for (i, m) in img.inputs.iter().enumerate() {
            inputs
                .inputs
                .insert(u32::from(m.tgsi), lanes(k as u32 * 5 + i as u32));
        }
        for cst in &img.constants {
            if let microcode::core::image::ConstSource::Buffer { buffer, index } = cst.source {
                inputs
                    .constants
                    .insert((u32::from(buffer), u32::from(index)), [0x3F00_0000; 4]);
            }
        }
        sim::run_io::args::apply_textures(
            &mut inputs,
            &[format!("0={},bilinear", stripes.display())],
        )
        .expect("the texture loads");
        let file = sim::hardware::board::upload_file(&img, &inputs).expect("the upload");
        c.upload(&file.upload, &mut |_, _| {}).expect("upload");
        let quad: Vec<(u16, [[u32; 4]; 4])> = file
            .inputs
            .iter()
            .map(|m| (m.tgsi, inputs.inputs[&u32::from(m.tgsi)]))
            .collect();
        let got = run_image(&mut c, &file, std::slice::from_ref(&quad), &|_, _| {
            [0x3F00_0000; 4]
        })
        .expect("runs");
        let r = &got[0];
        let want = sim::core_model::run(&img, &inputs)
            .unwrap_or_else(|e| panic!("program {k} on the core model: {e}"));
        assert_eq!(r.fault, 0, "program {k}");
        assert_eq!(
            u64::from(r.cycles),
            want.cycles.unwrap(),
            "program {k} cycles"
        );
        for (l, lane) in want.lanes.iter().enumerate() {
            assert_eq!(
                r.kill_mask >> l & 1 == 1,
                lane.killed,
                "program {k} lane {l} kill"
            );
            if lane.killed {
                continue;
            }
            for (n, v) in &r.outputs {
                assert_eq!(
                    lane.outputs[&u32::from(*n)],
                    v[l],
                    "program {k} OUT[{n}] lane {l}"
                );
            }
        }
    }
    // RENDER on the netlist: the demo shader (lit-sphere) transformed to make its input from the
    // coordinates and pack its colour, a 4x4 image (four quads) walked by the loader; every
    // record equals the core model's run of the same image on the coordinate words, and the
    // cycles the sum of the core model's.
    {
        use firmware_loader::protocol::RENDER_COORD_BIAS;
        use microcode::compile::render_program::{render_program, ColourOut};
        let program = microcode::tgsi::text::parse(include_str!("../examples/lit-sphere.tgsi"))
            .expect("parses");
        let rp = render_program(&program, 4, 4, &|_| None, ColourOut::Rgba8).expect("transform");
        let img = microcode::compile::compile(&rp.program, &core)
            .expect("the transformed demo compiles for the board")
            .image;
        let mut inputs = RunInputs::default();
        for (k, v) in tgsi_core::demo::LIT_SPHERE_CONSTANTS.iter().enumerate() {
            inputs.constants.insert((0, k as u32), v.map(f32::to_bits));
        }
        for (slot, v) in &rp.constants {
            inputs.constants.insert((0, *slot), *v);
        }
        let checker = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/checker-8.png");
        sim::run_io::args::apply_textures(
            &mut inputs,
            &[format!("0={},bilinear", checker.display())],
        )
        .expect("the texture loads");
        let file = sim::hardware::board::upload_file(&img, &inputs).expect("the upload");
        c.upload(&file.upload, &mut |_, _| {}).expect("upload");
        let constant = |b: u16, i: u16| inputs.constant(b, i);
        let got =
            firmware_loader::board::render_image(&mut c, &file, &constant, 2, 2, 1, &mut |_, _| {})
                .expect("RENDER on the netlist");
        assert_eq!((got.fault, got.records.len()), (0, 4));
        let mut cycles = 0;
        let mut killed = 0;
        for (q, r) in got.records.iter().enumerate() {
            let (qx, qy) = (q as u32 % 2, q as u32 / 2);
            let coord: [[u32; 4]; 4] = std::array::from_fn(|l| {
                let l = l as u32;
                [
                    RENDER_COORD_BIAS + 2 * qx + (l & 1),
                    RENDER_COORD_BIAS + 2 * qy + (l >> 1),
                    0,
                    0,
                ]
            });
            inputs.inputs.insert(0, coord);
            let want = sim::core_model::run(&img, &inputs).expect("core model");
            cycles += want.cycles.unwrap();
            for (l, lane) in want.lanes.iter().enumerate() {
                assert_eq!(
                    r.kill_mask >> l & 1 == 1,
                    lane.killed,
                    "quad {q} lane {l} kill"
                );
                if lane.killed {
                    killed += 1;
                } else {
                    assert_eq!(r.words[l], lane.outputs[&0][0], "quad {q} lane {l}");
                }
            }
        }
        assert!(
            killed > 0 && killed < 16,
            "the disc's edge crosses the image: {killed}"
        );
        assert_eq!(got.cycles, cycles);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// RENDER on the emulated board (the real core under Verilator): each lane's coordinate input
/// made by the loader, the quads walked by it, the first output streamed; every record equals
/// the core model's run of the program on the coordinate words the protocol defines, and the
/// end frame's cycles the core model's.
#[test]
fn render_streams_quads_shaded_from_their_position_like_the_core_model() {
    use firmware_loader::protocol::{RenderRequest, RENDER_COORD_BIAS};
    let emu = emulation();
    let mut c = client(&emu.port);
    let (img, f) = compiled_text(
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n\
         IMM[0] FLT32 { -8388608.0, 0.5, 0.25, 1.0 }\n\
         0: ADD OUT[0].xy, IN[0], IMM[0].xxxx\n\
         1: MUL OUT[0].zw, IN[0].xxxy, IMM[0].zzzw\n2: END\n",
    );
    c.upload(&f.upload, &mut |_, _| {}).expect("upload");
    let req = RenderRequest {
        row_quads: 3,
        x: 1,
        y: 2,
        quads: 7,
        lane_words: 4,
        block_quads: 3,
    };
    let got = c.render(&req).expect("render");
    assert_eq!((got.fault, got.records.len(), got.requests), (0, 7, 1));
    let mut cycles = 0;
    for (q, r) in got.records.iter().enumerate() {
        let index = 2 * 3 + 1 + q as u32;
        let (qx, qy) = (index % 3, index / 3);
        let coord: [[u32; 4]; 4] = std::array::from_fn(|l| {
            let l = l as u32;
            [
                RENDER_COORD_BIAS + 2 * qx + (l & 1),
                RENDER_COORD_BIAS + 2 * qy + (l >> 1),
                0,
                0,
            ]
        });
        let mut inputs = RunInputs::default();
        inputs.inputs.insert(0, coord);
        let want = sim::core_model::run(&img, &inputs).expect("core model");
        cycles += want.cycles.unwrap();
        assert_eq!(r.kill_mask, 0);
        for l in 0..4 {
            let w = want.lanes[l].outputs[&0];
            assert_eq!(&r.words[4 * l..4 * l + 4], &w, "quad {q} lane {l}");
            // The coordinate came through as the pixel's x.
            assert_eq!(f32::from_bits(w[0]), (2 * qx + (l as u32 & 1)) as f32);
        }
    }
    assert_eq!(got.cycles, cycles);
}

/// Measurement, not a check (run with `--ignored --nocapture`): a 64x64 RENDER (1,024 quads,
/// one word a pixel, blocks of 14 quads) on the emulated board: wall time, bytes on the line and
/// the core's cycles.
#[test]
#[ignore]
fn measure_a_64x64_render_on_the_emulated_board() {
    use firmware_loader::protocol::RenderRequest;
    let emu = emulation();
    let mut c = client(&emu.port);
    let (_, f) = compiled("checker.tgsi");
    c.upload(&f.upload, &mut |_, _| {}).expect("upload");
    let before = c.stats;
    let t = std::time::Instant::now();
    let got = c
        .render(&RenderRequest {
            row_quads: 32,
            x: 0,
            y: 0,
            quads: 1024,
            lane_words: 1,
            block_quads: 14,
        })
        .expect("render");
    eprintln!(
        "64x64 RENDER: {:.2} s wall, {} bytes received, {} sent, {} requests, fault {}, {} core cycles",
        t.elapsed().as_secs_f64(),
        c.stats.bytes_received - before.bytes_received,
        c.stats.bytes_sent - before.bytes_sent,
        got.requests,
        got.fault,
        got.cycles
    );
}

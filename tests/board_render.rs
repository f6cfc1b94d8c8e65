//! `render --engine board` on the emulated board (the whole board design under Verilator, served
//! on a pseudo-terminal at its line rate): the RENDER path (the program transformed to make its
//! inputs on the chip and pack its colour, the frame streamed) draws the bundled examples pixel
//! for pixel as the core model does, and a render interrupted with Ctrl-C leaves the board
//! usable for the next command.
#![cfg(unix)]

mod board_support;
use board_support::emulation;
use microcode::core::CoreConfig;
use sim::hardware::emulate::{self, Emulation, EMULATED_BAUD};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tgsi-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name)
}

/// `tgsi-core render FILE -o OUT --size SIZE --engine ENGINE [--port PORT] EXTRA...`.
fn render(file: &Path, out: &Path, size: &str, engine: &str, port: &str, extra: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tgsi-core"));
    c.arg("render")
        .arg(file)
        .arg("-o")
        .arg(out)
        .args(["--size", size, "--engine", engine])
        .args(extra);
    if engine == "board" {
        c.args(["--port", port]);
    }
    c.output().expect("tgsi-core runs")
}

fn ok(o: &Output, what: &str) -> String {
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(
        o.status.success(),
        "{what}: {}{err}",
        String::from_utf8_lossy(&o.stdout)
    );
    err
}

/// The bundled examples that need no texture, on the board through RENDER (no fallback to the
/// per-quad path), packed RGBA8 and float, equal the core model's pictures byte for byte.
#[test]
fn bundled_examples_render_on_the_board_like_the_core_model() {
    let emu = emulation();
    let dir = scratch("board-render");
    for name in ["checker.tgsi", "cutout.tgsi", "rings.tgsi"] {
        let core = dir.join(format!("{name}-core.png"));
        ok(
            &render(&example(name), &core, "12x10", "core", "", &[]),
            name,
        );
        for extra in [&[][..], &["--float"][..]] {
            let board = dir.join(format!("{name}-board.png"));
            let err = ok(
                &render(&example(name), &board, "12x10", "board", &emu.port, extra),
                name,
            );
            assert!(!err.contains("quad by quad"), "{name} {extra:?}: {err}");
            assert_eq!(
                std::fs::read(&board).expect("board PNG"),
                std::fs::read(&core).expect("core PNG"),
                "{name} {extra:?}: board and core model pictures differ"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The textured examples through RENDER on the board: the demo's lit-sphere (five TEMPs, NRM,
/// RSQ, POW, a REP loop, a KIL and a bilinear texture; its constants as `demo` sets them) and the
/// mirror ball (a bilinear cube map) fit the board's core after the transform and draw the core
/// model's pictures byte for byte, over a link switched to the emulated line rate (`--baud`).
#[test]
fn textured_examples_render_on_the_board_like_the_core_model() {
    let emu = emulation();
    let dir = scratch("board-render-tex");
    let checker = format!("0={},bilinear", example("checker-8.png").display());
    let sky = format!("0={},cube,bilinear", example("sky-cube-4.png").display());
    let baud = EMULATED_BAUD.to_string();
    let demo_consts = tgsi_core::demo::lit_sphere_const_args();
    let mut lit: Vec<&str> = vec!["--texture", &checker];
    lit.extend(demo_consts.iter().map(String::as_str));
    let mirror: Vec<&str> = vec!["--texture", &sky];
    for (name, args) in [("lit-sphere.tgsi", lit), ("mirror-ball.tgsi", mirror)] {
        let core = dir.join(format!("{name}-core.png"));
        let said = ok(
            &render(
                &example(name),
                &core,
                "16x12",
                "core",
                "",
                &[&args[..], &["--diff", "reference"]].concat(),
            ),
            name,
        );
        let board = dir.join(format!("{name}-board.png"));
        let board_args = [&args[..], &["--baud", &baud]].concat();
        let err = ok(
            &render(
                &example(name),
                &board,
                "16x12",
                "board",
                &emu.port,
                &board_args,
            ),
            name,
        );
        assert!(!err.contains("quad by quad"), "{name}: {err}");
        assert_eq!(
            std::fs::read(&board).expect("board PNG"),
            std::fs::read(&core).expect("core PNG"),
            "{name}: board and core model pictures differ ({said})"
        );
    }
    // A rate the board's loader was not built for: refused, naming the port and the rate.
    let out = dir.join("wrong-baud.png");
    let o = render(
        &example("checker.tgsi"),
        &out,
        "4x4",
        "board",
        &emu.port,
        &["--baud", "1000000"],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains("switching to 1000000 baud") && err.contains(&emu.port),
        "{err}"
    );
    assert!(!out.exists(), "no picture from a failed link");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl-C (SIGINT) in the middle of a board render: the next `render --engine board` succeeds
/// and draws the core model's picture.
#[test]
fn a_render_interrupted_with_ctrl_c_leaves_the_board_usable() {
    let emu = emulation();
    let dir = scratch("board-ctrl-c");
    let long = dir.join("long.png");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tgsi-core"))
        .arg("render")
        .arg(example("checker.tgsi"))
        .arg("-o")
        .arg(&long)
        .args(["--size", "64x64", "--engine", "board", "--port", &emu.port])
        .spawn()
        .expect("tgsi-core starts");
    // Past the upload, into the stream (a 64x64 render streams for seconds on the emulation).
    std::thread::sleep(Duration::from_millis(2500));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let status = child.wait().expect("the render ends");
    assert!(
        !status.success(),
        "the render was interrupted, not finished"
    );
    assert!(!long.exists(), "an interrupted render writes no picture");
    let core = dir.join("core.png");
    ok(
        &render(&example("rings.tgsi"), &core, "8x8", "core", "", &[]),
        "core",
    );
    let board = dir.join("board.png");
    ok(
        &render(
            &example("rings.tgsi"),
            &board,
            "8x8",
            "board",
            &emu.port,
            &[],
        ),
        "the render after Ctrl-C",
    );
    assert_eq!(
        std::fs::read(&board).unwrap(),
        std::fs::read(&core).unwrap()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Measurement, not a check (run with `--ignored --nocapture`): `examples/checker.tgsi` and the
/// demo shader (`examples/lit-sphere.tgsi` with the demo's constants and texture) through RENDER
/// with the transformed program at 64x64 and 256x256 on the emulated board, in board time (the
/// emulation's clocks), against the line-rate limit: the core's cycles at the emulated clock plus
/// the bytes received at the line's 10 bits a byte.
#[test]
#[ignore]
fn measure_renders_against_the_line_rate() {
    use firmware_loader::host::{Client, ClientOptions};
    use firmware_loader::port::SerialTransport;
    use microcode::compile::render_program::{render_program, ColourOut};
    let emu = emulation();
    let t = SerialTransport::open(&emu.port, 115_200).expect("opens the pseudo-terminal");
    let mut c = Client::new(t, ClientOptions::default());
    let wait_idle = |emu: &Emulation| {
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
    let checker_png = format!("0={},bilinear", example("checker-8.png").display());
    for (name, constants, textures) in [
        ("checker.tgsi", &[][..], vec![]),
        (
            "lit-sphere.tgsi",
            &tgsi_core::demo::LIT_SPHERE_CONSTANTS[..],
            vec![checker_png],
        ),
    ] {
        let src = std::fs::read_to_string(example(name)).unwrap();
        let program = microcode::tgsi::text::parse(&src).unwrap();
        for side in [64u32, 256] {
            let rp = render_program(&program, side, side, &|_| None, ColourOut::Rgba8).unwrap();
            let image = microcode::compile::compile(&rp.program, &CoreConfig::default())
                .unwrap()
                .image;
            let mut inputs = sim::run_io::RunInputs::default();
            for (k, v) in constants.iter().enumerate() {
                inputs.constants.insert((0, k as u32), v.map(f32::to_bits));
            }
            for (slot, v) in &rp.constants {
                inputs.constants.insert((0, *slot), *v);
            }
            sim::run_io::args::apply_textures(&mut inputs, &textures).unwrap();
            let file = sim::hardware::board::upload_file(&image, &inputs).unwrap();
            firmware_loader::board::ensure_loaded(&mut c, &file.upload, &mut |_, _| {}).unwrap();
            let constant = |b: u16, i: u16| inputs.constant(b, i);
            let q = (side / 2) as u16;
            let before = wait_idle(&emu);
            let stats = c.stats;
            let wall = std::time::Instant::now();
            let got = firmware_loader::board::render_image(
                &mut c,
                &file,
                &constant,
                q,
                q,
                1,
                &mut |_, _| {},
            )
            .unwrap();
            let wall = wall.elapsed().as_secs_f64();
            let after = wait_idle(&emu);
            let received = c.stats.bytes_received - stats.bytes_received;
            let clock = f64::from(emulate::EMULATED_CLOCK_HZ);
            let board = (after - before) as f64 / clock;
            let limit =
                got.cycles as f64 / clock + received as f64 / (f64::from(EMULATED_BAUD) / 10.0);
            eprintln!(
                "{name} {side}x{side} RENDER: {wall:.2} s wall, {board:.4} s board time ({} \
                 clocks), {} core cycles, {received} bytes received, {} requests; line-rate \
                 limit {limit:.4} s, board time {:.1}% above it",
                after - before,
                got.cycles,
                got.requests,
                100.0 * (board / limit - 1.0)
            );
            assert_eq!(got.records.len(), usize::from(q) * usize::from(q));
        }
    }
}

/// Measurement, not a check (run with `--ignored --nocapture`): how fast a board build shades,
/// without the serial line. `examples/checker.tgsi` and the demo shader (its constants and
/// texture) at 256x256 through a count-only RENDER (`protocol::RENDER_COUNT_ONLY`: one request
/// of every quad, only the end frame back) on the emulated board, in board clocks (the
/// emulation's), as quads per second at the board's clock. `MEASURE_BOARD` (default
/// `ulx3s-85f`) and `MEASURE_CORES` (a comma-separated list, default `1,2`) pick the builds,
/// e.g. `MEASURE_BOARD=alchitry-cu MEASURE_CORES=1` for the HX8K.
#[test]
#[ignore]
fn measure_count_only_renders_per_core_count() {
    use firmware_loader::host::{Client, ClientOptions};
    use firmware_loader::port::SerialTransport;
    use firmware_loader::protocol::RenderRequest;
    use microcode::board::Board;
    use microcode::compile::render_program::{render_program, ColourOut};
    use sim::hardware::board::BoardBuild;
    let board_name = std::env::var("MEASURE_BOARD").unwrap_or_else(|_| "ulx3s-85f".into());
    let board = Board::ALL
        .into_iter()
        .find(|b| b.to_string() == board_name)
        .unwrap_or_else(|| panic!("MEASURE_BOARD={board_name}: not a board"));
    let cores: Vec<u16> = std::env::var("MEASURE_CORES")
        .unwrap_or_else(|_| "1,2".into())
        .split(',')
        .map(|n| n.trim().parse().expect("MEASURE_CORES: numbers"))
        .collect();
    let checker_png = format!("0={},bilinear", example("checker-8.png").display());
    for n in cores {
        let build = BoardBuild::new(board, n);
        let emu = emulate::start_board(
            emulate::EmuEngine::Verilator,
            &build,
            EMULATED_BAUD,
            &mut |m| eprintln!("{m}"),
        )
        .expect("the emulated board starts");
        let t = SerialTransport::open(&emu.port, 115_200).expect("opens the pseudo-terminal");
        let mut c = Client::new(t, ClientOptions::default());
        for (name, constants, textures) in [
            ("checker.tgsi", &[][..], vec![]),
            (
                "lit-sphere.tgsi",
                &tgsi_core::demo::LIT_SPHERE_CONSTANTS[..],
                vec![checker_png.clone()],
            ),
        ] {
            let side = 256u32;
            let src = std::fs::read_to_string(example(name)).unwrap();
            let program = microcode::tgsi::text::parse(&src).unwrap();
            let rp = render_program(&program, side, side, &|_| None, ColourOut::Rgba8).unwrap();
            let image = microcode::compile::compile(&rp.program, &build.core)
                .unwrap()
                .image;
            let mut inputs = sim::run_io::RunInputs::default();
            for (k, v) in constants.iter().enumerate() {
                inputs.constants.insert((0, k as u32), v.map(f32::to_bits));
            }
            for (slot, v) in &rp.constants {
                inputs.constants.insert((0, *slot), *v);
            }
            sim::run_io::args::apply_textures(&mut inputs, &textures).unwrap();
            let file = sim::hardware::board::upload_file(&image, &inputs).unwrap();
            firmware_loader::board::ensure_loaded(&mut c, &file.upload, &mut |_, _| {}).unwrap();
            let constant = |b: u16, i: u16| inputs.constant(b, i);
            let params = firmware_loader::board::params_block(&file, &constant);
            if !params.is_empty() {
                let l = c.device_info().unwrap().limits;
                let chunk = usize::from(l.max_payload) - firmware_loader::protocol::WRITE_HEADER;
                c.write_region(
                    firmware_loader::protocol::Region::Params,
                    0,
                    &params,
                    chunk,
                    &mut |_| {},
                )
                .unwrap();
            }
            let q = (side / 2) as u16;
            // The emulation counts its clocks when the board falls idle.
            let wait_idle = |emu: &Emulation| {
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
            let wall = std::time::Instant::now();
            let end = c
                .render_count(
                    &RenderRequest {
                        row_quads: q,
                        x: 0,
                        y: 0,
                        quads: q * q,
                        lane_words: 1,
                        block_quads: 1,
                    },
                    Duration::from_secs(1800),
                )
                .unwrap();
            let clocks = wait_idle(&emu) - before;
            let wall = wall.elapsed().as_secs_f64();
            assert_eq!((end.fault, end.quads), (0, q * q), "{name}");
            let quads = f64::from(q) * f64::from(q);
            let per_s = quads * board.clock_hz() as f64 / clocks as f64;
            eprintln!(
                "{board} {n} core{} {name} {side}x{side} count-only RENDER: {clocks} board clocks \
                 ({:.1} a quad; {} core cycles, {:.1} a quad), {per_s:.0} quads/s at {} MHz; \
                 {wall:.1} s wall",
                if n == 1 { "" } else { "s" },
                clocks as f64 / quads,
                end.cycles,
                f64::from(end.cycles) / quads,
                board.clock_hz() / 1_000_000
            );
        }
    }
}

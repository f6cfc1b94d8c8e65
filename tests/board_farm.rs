//! `render --engine board` with several `--port`s: the frame split over emulated boards (the
//! whole board design under Verilator on pseudo-terminals) in blocks of rows, equal byte for byte
//! to the core model's picture; a board killed mid-frame has its blocks rendered by the other,
//! with a warning naming its port; boards with different cores each get their own compile; and
//! `bench --board-scaling` reports quads per second per board and for the set.
#![cfg(unix)]

mod board_support;
use board_support::{board, emulation, Runner};
use microcode::core::config::Features;
use microcode::core::CoreConfig;
use sim::hardware::emulate::EMULATED_BAUD;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Output, Stdio};

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

fn tgsi_core() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tgsi-core"))
}

/// `render FILE -o OUT --size SIZE` with `args` after.
fn render(file: &Path, out: &Path, size: &str, args: &[&str]) -> Command {
    let mut c = tgsi_core();
    c.arg("render")
        .arg(file)
        .arg("-o")
        .arg(out)
        .args(["--size", size])
        .args(args);
    c
}

fn ok(o: &Output, what: &str) -> (String, String) {
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout).to_string(),
        String::from_utf8_lossy(&o.stderr).to_string(),
    );
    assert!(o.status.success(), "{what}: {out}{err}");
    (out, err)
}

/// The core model's picture of `file` at `size`.
fn core_png(file: &Path, size: &str, dir: &Path) -> Vec<u8> {
    let core = dir.join("core.png");
    ok(
        &render(file, &core, size, &["--engine", "core"])
            .output()
            .unwrap(),
        "core",
    );
    std::fs::read(core).expect("core PNG")
}

/// A board's share line after the summary: `  PORT: N blocks, Q quads, ...`: (blocks, quads).
fn share(stdout: &str, port: &str) -> (usize, usize) {
    let line = stdout
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{port}: ")))
        .unwrap_or_else(|| panic!("no share line for {port}: {stdout}"));
    let numbers: Vec<usize> = line[line.find(": ").unwrap() + 2..]
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|t| t.parse().ok())
        .take(2)
        .collect();
    (numbers[0], numbers[1])
}

/// The frame over two emulated boards (one given as `PATH@BAUD`) and a port that does not
/// exist (left out with a warning naming it): the core model's picture, both boards drew part of
/// it, every quad once. Every port failing fails the command, naming each port.
#[test]
fn a_frame_split_over_two_emulated_boards_equals_the_core_model() {
    let (a, b) = (emulation(), emulation());
    let dir = scratch("farm");
    let baud = EMULATED_BAUD.to_string();
    let b_at = format!("{}@{baud}", b.port);
    let missing = dir.join("no-such-port").display().to_string();
    for (name, size) in [("rings.tgsi", "32x16"), ("checker.tgsi", "16x16")] {
        let want = core_png(&example(name), size, &dir);
        let out = dir.join(format!("{name}.png"));
        let o = render(
            &example(name),
            &out,
            size,
            &[
                "--engine", "board", "--baud", &baud, "--port", &a.port, "--port", &b_at, "--port",
                &missing,
            ],
        )
        .output()
        .unwrap();
        let (stdout, stderr) = ok(&o, name);
        assert!(!stderr.contains("quad by quad"), "{stderr}");
        assert!(
            stderr.contains(&format!("warning: {missing} left out")),
            "{stderr}"
        );
        assert_eq!(
            std::fs::read(&out).unwrap(),
            want,
            "{name}: the boards' picture differs from the core model's"
        );
        let (w, h) = size.split_once('x').unwrap();
        let quads = w.parse::<usize>().unwrap() * h.parse::<usize>().unwrap() / 4;
        let (sa, sb) = (share(&stdout, &a.port), share(&stdout, &b.port));
        assert!(sa.0 >= 1 && sb.0 >= 1, "both boards drew blocks: {stdout}");
        assert_eq!(sa.1 + sb.1, quads, "every quad once: {stdout}");
        assert!(stdout.contains(&format!("({quads} quads)")), "{stdout}");
    }
    // A program RENDER cannot take (RET in the main program): quad by quad on the first port.
    let ret = dir.join("ret.tgsi");
    std::fs::write(
        &ret,
        "FRAG\nDCL IN[0], GENERIC[0], LINEAR\nDCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nRET\nEND\n",
    )
    .unwrap();
    let want = core_png(&ret, "4x4", &dir);
    let out = dir.join("ret.png");
    let o = render(
        &ret,
        &out,
        "4x4",
        &[
            "--engine", "board", "--baud", &baud, "--port", &a.port, "--port", &b.port,
        ],
    )
    .output()
    .unwrap();
    let (_, stderr) = ok(&o, "RET");
    assert!(
        stderr.contains(&format!("rendering quad by quad on {} instead", a.port)),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), want);
    // No board: the error names every port and why.
    let o = render(
        &example("checker.tgsi"),
        &dir.join("none.png"),
        "8x8",
        &[
            "--engine",
            "board",
            "--port",
            &missing,
            "--port",
            "/dev/null/nope",
        ],
    )
    .output()
    .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        err.contains("no board could render")
            && err.contains(&format!("{missing}: "))
            && err.contains("/dev/null/nope: "),
        "{err}"
    );
    assert!(!dir.join("none.png").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Boards with different cores: the emulated board (every unit but the divider) and a stand-in
/// board whose core has the divider (the core model behind the device model); each gets the
/// program compiled for its own core (the other's image would be refused: another ISA hash), and
/// the frame equals the core model's.
#[test]
fn boards_with_different_cores_each_get_their_own_compile() {
    let emu = emulation();
    let with_divider = CoreConfig {
        features: CoreConfig::default().features | Features::DIVIDER,
        ..CoreConfig::default()
    };
    assert_ne!(with_divider.isa_hash(), CoreConfig::default().isa_hash());
    let model = board(
        &with_divider.to_bytes(),
        Runner::CoreWith(with_divider.clone()),
    );
    let dir = scratch("farm-mixed");
    let want = core_png(&example("cutout.tgsi"), "16x16", &dir);
    let out = dir.join("mixed.png");
    let baud = EMULATED_BAUD.to_string();
    let model_port = format!("{}@115200", model.slave_path);
    let o = render(
        &example("cutout.tgsi"),
        &out,
        "16x16",
        &[
            "--engine",
            "board",
            "--baud",
            &baud,
            "--port",
            &emu.port,
            "--port",
            &model_port,
        ],
    )
    .output()
    .unwrap();
    let (stdout, stderr) = ok(&o, "mixed boards");
    assert!(!stderr.contains("left out"), "{stderr}");
    assert_eq!(std::fs::read(&out).unwrap(), want);
    let (se, sm) = (share(&stdout, &emu.port), share(&stdout, &model.slave_path));
    assert!(se.0 >= 1 && sm.0 >= 1, "both boards drew blocks: {stdout}");
    assert_eq!(se.1 + sm.1, 64, "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tgsi-core emulate` as a child process: the board on the pseudo-terminal it prints, killed
/// when dropped.
struct Emulator {
    child: Child,
    port: String,
    _stdout: BufReader<ChildStdout>,
}

impl Emulator {
    fn start() -> Emulator {
        let mut child = tgsi_core()
            .arg("emulate")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("tgsi-core emulate starts");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut port = String::new();
        stdout
            .read_line(&mut port)
            .expect("emulate prints its port");
        let port = port.trim().to_string();
        assert!(port.starts_with('/'), "emulate printed `{port}`");
        Emulator {
            child,
            port,
            _stdout: stdout,
        }
    }

    /// Sends `signal` (`-STOP`, `-CONT`) to the `emulate` process.
    fn signal(&self, signal: &str) {
        let sent = Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success(), "kill {signal}");
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Emulator {
    fn drop(&mut self) {
        self.kill();
    }
}

/// How a board is lost mid-frame.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Loss {
    /// Its `emulate` process killed: the port goes away.
    Killed,
    /// Its `emulate` process stopped (SIGSTOP): the port stays, nothing answers.
    Hung,
}

/// Renders checker.tgsi at 64x64 over two `emulate` processes and loses the first board right
/// after its first block came back (8 blocks of 4 rows of 32 quads, about 0.4 s each on the
/// emulation: seconds of the frame are left). The render succeeds with a warning naming the lost
/// board's port; the block it held is drawn by the other board; the picture equals the core
/// model's, every quad once.
fn lose_a_board_mid_frame(loss: Loss) {
    let mut doomed = Emulator::start();
    let survivor = Emulator::start();
    let dir = scratch(&format!("farm-{loss:?}"));
    let size = "64x64";
    let want = core_png(&example("checker.tgsi"), size, &dir);
    let out = dir.join("lost.png");
    let baud = EMULATED_BAUD.to_string();
    let mut child = render(
        &example("checker.tgsi"),
        &out,
        size,
        &[
            "--engine",
            "board",
            "--baud",
            &baud,
            "--port",
            &doomed.port,
            "--port",
            &survivor.port,
            "--verbose",
        ],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("tgsi-core render starts");
    let mut stderr = String::new();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let first_block = format!("of quads from {}", doomed.port);
    for line in lines.by_ref() {
        let line = line.expect("stderr");
        stderr.push_str(&line);
        stderr.push('\n');
        if line.ends_with(&first_block) {
            match loss {
                Loss::Killed => doomed.kill(),
                Loss::Hung => doomed.signal("-STOP"),
            }
            break;
        }
    }
    for line in lines {
        stderr.push_str(&line.expect("stderr"));
        stderr.push('\n');
    }
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    let status = child.wait().unwrap();
    if loss == Loss::Hung {
        doomed.signal("-CONT");
    }
    assert!(status.success(), "{loss:?}: {stdout}{stderr}");
    let warning = format!("warning: {} failed at rows ", doomed.port);
    let at = stderr
        .find(&warning)
        .unwrap_or_else(|| panic!("{loss:?}: no warning naming the lost board: {stderr}"));
    let why = match loss {
        Loss::Killed => "",
        Loss::Hung => "no answer after 3 attempts",
    };
    assert!(stderr[at..].contains(why), "{loss:?}: {stderr}");
    // The block it held: `rows Y..Z of quads`, drawn by the survivor.
    let rows = stderr[at + warning.len()..]
        .split_whitespace()
        .next()
        .unwrap();
    assert!(
        stderr.contains(&format!("rows {rows} of quads from {}", survivor.port)),
        "{loss:?}: {stderr}"
    );
    assert_eq!(
        std::fs::read(&out).unwrap(),
        want,
        "{loss:?}: the picture after the loss differs from the core model's"
    );
    let (sd, ss) = (share(&stdout, &doomed.port), share(&stdout, &survivor.port));
    assert!(sd.0 >= 1, "the lost board drew its first block: {stdout}");
    assert_eq!(sd.1 + ss.1, 32 * 32, "every quad once: {stdout}");
    let blocks = stderr.matches(" of quads from ").count();
    assert_eq!(blocks, 8, "8 blocks delivered, none twice: {stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The "Done when" of issue #32: a frame split over two emulated boards equal to the core
/// model's, one of them killed mid-frame.
#[test]
fn a_board_killed_mid_frame_has_its_blocks_rendered_by_the_other() {
    lose_a_board_mid_frame(Loss::Killed);
}

/// A board that stops answering mid-frame (its emulation frozen) is given up after three
/// RENDER attempts without an answer (2 s each) and its block drawn by the other.
#[test]
fn a_board_hung_mid_frame_has_its_blocks_rendered_by_the_other() {
    lose_a_board_mid_frame(Loss::Hung);
}

/// `bench --board-scaling` over two emulated boards: a row per board (alone and in the set)
/// and one for the set, with positive rates, the cycles per quad the RENDER end frames report
/// and the bytes per quad the link carried.
#[test]
fn bench_board_scaling_reports_each_board_and_the_set() {
    let (a, b) = (emulation(), emulation());
    let o = tgsi_core()
        .args([
            "bench",
            "--board-scaling",
            "--size",
            "16x8",
            "--seconds",
            "0",
        ])
        .args(["--baud", &EMULATED_BAUD.to_string()])
        .args(["--port", &a.port, "--port", &b.port])
        .output()
        .unwrap();
    let (stdout, _) = ok(&o, "bench --board-scaling");
    for name in [a.port.as_str(), b.port.as_str(), "set of 2"] {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no row for {name}: {stdout}"));
        let cells: Vec<&str> = line[name.len()..].split_whitespace().collect();
        assert_eq!(cells.len(), 6, "{line}");
        let positive = |c: &str| {
            c.trim_end_matches(['k', 'M'])
                .parse::<f64>()
                .is_ok_and(|x| x > 0.0)
        };
        assert!(positive(cells[0]) && positive(cells[1]), "{line}");
        if name != "set of 2" {
            assert!(positive(cells[2]) && positive(cells[4]), "{line}");
        }
    }
    assert!(stdout.contains("the fastest board alone"), "{stdout}");
    // Ports belong to --board-scaling, which needs them.
    for (args, says) in [
        (
            &["bench", "--port", &a.port][..],
            "--port is for --board-scaling",
        ),
        (&["bench", "--board-scaling"][..], "needs --port"),
    ] {
        let o = tgsi_core().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success() && err.contains(says), "{args:?}: {err}");
    }
}

/// Measurement, not a check (run with `--ignored --nocapture`): RENDER of
/// `examples/checker.tgsi` at 64x64 over two emulated boards, each alone and both at once, in
/// board time (the emulations' simulated clocks at 100 MHz, which run only while a board has
/// something to do, so the host's turnaround between requests is not counted) and in wall time
/// (Verilator's speed on this machine, two simulations sharing its cores).
#[test]
#[ignore]
fn measure_board_scaling_in_board_time() {
    use firmware_loader::farm::{render_farm, FarmBoard, FarmJob};
    use firmware_loader::host::{Client, ClientOptions};
    use firmware_loader::port::SerialTransport;
    use microcode::compile::render_program::{render_program, ColourOut};
    use sim::hardware::emulate::{Emulation, EMULATED_CLOCK_HZ};
    let emus = [emulation(), emulation()];
    let src = std::fs::read_to_string(example("checker.tgsi")).unwrap();
    let program = microcode::tgsi::text::parse(&src).unwrap();
    let side = 64u32;
    let rp = render_program(&program, side, side, &|_| None, ColourOut::Rgba8).unwrap();
    let image = microcode::compile::compile(&rp.program, &CoreConfig::default())
        .unwrap()
        .image;
    let mut inputs = sim::run_io::RunInputs::default();
    for (slot, v) in &rp.constants {
        inputs.constants.insert((0, *slot), *v);
    }
    let file = sim::hardware::board::upload_file(&image, &inputs).unwrap();
    let constant = |b: u16, i: u16| inputs.constant(b, i);
    let mut boards: Vec<FarmBoard<SerialTransport>> = emus
        .iter()
        .map(|e| {
            let t = SerialTransport::open(&e.port, 115_200).unwrap();
            let mut c = Client::new(t, ClientOptions::default());
            c.set_baud(EMULATED_BAUD).unwrap();
            firmware_loader::board::ensure_loaded(&mut c, &file.upload, &mut |_, _| {}).unwrap();
            firmware_loader::board::write_params(&mut c, &file, &constant).unwrap();
            FarmBoard {
                name: e.port.clone(),
                client: c,
            }
        })
        .collect();
    let wait_idle = |emu: &Emulation| {
        let mut last = emu.clocks();
        loop {
            std::thread::sleep(std::time::Duration::from_millis(50));
            let now = emu.clocks();
            if now == last {
                return now;
            }
            last = now;
        }
    };
    let q = (side / 2) as u16;
    let clock = f64::from(EMULATED_CLOCK_HZ);
    let mut run = |which: std::ops::Range<usize>| {
        let before: Vec<u64> = emus.iter().map(wait_idle).collect();
        let job = FarmJob::new(q, q, 1, which.len());
        let frame = render_farm(&mut boards[which.clone()], &job, &|_| {}).unwrap();
        let after: Vec<u64> = emus.iter().map(wait_idle).collect();
        let board_s: Vec<f64> = which
            .clone()
            .map(|i| (after[i] - before[i]) as f64 / clock)
            .collect();
        let busiest = board_s.iter().cloned().fold(0.0, f64::max);
        let quads = frame.records.len() as f64;
        eprintln!(
            "boards {which:?}: {} quads; board time {:?} s: {:.0} quads/s in board time; wall \
             {:.2} s: {:.0} quads/s; shares {:?}",
            frame.records.len(),
            board_s,
            quads / busiest,
            frame.elapsed.as_secs_f64(),
            quads / frame.elapsed.as_secs_f64(),
            frame.shares.iter().map(|s| s.quads).collect::<Vec<_>>()
        );
        frame.records
    };
    let a = run(0..1);
    let b = run(1..2);
    let both = run(0..2);
    assert!(a == b && b == both, "the frames differ");
}

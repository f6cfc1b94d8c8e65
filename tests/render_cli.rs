//! `tgsi-core render`: rasteriser inputs, the PNG it writes and engine cross-checks, against
//! values computed by hand.

use std::path::PathBuf;
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tgsi-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn tgsi_core(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi-core"))
        .args(args)
        .output()
        .expect("tgsi-core runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn read_png(path: &PathBuf) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    (info.width, info.height, buf[..info.buffer_size()].to_vec())
}

/// OUT = (x/4, y/4, 0, 1) of the window position; pixels with x > 3 are killed.
fn position_shader(origin: &str) -> String {
    format!(
        "FRAG\nPROPERTY FS_COORD_ORIGIN {origin}\nDCL IN[0], POSITION\nDCL OUT[0], COLOR\n\
         DCL TEMP[0]\nIMM FLT32 {{ 0.25, 0.25, 0.0, 1.0 }}\nIMM FLT32 {{ 3.0, 0.0, 0.0, 0.0 }}\n\
         ADD TEMP[0], IMM[1].xxxx, -IN[0].xxxx\nKIL TEMP[0].xxxx\n\
         MUL OUT[0].xy, IN[0], IMM[0]\nMOV OUT[0].zw, IMM[0]\nEND\n"
    )
}

fn expect_pixel(x: u32, y: u32, lower_left: bool) -> [u8; 4] {
    if x == 3 {
        return [0; 4]; // position.x = 3.5 > 3: killed, transparent
    }
    let wy = if lower_left { 3 - y } else { y };
    let byte = |v: f32| (v * 255.0).round() as u8;
    [
        byte((x as f32 + 0.5) * 0.25),
        byte((wy as f32 + 0.5) * 0.25),
        0,
        255,
    ]
}

#[test]
fn positions_kills_and_origin() {
    for (origin, lower) in [("UPPER_LEFT", false), ("LOWER_LEFT", true)] {
        for engine in ["reference", "core"] {
            let src = scratch(&format!("pos-{origin}.tgsi"));
            std::fs::write(&src, position_shader(origin)).unwrap();
            let png = scratch(&format!("pos-{origin}-{engine}.png"));
            let (ok, stdout, stderr) = tgsi_core(&[
                "render",
                src.to_str().unwrap(),
                "-o",
                png.to_str().unwrap(),
                "--size",
                "4x4",
                "--engine",
                engine,
            ]);
            assert!(ok, "{stderr}");
            assert!(stdout.contains("4 of 16 pixels killed"), "{stdout}");
            let (w, h, data) = read_png(&png);
            assert_eq!((w, h), (4, 4));
            for y in 0..4 {
                for x in 0..4 {
                    let i = ((y * 4 + x) * 4) as usize;
                    assert_eq!(
                        &data[i..i + 4],
                        expect_pixel(x, y, lower),
                        "{origin} {engine} pixel ({x}, {y})"
                    );
                }
            }
        }
    }
}

#[test]
fn corners_interpolate_and_engines_agree() {
    let src = scratch("color.tgsi");
    std::fs::write(
        &src,
        "FRAG\nDCL IN[0], COLOR, LINEAR\nDCL OUT[0], COLOR\nMOV OUT[0], IN[0]\nEND\n",
    )
    .unwrap();
    let png = scratch("color.png");
    let (ok, stdout, stderr) = tgsi_core(&[
        "render",
        src.to_str().unwrap(),
        "-o",
        png.to_str().unwrap(),
        "--size",
        "2x2",
        "--corner",
        "TL=1,0,0,1",
        "--corner",
        "TR=1,0,0,1",
        "--corner",
        "BL=0,0,1,1",
        "--corner",
        "BR=0,0,1,1",
        "--engine",
        "core",
        "--diff",
        "reference",
    ]);
    assert!(ok, "{stdout}{stderr}");
    assert!(stdout.contains("0 of 4 pixels differ"), "{stdout}");
    let (_, _, data) = read_png(&png);
    // Pixel centres are a quarter of the way down (v = 0.25) and three quarters (v = 0.75).
    let top = [191, 0, 64, 255];
    let bottom = [64, 0, 191, 255];
    assert_eq!(&data[0..4], top);
    assert_eq!(&data[4..8], top);
    assert_eq!(&data[8..12], bottom);
    assert_eq!(&data[12..16], bottom);
}

#[test]
fn refuses_odd_sizes_and_unknown_engines() {
    let src = scratch("odd.tgsi");
    std::fs::write(&src, "FRAG\nDCL OUT[0]\nEND\n").unwrap();
    let png = scratch("odd.png");
    let (ok, _, err) = tgsi_core(&[
        "render",
        src.to_str().unwrap(),
        "-o",
        png.to_str().unwrap(),
        "--size",
        "3x4",
    ]);
    assert!(!ok);
    assert!(err.contains("2x2 quads"), "{err}");
    assert!(!png.exists());
    let (ok, _, err) = tgsi_core(&[
        "render",
        src.to_str().unwrap(),
        "-o",
        png.to_str().unwrap(),
        "--engine",
        "gpu",
    ]);
    assert!(!ok);
    assert!(err.contains("unknown engine `gpu`"), "{err}");
}

/// The models render in batches split over threads: any thread count gives the same picture,
/// kills and core cycles (three threads split the 34 rows of quads unevenly).
#[test]
fn thread_counts_give_the_same_frame() {
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/rings.tgsi");
    for engine in ["reference", "core"] {
        let mut runs = Vec::new();
        for threads in ["1", "3"] {
            let png = scratch(&format!("rings-{engine}-{threads}.png"));
            let (ok, stdout, stderr) = tgsi_core(&[
                "render",
                src,
                "-o",
                png.to_str().unwrap(),
                "--size",
                "68x40",
                "--engine",
                engine,
                "--threads",
                threads,
            ]);
            assert!(ok, "{stdout}{stderr}");
            let cycles = stdout
                .lines()
                .find(|l| l.starts_with("core cycles"))
                .map(str::to_string);
            assert_eq!(cycles.is_some(), engine == "core", "{stdout}");
            runs.push((read_png(&png).2, cycles));
        }
        assert_eq!(runs[0], runs[1], "{engine}");
        // The picture is not blank: the rings have more than one colour.
        let first = &runs[0].0[0..4];
        assert!(runs[0].0.chunks(4).any(|p| p != first), "{engine}");
    }
}

//! The RENDER program transform (`microcode::compile::render_program`) on the core model: its
//! prologue makes, from RENDER's coordinate input, exactly the inputs the host rasteriser
//! (`sim::render`) gives, bit for bit, for several sizes, corner sets and coordinate conventions;
//! its epilogue packs exactly the bytes the host's `to_byte` makes; and a transformed program
//! rendered from coordinates alone equals the host's rendered frame.

use microcode::compile::compile;
use microcode::compile::render_program::{
    render_program, to_byte, ColourOut, Corners, RenderProgram,
};
use microcode::core::CoreConfig;
use microcode::protocol::RENDER_COORD_BIAS;
use microcode::tgsi::{text, Program};
use sim::render::render_batch;
use sim::run_io::RunInputs;
use std::collections::BTreeMap;

fn parse(src: &str) -> Program {
    text::parse(src).unwrap_or_else(|e| panic!("{}", e.render(src, "test")))
}

/// The coordinate words RENDER writes into lane L of quad (qx, qy) (PROTOCOL.md section 3.2).
fn coord(qx: u32, qy: u32) -> [[u32; 4]; 4] {
    std::array::from_fn(|l| {
        let l = l as u32;
        [
            RENDER_COORD_BIAS + 2 * qx + (l & 1),
            RENDER_COORD_BIAS + 2 * qy + (l >> 1),
            0,
            0,
        ]
    })
}

/// Runs the transformed program over the whole image on the core model, as the board does under
/// RENDER: OUT[0] of every pixel, row-major, and the kill flags.
fn run_rendered(
    rp: &RenderProgram,
    w: u32,
    h: u32,
    user_constants: &[(u32, [u32; 4])],
) -> Vec<([u32; 4], bool)> {
    run_rendered_with(rp, w, h, user_constants, &mut RunInputs::default())
}

/// [`run_rendered`] with the textures (and any constants) of `inputs`.
fn run_rendered_with(
    rp: &RenderProgram,
    w: u32,
    h: u32,
    user_constants: &[(u32, [u32; 4])],
    inputs: &mut RunInputs,
) -> Vec<([u32; 4], bool)> {
    let image = compile(&rp.program, &CoreConfig::default())
        .expect("the transformed program compiles for the board's core")
        .image;
    for (slot, v) in user_constants.iter().chain(&rp.constants) {
        inputs.constants.insert((0, *slot), *v);
    }
    let mut pixels = vec![([0; 4], false); (w * h) as usize];
    for qy in 0..h / 2 {
        for qx in 0..w / 2 {
            inputs.inputs.clear();
            inputs.inputs.insert(0, coord(qx, qy));
            let out = sim::core_model::run(&image, inputs).expect("core model");
            for (l, lane) in out.lanes.iter().enumerate() {
                let (x, y) = (2 * qx + (l as u32 & 1), 2 * qy + (l as u32 >> 1));
                let v = lane.outputs.get(&0).copied().unwrap_or([0; 4]);
                pixels[(y * w + x) as usize] = (v, lane.killed);
            }
        }
    }
    pixels
}

/// A program that writes input `IN[k]` as its colour, transformed with the float colour kept:
/// every pixel's output is the prologue's input, compared with the host rasteriser's
/// (`render_program::input_at`, which `sim::render` calls) for each pixel.
#[test]
fn the_prologue_makes_the_host_inputs_bit_for_bit() {
    use microcode::compile::render_program::{input_at, input_sources, CoordFlags, RenderParams};
    let odd: Corners = [
        [0.1, -3.7, 1.0e-3, 7.0],
        [2.3, 1.0e8, -0.0, 1.0 / 3.0],
        [-5.5, 0.2, 1.0e-38, f32::MAX],
        [1.0e-30, 9.9, 3.0, -f32::MAX],
    ];
    let props = [
        "",
        "PROPERTY FS_COORD_ORIGIN LOWER_LEFT\n",
        "PROPERTY FS_COORD_PIXEL_CENTER INTEGER\n",
        "PROPERTY FS_COORD_ORIGIN LOWER_LEFT\nPROPERTY FS_COORD_PIXEL_CENTER INTEGER\n",
    ];
    for (w, h) in [(2, 2), (6, 10), (14, 4), (22, 18)] {
        for (pi, prop) in props.iter().enumerate() {
            for (input, _decl) in [
                (0, "DCL IN[0], POSITION"),
                (1, "DCL IN[1], FACE"),
                (2, "DCL IN[2], GENERIC[0], PERSPECTIVE"),
                (3, "DCL IN[3], COLOR[0], LINEAR"),
            ] {
                let src = format!(
                    "FRAG\n{prop}DCL IN[0], POSITION\nDCL IN[1], FACE\n\
                     DCL IN[2], GENERIC[0], PERSPECTIVE\nDCL IN[3], COLOR[0], LINEAR\n\
                     DCL OUT[0], COLOR\nMOV OUT[0], IN[{input}]\nEND\n"
                );
                let program = parse(&src);
                let corners = |i: u32| (i == 3).then_some(odd);
                let rp =
                    render_program(&program, w, h, &corners, ColourOut::Float).expect("transform");
                let got = run_rendered(&rp, w, h, &[]);
                let sources = input_sources(&program, &corners);
                let source = &sources.iter().find(|(i, _)| *i == input).unwrap().1;
                let params = RenderParams::new(w, h);
                let flags = CoordFlags::of(&program);
                assert_eq!(flags.lower_left, pi % 2 == 1);
                for y in 0..h {
                    for x in 0..w {
                        let want = input_at(source, x, y, &params, h, flags).map(f32::to_bits);
                        let (v, killed) = got[(y * w + x) as usize];
                        assert!(!killed);
                        assert_eq!(v, want, "{w}x{h} props {pi} IN[{input}] pixel ({x}, {y})");
                    }
                }
            }
        }
    }
}

/// Values around every byte boundary, NaN, infinities, signed zeros, subnormals: the epilogue's
/// packed word holds `to_byte` of each channel.
#[test]
fn the_epilogue_packs_the_bytes_of_to_byte() {
    let mut values: Vec<u32> = vec![
        0,
        0x8000_0000,
        0x7FC0_0000,
        0xFFC0_0001,
        f32::INFINITY.to_bits(),
        f32::NEG_INFINITY.to_bits(),
        1,
        0x0080_0000,
        0x807F_FFFF,
        1.0f32.to_bits(),
        2.0f32.to_bits(),
        (-0.5f32).to_bits(),
    ];
    for k in 0..=255u32 {
        let half = (k as f32 + 0.5) / 255.0;
        for d in -2i32..=2 {
            values.push(half.to_bits().wrapping_add_signed(d));
        }
        values.push((k as f32 / 255.0).to_bits());
    }
    // 0.5 - 1 ulp scaled: floor(x + 0.5) would round it up.
    values.push((0.49999997f32 / 255.0).to_bits());
    let program = parse("FRAG\nDCL OUT[0], COLOR\nDCL CONST[0]\nMOV OUT[0], CONST[0]\nEND\n");
    let rp = render_program(&program, 2, 2, &|_| None, ColourOut::Rgba8).expect("transform");
    for chunk in values.chunks(4) {
        let mut v = [0u32; 4];
        v[..chunk.len()].copy_from_slice(chunk);
        let got = run_rendered(&rp, 2, 2, &[(0, v)]);
        let want = u32::from_le_bytes(v.map(to_byte));
        for (word, _) in got {
            assert_eq!(word[0], want, "{v:08x?}");
        }
    }
}

/// Renders `program` at `w` x `h` with `inputs` twice on the core model, by the host
/// rasteriser and transformed for RENDER from coordinates alone (as the board does), and
/// asserts the RGBA8 frames equal pixel for pixel, killed pixels included; returns the number
/// of killed pixels.
fn assert_renders_the_host_frame(
    name: &str,
    program: &Program,
    w: u32,
    h: u32,
    inputs: &mut RunInputs,
) -> usize {
    let image = compile(program, &CoreConfig::default()).unwrap().image;
    let prepared = sim::core_model::Prepared::new(&image);
    let batch = |b: &RunInputs, q: &_, o: &mut _| prepared.run_flat(b, q, o);
    let host =
        render_batch(program, w, h, &BTreeMap::new(), inputs, &batch, 1).expect("host render");
    let rp = render_program(program, w, h, &|_| None, ColourOut::Rgba8).expect("transform");
    let got = run_rendered_with(&rp, w, h, &[], inputs);
    for (n, (word, killed)) in got.iter().enumerate() {
        let px = if *killed {
            [0; 4]
        } else {
            word[0].to_le_bytes()
        };
        assert_eq!(px, host.pixels[n], "{name} pixel {n}");
    }
    host.killed
}

/// Bundled examples that need no texture, rendered from coordinates on the core model (as the
/// board does), equal the host rasteriser's frame on the core model.
#[test]
fn a_transformed_example_renders_the_host_frame() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    for name in ["checker.tgsi", "cutout.tgsi", "rings.tgsi"] {
        let src = std::fs::read_to_string(dir.join(name)).expect("the example");
        assert_renders_the_host_frame(name, &parse(&src), 18, 12, &mut RunInputs::default());
    }
}

/// The textured examples, lit-sphere (five TEMPs, NRM, RSQ, POW, a REP loop, a KIL and a
/// bilinear texture; constants like the demo's) and the mirror ball (a cube map), transformed
/// for RENDER, fit the board's core (its 16 registers: the prologue's scratch reuses the user's
/// TEMPs) and render the host rasteriser's frame from coordinates alone.
#[test]
fn the_textured_examples_fit_the_board_and_render_the_host_frame() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let lit: [[f32; 4]; 4] = [
        [0.36, 0.48, 0.8, 0.0],
        [1.0, 0.9, 0.8, 1.0],
        [0.1, 0.1, 0.25, 0.0],
        [0.6, 0.6, 0.6, 0.0],
    ];
    let cases = [
        ("lit-sphere.tgsi", "checker-8.png,bilinear", &lit[..]),
        ("mirror-ball.tgsi", "sky-cube-4.png,cube,bilinear", &[][..]),
    ];
    for (name, texture, constants) in cases {
        let src = std::fs::read_to_string(dir.join(name)).expect("the example");
        let mut inputs = RunInputs::default();
        let spec = format!("0={}/{texture}", dir.display());
        sim::run_io::args::apply_textures(&mut inputs, &[spec]).expect("the texture loads");
        for (k, v) in constants.iter().enumerate() {
            inputs.constants.insert((0, k as u32), v.map(f32::to_bits));
        }
        let killed = assert_renders_the_host_frame(name, &parse(&src), 16, 14, &mut inputs);
        assert!(
            killed > 0,
            "{name}: the frame kills pixels outside the disc"
        );
    }
}

/// The prologue's scratch registers are the user's first declared TEMPs (here 0, 2 and 3, a
/// declaration with a gap): the user's code still finds them zero, as every run starts, so
/// `IN[0] + (T0 + T2 + T3)` is the input itself on every pixel.
#[test]
fn the_users_temps_start_at_zero_after_the_prologue() {
    use microcode::compile::render_program::{input_at, input_sources, CoordFlags, RenderParams};
    let program = parse(
        "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0]\n\
         DCL TEMP[2..3]\nADD TEMP[3], TEMP[3], TEMP[2]\nADD TEMP[3], TEMP[3], TEMP[0]\n\
         ADD OUT[0], IN[0], TEMP[3]\nEND\n",
    );
    let (w, h) = (6, 4);
    let rp = render_program(&program, w, h, &|_| None, ColourOut::Float).expect("transform");
    let got = run_rendered(&rp, w, h, &[]);
    let sources = input_sources(&program, &|_| None);
    let params = RenderParams::new(w, h);
    let flags = CoordFlags::of(&program);
    for y in 0..h {
        for x in 0..w {
            let want = input_at(&sources[0].1, x, y, &params, h, flags).map(f32::to_bits);
            assert_ne!(want, [0; 4]);
            assert_eq!(got[(y * w + x) as usize].0, want, "pixel ({x}, {y})");
        }
    }
}

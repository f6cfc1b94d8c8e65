//! The four corpus programs that use opcodes added to TGSI after Mesa 7.9 (`frag-ucmp.sh`,
//! `vert-uadd.sh`, `vert-imul_hi.sh`, `vert-umul_hi.sh`; `corpus_mesa.rs` cannot compare them
//! with Mesa 7.9's interpreter, which rejects them): on Mesa's graw inputs, the reference model
//! and the core model give what the programs compute by plain host arithmetic written here.

use microcode::compile::compile;
use microcode::core::CoreConfig;
use microcode::tgsi::validate::{validate, Limits};
use microcode::tgsi::{text, Program};
use sim::run_io::RunInputs;
use std::collections::BTreeMap;
use std::path::PathBuf;

fn corpus_file(rel: &str) -> Result<PathBuf, String> {
    let p = toolchain::corpus_dir()?.join(rel);
    if p.is_file() {
        Ok(p)
    } else {
        Err(format!("{} is not found", p.display()))
    }
}

fn load(rel: &str) -> Option<Program> {
    let path = toolchain::or_missing(corpus_file(rel))?;
    let src = std::fs::read_to_string(&path).expect("readable");
    let p = text::parse(&src).unwrap_or_else(|e| panic!("{}", e.render(&src, rel)));
    validate(&p, &Limits::default()).expect("valid");
    Some(p)
}

/// Runs `p` on both models and checks every lane's outputs against `want`.
fn check(p: &Program, inputs: &RunInputs, want: [BTreeMap<u32, [u32; 4]>; 4], what: &str) {
    let image = compile(p, &CoreConfig::default()).expect("compiles").image;
    let reference = sim::reference::run(p, inputs).expect("reference runs");
    let core = sim::core_model::run(&image, inputs).expect("core runs");
    for (l, w) in want.iter().enumerate() {
        assert_eq!(
            &reference.lanes[l].outputs, w,
            "{what}: reference, lane {l}"
        );
        assert_eq!(&core.lanes[l].outputs, w, "{what}: core, lane {l}");
    }
}

/// One input register of the four lanes.
type Quad = [[u32; 4]; 4];

/// The graw vertex grid, four vertices per run: IN[0] = (x, y, 0, 1), IN[1] = (0.5, ix/16,
/// iy/16, 1) with x, y = i/16 * 2 - 1.
fn vertex_runs() -> Vec<(Quad, Quad)> {
    let mut runs = Vec::new();
    for iy in (0..16).step_by(2) {
        for ix in (0..16).step_by(2) {
            let pts = [(ix, iy), (ix + 1, iy), (ix, iy + 1), (ix + 1, iy + 1)];
            let in0 = pts.map(|(x, y)| {
                [
                    x as f32 / 16.0 * 2.0 - 1.0,
                    y as f32 / 16.0 * 2.0 - 1.0,
                    0.0,
                    1.0,
                ]
                .map(f32::to_bits)
            });
            let in1 =
                pts.map(|(x, y)| [0.5, x as f32 / 16.0, y as f32 / 16.0, 1.0].map(f32::to_bits));
            runs.push((in0, in1));
        }
    }
    runs
}

fn vertex_inputs(in0: Quad, in1: Quad) -> RunInputs {
    let mut inputs = RunInputs::default();
    inputs.inputs.insert(0, in0);
    inputs.inputs.insert(1, in1);
    inputs
}

#[test]
fn vert_uadd_adds_one_to_the_bits() {
    let Some(p) = load("mesa-graw/vertex-shader/vert-uadd.sh") else {
        return;
    };
    for (in0, in1) in vertex_runs() {
        // OUT[0] = IN[0]; OUT[1].x = bits(IN[1].x) + 1 (0.5 is 0x3F000000); y, z, w unwritten.
        let want = std::array::from_fn(|l| {
            BTreeMap::from([(0, in0[l]), (1, [in1[l][0].wrapping_add(1), 0, 0, 0])])
        });
        check(&p, &vertex_inputs(in0, in1), want, "vert-uadd");
    }
}

#[test]
fn vert_mul_hi_programs_give_their_constants() {
    // IMM[0] = (-2^31, 2, 0, -1): IMUL_HI of (-2^31, 0, 0, -2^31) and (2, 0, 0, 2) is the high
    // word of (-2^32, 0, 0, -2^32) = (-1, 0, 0, -1); UMUL by 0xFFFFFFFF: (-1)(-1) = 1 in the
    // low word; I2F: (1, 0, 0, 1). vert-umul_hi.sh: IMM[0] = (4, 2^30, 0, 1), UMUL_HI of
    // (4, 0, 0, 4) and (2^30, 0, 0, 2^30) = 2^32 >> 32: (1, 0, 0, 1).
    let hi = ((-(1i64 << 31) * 2) >> 32) as i32;
    let low = (-i64::from(hi)) as i32;
    let umul_hi = ((4u64 << 30) >> 32) as i32;
    for (file, x) in [
        ("mesa-graw/vertex-shader/vert-imul_hi.sh", low),
        ("mesa-graw/vertex-shader/vert-umul_hi.sh", umul_hi),
    ] {
        let Some(p) = load(file) else {
            continue;
        };
        let color = [x as f32, 0.0, 0.0, x as f32].map(f32::to_bits);
        for (in0, in1) in vertex_runs() {
            let want = std::array::from_fn(|l| BTreeMap::from([(0, in0[l]), (1, color)]));
            check(&p, &vertex_inputs(in0, in1), want, file);
        }
    }
}

#[test]
fn frag_ucmp_stripes_by_the_parity_of_ten_x() {
    let Some(p) = load("mesa-graw/fragment-shader/frag-ucmp.sh") else {
        return;
    };
    // Colours across the triangle, x through the points where 10 x crosses an integer.
    for k in 0..64 {
        let lanes: [[f32; 4]; 4] = std::array::from_fn(|l| {
            let r = (k * 4 + l) as f32 / 255.0;
            [r, 1.0 - r, 0.25, 1.0]
        });
        let mut inputs = RunInputs::default();
        inputs.inputs.insert(0, lanes.map(|v| v.map(f32::to_bits)));
        // MUL by 10 (one rounding), F2U truncates, AND 1, UCMP: odd -> IMM[0].yzzz = (1, 0, 0,
        // 0), even -> IMM[0].yyyz = (1, 1, 1, 0).
        let want = std::array::from_fn(|l| {
            let odd = ((lanes[l][0] * 10.0).trunc() as u32) & 1 != 0;
            let c = if odd {
                [1.0f32, 0.0, 0.0, 0.0]
            } else {
                [1.0, 1.0, 1.0, 0.0]
            };
            BTreeMap::from([(0, c.map(f32::to_bits))])
        });
        check(&p, &inputs, want, "frag-ucmp");
    }
}

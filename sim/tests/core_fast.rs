//! The core model's untraced runs (`run`, `Prepared::run_batch`) against traced single runs
//! (`run_traced`, which executes every instruction with the trace hooked in): the same outputs,
//! kills, vertices, instruction counts, cycle counts and faults (and through the flat batch
//! `Prepared::run_flat`: the outputs, kills, cycles and faults), on the Mesa corpus, the
//! examples and random core images (any operation, write mask, predicated write, saturate,
//! swizzle, branch target).

use microcode::compile::compile;
use microcode::core::image::{ConstSlot, ConstSource, RegMap};
use microcode::core::isa::{Cond, Instr, Op, Operand, SrcFile, OPS};
use microcode::core::{CoreConfig, Image};
use microcode::rng::XorShift;
use microcode::tgsi::text;
use proptest::prelude::*;
use sim::core_model;
use sim::run_io::batch::{BatchInputs, BatchOutputs};
use sim::run_io::{QuadInputs, RunInputs, LANES};
use std::path::{Path, PathBuf};

mod common;
use common::programs::random_inputs;

/// A traced single run's result for `inputs`.
fn exact(
    image: &Image,
    inputs: &RunInputs,
) -> Result<sim::run_io::RunOutput, core_model::CoreFault> {
    core_model::run_traced(image, inputs, &mut |_| {})
}

/// Compares the fast paths with traced single runs on `quads` (each quad's inputs in place of
/// `base.inputs`); returns how many runs were compared.
fn compare(image: &Image, base: &mut RunInputs, quads: &[QuadInputs], what: &str) -> usize {
    let prepared = core_model::Prepared::new(image);
    let batch = prepared.run_batch(base, quads);
    // The flat batch: every input register the quads give, every output the image maps and
    // one it does not.
    let mut flat_in = BatchInputs::new(
        quads
            .first()
            .map_or(Vec::new(), |q| q.keys().copied().collect()),
    );
    for quad in quads {
        let values = flat_in.push_quad();
        for (s, r) in flat_in_registers(quad).iter().enumerate() {
            values[s * LANES..(s + 1) * LANES].copy_from_slice(&quad[r]);
        }
    }
    let mut out_regs: Vec<u32> = image.outputs.iter().map(|m| u32::from(m.tgsi)).collect();
    out_regs.sort_unstable();
    out_regs.dedup();
    out_regs.push(999);
    let mut flat = BatchOutputs::new(out_regs.clone());
    prepared.run_flat(base, &flat_in, &mut flat);
    assert_eq!(flat.quads(), quads.len(), "{what}: flat batch");
    for (q, (quad, got)) in quads.iter().zip(&batch).enumerate() {
        base.inputs = quad.clone();
        let want = exact(image, base);
        assert_eq!(got, &want, "{what}: quad {q} of the batch");
        let error = flat.errors().iter().find(|(n, _)| *n == q).map(|(_, e)| e);
        match &want {
            Ok(o) => {
                assert_eq!(error, None, "{what}: quad {q} of the flat batch");
                assert_eq!(flat.count(q), o.cycles.unwrap_or(0), "{what}: flat cycles");
                assert_eq!(
                    flat.killed(q),
                    o.lanes.clone().map(|l| l.killed),
                    "{what}: flat kills"
                );
                for (s, r) in out_regs.iter().enumerate() {
                    for (l, lane) in o.lanes.iter().enumerate() {
                        let v = lane.outputs.get(r).copied().unwrap_or([0; 4]);
                        assert_eq!(
                            flat.quad(q)[s * LANES + l],
                            v,
                            "{what}: flat OUT[{r}] lane {l}"
                        );
                    }
                }
            }
            Err(e) => assert_eq!(error, Some(e), "{what}: quad {q} of the flat batch"),
        }
        assert_eq!(
            &core_model::run(image, base),
            &want,
            "{what}: quad {q} run alone"
        );
    }
    quads.len()
}

/// Quads of random inputs for TGSI inputs 0..8 (values of any kind: NaN, denormals, infinities,
/// integers).
/// The input registers of a quad in slot order (all quads of a test give the same ones).
fn flat_in_registers(quad: &QuadInputs) -> Vec<u32> {
    quad.keys().copied().collect()
}

fn random_quads(rng: &mut XorShift, n: usize) -> Vec<QuadInputs> {
    (0..n)
        .map(|_| {
            let mut inputs = RunInputs::default();
            for i in 0..8 {
                for l in 0..4 {
                    let v = [0; 4].map(|_: u32| common::programs::random_value(rng));
                    inputs.set_input_lane(i, l, v);
                }
            }
            inputs.inputs
        })
        .collect()
}

fn tgsi_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            tgsi_files(&p, out);
        } else if p
            .extension()
            .is_some_and(|x| x == "sh" || x == "txt" || x == "tgsi")
        {
            out.push(p);
        }
    }
}

#[test]
fn fast_path_equals_exact_stepping_on_the_corpus_and_the_examples() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = manifest.parent().expect("the workspace");
    let mut files = Vec::new();
    tgsi_files(&root.join("examples"), &mut files);
    let examples = files.len();
    assert!(examples >= 5, "the examples are missing");
    if let Some(corpus) = toolchain::corpus() {
        tgsi_files(&corpus, &mut files);
    }
    files.sort();
    let mut rng = XorShift::new(21);
    let (mut programs, mut runs) = (0, 0);
    for path in &files {
        let Ok(source) = std::fs::read_to_string(path) else {
            continue;
        };
        // Files in other dialects or of features the compiler refuses are not this test's subject.
        let Ok(program) = text::parse(&source) else {
            continue;
        };
        let Ok(compiled) = compile(&program, &CoreConfig::default()) else {
            continue;
        };
        let mut base = random_inputs(&mut rng);
        base.budget = 200_000;
        let quads = random_quads(&mut rng, 3);
        runs += compare(
            &compiled.image,
            &mut base,
            &quads,
            &path.display().to_string(),
        );
        programs += 1;
    }
    assert!(programs >= examples, "only {programs} programs compiled");
    println!("{programs} programs, {runs} runs compared");
}

/// A random core image of `len` instructions and an END: any operation of the ISA table with
/// random fields, registers within the configuration, inputs mapped to some registers, two
/// constant slots, and the texture unit 0.
fn random_image(seed: u64, len: usize) -> Image {
    let mut rng = XorShift::new(seed | 1);
    let config = CoreConfig::default();
    let regs = u64::from(config.registers.min(8));
    let mut pick = |n: u64| rng.next_u64() % n;
    let operand = |pick: &mut dyn FnMut(u64) -> u64| Operand {
        file: [SrcFile::R, SrcFile::R, SrcFile::K, SrcFile::L][pick(4) as usize],
        index: pick(regs) as u8,
        swz: [0; 4].map(|_| pick(6) as u8),
        neg: pick(16) as u8,
        abs: pick(4) == 0,
    };
    let mut code: Vec<Instr> = (0..len)
        .map(|_| {
            let op = OPS[pick(OPS.len() as u64) as usize].op;
            let mut i = Instr::new(op);
            i.dst = pick(regs) as u8;
            i.wmask = pick(16) as u8;
            i.sat = pick(3) as u8;
            i.pw = pick(3) as u8;
            i.cond = Cond::ALL[pick(8) as usize];
            i.target = pick(len as u64 + 1) as u16;
            i.src = [0; 3].map(|_| operand(&mut pick));
            i
        })
        .collect();
    code.push(Instr::new(Op::End));
    Image {
        config,
        processor: 0,
        origin: vec![0; code.len()],
        code,
        constants: (0..2)
            .map(|k| ConstSlot {
                k,
                source: ConstSource::Buffer {
                    buffer: 0,
                    index: k,
                },
            })
            .collect(),
        inputs: (0..2).map(|n| RegMap { tgsi: n, reg: n }).collect(),
        outputs: (0..4)
            .map(|n| RegMap {
                tgsi: n,
                reg: n + 2,
            })
            .collect(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Random images, branches, stack faults, budget exhaustion and missing units included.
    #[test]
    fn fast_path_equals_exact_stepping_on_random_images(seed in any::<u64>(), len in 1usize..40) {
        let image = random_image(seed, len);
        let mut rng = XorShift::new(seed.rotate_left(17) | 1);
        let mut base = random_inputs(&mut rng);
        base.budget = 2_000;
        // Five quads: a group run across whose quads often part.
        let quads = random_quads(&mut rng, 5);
        compare(&image, &mut base, &quads, &format!("random image {seed} of {len}"));
    }
}

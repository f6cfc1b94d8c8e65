//! Mesa's own test shaders (the corpus of `../shared/corpus`, 7.7 and 7.9 dialects, fragment,
//! vertex and geometry; the five post-7.9 files are skipped) on the reference model, fed the inputs Mesa's graw/python harness used, must give Mesa
//! 7.9's results as computed by the independent evaluator in `common/mesa79.rs`: exactly for exact
//! opcodes, within 1% where Mesa uses tables (EX2, LG2, POW, LIT), and where `decisions.md` section 8
//! deliberately differs, the case is named and our documented behaviour is checked instead.
//!
//! Inputs (tgsi-reference.md, "Inputs Mesa's own graw tests feed these shaders"):
//! - fragment: `IN[0]` = COLOR interpolated from the vertex colours (0,0,1,1) (1,0,0,1) (0,1,0,1), i.e.
//!   (b1, b2, b0, 1) for barycentric weights b0, b1, b2. Sample quads ([`FRAGMENT_QUADS`]): lane 0 at
//!   (b1, b2), lane 1 one step right (+dx on b1), lane 2 one step down (+dy on b2), lane 3 both; all
//!   points lie strictly inside the triangle. FACE (frag-face) is front-facing (1, 0, 0, 1).
//!   Constant buffers 0 and 1 as listed in [`CONST0`] and [`CONST1`]. No corpus program samples a
//!   texture, so sampler 0 stays unbound.
//! - vertex: a 16x16 grid, `IN[0]` = (ix/16*2-1, iy/16*2-1, 0, 1), `IN[1]` = (0.5, ix/16, iy/16, 1);
//!   each run is the 2x2 block (ix, iy), (ix+1, iy), (ix, iy+1), (ix+1, iy+1) for even ix, iy.
//! - geometry: one triangle ([`geometry_cases`]); the emitted vertices and primitive ends are compared.
//!
//! Runs where the corpus shows a documented difference are listed in [`expected_differences`]; the
//! test fails if one of them stops showing, or if any other file differs from Mesa.

mod common;

use common::mesa79::{self, Mode, Val};
use microcode::tgsi::{text, File, Processor, Program, SemanticName};
use sim::reference;
use sim::run_io::{Face, RunInputs};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

const CONST0: [[f32; 4]; 12] = sim::vectors::MESA_GRAW_CONST0;

const CONST1: [[f32; 4]; 12] = [
    [1.0, 0.0, 0.0, 1.0],
    [0.0, 1.0, 0.0, 1.0],
    [0.0, 0.0, 1.0, 1.0],
    [0.0, 0.0, 0.0, 0.0],
    [1.0, 1.0, 0.0, 1.0],
    [1.0, 0.5, 0.0, 1.0],
    [1.0, 0.0, 0.0, 1.0],
    [0.0, 0.0, 0.0, 1.0],
    [1.0, 0.0, 0.0, 0.5],
    [0.0, 1.0, 0.0, 0.5],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0],
];

/// Fragment sample quads: lane 0 at barycentric (b1, b2), then steps dx (on b1) and dy (on b2).
const FRAGMENT_QUADS: [((f64, f64), f64, f64); 5] = [
    ((0.125, 0.1875), 0.0625, 0.0625),
    ((0.625, 0.125), 0.0625, 0.0625),
    ((0.0625, 0.75), 0.0625, 0.0625),
    ((0.3, 0.2), 0.05, 0.05),
    ((0.45, 0.35), 0.01, 0.01),
];

/// Files that need Mesa after 7.9 (UCMP, `IMM[n]`, INT32 immediates, 2013 opcodes): Mesa 7.9's
/// interpreter cannot run them, so `corpus_later.rs` checks them against expectations of its own.
const POST_79: [&str; 5] = [
    "mesa-graw/fragment-shader/frag-ucmp.sh",
    "mesa-graw/vertex-shader/vert-rcp.sh",
    "mesa-graw/vertex-shader/vert-uadd.sh",
    "mesa-graw/vertex-shader/vert-imul_hi.sh",
    "mesa-graw/vertex-shader/vert-umul_hi.sh",
];

/// Deliberate differences the corpus is expected to show, by file: the rules that must fire.
fn expected_differences() -> BTreeMap<&'static str, Vec<&'static str>> {
    BTreeMap::from([
        // IN[0].x * 3 = -1.5 at ix = 4: Mesa -1, half-even -2; 2.625 at ix = 15 rounds to 3 and
        // IMM[3 + 3] lies past the six immediates.
        (
            "vert-arr.sh",
            vec![
                "decisions.md 8: ARR rounds halves to even (Mesa: floor(x + 0.5))",
                mesa79::OUT_OF_RANGE,
            ],
        ),
        // FLR writes ADDR[0].x: Mesa 7.9 converts only in ARL/ARR.
        (
            "vert-flr.sh",
            vec!["decisions.md 2: float results written to ADDR convert with floor"],
        ),
    ])
}

fn corpus_root() -> Option<PathBuf> {
    toolchain::corpus()
}

fn corpus_files(root: &Path) -> Vec<PathBuf> {
    let dirs = [
        "mesa-7.7-python-regress/fragment-shader",
        "mesa-7.7-python-regress/vertex-shader",
        "mesa-graw/fragment-shader",
        "mesa-graw/vertex-shader",
        "mesa-python-regress-2010/fragment-shader",
        "mesa-graw/geometry-shader",
    ];
    let mut files = Vec::new();
    for d in dirs {
        let Ok(entries) = std::fs::read_dir(root.join(d)) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let rel = format!("{d}/{name}");
            if (name.ends_with(".sh") || name.ends_with(".txt")) && !POST_79.contains(&rel.as_str())
            {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

fn bits(v: [f32; 4]) -> [u32; 4] {
    v.map(f32::to_bits)
}

/// One run's inputs for both the model and the evaluator.
struct Case {
    what: String,
    model: RunInputs,
    mesa: mesa79::Inputs,
}

fn constants(model: &mut RunInputs, mesa: &mut mesa79::Inputs) {
    for (b, buf) in [(0, &CONST0), (1, &CONST1)] {
        for (n, v) in buf.iter().enumerate() {
            model.set_const(b, n as u32, bits(*v));
            mesa.constants.insert((b as i32, n as i32), *v);
        }
    }
}

fn fragment_cases(program: &Program) -> Vec<Case> {
    let face = program
        .declarations
        .iter()
        .find(|d| d.file == File::Input && d.semantic.map(|s| s.name) == Some(SemanticName::Face));
    FRAGMENT_QUADS
        .iter()
        .map(|&((b1, b2), dx, dy)| {
            let lanes: [[f32; 4]; 4] = std::array::from_fn(|l| {
                let (r, g) = (
                    b1 + if l & 1 != 0 { dx } else { 0.0 },
                    b2 + if l & 2 != 0 { dy } else { 0.0 },
                );
                [r as f32, g as f32, (1.0 - r - g) as f32, 1.0]
            });
            let mut model = RunInputs::default();
            let mut mesa = empty_inputs();
            model.inputs.insert(0, lanes.map(bits));
            mesa.inputs.insert(0, lanes);
            if let Some(d) = face {
                model.face = Some(Face::Front);
                mesa.inputs
                    .insert(d.first as u32, [[1.0, 0.0, 0.0, 1.0]; 4]);
            }
            constants(&mut model, &mut mesa);
            Case {
                what: format!("quad at b1={b1}, b2={b2}"),
                model,
                mesa,
            }
        })
        .collect()
}

fn vertex_cases() -> Vec<Case> {
    let mut cases = Vec::new();
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
            });
            let in1 = pts.map(|(x, y)| [0.5, x as f32 / 16.0, y as f32 / 16.0, 1.0]);
            let mut model = RunInputs::default();
            let mut mesa = empty_inputs();
            model.inputs.insert(0, in0.map(bits));
            model.inputs.insert(1, in1.map(bits));
            mesa.inputs.insert(0, in0);
            mesa.inputs.insert(1, in1);
            constants(&mut model, &mut mesa);
            cases.push(Case {
                what: format!("grid block ix={ix}, iy={iy}"),
                model,
                mesa,
            });
        }
    }
    cases
}

/// Whether `got` matches `want` within the tolerance `want` carries.
fn matches(got: u32, want: Val) -> bool {
    if want.tol == 0.0 {
        return got == want.v.to_bits();
    }
    let (g, w) = (f64::from(f32::from_bits(got)), f64::from(want.v));
    if !w.is_finite() || w == 0.0 && g == 0.0 {
        return got == want.v.to_bits() || (w == 0.0 && g == 0.0);
    }
    (g - w).abs() <= want.tol * w.abs().max(1.0)
}

fn close(a: Val, b: Val) -> bool {
    matches(
        a.v.to_bits(),
        Val {
            v: b.v,
            tol: a.tol.max(b.tol),
        },
    )
}

/// Where a comparison happens, for messages and for naming documented differences.
struct Context<'a> {
    file: &'a str,
    rel: &'a str,
    what: &'a str,
    lane: usize,
    rules: &'a BTreeSet<&'static str>,
}

impl Context<'_> {
    fn at(&self) -> String {
        format!("{} ({}, lane {}):", self.rel, self.what, self.lane)
    }
}

/// Everything the corpus comparison collects.
#[derive(Default)]
struct Comparison {
    failures: Vec<String>,
    /// File name -> the documented rules that made its results differ from Mesa's.
    named: BTreeMap<String, BTreeSet<&'static str>>,
    compared: usize,
}

impl Comparison {
    /// Compares one set of outputs with the documented expectation; where Mesa's differs, the rules
    /// that fired name the case.
    fn outputs(
        &mut self,
        ctx: &Context,
        prefix: &str,
        got: &BTreeMap<u32, [u32; 4]>,
        doc: &HashMap<u32, [Val; 4]>,
        mesa: Option<&HashMap<u32, [Val; 4]>>,
    ) {
        for (n, want) in doc {
            let g = got.get(n).copied().unwrap_or([0; 4]);
            for c in 0..4 {
                let want_mesa = mesa.and_then(|m| m.get(n)).map(|v| v[c]);
                let differs = want_mesa.is_none_or(|m| !close(m, want[c]));
                if differs {
                    if ctx.rules.is_empty() {
                        self.failures.push(format!(
                            "{} {prefix}OUT[{n}].{c}: Mesa {want_mesa:?} and documented {:?} differ, no rule explains it",
                            ctx.at(),
                            want[c]
                        ));
                    }
                    self.named
                        .entry(ctx.file.to_string())
                        .or_default()
                        .extend(ctx.rules.iter().copied());
                }
                self.compared += 1;
                if !matches(g[c], want[c]) {
                    self.failures.push(format!(
                        "{} {prefix}OUT[{n}].{}: got {:#010x} ({}), want {:#010x} ({}){}",
                        ctx.at(),
                        ['x', 'y', 'z', 'w'][c],
                        g[c],
                        f32::from_bits(g[c]),
                        want[c].v.to_bits(),
                        want[c].v,
                        if differs {
                            " [documented difference from Mesa]"
                        } else {
                            ""
                        }
                    ));
                }
            }
        }
    }
}

/// Geometry: one triangle, positions of our choosing and the fragment test's vertex colours,
/// `IN[v][0]` = position, `IN[v][1]` = colour; all four lanes get the same primitive.
fn geometry_cases() -> Vec<Case> {
    let pos = [
        [0.9, 0.9, 0.0, 1.0],
        [0.9, -0.9, 0.0, 1.0],
        [-0.9, 0.0, 0.0, 1.0],
    ];
    let col = [
        [0.0, 0.0, 1.0, 1.0],
        [1.0, 0.0, 0.0, 1.0],
        [0.0, 1.0, 0.0, 1.0],
    ];
    let mut model = RunInputs::default();
    let mut mesa = empty_inputs();
    for v in 0..3 {
        for (n, data) in [(0, pos[v]), (1, col[v])] {
            model
                .geometry_inputs
                .insert((v as u32, n as u32), bits(data));
            mesa.geometry.insert((v as i32, n), data);
        }
    }
    constants(&mut model, &mut mesa);
    vec![Case {
        what: "triangle".into(),
        model,
        mesa,
    }]
}

fn empty_inputs() -> mesa79::Inputs {
    mesa79::Inputs {
        inputs: HashMap::new(),
        constants: HashMap::new(),
        geometry: HashMap::new(),
    }
}

#[test]
fn mesa_corpus_matches_mesa_79_or_the_documented_difference() {
    let Some(root) = corpus_root() else {
        return;
    };
    let files = corpus_files(&root);
    // 54 files of 7.7, 67 of 7.8/7.9 (graw and the 2010 regress) less the five post-7.9 ones, and
    // the six geometry programs.
    assert_eq!(
        files.len(),
        122,
        "expected the 7.7/7.9 fragment, vertex and geometry files"
    );
    let expected = expected_differences();
    let mut cmp = Comparison::default();
    let mut runs = 0;
    for path in &files {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_string();
        let rel = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        let source = match std::fs::read_to_string(path) {
            Ok(s) => s,
            Err(e) => {
                cmp.failures.push(format!("{rel}: cannot read: {e}"));
                continue;
            }
        };
        let program = match text::parse(&source) {
            Ok(p) => p,
            Err(e) => {
                cmp.failures.push(format!("{rel}: parse error: {e}"));
                continue;
            }
        };
        let cases = match program.processor {
            Processor::Fragment => fragment_cases(&program),
            Processor::Vertex => vertex_cases(),
            Processor::Geometry => geometry_cases(),
        };
        for case in cases {
            runs += 1;
            let model = match reference::run(&program, &case.model) {
                Ok(o) => o,
                Err(e) => {
                    cmp.failures
                        .push(format!("{rel} ({}): reference error: {e}", case.what));
                    continue;
                }
            };
            let ours = match mesa79::run(&program, &case.mesa, Mode::Documented) {
                Ok(r) => r,
                Err(e) => {
                    cmp.failures
                        .push(format!("{rel}: evaluator (documented): {e}"));
                    continue;
                }
            };
            let mesa = mesa79::run(&program, &case.mesa, Mode::Mesa);
            for lane in 0..4 {
                let doc = &ours.lanes[lane];
                let got = &model.lanes[lane];
                let mesa_lane = mesa.as_ref().ok().map(|m| &m.lanes[lane]);
                let ctx = Context {
                    file: &name,
                    rel: &rel,
                    what: &case.what,
                    lane,
                    rules: &ours.rules,
                };
                if got.killed != doc.killed {
                    cmp.failures.push(format!(
                        "{} killed = {}, want {}",
                        ctx.at(),
                        got.killed,
                        doc.killed
                    ));
                }
                if doc.killed {
                    continue;
                }
                if program.processor != Processor::Geometry {
                    cmp.outputs(
                        &ctx,
                        "",
                        &got.outputs,
                        &doc.outputs,
                        mesa_lane.map(|m| &m.outputs),
                    );
                    continue;
                }
                if got.vertices.len() != doc.vertices.len() {
                    cmp.failures.push(format!(
                        "{} {} vertices, want {}",
                        ctx.at(),
                        got.vertices.len(),
                        doc.vertices.len()
                    ));
                    continue;
                }
                for (k, (g, (d, end))) in got.vertices.iter().zip(&doc.vertices).enumerate() {
                    if g.primitive_end != *end {
                        cmp.failures.push(format!(
                            "{} vertex {k}: primitive_end = {}, want {end}",
                            ctx.at(),
                            g.primitive_end
                        ));
                    }
                    let m = mesa_lane.and_then(|m| m.vertices.get(k)).map(|v| &v.0);
                    cmp.outputs(&ctx, &format!("vertex {k} "), &g.outputs, d, m);
                }
            }
        }
    }
    let Comparison {
        failures,
        named,
        compared,
    } = cmp;
    for (file, rules) in &named {
        println!(
            "documented difference from Mesa 7.9 in {file}: {}",
            rules.iter().copied().collect::<Vec<_>>().join("; ")
        );
    }
    println!(
        "{} corpus files, {runs} runs, {compared} output components compared",
        files.len()
    );
    assert!(
        compared >= runs * 4,
        "too few outputs compared ({compared} in {runs} runs)"
    );
    for (file, rules) in &expected {
        for rule in rules {
            let fired = named.get(*file).is_some_and(|r| r.contains(rule));
            assert!(
                fired,
                "{file}: expected the documented difference \"{rule}\" to show"
            );
        }
    }
    for file in named.keys() {
        assert!(
            expected.contains_key(file.as_str()),
            "{file}: unexpected difference from Mesa 7.9: {:?}",
            named[file]
        );
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

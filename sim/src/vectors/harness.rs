//! Builds one tiny program per vector, runs it on an engine and judges the outputs.

use super::coverage::{self, Coverage};
use super::oracle::{f, ulp_distance, NAN};
use super::{all_vectors, Check, Class, Operand, Shape, Vector};
use crate::run_io::{RunInputs, RunOutput, LANES};
use microcode::tgsi::{
    Declaration, DstOperand, ExtMod, File, Indirect, Instruction, Opcode, Processor, Program,
    Register, SrcOperand, OPCODES,
};
use std::fmt::{self, Display, Write as _};

/// Address values in `[-R, R]` are observed exactly; values beyond read 0 through the indirect read.
pub const ADDRESS_TABLE_RADIUS: i32 = 16;

/// Marker bits the address table holds for address value `v` (never 0, so an out-of-range read of 0
/// is told apart).
fn address_marker(v: i32) -> u32 {
    0x4100_0000 | (v + ADDRESS_TABLE_RADIUS) as u32
}

/// The address value a marker stands for, `None` for the 0 of an out-of-range read, `Err` for bits
/// that are neither.
fn address_from_marker(bits: u32) -> Result<Option<i32>, ()> {
    if bits == 0 {
        return Ok(None);
    }
    let k = (bits & 0xFF) as i32 - ADDRESS_TABLE_RADIUS;
    if bits & 0xFFFF_FF00 == 0x4100_0000
        && (-ADDRESS_TABLE_RADIUS..=ADDRESS_TABLE_RADIUS).contains(&k)
    {
        Ok(Some(k))
    } else {
        Err(())
    }
}

fn decl(file: File, first: i32, last: i32) -> Declaration {
    Declaration {
        file,
        dimension: None,
        first,
        last,
        usage_mask: 0xF,
        semantic: None,
        interpolate: None,
        array_data: Vec::new(),
        loc: Default::default(),
    }
}

fn src(file: File, index: i32) -> SrcOperand {
    SrcOperand::new(Register::new(file, index))
}

fn dst(file: File, index: i32, mask: u8) -> DstOperand {
    let mut d = DstOperand::new(Register::new(file, index));
    d.write_mask = mask;
    d
}

fn inst(op: Opcode, dsts: Vec<DstOperand>, srcs: Vec<SrcOperand>) -> Instruction {
    let mut i = Instruction::new(op);
    i.dst = dsts;
    i.src = srcs;
    i
}

/// The operand as the instruction reads it from `TEMP[index]`, with the vector's modifiers.
/// `-|x|` needs the EXT_MOD negate (applied after absolute); a lone `-x` is the register Negate bit.
fn modified(index: i32, o: &Operand) -> SrcOperand {
    let mut s = src(File::Temporary, index);
    s.swizzle = o.swizzle;
    s.ext_swizzle = o.ext_swizzle;
    if o.absolute {
        s.ext_mod = ExtMod {
            absolute: true,
            negate: o.negate,
            ..ExtMod::default()
        };
    } else {
        s.negate = o.negate;
    }
    s
}

/// The program and inputs that run one vector (see [`Shape`]).
pub fn program_for(v: &Vector) -> (Program, RunInputs) {
    let info = v.opcode.info();
    let processor = match v.shape {
        Shape::Fragment | Shape::Kill => Processor::Fragment,
        Shape::Alu | Shape::Address | Shape::PushPop => Processor::Vertex,
    };
    let mut p = Program::new(processor);
    let mut inputs = RunInputs::default();
    let k = v.src.len() as i32;
    let n_in = k.max(1);
    p.declarations.push(decl(File::Input, 0, n_in - 1));
    for (i, o) in v.src.iter().enumerate() {
        inputs.inputs.insert(i as u32, o.lanes);
    }
    let ndst = info.num_dst.max(1) as i32;
    p.declarations.push(decl(File::Output, 0, ndst - 1));
    p.declarations.push(decl(File::Temporary, 0, n_in + ndst));
    for i in 0..k {
        p.instructions.push(inst(
            Opcode::Mov,
            vec![dst(File::Temporary, i, 0xF)],
            vec![src(File::Input, i)],
        ));
    }
    let operands: Vec<SrcOperand> = v
        .src
        .iter()
        .take(info.num_src as usize)
        .enumerate()
        .map(|(i, o)| modified(i as i32, o))
        .collect();
    match v.shape {
        Shape::Alu | Shape::Fragment => {
            let dsts = (0..ndst)
                .map(|j| dst(File::Temporary, k + j, 0xF))
                .collect();
            let mut op = inst(v.opcode, dsts, operands);
            op.saturate = v.saturate;
            p.instructions.push(op);
            for j in 0..ndst {
                p.instructions.push(inst(
                    Opcode::Mov,
                    vec![dst(File::Output, j, 0xF)],
                    vec![src(File::Temporary, k + j)],
                ));
            }
        }
        Shape::Address | Shape::PushPop => {
            let r = ADDRESS_TABLE_RADIUS;
            p.declarations.push(decl(File::Address, 0, 0));
            p.declarations.push(decl(File::Constant, 0, 2 * r));
            for a in -r..=r {
                inputs.set_const(0, (a + r) as u32, [address_marker(a); 4]);
            }
            if v.shape == Shape::PushPop {
                p.instructions
                    .push(inst(Opcode::Pusha, vec![], vec![modified(0, &v.src[0])]));
                p.instructions
                    .push(inst(Opcode::Popa, vec![dst(File::Address, 0, 0xF)], vec![]));
            } else {
                p.instructions
                    .push(inst(v.opcode, vec![dst(File::Address, 0, 0xF)], operands));
            }
            for c in 0..4u8 {
                let mut s = src(File::Constant, r);
                s.reg.indirect = Some(Indirect {
                    file: File::Address,
                    index: 0,
                    component: c,
                });
                p.instructions.push(inst(
                    Opcode::Mov,
                    vec![dst(File::Output, 0, 1 << c)],
                    vec![s],
                ));
            }
        }
        Shape::Kill => {
            p.instructions.push(inst(v.opcode, vec![], operands));
            p.instructions.push(inst(
                Opcode::Mov,
                vec![dst(File::Output, 0, 0xF)],
                vec![src(File::Input, 0)],
            ));
        }
    }
    p.instructions.push(inst(Opcode::End, vec![], vec![]));
    (p, inputs)
}

/// How far a result was from its expectation (only the measures that apply are set).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Deviation {
    pub ulp: Option<u64>,
    pub abs: Option<f64>,
    pub rel: Option<f64>,
}

/// Judges one component: Ok with the deviation when it passes, Err with a description otherwise.
fn judge(check: Check, got: u32) -> Result<Deviation, String> {
    let g = f64::from(f(got));
    let exact_special = |want: u32| {
        if got == want {
            Ok(Deviation {
                ulp: Some(0),
                ..Deviation::default()
            })
        } else {
            Err(format!(
                "got {got:#010x} ({g:e}), want {want:#010x} ({:e})",
                f(want)
            ))
        }
    };
    match check {
        Check::Any => Ok(Deviation::default()),
        Check::Bits(want) => {
            if got == want {
                Ok(Deviation {
                    ulp: Some(0),
                    ..Deviation::default()
                })
            } else {
                let u = ulp_distance(got, want)
                    .map(|u| format!(", {u} ULP"))
                    .unwrap_or_default();
                Err(format!(
                    "got {got:#010x} ({g:e}), want {want:#010x} ({:e}){u}",
                    f(want)
                ))
            }
        }
        Check::Ulp { want, ulps } => {
            let w = f(want);
            if w == 0.0 || !w.is_finite() {
                return exact_special(want);
            }
            match ulp_distance(got, want) {
                Some(u) if u <= u64::from(ulps) => Ok(Deviation { ulp: Some(u), ..Deviation::default() }),
                Some(u) => Err(format!("got {got:#010x} ({g:e}), want {want:#010x} ({w:e}) within {ulps} ULP: off by {u}")),
                None => Err(format!("got {got:#010x} ({g:e}), want {want:#010x} ({w:e}) within {ulps} ULP")),
            }
        }
        Check::Abs { want, tol } => {
            if !want.is_finite() {
                return exact_special(if want.is_nan() {
                    NAN
                } else {
                    (want as f32).to_bits()
                });
            }
            let e = (g - want).abs();
            if g.is_finite() && e <= tol {
                Ok(Deviation {
                    abs: Some(e),
                    ..Deviation::default()
                })
            } else {
                Err(format!(
                    "got {got:#010x} ({g:e}), want {want:e} within {tol:e} absolute: off by {e:e}"
                ))
            }
        }
        Check::Rel { want, tol } => {
            if want == 0.0 || !want.is_finite() {
                return exact_special(if want.is_nan() {
                    NAN
                } else {
                    (want as f32).to_bits()
                });
            }
            let e = ((g - want) / want).abs();
            if g.is_finite() && e <= tol {
                Ok(Deviation {
                    rel: Some(e),
                    ..Deviation::default()
                })
            } else {
                Err(format!(
                    "got {got:#010x} ({g:e}), want {want:e} within {tol:e} relative: off by {e:e}"
                ))
            }
        }
    }
}

/// One vector that did not pass.
#[derive(Clone, Debug, PartialEq)]
pub struct VectorFailure {
    pub opcode: Opcode,
    pub class: Class,
    pub note: &'static str,
    /// Every mismatch (lane, component, values) or the engine's error.
    pub detail: String,
}

impl Display for VectorFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} [{}] {}: {}",
            self.opcode, self.class, self.note, self.detail
        )
    }
}

/// The results of one opcode's vectors.
#[derive(Clone, Debug, PartialEq)]
pub struct OpcodeResult {
    pub opcode: Opcode,
    pub vectors: usize,
    pub passed: usize,
    /// Worst deviations seen over all checked components (passing or not).
    pub worst: Deviation,
    pub failures: Vec<VectorFailure>,
}

/// The results of a whole run of vectors on one engine.
#[derive(Clone, Debug, PartialEq)]
pub struct VectorReport {
    /// Per opcode, in table order.
    pub opcodes: Vec<OpcodeResult>,
    /// Supported opcodes lacking a vector of an applicable class.
    pub missing: Vec<(Opcode, Vec<Class>)>,
    /// Opcodes covered by other tests, with the reason.
    pub exempt: Vec<(Opcode, &'static str)>,
}

impl VectorReport {
    /// True when every vector passed and no opcode lacks a required class.
    pub fn all_passed(&self) -> bool {
        self.missing.is_empty() && self.opcodes.iter().all(|o| o.failures.is_empty())
    }

    /// Every failure, in table order.
    pub fn failures(&self) -> impl Iterator<Item = &VectorFailure> {
        self.opcodes.iter().flat_map(|o| o.failures.iter())
    }

    /// A readable table: one row per opcode with pass counts and worst errors, then the exempt and
    /// missing opcodes and every failure.
    pub fn to_table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{:<15} {:>7} {:>8} {:>9} {:>10} {:>10}",
            "opcode", "vectors", "passed", "worst ULP", "worst abs", "worst rel"
        );
        for o in &self.opcodes {
            let opt = |v: Option<f64>| v.map(|x| format!("{x:.3e}")).unwrap_or_else(|| "-".into());
            let ulp = o
                .worst
                .ulp
                .map(|u| u.to_string())
                .unwrap_or_else(|| "-".into());
            let _ = writeln!(
                s,
                "{:<15} {:>7} {:>8} {:>9} {:>10} {:>10}{}",
                o.opcode.mnemonic(),
                o.vectors,
                o.passed,
                ulp,
                opt(o.worst.abs),
                opt(o.worst.rel),
                if o.failures.is_empty() { "" } else { "  FAIL" }
            );
        }
        for (op, why) in &self.exempt {
            let _ = writeln!(s, "{:<15} exempt: {why}", op.mnemonic());
        }
        for (op, classes) in &self.missing {
            let list: Vec<String> = classes.iter().map(|c| c.to_string()).collect();
            let _ = writeln!(
                s,
                "{:<15} MISSING vectors: {}",
                op.mnemonic(),
                list.join(", ")
            );
        }
        for fail in self.failures() {
            let _ = writeln!(s, "FAIL {fail}");
        }
        s
    }
}

fn worst(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    a.max(b)
}

fn worst_f(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// Runs one vector; Ok(deviation) or Err(description of every mismatch).
fn run_one<F, E>(v: &Vector, engine: &F) -> (Deviation, Result<(), String>)
where
    F: Fn(&Program, &RunInputs) -> Result<RunOutput, E>,
    E: Display,
{
    let (program, inputs) = program_for(v);
    let out = match engine(&program, &inputs) {
        Ok(o) => o,
        Err(e) => return (Deviation::default(), Err(format!("engine error: {e}"))),
    };
    if let Some(fault) = &out.fault {
        return (Deviation::default(), Err(format!("engine fault: {fault}")));
    }
    let mut dev = Deviation::default();
    let mut errs = Vec::new();
    for lane in 0..LANES {
        let lo = &out.lanes[lane];
        if v.shape == Shape::Kill {
            if lo.killed != v.expect_killed[lane] {
                errs.push(format!(
                    "lane {lane}: killed = {}, want {}",
                    lo.killed, v.expect_killed[lane]
                ));
            }
            continue;
        }
        if lo.killed {
            errs.push(format!("lane {lane}: killed"));
            continue;
        }
        for (d, per_lane) in v.expect.iter().enumerate() {
            let got = lo.outputs.get(&(d as u32)).copied().unwrap_or([0; 4]);
            for c in 0..4 {
                let check = per_lane[lane][c];
                let verdict = if matches!(v.shape, Shape::Address | Shape::PushPop) {
                    judge_address(check, got[c])
                } else {
                    judge(check, got[c])
                };
                match verdict {
                    Ok(x) => {
                        dev.ulp = worst(dev.ulp, x.ulp);
                        dev.abs = worst_f(dev.abs, x.abs);
                        dev.rel = worst_f(dev.rel, x.rel);
                    }
                    Err(e) => errs.push(format!(
                        "OUT[{d}].{} lane {lane}: {e}",
                        ['x', 'y', 'z', 'w'][c]
                    )),
                }
            }
        }
    }
    (
        dev,
        if errs.is_empty() {
            Ok(())
        } else {
            Err(errs.join("; "))
        },
    )
}

/// Address vectors expect an int32 address value; the output holds the table marker read through it.
fn judge_address(check: Check, got: u32) -> Result<Deviation, String> {
    let Check::Bits(want) = check else {
        return Ok(Deviation::default());
    };
    let want = want as i32;
    let in_table = (-ADDRESS_TABLE_RADIUS..=ADDRESS_TABLE_RADIUS).contains(&want);
    match address_from_marker(got) {
        Ok(Some(a)) if in_table && a == want => Ok(Deviation::default()),
        Ok(None) if !in_table => Ok(Deviation::default()),
        Ok(Some(a)) => Err(format!("address {a}, want {want}")),
        Ok(None) => Err(format!("address out of the table (read 0), want {want}")),
        Err(()) => Err(format!(
            "read {got:#010x}, not an address-table entry (want address {want})"
        )),
    }
}

/// Runs every vector of [`all_vectors`] on `engine`.
pub fn run_vectors<F, E>(engine: F) -> VectorReport
where
    F: Fn(&Program, &RunInputs) -> Result<RunOutput, E>,
    E: Display,
{
    run_vector_set(&all_vectors(), engine)
}

/// Runs the given vectors on `engine`; coverage is judged on the same set.
pub fn run_vector_set<F, E>(vectors: &[Vector], engine: F) -> VectorReport
where
    F: Fn(&Program, &RunInputs) -> Result<RunOutput, E>,
    E: Display,
{
    let mut opcodes = Vec::new();
    for info in OPCODES {
        if matches!(coverage::applicable(info), Coverage::Exempt(_)) {
            continue;
        }
        let mine: Vec<&Vector> = vectors.iter().filter(|v| v.opcode == info.opcode).collect();
        let mut r = OpcodeResult {
            opcode: info.opcode,
            vectors: mine.len(),
            passed: 0,
            worst: Deviation::default(),
            failures: Vec::new(),
        };
        for v in mine {
            let (dev, verdict) = run_one(v, &engine);
            r.worst.ulp = worst(r.worst.ulp, dev.ulp);
            r.worst.abs = worst_f(r.worst.abs, dev.abs);
            r.worst.rel = worst_f(r.worst.rel, dev.rel);
            match verdict {
                Ok(()) => r.passed += 1,
                Err(detail) => r.failures.push(VectorFailure {
                    opcode: v.opcode,
                    class: v.class,
                    note: v.note,
                    detail,
                }),
            }
        }
        opcodes.push(r);
    }
    VectorReport {
        opcodes,
        missing: coverage::missing(vectors),
        exempt: coverage::exempt(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_markers_round_trip() {
        for a in -ADDRESS_TABLE_RADIUS..=ADDRESS_TABLE_RADIUS {
            assert_eq!(address_from_marker(address_marker(a)), Ok(Some(a)));
        }
        assert_eq!(address_from_marker(0), Ok(None));
        assert_eq!(address_from_marker(0x3F80_0000), Err(()));
    }

    #[test]
    fn judge_checks_bounds() {
        assert!(judge(
            Check::Ulp {
                want: 0x3F80_0000,
                ulps: 2
            },
            0x3F80_0002
        )
        .is_ok());
        assert!(judge(
            Check::Ulp {
                want: 0x3F80_0000,
                ulps: 2
            },
            0x3F80_0003
        )
        .is_err());
        assert!(judge(Check::Ulp { want: 0, ulps: 2 }, 0x8000_0000).is_err());
        assert!(judge(
            Check::Abs {
                want: 0.5,
                tol: 1e-6
            },
            0.500_000_5f32.to_bits()
        )
        .is_ok());
        assert!(judge(
            Check::Rel {
                want: f64::INFINITY,
                tol: 1e-3
            },
            0x7F80_0000
        )
        .is_ok());
        assert!(judge(
            Check::Rel {
                want: 2.0,
                tol: 1e-3
            },
            2.01f32.to_bits()
        )
        .is_err());
    }
}

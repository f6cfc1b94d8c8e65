//! Runs vectors on an engine and judges the outputs.

use super::coverage::{self, Coverage};
use super::oracle::{f, ulp_distance, NAN};
use super::program::{address_from_marker, program_for, ADDRESS_TABLE_RADIUS};
use super::report::{worst, worst_f, Deviation, OpcodeResult, VectorFailure, VectorReport};
use super::{all_vectors, Check, Shape, Vector};
use crate::run_io::{RunInputs, RunOutput, LANES};
use microcode::tgsi::{Program, OPCODES};
use std::fmt::Display;

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

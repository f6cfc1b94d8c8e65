//! Straight-line programs across a batch: when every instruction a run executes before END is
//! a component-wise operation or SETP ([`Exec::Alu`], [`Exec::Setp`]), every quad executes the
//! same instructions with every lane active, whatever its inputs. Then the quads of a flat
//! batch run together, [`QUADS`] at a time: each instruction once over all their lanes, which
//! keeps the processor's arithmetic units busy on independent lanes instead of waiting on one
//! quad's chain of dependent instructions. The instruction count and the clocks are the same
//! for every quad, counted once from the ISA's timing rows as a quad's run counts them.
//!
//! Nothing else changes: the same decoded operands ([`Comp`]), the same per-operation
//! arithmetic ([`component_lanes`], [`cond`]), the same destination stage (write mask,
//! predicated write, saturate). `Machine`'s tests compare it with the quad-by-quad path.

use super::{saturate, Comp, Decoded, Exec, Machine, LANES};
use crate::run_io::batch::{BatchInputs, BatchOutputs};
use microcode::core::eval::{component_lanes, cond};
use microcode::core::isa::{Op, Timing};

use super::super::CoreFault;

/// Quads run together: enough independent lanes to fill the processor's pipelines, few enough
/// that a register file of them stays in the first-level cache (16 registers: 16 KiB).
pub(super) const QUADS: usize = 16;

/// Lanes run together.
const WIDE: usize = QUADS * LANES;

/// One component of a register in every lane of [`QUADS`] quads (quad `q`'s lane `l` at
/// `q * LANES + l`).
type Wide = [u32; WIDE];

/// The register file and predicates of [`QUADS`] quads, component-major.
pub(super) struct WideFile {
    r: Vec<[Wide; 4]>,
    p: [[bool; WIDE]; 4],
}

/// A straight-line program's run, the same for every quad: how many instructions it executes
/// (END included) and the clocks they take.
#[derive(Clone, Copy)]
pub(super) struct StraightLine {
    count: u64,
    clocks: u64,
}

impl Machine<'_> {
    /// The run every quad makes, when the program is straight-line up to END and the budget
    /// covers it (a budget that ends first faults inside the run: the quad-by-quad path reports
    /// it).
    pub(super) fn straight_line(&self) -> Option<StraightLine> {
        let mut timing = Timing::default();
        for (pc, d) in self.code.iter().enumerate() {
            match d.exec {
                Exec::Alu(_) | Exec::Setp => {}
                Exec::Flow if self.img.code[pc].op == Op::End => {
                    let count = pc as u64 + 1;
                    for d in &self.code[..=pc] {
                        timing.step_row(&d.timing);
                    }
                    return (count <= self.budget).then_some(StraightLine {
                        count,
                        clocks: timing.clocks(),
                    });
                }
                _ => return None,
            }
        }
        None
    }

    /// Runs every quad of `inputs` into `out` as [`Machine::reset_flat`], [`Machine::execute`]
    /// and [`Machine::store_flat`] would one after another (`slots` and `regs` as they take
    /// them), [`QUADS`] at a time, when the program is straight-line
    /// ([`Machine::straight_line`]); returns whether it was.
    pub fn run_straight_line(
        &self,
        inputs: &BatchInputs,
        out: &mut BatchOutputs<CoreFault>,
        slots: &[(usize, usize)],
        regs: &[Option<usize>],
    ) -> bool {
        let Some(run) = self.straight_line() else {
            return false;
        };
        self.run_wide(run, inputs, out, slots, regs);
        true
    }

    /// [`Machine::run_straight_line`] for the program's run `run`.
    fn run_wide(
        &self,
        run: StraightLine,
        inputs: &BatchInputs,
        out: &mut BatchOutputs<CoreFault>,
        slots: &[(usize, usize)],
        regs: &[Option<usize>],
    ) {
        let mut file = WideFile {
            r: vec![[[0; WIDE]; 4]; self.r.len()],
            p: [[false; WIDE]; 4],
        };
        let end = run.count as usize - 1;
        for first in (0..inputs.quads()).step_by(QUADS) {
            let quads = (inputs.quads() - first).min(QUADS);
            // Only the registers a run can have changed are not zero.
            for &reg in &self.dirty {
                file.r[reg] = [[0; WIDE]; 4];
            }
            file.p = [[false; WIDE]; 4];
            for q in 0..quads {
                let values = inputs.quad(first + q);
                for &(slot, reg) in slots {
                    for l in 0..LANES {
                        for (c, &v) in values[slot * LANES + l].iter().enumerate() {
                            file.r[reg][c][q * LANES + l] = v;
                        }
                    }
                }
            }
            for d in &self.code[..end] {
                match d.exec {
                    Exec::Alu(op) => wide_alu(&mut file, d, op),
                    Exec::Setp => wide_setp(&mut file, d),
                    _ => {}
                }
            }
            for q in 0..quads {
                let values = out.quad_mut(first + q);
                for (s, reg) in regs.iter().enumerate() {
                    for l in 0..LANES {
                        values[s * LANES + l] = match reg.and_then(|r| file.r.get(r)) {
                            Some(v) => std::array::from_fn(|c| v[c][q * LANES + l]),
                            None => [0; 4],
                        };
                    }
                }
                out.set(first + q, [false; LANES], run.clocks);
            }
        }
    }
}

/// A decoded operand component in every lane.
#[inline(always)]
fn get(file: &WideFile, s: &Comp) -> Wide {
    let mut v = match file.r.get(s.reg) {
        Some(r) => r[s.comp & 3],
        None => [0; WIDE],
    };
    for x in &mut v {
        *x = (*x & s.and) ^ s.xor;
    }
    v
}

/// SETP in every lane.
fn wide_setp(file: &mut WideFile, d: &Decoded) {
    for c in (0..4).filter(|c| d.wmask & (1 << c) != 0) {
        let a = get(file, &d.src[0][c]);
        let b = get(file, &d.src[1][c]);
        for l in 0..WIDE {
            file.p[c][l] = cond(d.cond, a[l], b[l]);
        }
    }
}

/// The component-wise operation `op` in every lane: the lane loop made once per operation.
fn wide_alu(file: &mut WideFile, d: &Decoded, op: Op) {
    by_op!(op, OP => wide_lanes(file, d, |x, y, z, p| component_lanes(OP, d.cond, x, y, z, p)))
}

/// The destination stage of `f(A.c, B.c, C.c, P.c)` in every lane: write mask, predicated
/// write, saturate (every lane is active in a straight-line run).
#[inline(always)]
fn wide_lanes(
    file: &mut WideFile,
    d: &Decoded,
    f: impl Fn(Wide, Wide, Wide, [bool; WIDE]) -> Wide,
) {
    if d.dst >= file.r.len() {
        return;
    }
    // Every written component is computed before any is written: a destination may be a
    // register the operands read.
    let mut out = [[0u32; WIDE]; 4];
    let mut first = None;
    let written = d.wmask & 0xF;
    for c in (0..4).filter(|c| written & (1 << c) != 0) {
        out[c] = match first {
            Some(done) if d.broadcast => out[done],
            _ => {
                let x = get(file, &d.src[0][c]);
                let y = get(file, &d.src[1][c]);
                let z = get(file, &d.src[2][c]);
                let mut v = f(x, y, z, file.p[c]);
                if d.sat != 0 {
                    for v in &mut v {
                        *v = saturate(d.sat, *v);
                    }
                }
                v
            }
        };
        first.get_or_insert(c);
    }
    let p = file.p;
    let dst = &mut file.r[d.dst];
    for c in (0..4).filter(|c| written & (1 << c) != 0) {
        // Predicated writes: 1 where P.c, 2 where !P.c, any other value always.
        match d.pw {
            1 | 2 => {
                let want = d.pw == 1;
                for l in 0..WIDE {
                    if p[c][l] == want {
                        dst[c][l] = out[c][l];
                    }
                }
            }
            _ => dst[c] = out[c],
        }
    }
}

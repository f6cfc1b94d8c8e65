//! Quads run across: a group of [`QUADS`] quads executes each instruction once over all their
//! lanes, which keeps the processor's arithmetic units busy on independent lanes instead of
//! waiting on one quad's chain of dependent instructions (the compiler's sequences are such
//! chains).
//!
//! A quad's path through the program (which instructions it executes, so its count and clocks)
//! depends only on its own lanes, at the flow instructions. The group keeps one [`Machine`] per
//! quad for the flow instructions' state (execution mask, stacks, kills), runs each flow
//! instruction on every quad's machine as a quad's run would, and goes on only while they all
//! agree on where to go next and on whether any lane is left: then every quad has executed the
//! same instructions, counted once with the ISA's timing rows. When the quads part (a branch
//! taken by some, a quad with no lane left), a flow instruction faults or the budget runs out,
//! each quad goes on by itself from there: its registers and control state are handed to the
//! one-quad machine, which gives it its own path, or fault.
//!
//! The component-wise operations and SETP are evaluated as a quad's run evaluates them: the
//! same decoded operands ([`Comp`]), arithmetic ([`component_lanes`], [`cond`]) and
//! destination stage (execution mask, write mask, predicated write, saturate).

use super::{saturate, Comp, Decoded, Exec, Machine, LANES};
use crate::run_io::batch::{BatchInputs, BatchOutputs};
use microcode::core::eval::{component_lanes, cond};
use microcode::core::isa::{Op, Timing};
use std::ops::Range;

use super::super::CoreFault;

/// Quads run together: enough independent lanes to fill the processor's pipelines, few enough
/// that a register file of them stays in the first-level cache (16 registers: 16 KiB).
pub const QUADS: usize = 16;

/// Lanes run together.
const WIDE: usize = QUADS * LANES;

/// One component of a register in every lane of [`QUADS`] quads (quad `q`'s lane `l` at
/// `q * LANES + l`).
type Wide = [u32; WIDE];

/// A group's state: the register file and predicates of its lanes (component-major), the
/// execution mask, and each quad's machine for the flow instructions.
pub struct Across<'a> {
    r: Vec<[Wide; 4]>,
    p: [[bool; WIDE]; 4],
    e: [bool; WIDE],
    /// Every lane of `e` is set (the common case: no branch, loop exit or kill so far).
    full: bool,
    quads: Vec<Machine<'a>>,
}

impl<'a> Machine<'a> {
    /// A group's state for running this machine's program across quads, when every
    /// instruction can: component-wise operations, SETP, and flow instructions other than
    /// EMIT and ENDPRIM (which read registers). Texture, relative moves, derivatives, doubles,
    /// the address stack and missing units run quad by quad.
    pub fn across(&self) -> Option<Across<'a>> {
        let fits = self
            .code
            .iter()
            .zip(&self.img.code)
            .all(|(d, i)| match d.exec {
                Exec::Alu(_) | Exec::Setp => true,
                Exec::Flow => !matches!(i.op, Op::Emit | Op::Endprim),
                Exec::Other => false,
            });
        fits.then(|| Across {
            r: vec![[[0; WIDE]; 4]; self.r.len()],
            p: [[false; WIDE]; 4],
            e: [true; WIDE],
            full: true,
            quads: (0..QUADS)
                .map(|_| Machine::control_only(self.img, self.inputs))
                .collect(),
        })
    }
}

/// Where a quad of a group goes on by itself once the group's quads have parted: at an address
/// (its state that of the group), finished (END, or no lane left), or faulted.
type Resume = Result<Option<usize>, CoreFault>;

impl Across<'_> {
    /// Runs the quads `group` of `inputs` (at most [`QUADS`]) of `m`'s program into `out`, as
    /// [`Machine::reset_flat`], [`Machine::execute`] and [`Machine::store_flat`] would one after
    /// another (`slots` and `regs` as they take them). When the quads part (see the module
    /// comment), each goes on from there on its own, in `m`.
    pub fn run_group(
        &mut self,
        m: &mut Machine,
        inputs: &BatchInputs,
        group: Range<usize>,
        out: &mut BatchOutputs<CoreFault>,
        slots: &[(usize, usize)],
        regs: &[Option<usize>],
    ) {
        let n = group.len();
        // Only the registers a run can have changed are not zero.
        for &reg in &m.dirty {
            self.r[reg] = [[0; WIDE]; 4];
        }
        self.p = [[false; WIDE]; 4];
        self.e = [true; WIDE];
        self.full = true;
        for (q, quad) in group.clone().enumerate() {
            let values = inputs.quad(quad);
            for &(slot, reg) in slots {
                for l in 0..LANES {
                    for (c, &v) in values[slot * LANES + l].iter().enumerate() {
                        self.r[reg][c][q * LANES + l] = v;
                    }
                }
            }
            self.quads[q].reset_control();
        }
        let mut timing = Timing::default();
        let mut count = 0u64;
        // Whether the quads' machines hold the predicates of `self.p`.
        let mut synced = true;
        let mut pc = 0;
        // Set when the quads part: where each goes on.
        let mut parted: Option<Vec<Resume>> = None;
        while let Some(d) = m.code.get(pc) {
            // A budget that runs out faults each quad there on its own (an instruction that
            // cannot run across is not in a program `Machine::across` accepts: stepped too).
            if count >= m.budget || matches!(d.exec, Exec::Other) {
                parted = Some(vec![Ok(Some(pc)); n]);
                break;
            }
            count += 1;
            timing.step_row(&d.timing);
            match d.exec {
                Exec::Alu(op) => wide_alu(self, d, op),
                Exec::Setp => {
                    wide_setp(self, d);
                    synced = false;
                }
                Exec::Flow => {
                    if !synced {
                        for (q, quad) in self.quads[..n].iter_mut().enumerate() {
                            quad.p = std::array::from_fn(|l| {
                                std::array::from_fn(|c| self.p[c][q * LANES + l])
                            });
                        }
                        synced = true;
                    }
                    let i = &m.img.code[pc];
                    let ends: Vec<(Resume, bool)> = self.quads[..n]
                        .iter_mut()
                        .map(|quad| (quad.flow(pc, i), quad.alive()))
                        .collect();
                    for (q, quad) in self.quads[..n].iter().enumerate() {
                        self.e[q * LANES..(q + 1) * LANES].copy_from_slice(&quad.e);
                    }
                    self.full = self.e[..n * LANES].iter().all(|&x| x);
                    let first = &ends[0];
                    if first.0.is_err() || ends.iter().any(|end| end != first) {
                        parted = Some(ends.into_iter().map(|(to, _)| to).collect());
                        break;
                    }
                    match first {
                        (Ok(Some(to)), true) => {
                            pc = *to;
                            continue;
                        }
                        _ => break,
                    }
                }
                Exec::Other => unreachable!("handled before counting"),
            }
            pc += 1;
        }
        if let Some(resume) = parted {
            for (q, (quad, to)) in group.zip(resume).enumerate() {
                let done = to.and_then(|to| {
                    m.take_over(&self.quads[q], |reg, c, l| self.r[reg][c][q * LANES + l]);
                    m.count = count;
                    m.timing = timing;
                    match to {
                        Some(pc) => m.execute_from(pc, None),
                        None => Ok(()),
                    }
                });
                match done {
                    Ok(()) => m.store_flat(out, quad, regs),
                    Err(e) => out.fail(quad, e),
                }
            }
            return;
        }
        for (q, quad) in group.enumerate() {
            let values = out.quad_mut(quad);
            for (s, reg) in regs.iter().enumerate() {
                for l in 0..LANES {
                    values[s * LANES + l] = match reg.and_then(|r| self.r.get(r)) {
                        Some(v) => std::array::from_fn(|c| v[c][q * LANES + l]),
                        None => [0; 4],
                    };
                }
            }
            out.set(quad, self.quads[q].killed, timing.clocks());
        }
    }
}

/// `v` into `dst` in the lanes of `lanes` (every lane when `full`), without a branch per lane
/// so that it is a vector select.
#[inline(always)]
fn store(dst: &mut Wide, v: &Wide, lanes: &[bool; WIDE], full: bool) {
    if full {
        *dst = *v;
        return;
    }
    for l in 0..WIDE {
        let m = u32::from(lanes[l]).wrapping_neg();
        dst[l] = (v[l] & m) | (dst[l] & !m);
    }
}

/// A decoded operand component in every lane.
#[inline(always)]
fn get(file: &Across, s: &Comp) -> Wide {
    let mut v = match file.r.get(s.reg) {
        Some(r) => r[s.comp & 3],
        None => [0; WIDE],
    };
    for x in &mut v {
        *x = (*x & s.and) ^ s.xor;
    }
    v
}

/// SETP in the active lanes.
fn wide_setp(file: &mut Across, d: &Decoded) {
    for c in (0..4).filter(|c| d.wmask & (1 << c) != 0) {
        let a = get(file, &d.src[0][c]);
        let b = get(file, &d.src[1][c]);
        for l in 0..WIDE {
            if file.e[l] {
                file.p[c][l] = cond(d.cond, a[l], b[l]);
            }
        }
    }
}

/// The component-wise operation `op` in every lane: the lane loop made once per operation.
fn wide_alu(file: &mut Across, d: &Decoded, op: Op) {
    by_op!(op, OP => wide_lanes(file, d, |x, y, z, p| component_lanes(OP, d.cond, x, y, z, p)))
}

/// The destination stage of `f(A.c, B.c, C.c, P.c)` in every lane: write mask, predicated
/// write, saturate (every lane is active in a straight-line run).
#[inline(always)]
fn wide_lanes(file: &mut Across, d: &Decoded, f: impl Fn(Wide, Wide, Wide, [bool; WIDE]) -> Wide) {
    if d.dst >= file.r.len() {
        return;
    }
    let eval = |file: &Across, c: usize| {
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
    };
    let written = d.wmask & 0xF;
    if d.direct.is_some() {
        // No predicated write and no operand reads the destination: each component stored
        // as it is computed.
        let mut first = None;
        for c in (0..4).filter(|c| written & (1 << c) != 0) {
            let v = match first {
                Some(done) if d.broadcast => file.r[d.dst][done],
                _ => eval(file, c),
            };
            store(&mut file.r[d.dst][c], &v, &file.e, file.full);
            first.get_or_insert(c);
        }
        return;
    }
    // Every written component is computed before any is written: a destination may be a
    // register the operands read.
    let mut out = [[0u32; WIDE]; 4];
    let mut first = None;
    for c in (0..4).filter(|c| written & (1 << c) != 0) {
        out[c] = match first {
            Some(done) if d.broadcast => out[done],
            _ => eval(file, c),
        };
        first.get_or_insert(c);
    }
    let (p, e, full) = (&file.p, &file.e, file.full);
    let dst = &mut file.r[d.dst];
    for c in (0..4).filter(|c| written & (1 << c) != 0) {
        // Predicated writes: 1 where P.c, 2 where !P.c, any other value always.
        match d.pw {
            1 | 2 => {
                let want = d.pw == 1;
                let lanes: [bool; WIDE] = std::array::from_fn(|l| e[l] && p[c][l] == want);
                store(&mut dst[c], &out[c], &lanes, false);
            }
            _ => store(&mut dst[c], &out[c], e, full),
        }
    }
}

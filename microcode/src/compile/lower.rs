//! One lowering per TGSI opcode family.
//!
//! Rules every lowering keeps: all sources are lowered (their modifier sequences write scratch
//! only) before anything writes the destination; intermediate results go to scratch registers;
//! the destination is written by the last instruction(s), which carry the TGSI saturate, MODULATE
//! and write mask, and never read a source after the destination changed (a multi-component
//! special result is assembled in scratch and moved with one MOV, whose swizzle supplies the
//! constant 0 / 1 components). Formulas follow `sim::reference` literally: `a - b` is
//! `FMAD a, 1, -b`, `a * b` is `FMAD a, b, -0`, dot products are FMAD chains.

use super::alloc::Place;
use super::operand::{splat, HALF, L128, ONE, ZERO};
use super::{CompileError, Ctx};
use crate::core::isa::{Cond, Instr, Op, Operand, SWZ_ONE, SWZ_ZERO};
use crate::tgsi::{File, Instruction, Opcode};

/// The destination of the TGSI instruction on the core.
#[derive(Clone, Copy)]
struct Dst {
    reg: u8,
    mask: u8,
    sat: u8,
    scale: u8,
}

/// `o` with its components permuted: component c reads what component `p[c]` read.
fn perm(o: Operand, p: [usize; 4]) -> Operand {
    let mut r = o;
    r.neg = 0;
    for c in 0..4 {
        r.swz[c] = o.swz[p[c]];
        r.neg |= ((o.neg >> p[c]) & 1) << c;
    }
    r
}

fn negated(o: Operand) -> Operand {
    Operand {
        neg: o.neg ^ 0xF,
        ..o
    }
}

/// A scratch register read with a swizzle (0-3 components, SWZ_ZERO / SWZ_ONE literals).
fn sel(r: u8, swz: [u8; 4]) -> Operand {
    Operand { swz, ..Ctx::reg(r) }
}

impl Ctx<'_> {
    fn dst(&mut self, inst: &Instruction) -> Result<Dst, CompileError> {
        let d = inst.dst.first().ok_or_else(|| {
            CompileError::Program(format!("instruction {}: no destination", self.index))
        })?;
        if d.cond.is_some() {
            return Err(self.unsupported("condition-code write test (CONDCODE destination)"));
        }
        let reg = if d.reg.file == File::Null {
            self.scratch()
        } else {
            match self.alloc.place(&d.reg) {
                Some(Place::R(r)) => r,
                _ => {
                    return Err(self.unsupported(format!(
                        "destination register {}[{}]",
                        d.reg.file, d.reg.index
                    )))
                }
            }
        };
        Ok(Dst {
            reg,
            mask: d.write_mask & 0xF,
            sat: inst.saturate as u8,
            scale: d.modulate as u8,
        })
    }

    /// Emits a write of the TGSI destination (components `mask` of it) with its modifiers.
    fn fin(&mut self, op: Op, d: Dst, mask: u8, src: &[Operand]) {
        let m = d.mask & mask;
        if m == 0 {
            return;
        }
        let mut i = Instr::new(op);
        i.dst = d.reg;
        i.wmask = m;
        i.sat = d.sat;
        i.scale = d.scale;
        for (k, s) in src.iter().enumerate().take(3) {
            i.src[k] = *s;
        }
        self.emit(i);
    }

    fn setp(&mut self, cond: Cond, mask: u8, a: Operand, b: Operand) {
        let mut i = Instr::new(Op::Setp);
        i.cond = cond;
        i.wmask = mask;
        i.src[0] = a;
        i.src[1] = b;
        self.emit(i);
    }

    /// `t.comp = ((a0*b0 + a1*b1) + ...)` over `n` components.
    fn dot_into(
        &mut self,
        t: u8,
        comp: usize,
        a: Operand,
        b: Operand,
        n: usize,
    ) -> Result<(), CompileError> {
        let mzero = self.lit(ZERO, true)?;
        let m = 1u8 << comp;
        self.op(Op::Fmad, t, m, &[splat(a, 0), splat(b, 0), mzero]);
        for k in 1..n {
            self.op(
                Op::Fmad,
                t,
                m,
                &[splat(a, k), splat(b, k), splat(Self::reg(t), comp)],
            );
        }
        Ok(())
    }

    fn srcs(&mut self, inst: &Instruction) -> Result<Vec<Operand>, CompileError> {
        let mut v = Vec::with_capacity(inst.src.len());
        for s in &inst.src {
            v.push(self.src(s)?);
        }
        Ok(v)
    }
}

fn set_cond(op: Opcode) -> Option<Cond> {
    Some(match op {
        Opcode::Slt => Cond::Lt,
        Opcode::Sge => Cond::Ge,
        Opcode::Seq => Cond::Eq,
        Opcode::Sne => Cond::Ne,
        Opcode::Sgt => Cond::Gt,
        Opcode::Sle => Cond::Le,
        Opcode::Sfl => Cond::Fl,
        Opcode::Str => Cond::Tr,
        _ => return None,
    })
}

fn simple(op: Opcode) -> Option<Op> {
    Some(match op {
        Opcode::Mov | Opcode::Swz => Op::Mov,
        Opcode::Min => Op::Min,
        Opcode::Max => Op::Max,
        Opcode::Flr => Op::Flr,
        Opcode::Ceil => Op::Ceil,
        Opcode::Trunc => Op::Trnc,
        Opcode::Round => Op::Rnde,
        Opcode::Div => Op::Div,
        _ => return None,
    })
}

fn scalar(op: Opcode) -> Option<Op> {
    Some(match op {
        Opcode::Rcp => Op::Rcp,
        Opcode::Rsq => Op::Rsq,
        Opcode::Ex2 => Op::Ex2,
        Opcode::Lg2 => Op::Lg2,
        Opcode::Sin => Op::Sin,
        Opcode::Cos => Op::Cos,
        Opcode::Pow => Op::Pow,
        _ => return None,
    })
}

/// Lowers one TGSI instruction.
pub(crate) fn instruction(c: &mut Ctx, inst: &Instruction) -> Result<(), CompileError> {
    use Opcode as O;
    if inst.cond_update.is_some() || inst.cond_flow.is_some() {
        return Err(c.unsupported("condition codes"));
    }
    let op = inst.opcode;
    match op {
        O::Nop => return Ok(()),
        O::End => {
            c.emit(Instr::new(Op::End));
            return Ok(());
        }
        O::If | O::Ifc => return c.lower_if(inst),
        O::Else => return c.lower_else(),
        O::EndIf => return c.lower_endif(),
        O::BgnLoop => {
            c.lower_bgnloop();
            return Ok(());
        }
        O::EndLoop => return c.lower_endloop(),
        O::Brk => return c.lower_loop_control(Op::Brk),
        O::Cont => return c.lower_loop_control(Op::Cont),
        O::Kilp => {
            c.emit(Instr::new(Op::Kill));
            return Ok(());
        }
        O::Kil => {
            let s = inst
                .src
                .first()
                .ok_or_else(|| c.unsupported("KIL without a source"))?;
            let a = c.src(s)?;
            let zero = c.lit(ZERO, false)?;
            c.setp(Cond::Lt, 0xF, a, zero);
            c.emit(Instr::new(Op::Kilp));
            return Ok(());
        }
        _ => {}
    }
    let is_alu = simple(op).is_some()
        || scalar(op).is_some()
        || set_cond(op).is_some()
        || matches!(
            op,
            O::Abs
                | O::Add
                | O::Sub
                | O::Mul
                | O::Mad
                | O::Dp2
                | O::Dp3
                | O::Dp4
                | O::Dph
                | O::Dp2a
                | O::Frc
                | O::Cmp
                | O::Cnd
                | O::Lrp
                | O::Xpd
                | O::Scs
                | O::Exp
                | O::Log
                | O::Lit
                | O::Nrm
                | O::Nrm4
                | O::Dst
                | O::Ssg
                | O::Clamp
        );
    if !is_alu {
        return Err(c.unsupported(""));
    }
    let s = c.srcs(inst)?;
    let a = s.first().copied().unwrap_or_default();
    let b = s.get(1).copied().unwrap_or_default();
    let cc = s.get(2).copied().unwrap_or_default();
    let d = c.dst(inst)?;
    let one = c.lit(ONE, false)?;
    let zero = c.lit(ZERO, false)?;
    let mzero = c.lit(ZERO, true)?;
    if let Some(cop) = simple(op) {
        c.fin(cop, d, 0xF, &[a, b]);
        return Ok(());
    }
    if let Some(sop) = scalar(op) {
        c.fin(sop, d, 0xF, &[splat(a, 0), splat(b, 0)]);
        return Ok(());
    }
    if let Some(cond) = set_cond(op) {
        let mut i = Instr::new(Op::Set);
        i.cond = cond;
        i.dst = d.reg;
        i.wmask = d.mask;
        i.sat = d.sat;
        i.scale = d.scale;
        i.src[0] = a;
        i.src[1] = b;
        if d.mask != 0 {
            c.emit(i);
        }
        return Ok(());
    }
    match op {
        O::Abs => {
            let x = Operand {
                abs: true,
                neg: 0,
                ..a
            };
            c.fin(Op::Mov, d, 0xF, &[x]);
        }
        O::Add => c.fin(Op::Fmad, d, 0xF, &[a, one, b]),
        O::Sub => c.fin(Op::Fmad, d, 0xF, &[a, one, negated(b)]),
        O::Mul => c.fin(Op::Fmad, d, 0xF, &[a, b, mzero]),
        O::Mad => c.fin(Op::Fmad, d, 0xF, &[a, b, cc]),
        O::Dp2 | O::Dp3 | O::Dp4 | O::Dph | O::Dp2a => {
            let n = match op {
                O::Dp2 | O::Dp2a => 2,
                O::Dp3 | O::Dph => 3,
                _ => 4,
            };
            let t = c.scratch();
            c.dot_into(t, 0, a, b, n)?;
            let tx = splat(Ctx::reg(t), 0);
            match op {
                O::Dph => c.fin(Op::Fmad, d, 0xF, &[tx, one, splat(b, 3)]),
                O::Dp2a => c.fin(Op::Fmad, d, 0xF, &[tx, one, splat(cc, 0)]),
                _ => c.fin(Op::Mov, d, 0xF, &[tx]),
            }
        }
        O::Frc => {
            let t = c.scratch();
            c.op(Op::Flr, t, d.mask, &[a]);
            c.fin(Op::Fmad, d, 0xF, &[a, one, negated(Ctx::reg(t))]);
        }
        O::Cmp => {
            c.setp(Cond::Lt, d.mask, a, zero);
            c.fin(Op::Sel, d, 0xF, &[b, cc]);
        }
        O::Cnd => {
            let half = c.lit(HALF, false)?;
            c.setp(Cond::Gt, d.mask, cc, half);
            c.fin(Op::Sel, d, 0xF, &[a, b]);
        }
        O::Clamp => {
            let t = c.scratch();
            c.op(Op::Max, t, d.mask, &[a, b]);
            c.fin(Op::Min, d, 0xF, &[Ctx::reg(t), cc]);
        }
        O::Ssg => {
            let (t, u) = (c.scratch(), c.scratch());
            let mut gt = Instr::new(Op::Set);
            gt.cond = Cond::Gt;
            gt.dst = t;
            gt.wmask = d.mask;
            gt.src[0] = a;
            gt.src[1] = zero;
            c.emit(gt);
            let mut lt = gt;
            lt.cond = Cond::Lt;
            lt.dst = u;
            c.emit(lt);
            c.fin(Op::Fmad, d, 0xF, &[Ctx::reg(t), one, negated(Ctx::reg(u))]);
        }
        O::Lrp => {
            let t = c.scratch();
            c.op(Op::Fmad, t, d.mask, &[b, one, negated(cc)]);
            c.fin(Op::Fmad, d, 0xF, &[a, Ctx::reg(t), cc]);
        }
        O::Xpd => {
            let t = c.scratch();
            c.op(
                Op::Fmad,
                t,
                0b0111,
                &[perm(a, [2, 0, 1, 3]), perm(b, [1, 2, 0, 3]), mzero],
            );
            c.op(
                Op::Fmad,
                t,
                0b0111,
                &[
                    perm(a, [1, 2, 0, 3]),
                    perm(b, [2, 0, 1, 3]),
                    negated(Ctx::reg(t)),
                ],
            );
            c.fin(Op::Mov, d, 0xF, &[sel(t, [0, 1, 2, SWZ_ONE])]);
        }
        O::Scs => {
            let t = c.scratch();
            c.op(Op::Cos, t, 0b0001, &[splat(a, 0)]);
            c.op(Op::Sin, t, 0b0010, &[splat(a, 0)]);
            c.fin(Op::Mov, d, 0xF, &[sel(t, [0, 1, SWZ_ZERO, SWZ_ONE])]);
        }
        O::Exp => {
            let t = c.scratch();
            let x = splat(a, 0);
            c.op(Op::Expx, t, 0b0001, &[x]);
            c.op(Op::Flr, t, 0b1000, &[x]);
            c.op(
                Op::Fmad,
                t,
                0b0010,
                &[x, one, negated(splat(Ctx::reg(t), 3))],
            );
            c.op(Op::Ex2, t, 0b0100, &[x]);
            c.fin(Op::Mov, d, 0xF, &[sel(t, [0, 1, 2, SWZ_ONE])]);
        }
        O::Log => {
            let t = c.scratch();
            let x = Operand {
                abs: true,
                neg: 0,
                ..splat(a, 0)
            };
            c.op(Op::Expn, t, 0b0001, &[x]);
            c.op(Op::Mant, t, 0b0010, &[x]);
            c.op(Op::Lg2, t, 0b0100, &[x]);
            c.fin(Op::Mov, d, 0xF, &[sel(t, [0, 1, 2, SWZ_ONE])]);
        }
        O::Lit => lower_lit(c, d, a)?,
        O::Nrm | O::Nrm4 => {
            let n = if op == O::Nrm { 3 } else { 4 };
            let t = c.scratch();
            c.dot_into(t, 0, a, a, n)?;
            c.op(Op::Rsq, t, 0b0001, &[splat(Ctx::reg(t), 0)]);
            let r = splat(Ctx::reg(t), 0);
            if n == 3 {
                c.fin(Op::Fmad, d, 0b0111, &[a, r, mzero]);
                c.fin(Op::Mov, d, 0b1000, &[one]);
            } else {
                c.fin(Op::Fmad, d, 0xF, &[a, r, mzero]);
            }
        }
        O::Dst => {
            let t = c.scratch();
            c.op(Op::Fmad, t, 0b0010, &[a, b, mzero]);
            c.op(Op::Mov, t, 0b0100, &[a]);
            c.op(Op::Mov, t, 0b1000, &[b]);
            c.fin(Op::Mov, d, 0xF, &[sel(t, [SWZ_ONE, 1, 2, 3])]);
        }
        _ => return Err(c.unsupported("")),
    }
    Ok(())
}

/// LIT, as `sim::reference`: y = max(a.y, 0), w = clamp(a.w, -128, 128),
/// z = a.x > 0 ? (y == 0 && w == 0 ? 1 : POW(y, w)) : 0; result (1, max(a.x, 0), z, 1).
fn lower_lit(c: &mut Ctx, d: Dst, a: Operand) -> Result<(), CompileError> {
    let (t, u) = (c.scratch(), c.scratch());
    let one = c.lit(ONE, false)?;
    let zero = c.lit(ZERO, false)?;
    let p128 = c.lit(L128, false)?;
    let m128 = c.lit(L128, true)?;
    let tr = Ctx::reg(t);
    c.op(Op::Max, t, 0b0011, &[a, zero]);
    c.op(Op::Max, t, 0b1000, &[a, m128]);
    c.op(Op::Min, t, 0b1000, &[tr, p128]);
    c.op(Op::Pow, t, 0b0100, &[splat(tr, 1), splat(tr, 3)]);
    c.setp(Cond::Eq, 0b0100, splat(tr, 1), zero);
    c.op(Op::Sel, u, 0b0100, &[splat(tr, 3), one]);
    c.setp(Cond::Eq, 0b0100, Ctx::reg(u), zero);
    c.op(Op::Sel, t, 0b0100, &[one, tr]);
    c.setp(Cond::Gt, 0b0100, splat(a, 0), zero);
    c.op(Op::Sel, t, 0b0100, &[tr, zero]);
    c.fin(Op::Mov, d, 0xF, &[sel(t, [SWZ_ONE, 0, 2, SWZ_ONE])]);
    Ok(())
}

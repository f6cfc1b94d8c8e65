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
use super::operand::{negated, perm, sel, splat, HALF, L128, ONE, TWO, ZERO};
use super::trans::Trans;
use super::{CompileError, Ctx, OperandRef};
use crate::core::isa::{Cond, Instr, Op, Operand, SrcFile, SWZ_ONE, SWZ_ZERO};
use crate::tgsi::opcode::{Lowering, OperandType};
use crate::tgsi::{File, Instruction, Opcode};

/// The destination of the TGSI instruction on the core.
#[derive(Clone, Copy)]
pub(crate) struct Dst {
    pub reg: u8,
    pub mask: u8,
    sat: u8,
    /// MODULATE's factor as binary32 bits (1.0: none); float results only, as in the
    /// reference model.
    factor: u32,
    /// ADDR destinations: the float result is converted with this operation (F2IF, F2IR).
    conv: Option<Op>,
}

impl Ctx<'_> {
    /// The destination of `inst` on the core; an error names it.
    pub(crate) fn dst(&mut self, inst: &Instruction) -> Result<Dst, CompileError> {
        let lowered = self.dst_lowered(inst);
        lowered.map_err(|e| self.blame(e, OperandRef::Dst(0)))
    }

    fn dst_lowered(&mut self, inst: &Instruction) -> Result<Dst, CompileError> {
        let d = inst.dst.first().ok_or_else(|| CompileError::Structure {
            index: self.index,
            opcode: self.opcode,
            what: "no destination".into(),
        })?;
        if d.cond.is_some() {
            return Err(self.unsupported("condition-code write test (CONDCODE destination)"));
        }
        // Only float results are converted (`decisions.md` section 2); moves and integer
        // results keep their bits.
        let float_result = inst.opcode.info().dst_type == OperandType::Float;
        let conv = match (d.reg.file, inst.opcode) {
            (File::Address, Opcode::Arr) => Some(Op::F2ir),
            (File::Address, Opcode::Arl) => Some(Op::F2if),
            (File::Address, _) if float_result => Some(Op::F2if),
            _ => None,
        };
        let reg = if let Some(r) = self.redirect {
            r
        } else if d.reg.file == File::Null {
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
            factor: if float_result || inst.opcode.info().dst_type == OperandType::Untyped {
                d.modulate.factor().to_bits()
            } else {
                ONE
            },
            conv,
        })
    }

    /// Emits a write of the TGSI destination (components `mask` of it) with its modifiers.
    pub(crate) fn fin(&mut self, op: Op, d: Dst, mask: u8, src: &[Operand]) {
        self.fin_target(op, d, mask, src, 0);
    }

    /// [`Self::fin`] with the instruction's target field set (a texture operation's sampler).
    pub(crate) fn fin_target(&mut self, op: Op, d: Dst, mask: u8, src: &[Operand], target: u16) {
        let m = d.mask & mask;
        if m == 0 {
            return;
        }
        let mut i = Instr::new(op);
        i.target = target;
        if let Some(conv) = d
            .conv
            .filter(|_| op == Op::Mov && d.sat == 0 && d.factor == ONE)
        {
            self.op(conv, d.reg, m, &src[..1]);
            return;
        }
        if let Some(conv) = d.conv {
            // Float result into scratch, then the conversion writes the address register.
            let t = self.scratch();
            i.dst = t;
            i.wmask = m;
            for (k, s) in src.iter().enumerate().take(3) {
                i.src[k] = *s;
            }
            self.emit_dst(i, d);
            self.op(conv, d.reg, m, &[Ctx::reg(t)]);
            return;
        }
        i.dst = d.reg;
        i.wmask = m;
        for (k, s) in src.iter().enumerate().take(3) {
            i.src[k] = *s;
        }
        self.emit_dst(i, d);
    }

    /// Emits `i` (destination, write mask and predicated write set) with the TGSI
    /// destination's MODULATE and saturate. The core has no scale stage: a modulated result is
    /// written unsaturated, then multiplied in place by its power of two (`FMAD x, 2^k, -0`, the
    /// reference model's `mul` bit for bit), which saturates, under the same write mask and
    /// predicated write.
    pub(crate) fn emit_dst(&mut self, mut i: Instr, d: Dst) {
        if d.factor == ONE {
            i.sat = d.sat;
            self.emit(i);
            return;
        }
        i.sat = 0;
        self.emit(i);
        let mut m = Instr::new(Op::Fmad);
        m.dst = i.dst;
        m.wmask = i.wmask;
        m.pw = i.pw;
        m.sat = d.sat;
        m.src[0] = Ctx::reg(i.dst);
        m.src[1] = self.literal_or_constant(d.factor, false);
        m.src[2] = self.literal_or_constant(ZERO, true);
        self.emit(m);
    }

    /// All components `bits` (negated when `neg`): a literal where the core's set has it, else a
    /// constant of the image.
    fn literal_or_constant(&mut self, bits: u32, neg: bool) -> Operand {
        self.lit(bits, neg).unwrap_or_else(|_| Operand {
            file: SrcFile::K,
            index: self.alloc.data([bits; 4]),
            swz: [0, 1, 2, 3],
            neg: if neg { 0xF } else { 0 },
            abs: false,
        })
    }

    /// SETP for the other lowering files.
    pub(crate) fn setp_pub(&mut self, cond: Cond, mask: u8, a: Operand, b: Operand) {
        self.setp(cond, mask, a, b);
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
        Opcode::Mov | Opcode::Swz | Opcode::Arl | Opcode::Arr => Op::Mov,
        Opcode::Ddx => Op::Ddx,
        Opcode::Ddy => Op::Ddy,
        Opcode::Min => Op::Min,
        Opcode::Max => Op::Max,
        Opcode::Flr => Op::Flr,
        Opcode::Ceil => Op::Ceil,
        Opcode::Trunc => Op::Trnc,
        Opcode::Round => Op::Rnde,
        _ => return None,
    })
}

fn scalar(op: Opcode) -> Option<Trans> {
    Some(match op {
        Opcode::Rsq => Trans::Rsq,
        Opcode::Ex2 => Trans::Ex2,
        Opcode::Lg2 => Trans::Lg2,
        Opcode::Sin => Trans::Sin,
        Opcode::Cos => Trans::Cos,
        Opcode::Pow => Trans::Pow,
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
    // The row's lowering picks the routine; each routine refuses an opcode it does not know
    // (a row naming the wrong routine fails the compiler's tests, never silently).
    match op.info().lowering {
        Lowering::None => Err(c.unsupported("the opcode table gives it no lowering onto the core")),
        Lowering::Nothing => Ok(()),
        Lowering::Flow => flow(c, inst),
        Lowering::AddressStack => address_stack(c, inst),
        Lowering::Geometry => {
            c.emit(Instr::new(if op == O::Emit {
                Op::Emit
            } else {
                Op::Endprim
            }));
            Ok(())
        }
        Lowering::Kill => kill(c, inst),
        Lowering::Matrix { rows, width } => {
            lower_matrix(c, inst, usize::from(rows), usize::from(width))
        }
        Lowering::Texture => super::texture::lower_texture(c, inst),
        Lowering::Double => super::double::lower_double(c, inst),
        Lowering::Pack if op == O::Pk2h => super::int::lower_pk2h(c, inst),
        Lowering::Pack => super::int::lower_pack_unorm(c, inst),
        Lowering::Unpack if op == O::Up2h => super::int::lower_up2h(c, inst),
        Lowering::Unpack => super::int::lower_unpack(c, inst),
        Lowering::Integer => match op {
            O::Uadd => super::int::lower_uadd(c, inst),
            O::Ucmp => super::int::lower_ucmp(c, inst),
            O::F2u => super::int::lower_f2u(c, inst),
            _ => super::int::lower(c, inst),
        },
        Lowering::IntegerMultiply => super::imul::lower(c, inst),
        Lowering::Direct
        | Lowering::Compare
        | Lowering::Divide
        | Lowering::Transcendental
        | Lowering::Formula => alu(c, inst),
    }
}

/// Control flow, subroutines and END ([`Lowering::Flow`]).
fn flow(c: &mut Ctx, inst: &Instruction) -> Result<(), CompileError> {
    use Opcode as O;
    match inst.opcode {
        O::End => {
            c.emit(Instr::new(Op::End));
            Ok(())
        }
        O::If | O::Ifc => c.lower_if(inst),
        O::Else => c.lower_else(),
        O::EndIf => c.lower_endif(),
        O::BgnLoop => {
            c.lower_bgnloop();
            Ok(())
        }
        O::EndLoop => c.lower_endloop(),
        O::Brk => c.lower_loop_control(Op::Brk),
        O::BreakC => c.lower_breakc(inst),
        O::Cal => c.lower_call(inst, false),
        O::CallNz => c.lower_call(inst, true),
        O::Ret => {
            c.emit(Instr::new(Op::Ret));
            Ok(())
        }
        O::BgnSub => Ok(()),
        O::EndSub => {
            c.emit(Instr::new(Op::Endsub));
            Ok(())
        }
        O::Rep => c.lower_rep(inst),
        O::BgnFor => c.lower_bgnfor(inst),
        O::EndFor => c.lower_endfor(inst),
        O::EndRep => c.lower_endrep(),
        O::Cont => c.lower_loop_control(Op::Cont),
        // BRA is lowered before the instruction reaches here (`compile/condition_codes.rs`).
        _ => Err(c.not_lowered_by("the flow lowering")),
    }
}

/// PUSHA / POPA ([`Lowering::AddressStack`]).
fn address_stack(c: &mut Ctx, inst: &Instruction) -> Result<(), CompileError> {
    if inst.opcode == Opcode::Pusha {
        let s = inst
            .src
            .first()
            .ok_or_else(|| c.unsupported("PUSHA without a source"))?;
        let a = c.int_src(s)?;
        c.op(Op::Pusha, 0, 0xF, &[a]);
    } else {
        let d = c.dst(inst)?;
        c.fin(Op::Popa, d, 0xF, &[]);
    }
    Ok(())
}

/// KIL (a predicate of `src < 0`, then `KILP`) and KILP ([`Lowering::Kill`]).
fn kill(c: &mut Ctx, inst: &Instruction) -> Result<(), CompileError> {
    if inst.opcode == Opcode::Kil {
        let s = inst
            .src
            .first()
            .ok_or_else(|| c.unsupported("KIL without a source"))?;
        let a = c.src(s)?;
        let zero = c.lit(ZERO, false)?;
        c.setp(Cond::Lt, 0xF, a, zero);
        c.emit(Instr::new(Op::Kilp));
    } else {
        c.emit(Instr::new(Op::Kill));
    }
    Ok(())
}

/// The float ALU opcodes: [`Lowering::Direct`], [`Lowering::Compare`], [`Lowering::Divide`],
/// [`Lowering::Transcendental`] and [`Lowering::Formula`].
fn alu(c: &mut Ctx, inst: &Instruction) -> Result<(), CompileError> {
    let op = inst.opcode;
    let s = c.srcs(inst)?;
    let v = AluOperands {
        a: s.first().copied().unwrap_or_default(),
        b: s.get(1).copied().unwrap_or_default(),
        c: s.get(2).copied().unwrap_or_default(),
        one: c.lit(ONE, false)?,
        zero: c.lit(ZERO, false)?,
        mzero: c.lit(ZERO, true)?,
    };
    let d = c.dst(inst)?;
    match op.info().lowering {
        Lowering::Direct => direct(c, op, d, v),
        Lowering::Divide => divide(c, op, d, v),
        Lowering::Transcendental => {
            let f = scalar(op).ok_or_else(|| c.not_lowered_by("the transcendental lowering"))?;
            let (last, s) = c.trans(f, splat(v.a, 0), splat(v.b, 0))?;
            c.fin(last, d, 0xF, &s);
            Ok(())
        }
        Lowering::Compare => compare(c, op, d, v),
        _ => formula(c, op, d, v),
    }
}

/// The lowered sources of a float ALU instruction (absent ones are `Operand::default()`) and
/// the literals its formulas use.
#[derive(Clone, Copy)]
struct AluOperands {
    a: Operand,
    b: Operand,
    c: Operand,
    one: Operand,
    zero: Operand,
    /// -0.0: the addend of a product (`FMAD a, b, -0` is `a * b`, keeping a -0 product).
    mzero: Operand,
}

/// [`Lowering::Direct`]: one core operation.
fn direct(c: &mut Ctx, op: Opcode, d: Dst, v: AluOperands) -> Result<(), CompileError> {
    let cop = simple(op).ok_or_else(|| c.not_lowered_by("the direct lowering"))?;
    if matches!(cop, Op::Ddx | Op::Ddy)
        && v.a.file == crate::core::isa::SrcFile::R
        && usize::from(v.a.index) >= c.alloc.fixed_registers
    {
        // Modifier sequences run in active lanes only, but a derivative reads all four.
        return Err(c.unsupported_src(
            0,
            "derivative of an operand with complement, bias, scale2x, ExtDivide or a relative address",
        ));
    }
    c.fin(cop, d, 0xF, &[v.a, v.b]);
    Ok(())
}

/// [`Lowering::Divide`]: without the divider (the board build that fits) a multiply-add
/// sequence (`div.rs`); RCP is 1 / x. Else the divider's own operation.
fn divide(c: &mut Ctx, op: Opcode, d: Dst, v: AluOperands) -> Result<(), CompileError> {
    let (num, den) = if op == Opcode::Div {
        (v.a, v.b)
    } else {
        (v.one, splat(v.a, 0))
    };
    match c.quotient(num, den, d.mask)? {
        Some((last, s)) => c.fin(last, d, 0xF, &s),
        None if op == Opcode::Rcp => c.fin(Op::Rcp, d, 0xF, &[den]),
        None => c.fin(Op::Div, d, 0xF, &[num, den]),
    }
    Ok(())
}

/// [`Lowering::Compare`]: SET with the opcode's condition.
fn compare(c: &mut Ctx, op: Opcode, d: Dst, v: AluOperands) -> Result<(), CompileError> {
    let cond = set_cond(op).ok_or_else(|| c.not_lowered_by("the comparison lowering"))?;
    if d.conv.is_some() {
        return Err(c.unsupported_dst("comparison into an address register"));
    }
    let mut i = Instr::new(Op::Set);
    i.cond = cond;
    i.dst = d.reg;
    i.wmask = d.mask;
    i.src[0] = v.a;
    i.src[1] = v.b;
    if d.mask != 0 {
        c.emit_dst(i, d);
    }
    Ok(())
}

/// [`Lowering::Formula`]: the spec's formula, evaluated literally.
fn formula(c: &mut Ctx, op: Opcode, d: Dst, v: AluOperands) -> Result<(), CompileError> {
    use Opcode as O;
    match op {
        O::Abs | O::Add | O::Sub | O::Mul | O::Mad | O::Frc | O::Lrp | O::Xpd | O::X2d => {
            arithmetic(c, op, d, v)
        }
        O::Dp2 | O::Dp3 | O::Dp4 | O::Dph | O::Dp2a => dot(c, op, d, v),
        O::Cmp | O::Cnd | O::Clamp | O::Ssg => select(c, op, d, v),
        O::Scs | O::Exp | O::Log | O::Lit | O::Rcc => special(c, op, d, v),
        O::Rfl | O::Nrm | O::Nrm4 | O::Dst => vector(c, op, d, v),
        _ => Err(c.not_lowered_by("the formula lowering")),
    }
}

/// Sums, products and their combinations (ABS, ADD, SUB, MUL, MAD, FRC, LRP, XPD, X2D).
fn arithmetic(c: &mut Ctx, op: Opcode, d: Dst, v: AluOperands) -> Result<(), CompileError> {
    use Opcode as O;
    let AluOperands {
        a,
        b,
        c: cc,
        one,
        mzero,
        ..
    } = v;
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
        O::Frc => {
            let t = c.scratch();
            c.op(Op::Flr, t, d.mask, &[a]);
            c.fin(Op::Fmad, d, 0xF, &[a, one, negated(Ctx::reg(t))]);
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
        O::X2d => {
            // x = (a.x + b.x*c.x) + b.y*c.y, y = (a.y + b.x*c.z) + b.y*c.w; result (x, y, x, y).
            let t = c.scratch();
            let pick = |o: Operand, p: [usize; 4]| perm(o, p);
            c.op(
                Op::Fmad,
                t,
                0b0011,
                &[pick(b, [0, 0, 0, 0]), pick(cc, [0, 2, 0, 2]), a],
            );
            c.op(
                Op::Fmad,
                t,
                0b0011,
                &[pick(b, [1, 1, 1, 1]), pick(cc, [1, 3, 1, 3]), Ctx::reg(t)],
            );
            c.fin(Op::Mov, d, 0xF, &[sel(t, [0, 1, 0, 1])]);
        }
        _ => return Err(c.not_lowered_by("the arithmetic formulas")),
    }
    Ok(())
}

/// Dot products as FMAD chains (DP2, DP3, DP4, DPH, DP2A).
fn dot(c: &mut Ctx, op: Opcode, d: Dst, v: AluOperands) -> Result<(), CompileError> {
    use Opcode as O;
    let AluOperands {
        a, b, c: cc, one, ..
    } = v;
    match op {
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
        _ => return Err(c.not_lowered_by("the dot-product formulas")),
    }
    Ok(())
}

/// Compare-and-select formulas (CMP, CND, CLAMP, SSG).
fn select(c: &mut Ctx, op: Opcode, d: Dst, v: AluOperands) -> Result<(), CompileError> {
    use Opcode as O;
    let AluOperands {
        a,
        b,
        c: cc,
        one,
        zero,
        ..
    } = v;
    match op {
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
            // The spec's (x < y) ? y : (x > z) ? z : x as two compare-and-select pairs, inner
            // select first (MIN/MAX would give Mesa's min(max(x, y), z), which differs when
            // y > z and for a NaN x). SEL keeps the chosen bits and flushes a subnormal, as the
            // spec's selects do.
            let t = c.scratch();
            c.setp(Cond::Gt, d.mask, a, cc);
            c.op(Op::Sel, t, d.mask, &[cc, a]);
            c.setp(Cond::Lt, d.mask, a, b);
            c.fin(Op::Sel, d, 0xF, &[b, Ctx::reg(t)]);
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
        _ => return Err(c.not_lowered_by("the select formulas")),
    }
    Ok(())
}

/// Results with constant or separately computed components (SCS, EXP, LOG, LIT, RCC).
fn special(c: &mut Ctx, op: Opcode, d: Dst, v: AluOperands) -> Result<(), CompileError> {
    use Opcode as O;
    let AluOperands { a, one, zero, .. } = v;
    match op {
        O::Scs => {
            let t = c.sin_and_cos(splat(a, 0))?;
            c.fin(Op::Mov, d, 0xF, &[sel(t, [0, 1, SWZ_ZERO, SWZ_ONE])]);
        }
        // EXP and LOG compute only the components they write: a build without the
        // transcendental steps still runs EXP.xy and LOG.xy.
        O::Exp => {
            let t = c.scratch();
            let x = splat(a, 0);
            if d.mask & 1 != 0 {
                c.op(Op::Expx, t, 0b0001, &[x]);
            }
            if d.mask & 2 != 0 {
                c.op(Op::Flr, t, 0b1000, &[x]);
                c.op(
                    Op::Fmad,
                    t,
                    0b0010,
                    &[x, one, negated(splat(Ctx::reg(t), 3))],
                );
            }
            if d.mask & 4 != 0 {
                let (last, s) = c.trans(Trans::Ex2, x, x)?;
                c.op(last, t, 0b0100, &s);
            }
            c.fin(Op::Mov, d, 0xF, &[sel(t, [0, 1, 2, SWZ_ONE])]);
        }
        O::Log => {
            let t = c.scratch();
            let x = Operand {
                abs: true,
                neg: 0,
                ..splat(a, 0)
            };
            if d.mask & 1 != 0 {
                c.op(Op::Expn, t, 0b0001, &[x]);
            }
            if d.mask & 2 != 0 {
                c.op(Op::Mant, t, 0b0010, &[x]);
            }
            if d.mask & 4 != 0 {
                let (last, s) = c.trans(Trans::Lg2, x, x)?;
                c.op(last, t, 0b0100, &s);
            }
            c.fin(Op::Mov, d, 0xF, &[sel(t, [0, 1, 2, SWZ_ONE])]);
        }
        O::Lit => lower_lit(c, d, a)?,
        O::Rcc => {
            // r = 1/x; |r| clamped to [2^-64, 2^64] with r's sign; NaN stays NaN. The sign test
            // r + 1/r < 0 also sees -0 (whose reciprocal is -inf); fmax/fmin take the literal
            // first so that a NaN passes through.
            let t = c.scratch();
            let lo = c.lit(0x1F80_0000, false)?;
            let hi = c.lit(0x5F80_0000, false)?;
            let r = splat(Ctx::reg(t), 0);
            c.reciprocal_into(t, 0b0001, splat(a, 0))?;
            c.reciprocal_into(t, 0b0010, r)?;
            c.op(Op::Fmad, t, 0b0100, &[r, one, splat(Ctx::reg(t), 1)]);
            c.setp(Cond::Lt, d.mask, splat(Ctx::reg(t), 2), zero);
            let abs_r = Operand { abs: true, ..r };
            c.op(Op::Max, t, 0b1000, &[lo, abs_r]);
            c.op(Op::Min, t, 0b1000, &[hi, splat(Ctx::reg(t), 3)]);
            let m = splat(Ctx::reg(t), 3);
            c.fin(Op::Sel, d, 0xF, &[negated(m), m]);
        }
        _ => return Err(c.not_lowered_by("the special formulas")),
    }
    Ok(())
}

/// Whole-vector geometry (RFL, NRM, NRM4, DST).
fn vector(c: &mut Ctx, op: Opcode, d: Dst, v: AluOperands) -> Result<(), CompileError> {
    use Opcode as O;
    let AluOperands {
        a, b, one, mzero, ..
    } = v;
    match op {
        O::Rfl => {
            // k = (2 * dot3(a, b)) / dot3(a, a); result (k*a.xyz - b.xyz, 1).
            let (t, u) = (c.scratch(), c.scratch());
            c.dot_into(t, 0, a, b, 3)?;
            let two = c.lit(TWO, false)?;
            c.op(Op::Fmad, t, 0b0001, &[splat(Ctx::reg(t), 0), two, mzero]);
            c.dot_into(t, 1, a, a, 3)?;
            c.divide_into(t, 0b0001, splat(Ctx::reg(t), 0), splat(Ctx::reg(t), 1))?;
            c.op(Op::Fmad, u, 0b0111, &[splat(Ctx::reg(t), 0), a, negated(b)]);
            c.fin(Op::Mov, d, 0xF, &[sel(u, [0, 1, 2, SWZ_ONE])]);
        }
        O::Nrm | O::Nrm4 => {
            let n = if op == O::Nrm { 3 } else { 4 };
            let t = c.scratch();
            c.dot_into(t, 0, a, a, n)?;
            let tx = splat(Ctx::reg(t), 0);
            let (last, s) = c.trans(Trans::Rsq, tx, tx)?;
            c.op(last, t, 0b0001, &s);
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
        _ => return Err(c.not_lowered_by("the vector formulas")),
    }
    Ok(())
}

/// Matrices (`decisions.md` section 1): row r is DPn of src0 with src1's register + r; all rows
/// are read before the destination is written, components beyond the rows are untouched.
fn lower_matrix(
    c: &mut Ctx,
    inst: &Instruction,
    rows: usize,
    width: usize,
) -> Result<(), CompileError> {
    let (Some(s0), Some(s1)) = (inst.src.first(), inst.src.get(1)) else {
        return Err(c.unsupported("matrix without two sources"));
    };
    let a = c.src(s0)?;
    let mut row_ops = Vec::with_capacity(rows);
    for r in 0..rows {
        let mut s = *s1;
        match &mut s.reg.dimension {
            Some(dim) => dim.index += r as i32,
            None => s.reg.index += r as i32,
        }
        row_ops.push(c.src(&s)?);
    }
    let d = c.dst(inst)?;
    let t = c.scratch();
    for (r, row) in row_ops.into_iter().enumerate() {
        c.dot_into(t, r, a, row, width)?;
    }
    c.fin(Op::Mov, d, (1u8 << rows) - 1, &[Ctx::reg(t)]);
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
    let (last, s) = c.trans(Trans::Pow, splat(tr, 1), splat(tr, 3))?;
    c.op(last, t, 0b0100, &s);
    c.setp(Cond::Eq, 0b0100, splat(tr, 1), zero);
    c.op(Op::Sel, u, 0b0100, &[splat(tr, 3), one]);
    c.setp(Cond::Eq, 0b0100, Ctx::reg(u), zero);
    c.op(Op::Sel, t, 0b0100, &[one, tr]);
    c.setp(Cond::Gt, 0b0100, splat(a, 0), zero);
    c.op(Op::Sel, t, 0b0100, &[tr, zero]);
    c.fin(Op::Mov, d, 0xF, &[sel(t, [SWZ_ONE, 0, 2, SWZ_ONE])]);
    Ok(())
}

//! Double opcodes.
//!
//! The comparisons and selects DSEQ, DSLT, DMIN and DMAX are integer sequences that run on the
//! hardware ([`compare`]): both operands' pairs become order keys (sign-magnitude to an unsigned
//! order, -0 made +0), compared word by word with the borrow of a subtraction, NaN handled by
//! forcing the keys equal (or different, for DSEQ); five scratch registers, about 45 core
//! instructions.
//!
//! The arithmetic has no binary64 unit or sequence yet: each other double opcode becomes one
//! model-only `DOP` instruction (the TGSI opcode number in `target`), which the core model
//! executes with the reference model's binary64 kernels and the hardware engines refuse by name
//! (so does a comparison in a program that leaves fewer than five registers free). DFRACEXP's
//! two results are two `DOP`s, both computed before either destination is written. Source
//! swizzles, negates and absolute values travel in the operand fields (DOP applies negate and
//! absolute to each pair's sign); complement, bias, scale2x and ExtDivide, which would need
//! binary64 arithmetic before the operation, are `Unsupported`.

use super::operand::perm;
use super::operand::ONE;
use super::{CompileError, Ctx};
use crate::core::isa::{Instr, Op, Operand, DOP_SECOND};
use crate::tgsi::{ExtSel, Instruction, Opcode};

/// Scratch registers [`compare`] takes.
const COMPARE_SCRATCH: usize = 5;

/// Lowers a double opcode.
pub(crate) fn lower_double(c: &mut Ctx, inst: &Instruction) -> Result<(), CompileError> {
    let mut src = [Operand::default(); 3];
    for (k, s) in inst.src.iter().enumerate().take(3) {
        let m = s.ext_mod;
        if m.complement
            || m.bias
            || m.scale2x
            || s.ext_swizzle.is_some_and(|e| e.divide != ExtSel::One)
        {
            return Err(c.unsupported(
                "double operand with EXT_MOD complement, bias or scale2x, or ExtDivide",
            ));
        }
        src[k] = c.src(s)?;
    }
    let number = inst.opcode as u16;
    let is_compare = matches!(
        inst.opcode,
        Opcode::Dseq | Opcode::Dslt | Opcode::Dmin | Opcode::Dmax
    );
    if is_compare && c.scratch_fits(COMPARE_SCRATCH) {
        return compare(c, inst, src[0], src[1]);
    }
    if c.dlib.base.is_some() && is_arithmetic(inst.opcode) {
        return library(c, inst, src);
    }
    if inst.opcode == Opcode::DfracExp {
        let t = c.scratch();
        let mut i = Instr::new(Op::Dop);
        i.dst = t;
        i.wmask = 0xF;
        i.target = number | DOP_SECOND;
        i.src = src;
        c.emit(i);
        let d = c.dst(inst)?;
        c.fin_target(Op::Dop, d, 0xF, &src, number);
        let second = Instruction {
            dst: inst.dst.get(1).into_iter().cloned().collect(),
            ..inst.clone()
        };
        let d1 = c.dst(&second)?;
        c.fin(Op::Mov, d1, 0xF, &[Ctx::reg(t)]);
        return Ok(());
    }
    let d = c.dst(inst)?;
    c.fin_target(Op::Dop, d, 0xF, &src, number);
    Ok(())
}

/// The double arithmetic the binary64 library computes.
fn is_arithmetic(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::Dadd
            | Opcode::Dmul
            | Opcode::Dmad
            | Opcode::Ddiv
            | Opcode::Drcp
            | Opcode::Dsqrt
            | Opcode::Dfrac
            | Opcode::DfracExp
            | Opcode::Dldexp
    )
}

/// Whether the program has double arithmetic (and so wants the library's registers).
pub(crate) fn uses_library(p: &crate::tgsi::Program) -> bool {
    p.instructions.iter().any(|i| is_arithmetic(i.opcode))
}

/// Double arithmetic as calls of the binary64 library (`binary64`): operands into its argument
/// registers (low words as they are, high words with the operand's negate and absolute), the
/// routines, the result(s) moved to the destination(s).
fn library(c: &mut Ctx, inst: &Instruction, src: [Operand; 3]) -> Result<(), CompileError> {
    use super::binary64::{Routine, A, B};
    const X_Z: u8 = 0b0101;
    const Y_W: u8 = 0b1010;
    let load = |c: &mut Ctx, r: u8, o: Operand| {
        let d = c.dlib_dst(r);
        c.op(
            Op::Mov,
            d,
            X_Z,
            &[Operand {
                neg: 0,
                abs: false,
                ..o
            }],
        );
        c.op(
            Op::Mov,
            d,
            Y_W,
            &[Operand {
                neg: o.neg & Y_W,
                ..o
            }],
        );
    };
    let pair_const = |c: &mut Ctx, lo: u32, hi: u32| c.konst([lo, hi, lo, hi]);
    match inst.opcode {
        Opcode::Drcp => {
            let one = pair_const(c, 0, 0x3FF0_0000);
            let a = c.dlib_dst(A);
            c.op(Op::Mov, a, 0xF, &[one]);
            load(c, B, src[0]);
            c.dlib_call(Routine::Div);
        }
        Opcode::Dsqrt | Opcode::DfracExp => {
            load(c, A, src[0]);
            c.dlib_call(if inst.opcode == Opcode::Dsqrt {
                Routine::Sqrt
            } else {
                Routine::FracExp
            });
        }
        Opcode::Dfrac => {
            // x - trunc(x), then + 1 where that is negative: x - floor(x), rounded once.
            load(c, A, src[0]);
            c.dlib_call(Routine::TruncNeg);
            c.dlib_call(Routine::Add);
            let (a, b) = (c.dlib_reg(A), c.dlib_dst(B));
            let sign = pair_const(c, 31, 31);
            let one_hi = pair_const(c, 0, 0x3FF0_0000);
            c.op(Op::Shr, b, 0xF, &[perm(a, [1, 1, 3, 3]), sign]);
            c.op(Op::And, b, 0xF, &[Ctx::reg(b), one_hi]);
            c.dlib_call(Routine::Add);
        }
        Opcode::Dmad => {
            load(c, A, src[0]);
            load(c, B, src[1]);
            c.dlib_call(Routine::Mul);
            load(c, B, src[2]);
            c.dlib_call(Routine::Add);
        }
        op => {
            load(c, A, src[0]);
            load(c, B, src[1]);
            c.dlib_call(match op {
                Opcode::Dadd => Routine::Add,
                Opcode::Dmul => Routine::Mul,
                Opcode::Ddiv => Routine::Div,
                _ => Routine::Ldexp,
            });
        }
    }
    let d = c.dst(inst)?;
    let a = c.dlib_reg(A);
    c.fin(Op::Mov, d, 0xF, &[a]);
    if inst.opcode == Opcode::DfracExp {
        let second = Instruction {
            dst: inst.dst.get(1).into_iter().cloned().collect(),
            ..inst.clone()
        };
        let d1 = c.dst(&second)?;
        let b = c.dlib_reg(B);
        c.fin(Op::Mov, d1, 0xF, &[b]);
    }
    Ok(())
}

/// DSEQ, DSLT, DMIN, DMAX on operands `a`, `b` (pairs xy and zw, x and z the low words; a
/// negate or absolute of the operand acts on the high words' sign) as integer operations.
fn compare(c: &mut Ctx, inst: &Instruction, a: Operand, b: Operand) -> Result<(), CompileError> {
    const X_Z: u8 = 0b0101;
    const Y_W: u8 = 0b1010;
    let op = inst.opcode;
    let konst = |c: &mut Ctx, v: u32| c.konst([v; 4]);
    let reg = |r: u8, swz: [u8; 4]| Operand { swz, ..Ctx::reg(r) };
    // The operand as the opcode sees it: low words raw, high words with negate and absolute.
    let raw = |o: Operand| Operand {
        neg: 0,
        abs: false,
        ..o
    };
    let high = |o: Operand| Operand {
        neg: o.neg & 0b1010,
        ..o
    };
    let (s, l, h, t, n) = (
        c.scratch(),
        c.scratch(),
        c.scratch(),
        c.scratch(),
        c.scratch(),
    );
    let magnitude = konst(c, 0x7FFF_FFFF);
    let inf_hi = konst(c, 0x7FF0_0000);
    let sign = konst(c, 0x8000_0000);
    let thirty_one = konst(c, 31);
    // s = high words (a0, b0, a1, b1), l = low words, in the same order.
    c.op(Op::Mov, s, X_Z, &[perm(high(a), [1, 1, 3, 3])]);
    c.op(Op::Mov, s, Y_W, &[perm(high(b), [1, 1, 3, 3])]);
    c.op(Op::Mov, l, X_Z, &[perm(raw(a), [0, 0, 2, 2])]);
    c.op(Op::Mov, l, Y_W, &[perm(raw(b), [0, 0, 2, 2])]);
    // h = |high|; t = -1 where the low word is not 0; n = -1 where the value is a NaN:
    // 0x7FF00000 - |high| - (low != 0) < 0.
    c.op(Op::And, h, 0xF, &[Ctx::reg(s), magnitude]);
    c.ineg(t, 0xF, Ctx::reg(l))?;
    c.op(Op::Or, t, 0xF, &[Ctx::reg(t), Ctx::reg(l)]);
    c.op(Op::Shr, t, 0xF, &[Ctx::reg(t), thirty_one]);
    c.op(Op::Isub, n, 0xF, &[inf_hi, Ctx::reg(h)]);
    c.op(Op::Iadd, n, 0xF, &[Ctx::reg(n), Ctx::reg(t)]);
    c.op(Op::Shr, n, 0xF, &[Ctx::reg(n), thirty_one]);
    // h = -1 where the value is not a zero; -0 becomes +0.
    c.op(Op::Or, h, 0xF, &[Ctx::reg(h), Ctx::reg(l)]);
    c.ineg(t, 0xF, Ctx::reg(h))?;
    c.op(Op::Or, h, 0xF, &[Ctx::reg(h), Ctx::reg(t)]);
    c.op(Op::Shr, h, 0xF, &[Ctx::reg(h), thirty_one]);
    c.op(Op::And, s, 0xF, &[Ctx::reg(s), Ctx::reg(h)]);
    // Order keys: negative values all bits flipped, positive ones the sign bit set, so that
    // unsigned order is the values' order.
    c.op(Op::Shr, h, 0xF, &[Ctx::reg(s), thirty_one]);
    c.op(Op::Or, t, 0xF, &[Ctx::reg(h), sign]);
    c.op(Op::Xor, s, 0xF, &[Ctx::reg(s), Ctx::reg(t)]);
    c.op(Op::Xor, l, 0xF, &[Ctx::reg(l), Ctx::reg(h)]);
    // h = the left keys (high 0, low 0, high 1, low 1), t = the right ones; DMAX compares b < a.
    let (left, right) = if op == Opcode::Dmax {
        ([1, 3], [0, 2])
    } else {
        ([0, 2], [1, 3])
    };
    let pick = |c: &mut Ctx, dst: u8, [p0, p1]: [u8; 2]| {
        c.op(Op::Mov, dst, X_Z, &[reg(s, [p0, p0, p1, p1])]);
        c.op(Op::Mov, dst, Y_W, &[reg(l, [p0, p0, p1, p1])]);
    };
    pick(c, h, left);
    pick(c, t, right);
    // A NaN on either side: keys made equal (nothing is less), for DSEQ different.
    c.op(
        Op::Or,
        n,
        0xF,
        &[reg(n, [0, 0, 2, 2]), reg(n, [1, 1, 3, 3])],
    );
    if op == Opcode::Dseq {
        c.op(Op::Or, h, 0xF, &[Ctx::reg(h), Ctx::reg(n)]);
        c.op(Op::Not, n, 0xF, &[Ctx::reg(n)]);
        c.op(Op::And, t, 0xF, &[Ctx::reg(t), Ctx::reg(n)]);
    } else {
        c.op(Op::Not, n, 0xF, &[Ctx::reg(n)]);
        c.op(Op::And, h, 0xF, &[Ctx::reg(h), Ctx::reg(n)]);
        c.op(Op::And, t, 0xF, &[Ctx::reg(t), Ctx::reg(n)]);
    }
    // s = -1 where the words differ.
    c.op(Op::Xor, s, 0xF, &[Ctx::reg(h), Ctx::reg(t)]);
    let one = c.lit(ONE, false)?;
    let d = c.dst(inst)?;
    if op == Opcode::Dseq {
        c.ineg(l, 0xF, Ctx::reg(s))?;
        c.op(Op::Or, s, 0xF, &[Ctx::reg(s), Ctx::reg(l)]);
        c.op(
            Op::Or,
            s,
            0xF,
            &[reg(s, [0, 0, 2, 2]), reg(s, [1, 1, 3, 3])],
        );
        c.op(Op::Not, s, 0xF, &[Ctx::reg(s)]);
        c.op(Op::Shr, s, 0xF, &[Ctx::reg(s), thirty_one]);
        c.fin(Op::And, d, 0xF, &[Ctx::reg(s), one]);
        return Ok(());
    }
    // n = -1 where left < right as unsigned words: the borrow of left - right,
    // ((!x & y) | (!(x ^ y) & (x - y))) >> 31.
    c.op(Op::Isub, l, 0xF, &[Ctx::reg(h), Ctx::reg(t)]);
    c.op(Op::Not, n, 0xF, &[Ctx::reg(s)]);
    c.op(Op::And, n, 0xF, &[Ctx::reg(n), Ctx::reg(l)]);
    c.op(Op::Not, l, 0xF, &[Ctx::reg(h)]);
    c.op(Op::And, l, 0xF, &[Ctx::reg(l), Ctx::reg(t)]);
    c.op(Op::Or, n, 0xF, &[Ctx::reg(n), Ctx::reg(l)]);
    c.op(Op::Shr, n, 0xF, &[Ctx::reg(n), thirty_one]);
    // s = -1 where the high words are equal; h = less: high less, or high equal and low less.
    c.ineg(l, 0xF, Ctx::reg(s))?;
    c.op(Op::Or, s, 0xF, &[Ctx::reg(s), Ctx::reg(l)]);
    c.op(Op::Not, s, 0xF, &[reg(s, [0, 0, 2, 2])]);
    c.op(Op::Shr, s, 0xF, &[Ctx::reg(s), thirty_one]);
    c.op(Op::And, h, 0xF, &[Ctx::reg(s), reg(n, [1, 1, 3, 3])]);
    c.op(Op::Or, h, 0xF, &[Ctx::reg(h), reg(n, [0, 0, 2, 2])]);
    if op == Opcode::Dslt {
        c.fin(Op::And, d, 0xF, &[Ctx::reg(h), one]);
        return Ok(());
    }
    // DMIN: less ? a : b; DMAX: (b < a) ? a : b; bits kept, word by word through the mask.
    c.op(Op::Mov, s, X_Z, &[raw(a)]);
    c.op(Op::Mov, s, Y_W, &[high(a)]);
    c.op(Op::Mov, l, X_Z, &[raw(b)]);
    c.op(Op::Mov, l, Y_W, &[high(b)]);
    c.op(Op::And, s, 0xF, &[Ctx::reg(s), Ctx::reg(h)]);
    c.op(Op::Not, h, 0xF, &[Ctx::reg(h)]);
    c.op(Op::And, l, 0xF, &[Ctx::reg(l), Ctx::reg(h)]);
    c.fin(Op::Or, d, 0xF, &[Ctx::reg(s), Ctx::reg(l)]);
    Ok(())
}

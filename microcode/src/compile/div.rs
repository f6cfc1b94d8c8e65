//! Division without the divider: DIV, RCP, RCC, TXP's and ExtDivide's `/ w`, CUBE's `/ |ma|`,
//! RFL's quotient and MOD as sequences of the operations every build has (multiply-adds,
//! compares, selects, `MANT`, `EXPN`, `EXPX`, `RNDE`, `ISGN`; MOD on the integer ALU), giving
//! exactly the divider's bits; and the unpack opcodes' divisions by `2^k - 1`, which need no
//! divider on any build.
//!
//! Float division is [`crate::arith::div_steps::fdiv_steps`] written out as core instructions,
//! one per step, so the sequence computes `fdiv`'s bits (`sim/tests/div_sequence.rs` checks it on
//! the core model, `hw_cross.rs` on the hardware). The sequence works on several divisions at
//! once: a value of the sequence is one component per division of a scratch register (a group
//! of `k` divisions), or one component for all of them when they share the divisor (TXP,
//! ExtDivide, CUBE, a DIV by one component). Its registers grow with `k` (seven for four
//! divisions with their own divisors, four for three sharing one, two for one division), so a
//! program that leaves fewer registers free divides in smaller groups one after the other,
//! into a result register; one that cannot spare two registers keeps the divider's DIV (which a
//! build without the divider faults on, as before). A program whose instructions cannot hold a
//! sequence per division calls one shared routine instead ([`DivMode::Routine`], `compile`'s
//! retry: compiled once after END like the binary64 library, on three reserved registers, one
//! quotient per call); one that cannot spare those either keeps the divider's operations. Divisions reading the same operand
//! components are computed once (RCP: one division written to every component). Where the
//! compiler knows a sign (a literal, an absolute value) the sign steps go, and a numerator of
//! +-1 (RCP) skips its significand and exponent steps.
//!
//! Lengths (16 clocks each, whatever the group size): DIV 52 instructions, RCP 44, a quotient
//! by a known positive divisor (CUBE) 47. MOD is [`crate::arith::div_steps::imod_steps`]: 8
//! integer operations per quotient bit, four bits per pass of a loop closed by `SETP` + `JMPP`
//! (every lane runs the same 8 passes). The unpack opcodes' `/ (2^k - 1)` is
//! [`crate::arith::div_steps::fdiv_by_mersenne`]: three multiply-adds.

use super::operand::{ONE, ZERO};
use super::trans::Last;
use super::{CompileError, Ctx};
use crate::arith::bits::SIGN_BIT;
use crate::arith::div_steps::{mersenne_constants, DIV_K};
use crate::core::config::Features;
use crate::core::isa::{Cond, DstKind, Instr, Op, Operand, SrcFile, SWZ_ONE, SWZ_ZERO};

/// Where a value of a sequence lives: register `reg`, component `comp[j]` for the group's
/// division `j` (a value shared by the divisions: the same component for all).
#[derive(Clone, Copy, Debug)]
struct Var {
    reg: u8,
    comp: [u8; 4],
}

/// A source of an instruction of a sequence, read in the components of the value it writes.
#[derive(Clone, Copy)]
enum Arg {
    /// A value, negated when the flag is set.
    V(Var, bool),
    /// The same in every component: a literal or a compiler constant.
    K(Operand),
    /// The first operand (numerator, MOD's dividend).
    Num,
    /// The second operand (divisor).
    Den,
}

fn v(x: Var) -> Arg {
    Arg::V(x, false)
}

fn nv(x: Var) -> Arg {
    Arg::V(x, true)
}

/// Placement of the values of a sequence: `per` values of one component per division (`k`
/// divisions) and `shared` values of one component, packed into as few registers as possible.
/// Returns the register (an index from 0) and components of each, the per-division values
/// first, and the number of registers.
fn pack(k: usize, per: usize, shared: usize) -> (Vec<(usize, [u8; 4])>, usize) {
    // Per-division values take aligned blocks (k = 2: xy or zw), so that two of them use either
    // the same component for each division or disjoint ones: a predicate written for one
    // serves the other.
    let step = match k {
        1 => 1,
        2 => 2,
        _ => 4,
    };
    let block = (1u8 << k) - 1;
    let mut free: Vec<u8> = Vec::new();
    let mut out = Vec::with_capacity(per + shared);
    for _ in 0..per {
        let found = free.iter().enumerate().find_map(|(r, &f)| {
            (0..4)
                .step_by(step)
                .find(|&s| f & (block << s) == block << s)
                .map(|s| (r, s))
        });
        let (r, s) = found.unwrap_or_else(|| {
            free.push(0xF);
            (free.len() - 1, 0)
        });
        free[r] &= !(block << s);
        let mut comp = [0u8; 4];
        for (j, c) in comp.iter_mut().enumerate().take(k) {
            *c = (s + j) as u8;
        }
        out.push((r, comp));
    }
    for _ in 0..shared {
        let r = free.iter().position(|&f| f != 0).unwrap_or_else(|| {
            free.push(0xF);
            free.len() - 1
        });
        let c = free[r].trailing_zeros() as u8;
        free[r] &= !(1 << c);
        out.push((r, [c; 4]));
    }
    let n = free.len();
    (out, n)
}

/// The sequences' values: the division's (`fdiv_steps`' names) and MOD's.
const DIV_PER: usize = 7;
const DIV_SHARED_PER: usize = 4;
const DIV_SHARED: usize = 4;
const MOD_PER: usize = 4;
const MOD_SHARED: usize = 1;

/// Quotient bits per pass of MOD's loop (32 bits in all).
const MOD_BITS_PER_PASS: usize = 4;

#[derive(Clone, Copy)]
struct DivVars {
    mb: Var,
    y: Var,
    mh: Var,
    ml: Var,
    a: Var,
    d1: Var,
    d0: Var,
    r: Var,
}

impl DivVars {
    /// The values on `regs` for `k` divisions, the divisor's values shared or not.
    fn place(regs: &[u8], k: usize, shared: bool) -> DivVars {
        let at = |(r, comp): (usize, [u8; 4])| Var { reg: regs[r], comp };
        if shared {
            let (p, _) = pack(k, DIV_SHARED_PER, DIV_SHARED);
            let p: Vec<Var> = p.into_iter().map(at).collect();
            DivVars {
                a: p[0],
                d1: p[1],
                d0: p[2],
                r: p[3],
                mb: p[4],
                y: p[5],
                mh: p[6],
                ml: p[7],
            }
        } else {
            // The second digit takes y's place: y is last read by its estimate.
            let (p, _) = pack(k, DIV_PER, 0);
            let p: Vec<Var> = p.into_iter().map(at).collect();
            DivVars {
                a: p[0],
                d1: p[1],
                r: p[2],
                mb: p[3],
                y: p[4],
                d0: p[4],
                mh: p[5],
                ml: p[6],
            }
        }
    }

    fn registers(k: usize, shared: bool) -> usize {
        if shared {
            pack(k, DIV_SHARED_PER, DIV_SHARED).1
        } else {
            pack(k, DIV_PER, 0).1
        }
    }
}

/// The divisions of one request: the distinct pairs of operand components among the output
/// components of `mask`.
struct Divisions {
    /// Operand component of each distinct division.
    rep: Vec<usize>,
    /// (output component, its division).
    outputs: Vec<(usize, usize)>,
    /// Every division reads the same divisor component.
    shared: bool,
}

impl Divisions {
    fn of(num: Operand, den: Operand, mask: u8) -> Divisions {
        // A literal reads the same value in every component.
        let key = |o: Operand, c: usize| {
            let swz = if o.file == SrcFile::L {
                o.swz[c].max(3)
            } else {
                o.swz[c]
            };
            (swz, (o.neg >> c) & 1)
        };
        let mut rep: Vec<usize> = Vec::new();
        let mut outputs = Vec::new();
        for c in (0..4).filter(|c| mask & (1 << c) != 0) {
            let j = rep
                .iter()
                .position(|&r| key(num, r) == key(num, c) && key(den, r) == key(den, c))
                .unwrap_or_else(|| {
                    rep.push(c);
                    rep.len() - 1
                });
            outputs.push((c, j));
        }
        let shared = rep.iter().all(|&r| key(den, r) == key(den, rep[0]));
        Divisions {
            rep,
            outputs,
            shared,
        }
    }
}

/// Emits the instructions of one group of divisions (or remainders).
struct Group<'c, 'a> {
    c: &'c mut Ctx<'a>,
    num: Operand,
    den: Operand,
    /// Operand component of each division of the group.
    rep: Vec<usize>,
}

impl Group<'_, '_> {
    fn k(&self) -> usize {
        self.rep.len()
    }

    /// The operand reading `a` into the components of `dst`.
    fn operand(&self, a: Arg, dst: Var) -> Operand {
        let side = |o: Operand| {
            let mut r = Operand { neg: 0, ..o };
            for (j, &from) in self.rep.iter().enumerate() {
                let to = usize::from(dst.comp[j]);
                r.swz[to] = o.swz[from];
                r.neg |= ((o.neg >> from) & 1) << to;
            }
            r
        };
        match a {
            Arg::K(o) => o,
            Arg::Num => side(self.num),
            Arg::Den => side(self.den),
            Arg::V(x, negate) => {
                let mut swz = [0, 1, 2, 3];
                for j in 0..self.k() {
                    swz[usize::from(dst.comp[j])] = x.comp[j];
                }
                Operand {
                    file: SrcFile::R,
                    index: x.reg,
                    swz,
                    neg: if negate { 0xF } else { 0 },
                    abs: false,
                }
            }
        }
    }

    fn instr(&self, op: Op, dst: Var, args: &[Arg]) -> Instr {
        let mut i = Instr::new(op);
        // SETP writes P, not `dst.reg`: the field stays 0 so that a listing shows every field.
        if op.info().dst == DstKind::Reg {
            i.dst = dst.reg;
        }
        i.wmask = (0..self.k()).fold(0, |m, j| m | 1 << dst.comp[j]);
        for (s, &a) in i.src.iter_mut().zip(args) {
            *s = self.operand(a, dst);
        }
        i
    }

    fn op(&mut self, op: Op, dst: Var, args: &[Arg]) -> usize {
        let i = self.instr(op, dst, args);
        self.c.emit(i)
    }

    fn cmp(&mut self, op: Op, cond: Cond, dst: Var, a: Arg, b: Arg) -> usize {
        let mut i = self.instr(op, dst, &[a, b]);
        i.cond = cond;
        self.c.emit(i)
    }

    /// `SET`: 1.0 where the comparison holds, else 0.0.
    fn set(&mut self, cond: Cond, dst: Var, a: Arg, b: Arg) {
        self.cmp(Op::Set, cond, dst, a, b);
    }

    /// `SETP` into the predicate components of `at` (what a SEL writing `at` reads).
    fn setp(&mut self, cond: Cond, at: Var, a: Arg, b: Arg) {
        self.cmp(Op::Setp, cond, at, a, b);
    }

    /// SETP into the predicate components of two values whose components either coincide per
    /// division or are disjoint ([`pack`]), so that one comparison serves both.
    fn setp2(&mut self, cond: Cond, at: [Var; 2], a: Arg, b: Arg) {
        let [p, q] = at.map(|x| {
            let mut i = self.instr(Op::Setp, x, &[a, b]);
            i.cond = cond;
            i
        });
        let mut i = p;
        for c in (0..4).filter(|c| q.wmask & (1 << c) != 0) {
            for (s, o) in i.src.iter_mut().zip(q.src).take(2) {
                s.swz[c] = o.swz[c];
                s.neg = (s.neg & !(1 << c)) | (o.neg & (1 << c));
            }
        }
        i.wmask |= q.wmask;
        self.c.emit(i);
    }

    fn k_const(&mut self, slot: usize, c: u8) -> Arg {
        Arg::K(self.c.seq_k(DIV_K[slot], c))
    }

    fn lit(&self, bits: u32, negate: bool) -> Result<Arg, CompileError> {
        Ok(Arg::K(self.c.lit(bits, negate)?))
    }

    /// The bits component `c` of `o` reads when the compiler knows them: a swizzle's 0.0 or 1.0
    /// selector or a literal, with the operand's absolute and negate.
    fn constant(&self, o: Operand, c: usize) -> Option<u32> {
        let bits = match o.swz[c] {
            SWZ_ZERO => 0,
            SWZ_ONE => ONE,
            _ if o.file == SrcFile::L => *self.c.config.literals.get(usize::from(o.index))?,
            _ => return None,
        };
        let bits = if o.abs { bits & !SIGN_BIT } else { bits };
        Some(if (o.neg >> c) & 1 != 0 {
            bits ^ SIGN_BIT
        } else {
            bits
        })
    }

    /// The sign bit of component `c` of `o` when the compiler knows it (a constant, an
    /// absolute value).
    fn known_sign(&self, o: Operand, c: usize) -> Option<bool> {
        match self.constant(o, c) {
            Some(bits) => Some(bits & SIGN_BIT != 0),
            None => o.abs.then_some((o.neg >> c) & 1 != 0),
        }
    }

    /// The known signs of one side's divisions, or none when any is not known (the sign steps
    /// then compute them all).
    fn signs(&self, o: Operand) -> Option<Vec<bool>> {
        self.rep.iter().map(|&c| self.known_sign(o, c)).collect()
    }

    /// `mb = MANT(den)`, `y ~ 1/mb`, `mb = mh + ml`.
    fn divisor(&mut self, x: &DivVars) -> Result<(), CompileError> {
        let (one, minus_one) = (self.lit(ONE, false)?, self.lit(ONE, true)?);
        let (seed_a, seed_b) = (self.k_const(0, 0), self.k_const(0, 1));
        let split = self.c.seq_k(DIV_K[0], 2);
        let (split, minus_split) = (Arg::K(split), Arg::K(Operand { neg: 0xF, ..split }));
        // The Newton steps' residual waits in the first digit's place.
        let t = x.d1;
        self.op(Op::Mant, x.mb, &[Arg::Den]);
        self.op(Op::Fmad, x.y, &[v(x.mb), seed_a, seed_b]);
        for _ in 0..2 {
            self.op(Op::Fmad, t, &[v(x.mb), v(x.y), minus_one]);
            self.op(Op::Fmad, x.y, &[nv(x.y), v(t), v(x.y)]);
        }
        self.op(Op::Fmad, x.mh, &[v(x.mb), one, split]);
        self.op(Op::Fmad, x.mh, &[v(x.mh), one, minus_split]);
        self.op(Op::Fmad, x.ml, &[v(x.mh), minus_one, v(x.mb)]);
        Ok(())
    }

    /// One signed digit into `d` of the partial dividend in `x.a`, its remainder into `x.r`.
    fn digit(&mut self, x: &DivVars, d: Var) -> Result<(), CompileError> {
        let mzero = self.lit(ZERO, true)?;
        self.op(Op::Fmad, d, &[v(x.a), v(x.y), mzero]);
        self.op(Op::Rnde, d, &[v(d)]);
        self.op(Op::Fmad, x.r, &[v(d), nv(x.mh), v(x.a)]);
        self.op(Op::Fmad, x.r, &[v(d), nv(x.ml), v(x.r)]);
        Ok(())
    }

    /// The dividend's steps (after [`Self::divisor`]) up to the last instruction, `q * 2^E`,
    /// whose operands it returns for the `outputs` (output component, division of the group).
    fn dividend(
        &mut self,
        x: &DivVars,
        outputs: &[(usize, usize)],
    ) -> Result<[Operand; 3], CompileError> {
        let one = self.lit(ONE, false)?;
        let minus_one = self.lit(ONE, true)?;
        let zero = self.lit(ZERO, false)?;
        let mzero = self.lit(ZERO, true)?;
        // A numerator of +-1 (RCP): its significand is 1, its exponent 0.
        let unit = self
            .rep
            .iter()
            .all(|&c| self.constant(self.num, c).map(|b| b & !SIGN_BIT) == Some(ONE));
        let [split, num_scale] = [2, 3].map(|c| self.k_const(0, c));
        let [q_scale, exp_scale, exp_bias, n_max] = [0, 1, 2, 3].map(|c| self.k_const(1, c));
        let e_min = self.k_const(2, 0);
        // The dividend, doubled below mb (the doubling flag waits in d1), times 2^11.
        if unit {
            self.set(Cond::Lt, x.d1, one, v(x.mb));
            self.op(Op::Fmad, x.a, &[v(x.d1), num_scale, num_scale]);
        } else {
            self.op(Op::Mant, x.a, &[Arg::Num]);
            self.set(Cond::Lt, x.d1, v(x.a), v(x.mb));
            self.op(Op::Fmad, x.a, &[v(x.a), v(x.d1), v(x.a)]);
            self.op(Op::Fmad, x.a, &[v(x.a), num_scale, mzero]);
        }
        self.digit(x, x.d1)?;
        self.op(Op::Fmad, x.a, &[v(x.r), split, mzero]);
        self.digit(x, x.d0)?;
        // The truncated quotient N in d1 (the remainder made non-negative), the rounding in d0.
        self.op(Op::Fmad, x.d1, &[v(x.d1), split, v(x.d0)]);
        self.set(Cond::Lt, x.a, v(x.r), zero);
        self.op(Op::Fmad, x.d1, &[v(x.a), minus_one, v(x.d1)]);
        self.op(Op::Fmad, x.r, &[v(x.a), v(x.mb), v(x.r)]);
        self.op(Op::Fmad, x.d0, &[v(x.r), minus_one, v(x.mb)]);
        self.set(Cond::Gt, x.d0, v(x.r), v(x.d0));
        // The exponent E into r (the doubling test again: no register kept it).
        if unit {
            self.set(Cond::Lt, x.a, one, v(x.mb));
            self.op(Op::Expn, x.r, &[Arg::Den]);
            self.op(Op::Fmad, x.r, &[v(x.a), minus_one, nv(x.r)]);
        } else {
            self.op(Op::Mant, x.a, &[Arg::Num]);
            self.set(Cond::Lt, x.a, v(x.a), v(x.mb));
            self.op(Op::Expn, x.r, &[Arg::Num]);
            self.op(Op::Fmad, x.r, &[v(x.a), minus_one, v(x.r)]);
            self.op(Op::Expn, x.a, &[Arg::Den]);
            self.op(Op::Fmad, x.r, &[v(x.a), minus_one, v(x.r)]);
        }
        // (E + 127) 2^24 + N in a: 2^24 - 1 exactly where the result rounds up to 2^-126.
        self.op(Op::Fmad, x.a, &[v(x.r), exp_scale, exp_bias]);
        self.op(Op::Fmad, x.a, &[v(x.d1), one, v(x.a)]);
        // q = (N + up) 2^-23, NaN (special operands) made 1; in that case q = 1, E = -126.
        self.op(Op::Fmad, x.d1, &[v(x.d0), one, v(x.d1)]);
        self.op(Op::Fmad, x.d1, &[v(x.d1), q_scale, mzero]);
        self.op(Op::Max, x.d1, &[v(x.d1), one]);
        self.setp2(Cond::Eq, [x.d1, x.r], v(x.a), n_max);
        self.op(Op::Sel, x.d1, &[one, v(x.d1)]);
        self.op(Op::Sel, x.r, &[e_min, v(x.r)]);
        // The sign: q negated where the operands' sign bits differ (ISGN sees a zero's);
        // signs the compiler knows negate the last multiply's operand instead.
        let (num_sign, den_sign) = (self.signs(self.num), self.signs(self.den));
        match (&num_sign, &den_sign) {
            (None, None) => {
                self.op(Op::Isgn, x.a, &[Arg::Num]);
                self.set(Cond::Lt, x.a, v(x.a), zero);
                self.op(Op::Isgn, x.d0, &[Arg::Den]);
                self.set(Cond::Lt, x.d0, v(x.d0), zero);
                self.setp(Cond::Ne, x.d1, v(x.a), v(x.d0));
                self.op(Op::Sel, x.d1, &[nv(x.d1), v(x.d1)]);
            }
            (None, Some(_)) | (Some(_), None) => {
                let side = if num_sign.is_none() {
                    Arg::Num
                } else {
                    Arg::Den
                };
                self.op(Op::Isgn, x.a, &[side]);
                self.setp(Cond::Lt, x.d1, v(x.a), zero);
                self.op(Op::Sel, x.d1, &[nv(x.d1), v(x.d1)]);
            }
            (Some(_), Some(_)) => {}
        }
        self.op(Op::Expx, x.r, &[v(x.r)]);
        // The last multiply's operands: output component c reads its division's components,
        // a known negative sign as its negate bit.
        let known = |s: &Option<Vec<bool>>, j: usize| s.as_ref().is_some_and(|s| s[j]);
        let mut q = Ctx::reg(x.d1.reg);
        let mut p = Ctx::reg(x.r.reg);
        for &(c, j) in outputs {
            q.swz[c] = x.d1.comp[j];
            p.swz[c] = x.r.comp[j];
            if known(&num_sign, j) ^ known(&den_sign, j) {
                q.neg |= 1 << c;
            }
        }
        Ok([q, p, self.c.lit(ZERO, true)?])
    }
}

/// How a compilation divides on a build without the divider: `compile` tries them in this
/// order, the next when the program's instructions cannot hold the previous.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DivMode {
    /// Each division instruction gets its own sequence (the fastest).
    Inline,
    /// Division instructions call one shared routine, one quotient per call (MOD stays inline).
    Routine,
    /// The divider's operations (a build without it faults on them; the core model runs them).
    Divider,
}

/// Registers of R the shared division routine reserves: its values (the layout of one
/// quotient) and a register for its arguments and result.
pub(crate) const ROUTINE_REGISTERS: usize = 3;

/// The shared division routine of one compilation ([`DivMode::Routine`]).
#[derive(Default)]
pub(crate) struct DivRoutine {
    /// First of its registers.
    pub base: Option<u8>,
    /// CAL instructions to patch.
    calls: Vec<usize>,
}

impl DivRoutine {
    /// Nesting it adds to the call and mask stacks: one call, when the program calls it.
    pub(crate) fn depth(&self) -> usize {
        usize::from(!self.calls.is_empty())
    }

    /// The argument and result register: numerator in x, divisor in y, quotient in z.
    fn args(&self) -> Option<u8> {
        self.base.map(|b| b + 2)
    }
}

/// How a request's groups are laid out.
struct Layout {
    /// Divisions per group.
    k: usize,
    /// Registers of the groups' values.
    regs: Vec<u8>,
    /// Where the groups' results gather when there is more than one group.
    result: Option<u8>,
}

impl Ctx<'_> {
    /// Whether divisions are sequences: the build has no divider and the program's
    /// instructions leave room for them (`compile`'s retries: [`DivMode`]).
    pub(crate) fn divides_by_sequence(&self) -> bool {
        !self.config.has(Features::DIVIDER) && self.div_mode != DivMode::Divider
    }

    /// Free registers for the current instruction's scratch.
    fn free_registers(&self) -> usize {
        usize::from(self.config.registers)
            .saturating_sub(self.alloc.fixed_registers + self.scratch_used)
    }

    /// The largest groups of `n` divisions (each taking `regs(k)` registers) that fit the free
    /// registers, with a result register when it takes more than one group.
    fn layout(&mut self, n: usize, regs: impl Fn(usize) -> usize) -> Option<Layout> {
        let free = self.free_registers();
        let k = (1..=n)
            .rev()
            .find(|&k| regs(k) + usize::from(k < n) <= free)?;
        let result = (k < n).then(|| self.scratch());
        let regs = (0..regs(k)).map(|_| self.scratch()).collect();
        Some(Layout { k, regs, result })
    }

    /// `num.c / den.c` for the components c of `mask`, correctly rounded as `fdiv`, without the
    /// divider. Returns the last instruction for the caller to write into components `mask` of
    /// its destination (with its modifiers); `None` when the build has the divider or the
    /// program cannot spare two registers: the caller then emits the divider's DIV.
    pub(crate) fn quotient(
        &mut self,
        num: Operand,
        den: Operand,
        mask: u8,
    ) -> Result<Option<Last>, CompileError> {
        if !self.divides_by_sequence() || mask & 0xF == 0 {
            return Ok(None);
        }
        let d = Divisions::of(num, den, mask);
        if let Some(args) = self.div_routine.args() {
            return self.quotient_by_routine(num, den, &d, args).map(Some);
        }
        let shared = d.shared;
        let Some(layout) = self.layout(d.rep.len(), |k| DivVars::registers(k, shared)) else {
            return Ok(None);
        };
        let x = DivVars::place(&layout.regs, layout.k, shared);
        let mut last = None;
        for (g, rep) in d.rep.chunks(layout.k).enumerate() {
            let first = g * layout.k;
            let outputs: Vec<(usize, usize)> = d
                .outputs
                .iter()
                .filter(|&&(_, j)| j >= first && j < first + rep.len())
                .map(|&(c, j)| (c, j - first))
                .collect();
            let mut group = Group {
                c: self,
                num,
                den,
                rep: rep.to_vec(),
            };
            // A shared divisor's values stay for the next groups.
            if g == 0 || !shared {
                group.divisor(&x)?;
            }
            let src = group.dividend(&x, &outputs)?;
            match layout.result {
                Some(t) => {
                    let m = outputs.iter().fold(0, |m, &(c, _)| m | 1 << c);
                    self.op(Op::Fmad, t, m, &src);
                }
                None => last = Some((Op::Fmad, src)),
            }
        }
        Ok(Some(match (layout.result, last) {
            (None, Some(l)) => l,
            (Some(t), _) => (
                Op::Mov,
                [Ctx::reg(t), Operand::default(), Operand::default()],
            ),
            (None, None) => return Err(self.internal("a division without groups")),
        }))
    }

    /// [`Self::quotient`] by calls of the shared routine: per distinct division the operands
    /// into its argument register, a CAL, and the quotient gathered in a scratch register when
    /// there are several.
    fn quotient_by_routine(
        &mut self,
        num: Operand,
        den: Operand,
        d: &Divisions,
        args: u8,
    ) -> Result<Last, CompileError> {
        let splat = super::operand::splat;
        let gather = (d.rep.len() > 1).then(|| self.scratch());
        for (j, &c) in d.rep.iter().enumerate() {
            self.op(Op::Mov, args, 0b0001, &[splat(num, c)]);
            self.op(Op::Mov, args, 0b0010, &[splat(den, c)]);
            let pc = self.emit(Instr::new(Op::Cal));
            self.div_routine.calls.push(pc);
            if let Some(t) = gather {
                let m = d
                    .outputs
                    .iter()
                    .filter(|o| o.1 == j)
                    .fold(0, |m, &(c, _)| m | 1 << c);
                self.op(Op::Mov, t, m, &[splat(Ctx::reg(args), 2)]);
            }
        }
        let q = gather.map_or(splat(Ctx::reg(args), 2), Ctx::reg);
        Ok((Op::Mov, [q, Operand::default(), Operand::default()]))
    }

    /// Appends the shared division routine after the program (when it is called) and patches
    /// its calls: one quotient, argument register x / y into z, then ENDSUB.
    pub(crate) fn div_routine_emit(&mut self) -> Result<(), CompileError> {
        let Some(base) = self.div_routine.base else {
            return Ok(());
        };
        if self.div_routine.calls.is_empty() {
            return Ok(());
        }
        let args = base + 2;
        // Origin DIVISION_ORIGIN: the routine belongs to no one TGSI instruction.
        self.index = usize::from(crate::core::image::DIVISION_ORIGIN);
        let start = self.code.len();
        let x = DivVars::place(&[base, base + 1], 1, false);
        let arg = |c: u8| Operand {
            swz: [c; 4],
            ..Ctx::reg(args)
        };
        let mut group = Group {
            c: self,
            num: arg(0),
            den: arg(1),
            rep: vec![0],
        };
        group.divisor(&x)?;
        let src = group.dividend(&x, &[(2, 0)])?;
        self.op(Op::Fmad, args, 0b0100, &src);
        self.emit(Instr::new(Op::Endsub));
        for pc in self.div_routine.calls.clone() {
            self.code[pc].target = Self::target(start);
        }
        Ok(())
    }

    /// Writes `num.c / den.c` into the components `mask` of register `dst`: the sequence
    /// ([`Self::quotient`]; its scratch registers are free again afterwards) or the divider's
    /// DIV.
    pub(crate) fn divide_into(
        &mut self,
        dst: u8,
        mask: u8,
        num: Operand,
        den: Operand,
    ) -> Result<(), CompileError> {
        let mark = self.scratch_used;
        match self.quotient(num, den, mask)? {
            Some((op, src)) => {
                self.op(op, dst, mask, &src);
            }
            None => {
                self.op(Op::Div, dst, mask, &[num, den]);
            }
        }
        self.scratch_used = mark;
        Ok(())
    }

    /// Writes `1 / x.c` into the components `mask` of register `dst` (RCC's reciprocals): the
    /// sequence (a division of 1) or the divider's RCP.
    pub(crate) fn reciprocal_into(
        &mut self,
        dst: u8,
        mask: u8,
        x: Operand,
    ) -> Result<(), CompileError> {
        let mark = self.scratch_used;
        let one = self.lit(ONE, false)?;
        match self.quotient(one, x, mask)? {
            Some((op, src)) => {
                self.op(op, dst, mask, &src);
            }
            None => {
                self.op(Op::Rcp, dst, mask, &[x]);
            }
        }
        self.scratch_used = mark;
        Ok(())
    }

    /// `x / (2^k - 1)` (`x` an integer with `|x| <= 2^k`, read from register `x`), correctly
    /// rounded, as `arith::div_steps::fdiv_by_mersenne`: two multiply-adds into a scratch
    /// register, and the last one, which it returns for the caller to write.
    pub(crate) fn mersenne_quotient(&mut self, x: u8, k: u32) -> Result<Last, CompileError> {
        let [m, pk] = mersenne_constants(k);
        let kq = self.seq_k([m, pk, 0, 0], 0);
        let kp = self.seq_k([m, pk, 0, 0], 1);
        let mzero = self.lit(ZERO, true)?;
        let t = self.scratch();
        self.op(Op::Fmad, t, 0xF, &[Ctx::reg(x), kq, mzero]);
        self.op(Op::Fmad, t, 0xF, &[Ctx::reg(t), kp, Ctx::reg(x)]);
        Ok((Op::Fmad, [Ctx::reg(t), kp, mzero]))
    }

    /// MOD of the integer operands `a` and `b` into components `mask` of `dst`: the divider's
    /// IMOD, or without it `arith::div_steps::imod_steps` on the integer ALU (a build without
    /// that either faults naming it), or the divider's IMOD when the program cannot spare two
    /// registers.
    pub(crate) fn remainder_into(
        &mut self,
        dst: u8,
        mask: u8,
        a: Operand,
        b: Operand,
    ) -> Result<(), CompileError> {
        let d = Divisions::of(a, b, mask);
        let regs = |k| pack(k, MOD_PER, MOD_SHARED).1;
        let layout = if self.divides_by_sequence() && mask & 0xF != 0 {
            self.layout(d.rep.len(), regs)
        } else {
            None
        };
        let Some(layout) = layout else {
            self.op(Op::Imod, dst, mask, &[a, b]);
            return Ok(());
        };
        let [minus_int_one, zero, one, minus_one] = [
            self.lit(0xFFFF_FFFF, false)?,
            self.lit(ZERO, false)?,
            self.lit(ONE, false)?,
            self.lit(ONE, true)?,
        ]
        .map(Arg::K);
        let k31 = Arg::K(self.seq_k([31; 4], 0));
        let passes = ((32 / MOD_BITS_PER_PASS) as f32).to_bits();
        let passes = Arg::K(self.seq_k([passes; 4], 0));
        let (p, _) = pack(layout.k, MOD_PER, MOD_SHARED);
        let at = |i: usize| Var {
            reg: layout.regs[p[i].0],
            comp: p[i].1,
        };
        let (x, r, m, t, n) = (at(0), at(1), at(2), at(3), at(4));
        let mut last = None;
        for (g, rep) in d.rep.chunks(layout.k).enumerate() {
            let first = g * layout.k;
            let mut o = Group {
                c: self,
                num: a,
                den: b,
                rep: rep.to_vec(),
            };
            // Magnitudes (|i32::MIN| is 2^31 as unsigned), remainder 0, the pass counter.
            // |v| = (v ^ s) - s with s = v >> 31 (arithmetic), s in t.
            for (mag, side) in [(m, Arg::Den), (x, Arg::Num)] {
                o.op(Op::Shr, t, &[side, k31]);
                o.op(Op::Xor, mag, &[side, v(t)]);
                o.op(Op::Isub, mag, &[v(mag), v(t)]);
            }
            o.op(Op::Mov, r, &[zero]);
            o.op(Op::Mov, n, &[passes]);
            let start = o.c.code.len();
            for _ in 0..MOD_BITS_PER_PASS {
                // r = 2r + the dividend's top bit; the dividend shifts left.
                o.op(Op::Shr, t, &[v(x), k31]);
                o.op(Op::Iadd, x, &[v(x), v(x)]);
                o.op(Op::Iadd, r, &[v(r), v(r)]);
                o.op(Op::Isub, r, &[v(r), v(t)]);
                // r - B where it fits (r < 2B <= 2^32, so the sign of r - B tells).
                o.op(Op::Isub, t, &[v(r), v(m)]);
                o.op(Op::Shr, r, &[v(t), k31]);
                o.op(Op::And, r, &[v(r), v(m)]);
                o.op(Op::Iadd, r, &[v(r), v(t)]);
            }
            o.op(Op::Fmad, n, &[v(n), one, minus_one]);
            o.setp(Cond::Gt, n, v(n), zero);
            let mut j = Instr::new(Op::Jmpp);
            j.wmask = o.instr(Op::Jmpp, n, &[]).wmask;
            j.target = Ctx::target(start);
            o.c.emit(j);
            // The dividend's sign: (r ^ s) - s; a zero divisor gives 0xFFFFFFFF.
            o.op(Op::Shr, t, &[Arg::Num, k31]);
            o.op(Op::Xor, r, &[v(r), v(t)]);
            o.op(Op::Isub, r, &[v(r), v(t)]);
            o.op(Op::Usgn, t, &[Arg::Den]);
            o.setp(Cond::Eq, r, v(t), zero);
            let pw = o.op(Op::Mov, r, &[minus_int_one]);
            o.c.code[pw].pw = 1;
            let mut src = Ctx::reg(r.reg);
            let mut wmask = 0;
            for &(c, jd) in d
                .outputs
                .iter()
                .filter(|o| o.1 >= first && o.1 < first + rep.len())
            {
                src.swz[c] = r.comp[jd - first];
                wmask |= 1 << c;
            }
            match layout.result {
                Some(res) => {
                    self.op(Op::Mov, res, wmask, &[src]);
                }
                None => last = Some(src),
            }
        }
        let src = match (layout.result, last) {
            (Some(res), _) => Ctx::reg(res),
            (None, Some(s)) => s,
            (None, None) => return Err(self.internal("a remainder without groups")),
        };
        self.op(Op::Mov, dst, mask, &[src]);
        Ok(())
    }
}

//! The binary64 library: DADD, DMUL, DMAD, DDIV, DRCP, DSQRT, DFRAC, DFRACEXP and DLDEXP as
//! integer sequences on the core's integer ALU, compiled once per program as subroutines after
//! its END and called (CAL) from each double instruction.
//!
//! Why subroutines: one correctly rounded binary64 operation is 100-200 core instructions
//! (unpack, alignment with sticky bits, normalisation, rounding on the subnormal grid, packing),
//! against a program memory of 256; shared, the whole library costs each program once, and the
//! parts the operations have in common (unpack, normalise, shift with sticky, round and pack,
//! special operands) once more.
//!
//! Layout: both pairs of a TGSI double operand are computed together, pair 0 in components x
//! (low word) and y (high word), pair 1 in z and w; a 64-bit quantity is one register, a scalar
//! per pair is kept in both of its components (shift counts must sit where they are used).
//! Multi-word arithmetic takes its carries across components through swizzles. The loops
//! (DMUL's shift-and-add, DDIV's and DSQRT's digit recurrences) keep their accumulators in
//! 31-bit limbs (bit 31 of the low word is the carry), count in a float and close with
//! SETP + JMPP, which needs no mask-stack frame since every lane runs the same count.
//!
//! Special operands are found by class: each operand maps to a binary32 representative (+-0,
//! +-1, +-inf or NaN) on which the float unit evaluates the operation; a NaN or infinite
//! representative overrides the integer result (0*inf, inf-inf, 0/0 are NaN by IEEE rules of
//! the float unit), and a zero one makes DDIV's result zero (x / inf); zero operands give a zero
//! significand, which the integer path carries to a zero result (FINISH gives it its sign).
//! The representative is computed first, so that the operands' registers are free for the
//! integer path.
//!
//! The library takes [`REGISTERS`] registers of R (reserved above the program's own registers);
//! a program that cannot spare them, or whose code would not fit with it, gets the model-only
//! `DOP` instead (`double.rs`).

use super::{CompileError, Ctx};
use crate::core::isa::{Cond, Instr, Op, Operand, SrcFile, SWZ_ZERO};

/// Registers of R the library reserves.
pub(crate) const REGISTERS: usize = 8;

/// Nesting the library adds to the call and mask stacks: an operation, its unpack or pack, and
/// the shift with sticky bits inside the pack.
pub(crate) const DEPTH: usize = 3;

// Register roles, relative to the library's base register.
/// First operand (pair bits), and the result; once unpacked, a second 64-bit value (a
/// significand, DDIV's remainder); after PACK the mask "the integer result is not zero".
pub(crate) const A: u8 = 0;
/// Second operand (DFRACEXP: the significand result).
pub(crate) const B: u8 = 1;
/// The working 64-bit value: unpack's input and output, the shifts' operand, pack's input.
const X: u8 = 2;
/// Shift counts; DMUL's accumulator and DDIV's quotient.
const N: u8 = 3;
/// High components: the exponent; low components: the class representative of the result
/// (binary32 +-0, +-1, +-inf or NaN; see REP).
const E: u8 = 4;
/// High components: the result's sign bit; low components: DADD's subtract flag, DMUL's sticky.
const S: u8 = 5;
const T0: u8 = 6;
const T1: u8 = 7;

const LO: u8 = 0b0101;
const HI: u8 = 0b1010;
const ALL: u8 = 0xF;
const Z: u8 = SWZ_ZERO;

/// The library's subroutines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Routine {
    Add,
    Mul,
    Div,
    Sqrt,
    Ldexp,
    FracExp,
    /// B = -trunc(A) (DFRAC's first step).
    TruncNeg,
    /// X (raw pair) -> X significand normalised to bit 52, E exponent.
    Unpack,
    /// X shifted left so that its leading one is at bit N - 127.
    Norm,
    /// X shifted right by N with the lost bits ORed into bit 0.
    Shr,
    /// X (significand, bit 63 clear), E, S -> X rounded and packed.
    Pack,
    /// T1 = class representatives: A's in the high components, B's in the low ones.
    Rep,
    /// Zero results and special classes over X; the result into A.
    Finish,
}

impl Routine {
    /// Routines this one calls.
    fn callees(self) -> &'static [Routine] {
        use Routine::*;
        match self {
            Add => &[Unpack, Norm, Shr, Pack, Rep, Finish],
            Mul | Div | Sqrt => &[Unpack, Pack, Rep, Finish],
            Ldexp => &[Unpack, Pack, Rep, Finish],
            FracExp => &[Unpack, Rep],
            Unpack => &[Norm],
            Pack => &[Norm, Shr],
            TruncNeg | Norm | Shr | Rep | Finish => &[],
        }
    }
}

/// Library state of one compilation.
#[derive(Default)]
pub(crate) struct Lib {
    /// First register of the library's block, when the program uses it.
    pub base: Option<u8>,
    /// CAL instructions to patch: (address, routine).
    calls: Vec<(usize, Routine)>,
}

impl Ctx<'_> {
    /// Emits a CAL of a library routine.
    pub(crate) fn dlib_call(&mut self, r: Routine) {
        let pc = self.emit(Instr::new(Op::Cal));
        self.dlib.calls.push((pc, r));
    }

    /// A library register read with identity swizzle.
    pub(crate) fn dlib_reg(&self, r: u8) -> Operand {
        Ctx::reg(self.dlib.base.unwrap_or(0) + r)
    }

    /// A library register as a write destination.
    pub(crate) fn dlib_dst(&self, r: u8) -> u8 {
        self.dlib.base.unwrap_or(0) + r
    }

    /// Appends the routines the program calls (after its END) and patches the calls.
    pub(crate) fn dlib_emit(&mut self) -> Result<(), CompileError> {
        let Some(base) = self.dlib.base else {
            return Ok(());
        };
        if self.dlib.calls.is_empty() {
            return Ok(());
        }
        // Close over the callees, then emit in a fixed order.
        let mut needed: Vec<Routine> = self.dlib.calls.iter().map(|c| c.1).collect();
        let mut i = 0;
        while i < needed.len() {
            for &r in needed[i].callees() {
                if !needed.contains(&r) {
                    needed.push(r);
                }
            }
            i += 1;
        }
        needed.sort();
        needed.dedup();
        // Origin LIBRARY_ORIGIN: the routines belong to no one TGSI instruction.
        self.index = usize::from(crate::core::image::LIBRARY_ORIGIN);
        // A scratch register taken here (the constant rule's move, `Ctx::emit`) must lie beyond
        // every scratch register of the callers, whose values live across the calls.
        self.scratch_used = self.scratch_max;
        let kbase = self.alloc.constants.len();
        let mut em = Em {
            c: self,
            base,
            kbase,
            pool: Default::default(),
            one: Operand::default(),
        };
        em.one = em.c.lit(super::operand::ONE, false)?;
        let mut starts = Vec::new();
        for r in needed {
            starts.push((r, em.c.code.len()));
            em.routine(r);
        }
        let pool = em.pool.take();
        for chunk in pool.chunks(4) {
            let mut v = [0u32; 4];
            v[..chunk.len()].copy_from_slice(chunk);
            self.alloc.push_data(v);
        }
        for (pc, r) in std::mem::take(&mut self.dlib.calls) {
            let t = starts
                .iter()
                .find(|s| s.0 == r)
                .map(|s| s.1)
                .ok_or_else(|| self.internal(format!("binary64 routine {r:?} missing")))?;
            self.code[pc].target = Self::target(t);
        }
        Ok(())
    }
}

/// The routine emitter: registers relative to the library's base, constants from a pool that
/// becomes K vectors after the library.
struct Em<'a, 'b> {
    c: &'a mut Ctx<'b>,
    base: u8,
    kbase: usize,
    /// Interior mutability: constants are looked up while an instruction's operands are built.
    pool: std::cell::RefCell<Vec<u32>>,
    one: Operand,
}

impl Em<'_, '_> {
    fn rs(&self, r: u8, swz: [u8; 4]) -> Operand {
        Operand {
            swz,
            ..Ctx::reg(self.base + r)
        }
    }
    /// The register as it is.
    fn v(&self, r: u8) -> Operand {
        self.rs(r, [0, 1, 2, 3])
    }
    /// The low words in every component.
    fn lo(&self, r: u8) -> Operand {
        self.rs(r, [0, 0, 2, 2])
    }
    /// The high words in every component.
    fn hi(&self, r: u8) -> Operand {
        self.rs(r, [1, 1, 3, 3])
    }
    /// The low words moved up into the high components (0 below).
    fn up(&self, r: u8) -> Operand {
        self.rs(r, [Z, 0, Z, 2])
    }
    /// The high words moved down into the low components (0 above).
    fn down(&self, r: u8) -> Operand {
        self.rs(r, [1, Z, 3, Z])
    }
    fn zero(&self) -> Operand {
        self.rs(0, [Z; 4])
    }
    fn kop(&self, pos: usize, swz: [u8; 4]) -> Operand {
        Operand {
            file: SrcFile::K,
            index: (self.kbase + pos / 4).min(255) as u8,
            swz,
            neg: 0,
            abs: false,
        }
    }
    /// The constant `v` in every component.
    fn k(&self, v: u32) -> Operand {
        let mut pool = self.pool.borrow_mut();
        let pos = match pool.iter().position(|&p| p == v) {
            Some(p) => p,
            None => {
                pool.push(v);
                pool.len() - 1
            }
        };
        let c = (pos % 4) as u8;
        self.kop(pos, [c; 4])
    }
    /// The pair constant (`lo`, `hi`) in both pairs.
    fn kp(&self, lo: u32, hi: u32) -> Operand {
        let mut pool = self.pool.borrow_mut();
        let found = (0..pool.len() / 2)
            .map(|i| 2 * i)
            .find(|&p| pool[p] == lo && pool.get(p + 1) == Some(&hi));
        let pos = match found {
            Some(p) => p,
            None => {
                if pool.len() % 2 == 1 {
                    pool.push(0);
                }
                pool.extend([lo, hi]);
                pool.len() - 2
            }
        };
        let c = (pos % 4) as u8;
        self.kop(pos, [c, c + 1, c, c + 1])
    }

    fn o(&mut self, op: Op, d: u8, m: u8, src: &[Operand]) {
        self.c.op(op, self.base + d, m, src);
    }

    /// A write only where the predicate is set.
    fn pw(&mut self, op: Op, d: u8, m: u8, src: &[Operand]) {
        let pc = self.c.op(op, self.base + d, m, src);
        self.c.code[pc].pw = 1;
    }

    fn setp(&mut self, cond: Cond, a: Operand, b: Operand) {
        let mut i = Instr::new(Op::Setp);
        i.cond = cond;
        i.src[0] = a;
        i.src[1] = b;
        self.c.emit(i);
    }

    fn call(&mut self, r: Routine) {
        self.c.dlib_call(r);
    }

    fn ret(&mut self) {
        self.c.emit(Instr::new(Op::Endsub));
    }

    /// -1 in the components `m` of `d` where `src` is not 0, else 0 (`t` is clobbered).
    fn nonzero(&mut self, d: u8, m: u8, src: Operand, t: u8) {
        self.o(Op::Isub, t, m, &[self.zero(), src]);
        self.o(Op::Or, d, m, &[src, self.v(t)]);
        self.o(Op::Shr, d, m, &[self.v(d), self.k(31)]);
    }

    /// `d = d ^ ((d ^ v) & mask)`: v where the mask is set (bits kept; `t` is clobbered).
    fn select(&mut self, d: u8, v: Operand, mask: Operand, t: u8) {
        self.o(Op::Xor, t, ALL, &[self.v(d), v]);
        self.o(Op::And, t, ALL, &[self.v(t), mask]);
        self.o(Op::Xor, d, ALL, &[self.v(d), self.v(t)]);
    }

    /// The end of a loop: SETP + JMPP back to `start` while the counter (a float in the low
    /// components of `ctr`) stays above 0 after its decrement.
    fn loop_end(&mut self, start: usize, ctr: u8) {
        let mone = Operand {
            neg: 0xF,
            ..self.one
        };
        self.o(Op::Fmad, ctr, LO, &[self.v(ctr), self.one, mone]);
        self.setp(Cond::Gt, self.lo(ctr), self.zero());
        let mut j = Instr::new(Op::Jmpp);
        j.wmask = 1;
        j.target = Ctx::target(start);
        self.c.emit(j);
    }

    /// Limb form (31-bit low limb) of the value in `r` (below 2^62) shifted left by `s` <= 8.
    fn limbs_in(&mut self, r: u8, s: u32) {
        self.o(Op::Shr, T0, HI, &[self.lo(r), self.k(31 - s)]);
        self.o(Op::And, T0, HI, &[self.v(T0), self.k((1 << (s + 1)) - 1)]);
        self.o(Op::Shl, r, HI, &[self.v(r), self.k(s + 1)]);
        self.o(Op::Or, r, HI, &[self.v(r), self.v(T0)]);
        if s > 0 {
            self.o(Op::Shl, r, LO, &[self.v(r), self.k(s)]);
        }
        self.o(Op::And, r, LO, &[self.v(r), self.k(0x7FFF_FFFF)]);
    }

    /// Back from limb form.
    fn limbs_out(&mut self, r: u8) {
        self.o(Op::Shl, T0, LO, &[self.down(r), self.k(31)]);
        self.o(Op::Shr, r, HI, &[self.v(r), self.k(1)]);
        self.o(Op::Or, r, LO, &[self.v(r), self.v(T0)]);
    }

    /// Limb-form `r <<= 1`.
    fn limbs_shl1(&mut self, r: u8) {
        self.o(Op::Shl, r, ALL, &[self.v(r), self.k(1)]);
        self.limbs_carry(r);
    }

    /// Moves bit 31 of the low limb into the high limb.
    fn limbs_carry(&mut self, r: u8) {
        self.o(Op::Shr, T0, LO, &[self.v(r), self.k(31)]);
        self.o(Op::Isub, r, HI, &[self.v(r), self.up(T0)]);
        self.o(Op::And, r, LO, &[self.v(r), self.k(0x7FFF_FFFF)]);
    }

    /// `X <<= s` for a constant 0 < s < 32.
    fn shl_const(&mut self, r: u8, s: u32) {
        self.o(Op::Shr, T0, HI, &[self.lo(r), self.k(32 - s)]);
        self.o(Op::And, T0, HI, &[self.v(T0), self.k((1 << s) - 1)]);
        self.o(Op::Shl, r, ALL, &[self.v(r), self.k(s)]);
        self.o(Op::Or, r, HI, &[self.v(r), self.v(T0)]);
    }

    /// The sticky bit of a remainder / lost bits in `r` ORed into bit 0 of X.
    fn or_sticky(&mut self, r: u8) {
        self.o(Op::Or, T0, LO, &[self.lo(r), self.hi(r)]);
        self.nonzero(T0, LO, self.v(T0), T1);
        self.o(Op::And, T0, LO, &[self.v(T0), self.k(1)]);
        self.o(Op::Or, X, LO, &[self.v(X), self.v(T0)]);
    }

    /// A = -1 where X is not 0.
    fn nz_mask(&mut self) {
        self.o(Op::Or, T0, ALL, &[self.lo(X), self.hi(X)]);
        self.nonzero(A, ALL, self.v(T0), T1);
    }

    fn routine(&mut self, r: Routine) {
        match r {
            Routine::Norm => self.norm(),
            Routine::Shr => self.shr_sticky(),
            Routine::Unpack => self.unpack(),
            Routine::Pack => self.pack(),
            Routine::Rep => self.rep(),
            Routine::Finish => self.finish(),
            Routine::Add => self.add(),
            Routine::Mul => self.mul(),
            Routine::Div => self.div(),
            Routine::Sqrt => self.sqrt(),
            Routine::Ldexp => self.ldexp(),
            Routine::FracExp => self.frac_exp(),
            Routine::TruncNeg => self.trunc_neg(),
        }
    }

    /// NORM: T0 = 127 + the index of X's leading one (0 for X = 0), from the exact conversions
    /// of X's words split 24 + 8 bits; then X <<= N - T0 and E -= N - T0 (N preloaded with
    /// 127 + the target bit). Clobbers T0, T1.
    fn norm(&mut self) {
        self.o(Op::And, T0, ALL, &[self.v(X), self.k(0xFFFF_FF00)]);
        self.o(Op::And, T1, ALL, &[self.v(X), self.k(0xFF)]);
        self.o(Op::U2f, T0, ALL, &[self.v(T0)]);
        self.o(Op::U2f, T1, ALL, &[self.v(T1)]);
        self.o(Op::Max, T0, ALL, &[self.v(T0), self.v(T1)]);
        self.o(
            Op::Fmad,
            T0,
            HI,
            &[self.v(T0), self.k(0x4F80_0000), self.zero()],
        );
        self.o(Op::Max, T0, ALL, &[self.lo(T0), self.hi(T0)]);
        self.o(Op::Shr, T0, ALL, &[self.v(T0), self.k(23)]);
        self.o(Op::Isub, N, ALL, &[self.v(N), self.v(T0)]);
        self.o(Op::Isub, E, HI, &[self.v(E), self.v(N)]);
        // X <<= N (0..63): words first, then the rest.
        self.o(Op::Shl, T0, ALL, &[self.v(N), self.k(26)]);
        self.o(Op::Shr, T0, ALL, &[self.v(T0), self.k(31)]);
        self.o(Op::Xor, T1, ALL, &[self.v(X), self.up(X)]);
        self.o(Op::And, T1, ALL, &[self.v(T1), self.v(T0)]);
        self.o(Op::Xor, X, ALL, &[self.v(X), self.v(T1)]);
        self.o(Op::Shr, T1, HI, &[self.lo(X), self.k(1)]);
        self.o(Op::And, T1, HI, &[self.v(T1), self.k(0x7FFF_FFFF)]);
        self.o(Op::Xor, T0, HI, &[self.v(N), self.k(31)]);
        self.o(Op::Shr, T1, HI, &[self.v(T1), self.v(T0)]);
        self.o(Op::Shl, X, ALL, &[self.v(X), self.v(N)]);
        self.o(Op::Or, X, HI, &[self.v(X), self.v(T1)]);
        self.ret();
    }

    /// SHR: X >>= N (N >= 0, clamped to 63; X below 2^63), the bits shifted out ORed into
    /// bit 0. Clobbers T0, T1, B (free whenever SHR is called), N.
    fn shr_sticky(&mut self) {
        self.o(Op::I2f, T0, ALL, &[self.v(N)]);
        self.o(Op::Min, T0, ALL, &[self.v(T0), self.k(0x427C_0000)]);
        self.o(Op::F2if, N, ALL, &[self.v(T0)]);
        self.o(Op::Shl, T0, ALL, &[self.v(N), self.k(26)]);
        self.o(Op::Shr, T0, ALL, &[self.v(T0), self.k(31)]);
        // T1 = the bits lost: the low word when N >= 32 ...
        self.o(Op::And, T1, LO, &[self.v(X), self.v(T0)]);
        self.o(Op::Xor, B, ALL, &[self.v(X), self.down(X)]);
        self.o(Op::And, B, ALL, &[self.v(B), self.v(T0)]);
        self.o(Op::Xor, X, ALL, &[self.v(X), self.v(B)]);
        // ... and the low N & 31 bits of what is now the low word.
        self.o(Op::Shl, B, LO, &[self.k(0xFFFF_FFFF), self.v(N)]);
        self.o(Op::Not, B, LO, &[self.v(B)]);
        self.o(Op::And, B, LO, &[self.v(B), self.v(X)]);
        self.o(Op::Or, T1, LO, &[self.v(T1), self.v(B)]);
        // lo = (lo >>> r) | ((hi << 1) << (31 - r)); hi >>= r.
        self.o(Op::Shl, B, LO, &[self.down(X), self.k(1)]);
        self.o(Op::Xor, T0, LO, &[self.v(N), self.k(31)]);
        self.o(Op::Shl, B, LO, &[self.v(B), self.v(T0)]);
        self.o(Op::Shr, T0, LO, &[self.k(0x8000_0000), self.v(N)]);
        self.o(Op::Shl, T0, LO, &[self.v(T0), self.k(1)]);
        self.o(Op::Not, T0, LO, &[self.v(T0)]);
        self.o(Op::Shr, X, ALL, &[self.v(X), self.v(N)]);
        self.o(Op::And, X, LO, &[self.v(X), self.v(T0)]);
        self.o(Op::Or, X, LO, &[self.v(X), self.v(B)]);
        self.nonzero(T1, LO, self.v(T1), T0);
        self.o(Op::And, T1, LO, &[self.v(T1), self.k(1)]);
        self.o(Op::Or, X, LO, &[self.v(X), self.v(T1)]);
        self.ret();
    }

    /// UNPACK: X (raw pair) -> X = significand with its leading one at bit 52, E = exponent
    /// (value = X * 2^(E - 1075)); zero gives X = 0 (and an E of no meaning), infinity and NaN
    /// the exponent 2047 (their results come from the class representatives). Clobbers T0,
    /// T1, N.
    fn unpack(&mut self) {
        self.o(Op::Shr, E, HI, &[self.v(X), self.k(20)]);
        self.o(Op::And, E, HI, &[self.v(E), self.k(0x7FF)]);
        self.o(Op::And, X, HI, &[self.v(X), self.k(0xF_FFFF)]);
        // The implicit bit where the exponent is not 0; subnormals take exponent 1.
        self.nonzero(T0, HI, self.v(E), T1);
        self.o(Op::And, T1, HI, &[self.v(T0), self.k(0x10_0000)]);
        self.o(Op::Or, X, HI, &[self.v(X), self.v(T1)]);
        self.o(Op::Iadd, E, HI, &[self.v(E), self.v(T0)]);
        self.o(Op::Iadd, E, HI, &[self.v(E), self.k(1)]);
        self.o(Op::Mov, N, ALL, &[self.k(127 + 52)]);
        self.call(Routine::Norm);
        self.ret();
    }

    /// PACK: X (below 2^63), E (value = X * 2^(E - 1085)), S.hi (sign) -> X, the binary64
    /// rounded to nearest even on the subnormal grid (overflow: infinity), A = -1 where X was
    /// not 0 (FINISH makes those results zeros).
    fn pack(&mut self) {
        self.nz_mask();
        self.o(Op::Mov, N, ALL, &[self.k(127 + 62)]);
        self.call(Routine::Norm);
        // Subnormal: shift right by max(1 - E, 0) with sticky; field base max(E - 1, 0).
        self.o(Op::Isub, N, ALL, &[self.k(1), self.hi(E)]);
        self.o(Op::Shr, T0, ALL, &[self.v(N), self.k(31)]);
        self.o(Op::Not, T0, ALL, &[self.v(T0)]);
        self.o(Op::And, N, ALL, &[self.v(N), self.v(T0)]);
        self.o(Op::Iadd, E, HI, &[self.v(E), self.v(N)]);
        self.o(Op::Iadd, E, HI, &[self.v(E), self.k(0xFFFF_FFFF)]);
        self.call(Routine::Shr);
        // Round: + 0x1FF + lsb, carry into the high word.
        self.o(Op::Shr, T0, LO, &[self.v(X), self.k(10)]);
        self.o(Op::And, T0, LO, &[self.v(T0), self.k(1)]);
        self.o(Op::Iadd, T0, LO, &[self.v(T0), self.k(0x1FF)]);
        self.o(Op::Iadd, T1, LO, &[self.v(X), self.v(T0)]);
        self.o(Op::Not, T0, LO, &[self.v(T1)]);
        self.o(Op::And, T0, LO, &[self.v(T0), self.v(X)]);
        self.o(Op::Shr, T0, LO, &[self.v(T0), self.k(31)]);
        self.o(Op::Mov, X, LO, &[self.v(T1)]);
        self.o(Op::Isub, X, HI, &[self.v(X), self.up(T0)]);
        // >> 10 (logical).
        self.o(Op::Shl, T0, LO, &[self.down(X), self.k(22)]);
        self.o(Op::Shr, X, ALL, &[self.v(X), self.k(10)]);
        self.o(Op::And, X, ALL, &[self.v(X), self.k(0x003F_FFFF)]);
        self.o(Op::Or, X, LO, &[self.v(X), self.v(T0)]);
        // Overflow: the field (base + bit 52 + a rounding carry into bit 53) above 2046.
        self.o(Op::Shr, T0, HI, &[self.v(X), self.k(21)]);
        self.o(Op::Iadd, T0, HI, &[self.v(T0), self.v(E)]);
        self.o(Op::Isub, T0, HI, &[self.k(2045), self.v(T0)]);
        self.o(Op::Shr, B, ALL, &[self.hi(T0), self.k(31)]);
        // Exponent (the significand's bit 52 adds the last 1) and sign; infinity on overflow.
        self.o(Op::Shl, T0, HI, &[self.v(E), self.k(20)]);
        self.o(Op::Iadd, X, HI, &[self.v(X), self.v(T0)]);
        self.o(Op::Or, X, HI, &[self.v(X), self.v(S)]);
        self.o(Op::And, T1, ALL, &[self.v(S), self.kp(0, 0x8000_0000)]);
        self.o(Op::Or, T1, ALL, &[self.v(T1), self.kp(0, 0x7FF0_0000)]);
        self.select(X, self.v(T1), self.v(B), T0);
        self.ret();
    }

    /// REP: T1.hi = A's class representative (+-0, +-1, +-inf, NaN as binary32), T1.lo = B's.
    /// Clobbers T0, N.
    fn rep(&mut self) {
        // key = |high word| | (low word != 0): 0 zero, 0x7FF00000 infinity, above NaN.
        self.o(Op::Mov, T1, HI, &[self.up(A)]);
        self.o(Op::Mov, T1, LO, &[self.v(B)]);
        self.nonzero(T1, ALL, self.v(T1), T0);
        self.o(Op::And, T1, ALL, &[self.v(T1), self.k(1)]);
        self.o(Op::Or, T1, HI, &[self.v(T1), self.v(A)]);
        self.o(Op::Or, T1, LO, &[self.v(T1), self.down(B)]);
        self.o(Op::And, T1, ALL, &[self.v(T1), self.k(0x7FFF_FFFF)]);
        // Finite: min(key, 1) as a float (0 or 1); key - 0x7FF00000 >= 0: inf, > 0: NaN.
        self.o(Op::Isub, N, ALL, &[self.v(T1), self.k(0x7FF0_0000)]);
        self.o(Op::I2f, N, ALL, &[self.v(N)]);
        self.o(Op::U2f, T1, ALL, &[self.v(T1)]);
        self.o(Op::Min, T1, ALL, &[self.v(T1), self.one]);
        self.setp(Cond::Ge, self.v(N), self.zero());
        self.pw(Op::Mov, T1, ALL, &[self.k(0x7F80_0000)]);
        self.setp(Cond::Gt, self.v(N), self.zero());
        self.pw(Op::Mov, T1, ALL, &[self.k(0x7FC0_0000)]);
        // Signs.
        self.o(Op::And, T0, HI, &[self.v(A), self.k(0x8000_0000)]);
        self.o(Op::And, T0, LO, &[self.down(B), self.k(0x8000_0000)]);
        self.o(Op::Or, T1, ALL, &[self.v(T1), self.v(T0)]);
        self.ret();
    }

    /// FINISH: X = the integer path's result, A = -1 where it is not zero (else the result is
    /// 0 with the sign S.hi), E.lo = the representative of the result (a NaN gives the NaN,
    /// an infinity the infinity with its sign). The result goes to A.
    fn finish(&mut self) {
        self.o(Op::And, X, ALL, &[self.v(X), self.v(A)]);
        self.o(Op::Not, T0, HI, &[self.v(A)]);
        self.o(Op::And, T0, HI, &[self.v(T0), self.v(S)]);
        self.o(Op::Or, X, HI, &[self.v(X), self.v(T0)]);
        // Infinity: |rep| == inf.
        let inf = self.k(0x7F80_0000);
        let h = self.lo(E);
        self.setp(Cond::Eq, Operand { abs: true, ..h }, inf);
        self.o(Op::And, T0, ALL, &[h, self.kp(0, 0x8000_0000)]);
        self.o(Op::Or, T0, ALL, &[self.v(T0), self.kp(0, 0x7FF0_0000)]);
        self.pw(Op::Mov, X, ALL, &[self.v(T0)]);
        // NaN.
        self.setp(Cond::Ne, h, h);
        self.pw(Op::Mov, X, ALL, &[self.kp(0, 0x7FF8_0000)]);
        self.o(Op::Mov, A, ALL, &[self.v(X)]);
        self.ret();
    }

    /// The rep of the operation: `T1.hi = T1.hi * T1.lo` (-0 addend keeps a product's sign).
    fn rep_product(&mut self) {
        let mzero = Operand {
            neg: 0xF,
            ..self.zero()
        };
        self.o(Op::Fmad, T1, HI, &[self.v(T1), self.up(T1), mzero]);
    }

    /// Keeps the result's representative (T1.hi) in E.lo, where FINISH finds it.
    fn keep_class(&mut self) {
        self.o(Op::Mov, E, LO, &[self.down(T1)]);
    }

    /// ADD: A + B.
    fn add(&mut self) {
        self.call(Routine::Rep);
        self.o(Op::Fmad, T1, HI, &[self.v(T1), self.one, self.up(T1)]);
        self.keep_class();
        // Order by magnitude: |A| >= |B| (64-bit compare of the magnitudes).
        let mag = self.kp(0xFFFF_FFFF, 0x7FFF_FFFF);
        self.o(Op::And, T0, ALL, &[self.v(A), mag]);
        self.o(Op::And, T1, ALL, &[self.v(B), mag]);
        self.o(Op::Isub, X, ALL, &[self.v(T0), self.v(T1)]);
        self.o(Op::Xor, N, LO, &[self.v(T0), self.v(T1)]);
        self.o(Op::Not, N, LO, &[self.v(N)]);
        self.o(Op::And, N, LO, &[self.v(N), self.v(X)]);
        self.o(Op::Not, T0, LO, &[self.v(T0)]);
        self.o(Op::And, T0, LO, &[self.v(T0), self.v(T1)]);
        self.o(Op::Or, T0, LO, &[self.v(T0), self.v(N)]);
        self.o(Op::Shr, T0, LO, &[self.v(T0), self.k(31)]);
        self.o(Op::Iadd, X, HI, &[self.v(X), self.up(T0)]);
        self.o(Op::Shr, X, ALL, &[self.hi(X), self.k(31)]);
        self.o(Op::Xor, T0, ALL, &[self.v(A), self.v(B)]);
        self.o(Op::And, T0, ALL, &[self.v(T0), self.v(X)]);
        self.o(Op::Xor, A, ALL, &[self.v(A), self.v(T0)]);
        self.o(Op::Xor, B, ALL, &[self.v(B), self.v(T0)]);
        // S = (subtract flag, sign of the larger).
        self.o(Op::Xor, S, ALL, &[self.hi(A), self.hi(B)]);
        self.o(Op::Shr, S, LO, &[self.v(S), self.k(31)]);
        self.o(Op::And, S, HI, &[self.v(A), self.k(0x8000_0000)]);
        // Significands at bit 61, B's aligned with sticky bits.
        // (NORM again moves a significand from bit 52 to bit 61, E dropping by 9.)
        self.o(Op::Mov, X, ALL, &[self.v(A)]);
        self.call(Routine::Unpack);
        self.o(Op::Mov, N, ALL, &[self.k(127 + 61)]);
        self.call(Routine::Norm);
        self.o(Op::Mov, A, ALL, &[self.v(X)]);
        self.o(Op::Mov, X, ALL, &[self.v(B)]);
        self.o(Op::Mov, B, ALL, &[self.v(E)]);
        self.call(Routine::Unpack);
        self.o(Op::Mov, N, ALL, &[self.k(127 + 61)]);
        self.call(Routine::Norm);
        self.o(Op::Isub, N, ALL, &[self.hi(B), self.hi(E)]);
        self.o(Op::Iadd, E, HI, &[self.v(B), self.k(10)]);
        self.call(Routine::Shr);
        // Subtract: X = -X (64-bit) where the flag is set.
        self.o(Op::Isub, T0, ALL, &[self.zero(), self.v(X)]);
        self.o(Op::Or, T1, LO, &[self.v(X), self.v(T0)]);
        self.o(Op::Shr, T1, LO, &[self.v(T1), self.k(31)]);
        self.o(Op::Iadd, T0, HI, &[self.v(T0), self.up(T1)]);
        self.select(X, self.v(T0), self.lo(S), T1);
        // X = A + X (64-bit).
        self.o(Op::Iadd, T0, ALL, &[self.v(A), self.v(X)]);
        self.o(Op::And, T1, LO, &[self.v(A), self.v(X)]);
        self.o(Op::Or, B, LO, &[self.v(A), self.v(X)]);
        self.o(Op::Not, X, LO, &[self.v(T0)]);
        self.o(Op::And, B, LO, &[self.v(B), self.v(X)]);
        self.o(Op::Or, T1, LO, &[self.v(T1), self.v(B)]);
        self.o(Op::Shr, T1, LO, &[self.v(T1), self.k(31)]);
        self.o(Op::Isub, X, HI, &[self.v(T0), self.up(T1)]);
        self.o(Op::Mov, X, LO, &[self.v(T0)]);
        self.call(Routine::Pack);
        // An exact zero sum is +0 unless both operands are -0.
        self.o(Op::Not, T0, HI, &[self.lo(S)]);
        self.o(Op::And, S, HI, &[self.v(S), self.v(T0)]);
        self.call(Routine::Finish);
        self.ret();
    }

    /// Unpacks A into A (significand) and B.hi (exponent), B into X and E; S.hi = sign of the
    /// product or quotient.
    fn unpack_both(&mut self) {
        self.o(Op::Xor, S, HI, &[self.v(A), self.v(B)]);
        self.o(Op::And, S, HI, &[self.v(S), self.k(0x8000_0000)]);
        self.o(Op::Mov, X, ALL, &[self.v(A)]);
        self.call(Routine::Unpack);
        self.o(Op::Mov, A, ALL, &[self.v(X)]);
        self.o(Op::Mov, X, ALL, &[self.v(B)]);
        self.o(Op::Mov, B, ALL, &[self.v(E)]);
        self.call(Routine::Unpack);
    }

    /// MUL: A * B by 53 steps of shift and add.
    fn mul(&mut self) {
        self.call(Routine::Rep);
        self.rep_product();
        self.keep_class();
        self.unpack_both();
        // Product P = ma * mb; the loop leaves P / 2^45 (plus sticky): E = ea + eb - 1020.
        self.o(Op::Iadd, E, HI, &[self.v(E), self.v(B)]);
        self.o(Op::Iadd, E, HI, &[self.v(E), self.k((-1020i32) as u32)]);
        self.limbs_in(A, 8);
        self.o(Op::Mov, N, ALL, &[self.zero()]);
        self.o(Op::Mov, S, LO, &[self.zero()]);
        self.o(Op::Mov, B, ALL, &[self.k(0x4254_0000)]); // 53.0
        let start = self.c.code.len();
        self.o(Op::And, T0, ALL, &[self.lo(X), self.k(1)]);
        self.o(Op::Isub, T0, ALL, &[self.zero(), self.v(T0)]);
        self.o(Op::And, T0, ALL, &[self.v(T0), self.v(A)]);
        self.o(Op::Iadd, N, ALL, &[self.v(N), self.v(T0)]);
        self.limbs_carry(N);
        self.o(Op::And, T0, LO, &[self.v(N), self.k(1)]);
        self.o(Op::Or, S, LO, &[self.v(S), self.v(T0)]);
        // acc >>= 1 (limbs), multiplier >>= 1.
        self.o(Op::Shl, T0, LO, &[self.down(N), self.k(30)]);
        self.o(Op::And, T0, LO, &[self.v(T0), self.k(0x4000_0000)]);
        self.o(Op::Shr, N, ALL, &[self.v(N), self.k(1)]);
        self.o(Op::Or, N, LO, &[self.v(N), self.v(T0)]);
        self.o(Op::Shl, T0, LO, &[self.down(X), self.k(31)]);
        self.o(Op::Shr, X, ALL, &[self.v(X), self.k(1)]);
        self.o(Op::And, X, LO, &[self.v(X), self.k(0x7FFF_FFFF)]);
        self.o(Op::Or, X, LO, &[self.v(X), self.v(T0)]);
        self.loop_end(start, B);
        self.limbs_out(N);
        self.o(Op::Or, X, LO, &[self.v(N), self.v(S)]);
        self.o(Op::Mov, X, HI, &[self.v(N)]);
        self.call(Routine::Pack);
        self.call(Routine::Finish);
        self.ret();
    }

    /// DIV: A / B by 56 steps of restoring division.
    fn div(&mut self) {
        self.call(Routine::Rep);
        // The class of 1 / B: 0x7F800000 - rep swaps +-0 and +-inf, keeps signs, makes 1 a 2
        // and a NaN a NaN.
        self.o(Op::Isub, T1, LO, &[self.k(0x7F80_0000), self.v(T1)]);
        self.rep_product();
        self.keep_class();
        self.unpack_both();
        // q = floor(ma * 2^55 / mb): E = ea - eb + 1030.
        self.o(Op::Isub, E, HI, &[self.v(B), self.v(E)]);
        self.o(Op::Iadd, E, HI, &[self.v(E), self.k(1030)]);
        self.limbs_in(A, 0);
        self.limbs_in(X, 0);
        self.o(Op::Mov, N, ALL, &[self.zero()]);
        self.o(Op::Mov, B, ALL, &[self.k(0x4260_0000)]); // 56.0
        let start = self.c.code.len();
        self.divide_step(X, true);
        self.loop_end(start, B);
        self.limbs_out(N);
        self.o(Op::Mov, X, ALL, &[self.v(N)]);
        self.or_sticky(A);
        self.call(Routine::Pack);
        // A zero class (x / inf among them, which the integer path does not see): zero.
        self.setp(Cond::Eq, self.lo(E), self.zero());
        self.pw(Op::Mov, A, ALL, &[self.zero()]);
        self.call(Routine::Finish);
        self.ret();
    }

    /// One restoring step: where the remainder A >= `d` (limbs), A -= d and the quotient (root)
    /// N gains a 1 bit, else a 0 bit; DDIV's remainder then doubles (`double_m`).
    fn divide_step(&mut self, d: u8, double_m: bool) {
        self.o(Op::Isub, T0, ALL, &[self.v(A), self.v(d)]);
        self.o(Op::Shr, T1, LO, &[self.v(T0), self.k(31)]);
        self.o(Op::And, T0, LO, &[self.v(T0), self.k(0x7FFF_FFFF)]);
        self.o(Op::Iadd, T0, HI, &[self.v(T0), self.up(T1)]);
        self.o(Op::Shr, T1, ALL, &[self.hi(T0), self.k(31)]);
        self.o(Op::Not, T1, ALL, &[self.v(T1)]);
        self.select(A, self.v(T0), self.v(T1), T0);
        self.o(Op::And, T1, LO, &[self.v(T1), self.k(1)]);
        self.o(Op::Shl, N, ALL, &[self.v(N), self.k(1)]);
        self.o(Op::Or, N, LO, &[self.v(N), self.v(T1)]);
        self.limbs_carry(N);
        if double_m {
            self.limbs_shl1(A);
        }
    }

    /// SQRT: digit by digit, one root bit per step from a remainder fed two radicand bits.
    fn sqrt(&mut self) {
        self.call(Routine::Rep);
        // sqrt of the class: below zero (not -0) gives NaN.
        self.o(Op::Mov, T0, ALL, &[self.k(0x7FC0_0000)]);
        self.setp(Cond::Lt, self.hi(T1), self.zero());
        self.pw(Op::Mov, T1, HI, &[self.v(T0)]);
        self.keep_class();
        self.o(Op::And, S, HI, &[self.v(A), self.k(0x8000_0000)]);
        self.o(Op::Mov, X, ALL, &[self.v(A)]);
        self.call(Routine::Unpack);
        // value = m * 2^(E - 1075); where E - 1075 is odd, m doubles and E drops by one.
        self.o(Op::Iadd, T0, ALL, &[self.hi(E), self.k(1)]);
        self.o(Op::And, N, ALL, &[self.v(T0), self.k(1)]);
        self.o(Op::Isub, E, HI, &[self.v(E), self.v(N)]);
        self.o(Op::Shl, T1, HI, &[self.v(X), self.v(N)]);
        self.o(Op::Shr, T0, HI, &[self.lo(X), self.k(31)]);
        self.o(Op::And, T0, HI, &[self.v(T0), self.v(N)]);
        self.o(Op::Or, X, HI, &[self.v(T1), self.v(T0)]);
        self.o(Op::Shl, X, LO, &[self.v(X), self.v(N)]);
        // The radicand m * 2^56 is fed two bits per step from the top of X = m << 10; 55 steps
        // give q = floor(sqrt(m * 2^56)) in [2^54, 2^55), value = q * 2^((E - 1075) / 2 - 28):
        // E = (E - 1075) / 2 + 1057.
        self.shl_const(X, 10);
        self.o(Op::Iadd, E, HI, &[self.v(E), self.k((-1075i32) as u32)]);
        self.o(Op::Shr, E, HI, &[self.v(E), self.k(1)]);
        self.o(Op::Iadd, E, HI, &[self.v(E), self.k(1057)]);
        self.o(Op::Mov, A, ALL, &[self.zero()]);
        self.o(Op::Mov, N, ALL, &[self.zero()]);
        self.o(Op::Mov, S, LO, &[self.k(0x425C_0000)]); // 55.0
        let start = self.c.code.len();
        // A = (A << 2) | the top two bits of X; X <<= 2.
        self.limbs_shl1(A);
        self.limbs_shl1(A);
        self.o(Op::Shr, T0, LO, &[self.down(X), self.k(30)]);
        self.o(Op::And, T0, LO, &[self.v(T0), self.k(3)]);
        self.o(Op::Or, A, LO, &[self.v(A), self.v(T0)]);
        self.shl_const(X, 2);
        // Trial B = (q << 2) | 1 (B is not an operand of DSQRT).
        self.o(Op::Mov, B, ALL, &[self.v(N)]);
        self.limbs_shl1(B);
        self.limbs_shl1(B);
        self.o(Op::Or, B, LO, &[self.v(B), self.k(1)]);
        self.divide_step(B, false);
        self.loop_end(start, S);
        self.limbs_out(N);
        self.o(Op::Mov, X, ALL, &[self.v(N)]);
        self.or_sticky(A);
        self.call(Routine::Pack);
        self.call(Routine::Finish);
        self.ret();
    }

    /// LDEXP: A * 2^trunc(B), B a binary64 integer; |n| beyond 2^13 saturates (every such
    /// result over- or underflows).
    fn ldexp(&mut self) {
        self.call(Routine::Rep);
        // The class of 2^n: finite n -> 1, +inf -> inf, -inf -> 0, NaN stays.
        let l = self.lo(T1);
        self.setp(Cond::Lt, Operand { abs: true, ..l }, self.k(0x7F80_0000));
        self.pw(Op::Mov, T1, LO, &[self.one]);
        self.setp(Cond::Eq, self.v(T1), self.k(0xFF80_0000));
        self.pw(Op::Mov, T1, LO, &[self.zero()]);
        self.rep_product();
        self.keep_class();
        // n: B's high word as a binary32 (exponent clamped to [1000, 1036]), truncated.
        self.o(Op::Shr, T0, HI, &[self.v(B), self.k(20)]);
        self.o(Op::And, T0, HI, &[self.v(T0), self.k(0x7FF)]);
        self.o(Op::I2f, T0, HI, &[self.v(T0)]);
        self.o(Op::Max, T0, HI, &[self.v(T0), self.k(0x447A_0000)]); // 1000.0
        self.o(Op::Min, T0, HI, &[self.v(T0), self.k(0x4481_8000)]); // 1036.0
        self.o(Op::F2if, T0, HI, &[self.v(T0)]);
        self.o(Op::Iadd, T0, HI, &[self.v(T0), self.k((-896i32) as u32)]);
        self.o(Op::Shl, T0, HI, &[self.v(T0), self.k(23)]);
        self.o(Op::And, T1, HI, &[self.v(B), self.k(0x800F_FFFF)]);
        self.o(Op::Shl, X, HI, &[self.v(T1), self.k(3)]);
        self.o(Op::And, T1, HI, &[self.v(T1), self.k(0x8000_0000)]);
        self.o(Op::Or, T0, HI, &[self.v(T0), self.v(T1)]);
        self.o(Op::Or, T0, HI, &[self.v(T0), self.v(X)]);
        self.o(Op::Trnc, T0, HI, &[self.v(T0)]);
        self.o(Op::F2if, B, ALL, &[self.hi(T0)]);
        self.o(Op::And, S, HI, &[self.v(A), self.k(0x8000_0000)]);
        self.o(Op::Mov, X, ALL, &[self.v(A)]);
        self.call(Routine::Unpack);
        self.o(Op::Iadd, E, HI, &[self.v(E), self.v(B)]);
        self.o(Op::Iadd, E, HI, &[self.v(E), self.k(10)]);
        self.call(Routine::Pack);
        self.call(Routine::Finish);
        self.ret();
    }

    /// FRACEXP: A = the exponent (binary64 integer), B = the significand in [0.5, 1); zero,
    /// infinity and NaN give exponent 0 and themselves (NaN canonical).
    fn frac_exp(&mut self) {
        self.o(Op::And, S, HI, &[self.v(A), self.k(0x8000_0000)]);
        self.o(Op::Mov, X, ALL, &[self.v(A)]);
        self.call(Routine::Unpack);
        self.call(Routine::Rep);
        // Significand: sign | 1022 << 20 | fraction.
        self.o(Op::And, X, HI, &[self.v(X), self.k(0x000F_FFFF)]);
        self.o(Op::Or, X, HI, &[self.v(X), self.k(0x3FE0_0000)]);
        self.o(Op::Or, X, HI, &[self.v(X), self.v(S)]);
        // Exponent E - 1022 through binary32: hi = (|f| >> 3) + (896 << 20) | sign,
        // lo = f << 29; 0 when the exponent is 0.
        self.o(Op::Iadd, E, HI, &[self.v(E), self.k((-1022i32) as u32)]);
        self.o(Op::I2f, E, HI, &[self.v(E)]);
        self.o(Op::And, T0, HI, &[self.v(E), self.k(0x7FFF_FFFF)]);
        self.o(Op::Shr, T0, HI, &[self.v(T0), self.k(3)]);
        self.o(Op::Iadd, T0, HI, &[self.v(T0), self.k(0x3800_0000)]);
        self.o(Op::And, B, HI, &[self.v(E), self.k(0x8000_0000)]);
        self.o(Op::Or, T0, HI, &[self.v(T0), self.v(B)]);
        self.o(Op::Shl, T0, LO, &[self.down(E), self.k(29)]);
        self.nonzero(B, ALL, self.hi(E), N);
        self.o(Op::And, T0, ALL, &[self.v(T0), self.v(B)]);
        // Zero, infinity, NaN: exponent 0, the operand itself (NaN canonical).
        self.o(Op::Mov, B, ALL, &[self.v(X)]);
        let h = self.hi(T1);
        self.setp(Cond::Ne, Operand { abs: true, ..h }, self.one);
        self.pw(Op::Mov, T0, ALL, &[self.zero()]);
        self.pw(Op::Mov, B, ALL, &[self.v(A)]);
        self.setp(Cond::Ne, h, h);
        self.pw(Op::Mov, B, ALL, &[self.kp(0, 0x7FF8_0000)]);
        self.o(Op::Mov, A, ALL, &[self.v(T0)]);
        self.ret();
    }

    /// TRUNCNEG: B = -trunc(A) (bits: A with its fraction bits cleared, sign flipped).
    fn trunc_neg(&mut self) {
        // k = 1075 - exponent, clamped to [0, 63]: the low k bits are fraction.
        self.o(Op::Shr, T0, ALL, &[self.hi(A), self.k(20)]);
        self.o(Op::And, T0, ALL, &[self.v(T0), self.k(0x7FF)]);
        self.o(Op::Isub, T0, ALL, &[self.k(1075), self.v(T0)]);
        self.o(Op::I2f, T0, ALL, &[self.v(T0)]);
        self.o(Op::Max, T0, ALL, &[self.v(T0), self.zero()]);
        // |x| < 1 (k > 52): only the sign is kept.
        self.setp(Cond::Gt, self.v(T0), self.k(0x4250_0000)); // 52.0
        self.pw(Op::Mov, T0, ALL, &[self.k(0x427C_0000)]); // 63.0
        self.o(Op::F2if, T0, ALL, &[self.v(T0)]);
        // mask = -1 << k (64-bit).
        self.o(Op::Shl, T1, ALL, &[self.k(0xFFFF_FFFF), self.v(T0)]);
        self.o(Op::Shl, B, ALL, &[self.v(T0), self.k(26)]);
        self.o(Op::Shr, B, ALL, &[self.v(B), self.k(31)]);
        self.o(Op::Not, T0, ALL, &[self.v(B)]);
        self.o(Op::And, T1, LO, &[self.v(T1), self.v(T0)]);
        self.o(Op::Or, T1, HI, &[self.v(T1), self.v(T0)]);
        self.o(Op::And, B, ALL, &[self.v(A), self.v(T1)]);
        self.o(Op::Xor, B, HI, &[self.v(B), self.k(0x8000_0000)]);
        self.ret();
    }
}

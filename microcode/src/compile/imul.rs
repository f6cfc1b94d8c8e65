//! Integer multiplication without a multiplier: UMUL (the low 32 bits of the product), UMUL_HI
//! and IMUL_HI (the high 32 bits of the unsigned / signed 64-bit product) as exact sequences of
//! the multiply-add pipe, conversions and the integer ALU.
//!
//! Why it is exact: each operand splits into three limbs of 11, 11 and 10 bits, kept as floats
//! at their place value (`AND` with a mask, then `U2F`; the top limb of a signed operand with
//! `I2F`, so it carries the sign):
//!
//! ```text
//! a = A0 + A1 + A2,  A0 = a & 0x7FF,  A1 = a & 0x3FF800 (= a1 * 2^11),  A2 = a & 0xFFC00000 (= a2 * 2^22)
//! ```
//!
//! A limb has at most 11 significant bits, so a product of two limbs has at most 22 and is
//! exact in binary32, and the column `C_k = sum(Ai * Bj, i + j = k) = c_k * 2^(11 k)` (at most
//! three products of one place value) stays below 2^24 times its place value: every multiply-add
//! of a column chain is exact (binary32's two roundings never round). The product is
//! `P = c0 + c1 2^11 + c2 2^22 + c3 2^33 + c4 2^44`.
//!
//! - Low word (UMUL): `c0 + (c1 << 11) + (c2 << 22) mod 2^32`, the columns scaled to integers
//!   by a power of two (exact), converted with `F2IF` (all below 2^24) and shifted and added
//!   on the integer ALU (27 instructions).
//! - High word (UMUL_HI, IMUL_HI): floor(P / 2^32) by carries between the columns, in floats:
//!   `q0 = floor(c0 / 2^11)`, `r1 = c1 + q0`, `q1 = floor(r1 / 2^11)`, `r2 = c2 + q1`,
//!   `q2 = floor(r2 / 2^10)`; then `H = (q2 + 2 c3) + (c4 << 12) mod 2^32`, since everything
//!   below `r2 2^22` in `P` is below 2^22. Every `r` is below 2^24 (signed: in magnitude), so
//!   each carry is a scale by a power of two and `FLR`; the first one instead rounds
//!   `c0 - 1023.5` to a multiple of 2^11 by adding `M = 1.5 * 2^34` (whose ulp is 2^11; the
//!   offset keeps the rounding away from ties, so nearest is floor) and leaves `M` in the sum,
//!   which the next column's chain subtracts with its free addend. `q2 + 2 c3 < 2^24` converts
//!   exactly; `c4 << 12` is converted unshifted (a 20-bit integer) and shifted on the integer
//!   ALU, as `c4 2^12` can reach 2^32 and `F2IF` saturates at 2^31 (34 instructions).
//! - Signed (IMUL_HI): the top limbs are signed (`a >> 22` in [-512, 511]), which keeps every
//!   bound; `FLR` is the floor of negative values too and the last addition wraps.
//!
//! Both sequences use six scratch registers (limbs are converted when first needed and their
//! registers reused when dead) and four constant slots shared by every such instruction of a
//! program. `sim/tests/imul_sequences.rs` checks them on the core model against host 64-bit
//! arithmetic on edge and random operands.

use super::operand::{splat, ONE, ZERO};
use super::{CompileError, Ctx};
use crate::core::isa::{Op, Operand};
use crate::tgsi::{Instruction, Opcode};

/// `2^k` as binary32 bits (normal range).
const fn pow2(k: i32) -> u32 {
    ((127 + k) as u32) << 23
}

/// Limb masks (x, y, z) and the shift of the high word's top column (w).
const MASKS: [u32; 4] = [0x0000_07FF, 0x003F_F800, 0xFFC0_0000, 12];
/// Left shifts of the low word's columns 1 and 2.
const SHIFTS: [u32; 4] = [11, 22, 0, 0];
/// Scales: column 1 and 2 to integers (2^-11, 2^-22), the high word's carries (2^-32) and its
/// top column to an integer (2^-44).
const SCALES: [u32; 4] = [pow2(-11), pow2(-22), pow2(-32), pow2(-44)];
/// The first carry: `M = 1.5 * 2^34`, the offset 1023.5 (negated where used) and 2^22, which
/// places the second carry in column 2.
const CARRY: [u32; 4] = [0x50C0_0000, 0x447F_E000, pow2(22), 0];

/// Which limb of an operand.
#[derive(Clone, Copy)]
enum Limb {
    Low = 0,
    Mid = 1,
    Top = 2,
}

/// The shared pieces of one multiplication: the operands and the constants.
struct Mul {
    a: Operand,
    b: Operand,
    /// Top limbs read as int32 (IMUL_HI) rather than uint32.
    signed: bool,
    masks: Operand,
    scales: Operand,
    one: Operand,
    mzero: Operand,
}

impl Mul {
    /// `r = limb of x` as a float at its place value (2 instructions).
    fn limb(&self, c: &mut Ctx, r: u8, x: Operand, which: Limb) {
        let k = which as usize;
        c.op(Op::And, r, 0xF, &[x, splat(self.masks, k)]);
        let cvt = if self.signed && matches!(which, Limb::Top) {
            Op::I2f
        } else {
            Op::U2f
        };
        c.op(cvt, r, 0xF, &[Ctx::reg(r)]);
    }

    /// `r = x * y + z` (exact here: see the module comment).
    fn mad(c: &mut Ctx, r: u8, x: u8, y: u8, z: Operand) {
        c.op(Op::Fmad, r, 0xF, &[Ctx::reg(x), Ctx::reg(y), z]);
    }

    /// `r = x * scale` for component `k` of [`SCALES`].
    fn scale(&self, c: &mut Ctx, r: u8, x: u8, k: usize) {
        c.op(
            Op::Fmad,
            r,
            0xF,
            &[Ctx::reg(x), splat(self.scales, k), self.mzero],
        );
    }
}

fn neg(o: Operand) -> Operand {
    Operand { neg: 0xF, ..o }
}

/// Lowers UMUL, UMUL_HI or IMUL_HI.
pub(crate) fn lower(c: &mut Ctx, inst: &Instruction) -> Result<(), CompileError> {
    let (a, b) = match inst.src.as_slice() {
        [a, b] => (c.int_src(a)?, c.int_src(b)?),
        _ => return Err(c.unsupported("a multiplication takes two sources")),
    };
    let d = c.dst(inst)?;
    let m = Mul {
        a,
        b,
        signed: inst.opcode == Opcode::ImulHi,
        masks: c.konst(MASKS),
        scales: c.konst(SCALES),
        one: c.lit(ONE, false)?,
        mzero: c.lit(ZERO, true)?,
    };
    let (ra0, rb0, rx, ra1, rb1, ry) = (
        c.scratch(),
        c.scratch(),
        c.scratch(),
        c.scratch(),
        c.scratch(),
        c.scratch(),
    );
    m.limb(c, ra0, m.a, Limb::Low);
    m.limb(c, rb0, m.b, Limb::Low);
    if inst.opcode == Opcode::Umul {
        // c0, exact below 2^22.
        Mul::mad(c, rx, ra0, rb0, m.mzero);
        c.op(Op::F2if, rx, 0xF, &[Ctx::reg(rx)]);
        // + c1 << 11.
        m.limb(c, ra1, m.a, Limb::Mid);
        m.limb(c, rb1, m.b, Limb::Mid);
        let shifts = c.konst(SHIFTS);
        Mul::mad(c, ry, ra0, rb1, m.mzero);
        Mul::mad(c, ry, ra1, rb0, Ctx::reg(ry));
        m.scale(c, ry, ry, 0);
        c.op(Op::F2if, ry, 0xF, &[Ctx::reg(ry)]);
        c.op(Op::Shl, ry, 0xF, &[Ctx::reg(ry), splat(shifts, 0)]);
        c.op(Op::Iadd, rx, 0xF, &[Ctx::reg(rx), Ctx::reg(ry)]);
        // + c2 << 22 (A1 and A0 die as B2 and A2 arrive).
        Mul::mad(c, ry, ra1, rb1, m.mzero);
        m.limb(c, ra1, m.b, Limb::Top);
        Mul::mad(c, ry, ra0, ra1, Ctx::reg(ry));
        m.limb(c, ra0, m.a, Limb::Top);
        Mul::mad(c, ry, ra0, rb0, Ctx::reg(ry));
        m.scale(c, ry, ry, 1);
        c.op(Op::F2if, ry, 0xF, &[Ctx::reg(ry)]);
        c.op(Op::Shl, ry, 0xF, &[Ctx::reg(ry), splat(shifts, 1)]);
        c.fin(Op::Iadd, d, 0xF, &[Ctx::reg(rx), Ctx::reg(ry)]);
        return Ok(());
    }
    let carry = c.konst(CARRY);
    let big = splat(carry, 0);
    // Column 0 and its carry: rx = M + q0 * 2^11.
    Mul::mad(c, rx, ra0, rb0, neg(splat(carry, 1)));
    c.op(Op::Fmad, rx, 0xF, &[Ctx::reg(rx), m.one, big]);
    m.limb(c, ra1, m.a, Limb::Mid);
    m.limb(c, rb1, m.b, Limb::Mid);
    // Column 1 with the carry: ry = r1 * 2^11 (the chain starts at -M), then q1.
    Mul::mad(c, ry, ra0, rb1, neg(big));
    Mul::mad(c, ry, ra1, rb0, Ctx::reg(ry));
    c.op(Op::Fmad, ry, 0xF, &[Ctx::reg(rx), m.one, Ctx::reg(ry)]);
    m.scale(c, ry, ry, 1);
    c.op(Op::Flr, ry, 0xF, &[Ctx::reg(ry)]);
    // Column 2 with the carry: rx = r2 * 2^22 (B2 takes q1's register, A2 the dead A0's).
    c.op(Op::Fmad, rx, 0xF, &[Ctx::reg(ry), splat(carry, 2), m.mzero]);
    Mul::mad(c, rx, ra1, rb1, Ctx::reg(rx));
    m.limb(c, ry, m.b, Limb::Top);
    Mul::mad(c, rx, ra0, ry, Ctx::reg(rx));
    m.limb(c, ra0, m.a, Limb::Top);
    Mul::mad(c, rx, ra0, rb0, Ctx::reg(rx));
    // q2 = floor(r2 / 2^10).
    m.scale(c, rx, rx, 2);
    c.op(Op::Flr, rx, 0xF, &[Ctx::reg(rx)]);
    // q2 + 2 c3 (column 3 in the dead B0's register), to an integer.
    Mul::mad(c, rb0, ra1, ry, m.mzero);
    Mul::mad(c, rb0, ra0, rb1, Ctx::reg(rb0));
    c.op(
        Op::Fmad,
        rx,
        0xF,
        &[Ctx::reg(rb0), splat(m.scales, 2), Ctx::reg(rx)],
    );
    c.op(Op::F2if, rx, 0xF, &[Ctx::reg(rx)]);
    // + c4 << 12.
    Mul::mad(c, rb0, ra0, ry, m.mzero);
    m.scale(c, rb0, rb0, 3);
    c.op(Op::F2if, rb0, 0xF, &[Ctx::reg(rb0)]);
    c.op(Op::Shl, rb0, 0xF, &[Ctx::reg(rb0), splat(m.masks, 3)]);
    c.fin(Op::Iadd, d, 0xF, &[Ctx::reg(rx), Ctx::reg(rb0)]);
    Ok(())
}

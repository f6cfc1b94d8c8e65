//! What each component-wise operation of the core computes: the one map from an ISA operation
//! to the `microcode::arith` / transcendental / texel function that gives its result bits. The
//! core model evaluates instructions with it and the hardware unit tests
//! (`hdl/tests/core_units.rs`) check the datapath blocks against it.

use super::isa::{Cond, Op};
use crate::arith;
use crate::arith::texel;
use crate::arith::transcendental::steps;

/// The bits of 1.0 (SET's true result).
const ONE: u32 = 0x3F80_0000;

/// Whether the comparison `c` holds for `a` and `b` (SET, SETP and the predicates).
#[inline(always)]
pub fn cond(c: Cond, a: u32, b: u32) -> bool {
    match c {
        Cond::Lt => arith::flt(a, b),
        Cond::Ge => arith::fge(a, b),
        Cond::Eq => arith::feq(a, b),
        Cond::Ne => arith::fne(a, b),
        Cond::Gt => arith::fgt(a, b),
        Cond::Le => arith::fle(a, b),
        Cond::Fl => false,
        Cond::Tr => true,
    }
}

/// Component c of a component-wise operation, before the destination stage (write mask,
/// predicated write, saturate): `x`, `y`, `z` are component c of operands A, B and C (after
/// swizzle, abs and neg), `cond` the instruction's condition (SET, SETP) and `p` the predicate
/// bit P.c (SEL's choice). SETP gives the value SET would (the predicate bit is its nonzero-ness).
/// Operations that are not component-wise (flow, texture sampling and fetch, relative moves,
/// derivatives, doubles, the address stack) give 0: their engines handle them.
///
/// Inlined so that a caller that matches on a constant `op` gets only that operation's
/// arithmetic (the core model's per-operation lane loops).
#[inline(always)]
pub fn component(op: Op, cond: Cond, x: u32, y: u32, z: u32, p: bool) -> u32 {
    match op {
        Op::Rsqr => steps::rsq_reduce(x),
        Op::Rsqt => steps::rsq_seed(x),
        Op::Rsqf => steps::rsq_finish(x, y),
        Op::Ex2t => steps::ex2_table(x),
        Op::Ex2f => steps::ex2_finish(x, y, z),
        Op::Lg2m => steps::lg2_reduce(x),
        Op::Lg2h => steps::lg2_reduce_hi(x),
        Op::Lg2e => steps::lg2_exponent(x),
        Op::Lg2i => steps::lg2_inv(x),
        Op::Lg2a => steps::lg2_log_hi(x),
        Op::Lg2b => steps::lg2_log_lo(x),
        Op::Lg2f => steps::lg2_finish(x, y),
        Op::Scq => steps::sincos_pick(x, y, z),
        Op::Scf => steps::sincos_finish(x, y),
        Op::Tidx => texel::tidx(x, y, z),
        Op::Tidxf => texel::tidx_fetch(x, y),
        Op::Tfrc => texel::tfrc(x, y, z),
        Op::Tsel => texel::tsel(x, y, z),
        Op::Tor => x | y,
        Op::Mov | Op::Movr | Op::Txq => x,
        Op::Fmad => arith::fmad(x, y, z),
        Op::Min => arith::fmin(x, y),
        Op::Max => arith::fmax(x, y),
        Op::Set | Op::Setp if self::cond(cond, x, y) => ONE,
        Op::Set | Op::Setp => 0,
        Op::Sel => arith::bits::flush(if p { x } else { y }),
        Op::Flr => arith::ffloor(x),
        Op::Ceil => arith::fceil(x),
        Op::Trnc => arith::ftrunc(x),
        Op::Rnde => arith::fround(x),
        Op::Expx => arith::fexp2_floor(x),
        Op::Expn => arith::fexp_part(x),
        Op::Mant => arith::fmant_part(x),
        Op::F2if => arith::f2i_floor(x) as u32,
        Op::F2ir => arith::f2i_round(x) as u32,
        Op::I2f => arith::i2f(x as i32),
        Op::U2f => arith::u2f(x),
        Op::Isgn => arith::isgn(x as i32),
        Op::Usgn => arith::usgn(x),
        Op::Rcp => arith::frcp(x),
        Op::Iadd => arith::iadd(x, y),
        Op::Isub => arith::isub(x, y),
        Op::And => x & y,
        Op::Or => x | y,
        Op::Xor => x ^ y,
        Op::Not => !x,
        Op::Shl => arith::ishl(x, y),
        Op::Shr => arith::ishr(x, y),
        Op::Imod => arith::imod(x, y),
        Op::Div => arith::fdiv(x, y),
        _ => 0,
    }
}

/// Whether [`component`] reads the predicate bit for `op` (SEL's choice): the only operation
/// whose result for a component depends on more than the operands' components.
pub fn reads_predicate(op: Op) -> bool {
    op == Op::Sel
}

/// [`component`] in `N` lanes at once: lane `l` of the result is
/// `component(op, cond, x[l], y[l], z[l], p[l])`.
///
/// The core model runs a quad's four lanes of one component together; FMAD, most of the
/// compiler's sequences, takes [`arith::fmad_lanes`] (vector instructions when every lane takes
/// the fast path), the other operations one lane after another.
#[inline(always)]
pub fn component_lanes<const N: usize>(
    op: Op,
    cond: Cond,
    x: [u32; N],
    y: [u32; N],
    z: [u32; N],
    p: [bool; N],
) -> [u32; N] {
    match op {
        Op::Fmad => arith::fmad_lanes(x, y, z),
        Op::Mov | Op::Movr | Op::Txq => x,
        _ => {
            let mut r = [0u32; N];
            for l in 0..N {
                r[l] = component(op, cond, x[l], y[l], z[l], p[l]);
            }
            r
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::isa::OPS;
    use crate::rng::XorShift;

    /// Every operation of the ISA table, every condition: the lanes equal [`component`] on each
    /// lane's operands, with values of every class; an operation that [`reads_predicate`] does
    /// not name gives the same result for either predicate bit.
    #[test]
    fn lanes_equal_component() {
        let mut rng = XorShift::new(0x1A7E_5EED);
        let mut value = move || {
            let r = rng.next_u64();
            match r % 4 {
                0 => 0x3F80_0000 ^ (r as u32 & 0x807F_FFFF),
                1 => (r >> 32) as u32 & 0x80FF_FFFF,
                _ => (r >> 16) as u32,
            }
        };
        for row in OPS {
            for cond in Cond::ALL {
                for _ in 0..200 {
                    let [x, y, z]: [[u32; 4]; 3] =
                        std::array::from_fn(|_| std::array::from_fn(|_| value()));
                    let p: [bool; 4] = std::array::from_fn(|_| value() & 1 == 1);
                    let want: [u32; 4] =
                        std::array::from_fn(|l| component(row.op, cond, x[l], y[l], z[l], p[l]));
                    if !reads_predicate(row.op) {
                        let flipped = component(row.op, cond, x[0], y[0], z[0], !p[0]);
                        assert_eq!(flipped, want[0], "{:?} reads P", row.op);
                    }
                    assert_eq!(
                        component_lanes(row.op, cond, x, y, z, p),
                        want,
                        "{:?} {cond:?}",
                        row.op
                    );
                }
            }
        }
    }
}

//! The fast path: plain float instructions decoded once per program and run on all four lanes
//! at a time from `State::file`, with the results of the general path bit for bit.
//!
//! An instruction takes this path when nothing about it needs the general interpreter: a float
//! ALU opcode of one destination whose sources are all direct, one-dimensional, in declared range
//! and readable from `State::file` ([`Layout::row_of`]), modified only by swizzles (EXT_SWZ
//! selectors included), negates and absolute values; a destination that is a direct, in-range
//! temporary or output with no modulate and no condition test; no CondFlow and no condition-code
//! update. KIL and the IF test with such a source take it too. Everything else (the other modifiers, indirect and
//! 2-D addressing, address, integer and double opcodes, condition codes, control flow, texture)
//! stays on the general path in `exec`.
//!
//! Why it is exact: each source component is the same bits the general path's `operand::modify`
//! computes (swizzle, then the sign-bit negates and absolute value in its order), every formula is
//! the same `float` function per component (or `ops_float::eval` itself per lane for the less
//! common opcodes), all sources are read before anything is written, and only the executing lanes
//! and the write-masked components are written, through the same saturate. Lanes that do not
//! execute are computed and dropped: reads of in-range registers have no side effect.

use super::float::{self as f, ONE, ZERO};
use super::ops_float;
use super::state::{Layout, Mask, Slot};
use crate::run_io::LANES;
use microcode::tgsi::opcode::{Kind, Lowering, OperandType};
use microcode::tgsi::{ExtSel, File, Instruction, Modulate, Opcode, Saturate, SrcOperand};

const SIGN: u32 = 0x8000_0000;

/// `[e(0), e(1), e(2), e(3)]` as a plain loop, which the compiler inlines and vectorises more
/// readily than `std::array::from_fn`.
macro_rules! lanes {
    (|$l:ident| $e:expr) => {{
        let mut r = [Default::default(); LANES];
        for $l in 0..LANES {
            r[$l] = $e;
        }
        r
    }};
}

/// One component of four lanes.
pub type Lanes = [u32; LANES];

/// A source operand decoded against the layout: where each component comes from in
/// `State::file` and its sign-bit modifiers, `((x ^ flip[c]) & keep) ^ neg`.
#[derive(Clone, Copy, Debug)]
pub struct Src {
    at: [u32; 4],
    flip: [u32; 4],
    keep: u32,
    neg: u32,
}

impl Src {
    fn decode(layout: &Layout, src: &SrcOperand) -> Option<Src> {
        let m = &src.ext_mod;
        if src.reg.indirect.is_some()
            || src.reg.dimension.is_some()
            || m.complement
            || m.bias
            || m.scale2x
        {
            return None;
        }
        let row = layout.row_of(Slot {
            file: src.reg.file,
            dim: 0,
            index: i64::from(src.reg.index),
        })?;
        let rows = layout.rows();
        let mut at = [0u32; 4];
        let mut flip = [0u32; 4];
        for c in 0..4 {
            let (r, comp, ext_neg) = match &src.ext_swizzle {
                None => (row, usize::from(src.swizzle[c] & 3), false),
                Some(e) => {
                    if e.divide != ExtSel::One {
                        return None;
                    }
                    let (r, comp) = match e.select[c] {
                        ExtSel::Zero => (rows.zero, 0),
                        ExtSel::One => (rows.one, 0),
                        sel => (row, usize::from(src.swizzle[sel as usize] & 3)),
                    };
                    (r, comp, e.negate[c])
                }
            };
            at[c] = u32::try_from(r * 4 + comp).ok()?;
            flip[c] = if ext_neg != src.negate { SIGN } else { 0 };
        }
        Some(Src {
            at,
            flip,
            keep: if m.absolute { !SIGN } else { !0 },
            neg: if m.negate { SIGN } else { 0 },
        })
    }

    /// Component `c` of every lane, modifiers applied.
    #[inline(always)]
    fn comp(&self, file: &[Lanes], c: usize) -> Lanes {
        let v = file[self.at[c] as usize];
        let (flip, keep, neg) = (self.flip[c], self.keep, self.neg);
        lanes!(|l| ((v[l] ^ flip) & keep) ^ neg)
    }
}

/// The destination of a fast instruction: its first entry in `State::file`, write mask and
/// saturate mode.
#[derive(Clone, Copy, Debug)]
pub struct Dst {
    at: u32,
    mask: u8,
    saturate: Saturate,
}

impl Dst {
    fn decode(layout: &Layout, inst: &Instruction) -> Option<Dst> {
        let [d] = inst.dst.as_slice() else {
            return None;
        };
        if d.reg.indirect.is_some()
            || d.reg.dimension.is_some()
            || d.cond.is_some()
            || d.modulate != Modulate::X1
            || !matches!(
                d.reg.file,
                File::Temporary | File::Output | File::TemporaryArray
            )
        {
            return None;
        }
        let row = layout.row_of(Slot {
            file: d.reg.file,
            dim: 0,
            index: i64::from(d.reg.index),
        })?;
        Some(Dst {
            at: u32::try_from(row * 4).ok()?,
            mask: d.write_mask & 0xF,
            saturate: inst.saturate,
        })
    }

    fn writes(&self, c: usize) -> bool {
        self.mask & (1 << c) != 0
    }

    /// Saturates and stores the written components of the executing lanes.
    #[inline(always)]
    fn put(&self, file: &mut [Lanes], r: &[Lanes; 4], exec: Mask) {
        for (c, v) in r.iter().enumerate() {
            if !self.writes(c) {
                continue;
            }
            let v = match self.saturate {
                Saturate::None => *v,
                Saturate::ZeroOne => v.map(|x| f::saturate(x, 0.0)),
                Saturate::MinusPlusOne => v.map(|x| f::saturate(x, -1.0)),
            };
            let slot = &mut file[self.at as usize + c];
            for l in 0..LANES {
                if exec[l] {
                    slot[l] = v[l];
                }
            }
        }
    }
}

/// Whether `op` runs on the fast path: a float opcode of the table (not a matrix, not
/// binary64) that `ops_float::eval` defines on its own, writing every component. The opcodes
/// with a four-lane kernel of their own are the arms of [`Alu::run`]; every other one runs
/// through `ops_float::eval` lane by lane.
fn fast(op: Opcode) -> bool {
    let info = op.info();
    info.result_mask() == 0xF
        && info.matrix().is_none()
        && info.lowering != Lowering::Double
        && ops_float::eval(op, &[[0; 4]; 3]).is_some_and(|w| w.iter().all(Option::is_some))
}

/// A fast ALU instruction.
#[derive(Clone, Copy, Debug)]
pub struct Alu {
    op: Opcode,
    dst: Dst,
    src: [Src; 3],
    nsrc: usize,
}

/// How the interpreter runs one instruction.
#[derive(Clone, Copy, Debug)]
pub enum Decoded {
    /// Through the general interpreter.
    General,
    /// A float ALU instruction through [`Alu::run`].
    Alu(Alu),
    /// KIL of a plain source: the executing lanes with a component below zero die.
    Kil(Src),
    /// IF / IFC of a plain source: [`test_x`] gives the lanes that take the branch; the masks
    /// are the interpreter's.
    If(Src),
}

impl Decoded {
    /// How `inst` runs with `layout`.
    pub fn new(layout: &Layout, inst: &Instruction) -> Decoded {
        Decoded::decode(layout, inst).unwrap_or(Decoded::General)
    }

    fn decode(layout: &Layout, inst: &Instruction) -> Option<Decoded> {
        let info = inst.opcode.info();
        if inst.cond_flow.is_some() || inst.cond_update.is_some() {
            return None;
        }
        if matches!(inst.opcode, Opcode::If | Opcode::Ifc) {
            let s = inst.src.first()?;
            return Some(Decoded::If(Src::decode(layout, s)?));
        }
        if inst.opcode == Opcode::Kil && info.kind == Kind::Kill {
            let [s] = inst.src.as_slice() else {
                return None;
            };
            return Some(Decoded::Kil(Src::decode(layout, s)?));
        }
        let float = |t| matches!(t, OperandType::Float | OperandType::Untyped);
        if info.kind != Kind::Alu
            || !float(info.src_type)
            || !float(info.dst_type)
            || info.num_dst != 1
            || inst.src.len() != usize::from(info.num_src)
            || inst.src.len() > 3
        {
            return None;
        }
        let op = inst.opcode;
        if !fast(op) {
            return None;
        }
        let dst = Dst::decode(layout, inst)?;
        let none = Src {
            at: [0; 4],
            flip: [0; 4],
            keep: !0,
            neg: 0,
        };
        let mut src = [none; 3];
        for (d, s) in src.iter_mut().zip(&inst.src) {
            *d = Src::decode(layout, s)?;
        }
        Some(Decoded::Alu(Alu {
            op,
            dst,
            src,
            nsrc: inst.src.len(),
        }))
    }
}

/// The lanes of `exec` whose `src.x` is not zero as a float (-0 and subnormals are zero, NaN is
/// not).
pub fn test_x(src: &Src, file: &[Lanes], exec: Mask) -> Mask {
    let x = in4(src.comp(file, 0));
    lanes!(|l| exec[l] && x[l] != 0.0)
}

/// KIL: the lanes of `exec` that read a component below zero.
pub fn kil(src: &Src, file: &[Lanes], exec: Mask) -> Mask {
    let v: [Lanes; 4] = [0, 1, 2, 3].map(|c| src.comp(file, c));
    lanes!(|l| exec[l] && v.iter().any(|x| f::lt(x[l], ZERO)))
}

// Four-lane forms of the `float` functions, with the same bits: `float::flush`, `input` and
// `output` as integer masks instead of branches, so that the compiler turns a lane loop into
// vector instructions (the binary32 add and multiply of a vector unit round like the scalar ones).

const EXP: u32 = 0x7F80_0000;

/// `float::flush` of each lane.
#[inline(always)]
fn flush4(a: Lanes) -> Lanes {
    let mut r = [0u32; LANES];
    for l in 0..LANES {
        let zero_exp = (u32::from(a[l] & EXP == 0)).wrapping_neg();
        r[l] = a[l] & !(zero_exp & !SIGN);
    }
    r
}

/// `float::input` of each lane.
#[inline(always)]
fn in4(a: Lanes) -> [f32; LANES] {
    flush4(a).map(f32::from_bits)
}

/// `float::output` of each lane.
#[inline(always)]
fn out4(v: [f32; LANES]) -> Lanes {
    let bits = flush4(v.map(f32::to_bits));
    let mut r = [0u32; LANES];
    for l in 0..LANES {
        let raw = v[l].to_bits();
        let nan = (u32::from(raw & !SIGN > EXP)).wrapping_neg();
        r[l] = (bits[l] & !nan) | (f::CANONICAL_NAN & nan);
    }
    r
}

/// `float::add`, `sub` and `mul` of each lane.
#[inline(always)]
fn add4(a: Lanes, b: Lanes) -> Lanes {
    let (x, y) = (in4(a), in4(b));
    out4(lanes!(|l| x[l] + y[l]))
}

#[inline(always)]
fn sub4(a: Lanes, b: Lanes) -> Lanes {
    let (x, y) = (in4(a), in4(b));
    out4(lanes!(|l| x[l] - y[l]))
}

#[inline(always)]
fn div4(a: Lanes, b: Lanes) -> Lanes {
    let (x, y) = (in4(a), in4(b));
    out4(lanes!(|l| x[l] / y[l]))
}

#[inline(always)]
fn mul4(a: Lanes, b: Lanes) -> Lanes {
    let (x, y) = (in4(a), in4(b));
    out4(lanes!(|l| x[l] * y[l]))
}

/// All ones where `float::lt(a, b)`, else zero.
#[inline(always)]
fn lt4(a: Lanes, b: Lanes) -> Lanes {
    let (x, y) = (in4(a), in4(b));
    lanes!(|l| u32::from(x[l] < y[l]).wrapping_neg())
}

/// All ones where `float::ge(a, b)`, else zero.
#[inline(always)]
fn ge4(a: Lanes, b: Lanes) -> Lanes {
    let (x, y) = (in4(a), in4(b));
    lanes!(|l| u32::from(x[l] >= y[l]).wrapping_neg())
}

/// `float::floor` of each lane without a library call: below 2^23 in magnitude the truncation
/// through int32 is exact and keeps the sign (so -0.5 truncates to -0 and floors to -1, and -0
/// stays -0), one less where it lies above `x`; larger values, infinities and NaN are their own
/// floor.
#[inline(always)]
fn floor4(a: Lanes) -> Lanes {
    let x = in4(a);
    out4(lanes!(|l| {
        let v = x[l];
        let t = (v as i32 as f32).copysign(v);
        let fl = if t > v { t - 1.0 } else { t };
        if v.abs() < 8_388_608.0 {
            fl
        } else {
            v
        }
    }))
}

/// All ones where `float::eq(a, b)`, else zero.
#[inline(always)]
fn eq4(a: Lanes, b: Lanes) -> Lanes {
    let (x, y) = (in4(a), in4(b));
    lanes!(|l| u32::from(x[l] == y[l]).wrapping_neg())
}

/// `float::flush(if m { a } else { b })` of each lane.
#[inline(always)]
fn select4(m: Lanes, a: Lanes, b: Lanes) -> Lanes {
    flush4(lanes!(|l| (a[l] & m[l]) | (b[l] & !m[l])))
}

/// `float::bool_bits` of a mask.
#[inline(always)]
fn bool4(m: Lanes) -> Lanes {
    m.map(|m| ONE & m)
}

/// `((a0*b0 + a1*b1) + a2*b2) + ...` over the first `n` components, per lane.
#[inline(always)]
fn dot(a: &Src, b: &Src, file: &[Lanes], n: usize) -> Lanes {
    let mut acc = mul4(a.comp(file, 0), b.comp(file, 0));
    for c in 1..n {
        acc = add4(acc, mul4(a.comp(file, c), b.comp(file, c)));
    }
    acc
}

impl Alu {
    /// Runs the instruction on the lanes of `exec`.
    #[inline]
    pub fn run(&self, file: &mut [Lanes], exec: Mask) {
        let [a, b, c3] = &self.src;
        let d = &self.dst;
        // Per component the expression of the sources' component `c` (four lanes each), where
        // the destination writes it.
        macro_rules! each {
            (|$x:ident| $e:expr) => {{
                let mut r = [[0u32; LANES]; 4];
                for (c, r) in r.iter_mut().enumerate() {
                    if d.writes(c) {
                        let $x = a.comp(file, c);
                        *r = $e;
                    }
                }
                d.put(file, &r, exec)
            }};
            (|$x:ident, $y:ident| $e:expr) => {{
                let mut r = [[0u32; LANES]; 4];
                for (c, r) in r.iter_mut().enumerate() {
                    if d.writes(c) {
                        let ($x, $y) = (a.comp(file, c), b.comp(file, c));
                        *r = $e;
                    }
                }
                d.put(file, &r, exec)
            }};
            (|$x:ident, $y:ident, $z:ident| $e:expr) => {{
                let mut r = [[0u32; LANES]; 4];
                for (c, r) in r.iter_mut().enumerate() {
                    if d.writes(c) {
                        let ($x, $y, $z) = (a.comp(file, c), b.comp(file, c), c3.comp(file, c));
                        *r = $e;
                    }
                }
                d.put(file, &r, exec)
            }};
        }
        // Every component the same value of every lane.
        let rep = |file: &mut [Lanes], v: Lanes| d.put(file, &[v; 4], exec);
        // A scalar function of `src0.x`.
        macro_rules! scalar {
            ($f:expr) => {{
                let x = a.comp(file, 0);
                let f = $f;
                let v: Lanes = lanes!(|l| f(x[l]));
                rep(file, v)
            }};
        }
        use Opcode as O;
        match self.op {
            O::Mov | O::Swz => each!(|x| x),
            O::Abs => each!(|x| x.map(|v| v & !SIGN)),
            O::Div => each!(|x, y| div4(x, y)),
            O::Sgt => each!(|x, y| bool4(lt4(y, x))),
            O::Sle => each!(|x, y| bool4(ge4(y, x))),
            O::Seq => each!(|x, y| bool4(eq4(x, y))),
            O::Sne => each!(|x, y| bool4(eq4(x, y).map(|m| !m))),
            O::Add => each!(|x, y| add4(x, y)),
            O::Sub => each!(|x, y| sub4(x, y)),
            O::Mul => each!(|x, y| mul4(x, y)),
            O::Mad => each!(|x, y, z| add4(mul4(x, y), z)),
            O::Lrp => each!(|x, y, z| add4(mul4(x, sub4(y, z)), z)),
            O::Cmp => each!(|x, y, z| select4(lt4(x, [ZERO; LANES]), y, z)),
            O::Min => each!(|x, y| select4(lt4(x, y), x, y)),
            O::Max => each!(|x, y| select4(lt4(y, x), x, y)),
            O::Slt => each!(|x, y| bool4(lt4(x, y))),
            O::Sge => each!(|x, y| bool4(ge4(x, y))),
            O::Frc => each!(|x| sub4(x, floor4(x))),
            O::Flr => each!(|x| floor4(x)),
            O::Dp2 => rep(file, dot(a, b, file, 2)),
            O::Dp3 => rep(file, dot(a, b, file, 3)),
            O::Dp4 => rep(file, dot(a, b, file, 4)),
            O::Rcp => scalar!(|x| f::div(ONE, x)),
            O::Rsq => scalar!(f::rsq),
            O::Ex2 => scalar!(f::ex2),
            O::Lg2 => scalar!(f::lg2),
            O::Sin => scalar!(f::sin),
            O::Cos => scalar!(f::cos),
            op => self.per_lane(op, file, exec),
        }
    }

    /// `ops_float::eval` lane by lane; a component it leaves out is not written.
    fn per_lane(&self, op: Opcode, file: &mut [Lanes], exec: Mask) {
        let s: [[Lanes; 4]; 3] =
            std::array::from_fn(|k| std::array::from_fn(|c| self.src[k].comp(file, c)));
        let mut r = [[0u32; LANES]; 4];
        let mut written = [[false; LANES]; 4];
        for l in 0..LANES {
            if !exec[l] {
                continue;
            }
            let lane: [[u32; 4]; 3] = std::array::from_fn(|k| std::array::from_fn(|c| s[k][c][l]));
            let Some(w) = ops_float::eval(op, &lane[..self.nsrc]) else {
                continue;
            };
            for c in 0..4 {
                if let Some(v) = w[c] {
                    r[c][l] = v;
                    written[c][l] = true;
                }
            }
        }
        for c in (0..4).filter(|&c| self.dst.writes(c)) {
            let v = match self.dst.saturate {
                Saturate::None => r[c],
                Saturate::ZeroOne => r[c].map(|x| f::saturate(x, 0.0)),
                Saturate::MinusPlusOne => r[c].map(|x| f::saturate(x, -1.0)),
            };
            let slot = &mut file[self.dst.at as usize + c];
            for l in 0..LANES {
                if written[c][l] {
                    slot[l] = v[l];
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor4_is_float_floor() {
        let mut bits: Vec<u32> = vec![
            0,
            SIGN,
            1,
            SIGN | 1,
            0x3F00_0000,
            0xBF00_0000,
            0x4B00_0000,
            0xCB00_0000,
            0x4AFF_FFFF,
            0xCAFF_FFFF,
            0x7F80_0000,
            0xFF80_0000,
            0x7FC0_0001,
            0xFFC0_0000,
            0x7F7F_FFFF,
            0xFF7F_FFFF,
            0x3F7F_FFFF,
            0xBF7F_FFFF,
            0x0080_0000,
            0x8080_0000,
        ];
        // Every 4099th bit pattern: all exponents, both signs.
        bits.extend((0..=u32::MAX).step_by(4099));
        for chunk in bits.chunks(LANES) {
            let mut a = [0u32; LANES];
            a[..chunk.len()].copy_from_slice(chunk);
            let got = floor4(a);
            for l in 0..LANES {
                assert_eq!(got[l], f::floor(a[l]), "{:#010x}", a[l]);
            }
        }
    }
}

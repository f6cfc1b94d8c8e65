//! TGSI source operands to core operands (`decisions.md` section 3 order).
//!
//! Free on the read path: swizzle composed with EXT_SWZ (its ZERO / ONE selectors are the
//! swizzle's literal selectors), the per-component EXT_SWZ negate and the SRC negate (the operand's
//! negate bits), EXT_MOD absolute and negate (sign-bit operations). Complement, bias and scale2x
//! are FMADs and ExtDivide a division (the divider's DIV, or without it the sequence of `div.rs`)
//! + MOV into a scratch register, after which the operand reads the scratch register.

use super::alloc::Place;
use super::{CompileError, Ctx};
use crate::core::isa::{Instr, Op, Operand, SrcFile, SWZ_ONE, SWZ_ZERO};
use crate::tgsi::{ExtSel, SrcOperand};

/// Literal values used by the lowerings.
pub(crate) const ZERO: u32 = 0;
pub(crate) const ONE: u32 = 0x3F80_0000;
pub(crate) const HALF: u32 = 0x3F00_0000;
pub(crate) const TWO: u32 = 0x4000_0000;
pub(crate) const L128: u32 = 0x4300_0000;

impl Ctx<'_> {
    /// A literal operand (all components `bits`, negated when `neg`).
    pub(crate) fn lit(&self, bits: u32, neg: bool) -> Result<Operand, CompileError> {
        let index = self.config.literals.iter().position(|&l| l == bits).ok_or(
            CompileError::MissingLiteral {
                index: self.index,
                opcode: self.opcode,
                bits,
            },
        )?;
        Ok(Operand {
            file: SrcFile::L,
            index: index as u8,
            swz: [0, 1, 2, 3],
            neg: if neg { 0xF } else { 0 },
            abs: false,
        })
    }

    /// A K operand holding `v`: a compiler constant, one K slot shared by equal vectors.
    pub(crate) fn konst(&mut self, v: [u32; 4]) -> Operand {
        Operand {
            file: SrcFile::K,
            index: self.alloc.data(v),
            swz: [0, 1, 2, 3],
            neg: 0,
            abs: false,
        }
    }

    /// A register operand of R with identity swizzle.
    pub(crate) fn reg(r: u8) -> Operand {
        Operand {
            file: SrcFile::R,
            index: r,
            swz: [0, 1, 2, 3],
            neg: 0,
            abs: false,
        }
    }

    /// Emits a pipelined instruction writing scratch/destination register `dst`.
    pub(crate) fn op(&mut self, op: Op, dst: u8, wmask: u8, src: &[Operand]) -> usize {
        let mut i = Instr::new(op);
        i.dst = dst;
        i.wmask = wmask;
        for (k, s) in src.iter().enumerate().take(3) {
            i.src[k] = *s;
        }
        self.emit(i)
    }

    /// Lowers a float source operand, emitting modifier sequences into scratch when needed.
    /// A relative read (`FILE[ADDR[a].c + n]`) into a scratch register with MOVR.
    fn relative(&mut self, s: &SrcOperand) -> Result<(SrcFile, u8), CompileError> {
        let bad = || {
            format!(
                "relative read of {} (needs one declaration of the range it indexes, and only \
                 the last bracket relative)",
                s.reg.file
            )
        };
        // `FILE[ADDR + n]`, `FILE[a][ADDR + n]` (TEMPX arrays, constant buffers), or a geometry
        // program's vertex `IN[ADDR + n][i]`.
        let (ind, index) = match (s.reg.indirect, s.reg.dimension) {
            (Some(ind), None) => (ind, s.reg.index),
            (Some(ind), Some(d))
                if d.indirect.is_none()
                    && s.reg.file == crate::tgsi::File::Input
                    && self.program.processor == crate::tgsi::Processor::Geometry =>
            {
                (ind, s.reg.index)
            }
            (None, Some(d)) => (
                d.indirect.ok_or_else(|| self.unsupported("not indirect"))?,
                d.index,
            ),
            _ => return Err(self.unsupported(bad())),
        };
        if !matches!(
            ind.file,
            crate::tgsi::File::Address | crate::tgsi::File::Loop
        ) {
            return Err(self.unsupported(bad()));
        }
        let Relative {
            first,
            addr,
            component,
            off,
            count,
        } = self.relative_range(&s.reg, ind, index, &bad())?;
        let (file, base) = match first {
            Place::R(r) => (SrcFile::R, r),
            Place::K(k) => (SrcFile::K, k),
        };
        let t = self.scratch();
        let mut i = Instr::new(Op::Movr);
        i.dst = t;
        i.src[0] = Operand {
            file,
            index: base,
            swz: [0, 1, 2, 3],
            neg: 0,
            abs: false,
        };
        i.src[1] = Operand {
            file: SrcFile::R,
            index: addr,
            swz: [component; 4],
            neg: 0,
            abs: false,
        };
        i.src[2] = Operand {
            index: (count - 1) as u8,
            ..Operand::default()
        };
        i.set_offset(off);
        self.emit(i);
        Ok((SrcFile::R, t))
    }

    /// Resolves the relative reference `reg` (its relative bracket indexed by `ind`, holding
    /// `index`) for MOVR / MOVW: the range it indexes ([`super::alloc::Alloc::range_of`]), the
    /// address register, the offset in the range; `bad` says why it cannot be.
    pub(crate) fn relative_range(
        &self,
        reg: &crate::tgsi::Register,
        ind: crate::tgsi::Indirect,
        index: i32,
        bad: &str,
    ) -> Result<Relative, CompileError> {
        let (first, decl_first, count) = self
            .alloc
            .range_of(self.program, reg)
            .ok_or_else(|| self.unsupported(bad))?;
        let addr = match self
            .alloc
            .place(&crate::tgsi::Register::new(ind.file, ind.index))
        {
            Some(Place::R(r)) => r,
            _ => return Err(self.unsupported(bad)),
        };
        let off = index - decl_first;
        if !(-512..512).contains(&off) || count > 256 {
            return Err(self.unsupported("relative offset beyond the 10-bit target field"));
        }
        Ok(Relative {
            first,
            addr,
            component: ind.component & 3,
            off,
            count,
        })
    }

    /// Lowers a float source operand; an error names the operand.
    pub(crate) fn src(&mut self, s: &SrcOperand) -> Result<Operand, CompileError> {
        let lowered = self.src_lowered(s);
        lowered.map_err(|e| self.blame_src(e, s))
    }

    fn src_lowered(&mut self, s: &SrcOperand) -> Result<Operand, CompileError> {
        let (file, index) = match self.alloc.place(&s.reg) {
            Some(Place::R(r)) => (SrcFile::R, r),
            Some(Place::K(k)) => (SrcFile::K, k),
            None if s.reg.is_relative() => self.relative(s)?,
            None => {
                return Err(self.unsupported(format!(
                    "source register {}[{}]{}",
                    s.reg.file,
                    s.reg.index,
                    if s.reg.indirect.is_some() {
                        " (indirect)"
                    } else {
                        ""
                    }
                )))
            }
        };
        let mut swz = [0u8; 4];
        let mut neg = 0u8;
        for (c, sw) in swz.iter_mut().enumerate() {
            *sw = match &s.ext_swizzle {
                None => s.swizzle[c] & 3,
                Some(e) => match e.select[c] {
                    ExtSel::Zero => SWZ_ZERO,
                    ExtSel::One => SWZ_ONE,
                    sel => s.swizzle[sel as usize] & 3,
                },
            };
            let ext_neg = s.ext_swizzle.is_some_and(|e| e.negate[c]);
            if ext_neg ^ s.negate {
                neg |= 1 << c;
            }
        }
        let mut cur = Operand {
            file,
            index,
            swz,
            neg,
            abs: false,
        };
        let m = s.ext_mod;
        if m.complement || m.bias || m.scale2x {
            let t = self.scratch();
            if m.complement {
                let (one, mone) = (self.lit(ONE, false)?, self.lit(ONE, true)?);
                self.op(Op::Fmad, t, 0xF, &[cur, mone, one]);
                cur = Self::reg(t);
            }
            if m.bias {
                let (one, mhalf) = (self.lit(ONE, false)?, self.lit(HALF, true)?);
                self.op(Op::Fmad, t, 0xF, &[cur, one, mhalf]);
                cur = Self::reg(t);
            }
            if m.scale2x {
                let (two, mzero) = (self.lit(TWO, false)?, self.lit(ZERO, true)?);
                self.op(Op::Fmad, t, 0xF, &[cur, two, mzero]);
                cur = Self::reg(t);
            }
        }
        if m.absolute {
            cur.abs = true;
            cur.neg = 0;
        }
        if m.negate {
            cur.neg ^= 0xF;
        }
        if let Some(e) = &s.ext_swizzle {
            match e.divide {
                ExtSel::One => {}
                ExtSel::W => {
                    let t = self.scratch();
                    let w = Operand {
                        swz: [cur.swz[3]; 4],
                        neg: if cur.neg & 8 != 0 { 0xF } else { 0 },
                        ..cur
                    };
                    self.divide_into(t, 0b0111, cur, w)?;
                    self.op(Op::Mov, t, 0b1000, &[cur]);
                    cur = Self::reg(t);
                }
                other => return Err(self.unsupported(format!("ExtDivide by {other:?}"))),
            }
        }
        Ok(cur)
    }
}

/// The operand reading component `c` of `o` in every component (scalar sources).
pub(crate) fn splat(o: Operand, c: usize) -> Operand {
    let bit = (o.neg >> c) & 1;
    Operand {
        swz: [o.swz[c]; 4],
        neg: if bit != 0 { 0xF } else { 0 },
        ..o
    }
}

/// A relative register reference resolved to the core ([`Ctx::relative_range`]): the first slot
/// of the range it indexes, the address register and component, the offset in the range and its
/// length.
#[derive(Clone, Copy)]
pub(crate) struct Relative {
    pub first: Place,
    pub addr: u8,
    pub component: u8,
    pub off: i32,
    pub count: i32,
}

/// `o` with its components permuted: component c reads what component `p[c]` read.
pub(crate) fn perm(o: Operand, p: [usize; 4]) -> Operand {
    let mut r = o;
    r.neg = 0;
    for (c, &from) in p.iter().enumerate() {
        r.swz[c] = o.swz[from];
        r.neg |= ((o.neg >> from) & 1) << c;
    }
    r
}

pub(crate) fn negated(o: Operand) -> Operand {
    Operand {
        neg: o.neg ^ 0xF,
        ..o
    }
}

/// A scratch register read with a swizzle (0-3 components, SWZ_ZERO / SWZ_ONE literals).
pub(crate) fn sel(r: u8, swz: [u8; 4]) -> Operand {
    Operand { swz, ..Ctx::reg(r) }
}

//! Texture opcodes.
//!
//! TEX, TXB, TXL, TXD and TXP on 1D, 2D, RECT and UNKNOWN targets become the texture unit's
//! sequence (`arith::texel`): one multiply-add scales both coordinates, FLR / FMAD / F2IF give
//! `floor`, the weight and the integer index, `TIDX` wraps the four indices, an OR forms the four
//! texel addresses, `TFRC` the weights, `TFET` fetches the texels, multiply-adds lerp
//! (`a * (1 - f) + b * f`, one rounding each, x first) and `TSEL` picks the texel itself when the
//! sampler filters nearest (after each lerp stage, so the nearest texel's bits pass unchanged).
//! Four scratch registers. Bias, lod and derivatives are read and have no effect on
//! single-level textures; TXP divides x, y, z by w first (as ExtDivide). TXF on 1D, 2D and RECT
//! is `TIDXF` per axis, an OR and `TFET`; TXQ moves the sampler's size descriptor. 3D, CUBE and
//! SHADOW targets (and TXF on the others) stay single model-only operations (`TEX`, `TXF`).

use super::lower::{negated, perm, sel};
use super::operand::{splat, ONE};
use super::{CompileError, Ctx};
use crate::core::isa::{Instr, Op, Operand, SrcFile};
use crate::tgsi::{File, Instruction, Opcode, TextureTarget};

const XY: u8 = 0b0011;
const X: u8 = 0b0001;

/// Lowers a texture opcode.
pub(crate) fn lower_texture(c: &mut Ctx, inst: &Instruction) -> Result<(), CompileError> {
    let op = inst.opcode;
    let samp_at = if op == Opcode::Txd { 3 } else { 1 };
    let samp = inst
        .src
        .get(samp_at)
        .filter(|s| s.reg.file == File::Sampler && s.reg.indirect.is_none())
        .ok_or_else(|| c.unsupported("texture sampler operand"))?;
    let unit =
        u8::try_from(samp.reg.index).map_err(|_| c.unsupported("sampler unit beyond 255"))?;
    let target = inst.texture.unwrap_or(TextureTarget::Unknown);
    let coords = inst
        .src
        .first()
        .ok_or_else(|| c.unsupported("texture opcode without coordinates"))?;
    let core_op = match op {
        Opcode::Txq => Op::Txq,
        Opcode::Txf => Op::Txf,
        _ => Op::Tex,
    };
    let mut a = match core_op {
        Op::Tex => c.src(coords)?,
        Op::Txf => c.int_src(coords)?,
        _ => Operand::default(),
    };
    if op == Opcode::Txp {
        let t = c.scratch();
        let w = splat(a, 3);
        c.op(Op::Div, t, 0b0111, &[a, w]);
        c.op(Op::Mov, t, 0b1000, &[a]);
        a = Ctx::reg(t);
    }
    let d = c.dst(inst)?;
    let planar = matches!(
        target,
        TextureTarget::T1D | TextureTarget::T2D | TextureTarget::Rect
    );
    match core_op {
        Op::Tex if planar || target == TextureTarget::Unknown => {
            let (last, src) = c.sample(a, unit, target)?;
            c.fin(last, d, 0xF, &src);
            return Ok(());
        }
        Op::Txf if planar => {
            let (last, src) = c.fetch(a, unit, target)?;
            c.fin_target(last, d, 0xF, &src, u16::from(unit));
            return Ok(());
        }
        Op::Txq => {
            // The size comes with the sampler's descriptors; TXQ moves it (and, in the model,
            // checks that a texture is bound).
            let size = k(c.alloc.texture(u16::from(unit), 2), [0, 1, 2, 3]);
            c.fin_target(Op::Txq, d, 0xF, &[size], u16::from(unit));
            return Ok(());
        }
        _ => {}
    }
    let b = Operand {
        index: unit,
        ..Operand::default()
    };
    let t = Operand {
        index: target as u8,
        ..Operand::default()
    };
    c.fin(core_op, d, 0xF, &[a, b, t]);
    Ok(())
}

/// A K slot read with a swizzle.
fn k(slot: u8, swz: [u8; 4]) -> Operand {
    Operand {
        file: SrcFile::K,
        index: slot,
        swz,
        neg: 0,
        abs: false,
    }
}

impl Ctx<'_> {
    /// Emits TXF's sequence on int32 coordinates `a` up to its last instruction (`TFET`, whose
    /// target the caller sets to `unit`): `TIDXF` per axis (out of range: the address bit that
    /// reads zeros), an OR for 2D.
    fn fetch(
        &mut self,
        a: Operand,
        unit: u8,
        target: TextureTarget,
    ) -> Result<(Op, [Operand; 3]), CompileError> {
        let two_d = target != TextureTarget::T1D;
        let k0 = self.alloc.texture(u16::from(unit), 0);
        let k1 = self.alloc.texture(u16::from(unit), 1);
        let t = self.scratch();
        self.op(
            Op::Tidxf,
            t,
            if two_d { XY } else { X },
            &[a, k(k1, [0, 1, 0, 1])],
        );
        if two_d {
            self.op(Op::Or, t, X, &[sel(t, [0; 4]), sel(t, [1; 4])]);
        }
        Ok((
            Op::Tfet,
            [sel(t, [0; 4]), k(k0, [3; 4]), Operand::default()],
        ))
    }

    /// Emits the sampling sequence of coordinates `a` (x, and y unless 1D) on sampler `unit` up
    /// to its last instruction (`TSEL`), which it returns for the caller to write.
    fn sample(
        &mut self,
        a: Operand,
        unit: u8,
        target: TextureTarget,
    ) -> Result<(Op, [Operand; 3]), CompileError> {
        let two_d = target != TextureTarget::T1D;
        let axes = if two_d { XY } else { X };
        let k0 = self.alloc.texture(u16::from(unit), 0);
        let k1 = self.alloc.texture(u16::from(unit), 1);
        let one = self.lit(ONE, false)?;
        let mzero = self.lit(0, true)?;
        let [t1, t2, t3, t4] = [(); 4].map(|_| self.scratch());
        let scale = if target == TextureTarget::Rect {
            one
        } else {
            k(k0, [0, 1, 1, 1])
        };
        // t1.xy = u * size + offset (-0.5 bilinear, -0 nearest); t1.zw = floor of it.
        self.op(Op::Fmad, t1, axes, &[a, scale, k(k0, [2; 4])]);
        self.op(Op::Flr, t1, axes << 2, &[sel(t1, [0, 1, 0, 1])]);
        // t2.xy = a - floor(a); t2.zw = floor(a) as int32.
        self.op(
            Op::Fmad,
            t2,
            axes,
            &[negated(sel(t1, [2, 3, 2, 3])), one, Ctx::reg(t1)],
        );
        self.op(Op::F2if, t2, axes << 2, &[sel(t1, [0, 1, 0, 1])]);
        // t1 = the wrapped indices (s, t, s + 1, t + 1), then the four texel addresses
        // (s | t, s+1 | t, s | t+1, s+1 | t+1); 1D: s in x, s + 1 in z.
        let idx_mask = if two_d { 0xF } else { 0b0101 };
        self.op(
            Op::Tidx,
            t1,
            idx_mask,
            &[
                sel(t2, [2, 3, 2, 3]),
                perm(a, [0, 1, 0, 1]),
                k(k1, [0, 1, 2, 3]),
            ],
        );
        if two_d {
            self.op(
                Op::Or,
                t1,
                0xF,
                &[sel(t1, [0, 2, 0, 2]), sel(t1, [1, 1, 3, 3])],
            );
        }
        // t2.xy = the weights, t2.zw = 1 - weights.
        self.op(Op::Tfrc, t2, axes, &[Ctx::reg(t2), a, k(k1, [0, 1, 0, 1])]);
        self.op(
            Op::Fmad,
            t2,
            axes << 2,
            &[negated(sel(t2, [0, 1, 0, 1])), one, one],
        );
        let base = k(k0, [3; 4]);
        let fetch = |c: &mut Ctx, dst: u8, comp: u8| {
            let mut i = Instr::new(Op::Tfet);
            i.dst = dst;
            i.src[0] = sel(t1, [comp; 4]);
            i.src[1] = base;
            i.target = u16::from(unit);
            c.emit(i);
        };
        // lerp(p, q, f) into q: q * f + -0, then p * (1 - f) + that.
        let lerp = |c: &mut Ctx, p: u8, q: u8, comp: u8| {
            c.op(Op::Fmad, q, 0xF, &[Ctx::reg(q), sel(t2, [comp; 4]), mzero]);
            c.op(
                Op::Fmad,
                q,
                0xF,
                &[Ctx::reg(p), sel(t2, [comp + 2; 4]), Ctx::reg(q)],
            );
        };
        // Row 0 (1D: the only one) into t4; t3 becomes TSEL(row 0, texel 00): the texel itself
        // for nearest filtering, so the last TSEL below returns its bits unchanged.
        fetch(self, t3, 0);
        fetch(self, t4, if two_d { 1 } else { 2 });
        lerp(self, t3, t4, 0);
        if !two_d {
            return Ok((Op::Tsel, [Ctx::reg(t4), Ctx::reg(t3), k(k1, [0; 4])]));
        }
        self.op(
            Op::Tsel,
            t3,
            0xF,
            &[Ctx::reg(t4), Ctx::reg(t3), k(k1, [0; 4])],
        );
        // Row 1 into t1 (the last fetch reads its address from the register it writes: each
        // lane's reads come before its writes), then y.
        fetch(self, t4, 2);
        fetch(self, t1, 3);
        lerp(self, t4, t1, 0);
        lerp(self, t3, t1, 1);
        Ok((Op::Tsel, [Ctx::reg(t1), Ctx::reg(t3), k(k1, [0; 4])]))
    }
}

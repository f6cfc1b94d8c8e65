//! Texture opcodes.
//!
//! TEX, TXB, TXL, TXD and TXP on every target become the texture unit's sequence
//! (`arith::texel`): one multiply-add scales the coordinates, FLR / FMAD / F2IF give `floor`, the
//! weight and the integer index, `TIDX` wraps the indices, ORs form the texel addresses, `TFRC`
//! the weights, `TFET` fetches the texels, multiply-adds lerp (`a * (1 - f) + b * f`, one rounding
//! each, x first, then y, then z) and `TSEL` picks the texel itself when the sampler filters
//! nearest (so the nearest texel's bits pass unchanged). 3D adds the r axis (its slice bits and
//! weight from descriptor part 3) and lerps two slices; CUBE first picks the face and its s, t
//! with compares, selects and a division (as `sim::texture::cube`), then samples that face like
//! 2D; SHADOW targets compare the reference `r` with each fetched texel (`SET.le`) before
//! filtering and return `(res, res, res, 1)`. Bias, lod and derivatives are read and have no
//! effect on single-level textures; TXP divides x, y, z by w first (as ExtDivide). TXF is
//! `TIDXF` per axis, ORs and `TFET` on every target but UNKNOWN (whose addressing depends on
//! the bound texture: the model-only `TXF`); TXQ moves the sampler's size descriptor.
//!
//! The later targets (1D_ARRAY ... SHADOWCUBE_ARRAY, `TextureTarget::is_later`) compile to the
//! model-only TEX and TXF: the core model runs them, the hardware engines refuse them by name.
//!
//! Scratch registers: 4 (1D, 2D, RECT, SHADOW), 5 (CUBE), 6 (3D). A lookup whose sequence does
//! not fit the registers the program leaves free (a 3D lookup in a program using more than ten
//! of its own) compiles to the model-only `TEX` instead, which the core model runs and the
//! hardware engines refuse by name, rather than a program that cannot be compiled at all.

use super::operand::{negated, perm, sel};
use super::operand::{splat, HALF, ONE};
use super::{CompileError, Ctx};
use crate::core::isa::{Cond, Instr, Op, Operand, SrcFile};
use crate::tgsi::{File, Instruction, Opcode, TextureTarget};

const XY: u8 = 0b0011;
const X: u8 = 0b0001;
const Y: u8 = 0b0010;
const Z: u8 = 0b0100;
const W: u8 = 0b1000;

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
        c.divide_into(t, 0b0111, a, w)?;
        c.op(Op::Mov, t, 0b1000, &[a]);
        a = Ctx::reg(t);
    }
    let d = c.dst(inst)?;
    match core_op {
        Op::Tex if Shape::of(target).is_some_and(|s| c.scratch_fits(s.scratch())) => {
            let shape = Shape::of(target).ok_or_else(|| c.unsupported("texture target"))?;
            let (last, src) = c.sample(a, unit, shape)?;
            if shape.shadow {
                c.fin(last, d, 0b0111, &src);
                let one = c.lit(ONE, false)?;
                c.fin(Op::Mov, d, 0b1000, &[one]);
            } else {
                c.fin(last, d, 0xF, &src);
            }
            return Ok(());
        }
        Op::Txf if target != TextureTarget::Unknown && Shape::of(target).is_some() => {
            let shape = Shape::of(target).ok_or_else(|| c.unsupported("texture target"))?;
            let (last, src) = c.fetch(a, unit, shape)?;
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

/// How a target addresses the texture (`sim::texture::sample`'s addressing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    /// x and y (else x only).
    two_d: bool,
    /// Unnormalised coordinates.
    rect: bool,
    /// The r axis of a 3D texture.
    volume: bool,
    /// A cube-map direction.
    cube: bool,
    /// Depth comparison with the coordinate's z.
    shadow: bool,
}

impl Shape {
    /// Scratch registers the sampling sequence takes (`Ctx::sample`).
    fn scratch(self) -> usize {
        if self.volume {
            6
        } else if self.cube {
            5
        } else {
            4
        }
    }

    /// The shape of Mesa 7.9's targets; `None` for the later ones (array layers, cube arrays,
    /// depth comparison on arrays and cube maps), which the texture unit's sequence does not
    /// address: they compile to the model-only TEX / TXF.
    fn of(target: TextureTarget) -> Option<Shape> {
        use TextureTarget as T;
        if target.is_later() {
            return None;
        }
        Some(Shape {
            two_d: !matches!(target, T::T1D | T::Shadow1D),
            rect: matches!(target, T::Rect | T::ShadowRect),
            volume: target == T::T3D,
            cube: target == T::Cube,
            shadow: matches!(target, T::Shadow1D | T::Shadow2D | T::ShadowRect),
        })
    }
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
    /// reads zeros), ORs of the axes.
    fn fetch(
        &mut self,
        a: Operand,
        unit: u8,
        shape: Shape,
    ) -> Result<(Op, [Operand; 3]), CompileError> {
        let k0 = self.alloc.texture(u16::from(unit), 0);
        let k1 = self.alloc.texture(u16::from(unit), 1);
        let t = self.scratch();
        self.op(
            Op::Tidxf,
            t,
            if shape.two_d { XY } else { X },
            &[a, k(k1, [0, 1, 0, 1])],
        );
        if shape.volume || shape.cube {
            // The slice of a 3D texture, the face of a cube map.
            let k3 = self.alloc.texture(u16::from(unit), 3);
            let word = if shape.cube { 3 } else { 0 };
            self.op(Op::Tidxf, t, Z, &[a, k(k3, [word; 4])]);
            self.op(Op::Tor, t, Y, &[sel(t, [1; 4]), sel(t, [2; 4])]);
        }
        if shape.two_d {
            self.op(Op::Tor, t, X, &[sel(t, [0; 4]), sel(t, [1; 4])]);
        }
        Ok((
            Op::Tfet,
            [sel(t, [0; 4]), k(k0, [3; 4]), Operand::default()],
        ))
    }

    /// Emits the sampling sequence of coordinates `a` on sampler `unit` up to its last
    /// instruction (`TSEL`), which it returns for the caller to write.
    fn sample(
        &mut self,
        a: Operand,
        unit: u8,
        shape: Shape,
    ) -> Result<(Op, [Operand; 3]), CompileError> {
        let axes = if shape.two_d { XY } else { X };
        let k0 = self.alloc.texture(u16::from(unit), 0);
        let k1 = self.alloc.texture(u16::from(unit), 1);
        let one = self.lit(ONE, false)?;
        // The depth reference of SHADOW targets: the coordinate's z.
        let reference = shape.shadow.then(|| perm(a, [2; 4]));
        // CUBE samples the chosen face like 2D, at s, t of register `face` (z: the face's bits).
        let face = if shape.cube {
            Some(self.cube_face(a, unit)?)
        } else {
            None
        };
        let a = face.map_or(a, Ctx::reg);
        let [t1, t2] = [(); 2].map(|_| self.scratch());
        let scale = if shape.rect { one } else { k(k0, [0, 1, 1, 1]) };
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
        let idx_mask = if shape.two_d { 0xF } else { 0b0101 };
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
        if shape.two_d {
            self.op(
                Op::Tor,
                t1,
                0xF,
                &[sel(t1, [0, 2, 0, 2]), sel(t1, [1, 1, 3, 3])],
            );
        }
        if let Some(f) = face {
            self.op(Op::Tor, t1, 0xF, &[Ctx::reg(t1), sel(f, [2; 4])]);
        }
        // t2.xy = the weights, t2.zw = 1 - weights.
        self.op(Op::Tfrc, t2, axes, &[Ctx::reg(t2), a, k(k1, [0, 1, 0, 1])]);
        self.op(
            Op::Fmad,
            t2,
            axes << 2,
            &[negated(sel(t2, [0, 1, 0, 1])), one, one],
        );
        let filter = k(k1, [0; 4]);
        let [t3, t4] = [(); 2].map(|_| self.scratch());
        if !shape.volume {
            let (value, nearest) =
                self.filter_slice(t1, t2, [t3, t4], unit, shape.two_d, reference)?;
            return Ok((Op::Tsel, [Ctx::reg(value), Ctx::reg(nearest), filter]));
        }
        // 3D: t5 = (slice bits of r, of r + 1, weight, 1 - weight); t1 and t6 address the two
        // slices.
        let k3 = self.alloc.texture(u16::from(unit), 3);
        let r = perm(a, [2; 4]);
        let t5 = self.scratch();
        self.op(Op::Fmad, t5, X, &[r, k(k3, [2; 4]), k(k0, [2; 4])]);
        self.op(Op::Flr, t5, Y, &[sel(t5, [0; 4])]);
        self.op(
            Op::Fmad,
            t5,
            Z,
            &[negated(sel(t5, [1; 4])), one, sel(t5, [0; 4])],
        );
        self.op(Op::F2if, t5, W, &[sel(t5, [0; 4])]);
        self.op(Op::Tidx, t5, XY, &[sel(t5, [3; 4]), r, k(k3, [0, 1, 0, 1])]);
        self.op(Op::Tfrc, t5, Z, &[Ctx::reg(t5), r, k(k3, [0; 4])]);
        self.op(Op::Fmad, t5, W, &[negated(sel(t5, [2; 4])), one, one]);
        let t6 = self.scratch();
        self.op(Op::Tor, t6, 0xF, &[Ctx::reg(t1), sel(t5, [1; 4])]);
        self.op(Op::Tor, t1, 0xF, &[Ctx::reg(t1), sel(t5, [0; 4])]);
        // Slice 0, then t1 = TSEL(slice 0, its first texel): what nearest filtering returns,
        // which frees t3 and t4 for slice 1.
        let (v0, nearest) = self.filter_slice(t1, t2, [t3, t4], unit, true, reference)?;
        self.op(
            Op::Tsel,
            v0,
            0xF,
            &[Ctx::reg(v0), Ctx::reg(nearest), filter],
        );
        let (v1, _) = self.filter_slice(t6, t2, [t3, t4], unit, true, reference)?;
        self.lerp(v0, v1, sel(t5, [2; 4]), sel(t5, [3; 4]))?;
        Ok((Op::Tsel, [Ctx::reg(v1), Ctx::reg(v0), filter]))
    }

    /// `lerp(p, q, f)` into q: `q * f + -0`, then `p * (1 - f) + that`.
    fn lerp(&mut self, p: u8, q: u8, f: Operand, keep: Operand) -> Result<(), CompileError> {
        let mzero = self.lit(0, true)?;
        self.op(Op::Fmad, q, 0xF, &[Ctx::reg(q), f, mzero]);
        self.op(Op::Fmad, q, 0xF, &[Ctx::reg(p), keep, Ctx::reg(q)]);
        Ok(())
    }

    /// Fetches and filters the texels at the addresses in `addr` (2D: four, 1D: x and z) with
    /// the weights in `w` (`(fx, fy, 1 - fx, 1 - fy)`) through the scratch registers `t3`,
    /// `t4`, comparing each with `reference` first
    /// on SHADOW targets. Returns the filtered value's register and the register holding the
    /// first texel (what nearest filtering returns; for 2D the row-0 value when bilinear).
    fn filter_slice(
        &mut self,
        addr: u8,
        w: u8,
        [t3, t4]: [u8; 2],
        unit: u8,
        two_d: bool,
        reference: Option<Operand>,
    ) -> Result<(u8, u8), CompileError> {
        let k0 = self.alloc.texture(u16::from(unit), 0);
        let k1 = self.alloc.texture(u16::from(unit), 1);
        let fetch = |c: &mut Ctx, dst: u8, comp: u8| {
            let mut i = Instr::new(Op::Tfet);
            i.dst = dst;
            i.src[0] = sel(addr, [comp; 4]);
            i.src[1] = k(k0, [3; 4]);
            i.target = u16::from(unit);
            c.emit(i);
            if let Some(r) = reference {
                // 1.0 where r <= texel.x, else 0.0 (every channel alike).
                let mut s = Instr::new(Op::Set);
                s.cond = Cond::Le;
                s.dst = dst;
                s.wmask = 0xF;
                s.src[0] = r;
                s.src[1] = sel(dst, [0; 4]);
                c.emit(s);
            }
        };
        let weight = |comp: u8| (sel(w, [comp; 4]), sel(w, [comp + 2; 4]));
        // Row 0 (1D: the only one) into t4; t3 becomes TSEL(row 0, texel 00): the texel itself
        // for nearest filtering, so the last TSEL returns its bits unchanged.
        fetch(self, t3, 0);
        fetch(self, t4, if two_d { 1 } else { 2 });
        let (fx, kx) = weight(0);
        self.lerp(t3, t4, fx, kx)?;
        if !two_d {
            return Ok((t4, t3));
        }
        self.op(
            Op::Tsel,
            t3,
            0xF,
            &[Ctx::reg(t4), Ctx::reg(t3), k(k1, [0; 4])],
        );
        // Row 1 into `addr` (the last fetch reads its address from the register it writes:
        // each lane's reads come before its writes), then y.
        fetch(self, t4, 2);
        fetch(self, addr, 3);
        self.lerp(t4, addr, fx, kx)?;
        let (fy, ky) = weight(1);
        self.lerp(t3, addr, fy, ky)?;
        Ok((addr, t3))
    }

    /// CUBE: picks the face of the largest |coordinate| (ties x, y, z; the negative face when
    /// the major coordinate is < 0) and returns a register with `s, t` in x, y
    /// (`(sc / |ma| + 1) * 0.5`, one rounding per operation, as
    /// `sim::texture::cube::select_face`) and the face's
    /// address bits in z (face 0 unless the texture is a cube map). Two scratch registers; the
    /// second is free again when it returns.
    fn cube_face(&mut self, a: Operand, unit: u8) -> Result<u8, CompileError> {
        let k3 = self.alloc.texture(u16::from(unit), 3);
        let zero = self.lit(0, false)?;
        let one = self.lit(ONE, false)?;
        let half = self.lit(HALF, false)?;
        let mzero = self.lit(0, true)?;
        let f = |n: f32| n.to_bits();
        let faces = self.alloc.data([f(0.0), f(1.0), f(2.0), f(3.0)]);
        let faces_z = self.alloc.data([f(4.0), f(5.0), 0, 0]);
        let c = self.scratch();
        let mark = self.scratch_used;
        let v = self.scratch();
        let abs = |o: Operand| Operand {
            abs: true,
            neg: 0,
            ..o
        };
        // Per axis, after the OpenGL table: the components of (sc, tc), which of them are
        // negated for the negative and for the positive face, and the two faces' numbers.
        let cases: [([usize; 2], u8, u8, Operand, Operand); 3] = [
            ([2, 1], 0b10, 0b11, k(faces, [1; 4]), k(faces, [0; 4])),
            ([0, 2], 0b10, 0b00, k(faces, [3; 4]), k(faces, [2; 4])),
            ([0, 1], 0b11, 0b10, k(faces_z, [1; 4]), k(faces_z, [0; 4])),
        ];
        // `into` = (sc, tc, |ma|, face) of the axis' negative or positive face.
        let case = |c: &mut Ctx, axis: usize, into: u8| {
            let (swz, neg_face, pos_face, neg_n, pos_n) = cases[axis];
            let pick = |negate: u8| {
                let o = perm(a, [swz[0], swz[1], swz[0], swz[1]]);
                Operand {
                    neg: o.neg ^ (negate | negate << 2),
                    ..o
                }
            };
            c.setp_pub(Cond::Lt, 0xF, perm(a, [axis; 4]), zero);
            c.op(Op::Sel, into, XY, &[pick(neg_face), pick(pos_face)]);
            c.op(Op::Sel, into, W, &[neg_n, pos_n]);
            c.op(Op::Mov, into, Z, &[abs(perm(a, [axis; 4]))]);
        };
        let at_least = |c: &mut Ctx, p: usize, q: usize| {
            c.setp_pub(Cond::Ge, 0xF, abs(perm(a, [p; 4])), abs(perm(a, [q; 4])));
        };
        // z's face, y's where |y| >= |z|, x's where |x| >= |y| and |x| >= |z|.
        case(self, 2, v);
        case(self, 1, c);
        at_least(self, 1, 2);
        self.op(Op::Sel, v, 0xF, &[Ctx::reg(c), Ctx::reg(v)]);
        case(self, 0, c);
        at_least(self, 0, 1);
        self.op(Op::Sel, c, 0xF, &[Ctx::reg(c), Ctx::reg(v)]);
        at_least(self, 0, 2);
        self.op(Op::Sel, v, 0xF, &[Ctx::reg(c), Ctx::reg(v)]);
        // c.xy = (sc / |ma| + 1) * 0.5; c.z = the face's bits.
        // |ma| as an absolute value: the compiler then knows the divisor's sign.
        self.divide_into(c, XY, Ctx::reg(v), abs(sel(v, [2; 4])))?;
        self.op(Op::Fmad, c, XY, &[Ctx::reg(c), one, one]);
        self.op(Op::Fmad, c, XY, &[Ctx::reg(c), half, mzero]);
        self.op(Op::F2if, c, W, &[sel(v, [3; 4])]);
        self.op(
            Op::Tidx,
            c,
            Z,
            &[sel(c, [3; 4]), sel(v, [3; 4]), k(k3, [3; 4])],
        );
        self.scratch_used = mark;
        Ok(c)
    }
}

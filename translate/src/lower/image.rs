//! Textures: `textureSample` and its forms (TEX, TXB with a bias, TXL with a level, TXD with
//! gradients; depth comparisons on the SHADOW targets), `textureGather`, texel offsets,
//! `textureLoad` (TXF at integer coordinates) and the size queries (TXQ).
//!
//! The coordinate register holds what TGSI's targets read: the array layer after the
//! coordinates (1D_ARRAY y, 2D_ARRAY z, CUBE_ARRAY w), the depth reference in z (SHADOW1D,
//! SHADOW2D, SHADOW1D_ARRAY) or w (SHADOW2D_ARRAY, SHADOWCUBE). Textures have one level, so a
//! level or bias changes nothing: where w already holds a coordinate, the lookup is a TEX.
//! What TGSI 1.x lacks is built from what it has:
//! - a constant texel offset is added to the coordinates in texels: `offset / size` (TXQ);
//! - `textureGather` is four lookups at the centres of the bilinear footprint's texels, where
//!   either filter returns the texel itself, in WGSL's order (-u +v, +u +v, +u -v, -u -v);
//! - a depth comparison on a cube-map array (which has no room for the reference) compares the
//!   looked-up depth: `reference <= depth`, exact with nearest filtering (with bilinear, the
//!   filtered depth is compared);
//! - multisampled textures hold one sample per texel: the sample index reads that one.

use super::value::{is_int, vec_size, Value};
use super::{err, Lower, Span};
use crate::code::{Reg, RegFile, Src};
use crate::error::Construct;
use crate::TranslateError;
use microcode::tgsi::{Opcode, TextureTarget as T};
use naga::{Expression, Handle, SampleLevel};

/// The components a target's coordinates take before the layer and the reference.
fn coord_size(target: T) -> usize {
    match target {
        T::T1D | T::T1DArray | T::Shadow1D | T::Shadow1DArray => 1,
        T::T3D | T::Cube | T::CubeArray | T::ShadowCube | T::ShadowCubeArray => 3,
        _ => 2,
    }
}

/// The target comparing with a depth reference, for a texture of `target`.
fn shadow_of(target: T) -> Option<T> {
    Some(match target {
        T::T1D => T::Shadow1D,
        T::T2D => T::Shadow2D,
        T::T1DArray => T::Shadow1DArray,
        T::T2DArray => T::Shadow2DArray,
        T::Cube => T::ShadowCube,
        T::CubeArray => T::ShadowCubeArray,
        _ => return None,
    })
}

/// The parts of a sampling expression.
struct Lookup {
    samp: u32,
    target: T,
    coord: Src,
    layer: Option<Src>,
    reference: Option<Src>,
    level: SampleLevel,
}

impl<'a> Lower<'a> {
    /// The sampler register of unit `samp`, noted as used.
    fn sampler(&mut self, samp: u32) -> Src {
        self.code.samplers.push(samp);
        Src::reg(Reg {
            file: RegFile::Samp,
            index: samp,
        })
    }

    /// A texture instruction on `target` writing all four components of a fresh temporary.
    fn texture_op(&mut self, op: Opcode, src: Vec<Src>, target: T) -> Src {
        let r = self.code.temp();
        self.code.insts.push(crate::code::Inst {
            op,
            dst: Some((r, 0xF)),
            dst2: None,
            src,
            sat: false,
            target: Some(target),
        });
        Src::reg(r)
    }

    /// A texture instruction's result as the value of expression `h` (a scalar reads x).
    fn texture_value(&self, r: Src, h: Handle<Expression>) -> Value {
        let size = vec_size(self.expr_ty(h));
        Value::V {
            src: if size == 1 { r.comp(0) } else { r },
            size,
        }
    }

    /// The texture an expression names.
    fn texture(
        &mut self,
        image: Handle<Expression>,
        span: Span,
    ) -> Result<(u32, T), TranslateError> {
        match self.expr(image)? {
            Value::Image { samp, target } => Ok((samp, target)),
            _ => Err(err(
                Construct::Other("this texture".into()),
                "it is not a texture variable",
                span,
            )),
        }
    }

    /// TXQ of unit `samp`: (width, height, depth or layers) as integers.
    fn texture_size(&mut self, samp: u32, target: T) -> Src {
        let sreg = self.sampler(samp);
        let lod = self.code.imm_int(&[0]);
        self.texture_op(Opcode::Txq, vec![lod, sreg], target)
    }

    /// The coordinate register of a lookup: the coordinates, then the layer and the reference
    /// where the target reads them.
    fn coordinates(&mut self, l: &Lookup) -> Src {
        let n = coord_size(l.target);
        if l.layer.is_none() && l.reference.is_none() {
            return l.coord;
        }
        let t = self.code.temp();
        self.code
            .push(Opcode::Mov, Some((t, (1u8 << n) - 1)), vec![l.coord]);
        let mut used = n;
        if let Some(layer) = l.layer {
            self.code
                .push(Opcode::Mov, Some((t, 1 << used)), vec![layer.comp(0)]);
            used += 1;
        }
        if let Some(r) = l.reference {
            let at = used.clamp(2, 3);
            self.code
                .push(Opcode::Mov, Some((t, 1 << at)), vec![r.comp(0)]);
        }
        Src::reg(t)
    }

    /// The array layer operand (a float for the sampling opcodes, an integer for TXF).
    fn layer(
        &mut self,
        h: Option<Handle<Expression>>,
        float: bool,
    ) -> Result<Option<Src>, TranslateError> {
        let Some(h) = h else { return Ok(None) };
        let (s, _) = self.vec(h)?;
        let int = is_int(self.expr_ty(h));
        Ok(Some(match (int, float) {
            (true, true) => self.ialu(Opcode::I2f, 1, vec![s.comp(0)]),
            (false, false) => self.ialu(Opcode::F2u, 1, vec![s.comp(0)]),
            _ => s.comp(0),
        }))
    }

    /// Coordinates moved by a constant texel offset: `coord + offset / size`.
    fn offset_coordinates(
        &mut self,
        samp: u32,
        target: T,
        coord: Src,
        offset: Handle<Expression>,
    ) -> Result<Src, TranslateError> {
        let n = coord_size(target);
        let (o, _) = self.vec(offset)?;
        let o = if is_int(self.expr_ty(offset)) {
            self.ialu(Opcode::I2f, n, vec![o])
        } else {
            o
        };
        let size = self.texture_size(samp, target);
        let size = self.ialu(Opcode::I2f, n, vec![size]);
        let r = self.per_comp(Opcode::Rcp, n, &[size]).src();
        Ok(self.fop(Opcode::Mad, n, vec![o, r, coord]))
    }

    /// `textureSample` and its forms.
    pub(super) fn image_sample(&mut self, h: Handle<Expression>) -> Result<Value, TranslateError> {
        let span = self.span_of(h);
        let Expression::ImageSample {
            image,
            gather,
            coordinate,
            array_index,
            offset,
            level,
            depth_ref,
            ..
        } = self.frame().fun.expressions[h]
        else {
            unreachable!("an ImageSample expression");
        };
        let (samp, base) = self.texture(image, span)?;
        let target = match depth_ref {
            Some(_) => shadow_of(base).ok_or_else(|| {
                err(
                    Construct::Other("a depth comparison on this texture".into()),
                    "TGSI has no shadow target for it",
                    span,
                )
            })?,
            None => base,
        };
        let (mut coord, _) = self.vec(coordinate)?;
        if let Some(o) = offset {
            coord = self.offset_coordinates(samp, base, coord, o)?;
        }
        let reference = match depth_ref {
            Some(d) => Some(self.scalar(d)?),
            None => None,
        };
        let lookup = Lookup {
            samp,
            target,
            coord,
            layer: self.layer(array_index, true)?,
            reference,
            level,
        };
        if let Some(component) = gather {
            if coord_size(base) != 2 {
                return Err(err(
                    Construct::Function("textureGather".into()),
                    "it is built from lookups at texel centres, which cube maps do not have",
                    span,
                ));
            }
            let r = self.gather(&lookup, component as usize)?;
            return Ok(Value::V { src: r, size: 4 });
        }
        let r = self.lookup(&lookup)?;
        Ok(self.texture_value(r, h))
    }

    /// One sampling instruction for `l` (TEX, TXB, TXL or TXD).
    fn lookup(&mut self, l: &Lookup) -> Result<Src, TranslateError> {
        if l.target == T::ShadowCubeArray {
            // No room for the reference: look the depth up and compare it here.
            let plain = Lookup {
                target: T::CubeArray,
                reference: None,
                ..*l
            };
            let depth = self.lookup(&plain)?;
            let r = l.reference.unwrap_or_else(|| self.imm_s(0.0));
            return Ok(self.fop(Opcode::Sge, 1, vec![depth.comp(0), r.comp(0)]));
        }
        let c = self.coordinates(l);
        let used = coord_size(l.target) + usize::from(l.layer.is_some());
        let w_taken = used >= 4 || (l.reference.is_some() && used >= 3);
        let sreg = self.sampler(l.samp);
        let (op, src) = match l.level {
            SampleLevel::Auto => (Opcode::Tex, vec![c, sreg]),
            SampleLevel::Gradient { x, y } => {
                let (gx, _) = self.vec(x)?;
                let (gy, _) = self.vec(y)?;
                (Opcode::Txd, vec![c, gx, gy, sreg])
            }
            // One level: where w is a coordinate, the level or bias has nowhere to go and no
            // effect.
            _ if w_taken => (Opcode::Tex, vec![c, sreg]),
            SampleLevel::Zero | SampleLevel::Exact(_) | SampleLevel::Bias(_) => {
                let lod = match l.level {
                    SampleLevel::Exact(x) | SampleLevel::Bias(x) => self.scalar(x)?.comp(0),
                    _ => self.imm_s(0.0),
                };
                let t = self.code.temp();
                self.code.push(Opcode::Mov, Some((t, 0x7)), vec![c]);
                self.code.push(Opcode::Mov, Some((t, 8)), vec![lod]);
                let op = if matches!(l.level, SampleLevel::Bias(_)) {
                    Opcode::Txb
                } else {
                    Opcode::Txl
                };
                (op, vec![Src::reg(t), sreg])
            }
        };
        Ok(self.texture_op(op, src, l.target))
    }

    /// `textureGather`: component `component` of the four texels of the bilinear footprint,
    /// each looked up at its centre (`(floor(u size - 0.5) + 0.5 + k) / size`).
    fn gather(&mut self, l: &Lookup, component: usize) -> Result<Src, TranslateError> {
        let size = self.texture_size(l.samp, l.target);
        let size = self.ialu(Opcode::I2f, 2, vec![size]);
        let r = self.per_comp(Opcode::Rcp, 2, &[size]).src();
        let half = self.imm_s(-0.5);
        let a = self.fop(Opcode::Mad, 2, vec![l.coord, size, half]);
        let i = self.fop(Opcode::Flr, 2, vec![a]);
        let h = self.imm_s(0.5);
        let lo = self.fop(Opcode::Add, 2, vec![i, h]);
        let lo = self.fop(Opcode::Mul, 2, vec![lo, r]);
        let hi = self.fop(Opcode::Add, 2, vec![lo, r]);
        let out = self.code.temp();
        // WGSL's order: (u0, v1), (u1, v1), (u1, v0), (u0, v0).
        let corners = [(lo, hi), (hi, hi), (hi, lo), (lo, lo)];
        for (k, (u, v)) in corners.into_iter().enumerate() {
            let parts = [u.comp(0), v.comp(1)];
            let coord = self.compose(&parts, false).src();
            let texel = self.lookup(&Lookup {
                coord,
                level: SampleLevel::Zero,
                ..*l
            })?;
            let pick = if l.reference.is_some() { 0 } else { component };
            self.code
                .push(Opcode::Mov, Some((out, 1 << k)), vec![texel.comp(pick)]);
        }
        Ok(Src::reg(out))
    }

    /// `textureLoad` / `texelFetch`: TXF at the integer coordinates (the layer after them); the
    /// textures have one level and one sample, so neither is read.
    pub(super) fn image_load(&mut self, h: Handle<Expression>) -> Result<Value, TranslateError> {
        let span = self.span_of(h);
        let Expression::ImageLoad {
            image,
            coordinate,
            array_index,
            ..
        } = self.frame().fun.expressions[h]
        else {
            unreachable!("an ImageLoad expression");
        };
        let (samp, target) = self.texture(image, span)?;
        if matches!(target, T::Cube | T::CubeArray) {
            return Err(err(
                Construct::Other("a texel fetch from a cube map".into()),
                "TGSI's TXF addresses no cube faces by direction",
                span,
            ));
        }
        let (coord, _) = self.vec(coordinate)?;
        let lookup = Lookup {
            samp,
            target,
            coord,
            layer: self.layer(array_index, false)?,
            reference: None,
            level: SampleLevel::Zero,
        };
        let c = self.coordinates(&lookup);
        let sreg = self.sampler(samp);
        let r = self.texture_op(Opcode::Txf, vec![c, sreg], target);
        Ok(self.texture_value(r, h))
    }

    /// `textureDimensions` (TXQ: width, height, depth or layers as integers),
    /// `textureNumLayers` (TXQ's component after the dimensions), `textureNumLevels` and
    /// `textureNumSamples` (1).
    pub(super) fn image_query(
        &mut self,
        h: Handle<Expression>,
        image: Handle<Expression>,
        query: naga::ImageQuery,
    ) -> Result<Value, TranslateError> {
        let span = self.span_of(h);
        let (samp, target) = self.texture(image, span)?;
        Ok(match query {
            naga::ImageQuery::Size { .. } => {
                let r = self.texture_size(samp, target);
                self.texture_value(r, h)
            }
            naga::ImageQuery::NumLayers => {
                let r = self.texture_size(samp, target);
                let at = if target == T::T1DArray { 1 } else { 2 };
                Value::V {
                    src: r.comp(at),
                    size: 1,
                }
            }
            naga::ImageQuery::NumLevels | naga::ImageQuery::NumSamples => Value::V {
                src: self.code.imm_int(&[1]),
                size: 1,
            },
        })
    }
}

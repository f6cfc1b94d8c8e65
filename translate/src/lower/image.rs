//! Textures: `textureSample` and its forms (TEX, TXB with a bias, TXL with a level, TXD with
//! gradients; depth comparisons on the SHADOW targets), `textureLoad` (TXF at integer
//! coordinates) and `textureDimensions` / `textureNumLayers` (TXQ).
//!
//! The coordinate register holds what TGSI's targets read: the array layer after the
//! coordinates (1D_ARRAY y, 2D_ARRAY z, CUBE_ARRAY w), the depth reference in z (SHADOW1D,
//! SHADOW2D, SHADOW1D_ARRAY) or w (SHADOW2D_ARRAY, SHADOWCUBE). Textures have one level, so a
//! level or bias changes nothing: where w already holds a coordinate, the lookup is a TEX.

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
    fn texture_op(&mut self, op: Opcode, src: Vec<Src>, target: T) -> Reg {
        let r = self.code.temp();
        self.code.insts.push(crate::code::Inst {
            op,
            dst: Some((r, 0xF)),
            src,
            sat: false,
            target: Some(target),
        });
        r
    }

    /// A texture instruction's result `r` as the value of expression `h` (a scalar reads x).
    fn texture_value(&self, r: Reg, h: Handle<Expression>) -> Value {
        let size = vec_size(self.expr_ty(h));
        Value::V {
            src: if size == 1 {
                Src::reg(r).comp(0)
            } else {
                Src::reg(r)
            },
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

    /// The coordinate register: `coord`'s components, then the layer (as a float) and the depth
    /// reference where the target reads them. Returns the operand.
    fn coordinates(
        &mut self,
        coord: Src,
        n: usize,
        layer: Option<Src>,
        reference: Option<(Src, usize)>,
        int: bool,
    ) -> Src {
        if layer.is_none() && reference.is_none() {
            return coord;
        }
        let t = self.code.temp();
        self.code
            .push(Opcode::Mov, Some((t, (1u8 << n) - 1)), vec![coord]);
        if let Some(l) = layer {
            self.code
                .push(Opcode::Mov, Some((t, 1 << n)), vec![l.comp(0)]);
        }
        if let Some((r, at)) = reference {
            self.code
                .push(Opcode::Mov, Some((t, 1 << at)), vec![r.comp(0)]);
        }
        let _ = int;
        Src::reg(t)
    }

    /// The array layer operand: an integer layer as a float for the sampling opcodes.
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
        if gather.is_some() {
            return Err(err(
                Construct::Function("textureGather".into()),
                "TGSI 1.x has no gather lookup",
                span,
            ));
        }
        if offset.is_some() {
            return Err(err(
                Construct::Other("a texel offset in a texture lookup".into()),
                "TGSI 1.x texture opcodes take no offset",
                span,
            ));
        }
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
        if target == T::ShadowCubeArray {
            return Err(err(
                Construct::Other("a depth comparison on a cube-map array".into()),
                "TGSI 1.x has no operand for its reference (later TGSI's TEX2)",
                span,
            ));
        }
        let (coord, _) = self.vec(coordinate)?;
        let n = coord_size(target);
        let layer = self.layer(array_index, true)?;
        let used = n + usize::from(layer.is_some());
        let reference = match depth_ref {
            Some(d) => Some((self.scalar(d)?, used.max(2))),
            None => None,
        };
        let c = self.coordinates(coord, n, layer, reference, false);
        let full =
            used + usize::from(reference.is_some()) >= 4 || reference.is_some_and(|r| r.1 == 3);
        let sreg = self.sampler(samp);
        let (op, src) = match level {
            SampleLevel::Auto => (Opcode::Tex, vec![c, sreg]),
            SampleLevel::Gradient { x, y } => {
                let (gx, _) = self.vec(x)?;
                let (gy, _) = self.vec(y)?;
                (Opcode::Txd, vec![c, gx, gy, sreg])
            }
            // One level: where w is a coordinate, the level or bias has nowhere to go and no
            // effect.
            _ if full => (Opcode::Tex, vec![c, sreg]),
            SampleLevel::Zero | SampleLevel::Exact(_) | SampleLevel::Bias(_) => {
                let lod = match level {
                    SampleLevel::Exact(x) | SampleLevel::Bias(x) => self.scalar(x)?.comp(0),
                    _ => self.imm_s(0.0),
                };
                let t = self.code.temp();
                self.code.push(Opcode::Mov, Some((t, 0x7)), vec![c]);
                self.code.push(Opcode::Mov, Some((t, 8)), vec![lod]);
                let op = if matches!(level, SampleLevel::Bias(_)) {
                    Opcode::Txb
                } else {
                    Opcode::Txl
                };
                (op, vec![Src::reg(t), sreg])
            }
        };
        let r = self.texture_op(op, src, target);
        Ok(self.texture_value(r, h))
    }

    /// `textureLoad` / `texelFetch`: TXF at the integer coordinates (the layer after them); the
    /// textures have one level, so the level is not read.
    pub(super) fn image_load(&mut self, h: Handle<Expression>) -> Result<Value, TranslateError> {
        let span = self.span_of(h);
        let Expression::ImageLoad {
            image,
            coordinate,
            array_index,
            sample,
            ..
        } = self.frame().fun.expressions[h]
        else {
            unreachable!("an ImageLoad expression");
        };
        let (samp, target) = self.texture(image, span)?;
        if sample.is_some() || matches!(target, T::Cube | T::CubeArray) {
            return Err(err(
                Construct::Other("this texel fetch".into()),
                "TGSI's TXF reads no samples and no cube faces by direction",
                span,
            ));
        }
        let (coord, _) = self.vec(coordinate)?;
        let n = coord_size(target);
        let layer = self.layer(array_index, false)?;
        let c = self.coordinates(coord, n, layer, None, true);
        let sreg = self.sampler(samp);
        let r = self.texture_op(Opcode::Txf, vec![c, sreg], target);
        Ok(self.texture_value(r, h))
    }

    /// `textureDimensions` (TXQ: width, height, depth or layers as integers),
    /// `textureNumLayers` (TXQ's component after the dimensions), `textureNumLevels` (1).
    pub(super) fn image_query(
        &mut self,
        h: Handle<Expression>,
        image: Handle<Expression>,
        query: naga::ImageQuery,
    ) -> Result<Value, TranslateError> {
        let span = self.span_of(h);
        let (samp, target) = self.texture(image, span)?;
        let txq = |this: &mut Self| {
            let sreg = this.sampler(samp);
            let lod = this.code.imm_int(&[0]);
            this.texture_op(Opcode::Txq, vec![lod, sreg], target)
        };
        Ok(match query {
            naga::ImageQuery::Size { .. } => {
                let r = txq(self);
                self.texture_value(r, h)
            }
            naga::ImageQuery::NumLayers => {
                let r = txq(self);
                let at = match target {
                    T::T1DArray => 1,
                    T::CubeArray => 2,
                    _ => 2,
                };
                Value::V {
                    src: Src::reg(r).comp(at),
                    size: 1,
                }
            }
            naga::ImageQuery::NumLevels => Value::V {
                src: self.code.imm_int(&[1]),
                size: 1,
            },
            naga::ImageQuery::NumSamples => {
                return Err(err(
                    Construct::Function("textureNumSamples".into()),
                    "the texture unit holds one sample per texel",
                    span,
                ))
            }
        })
    }
}

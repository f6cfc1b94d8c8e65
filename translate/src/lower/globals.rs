//! Global variables: uniform buffers in CONST registers (laid out as their bytes are, see
//! `crate::layout`), textures as SAMP units, private variables in temporaries. The module is
//! reduced to the entry point first, so only what it reaches is here.

use super::names;
use super::value::Value;
use super::{err, Lower, Span};
use crate::code::{Reg, RegFile, Src};
use crate::error::Construct;
use crate::layout::{ScalarKind, TextureBinding, UniformBuffer, UniformMember};
use crate::TranslateError;
use microcode::tgsi::TextureTarget;
use naga::{AddressSpace, Handle, ImageClass, ImageDimension, TypeInner};

/// `f64` as naga spells it.
const F64: naga::Scalar = naga::Scalar {
    kind: naga::ScalarKind::Float,
    width: 8,
};

/// Where a uniform buffer is being laid out.
struct Place<'s> {
    group: u32,
    binding: u32,
    first: u32,
    path: &'s str,
}

impl<'a> Lower<'a> {
    /// Declares every global the entry point reaches.
    pub(super) fn declare_globals(&mut self) -> Result<(), TranslateError> {
        let m = self.module;
        let mut uniforms: Vec<_> = m
            .global_variables
            .iter()
            .filter(|(_, g)| matches!(g.space, AddressSpace::Uniform | AddressSpace::Immediate))
            .collect();
        // Bound buffers by (group, binding); push constants after them.
        uniforms.sort_by_key(|(_, g)| {
            g.binding
                .as_ref()
                .map_or((u32::MAX, u32::MAX), |b| (b.group, b.binding))
        });
        let mut next = 0u32;
        for (h, g) in uniforms {
            let span = m.global_variables.get_span(h);
            let (group, binding) = g
                .binding
                .as_ref()
                .map_or((crate::layout::PUSH_CONSTANTS, 0), |b| (b.group, b.binding));
            let name = g.name.clone().unwrap_or_default();
            let size = m.types[g.ty].inner.size(m.to_ctx());
            let place = Place {
                group,
                binding,
                first: next,
                path: &name,
            };
            let v = self.uniform_value(g.ty, 0, &place, span)?;
            self.layout.buffers.push(UniformBuffer {
                group,
                binding,
                name: name.clone(),
                first: next,
                size,
            });
            next += size.div_ceil(16).max(1);
            self.globals.insert(h, v);
        }
        self.code.consts = next;
        self.declare_textures()?;
        for (h, g) in m.global_variables.iter() {
            let span = m.global_variables.get_span(h);
            match g.space {
                AddressSpace::Handle => {
                    self.globals.entry(h).or_insert(Value::Sampler);
                }
                AddressSpace::Private => {
                    let st = self.storage(g.ty, span)?;
                    let init = match g.init {
                        Some(e) => self.const_value(e)?,
                        None => self.zero(g.ty, span)?,
                    };
                    self.store(&st, None, &init);
                    self.globals.insert(h, st);
                }
                AddressSpace::Uniform | AddressSpace::Immediate => {}
                space => {
                    return Err(err(
                        Construct::AddressSpace(names::space(space, self.language)),
                        names::space_why(space),
                        span,
                    ))
                }
            }
        }
        Ok(())
    }

    /// Textures, numbered by ascending (group, binding) from SAMP[0].
    fn declare_textures(&mut self) -> Result<(), TranslateError> {
        let m = self.module;
        let mut images: Vec<_> = m
            .global_variables
            .iter()
            .filter(|(_, g)| matches!(m.types[g.ty].inner, TypeInner::Image { .. }))
            .collect();
        images.sort_by_key(|(_, g)| g.binding.as_ref().map(|b| (b.group, b.binding)));
        for (samp, (h, g)) in images.into_iter().enumerate() {
            let TypeInner::Image {
                dim,
                arrayed,
                class,
            } = m.types[g.ty].inner
            else {
                continue;
            };
            let span = m.global_variables.get_span(h);
            let target = self.image_target(dim, arrayed, class, span)?;
            let (group, binding) = g.binding.as_ref().map_or((0, 0), |b| (b.group, b.binding));
            self.layout.textures.push(TextureBinding {
                group,
                binding,
                name: g.name.clone().unwrap_or_default(),
                unit: samp as u32,
                target: target.name().to_string(),
            });
            self.globals.insert(
                h,
                Value::Image {
                    samp: samp as u32,
                    target,
                },
            );
        }
        Ok(())
    }

    /// The TGSI target of a texture type (the sampling form may turn it into a SHADOW one).
    fn image_target(
        &self,
        dim: ImageDimension,
        arrayed: bool,
        class: ImageClass,
        span: Span,
    ) -> Result<TextureTarget, TranslateError> {
        use TextureTarget as T;
        let name = || Construct::Type(names::image(dim, arrayed, class, self.language));
        let multi = matches!(
            class,
            ImageClass::Sampled { multi: true, .. } | ImageClass::Depth { multi: true }
        );
        if class == ImageClass::External {
            return Err(err(
                name(),
                "external (video) textures have no TGSI equivalent",
                span,
            ));
        }
        if multi {
            // One sample per texel: the sample index reads that one.
            return Ok(if arrayed { T::T2DArrayMsaa } else { T::T2DMsaa });
        }
        Ok(match (dim, arrayed) {
            (ImageDimension::D1, false) => T::T1D,
            (ImageDimension::D1, true) => T::T1DArray,
            (ImageDimension::D2, false) => T::T2D,
            (ImageDimension::D2, true) => T::T2DArray,
            (ImageDimension::D3, _) => T::T3D,
            (ImageDimension::Cube, false) => T::Cube,
            (ImageDimension::Cube, true) => T::CubeArray,
        })
    }

    /// A uniform of type `ty` at byte `offset` of its buffer: CONST register `first + offset /
    /// 16`, component `(offset % 16) / 4`; each scalar or vector is recorded in the layout.
    fn uniform_value(
        &mut self,
        ty: Handle<naga::Type>,
        offset: u32,
        place: &Place,
        span: Span,
    ) -> Result<Value, TranslateError> {
        let m = self.module;
        Ok(match *self.ty(ty) {
            TypeInner::Scalar(s) | TypeInner::Vector { scalar: s, .. } if s == F64 => {
                let size = super::value::vec_size(self.ty(ty));
                let vector = matches!(self.ty(ty), TypeInner::Vector { .. });
                let ty_name = names::type_name(m, ty, self.language);
                self.uniform_double(offset, size, vector, &ty_name, place, place.path)
            }
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } if scalar == F64 => {
                // Columns are aligned as vectors of doubles: 16 bytes for two rows, else 32.
                let stride = if rows as u32 == 2 { 16 } else { 32 };
                let col = naga::TypeInner::Vector { size: rows, scalar };
                let ty_name = names::inner_name(m, &col, self.language);
                let cols = (0..columns as u32)
                    .map(|c| {
                        let path = format!("{}[{c}]", place.path);
                        let at = offset + c * stride;
                        self.uniform_double(at, rows as usize, true, &ty_name, place, &path)
                    })
                    .collect();
                Value::Agg(cols)
            }
            TypeInner::Scalar(s) | TypeInner::Vector { scalar: s, .. } => {
                if s.width != 4 {
                    return Err(err(
                        Construct::Type(names::type_name(m, ty, self.language)),
                        "uniforms of 16-bit floats and 64-bit integers have no TGSI register \
                         layout here",
                        span,
                    ));
                }
                let size = super::value::vec_size(self.ty(ty));
                let ty_name = names::type_name(m, ty, self.language);
                self.uniform_leaf(offset, size, s.kind, &ty_name, place, place.path)?
            }
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } => {
                let stride = if rows as u32 == 2 { 8 } else { 16 };
                let col = naga::TypeInner::Vector { size: rows, scalar };
                let ty_name = names::inner_name(m, &col, self.language);
                let mut cols = Vec::new();
                for c in 0..columns as u32 {
                    let path = format!("{}[{c}]", place.path);
                    cols.push(self.uniform_leaf(
                        offset + c * stride,
                        rows as usize,
                        scalar.kind,
                        &ty_name,
                        place,
                        &path,
                    )?);
                }
                Value::Agg(cols)
            }
            TypeInner::Struct { ref members, .. } => {
                let mut v = Vec::new();
                for mem in members {
                    let name = mem.name.clone().unwrap_or_default();
                    let path = match (place.path.is_empty(), name.is_empty()) {
                        (true, _) => name,
                        (false, true) => place.path.to_string(),
                        (false, false) => format!("{}.{name}", place.path),
                    };
                    let inner = Place {
                        path: &path,
                        ..*place
                    };
                    v.push(self.uniform_value(mem.ty, offset + mem.offset, &inner, span)?);
                }
                Value::Agg(v)
            }
            TypeInner::Array {
                base,
                size: naga::ArraySize::Constant(n),
                stride,
            } => {
                let mut v = Vec::new();
                for k in 0..n.get() {
                    let path = format!("{}[{k}]", place.path);
                    let inner = Place {
                        path: &path,
                        ..*place
                    };
                    v.push(self.uniform_value(base, offset + k * stride, &inner, span)?);
                }
                Value::Agg(v)
            }
            _ => {
                return Err(err(
                    Construct::Type(names::type_name(m, ty, self.language)),
                    "this type has no TGSI register layout",
                    span,
                ))
            }
        })
    }

    /// An `f64` scalar or vector of a uniform at byte `offset`: component k is the pair at
    /// `offset + 8 k` (low word first, as the buffer's little-endian bytes put it), recorded in
    /// the layout once per register it touches.
    fn uniform_double(
        &mut self,
        offset: u32,
        size: usize,
        vector: bool,
        ty: &str,
        place: &Place,
        path: &str,
    ) -> Value {
        let mut pairs = Vec::with_capacity(size);
        for k in 0..size as u32 {
            let at = offset + 8 * k;
            let register = place.first + at / 16;
            let first = ((at % 16) / 4) as u8;
            let reg = Reg {
                file: RegFile::Const,
                index: register,
            };
            pairs.push(Value::V {
                src: Src {
                    swz: [first, first + 1, first, first + 1],
                    ..Src::reg(reg)
                },
                size: 2,
            });
            // One layout entry per register: a new one where this pair starts a register or
            // the value.
            if k == 0 || at.is_multiple_of(16) {
                let words = (size as u32 - k).min((16 - at % 16) / 8) * 2;
                self.layout.uniforms.push(UniformMember {
                    group: place.group,
                    binding: place.binding,
                    path: path.to_string(),
                    register,
                    first: first as u32,
                    count: words,
                    kind: ScalarKind::Double,
                    ty: ty.to_string(),
                    offset: at,
                });
            }
        }
        if !vector && pairs.len() == 1 {
            return pairs.remove(0);
        }
        Value::Agg(pairs)
    }

    /// One scalar or vector of a uniform, recorded in the layout.
    fn uniform_leaf(
        &mut self,
        offset: u32,
        size: usize,
        kind: naga::ScalarKind,
        ty: &str,
        place: &Place,
        path: &str,
    ) -> Result<Value, TranslateError> {
        let register = place.first + offset / 16;
        let first = (offset % 16) / 4;
        let kind = match kind {
            naga::ScalarKind::Sint => ScalarKind::Sint,
            naga::ScalarKind::Uint | naga::ScalarKind::Bool => ScalarKind::Uint,
            _ => ScalarKind::Float,
        };
        self.layout.uniforms.push(UniformMember {
            group: place.group,
            binding: place.binding,
            path: path.to_string(),
            register,
            first,
            count: size as u32,
            kind,
            ty: ty.to_string(),
            offset,
        });
        let mut swz = [0u8; 4];
        for (c, s) in swz.iter_mut().enumerate() {
            *s = (first as usize + c.min(size - 1)).min(3) as u8;
        }
        let reg = Reg {
            file: RegFile::Const,
            index: register,
        };
        Ok(Value::V {
            src: Src {
                swz,
                ..Src::reg(reg)
            },
            size,
        })
    }
}

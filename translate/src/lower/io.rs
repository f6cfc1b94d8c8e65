//! The entry point's inputs and outputs.
//!
//! Fragment inputs at location N are `IN` with `GENERIC[N]` (interpolated as declared: flat is
//! CONSTANT, linear LINEAR, otherwise PERSPECTIVE); `position` is `POSITION`, `front_facing`
//! `FACE` (a boolean from `FACE.x > 0`). Vertex attributes at location N are `IN[N]`;
//! `vertex_index` and `instance_index` are the system values `SV[n]` with semantics VERTEXID and
//! INSTANCEID (integers in x). Fragment outputs at location N are `COLOR[N]`, `frag_depth`
//! `POSITION.z`; vertex outputs `POSITION`, `GENERIC[N]` and `PSIZE`. IN, OUT and SV registers
//! are numbered in declaration order.

use super::names;
use super::value::{vec_size, Value};
use super::{err, Lower, Span, FRAG_DEPTH, SAMPLE_MASK};
use crate::code::{Reg, RegFile, Src};
use crate::error::{over_budget, Budget, Construct};
use crate::TranslateError;
use microcode::tgsi::{Interpolate, Opcode, SemanticName};
use naga::{Binding, BuiltIn, Handle, ShaderStage, TypeInner};

/// The highest location an input or output may use: TGSI numbers semantics with 16 bits.
pub const MAX_LOCATION: u32 = 0xFFFF;

impl<'a> Lower<'a> {
    /// An entry input of type `ty` (a struct of bound members, or one bound value).
    pub(super) fn input(
        &mut self,
        ty: Handle<naga::Type>,
        binding: Option<&Binding>,
        next: &mut u32,
        span: Span,
    ) -> Result<Value, TranslateError> {
        let Some(b) = binding else {
            let TypeInner::Struct { members, .. } = self.ty(ty) else {
                return Err(err(
                    Construct::Other("an entry input without a binding".into()),
                    "every input needs a location or a built-in",
                    span,
                ));
            };
            let mut v = Vec::new();
            for m in members {
                v.push(self.input(m.ty, m.binding.as_ref(), next, span)?);
            }
            return Ok(Value::Agg(v));
        };
        let size = vec_size(self.ty(ty));
        let frag = self.stage == ShaderStage::Fragment;
        let double = self.is_f64_inner(self.ty(ty));
        let (semantic, interp) = match *b {
            Binding::Location {
                location,
                interpolation,
                ..
            } => {
                check_location(location, span)?;
                if double {
                    self.double_io(ty, frag, true, interpolation, span)?;
                }
                if double && !frag {
                    self.code.inputs.insert(location, (None, None));
                    return Ok(double_register(
                        RegFile::In,
                        location,
                        size,
                        ty_vector(self.ty(ty)),
                    ));
                }
                if double {
                    let idx = *next;
                    *next += 1;
                    let semantic = (SemanticName::Generic, location);
                    // Flat: a double's words are not interpolated.
                    self.code
                        .inputs
                        .insert(idx, (Some(semantic), Some(Interpolate::Constant)));
                    return Ok(double_register(
                        RegFile::In,
                        idx,
                        size,
                        ty_vector(self.ty(ty)),
                    ));
                }
                if !frag {
                    // Vertex attributes have no semantic: IN[n] is attribute n.
                    self.code.inputs.insert(location, (None, None));
                    return Ok(self.register(RegFile::In, location, size));
                }
                let ip = match interpolation {
                    Some(naga::Interpolation::Flat) => Interpolate::Constant,
                    Some(naga::Interpolation::Linear) => Interpolate::Linear,
                    _ => Interpolate::Perspective,
                };
                ((SemanticName::Generic, location), Some(ip))
            }
            Binding::BuiltIn(BuiltIn::Position { .. }) if frag => {
                ((SemanticName::Position, 0), Some(Interpolate::Linear))
            }
            Binding::BuiltIn(BuiltIn::FrontFacing) if frag => {
                let idx = *next;
                *next += 1;
                self.code.inputs.insert(
                    idx,
                    (Some((SemanticName::Face, 0)), Some(Interpolate::Constant)),
                );
                // FACE.x > 0 for front faces; a bool is 1.0 / 0.0.
                let zero = self.code.imm(&[0]);
                let face = self.register(RegFile::In, idx, 1).src();
                return Ok(self.alu(Opcode::Slt, 1, vec![zero, face]));
            }
            // One sample per pixel: sample 0, and a mask of that one sample.
            Binding::BuiltIn(BuiltIn::SampleIndex) if frag => {
                return Ok(Value::V {
                    src: self.code.imm_int(&[0]),
                    size: 1,
                });
            }
            Binding::BuiltIn(BuiltIn::SampleMask) if frag => {
                return Ok(Value::V {
                    src: self.code.imm_int(&[1]),
                    size: 1,
                });
            }
            Binding::BuiltIn(b @ (BuiltIn::VertexIndex | BuiltIn::InstanceIndex)) if !frag => {
                let sem = if b == BuiltIn::VertexIndex {
                    SemanticName::VertexId
                } else {
                    SemanticName::InstanceId
                };
                let idx = self.code.system_values.len() as u32;
                self.code.system_values.insert(idx, sem);
                return Ok(self.register(RegFile::SystemValue, idx, 1));
            }
            Binding::BuiltIn(other) => {
                return Err(err(
                    Construct::Builtin(names::builtin(other, self.language)),
                    builtin_why(other, frag),
                    span,
                ));
            }
        };
        let idx = *next;
        *next += 1;
        self.code.inputs.insert(idx, (Some(semantic), interp));
        Ok(self.register(RegFile::In, idx, size))
    }

    /// `FILE[index]` as a value of `size` components.
    fn register(&self, file: RegFile, index: u32, size: usize) -> Value {
        let src = Src::reg(Reg { file, index });
        Value::V {
            src: if size == 1 { src.comp(0) } else { src },
            size,
        }
    }

    /// Refuses the `f64` inputs and outputs TGSI cannot hold: more than one register (a
    /// `vec3<f64>` / `dvec3` or wider) and interpolated fragment inputs.
    fn double_io(
        &self,
        ty: Handle<naga::Type>,
        frag: bool,
        input: bool,
        interpolation: Option<naga::Interpolation>,
        span: Span,
    ) -> Result<(), TranslateError> {
        let name = || Construct::Type(names::type_name(self.module, ty, self.language));
        if vec_size(self.ty(ty)) > 2 || matches!(self.ty(ty), TypeInner::Matrix { .. }) {
            return Err(err(
                name(),
                "an input or output location is one register of four words, which holds at \
                 most two doubles",
                span,
            ));
        }
        if frag && input && interpolation != Some(naga::Interpolation::Flat) {
            return Err(err(
                name(),
                "a double fragment input must be flat (`@interpolate(flat)`, GLSL `flat in`): \
                 interpolating its two words as floats would not interpolate the double",
                span,
            ));
        }
        Ok(())
    }

    /// Declares the outputs of a result of type `ty`, collecting (OUT register, size, first
    /// component) per leaf.
    pub(super) fn output(
        &mut self,
        ty: Handle<naga::Type>,
        binding: Option<&Binding>,
        next: &mut u32,
        regs: &mut Vec<(Reg, usize, u8)>,
        span: Span,
    ) -> Result<(), TranslateError> {
        let Some(b) = binding else {
            let TypeInner::Struct { members, .. } = self.ty(ty) else {
                return Err(err(
                    Construct::Other("an entry result without a binding".into()),
                    "every output needs a location or a built-in",
                    span,
                ));
            };
            for m in members {
                self.output(m.ty, m.binding.as_ref(), next, regs, span)?;
            }
            return Ok(());
        };
        let frag = self.stage == ShaderStage::Fragment;
        if frag && matches!(b, Binding::BuiltIn(BuiltIn::SampleMask)) {
            regs.push((Reg::temp(0), SAMPLE_MASK, 0));
            return Ok(());
        }
        let double = self.is_f64_inner(self.ty(ty));
        if double {
            self.double_io(ty, frag, false, None, span)?;
        }
        let sem = match *b {
            Binding::Location {
                location,
                blend_src: None,
                ..
            } => {
                check_location(location, span)?;
                if frag {
                    (SemanticName::Color, location)
                } else {
                    (SemanticName::Generic, location)
                }
            }
            Binding::BuiltIn(BuiltIn::Position { .. }) if !frag => (SemanticName::Position, 0),
            Binding::BuiltIn(BuiltIn::FragDepth) if frag => (SemanticName::Position, 0),
            Binding::BuiltIn(BuiltIn::PointSize) if !frag => (SemanticName::PSize, 0),
            Binding::Location { .. } => {
                return Err(err(
                    Construct::Other("a second blend source (`@blend_src`)".into()),
                    "dual-source blending has no TGSI 1.x output",
                    span,
                ))
            }
            Binding::BuiltIn(other) => {
                return Err(err(
                    Construct::Builtin(names::builtin(other, self.language)),
                    builtin_why(other, frag),
                    span,
                ))
            }
        };
        let idx = *next;
        *next += 1;
        self.code.outputs.insert(idx, sem);
        let reg = Reg {
            file: RegFile::Out,
            index: idx,
        };
        if double {
            // Each double a pair: xy, then zw.
            for k in 0..vec_size(self.ty(ty)) {
                regs.push((reg, 2, 2 * k as u8));
            }
            return Ok(());
        }
        // gl_FragDepth lives in POSITION.z.
        let size = if matches!(b, Binding::BuiltIn(BuiltIn::FragDepth)) {
            FRAG_DEPTH
        } else {
            vec_size(self.ty(ty))
        };
        regs.push((reg, size, 0));
        Ok(())
    }
}

/// True for vector types.
fn ty_vector(t: &TypeInner) -> bool {
    matches!(t, TypeInner::Vector { .. })
}

/// `FILE[index]` holding `size` doubles (pairs xy, zw) as a value.
fn double_register(file: RegFile, index: u32, size: usize, vector: bool) -> Value {
    let reg = Src::reg(Reg { file, index });
    let pairs: Vec<Value> = (0..size as u8)
        .map(|k| Value::V {
            src: Src {
                swz: [2 * k, 2 * k + 1, 2 * k, 2 * k + 1],
                ..reg
            },
            size: 2,
        })
        .collect();
    if vector {
        Value::Agg(pairs)
    } else {
        pairs.into_iter().next().unwrap_or(Value::Agg(Vec::new()))
    }
}

/// Refuses locations TGSI's 16-bit semantic index cannot number.
fn check_location(location: u32, span: Span) -> Result<(), TranslateError> {
    if location > MAX_LOCATION {
        return Err(over_budget(
            Budget::Location,
            format!("@location({location}) (at most {MAX_LOCATION})"),
            span,
        ));
    }
    Ok(())
}

/// Why a built-in has no translation.
fn builtin_why(b: BuiltIn, frag: bool) -> &'static str {
    match b {
        BuiltIn::PrimitiveIndex => "TGSI 1.x has no primitive index in fragment programs",
        BuiltIn::ClipDistances | BuiltIn::CullDistance => {
            "TGSI 1.x has no clip or cull distance outputs"
        }
        BuiltIn::ViewIndex | BuiltIn::DrawIndex | BuiltIn::BaseVertex | BuiltIn::BaseInstance => {
            "TGSI 1.x has no such system value"
        }
        _ if frag => "fragment programs have no such input or output",
        _ => "vertex programs have no such input or output",
    }
}

//! naga IR to the translator's instruction list.
//!
//! Values live in registers with a swizzle, so swizzles, splats, negation, `abs` and component
//! access cost nothing. Booleans are 1.0 / 0.0 (what the TGSI set-on opcodes write); integers are
//! their 32-bit patterns, computed with the integer opcodes (`int.rs`). An integer value never
//! carries a negate or absolute modifier (a float-view reader, MOV or UCMP, would flip its sign
//! bit instead): integer negation and `abs` are instructions. Functions are inlined.

#[path = "int.rs"]
mod int;

use crate::code::{Code, Reg, RegFile, Src};
use crate::{Construct, TranslateError};
use microcode::tgsi::Opcode;
use naga::{
    AddressSpace, BinaryOperator, Binding, BuiltIn, Expression, Function, Handle, ImageDimension,
    Literal, MathFunction, Module, ScalarKind, ShaderStage, Statement, TypeInner, UnaryOperator,
};
use std::collections::{BTreeSet, HashMap};

/// A value: a vector or scalar in a register, an aggregate, a pointer or a texture handle.
#[derive(Clone, Debug)]
pub enum Value {
    /// `size` components (1 for a scalar) read through `src`'s swizzle.
    V { src: Src, size: usize },
    /// Struct members, array elements or matrix columns.
    Agg(Vec<Value>),
    /// A pointer: the storage (a tree of `V` over whole registers) and an optional component.
    Ptr {
        storage: Box<Value>,
        comp: Option<usize>,
    },
    /// A pointer to the component `index` (a run-time value) of a vector in `storage`.
    DynPtr { storage: Box<Value>, index: Src },
    /// A texture: its SAMP index and TGSI target.
    Image { samp: u32, target: &'static str },
    /// A sampler (textures carry the SAMP index).
    Sampler,
}

impl Value {
    fn regs(&self, out: &mut Vec<Reg>) {
        match self {
            Value::V { src, .. } => out.push(src.reg),
            Value::Agg(v) => v.iter().for_each(|x| x.regs(out)),
            Value::Ptr { storage, .. } | Value::DynPtr { storage, .. } => storage.regs(out),
            _ => {}
        }
    }
}

/// Where a location sits for the translator: an error with file position is built from it.
type Span = naga::Span;

struct Frame<'a> {
    fun: &'a Function,
    info: &'a naga::valid::FunctionInfo,
    cache: Vec<Option<Value>>,
    locals: Vec<Value>,
    args: Vec<Value>,
    /// Where `return` puts the value of an inlined function.
    result: Option<Value>,
    /// True for the entry point (a return writes the outputs).
    entry: bool,
    /// Inside an inlined function with early returns: the one-trip loop's depth of loops.
    loop_depth: usize,
    early_exit: bool,
}

/// Where the outputs go: per result leaf, the OUT register.
struct Outputs {
    regs: Vec<(Reg, usize)>,
}

pub struct Lower<'a> {
    module: &'a Module,
    info: &'a naga::valid::ModuleInfo,
    pub code: Code,
    frames: Vec<Frame<'a>>,
    globals: HashMap<Handle<naga::GlobalVariable>, Value>,
    var_regs: BTreeSet<u32>,
    outputs: Outputs,
    /// Loops being translated: (continuing block, break_if) of each, innermost last.
    loops: Vec<(&'a naga::Block, Option<Handle<Expression>>, usize)>,
    stage: ShaderStage,
    /// Open IF and loop blocks of the TGSI being written.
    nesting: usize,
}

/// The most instructions a translation may grow to before the passes: far beyond the core's 256
/// instructions, and a bound on what hostile inlining (calls of calls of calls) can make.
pub const MAX_INSTRUCTIONS: usize = 4096;

/// The output size that marks `frag_depth`: one value written to POSITION.z.
const FRAG_DEPTH: usize = 100;

fn f(v: f32) -> u32 {
    v.to_bits()
}

fn err(construct: Construct, span: Span) -> TranslateError {
    TranslateError::Unsupported {
        file: String::new(),
        construct,
        span,
        location: None,
    }
}

impl<'a> Lower<'a> {
    pub fn new(module: &'a Module, info: &'a naga::valid::ModuleInfo, stage: ShaderStage) -> Self {
        Lower {
            module,
            info,
            code: Code::default(),
            frames: Vec::new(),
            globals: HashMap::new(),
            var_regs: BTreeSet::new(),
            outputs: Outputs { regs: Vec::new() },
            loops: Vec::new(),
            stage,
            nesting: 0,
        }
    }

    fn ty(&self, h: Handle<naga::Type>) -> &'a TypeInner {
        &self.module.types[h].inner
    }

    fn frame(&self) -> &Frame<'a> {
        self.frames.last().expect("a frame")
    }

    fn span_of(&self, h: Handle<Expression>) -> Span {
        self.frame().fun.expressions.get_span(h)
    }

    fn expr_ty(&self, h: Handle<Expression>) -> &'a TypeInner {
        let fr = self.frame();
        fr.info[h].ty.inner_with(&self.module.types)
    }

    /// The sampler register of unit `samp`, noted as used.
    fn sampler(&mut self, samp: u32) -> Src {
        self.code.samplers.push(samp);
        Src::reg(Reg {
            file: RegFile::Samp,
            index: samp,
        })
    }

    /// A texture instruction on `target` writing all four components of a fresh temporary.
    fn texture_op(&mut self, op: Opcode, src: Vec<Src>, target: &'static str) -> Reg {
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

    /// Fresh storage for a value of type `ty`, in temporaries marked as variables.
    fn storage(&mut self, ty: Handle<naga::Type>, span: Span) -> Result<Value, TranslateError> {
        Ok(match self.ty(ty) {
            TypeInner::Scalar(_) | TypeInner::Vector { .. } => {
                let r = self.code.temp();
                self.var_regs.insert(r.index);
                Value::V {
                    src: Src::reg(r),
                    size: vec_size(self.ty(ty)),
                }
            }
            TypeInner::Matrix { columns, rows, .. } => {
                let mut v = Vec::new();
                for _ in 0..*columns as usize {
                    let r = self.code.temp();
                    self.var_regs.insert(r.index);
                    v.push(Value::V {
                        src: Src::reg(r),
                        size: *rows as usize,
                    });
                }
                Value::Agg(v)
            }
            TypeInner::Struct { members, .. } => {
                let mut v = Vec::new();
                for m in members {
                    v.push(self.storage(m.ty, span)?);
                }
                Value::Agg(v)
            }
            TypeInner::Array {
                base,
                size: naga::ArraySize::Constant(n),
                ..
            } => {
                let mut v = Vec::new();
                for _ in 0..n.get() {
                    v.push(self.storage(*base, span)?);
                }
                Value::Agg(v)
            }
            _ => return Err(err(Construct::Type(type_name(self.module, ty)), span)),
        })
    }

    /// Writes `value` into `storage` (same shape).
    fn store(&mut self, storage: &Value, comp: Option<usize>, value: &Value) {
        match (storage, value) {
            (Value::V { src: s, size }, Value::V { src: v, size: vs }) => {
                if let Some(c) = comp {
                    self.code
                        .push(Opcode::Mov, Some((s.reg, 1 << c)), vec![v.comp(0)]);
                } else {
                    let mut src = *v;
                    if *vs == 1 {
                        src = v.comp(0);
                    }
                    let mask = (1u8 << size) - 1;
                    self.code.push(Opcode::Mov, Some((s.reg, mask)), vec![src]);
                }
            }
            (Value::Agg(a), Value::Agg(b)) => {
                for (x, y) in a.iter().zip(b) {
                    self.store(x, None, y);
                }
            }
            _ => {}
        }
    }

    /// Copies every cached value that reads one of `regs` (before those registers change).
    fn detach(&mut self, regs: &BTreeSet<u32>) {
        if regs.is_empty() {
            return;
        }
        for fi in 0..self.frames.len() {
            for h in 0..self.frames[fi].cache.len() {
                let Some(v) = self.frames[fi].cache[h].clone() else {
                    continue;
                };
                let mut rs = Vec::new();
                v.regs(&mut rs);
                if matches!(v, Value::Ptr { .. }) {
                    continue;
                }
                if rs
                    .iter()
                    .any(|r| r.file == RegFile::Temp && regs.contains(&r.index))
                {
                    let copy = self.copy(&v);
                    self.frames[fi].cache[h] = Some(copy);
                }
            }
        }
    }

    fn copy(&mut self, v: &Value) -> Value {
        match v {
            Value::V { src, size } => {
                let r = self.code.temp();
                let mask = (1u8 << size) - 1;
                self.code.push(Opcode::Mov, Some((r, mask)), vec![*src]);
                Value::V {
                    src: Src::reg(r),
                    size: *size,
                }
            }
            Value::Agg(a) => Value::Agg(a.iter().map(|x| self.copy(x)).collect()),
            other => other.clone(),
        }
    }

    /// The variable registers a block may write (stores, and everything for calls).
    fn written_in(&self, block: &naga::Block, out: &mut BTreeSet<u32>) {
        for st in block.iter() {
            match st {
                Statement::Store { pointer, .. } => {
                    let mut h = *pointer;
                    while let Expression::AccessIndex { base, .. }
                    | Expression::Access { base, .. } = self.frame().fun.expressions[h]
                    {
                        h = base;
                    }
                    let mut regs = Vec::new();
                    match self.frame().fun.expressions[h] {
                        Expression::LocalVariable(l) => {
                            self.frame().locals[l.index()].regs(&mut regs)
                        }
                        Expression::GlobalVariable(g) => {
                            if let Some(v) = self.globals.get(&g) {
                                v.regs(&mut regs)
                            }
                        }
                        Expression::FunctionArgument(i) => {
                            if let Some(v) = self.frame().args.get(i as usize) {
                                v.regs(&mut regs)
                            }
                        }
                        _ => {}
                    }
                    out.extend(
                        regs.iter()
                            .filter(|r| r.file == RegFile::Temp)
                            .map(|r| r.index),
                    );
                }
                Statement::Call { .. } => out.extend(self.var_regs.iter().copied()),
                Statement::Block(b) => self.written_in(b, out),
                Statement::If { accept, reject, .. } => {
                    self.written_in(accept, out);
                    self.written_in(reject, out);
                }
                Statement::Loop {
                    body, continuing, ..
                } => {
                    self.written_in(body, out);
                    self.written_in(continuing, out);
                }
                Statement::Switch { cases, .. } => {
                    for c in cases {
                        self.written_in(&c.body, out);
                    }
                }
                _ => {}
            }
        }
    }

    /// Translates the entry point.
    pub fn entry(&mut self, ep: &'a naga::EntryPoint, index: usize) -> Result<(), TranslateError> {
        self.declare_globals()?;
        let fun = &ep.function;
        let info = self.info.get_entry_point(index);
        // Inputs.
        let mut next_in = 0u32;
        let mut args = Vec::new();
        for a in &fun.arguments {
            let v = self.input(a.ty, a.binding.as_ref(), &mut next_in)?;
            args.push(v);
        }
        // Outputs.
        let mut next_out = 0u32;
        if let Some(res) = &fun.result {
            let mut regs = Vec::new();
            self.output(res.ty, res.binding.as_ref(), &mut next_out, &mut regs)?;
            self.outputs.regs = regs;
        }
        self.frames.push(Frame {
            fun,
            info,
            cache: vec![None; fun.expressions.len()],
            locals: Vec::new(),
            args,
            result: None,
            entry: true,
            loop_depth: 0,
            early_exit: false,
        });
        self.init_locals()?;
        self.block(&fun.body, true)?;
        self.frames.pop();
        self.code.push(Opcode::End, None, vec![]);
        Ok(())
    }

    fn declare_globals(&mut self) -> Result<(), TranslateError> {
        let m = self.module;
        // Uniforms by (group, binding), then textures by (group, binding).
        let mut uniforms: Vec<_> = m
            .global_variables
            .iter()
            .filter(|(_, g)| g.space == AddressSpace::Uniform)
            .collect();
        uniforms.sort_by_key(|(_, g)| g.binding.as_ref().map(|b| (b.group, b.binding)));
        let mut next = 0u32;
        for (h, g) in uniforms {
            let v = self.const_storage(g.ty, &mut next, m.global_variables.get_span(h))?;
            self.globals.insert(h, v);
        }
        self.code.consts = next;
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
            } = &m.types[g.ty].inner
            else {
                continue;
            };
            let target = match (dim, arrayed, class) {
                (_, true, _) | (_, _, naga::ImageClass::Storage { .. }) => {
                    return Err(err(
                        Construct::Type(type_name(m, g.ty)),
                        m.global_variables.get_span(h),
                    ))
                }
                (ImageDimension::D1, ..) => "1D",
                (ImageDimension::D2, ..) => "2D",
                (ImageDimension::D3, ..) => "3D",
                (ImageDimension::Cube, ..) => "CUBE",
            };
            self.globals.insert(
                h,
                Value::Image {
                    samp: samp as u32,
                    target,
                },
            );
        }
        for (h, g) in m.global_variables.iter() {
            match g.space {
                AddressSpace::Handle => {
                    self.globals.entry(h).or_insert(Value::Sampler);
                }
                AddressSpace::Private => {
                    let st = self.storage(g.ty, m.global_variables.get_span(h))?;
                    let init = match g.init {
                        Some(e) => self.const_value(e, true)?,
                        None => self.zero(g.ty)?,
                    };
                    self.store(&st, None, &init);
                    self.globals.insert(h, st);
                }
                AddressSpace::Uniform => {}
                _ => {
                    return Err(err(
                        Construct::AddressSpace(format!("{:?}", g.space)),
                        m.global_variables.get_span(h),
                    ))
                }
            }
        }
        Ok(())
    }

    fn const_storage(
        &mut self,
        ty: Handle<naga::Type>,
        next: &mut u32,
        span: Span,
    ) -> Result<Value, TranslateError> {
        Ok(match self.ty(ty) {
            TypeInner::Scalar(_) | TypeInner::Vector { .. } => {
                let r = Reg {
                    file: RegFile::Const,
                    index: *next,
                };
                *next += 1;
                Value::V {
                    src: Src::reg(r),
                    size: vec_size(self.ty(ty)),
                }
            }
            TypeInner::Matrix { columns, rows, .. } => Value::Agg(
                (0..*columns as usize)
                    .map(|_| {
                        *next += 1;
                        Value::V {
                            src: Src::reg(Reg {
                                file: RegFile::Const,
                                index: *next - 1,
                            }),
                            size: *rows as usize,
                        }
                    })
                    .collect(),
            ),
            TypeInner::Struct { members, .. } => {
                let mut v = Vec::new();
                for m in members {
                    v.push(self.const_storage(m.ty, next, span)?);
                }
                Value::Agg(v)
            }
            TypeInner::Array {
                base,
                size: naga::ArraySize::Constant(n),
                ..
            } => {
                let mut v = Vec::new();
                for _ in 0..n.get() {
                    v.push(self.const_storage(*base, next, span)?);
                }
                Value::Agg(v)
            }
            _ => return Err(err(Construct::Type(type_name(self.module, ty)), span)),
        })
    }

    fn input(
        &mut self,
        ty: Handle<naga::Type>,
        binding: Option<&Binding>,
        next: &mut u32,
    ) -> Result<Value, TranslateError> {
        let span = Span::default();
        match binding {
            None => {
                let TypeInner::Struct { members, .. } = self.ty(ty) else {
                    return Err(err(
                        Construct::Other("an entry input without binding".into()),
                        span,
                    ));
                };
                let mut v = Vec::new();
                for m in members {
                    v.push(self.input(m.ty, m.binding.as_ref(), next)?);
                }
                Ok(Value::Agg(v))
            }
            Some(b) => {
                let idx = *next;
                *next += 1;
                let reg = Reg {
                    file: RegFile::In,
                    index: idx,
                };
                let size = vec_size(self.ty(ty));
                let frag = self.stage == ShaderStage::Fragment;
                let (sem, interp) = match b {
                    Binding::Location {
                        location,
                        interpolation,
                        ..
                    } => {
                        let ip = match interpolation {
                            Some(naga::Interpolation::Flat) => "CONSTANT",
                            Some(naga::Interpolation::Linear) => "LINEAR",
                            _ => "PERSPECTIVE",
                        };
                        if frag {
                            (format!("GENERIC[{location}]"), Some(ip))
                        } else {
                            // Vertex attributes have no semantic: IN[n] is attribute n.
                            *next -= 1;
                            self.code.inputs.insert(*location, (String::new(), None));
                            let reg = Reg {
                                file: RegFile::In,
                                index: *location,
                            };
                            return Ok(Value::V {
                                src: Src::reg(reg),
                                size,
                            });
                        }
                    }
                    Binding::BuiltIn(BuiltIn::Position { .. }) if frag => {
                        ("POSITION".to_string(), Some("LINEAR"))
                    }
                    Binding::BuiltIn(BuiltIn::FrontFacing) if frag => {
                        self.code
                            .inputs
                            .insert(idx, ("FACE".to_string(), Some("CONSTANT")));
                        // FACE.x > 0 for front faces; a bool is 1.0 / 0.0.
                        let t = self.code.temp();
                        let zero = self.code.imm(&[0]);
                        self.code.push(
                            Opcode::Slt,
                            Some((t, 1)),
                            vec![zero, Src::reg(reg).comp(0)],
                        );
                        return Ok(Value::V {
                            src: Src::reg(t),
                            size: 1,
                        });
                    }
                    other => {
                        return Err(err(Construct::Builtin(format!("{other:?}")), span));
                    }
                };
                self.code.inputs.insert(idx, (sem, interp));
                Ok(Value::V {
                    src: Src::reg(reg),
                    size,
                })
            }
        }
    }

    fn output(
        &mut self,
        ty: Handle<naga::Type>,
        binding: Option<&Binding>,
        next: &mut u32,
        regs: &mut Vec<(Reg, usize)>,
    ) -> Result<(), TranslateError> {
        let span = Span::default();
        match binding {
            None => {
                let TypeInner::Struct { members, .. } = self.ty(ty) else {
                    return Err(err(
                        Construct::Other("an entry result without binding".into()),
                        span,
                    ));
                };
                for m in members {
                    self.output(m.ty, m.binding.as_ref(), next, regs)?;
                }
                Ok(())
            }
            Some(b) => {
                let frag = self.stage == ShaderStage::Fragment;
                let sem = match b {
                    Binding::Location { location, .. } if frag => format!("COLOR[{location}]"),
                    Binding::Location { location, .. } => format!("GENERIC[{location}]"),
                    Binding::BuiltIn(BuiltIn::Position { .. }) if !frag => "POSITION".into(),
                    Binding::BuiltIn(BuiltIn::FragDepth) if frag => "POSITION".into(),
                    Binding::BuiltIn(BuiltIn::PointSize) if !frag => "PSIZE".into(),
                    other => return Err(err(Construct::Builtin(format!("{other:?}")), span)),
                };
                let idx = *next;
                *next += 1;
                self.code.outputs.insert(idx, sem);
                let size = vec_size(self.ty(ty));
                // gl_FragDepth lives in POSITION.z.
                let size = if matches!(b, Binding::BuiltIn(BuiltIn::FragDepth)) {
                    FRAG_DEPTH
                } else {
                    size
                };
                regs.push((
                    Reg {
                        file: RegFile::Out,
                        index: idx,
                    },
                    size,
                ));
                Ok(())
            }
        }
    }

    fn init_locals(&mut self) -> Result<(), TranslateError> {
        let fun = self.frame().fun;
        for (h, l) in fun.local_variables.iter() {
            let span = fun.local_variables.get_span(h);
            let st = self.storage(l.ty, span)?;
            self.frames.last_mut().unwrap().locals.push(st.clone());
            let init = match l.init {
                Some(e) => self.eval_const_or_expr(e)?,
                None => self.zero(l.ty)?,
            };
            self.store(&st, None, &init);
        }
        Ok(())
    }

    fn eval_const_or_expr(&mut self, e: Handle<Expression>) -> Result<Value, TranslateError> {
        self.expr(e)
    }

    fn zero(&mut self, ty: Handle<naga::Type>) -> Result<Value, TranslateError> {
        Ok(match self.ty(ty) {
            TypeInner::Scalar(_) | TypeInner::Vector { .. } => Value::V {
                src: if is_int(self.ty(ty)) {
                    self.code.imm_int(&[0])
                } else {
                    self.code.imm(&[0])
                },
                size: vec_size(self.ty(ty)),
            },
            TypeInner::Matrix { columns, rows, .. } => Value::Agg(
                (0..*columns as usize)
                    .map(|_| Value::V {
                        src: self.code.imm(&[0]),
                        size: *rows as usize,
                    })
                    .collect(),
            ),
            TypeInner::Struct { members, .. } => {
                let mut v = Vec::new();
                for m in members {
                    v.push(self.zero(m.ty)?);
                }
                Value::Agg(v)
            }
            TypeInner::Array {
                base,
                size: naga::ArraySize::Constant(n),
                ..
            } => {
                let mut v = Vec::new();
                for _ in 0..n.get() {
                    v.push(self.zero(*base)?);
                }
                Value::Agg(v)
            }
            _ => {
                return Err(err(
                    Construct::Type(type_name(self.module, ty)),
                    Span::default(),
                ))
            }
        })
    }

    /// A module-level constant expression (`global` true) as a value of immediates.
    fn const_value(
        &mut self,
        e: Handle<Expression>,
        _global: bool,
    ) -> Result<Value, TranslateError> {
        let flat = self.const_flat(e)?;
        let ty = &self.info[e];
        let inner = ty.inner_with(&self.module.types);
        self.shape_const(inner, &flat)
    }

    fn shape_const(&mut self, inner: &TypeInner, flat: &[u32]) -> Result<Value, TranslateError> {
        Ok(match inner {
            TypeInner::Scalar(_) | TypeInner::Vector { .. } => Value::V {
                src: if is_int(inner) {
                    self.code.imm_int(flat)
                } else {
                    self.code.imm(flat)
                },
                size: flat.len(),
            },
            TypeInner::Matrix { columns, rows, .. } => {
                let r = *rows as usize;
                Value::Agg(
                    (0..*columns as usize)
                        .map(|c| Value::V {
                            src: self.code.imm(&flat[c * r..c * r + r]),
                            size: r,
                        })
                        .collect(),
                )
            }
            _ => {
                return Err(err(
                    Construct::Other("a constant of this type".into()),
                    Span::default(),
                ))
            }
        })
    }

    /// Flattens a module-level constant expression to bit patterns.
    fn const_flat(&self, e: Handle<Expression>) -> Result<Vec<u32>, TranslateError> {
        let m = self.module;
        let span = m.global_expressions.get_span(e);
        Ok(match &m.global_expressions[e] {
            Expression::Literal(l) => vec![literal_bits(*l, span)?],
            Expression::Constant(c) => self.const_flat(m.constants[*c].init)?,
            Expression::ZeroValue(ty) => vec![0; flat_len(m, *ty)],
            Expression::Compose { components, .. } => {
                let mut v = Vec::new();
                for c in components {
                    v.extend(self.const_flat(*c)?);
                }
                v
            }
            Expression::Splat { size, value } => {
                let x = self.const_flat(*value)?;
                vec![x[0]; *size as usize]
            }
            _ => {
                return Err(err(
                    Construct::Other("this constant expression".into()),
                    span,
                ))
            }
        })
    }

    fn block(&mut self, block: &'a naga::Block, tail: bool) -> Result<(), TranslateError> {
        let n = block.len();
        for (i, (st, span)) in block.span_iter().enumerate() {
            if self.code.insts.len() > MAX_INSTRUCTIONS {
                return Err(err(
                    Construct::Other(format!(
                        "a shader over {MAX_INSTRUCTIONS} TGSI instructions (after inlining)"
                    )),
                    *span,
                ));
            }
            let last = tail && i + 1 == n;
            let stop = self.statement(st, *span, last)?;
            if stop {
                break;
            }
        }
        Ok(())
    }

    /// Translates one statement; returns true when the rest of the block is unreachable.
    fn statement(
        &mut self,
        st: &'a Statement,
        span: Span,
        tail: bool,
    ) -> Result<bool, TranslateError> {
        match st {
            Statement::Emit(range) => {
                for h in range.clone() {
                    let v = self.expr_uncached(h)?;
                    self.frames.last_mut().unwrap().cache[h.index()] = Some(v);
                }
            }
            Statement::Block(b) => {
                let mut w = BTreeSet::new();
                self.written_in(b, &mut w);
                self.detach(&w);
                self.block(b, tail)?;
            }
            Statement::If {
                condition,
                accept,
                reject,
            } => {
                // `if (c) {} else { ... }` (what a for loop's test becomes) is `if (!c) { ... }`.
                let (accept, reject, c) = if accept.is_empty() && !reject.is_empty() {
                    let (s, _) = Self::v(self.not(*condition)?);
                    (reject, accept, s)
                } else {
                    (accept, reject, self.scalar(*condition)?)
                };
                // `if (c) { discard; }` is one conditional KIL; `if (x < 0.0)` tests x itself.
                if reject.is_empty() && accept.len() == 1 {
                    if let Some(Statement::Kill) = accept.iter().next() {
                        let operand = match self.sign_test(*condition)? {
                            Some(x) => x,
                            None => c.comp(0).negated(),
                        };
                        self.code.push(Opcode::Kil, None, vec![operand]);
                        return Ok(false);
                    }
                }
                let mut w = BTreeSet::new();
                self.written_in(accept, &mut w);
                self.written_in(reject, &mut w);
                self.detach(&w);
                self.open(Opcode::If, vec![c.comp(0)], span)?;
                self.block(accept, tail)?;
                if !reject.is_empty() {
                    self.code.push(Opcode::Else, None, vec![]);
                    self.block(reject, tail)?;
                }
                self.close(Opcode::EndIf);
            }
            Statement::Loop {
                body,
                continuing,
                break_if,
            } => {
                let mut w = BTreeSet::new();
                self.written_in(body, &mut w);
                self.written_in(continuing, &mut w);
                self.detach(&w);
                self.open(Opcode::BgnLoop, vec![], span)?;
                self.frames.last_mut().unwrap().loop_depth += 1;
                self.loops.push((continuing, *break_if, self.frames.len()));
                self.block(body, false)?;
                self.continuing()?;
                self.loops.pop();
                self.frames.last_mut().unwrap().loop_depth -= 1;
                self.close(Opcode::EndLoop);
            }
            Statement::Switch { selector, cases } => {
                self.switch(*selector, cases, span)?;
            }
            Statement::Break => {
                self.code.push(Opcode::Brk, None, vec![]);
                return Ok(true);
            }
            Statement::Continue => {
                self.continuing()?;
                self.code.push(Opcode::Cont, None, vec![]);
                return Ok(true);
            }
            Statement::Return { value } => {
                let v = match value {
                    Some(h) => Some(self.expr(*h)?),
                    None => None,
                };
                let (entry, result, early_exit, loop_depth) = {
                    let fr = self.frame();
                    (fr.entry, fr.result.clone(), fr.early_exit, fr.loop_depth)
                };
                if entry {
                    if let Some(v) = v {
                        let mut leaves = Vec::new();
                        flatten(&v, &mut leaves);
                        let regs = std::mem::take(&mut self.outputs.regs);
                        for ((reg, size), leaf) in regs.iter().zip(leaves) {
                            let Value::V { src, size: vs } = leaf else {
                                continue;
                            };
                            let src = if vs == 1 { src.comp(0) } else { src };
                            if *size == FRAG_DEPTH {
                                self.code
                                    .push(Opcode::Mov, Some((*reg, 4)), vec![src.comp(0)]);
                            } else {
                                let mask = (1u8 << size) - 1;
                                self.code.push(Opcode::Mov, Some((*reg, mask)), vec![src]);
                            }
                        }
                        self.outputs.regs = regs;
                    }
                    if !tail {
                        self.code.push(Opcode::Ret, None, vec![]);
                    }
                } else {
                    if let (Some(v), Some(r)) = (v, result) {
                        self.store(&r, None, &v);
                    }
                    if !tail {
                        if !early_exit || loop_depth > 0 {
                            return Err(err(
                                Construct::Other(
                                    "a return from inside a loop of a called function".into(),
                                ),
                                span,
                            ));
                        }
                        self.code.push(Opcode::Brk, None, vec![]);
                    }
                }
                return Ok(true);
            }
            Statement::Kill => {
                self.code.push(Opcode::Kilp, None, vec![]);
            }
            Statement::Store { pointer, value } => {
                let p = self.expr(*pointer)?;
                let v = self.expr(*value)?;
                if let Value::DynPtr { storage, index } = &p {
                    let mut regs = Vec::new();
                    storage.regs(&mut regs);
                    let set: BTreeSet<u32> = regs.iter().map(|r| r.index).collect();
                    self.detach(&set);
                    let (dst, n) = Self::v((**storage).clone());
                    let Value::V { src: x, .. } = v else {
                        return Err(err(Construct::Other("a store of this value".into()), span));
                    };
                    // Lane k of the vector takes the value where index == k.
                    let onehot = self.onehot(*index, n);
                    if is_int(self.expr_ty(*value)) {
                        self.code.push(
                            Opcode::Ucmp,
                            Some((dst.reg, (1u8 << n) - 1)),
                            vec![onehot, x.comp(0), dst],
                        );
                    } else {
                        self.code.push(
                            Opcode::Cmp,
                            Some((dst.reg, (1u8 << n) - 1)),
                            vec![onehot.negated(), x.comp(0), dst],
                        );
                    }
                    return Ok(false);
                }
                let Value::Ptr { storage, comp } = p else {
                    return Err(err(
                        Construct::Other("a store through this pointer".into()),
                        span,
                    ));
                };
                let mut regs = Vec::new();
                storage.regs(&mut regs);
                if regs.iter().any(|r| r.file != RegFile::Temp) {
                    return Err(err(Construct::Other("a store to a uniform".into()), span));
                }
                let set: BTreeSet<u32> = regs.iter().map(|r| r.index).collect();
                self.detach(&set);
                self.store(&storage, comp, &v);
            }
            Statement::Call {
                function,
                arguments,
                result,
            } => {
                let mut args = Vec::new();
                for a in arguments {
                    args.push(self.expr(*a)?);
                }
                let callee = &self.module.functions[*function];
                let res = match &callee.result {
                    Some(r) => Some(self.storage(r.ty, span)?),
                    None => None,
                };
                let early = has_early_return(&callee.body);
                self.frames.push(Frame {
                    fun: callee,
                    info: &self.info[*function],
                    cache: vec![None; callee.expressions.len()],
                    locals: Vec::new(),
                    args,
                    result: res.clone(),
                    entry: false,
                    loop_depth: 0,
                    early_exit: early,
                });
                // Loops of the caller are not visible to the callee's break/continue.
                let saved = std::mem::take(&mut self.loops);
                self.init_locals()?;
                if early {
                    self.open(Opcode::BgnLoop, vec![], span)?;
                }
                self.block(&callee.body, true)?;
                if early {
                    self.code.push(Opcode::Brk, None, vec![]);
                    self.close(Opcode::EndLoop);
                }
                self.loops = saved;
                self.frames.pop();
                if let (Some(h), Some(v)) = (result, res) {
                    self.frames.last_mut().unwrap().cache[h.index()] = Some(v);
                }
            }
            other => {
                return Err(err(Construct::Statement(statement_name(other)), span));
            }
        }
        Ok(false)
    }

    /// A switch: a one-trip loop (so that `break` leaves it) holding one `IF selector == value`
    /// per case, each ending in BRK, then the default. Cases that fall through into a non-empty
    /// case, and `continue` inside a switch, are refused.
    fn switch(
        &mut self,
        selector: Handle<Expression>,
        cases: &'a [naga::SwitchCase],
        span: Span,
    ) -> Result<(), TranslateError> {
        if cases.iter().any(|c| has_continue(&c.body)) {
            return Err(err(
                Construct::Other("a continue inside a switch".into()),
                span,
            ));
        }
        let sel = self.scalar(selector)?.comp(0);
        // The selector (i32 or u32) as a float once: each case below 2^24 is one SEQ (I2F is
        // exact there and maps no other integer onto such a value; a u32 from 2^31 up turns
        // negative, equal to no case).
        let fsel = self.ialu(Opcode::I2f, 1, vec![sel]);
        let mut groups: Vec<(Vec<naga::SwitchValue>, &'a naga::Block)> = Vec::new();
        let mut pending = Vec::new();
        for c in cases {
            pending.push(c.value);
            if c.fall_through {
                if c.body.is_empty() {
                    continue;
                }
                return Err(err(
                    Construct::Other("a switch case that falls through into the next".into()),
                    span,
                ));
            }
            groups.push((std::mem::take(&mut pending), &c.body));
        }
        let mut w = BTreeSet::new();
        for c in cases {
            self.written_in(&c.body, &mut w);
        }
        self.detach(&w);
        // The conditions first: every case tests the selector as it was before any case ran.
        let mut tests = Vec::new();
        for (values, _) in &groups {
            if values.contains(&naga::SwitchValue::Default) {
                tests.push(None);
                continue;
            }
            let mut cond: Option<Src> = None;
            for v in values {
                let bits = match v {
                    naga::SwitchValue::I32(i) => *i as u32,
                    naga::SwitchValue::U32(u) => *u,
                    naga::SwitchValue::Default => 0,
                };
                let small = match v {
                    naga::SwitchValue::I32(i) => i.unsigned_abs() < 1 << 24,
                    _ => bits < 1 << 24,
                };
                let eq = if small {
                    let k = match v {
                        naga::SwitchValue::I32(i) => *i as f32,
                        _ => bits as f32,
                    };
                    let k = self.imm_s(k);
                    Self::v(self.alu(Opcode::Seq, 1, vec![fsel, k])).0
                } else {
                    let k = self.code.imm_int(&[bits]);
                    let t = self.ialu(Opcode::Xor, 1, vec![sel, k]);
                    let ft = self.ialu(Opcode::I2f, 1, vec![t]);
                    let z = self.imm_s(0.0);
                    Self::v(self.alu(Opcode::Seq, 1, vec![ft, z])).0
                };
                cond = Some(match cond {
                    None => eq,
                    Some(c) => Self::v(self.alu(Opcode::Max, 1, vec![c, eq])).0,
                });
            }
            tests.push(cond);
        }
        self.open(Opcode::BgnLoop, vec![], span)?;
        self.frames.last_mut().unwrap().loop_depth += 1;
        let saved = std::mem::take(&mut self.loops);
        let mut default = None;
        for ((_, body), test) in groups.iter().zip(tests) {
            let Some(c) = test else {
                default = Some(*body);
                continue;
            };
            self.open(Opcode::If, vec![c.comp(0)], span)?;
            self.block(body, false)?;
            self.code.push(Opcode::Brk, None, vec![]);
            self.close(Opcode::EndIf);
        }
        if let Some(body) = default {
            self.block(body, false)?;
        }
        self.code.push(Opcode::Brk, None, vec![]);
        self.loops = saved;
        self.frames.last_mut().unwrap().loop_depth -= 1;
        self.close(Opcode::EndLoop);
        Ok(())
    }

    /// Writes IF or BGNLOOP, refusing nesting the project's validator would refuse.
    fn open(&mut self, op: Opcode, src: Vec<Src>, span: Span) -> Result<(), TranslateError> {
        self.nesting += 1;
        let limit = microcode::tgsi::validate::Limits::default().max_nesting;
        if self.nesting > limit {
            return Err(err(
                Construct::Other(format!(
                    "control flow nested deeper than {limit} (ifs, loops and early returns)"
                )),
                span,
            ));
        }
        self.code.push(op, None, src);
        Ok(())
    }

    /// Writes ENDIF or ENDLOOP.
    fn close(&mut self, op: Opcode) {
        self.nesting -= 1;
        self.code.push(op, None, vec![]);
    }

    /// The loop's continuing block and its break-if test, before CONT or ENDLOOP.
    fn continuing(&mut self) -> Result<(), TranslateError> {
        let Some(&(cont, break_if, _)) = self.loops.last() else {
            return Ok(());
        };
        self.block(cont, false)?;
        if let Some(b) = break_if {
            let c = self.scalar(b)?;
            let span = self.span_of(b);
            self.open(Opcode::If, vec![c.comp(0)], span)?;
            self.code.push(Opcode::Brk, None, vec![]);
            self.close(Opcode::EndIf);
        }
        Ok(())
    }

    /// An expression's value: cached once emitted, or evaluated (for expressions that need no
    /// Emit: literals, constants, variables, arguments).
    fn expr(&mut self, h: Handle<Expression>) -> Result<Value, TranslateError> {
        if let Some(v) = &self.frame().cache[h.index()] {
            return Ok(v.clone());
        }
        let v = self.expr_uncached(h)?;
        self.frames.last_mut().unwrap().cache[h.index()] = Some(v.clone());
        Ok(v)
    }

    fn scalar(&mut self, h: Handle<Expression>) -> Result<Src, TranslateError> {
        match self.expr(h)? {
            Value::V { src, .. } => Ok(src),
            _ => Err(err(
                Construct::Other("a non-vector operand".into()),
                self.span_of(h),
            )),
        }
    }

    /// A vector or scalar operand; a scalar reads its one component in all four.
    fn vec(&mut self, h: Handle<Expression>) -> Result<(Src, usize), TranslateError> {
        match self.expr(h)? {
            Value::V { src, size: 1 } => Ok((src.comp(0), 1)),
            Value::V { src, size } => Ok((src, size)),
            _ => Err(err(
                Construct::Other("a non-vector operand".into()),
                self.span_of(h),
            )),
        }
    }

    /// One instruction writing the first `size` components of a fresh temporary; on immediates
    /// only, the value itself (folded here, one rounding per operation as the models do).
    fn alu(&mut self, op: Opcode, size: usize, src: Vec<Src>) -> Value {
        if let Some(v) = self.fold(op, size, &src) {
            return v;
        }
        let r = self.code.temp();
        self.code.push(op, Some((r, (1u8 << size) - 1)), src);
        let src = if size == 1 {
            Src::reg(r).comp(0)
        } else {
            Src::reg(r)
        };
        Value::V { src, size }
    }

    fn fold(&mut self, op: Opcode, size: usize, src: &[Src]) -> Option<Value> {
        if !src.iter().all(|s| s.reg.file == RegFile::Imm) {
            return None;
        }
        let get = |code: &Code, s: &Src, c: usize| -> f32 {
            let b = code.imms[s.reg.index as usize][s.swz[c] as usize];
            let x = f32::from_bits(b);
            let x = if s.abs { x.abs() } else { x };
            if s.neg {
                -x
            } else {
                x
            }
        };
        // Subnormal operands are zero to the models (an integer's bits read as a float often are).
        let subnormal = |x: f32| x != 0.0 && !x.is_normal() && x.is_finite();
        let mut out = Vec::new();
        for c in 0..size {
            let a = get(&self.code, &src[0], c);
            let b = src.get(1).map(|s| get(&self.code, s, c));
            if subnormal(a) || b.is_some_and(subnormal) {
                return None;
            }
            let r = match (op, b) {
                (Opcode::Add, Some(b)) => a + b,
                (Opcode::Mul, Some(b)) => a * b,
                (Opcode::Div, Some(b)) if b != 0.0 => a / b,
                (Opcode::Min, Some(b)) => a.min(b),
                (Opcode::Max, Some(b)) => a.max(b),
                _ => return None,
            };
            // Subnormals and NaN are where the models' rules differ from the host's: leave them.
            if !r.is_normal() && r != 0.0 {
                return None;
            }
            out.push(r.to_bits());
        }
        Some(Value::V {
            src: self.code.imm(&out),
            size,
        })
    }

    /// A replicating scalar opcode (RCP, SIN, ...) applied to each component.
    fn per_comp(&mut self, op: Opcode, size: usize, src: &[Src]) -> Value {
        let r = self.code.temp();
        for c in 0..size {
            let s: Vec<Src> = src.iter().map(|s| s.comp(c)).collect();
            self.code.push(op, Some((r, 1 << c)), s);
        }
        Value::V {
            src: Src::reg(r),
            size,
        }
    }

    fn v(value: Value) -> (Src, usize) {
        match value {
            Value::V { src, size } => (src, size),
            _ => unreachable!("vector values only"),
        }
    }

    fn imm_s(&mut self, x: f32) -> Src {
        self.code.imm(&[f(x)])
    }

    fn expr_uncached(&mut self, h: Handle<Expression>) -> Result<Value, TranslateError> {
        let fun = self.frame().fun;
        let span = self.span_of(h);
        let e = &fun.expressions[h];
        let out_size = || -> usize { 0 };
        let _ = out_size;
        Ok(match e {
            Expression::Literal(l) => {
                let bits = literal_bits(*l, span)?;
                Value::V {
                    src: if literal_is_int(l) {
                        self.code.imm_int(&[bits])
                    } else {
                        self.code.imm(&[bits])
                    },
                    size: 1,
                }
            }
            Expression::Constant(c) => {
                let init = self.module.constants[*c].init;
                self.const_value(init, true)?
            }
            Expression::ZeroValue(ty) => self.zero(*ty)?,
            Expression::Compose { ty, components } => {
                let inner = self.ty(*ty);
                match inner {
                    TypeInner::Vector { size, .. } => {
                        let size = *size as usize;
                        // Each output component: a constant or (src, component).
                        let mut parts: Vec<Src> = Vec::new();
                        for c in components {
                            let (s, n) = self.vec(*c)?;
                            for i in 0..n {
                                parts.push(s.comp(i));
                            }
                        }
                        let int = is_int(inner);
                        self.compose(&parts[..size.min(parts.len())], int)
                    }
                    _ => {
                        let mut v = Vec::new();
                        for c in components {
                            v.push(self.expr(*c)?);
                        }
                        Value::Agg(v)
                    }
                }
            }
            Expression::Access { base, index } => match self.const_index(*index) {
                Some(idx) => self.access(*base, idx, span)?,
                None => {
                    // The index as a float (I2F: exact for every index that selects anything).
                    let (i, _) = self.vec(*index)?;
                    let i = if is_int(self.expr_ty(*index)) {
                        self.ialu(Opcode::I2f, 1, vec![i.comp(0)])
                    } else {
                        i
                    };
                    let int = is_int(self.expr_ty(h));
                    match self.expr(*base)? {
                        Value::V { src, size } => self.select_component(src, size, i, int),
                        Value::Ptr {
                            storage,
                            comp: None,
                        } if matches!(*storage, Value::V { .. }) => {
                            Value::DynPtr { storage, index: i }
                        }
                        Value::Ptr {
                            storage,
                            comp: None,
                        } if uniform_array(&storage).is_some() => {
                            let (base, size, n) = uniform_array(&storage).unwrap_or((0, 1, 1));
                            // ARL floors; the index is clamped into the array first.
                            let lo = self.imm_s(0.0);
                            let hi = self.imm_s((n - 1) as f32);
                            let (a, _) = Self::v(self.alu(Opcode::Max, 1, vec![i, lo]));
                            let (a, _) = Self::v(self.alu(Opcode::Min, 1, vec![a, hi]));
                            let addr = Reg {
                                file: RegFile::Addr,
                                index: 0,
                            };
                            self.code.uses_address = true;
                            self.code.push(Opcode::Arl, Some((addr, 1)), vec![a]);
                            let t = self.code.temp();
                            let src = Src {
                                rel: true,
                                ..Src::reg(Reg {
                                    file: RegFile::Const,
                                    index: base,
                                })
                            };
                            self.code
                                .push(Opcode::Mov, Some((t, (1u8 << size) - 1)), vec![src]);
                            Value::Ptr {
                                storage: Box::new(Value::V {
                                    src: Src::reg(t),
                                    size,
                                }),
                                comp: None,
                            }
                        }
                        _ => {
                            return Err(err(
                                Construct::Other(
                                    "indexing an array or matrix with a non-constant index".into(),
                                ),
                                span,
                            ))
                        }
                    }
                }
            },
            Expression::AccessIndex { base, index } => self.access(*base, *index as usize, span)?,
            Expression::Splat { size, value } => {
                let (s, _) = self.vec(*value)?;
                Value::V {
                    src: s.comp(0),
                    size: *size as usize,
                }
            }
            Expression::Swizzle {
                size,
                vector,
                pattern,
            } => {
                let (s, _) = self.vec(*vector)?;
                let mut swz = [0u8; 4];
                for i in 0..4 {
                    let p = pattern[i.min(*size as usize - 1)] as usize;
                    swz[i] = s.swz[p];
                }
                Value::V {
                    src: Src { swz, ..s },
                    size: *size as usize,
                }
            }
            Expression::FunctionArgument(i) => self.frame().args[*i as usize].clone(),
            Expression::GlobalVariable(g) => {
                let v =
                    self.globals.get(g).cloned().ok_or_else(|| {
                        err(Construct::Other("this global variable".into()), span)
                    })?;
                match v {
                    Value::Image { .. } | Value::Sampler => v,
                    other => Value::Ptr {
                        storage: Box::new(other),
                        comp: None,
                    },
                }
            }
            Expression::LocalVariable(l) => Value::Ptr {
                storage: Box::new(self.frame().locals[l.index()].clone()),
                comp: None,
            },
            Expression::Load { pointer } => match self.expr(*pointer)? {
                Value::DynPtr { storage, index } => {
                    let (s, n) = Self::v(*storage);
                    let int = is_int(self.expr_ty(h));
                    self.select_component(s, n, index, int)
                }
                Value::Ptr { storage, comp } => match comp {
                    Some(c) => {
                        let (s, _) = Self::v(*storage);
                        Value::V {
                            src: s.comp(c),
                            size: 1,
                        }
                    }
                    None => *storage,
                },
                other => other,
            },
            Expression::ImageSample {
                image,
                sampler: _,
                gather,
                coordinate,
                array_index,
                offset,
                level,
                depth_ref,
                ..
            } => {
                if gather.is_some()
                    || array_index.is_some()
                    || offset.is_some()
                    || depth_ref.is_some()
                {
                    return Err(err(
                        Construct::Other("this texture sampling form".into()),
                        span,
                    ));
                }
                let Value::Image { samp, target } = self.expr(*image)? else {
                    return Err(err(Construct::Other("this texture".into()), span));
                };
                let (coord, n) = self.vec(*coordinate)?;
                let sreg = self.sampler(samp);
                let (op, src) = match level {
                    naga::SampleLevel::Auto => (Opcode::Tex, vec![coord, sreg]),
                    naga::SampleLevel::Zero
                    | naga::SampleLevel::Exact(_)
                    | naga::SampleLevel::Bias(_) => {
                        let lod = match level {
                            naga::SampleLevel::Exact(x) | naga::SampleLevel::Bias(x) => {
                                self.scalar(*x)?.comp(0)
                            }
                            _ => self.imm_s(0.0),
                        };
                        let t = self.code.temp();
                        let mask = (1u8 << n) - 1;
                        self.code.push(Opcode::Mov, Some((t, mask)), vec![coord]);
                        self.code.push(Opcode::Mov, Some((t, 8)), vec![lod]);
                        let op = if matches!(level, naga::SampleLevel::Bias(_)) {
                            Opcode::Txb
                        } else {
                            Opcode::Txl
                        };
                        (op, vec![Src::reg(t), sreg])
                    }
                    naga::SampleLevel::Gradient { x, y } => {
                        let (gx, _) = self.vec(*x)?;
                        let (gy, _) = self.vec(*y)?;
                        (Opcode::Txd, vec![coord, gx, gy, sreg])
                    }
                };
                let r = self.texture_op(op, src, target);
                Value::V {
                    src: Src::reg(r),
                    size: 4,
                }
            }
            Expression::ImageLoad {
                image,
                coordinate,
                array_index,
                sample,
                level: _,
            } => {
                // TXF: the texel at integer coordinates, unfiltered; the textures have one level,
                // so the level is not read (TXF ignores src0.w).
                let Value::Image { samp, target } = self.expr(*image)? else {
                    return Err(err(Construct::Other("this texture".into()), span));
                };
                if array_index.is_some() || sample.is_some() || target == "CUBE" {
                    return Err(err(Construct::Other("this texture load form".into()), span));
                }
                let (coord, _) = self.vec(*coordinate)?;
                let sreg = self.sampler(samp);
                let r = self.texture_op(Opcode::Txf, vec![coord, sreg], target);
                // A depth texture's texel is a scalar.
                self.texture_value(r, h)
            }
            Expression::ImageQuery { image, query } => {
                let Value::Image { samp, target } = self.expr(*image)? else {
                    return Err(err(Construct::Other("this texture".into()), span));
                };
                match query {
                    // TXQ: (width, height, depth, levels) as integers; one level.
                    naga::ImageQuery::Size { .. } => {
                        let sreg = self.sampler(samp);
                        let lod = self.code.imm_int(&[0]);
                        let r = self.texture_op(Opcode::Txq, vec![lod, sreg], target);
                        self.texture_value(r, h)
                    }
                    naga::ImageQuery::NumLevels => Value::V {
                        src: self.code.imm_int(&[1]),
                        size: 1,
                    },
                    other => {
                        return Err(err(
                            Construct::Other(format!("the texture query {other:?}")),
                            span,
                        ))
                    }
                }
            }
            Expression::Unary { op, expr } => {
                let (s, n) = self.vec(*expr)?;
                let int = is_int(self.expr_ty(*expr));
                match op {
                    // Integers: UADD 0, -x (an integer value carries no modifier).
                    UnaryOperator::Negate if int => {
                        let z = self.code.imm_int(&[0]);
                        Value::V {
                            src: self.ialu(Opcode::Uadd, n, vec![z, s.negated()]),
                            size: n,
                        }
                    }
                    UnaryOperator::Negate => Value::V {
                        src: s.negated(),
                        size: n,
                    },
                    UnaryOperator::LogicalNot => self.not(*expr)?,
                    UnaryOperator::BitwiseNot if int => Value::V {
                        src: self.ialu(Opcode::Not, n, vec![s]),
                        size: n,
                    },
                    UnaryOperator::BitwiseNot => {
                        return Err(err(Construct::Operator("BitwiseNot".into()), span))
                    }
                }
            }
            Expression::Binary { op, left, right } => self.binary(*op, *left, *right, span)?,
            Expression::Select {
                condition,
                accept,
                reject,
            } => {
                let (c, _) = self.vec(*condition)?;
                let (a, n) = self.vec(*accept)?;
                let (r, _) = self.vec(*reject)?;
                if is_int(self.expr_ty(*accept)) {
                    Value::V {
                        src: self.iselect(n, c, a, r),
                        size: n,
                    }
                } else if let (Value::V { .. }, true) = (self.expr(*accept)?, n >= 1) {
                    self.alu(Opcode::Cmp, n, vec![c.negated(), a, r])
                } else {
                    return Err(err(Construct::Other("select of aggregates".into()), span));
                }
            }
            Expression::Derivative { axis, expr, .. } => {
                let (s, n) = self.vec(*expr)?;
                match axis {
                    naga::DerivativeAxis::X => self.alu(Opcode::Ddx, n, vec![s]),
                    naga::DerivativeAxis::Y => self.alu(Opcode::Ddy, n, vec![s]),
                    naga::DerivativeAxis::Width => {
                        let (x, _) = Self::v(self.alu(Opcode::Ddx, n, vec![s]));
                        let (y, _) = Self::v(self.alu(Opcode::Ddy, n, vec![s]));
                        self.alu(
                            Opcode::Add,
                            n,
                            vec![Src { abs: true, ..x }, Src { abs: true, ..y }],
                        )
                    }
                }
            }
            Expression::Relational { fun, argument } => {
                let (s, n) = self.vec(*argument)?;
                let ones = self.code.imm(&[f(1.0); 4][..n.max(1)]);
                let dp = match n {
                    1 => s,
                    2 => Self::v(self.alu(Opcode::Dp2, 1, vec![s, ones])).0,
                    3 => Self::v(self.alu(Opcode::Dp3, 1, vec![s, ones])).0,
                    _ => Self::v(self.alu(Opcode::Dp4, 1, vec![s, ones])).0,
                };
                match fun {
                    naga::RelationalFunction::Any => {
                        let z = self.imm_s(0.0);
                        self.alu(Opcode::Slt, 1, vec![z, dp.comp(0)])
                    }
                    naga::RelationalFunction::All => {
                        let k = self.imm_s(n as f32);
                        self.alu(Opcode::Sge, 1, vec![dp.comp(0), k])
                    }
                    other => return Err(err(Construct::Function(format!("{other:?}")), span)),
                }
            }
            Expression::Math {
                fun,
                arg,
                arg1,
                arg2,
                ..
            } => self.math(*fun, *arg, *arg1, *arg2, span)?,
            Expression::As {
                expr,
                kind,
                convert,
            } => self.int_cast(*expr, *kind, *convert, span)?,
            Expression::CallResult(_) => {
                return Err(err(
                    Construct::Other("a call result used before the call".into()),
                    span,
                ))
            }
            other => return Err(err(Construct::Expression(expression_name(other)), span)),
        })
    }

    /// For `x < 0.0` (or `0.0 > x`, `x > 0.0`, `0.0 < x`) on a scalar: the operand that is
    /// negative exactly when the comparison holds (`x` or `-x`), which KIL tests directly.
    fn sign_test(&mut self, h: Handle<Expression>) -> Result<Option<Src>, TranslateError> {
        let fun = self.frame().fun;
        let Expression::Binary { op, left, right } = fun.expressions[h] else {
            return Ok(None);
        };
        let zero = |e: Handle<Expression>| {
            matches!(
                fun.expressions[e],
                Expression::Literal(Literal::F32(z)) if z == 0.0
            )
        };
        let (x, negate) = match op {
            BinaryOperator::Less if zero(right) => (left, false),
            BinaryOperator::Greater if zero(left) => (right, false),
            BinaryOperator::Greater if zero(right) => (left, true),
            BinaryOperator::Less if zero(left) => (right, true),
            _ => return Ok(None),
        };
        let (s, n) = self.vec(x)?;
        if n != 1 {
            return Ok(None);
        }
        Ok(Some(if negate { s.negated() } else { s }))
    }

    /// `(index == 0, index == 1, ...)` for the first `n` components, as 1.0 / 0.0.
    fn onehot(&mut self, index: Src, n: usize) -> Src {
        let lanes = self.code.imm(&[f(0.0), f(1.0), f(2.0), f(3.0)][..n]);
        let (s, _) = Self::v(self.alu(Opcode::Seq, n, vec![index.comp(0), lanes]));
        s
    }

    /// Component `index` (a run-time value) of a vector: a chain of selects, exact for every
    /// value (an index out of range reads component 0).
    fn select_component(&mut self, v: Src, n: usize, index: Src, int: bool) -> Value {
        let hot = self.onehot(index, n);
        let mut r = v.comp(0);
        for k in 1..n {
            r = if int {
                // UCMP keeps integer bits (CMP would flush the small ones, subnormal as floats).
                self.iselect(1, hot.comp(k), v.comp(k), r)
            } else {
                Self::v(self.alu(Opcode::Cmp, 1, vec![hot.comp(k).negated(), v.comp(k), r])).0
            };
        }
        Value::V { src: r, size: 1 }
    }

    /// The negation of a boolean expression; of a comparison, the opposite comparison.
    fn not(&mut self, h: Handle<Expression>) -> Result<Value, TranslateError> {
        let fun = self.frame().fun;
        let span = self.span_of(h);
        if let Expression::Binary { op, left, right } = fun.expressions[h] {
            let inverse = match op {
                BinaryOperator::Less => Some(BinaryOperator::GreaterEqual),
                BinaryOperator::LessEqual => Some(BinaryOperator::Greater),
                BinaryOperator::Greater => Some(BinaryOperator::LessEqual),
                BinaryOperator::GreaterEqual => Some(BinaryOperator::Less),
                BinaryOperator::Equal => Some(BinaryOperator::NotEqual),
                BinaryOperator::NotEqual => Some(BinaryOperator::Equal),
                _ => None,
            };
            if let Some(inv) = inverse {
                return self.binary(inv, left, right, span);
            }
        }
        let (s, n) = self.vec(h)?;
        let z = self.imm_s(0.0);
        Ok(self.alu(Opcode::Seq, n, vec![s, z]))
    }

    fn const_index(&mut self, index: Handle<Expression>) -> Option<usize> {
        match &self.frame().fun.expressions[index] {
            Expression::Literal(Literal::I32(i)) => usize::try_from(*i).ok(),
            Expression::Literal(Literal::U32(i)) => Some(*i as usize),
            Expression::Literal(Literal::AbstractInt(i)) => usize::try_from(*i).ok(),
            Expression::Constant(c) => {
                let init = self.module.constants[*c].init;
                match self.module.global_expressions[init] {
                    Expression::Literal(Literal::I32(i)) => usize::try_from(i).ok(),
                    Expression::Literal(Literal::U32(i)) => Some(i as usize),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn access(
        &mut self,
        base: Handle<Expression>,
        idx: usize,
        span: Span,
    ) -> Result<Value, TranslateError> {
        let b = self.expr(base)?;
        let bad = || err(Construct::Other("an index out of range".into()), span);
        Ok(match b {
            Value::V { src, size } => {
                if idx >= size {
                    return Err(bad());
                }
                Value::V {
                    src: src.comp(idx),
                    size: 1,
                }
            }
            Value::Agg(v) => v.get(idx).cloned().ok_or_else(bad)?,
            Value::Ptr { storage, comp } => match *storage {
                Value::Agg(v) => Value::Ptr {
                    storage: Box::new(v.get(idx).cloned().ok_or_else(bad)?),
                    comp,
                },
                Value::V { size, .. } => {
                    if idx >= size {
                        return Err(bad());
                    }
                    Value::Ptr {
                        storage,
                        comp: Some(idx),
                    }
                }
                _ => return Err(bad()),
            },
            _ => return Err(bad()),
        })
    }

    /// A vector from per-component sources: one MOV per run of components from one register.
    fn compose(&mut self, parts: &[Src], int: bool) -> Value {
        let size = parts.len();
        // All components from one register with the same modifiers: a swizzle, no instruction.
        if parts
            .iter()
            .all(|p| p.reg == parts[0].reg && p.neg == parts[0].neg && p.abs == parts[0].abs)
        {
            let mut swz = [0u8; 4];
            for i in 0..4 {
                swz[i] = parts[i.min(size - 1)].swz[0];
            }
            return Value::V {
                src: Src { swz, ..parts[0] },
                size,
            };
        }
        let imm_bits = |code: &Code, p: &Src| {
            let b = code.imms[p.reg.index as usize][p.swz[0] as usize];
            let b = if p.abs { b & 0x7FFF_FFFF } else { b };
            if p.neg {
                b ^ 0x8000_0000
            } else {
                b
            }
        };
        // All constant: one immediate, no instruction.
        if parts.iter().all(|p| p.reg.file == RegFile::Imm) {
            let vals: Vec<u32> = parts.iter().map(|p| imm_bits(&self.code, p)).collect();
            return Value::V {
                src: if int {
                    self.code.imm_int(&vals)
                } else {
                    self.code.imm(&vals)
                },
                size,
            };
        }
        // Constants together in one immediate.
        let r = self.code.temp();
        let mut done = vec![false; size];
        let imm_comps: Vec<usize> = (0..size)
            .filter(|&i| parts[i].reg.file == RegFile::Imm)
            .collect();
        if imm_comps.len() > 1 {
            let vals: Vec<u32> = imm_comps
                .iter()
                .map(|&i| imm_bits(&self.code, &parts[i]))
                .collect();
            let s = if int {
                self.code.imm_int(&vals)
            } else {
                self.code.imm(&vals)
            };
            let mut swz = [0u8; 4];
            let mut mask = 0u8;
            for (k, &i) in imm_comps.iter().enumerate() {
                swz[i] = s.swz[k];
                mask |= 1 << i;
                done[i] = true;
            }
            self.code
                .push(Opcode::Mov, Some((r, mask)), vec![Src { swz, ..s }]);
        }
        for i in 0..size {
            if done[i] {
                continue;
            }
            let p = parts[i];
            let mut mask = 0u8;
            let mut swz = [p.swz[0]; 4];
            for j in i..size {
                let q = parts[j];
                if !done[j] && q.reg == p.reg && q.neg == p.neg && q.abs == p.abs {
                    mask |= 1 << j;
                    swz[j] = q.swz[0];
                    done[j] = true;
                }
            }
            self.code
                .push(Opcode::Mov, Some((r, mask)), vec![Src { swz, ..p }]);
        }
        Value::V {
            src: Src::reg(r),
            size,
        }
    }

    fn binary(
        &mut self,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
        span: Span,
    ) -> Result<Value, TranslateError> {
        let lv = self.expr(left)?;
        let rv = self.expr(right)?;
        // Matrix products.
        match (&lv, &rv, op) {
            (Value::Agg(cols), Value::V { src, size }, BinaryOperator::Multiply) => {
                // mat * vec: sum of columns scaled by the vector's components.
                let mut acc: Option<Src> = None;
                let rows = match &cols[0] {
                    Value::V { size, .. } => *size,
                    _ => 0,
                };
                let _ = size;
                for (j, c) in cols.iter().enumerate() {
                    let (cs, _) = Self::v(c.clone());
                    acc = Some(match acc {
                        None => Self::v(self.alu(Opcode::Mul, rows, vec![cs, src.comp(j)])).0,
                        Some(a) => Self::v(self.alu(Opcode::Mad, rows, vec![cs, src.comp(j), a])).0,
                    });
                }
                return Ok(Value::V {
                    src: acc.unwrap_or(*src),
                    size: rows,
                });
            }
            (Value::V { src, size }, Value::Agg(cols), BinaryOperator::Multiply) => {
                // vec * mat: one dot product per column.
                let r = self.code.temp();
                let dp = match size {
                    2 => Opcode::Dp2,
                    3 => Opcode::Dp3,
                    _ => Opcode::Dp4,
                };
                for (j, c) in cols.iter().enumerate() {
                    let (cs, _) = Self::v(c.clone());
                    self.code.push(dp, Some((r, 1 << j)), vec![*src, cs]);
                }
                return Ok(Value::V {
                    src: Src::reg(r),
                    size: cols.len(),
                });
            }
            (Value::Agg(a), Value::Agg(b), BinaryOperator::Multiply) => {
                let mut cols = Vec::new();
                for c in b {
                    let rows = match &a[0] {
                        Value::V { size, .. } => *size,
                        _ => 0,
                    };
                    let (cs, _) = Self::v(c.clone());
                    let mut acc: Option<Src> = None;
                    for (j, ac) in a.iter().enumerate() {
                        let (a_s, _) = Self::v(ac.clone());
                        acc = Some(match acc {
                            None => Self::v(self.alu(Opcode::Mul, rows, vec![a_s, cs.comp(j)])).0,
                            Some(x) => {
                                Self::v(self.alu(Opcode::Mad, rows, vec![a_s, cs.comp(j), x])).0
                            }
                        });
                    }
                    cols.push(Value::V {
                        src: acc.unwrap_or(cs),
                        size: rows,
                    });
                }
                return Ok(Value::Agg(cols));
            }
            (Value::Agg(a), Value::V { src, size: 1 }, _)
            | (Value::V { src, size: 1 }, Value::Agg(a), _)
                if matches!(op, BinaryOperator::Multiply) =>
            {
                let mut cols = Vec::new();
                for c in a {
                    let (cs, n) = Self::v(c.clone());
                    cols.push(self.alu(Opcode::Mul, n, vec![cs, src.comp(0)]));
                }
                return Ok(Value::Agg(cols));
            }
            (Value::Agg(a), Value::Agg(b), BinaryOperator::Add | BinaryOperator::Subtract) => {
                let mut cols = Vec::new();
                for (x, y) in a.iter().zip(b) {
                    let (xs, n) = Self::v(x.clone());
                    let (mut ys, _) = Self::v(y.clone());
                    if op == BinaryOperator::Subtract {
                        ys = ys.negated();
                    }
                    cols.push(self.alu(Opcode::Add, n, vec![xs, ys]));
                }
                return Ok(Value::Agg(cols));
            }
            _ => {}
        }
        let (Value::V { src: a, size: na }, Value::V { src: b, size: nb }) = (lv, rv) else {
            return Err(err(
                Construct::Other(format!("{op:?} on these operands")),
                span,
            ));
        };
        let n = na.max(nb);
        let a = if na == 1 { a.comp(0) } else { a };
        let b = if nb == 1 { b.comp(0) } else { b };
        if let Some(signed) = self.int_kind(left) {
            return self.int_binary(op, a, b, n, signed, span);
        }
        Ok(match op {
            BinaryOperator::Add => self.alu(Opcode::Add, n, vec![a, b]),
            BinaryOperator::Subtract => self.alu(Opcode::Add, n, vec![a, b.negated()]),
            BinaryOperator::Multiply => self.alu(Opcode::Mul, n, vec![a, b]),
            BinaryOperator::Divide => self.divide(a, b, n),
            BinaryOperator::Modulo => {
                // a - b * trunc(a / b), the sign of a (WGSL's float %).
                let (q, _) = Self::v(self.alu(Opcode::Div, n, vec![a, b]));
                let (t, _) = Self::v(self.alu(Opcode::Trunc, n, vec![q]));
                self.alu(Opcode::Mad, n, vec![b.negated(), t, a])
            }
            BinaryOperator::Equal => self.alu(Opcode::Seq, n, vec![a, b]),
            BinaryOperator::NotEqual => self.alu(Opcode::Sne, n, vec![a, b]),
            BinaryOperator::Less => self.alu(Opcode::Slt, n, vec![a, b]),
            BinaryOperator::LessEqual => self.alu(Opcode::Sle, n, vec![a, b]),
            BinaryOperator::Greater => self.alu(Opcode::Sgt, n, vec![a, b]),
            BinaryOperator::GreaterEqual => self.alu(Opcode::Sge, n, vec![a, b]),
            BinaryOperator::LogicalAnd | BinaryOperator::And
                if self.expr_ty(left).scalar_kind() == Some(ScalarKind::Bool) =>
            {
                self.alu(Opcode::Mul, n, vec![a, b])
            }
            BinaryOperator::LogicalOr | BinaryOperator::InclusiveOr
                if self.expr_ty(left).scalar_kind() == Some(ScalarKind::Bool) =>
            {
                self.alu(Opcode::Max, n, vec![a, b])
            }
            BinaryOperator::ExclusiveOr
                if self.expr_ty(left).scalar_kind() == Some(ScalarKind::Bool) =>
            {
                self.alu(Opcode::Sne, n, vec![a, b])
            }
            other => return Err(err(Construct::Operator(format!("{other:?}")), span)),
        })
    }

    fn math(
        &mut self,
        fun: MathFunction,
        arg: Handle<Expression>,
        arg1: Option<Handle<Expression>>,
        arg2: Option<Handle<Expression>>,
        span: Span,
    ) -> Result<Value, TranslateError> {
        if let Some(signed) = self.int_kind(arg) {
            return self.int_math(fun, arg, arg1, arg2, signed, span);
        }
        let (x, n) = self.vec(arg)?;
        let get = |s: &mut Self, h: Option<Handle<Expression>>| -> Result<Src, TranslateError> {
            let h = h.ok_or_else(|| err(Construct::Function(format!("{fun:?}")), span))?;
            let (v, m) = s.vec(h)?;
            Ok(if m == 1 && n > 1 { v.comp(0) } else { v })
        };
        use MathFunction as M;
        Ok(match fun {
            M::Abs => Value::V {
                src: Src {
                    abs: true,
                    neg: false,
                    ..x
                },
                size: n,
            },
            M::Min => {
                let y = get(self, arg1)?;
                self.alu(Opcode::Min, n, vec![x, y])
            }
            M::Max => {
                let y = get(self, arg1)?;
                self.alu(Opcode::Max, n, vec![x, y])
            }
            M::Clamp => {
                let lo = get(self, arg1)?;
                let hi = get(self, arg2)?;
                let (m, _) = Self::v(self.alu(Opcode::Max, n, vec![x, lo]));
                self.alu(Opcode::Min, n, vec![m, hi])
            }
            M::Saturate => {
                let r = self.code.temp();
                self.code.insts.push(crate::code::Inst {
                    op: Opcode::Mov,
                    dst: Some((r, (1u8 << n) - 1)),
                    src: vec![x],
                    sat: true,
                    target: None,
                });
                Value::V {
                    src: Src::reg(r),
                    size: n,
                }
            }
            M::Cos => self.per_comp(Opcode::Cos, n, &[x]),
            M::Sin => self.per_comp(Opcode::Sin, n, &[x]),
            M::Tan => {
                let (s, _) = Self::v(self.per_comp(Opcode::Sin, n, &[x]));
                let (c, _) = Self::v(self.per_comp(Opcode::Cos, n, &[x]));
                self.alu(Opcode::Div, n, vec![s, c])
            }
            M::Ceil => self.alu(Opcode::Ceil, n, vec![x]),
            M::Floor => self.alu(Opcode::Flr, n, vec![x]),
            M::Round => self.alu(Opcode::Round, n, vec![x]),
            M::Fract => self.alu(Opcode::Frc, n, vec![x]),
            M::Trunc => self.alu(Opcode::Trunc, n, vec![x]),
            M::Exp => {
                let k = self.imm_s(std::f32::consts::LOG2_E);
                let (y, _) = Self::v(self.alu(Opcode::Mul, n, vec![x, k]));
                self.per_comp(Opcode::Ex2, n, &[y])
            }
            M::Exp2 => self.per_comp(Opcode::Ex2, n, &[x]),
            M::Log => {
                let (y, _) = Self::v(self.per_comp(Opcode::Lg2, n, &[x]));
                let k = self.imm_s(std::f32::consts::LN_2);
                self.alu(Opcode::Mul, n, vec![y, k])
            }
            M::Log2 => self.per_comp(Opcode::Lg2, n, &[x]),
            M::Pow => {
                let y = get(self, arg1)?;
                self.per_comp(Opcode::Pow, n, &[x, y])
            }
            M::Dot => {
                let y = get(self, arg1)?;
                self.dot(x, y, n)
            }
            M::Cross => {
                let y = get(self, arg1)?;
                self.alu(Opcode::Xpd, 3, vec![x, y])
            }
            M::Length => self.length(x, n),
            M::Distance => {
                let y = get(self, arg1)?;
                let (d, _) = Self::v(self.alu(Opcode::Add, n, vec![x, y.negated()]));
                self.length(d, n)
            }
            M::Normalize => {
                if n == 3 {
                    self.alu(Opcode::Nrm, 3, vec![x])
                } else {
                    let (d, _) = Self::v(self.dot(x, x, n));
                    let (r, _) = Self::v(self.alu(Opcode::Rsq, 1, vec![d]));
                    self.alu(Opcode::Mul, n, vec![x, r.comp(0)])
                }
            }
            M::Reflect => {
                // i - 2 * dot(n, i) * n
                let nn = get(self, arg1)?;
                let (d, _) = Self::v(self.dot(nn, x, n));
                let (d2, _) = Self::v(self.alu(Opcode::Add, 1, vec![d, d]));
                self.alu(Opcode::Mad, n, vec![d2.comp(0).negated(), nn, x])
            }
            M::Sign => self.alu(Opcode::Ssg, n, vec![x]),
            M::Fma => {
                let y = get(self, arg1)?;
                let z = get(self, arg2)?;
                self.alu(Opcode::Mad, n, vec![x, y, z])
            }
            M::Mix => {
                let y = get(self, arg1)?;
                let t = get(self, arg2)?;
                self.alu(Opcode::Lrp, n, vec![t, y, x])
            }
            M::Step => {
                // step(edge, x) = x >= edge, a scalar edge against a vector x broadcast.
                let xh = arg1.ok_or_else(|| err(Construct::Function("Step".into()), span))?;
                let (xv, m) = self.vec(xh)?;
                let k = m.max(n);
                let edge = if n == 1 { x.comp(0) } else { x };
                let xv = if m == 1 { xv.comp(0) } else { xv };
                self.alu(Opcode::Sge, k, vec![xv, edge])
            }
            M::SmoothStep => {
                // t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2 t)
                let e1 = get(self, arg1)?;
                let (xv, m) = self.vec(
                    arg2.ok_or_else(|| err(Construct::Function("SmoothStep".into()), span))?,
                )?;
                let e0 = if n == 1 && m > 1 { x.comp(0) } else { x };
                let e1 = if n == 1 && m > 1 { e1.comp(0) } else { e1 };
                let k = m.max(n);
                let (num, _) = Self::v(self.alu(Opcode::Add, k, vec![xv, e0.negated()]));
                let (den, _) = Self::v(self.alu(Opcode::Add, k, vec![e1, e0.negated()]));
                // Constant edges (the usual case): a multiply by the reciprocal, 1 core
                // instruction where DIV takes 52; smoothstep is no exact division anyway.
                let (op, den) = match self.imm_values(&den, k) {
                    Some(v) if v.iter().all(|x| x.is_normal() && (1.0 / x).is_normal()) => {
                        let bits: Vec<u32> = v.iter().map(|x| (1.0 / x).to_bits()).collect();
                        (Opcode::Mul, self.code.imm(&bits))
                    }
                    _ => (Opcode::Div, den),
                };
                let r = self.code.temp();
                self.code.insts.push(crate::code::Inst {
                    op,
                    dst: Some((r, (1u8 << k) - 1)),
                    src: vec![num, den],
                    sat: true,
                    target: None,
                });
                let t = Src::reg(r);
                let m2 = self.imm_s(-2.0);
                let three = self.imm_s(3.0);
                let (p, _) = Self::v(self.alu(Opcode::Mad, k, vec![t, m2, three]));
                let (tt, _) = Self::v(self.alu(Opcode::Mul, k, vec![t, t]));
                self.alu(Opcode::Mul, k, vec![tt, p])
            }
            M::Sqrt => self.sqrt(x, n),
            M::InverseSqrt => self.per_comp(Opcode::Rsq, n, &[x]),
            M::Radians => {
                let k = self.imm_s(std::f32::consts::PI / 180.0);
                self.alu(Opcode::Mul, n, vec![x, k])
            }
            M::Atan => self.atan(x, None, n),
            M::Atan2 => {
                // WGSL's atan2(y, x) and GLSL's atan(y, x): y is the first argument.
                let xx = get(self, arg1)?;
                self.atan(x, Some(xx), n)
            }
            M::Asin | M::Acos => self.asin_acos(x, n, fun == M::Acos),
            M::Degrees => {
                let k = self.imm_s(180.0 / std::f32::consts::PI);
                self.alu(Opcode::Mul, n, vec![x, k])
            }
            other => return Err(err(Construct::Function(format!("{other:?}")), span)),
        })
    }

    /// A float instruction's result operand.
    fn fop(&mut self, op: Opcode, n: usize, src: Vec<Src>) -> Src {
        Self::v(self.alu(op, n, src)).0
    }

    /// Horner's rule in MADs: `c[0] + t (c[1] + t (c[2] + ...))`.
    fn horner(&mut self, t: Src, c: &[f32], n: usize) -> Src {
        let last = c.len() - 1;
        let mut p = self.imm_s(c[last]);
        for &k in c[..last].iter().rev() {
            let k = self.imm_s(k);
            p = self.fop(Opcode::Mad, n, vec![p, t, k]);
        }
        p
    }

    /// atan(y) (x None) or atan2(y, x): the ratio q = min / max of the magnitudes (in [0, 1]),
    /// Abramowitz and Stegun 4.4.49 (`q (1 + a2 q^2 + ... + a16 q^16)`, within 2e-8 of atan on
    /// [0, 1]), then the octant: `pi/2 - p` where the numerator is the larger, `pi - p` for a
    /// negative x, the sign of y. Within 4e-7 radians (under 2 ULP of pi) with the models' RCP and
    /// roundings.
    fn atan(&mut self, y: Src, x: Option<Src>, n: usize) -> Value {
        use std::f32::consts::{FRAC_PI_2, PI};
        const A: [f32; 9] = [
            1.0,
            -0.333_331_45,
            0.199_935_51,
            -0.142_089,
            0.106_562_64,
            -0.075_289_64,
            0.042_909_614,
            -0.016_165_737,
            0.002_866_225_7,
        ];
        let abs = |s: Src| Src {
            abs: true,
            neg: false,
            ..s
        };
        let ay = abs(y);
        let one = self.imm_s(1.0);
        let ax = match x {
            Some(x) => abs(x),
            None => one,
        };
        let mx = self.fop(Opcode::Max, n, vec![ax, ay]);
        let mn = self.fop(Opcode::Min, n, vec![ax, ay]);
        // atan2(0, 0): 0 * RCP(FLT_MIN) = 0, not 0 * inf.
        let tiny = self.imm_s(f32::MIN_POSITIVE);
        let mx = self.fop(Opcode::Max, n, vec![mx, tiny]);
        let r = Self::v(self.per_comp(Opcode::Rcp, n, &[mx])).0;
        let q = self.fop(Opcode::Mul, n, vec![mn, r]);
        let q2 = self.fop(Opcode::Mul, n, vec![q, q]);
        let p = self.horner(q2, &A, n);
        let p = self.fop(Opcode::Mul, n, vec![p, q]);
        // |y| > |x|: pi/2 - p (CMP picks its second operand where the first is negative).
        let half_pi = self.imm_s(FRAC_PI_2);
        let alt = self.fop(Opcode::Add, n, vec![half_pi, p.negated()]);
        let d = self.fop(Opcode::Add, n, vec![ax, ay.negated()]);
        let p = self.fop(Opcode::Cmp, n, vec![d, alt, p]);
        let p = match x {
            Some(x) => {
                let pi = self.imm_s(PI);
                let alt = self.fop(Opcode::Add, n, vec![pi, p.negated()]);
                self.fop(Opcode::Cmp, n, vec![x, alt, p])
            }
            None => p,
        };
        self.alu(Opcode::Cmp, n, vec![y, p.negated(), p])
    }

    /// asin / acos: acos(|x|) = sqrt(1 - |x|) (a0 + a1 |x| + ... + a7 |x|^7) (Abramowitz and
    /// Stegun 4.4.46, within 2e-8), then `pi - r` for a negative x (acos) or `pi/2 - r` with x's
    /// sign (asin). Within 5e-7 radians with the models' RSQ and roundings on [-1, 1] (outside,
    /// where WGSL leaves the result indeterminate, a finite value).
    fn asin_acos(&mut self, x: Src, n: usize, acos: bool) -> Value {
        use std::f32::consts::{FRAC_PI_2, PI};
        const A: [f32; 8] = [
            // 1.5707963050, which is pi/2 in binary32.
            FRAC_PI_2,
            -0.214_598_8,
            0.088_978_99,
            -0.050_174_303,
            0.030_891_88,
            -0.017_088_126,
            0.006_670_09,
            -0.001_262_491_1,
        ];
        let ax = Src {
            abs: true,
            neg: false,
            ..x
        };
        let p = self.horner(ax, &A, n);
        let one = self.imm_s(1.0);
        let t = self.fop(Opcode::Add, n, vec![one, ax.negated()]);
        let (s, _) = Self::v(self.sqrt(t, n));
        let r = self.fop(Opcode::Mul, n, vec![s, p]);
        if acos {
            let pi = self.imm_s(PI);
            let alt = self.fop(Opcode::Add, n, vec![pi, r.negated()]);
            self.alu(Opcode::Cmp, n, vec![x, alt, r])
        } else {
            let half_pi = self.imm_s(FRAC_PI_2);
            let a = self.fop(Opcode::Add, n, vec![half_pi, r.negated()]);
            self.alu(Opcode::Cmp, n, vec![x, a.negated(), a])
        }
    }

    fn dot(&mut self, x: Src, y: Src, n: usize) -> Value {
        match n {
            1 => self.alu(Opcode::Mul, 1, vec![x, y]),
            2 => self.alu(Opcode::Dp2, 1, vec![x, y]),
            3 => self.alu(Opcode::Dp3, 1, vec![x, y]),
            _ => self.alu(Opcode::Dp4, 1, vec![x, y]),
        }
    }

    /// sqrt(dot(x, x)) as RCP(RSQ(.)): exact 0 at 0, where x * RSQ(x) would be NaN.
    fn length(&mut self, x: Src, n: usize) -> Value {
        if n == 1 {
            return Value::V {
                src: Src {
                    abs: true,
                    neg: false,
                    ..x
                },
                size: 1,
            };
        }
        let (d, _) = Self::v(self.dot(x, x, n));
        self.sqrt(d, 1)
    }

    /// sqrt(x) = x * RSQ(max(x, FLT_MIN)): RSQ and a multiply (15 core instructions) where
    /// RCP(RSQ(x)) takes 58; the MAX keeps 0 * inf (a NaN) away at 0, where the result is 0.
    /// Within 2 ULP (RSQ is within 1).
    fn sqrt(&mut self, x: Src, n: usize) -> Value {
        let tiny = self.imm_s(f32::MIN_POSITIVE);
        let (m, _) = Self::v(self.alu(Opcode::Max, n, vec![x, tiny]));
        let (r, _) = Self::v(self.per_comp(Opcode::Rsq, n, &[m]));
        self.alu(Opcode::Mul, n, vec![x, r])
    }

    /// The bits of an immediate operand's components (modifiers applied), if it is one.
    fn imm_values(&self, s: &Src, n: usize) -> Option<Vec<f32>> {
        if s.reg.file != RegFile::Imm {
            return None;
        }
        let imm = self.code.imms.get(s.reg.index as usize)?;
        (0..n)
            .map(|c| {
                let x = f32::from_bits(*imm.get(s.swz[c] as usize)?);
                let x = if s.abs { x.abs() } else { x };
                Some(if s.neg { -x } else { x })
            })
            .collect()
    }

    /// a / b in floats: RCP when a is 1 (or -1; correctly rounded like DIV, 44 core instructions
    /// against 52), a multiply when b is a constant power of two (exact), else DIV.
    fn divide(&mut self, a: Src, b: Src, n: usize) -> Value {
        if let Some(v) = self.imm_values(&a, n) {
            if v.iter().all(|&x| x == 1.0) || v.iter().all(|&x| x == -1.0) {
                let b = if v[0] < 0.0 { b.negated() } else { b };
                return self.per_comp(Opcode::Rcp, n, &[b]);
            }
        }
        if let Some(v) = self.imm_values(&b, n) {
            // A power of two: no significand bits, so 1/x is exact too.
            let exact =
                |x: f32| x.is_normal() && (1.0 / x).is_normal() && x.to_bits() & 0x007F_FFFF == 0;
            if v.iter().all(|&x| exact(x)) {
                let bits: Vec<u32> = v.iter().map(|x| (1.0 / x).to_bits()).collect();
                let k = self.code.imm(&bits);
                return self.alu(Opcode::Mul, n, vec![a, k]);
            }
        }
        self.alu(Opcode::Div, n, vec![a, b])
    }
}

/// An array of scalars or vectors in consecutive CONST registers: (first register, vector size,
/// element count).
fn uniform_array(v: &Value) -> Option<(u32, usize, usize)> {
    let Value::Agg(items) = v else {
        return None;
    };
    let mut first = None;
    let mut size = 0;
    for (k, item) in items.iter().enumerate() {
        let Value::V { src, size: n } = item else {
            return None;
        };
        if src.reg.file != RegFile::Const {
            return None;
        }
        let base = *first.get_or_insert(src.reg.index);
        if src.reg.index != base + k as u32 {
            return None;
        }
        size = *n;
    }
    Some((first?, size, items.len()))
}

fn flatten(v: &Value, out: &mut Vec<Value>) {
    match v {
        Value::Agg(a) => a.iter().for_each(|x| flatten(x, out)),
        other => out.push(other.clone()),
    }
}

/// True when `body` holds a `continue` of an enclosing loop (one not inside a loop of its own).
fn has_continue(body: &naga::Block) -> bool {
    body.iter().any(|s| match s {
        Statement::Continue => true,
        Statement::Block(b) => has_continue(b),
        Statement::If { accept, reject, .. } => has_continue(accept) || has_continue(reject),
        Statement::Switch { cases, .. } => cases.iter().any(|c| has_continue(&c.body)),
        _ => false,
    })
}

fn has_early_return(body: &naga::Block) -> bool {
    fn any_return(b: &naga::Block) -> bool {
        b.iter().any(|s| match s {
            Statement::Return { .. } => true,
            Statement::Block(x) => any_return(x),
            Statement::If { accept, reject, .. } => any_return(accept) || any_return(reject),
            Statement::Loop {
                body, continuing, ..
            } => any_return(body) || any_return(continuing),
            Statement::Switch { cases, .. } => cases.iter().any(|c| any_return(&c.body)),
            _ => false,
        })
    }
    // Returns only as the last statement of the body (or of a last if's branches) are tails.
    fn tail_only(b: &naga::Block) -> bool {
        let n = b.len();
        b.iter().enumerate().all(|(i, s)| {
            let last = i + 1 == n;
            match s {
                Statement::Return { .. } => last,
                Statement::Block(x) => {
                    if last {
                        tail_only(x)
                    } else {
                        !any_return(x)
                    }
                }
                Statement::If { accept, reject, .. } => {
                    if last {
                        tail_only(accept) && tail_only(reject)
                    } else {
                        !any_return(accept) && !any_return(reject)
                    }
                }
                Statement::Loop {
                    body, continuing, ..
                } => !any_return(body) && !any_return(continuing),
                Statement::Switch { cases, .. } => !cases.iter().any(|c| any_return(&c.body)),
                _ => true,
            }
        })
    }
    !tail_only(body)
}

fn vec_size(t: &TypeInner) -> usize {
    match t {
        TypeInner::Vector { size, .. } => *size as usize,
        _ => 1,
    }
}

fn flat_len(m: &Module, ty: Handle<naga::Type>) -> usize {
    match &m.types[ty].inner {
        TypeInner::Vector { size, .. } => *size as usize,
        TypeInner::Matrix { columns, rows, .. } => *columns as usize * *rows as usize,
        _ => 1,
    }
}

fn literal_bits(l: Literal, span: Span) -> Result<u32, TranslateError> {
    Ok(match l {
        Literal::F32(x) => f(x),
        Literal::F64(x) | Literal::AbstractFloat(x) => f(x as f32),
        // Integers are their two's complement bits (64-bit ones keep the low 32).
        Literal::I32(x) => x as u32,
        Literal::U32(x) => x,
        Literal::I64(x) | Literal::AbstractInt(x) => x as u32,
        Literal::U64(x) => x as u32,
        Literal::Bool(b) => f(if b { 1.0 } else { 0.0 }),
        other => {
            return Err(err(
                Construct::Other(format!("the literal {other:?}")),
                span,
            ))
        }
    })
}

fn literal_is_int(l: &Literal) -> bool {
    matches!(
        l,
        Literal::I32(_)
            | Literal::U32(_)
            | Literal::I64(_)
            | Literal::U64(_)
            | Literal::AbstractInt(_)
    )
}

/// True for `i32` / `u32` scalars, vectors (and pointers to them).
fn is_int(t: &TypeInner) -> bool {
    matches!(t.scalar_kind(), Some(ScalarKind::Sint | ScalarKind::Uint))
}

fn type_name(m: &Module, ty: Handle<naga::Type>) -> String {
    let t = &m.types[ty];
    match &t.name {
        Some(n) => n.clone(),
        None => format!("{:?}", t.inner)
            .split([' ', '{', '('])
            .next()
            .unwrap_or("type")
            .to_string(),
    }
}

fn expression_name(e: &Expression) -> String {
    format!("{e:?}")
        .split([' ', '{', '('])
        .next()
        .unwrap_or("expression")
        .to_string()
}

fn statement_name(s: &Statement) -> String {
    format!("{s:?}")
        .split([' ', '{', '('])
        .next()
        .unwrap_or("statement")
        .to_string()
}

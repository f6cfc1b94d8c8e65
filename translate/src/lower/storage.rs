//! Variables in temporaries: fresh storage, stores (plain, to a component, conditional), zero
//! values, and the copies that keep cached expression values valid when a variable changes.

use super::names;
use super::value::{is_int, vec_size, Value};
use super::{err, Lower, Span};
use crate::code::Src;
use crate::error::Construct;
use crate::TranslateError;
use microcode::tgsi::Opcode;
use naga::{Expression, Handle, Statement, TypeInner};
use std::collections::BTreeSet;

impl<'a> Lower<'a> {
    /// Whether `inner` is an aggregate [`Lower::parts`] builds: a struct, or an array of a
    /// constant size.
    fn has_parts(&self, inner: &TypeInner) -> bool {
        matches!(
            inner,
            TypeInner::Struct { .. }
                | TypeInner::Array {
                    size: naga::ArraySize::Constant(_),
                    ..
                }
        )
    }

    /// A struct's members or a constant-size array's elements, each made by `part` (fresh
    /// storage, a zero value), as one aggregate.
    fn parts(
        &mut self,
        inner: &TypeInner,
        span: Span,
        part: fn(&mut Self, Handle<naga::Type>, Span) -> Result<Value, TranslateError>,
    ) -> Result<Value, TranslateError> {
        let types: Vec<Handle<naga::Type>> = match inner {
            TypeInner::Struct { members, .. } => members.iter().map(|m| m.ty).collect(),
            TypeInner::Array {
                base,
                size: naga::ArraySize::Constant(n),
                ..
            } => vec![*base; n.get() as usize],
            _ => Vec::new(),
        };
        let mut v = Vec::with_capacity(types.len());
        for t in types {
            v.push(part(self, t, span)?);
        }
        Ok(Value::Agg(v))
    }

    /// Fresh storage for a value of type `ty`, in temporaries marked as variables.
    pub(super) fn storage(
        &mut self,
        ty: Handle<naga::Type>,
        span: Span,
    ) -> Result<Value, TranslateError> {
        let inner = self.ty(ty);
        if self.is_f64_inner(inner) {
            return Ok(self.double_storage(inner));
        }
        Ok(match inner {
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
            TypeInner::Struct { .. } | TypeInner::Array { .. } if self.has_parts(inner) => {
                self.parts(inner, span, Self::storage)?
            }
            _ => {
                return Err(err(
                    Construct::Type(names::type_name(self.module, ty, self.language)),
                    "variables of this type have no TGSI registers",
                    span,
                ))
            }
        })
    }

    /// Writes `value` into `storage` (same shape); `comp` picks one component of a vector.
    pub(super) fn store(&mut self, storage: &Value, comp: Option<usize>, value: &Value) {
        match (storage, value) {
            (Value::V { src: s, size }, Value::V { src: v, size: vs }) => {
                let (mask, src) = placed(*s, *size, comp, *v, *vs);
                self.code.push(Opcode::Mov, Some((s.reg, mask)), vec![src]);
            }
            (Value::Agg(a), Value::Agg(b)) => {
                for (x, y) in a.iter().zip(b) {
                    self.store(x, None, y);
                }
            }
            _ => {}
        }
    }

    /// Writes `value` into `storage` where `cond` (1.0 / 0.0) is set, keeping it elsewhere: a CMP
    /// (UCMP for integers, which keeps their bits) per leaf.
    pub(super) fn store_where(
        &mut self,
        storage: &Value,
        comp: Option<usize>,
        value: &Value,
        cond: Src,
        int: bool,
    ) {
        match (storage, value) {
            (Value::V { src: s, size }, Value::V { src: v, size: vs }) => {
                let (mask, v) = placed(*s, *size, comp, *v, *vs);
                let keep = Src::reg(s.reg);
                if int {
                    let ucond = self.ialu(Opcode::F2u, 1, vec![cond.comp(0)]);
                    self.code.push(
                        Opcode::Ucmp,
                        Some((s.reg, mask)),
                        vec![ucond.comp(0), v, keep],
                    );
                } else {
                    self.code.push(
                        Opcode::Cmp,
                        Some((s.reg, mask)),
                        vec![cond.comp(0).negated(), v, keep],
                    );
                }
            }
            (Value::Agg(a), Value::Agg(b)) => {
                for (x, y) in a.iter().zip(b) {
                    self.store_where(x, None, y, cond, int);
                }
            }
            _ => {}
        }
    }

    /// Copies every cached value that reads one of `regs` (before those registers change).
    pub(super) fn detach(&mut self, regs: &BTreeSet<u32>) {
        if regs.is_empty() {
            return;
        }
        for fi in 0..self.frames.len() {
            for h in 0..self.frames[fi].cache.len() {
                let Some(v) = self.frames[fi].cache[h].clone() else {
                    continue;
                };
                if matches!(
                    v,
                    Value::Ptr { .. }
                        | Value::SelPtr { .. }
                        | Value::DynPtr { .. }
                        | Value::RelPtr { .. }
                ) {
                    continue;
                }
                if v.temps().iter().any(|r| regs.contains(r)) {
                    let copy = self.copy(&v);
                    self.frames[fi].cache[h] = Some(copy);
                }
            }
        }
    }

    /// A copy of `v` in fresh temporaries.
    pub(super) fn copy(&mut self, v: &Value) -> Value {
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
    pub(super) fn written_in(&self, block: &naga::Block, out: &mut BTreeSet<u32>) {
        for st in block.iter() {
            match st {
                Statement::Store { pointer, .. } => {
                    let mut h = *pointer;
                    while let Expression::AccessIndex { base, .. }
                    | Expression::Access { base, .. } = self.frame().fun.expressions[h]
                    {
                        h = base;
                    }
                    let root = match self.frame().fun.expressions[h] {
                        Expression::LocalVariable(l) => self.frame().locals.get(l.index()),
                        Expression::GlobalVariable(g) => self.globals.get(&g),
                        Expression::FunctionArgument(i) => self.frame().args.get(i as usize),
                        _ => None,
                    };
                    if let Some(v) = root {
                        out.extend(v.temps());
                    }
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

    /// Storage for the current function's local variables, initialised (or zeroed). A local
    /// array that only its initialiser writes, with a constant initialiser, is a constant: it
    /// lives in IMMX, where a run-time index reads it by relative addressing.
    pub(super) fn init_locals(&mut self) -> Result<(), TranslateError> {
        let fun = self.frame().fun;
        let stored = stored_locals(&fun.body, fun);
        for (h, l) in fun.local_variables.iter() {
            let span = fun.local_variables.get_span(h);
            let array = matches!(self.ty(l.ty), TypeInner::Array { .. });
            if let (true, false, Some(e)) = (array, stored.contains(&h.index()), l.init) {
                if let Some(v) = self.constant_array(e)? {
                    self.frame_mut().locals.push(v);
                    continue;
                }
            }
            let st = self.storage(l.ty, span)?;
            self.frame_mut().locals.push(st.clone());
            let init = match l.init {
                Some(e) => self.expr(e)?,
                None => self.zero(l.ty, span)?,
            };
            self.store(&st, None, &init);
        }
        Ok(())
    }

    /// Fresh storage for an `f64` scalar, vector or matrix: two pairs to a register (xy, zw).
    fn double_storage(&mut self, t: &TypeInner) -> Value {
        let pairs = |s: &mut Self, n: usize| -> Vec<Value> {
            let mut out = Vec::with_capacity(n);
            let mut r = s.code.temp();
            for k in 0..n {
                if k > 0 && k % 2 == 0 {
                    r = s.code.temp();
                }
                s.var_regs.insert(r.index);
                let c = 2 * (k % 2) as u8;
                out.push(Value::V {
                    src: Src {
                        swz: [c, c + 1, c, c + 1],
                        ..Src::reg(r)
                    },
                    size: 2,
                });
            }
            out
        };
        match *t {
            TypeInner::Vector { size, .. } => Value::Agg(pairs(self, size as usize)),
            TypeInner::Matrix { columns, rows, .. } => Value::Agg(
                (0..columns as usize)
                    .map(|_| Value::Agg(pairs(self, rows as usize)))
                    .collect(),
            ),
            _ => pairs(self, 1).remove(0),
        }
    }

    /// The zero of an `f64` scalar, vector or matrix (pairs of zero words).
    fn double_zero(&mut self, t: &TypeInner) -> Value {
        let z = Value::V {
            src: self.code.imm_int(&[0]),
            size: 2,
        };
        match *t {
            TypeInner::Vector { size, .. } => Value::Agg(vec![z; size as usize]),
            TypeInner::Matrix { columns, rows, .. } => {
                Value::Agg(vec![Value::Agg(vec![z; rows as usize]); columns as usize])
            }
            _ => z,
        }
    }

    /// The zero value of a type.
    pub(super) fn zero(
        &mut self,
        ty: Handle<naga::Type>,
        span: Span,
    ) -> Result<Value, TranslateError> {
        let inner = self.ty(ty);
        if self.is_f64_inner(inner) {
            return Ok(self.double_zero(inner));
        }
        Ok(match inner {
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
            TypeInner::Struct { .. } | TypeInner::Array { .. } if self.has_parts(inner) => {
                self.parts(inner, span, Self::zero)?
            }
            _ => {
                return Err(err(
                    Construct::Type(names::type_name(self.module, ty, self.language)),
                    "this type has no zero value in TGSI registers",
                    span,
                ))
            }
        })
    }
}

/// Where a store into storage `s` (a vector of `size` components read through its swizzle) of
/// value `v` (`vs` components; one is replicated) writes, and the operand that puts each of v's
/// components under its storage component; `comp` stores one component.
fn placed(s: Src, size: usize, comp: Option<usize>, v: Src, vs: usize) -> (u8, Src) {
    if let Some(c) = comp {
        return (1 << s.swz[c], v.comp(0));
    }
    let v = if vs == 1 { v.comp(0) } else { v };
    let mut mask = 0u8;
    let mut swz = v.swz;
    for c in 0..size.min(4) {
        let to = s.swz[c] as usize;
        mask |= 1 << to;
        swz[to] = v.swz[c];
    }
    (mask, Src { swz, ..v })
}

/// The local variables a function stores to (through any access path, or by passing a pointer).
fn stored_locals(block: &naga::Block, fun: &naga::Function) -> BTreeSet<usize> {
    let mut out = BTreeSet::new();
    walk(block, fun, &mut out);
    out
}

fn walk(b: &naga::Block, fun: &naga::Function, out: &mut BTreeSet<usize>) {
    for st in b.iter() {
        match st {
            Statement::Store { pointer, .. } => mark(*pointer, fun, out),
            Statement::Call { arguments, .. } => {
                for a in arguments {
                    mark(*a, fun, out);
                }
            }
            Statement::Block(x) => walk(x, fun, out),
            Statement::If { accept, reject, .. } => {
                walk(accept, fun, out);
                walk(reject, fun, out);
            }
            Statement::Loop {
                body, continuing, ..
            } => {
                walk(body, fun, out);
                walk(continuing, fun, out);
            }
            Statement::Switch { cases, .. } => {
                for c in cases {
                    walk(&c.body, fun, out);
                }
            }
            _ => {}
        }
    }
}

/// Marks the local variable a pointer expression roots at.
fn mark(mut h: Handle<Expression>, fun: &naga::Function, out: &mut BTreeSet<usize>) {
    loop {
        match fun.expressions[h] {
            Expression::AccessIndex { base, .. } | Expression::Access { base, .. } => h = base,
            Expression::LocalVariable(l) => {
                out.insert(l.index());
                return;
            }
            _ => return,
        }
    }
}

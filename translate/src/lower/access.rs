//! Indexing: vector components, struct members, array elements and matrix columns, by constant
//! and by run-time indices, and loads through pointers.
//!
//! A run-time index into a vector selects with SEQ against (0, 1, 2, 3) and a chain of CMPs;
//! into an array or matrix in CONST or IMMX registers it is TGSI's relative addressing (ARL of
//! the index clamped into the array, then `MOV t, FILE[ADDR[0].x + first]` per register); into
//! one in temporaries a chain of selects to read and conditional moves to write.

use super::value::{is_int, keeps_bits, Value};
use super::{err, f, Lower, Span};
use crate::code::{Reg, RegFile, Src};
use crate::error::Construct;
use crate::TranslateError;
use microcode::tgsi::Opcode;
use naga::{Expression, Handle, Literal};

/// The most elements a run-time index may select among in temporaries (reads are a chain of
/// selects over all of them).
const MAX_SELECT: usize = 256;

impl<'a> Lower<'a> {
    /// Element, member or component `idx` (a constant) of `base`.
    pub(super) fn access(
        &mut self,
        base: Handle<Expression>,
        idx: usize,
        span: Span,
    ) -> Result<Value, TranslateError> {
        let b = self.expr(base)?;
        index_value(&b, idx).ok_or_else(|| out_of_range(span))
    }

    /// `base[index]`: a constant index as [`Lower::access`], a run-time one by selects or
    /// relative addressing.
    pub(super) fn access_dynamic(
        &mut self,
        h: Handle<Expression>,
        base: Handle<Expression>,
        index: Handle<Expression>,
    ) -> Result<Value, TranslateError> {
        let span = self.span_of(h);
        if let Some(idx) = self.const_index(index) {
            return self.access(base, idx, span);
        }
        // The index as a float (I2F: exact for every index that selects anything).
        let (i, _) = self.vec(index)?;
        let i = if is_int(self.expr_ty(index)) {
            self.ialu(Opcode::I2f, 1, vec![i.comp(0)])
        } else {
            i
        };
        let int = keeps_bits(self.expr_ty(h));
        match self.expr(base)? {
            Value::V { src, size } => Ok(self.select_component(src, size, i, int)),
            Value::Agg(items) => self.index_aggregate(base, items, i, int, span),
            p @ (Value::Ptr { .. } | Value::SelPtr { .. } | Value::RelPtr { .. }) => {
                self.pointer_at(p, i, span)
            }
            _ => Err(err(
                Construct::Other("this run-time index".into()),
                "it indexes a value the translator does not keep in registers",
                span,
            )),
        }
    }

    /// Element `i` (run-time) of an aggregate value: constants go to IMMX and are read by
    /// relative addressing, anything else through a chain of selects.
    fn index_aggregate(
        &mut self,
        base: Handle<Expression>,
        items: Vec<Value>,
        i: Src,
        int: bool,
        span: Span,
    ) -> Result<Value, TranslateError> {
        if let Some(placed) = self.constant_array(base)? {
            let p = Value::Ptr {
                storage: Box::new(placed),
                comp: None,
            };
            let r = self.pointer_at(p, i, span)?;
            return self.load_pointer(r, int, span);
        }
        check_select(items.len(), span)?;
        let mut r = items[0].clone();
        for (k, item) in items.iter().enumerate().skip(1) {
            let kk = self.imm_s(k as f32);
            let c = self.fop(Opcode::Seq, 1, vec![i.comp(0), kk]);
            r = self.select_values(c, item, &r, int, span)?;
        }
        Ok(r)
    }

    /// The pointer to element `i` (run-time, a float) of what pointer `p` points to.
    fn pointer_at(&mut self, p: Value, i: Src, span: Span) -> Result<Value, TranslateError> {
        Ok(match p {
            Value::Ptr {
                storage,
                comp: None,
            } => match *storage {
                v @ Value::V { .. } => Value::DynPtr {
                    storage: Box::new(v),
                    index: i,
                },
                Value::Agg(items) => match relative_layout(&items) {
                    Some(stride) => Value::RelPtr {
                        elem: Box::new(Value::Ptr {
                            storage: Box::new(items[0].clone()),
                            comp: None,
                        }),
                        stride,
                        count: items.len() as u32,
                        index: i,
                    },
                    None => {
                        check_select(items.len(), span)?;
                        Value::SelPtr {
                            elems: items
                                .into_iter()
                                .map(|x| Value::Ptr {
                                    storage: Box::new(x),
                                    comp: None,
                                })
                                .collect(),
                            index: i,
                        }
                    }
                },
                _ => return Err(out_of_range(span)),
            },
            Value::SelPtr { elems, index } => {
                let mut out = Vec::new();
                for e in elems {
                    out.push(self.pointer_at(e, i, span)?);
                }
                Value::SelPtr { elems: out, index }
            }
            Value::RelPtr {
                elem,
                stride,
                count,
                index,
            } => {
                // A second run-time index: every element spelled out, then selected.
                let elems = (0..count)
                    .map(|k| shift_registers(&elem, k * stride))
                    .collect();
                self.pointer_at(Value::SelPtr { elems, index }, i, span)?
            }
            _ => return Err(out_of_range(span)),
        })
    }

    /// A load through a pointer.
    pub(super) fn load(
        &mut self,
        h: Handle<Expression>,
        pointer: Handle<Expression>,
    ) -> Result<Value, TranslateError> {
        let span = self.span_of(h);
        let int = keeps_bits(self.expr_ty(h));
        let p = self.expr(pointer)?;
        self.load_pointer(p, int, span)
    }

    /// The value pointer `p` points to.
    fn load_pointer(&mut self, p: Value, int: bool, span: Span) -> Result<Value, TranslateError> {
        Ok(match p {
            Value::Ptr { storage, comp } => match comp {
                Some(c) => Value::V {
                    src: storage.src().comp(c),
                    size: 1,
                },
                None => *storage,
            },
            Value::DynPtr { storage, index } => {
                let Value::V { src, size } = *storage else {
                    return Err(out_of_range(span));
                };
                self.select_component(src, size, index, int)
            }
            Value::SelPtr { elems, index } => {
                let mut values = Vec::new();
                for e in elems {
                    values.push(self.load_pointer(e, int, span)?);
                }
                let mut r = values[0].clone();
                for (k, v) in values.iter().enumerate().skip(1) {
                    let kk = self.imm_s(k as f32);
                    let c = self.fop(Opcode::Seq, 1, vec![index.comp(0), kk]);
                    r = self.select_values(c, v, &r, int, span)?;
                }
                r
            }
            Value::RelPtr {
                elem,
                stride,
                count,
                index,
            } => {
                self.address(index, stride, count);
                let Value::Ptr { storage, comp } = *elem else {
                    return Err(out_of_range(span));
                };
                let v = self.relative_read(&storage);
                match comp {
                    Some(c) => Value::V {
                        src: v.src().comp(c),
                        size: 1,
                    },
                    None => v,
                }
            }
            other => other,
        })
    }

    /// ARL of `index` (clamped into the array: ARL floors, WGSL reads some element) times the
    /// stride, into ADDR[0].x.
    fn address(&mut self, index: Src, stride: u32, count: u32) {
        let lo = self.imm_s(0.0);
        let hi = self.imm_s((count.max(1) - 1) as f32);
        let a = self.fop(Opcode::Max, 1, vec![index.comp(0), lo]);
        let a = self.fop(Opcode::Min, 1, vec![a, hi]);
        let a = if stride > 1 {
            let k = self.imm_s(stride as f32);
            self.fop(Opcode::Mul, 1, vec![a, k])
        } else {
            a
        };
        let addr = Reg {
            file: RegFile::Addr,
            index: 0,
        };
        self.code.uses_address = true;
        self.code.push(Opcode::Arl, Some((addr, 1)), vec![a]);
    }

    /// Every register of `storage` read relative to ADDR[0].x into fresh temporaries.
    fn relative_read(&mut self, storage: &Value) -> Value {
        match storage {
            Value::V { src, size } => {
                let t = self.code.temp();
                let s = Src { rel: true, ..*src };
                let s = if *size == 1 {
                    Src {
                        swz: [src.swz[0], 1, 2, 3],
                        ..s
                    }
                } else {
                    s
                };
                self.code
                    .push(Opcode::Mov, Some((t, (1u8 << size) - 1)), vec![s]);
                let r = Src::reg(t);
                Value::V {
                    src: if *size == 1 { r.comp(0) } else { r },
                    size: *size,
                }
            }
            Value::Agg(a) => Value::Agg(a.iter().map(|x| self.relative_read(x)).collect()),
            other => other.clone(),
        }
    }

    /// `(index == 0, index == 1, ...)` for the first `n` components, as 1.0 / 0.0.
    pub(super) fn onehot(&mut self, index: Src, n: usize) -> Src {
        let lanes = self.code.imm(&[f(0.0), f(1.0), f(2.0), f(3.0)][..n]);
        self.fop(Opcode::Seq, n, vec![index.comp(0), lanes])
    }

    /// Component `index` (a run-time value) of a vector: a chain of selects, exact for every
    /// value (an index out of range reads component 0).
    pub(super) fn select_component(&mut self, v: Src, n: usize, index: Src, int: bool) -> Value {
        let hot = self.onehot(index, n);
        let mut r = v.comp(0);
        for k in 1..n {
            r = if int {
                // UCMP keeps integer bits (CMP would flush the small ones, subnormal as floats).
                self.iselect(1, hot.comp(k), v.comp(k), r)
            } else {
                self.fop(Opcode::Cmp, 1, vec![hot.comp(k).negated(), v.comp(k), r])
            };
        }
        Value::V { src: r, size: 1 }
    }

    /// The value of an index that is a constant, if it is one.
    fn const_index(&mut self, index: Handle<Expression>) -> Option<usize> {
        let lit = |e: &Expression| match *e {
            Expression::Literal(Literal::I32(i)) => usize::try_from(i).ok(),
            Expression::Literal(Literal::U32(i)) => Some(i as usize),
            Expression::Literal(Literal::AbstractInt(i)) => usize::try_from(i).ok(),
            _ => None,
        };
        match &self.frame().fun.expressions[index] {
            Expression::Constant(c) => {
                let init = self.module.constants[*c].init;
                lit(&self.module.global_expressions[init])
            }
            e => lit(e),
        }
    }
}

/// Element, member or component `idx` of a value or pointer; `None` out of range.
fn index_value(b: &Value, idx: usize) -> Option<Value> {
    Some(match b {
        Value::V { src, size } => {
            if idx >= *size {
                return None;
            }
            Value::V {
                src: src.comp(idx),
                size: 1,
            }
        }
        Value::Agg(v) => v.get(idx)?.clone(),
        Value::Ptr { storage, comp } => match &**storage {
            Value::Agg(v) => Value::Ptr {
                storage: Box::new(v.get(idx)?.clone()),
                comp: *comp,
            },
            Value::V { size, .. } if idx < *size => Value::Ptr {
                storage: storage.clone(),
                comp: Some(idx),
            },
            _ => return None,
        },
        Value::SelPtr { elems, index } => Value::SelPtr {
            elems: elems
                .iter()
                .map(|e| index_value(e, idx))
                .collect::<Option<Vec<_>>>()?,
            index: *index,
        },
        Value::RelPtr {
            elem,
            stride,
            count,
            index,
        } => Value::RelPtr {
            elem: Box::new(index_value(elem, idx)?),
            stride: *stride,
            count: *count,
            index: *index,
        },
        _ => return None,
    })
}

/// The register stride when the elements lie in CONST or IMMX registers alike (element k's
/// registers are element 0's plus k times the stride, with the same swizzles); `None` for
/// temporaries or irregular layouts.
fn relative_layout(items: &[Value]) -> Option<u32> {
    let first = items.first()?.leaves();
    let file = match first.first()? {
        Value::V { src, .. } => src.reg.file,
        _ => return None,
    };
    if !matches!(file, RegFile::Const | RegFile::ImmArray) {
        return None;
    }
    let stride = match items.get(1) {
        Some(second) => {
            let (Value::V { src: a, .. }, Value::V { src: b, .. }) =
                (first.first()?, second.leaves().first()?.clone())
            else {
                return None;
            };
            b.reg.index.checked_sub(a.reg.index)?
        }
        None => 1,
    };
    if stride == 0 {
        return None;
    }
    for (k, item) in items.iter().enumerate() {
        let leaves = item.leaves();
        if leaves.len() != first.len() {
            return None;
        }
        for (x, y) in first.iter().zip(&leaves) {
            let (Value::V { src: a, size: n }, Value::V { src: b, size: m }) = (x, y) else {
                return None;
            };
            if n != m
                || a.reg.file != file
                || b.reg.file != file
                || a.swz != b.swz
                || b.reg.index != a.reg.index + k as u32 * stride
            {
                return None;
            }
        }
    }
    Some(stride)
}

/// `v` with every register index moved by `by` (element k of a relative array).
fn shift_registers(v: &Value, by: u32) -> Value {
    match v {
        Value::V { src, size } => Value::V {
            src: Src {
                reg: Reg {
                    index: src.reg.index + by,
                    ..src.reg
                },
                ..*src
            },
            size: *size,
        },
        Value::Agg(a) => Value::Agg(a.iter().map(|x| shift_registers(x, by)).collect()),
        Value::Ptr { storage, comp } => Value::Ptr {
            storage: Box::new(shift_registers(storage, by)),
            comp: *comp,
        },
        other => other.clone(),
    }
}

fn check_select(n: usize, span: Span) -> Result<(), TranslateError> {
    if n > MAX_SELECT {
        return Err(err(
            Construct::Other(format!(
                "a run-time index into an array of {n} elements in variables"
            )),
            "it reads through a chain of selects over every element, and at most 256 are \
             allowed (arrays in uniforms and constants use relative addressing instead)",
            span,
        ));
    }
    Ok(())
}

fn out_of_range(span: Span) -> TranslateError {
    err(
        Construct::Other("an index out of range".into()),
        "the element does not exist",
        span,
    )
}

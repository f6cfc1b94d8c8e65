//! The values the lowering passes around: vectors in registers (with a swizzle), aggregates,
//! pointers into variables, textures and samplers.

use crate::code::{Reg, RegFile, Src};
use microcode::tgsi::TextureTarget;
use naga::{ScalarKind, TypeInner};

/// A value: a vector or scalar in a register, an aggregate, a pointer or a texture handle.
#[derive(Clone, Debug)]
pub(crate) enum Value {
    /// `size` components (1 for a scalar) read through `src`'s swizzle.
    V { src: Src, size: usize },
    /// Struct members, array elements or matrix columns.
    Agg(Vec<Value>),
    /// A pointer: the storage (a tree of `V`) and an optional component.
    Ptr {
        storage: Box<Value>,
        comp: Option<usize>,
    },
    /// A pointer to the component `index` (a run-time value, as a float) of a vector.
    DynPtr { storage: Box<Value>, index: Src },
    /// A pointer to element `index` (a run-time value, as a float) of `elems`, each a pointer
    /// (for arrays in temporaries: selects to read, conditional moves to write).
    SelPtr { elems: Vec<Value>, index: Src },
    /// A pointer into an array in CONST or IMMX registers, read by relative addressing:
    /// `elem` is element 0's storage (narrowed by later accesses), `stride` the registers per
    /// element, `count` the elements, `index` the element (a run-time value, as a float).
    RelPtr {
        elem: Box<Value>,
        stride: u32,
        count: u32,
        index: Src,
    },
    /// A texture: its SAMP index and TGSI target.
    Image { samp: u32, target: TextureTarget },
    /// A sampler (textures carry the SAMP index).
    Sampler,
}

impl Value {
    /// Every register the value reads.
    pub fn regs(&self, out: &mut Vec<Reg>) {
        match self {
            Value::V { src, .. } => out.push(src.reg),
            Value::Agg(v) => v.iter().for_each(|x| x.regs(out)),
            Value::Ptr { storage, .. } | Value::DynPtr { storage, .. } => storage.regs(out),
            Value::SelPtr { elems, .. } => elems.iter().for_each(|x| x.regs(out)),
            Value::RelPtr { elem, .. } => elem.regs(out),
            _ => {}
        }
    }

    /// The temporaries the value reads.
    pub fn temps(&self) -> Vec<u32> {
        let mut regs = Vec::new();
        self.regs(&mut regs);
        regs.iter()
            .filter(|r| r.file == RegFile::Temp)
            .map(|r| r.index)
            .collect()
    }

    /// The operand of a vector value (panics on others: callers check the shape first).
    pub fn src(&self) -> Src {
        match self {
            Value::V { src, .. } => *src,
            other => unreachable!("a vector value, not {other:?}"),
        }
    }

    /// The leaves (vectors) of an aggregate, in order.
    pub fn leaves(&self) -> Vec<Value> {
        let mut out = Vec::new();
        flatten(self, &mut out);
        out
    }
}

/// The leaves of `v`, depth first.
pub(crate) fn flatten(v: &Value, out: &mut Vec<Value>) {
    match v {
        Value::Agg(a) => a.iter().for_each(|x| flatten(x, out)),
        other => out.push(other.clone()),
    }
}

/// Components of a scalar (1) or vector type.
pub(crate) fn vec_size(t: &TypeInner) -> usize {
    match t {
        TypeInner::Vector { size, .. } => *size as usize,
        _ => 1,
    }
}

/// True for `i32` / `u32` scalars, vectors (and pointers to them).
pub(crate) fn is_int(t: &TypeInner) -> bool {
    matches!(t.scalar_kind(), Some(ScalarKind::Sint | ScalarKind::Uint))
}

/// True for types whose register words must keep their bits through selects and immediates:
/// integers, and doubles (whose words are not binary32 values: CMP would flush them).
pub(crate) fn keeps_bits(t: &TypeInner) -> bool {
    is_int(t)
        || t.scalar()
            .is_some_and(|s| s.kind == ScalarKind::Float && s.width == 8)
}

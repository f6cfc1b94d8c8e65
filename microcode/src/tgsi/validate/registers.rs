//! Register references against the declarations.
//!
//! A 1-D operand `FILE[i]` needs a 1-D declaration of FILE whose range holds `i`. A 2-D operand
//! `FILE[a][b]` (`a` in the register, `b` in the DIMENSION token) needs a 2-D declaration
//! `DCL FILE[a][first..last]` (or the geometry form `DCL FILE[][first..last]`, which matches any
//! `a`) whose range holds `b`. Indirect brackets are not range-checked (out-of-range indirect reads
//! give 0 at run time, `decisions.md` section 2), but their file must be declared and their address
//! register is checked like a 1-D operand.

use super::{Rule, Validator};
use crate::tgsi::ir::*;
use std::collections::HashMap;

impl Validator<'_> {
    /// Checks one operand's register; `what` names the operand in messages (`src 1`).
    pub(super) fn register(&mut self, i: usize, what: &str, r: &Register) {
        self.fits(i, what, r);
        if let Some(ind) = r.indirect {
            self.address(i, what, ind);
        }
        if let Some(ind) = r.dimension.and_then(|d| d.indirect) {
            self.address(i, what, ind);
        }
        match r.file {
            File::Null => {}
            File::Immediate => self.immediate(i, what, r),
            _ => self.declared(i, what, r),
        }
    }

    fn address(&mut self, i: usize, what: &str, ind: Indirect) {
        if ind.component > 3 {
            self.at(
                Rule::FieldRange,
                i,
                format!("{what}: address component above 3"),
            );
        }
        let reg = Register::new(ind.file, ind.index);
        self.register(i, &format!("{what} address"), &reg);
    }

    fn fits(&mut self, i: usize, what: &str, r: &Register) {
        let fits = |v: i32| i16::try_from(v).is_ok();
        let ok = fits(r.index)
            && r.indirect.is_none_or(|a| fits(a.index))
            && r.dimension
                .is_none_or(|d| fits(d.index) && d.indirect.is_none_or(|a| fits(a.index)));
        if !ok {
            self.at(
                Rule::FieldRange,
                i,
                format!("{what}: register index does not fit 16 bits"),
            );
        }
    }

    fn immediate(&mut self, i: usize, what: &str, r: &Register) {
        let n = self.p.immediates.len();
        let ok = if r.indirect.is_some() {
            n > 0
        } else {
            usize::try_from(r.index).is_ok_and(|x| x < n)
        };
        if !ok {
            let msg = format!("{what}: IMM[{}] does not exist ({n} immediates)", r.index);
            self.at(Rule::Undeclared, i, msg);
        }
    }

    fn declared(&mut self, i: usize, what: &str, r: &Register) {
        let Some(decls) = self.decls.files.get(&r.file) else {
            let text = describe(r);
            let msg = format!("{what}: {text} is used but {} is not declared", r.file);
            self.at(Rule::Undeclared, i, msg);
            return;
        };
        // The declarations the operand's shape can match, as (ranges, ranges) pairs whose union
        // holds the declared indices; 2-D operands match `DCL FILE[][..]` and, for a direct first
        // bracket, `DCL FILE[a][..]` of the same `a` (any `a` when it is indirect).
        let empty = Ranges::default();
        let (a, b) = match r.dimension {
            None => (&decls.one_d, &empty),
            Some(_) if r.indirect.is_some() => (&decls.any_first, &decls.all_2d),
            Some(_) => (
                &decls.any_first,
                decls.by_first.get(&r.index).unwrap_or(&empty),
            ),
        };
        if !a.declared && !b.declared {
            let shape = if r.dimension.is_some() { "2-D" } else { "1-D" };
            let msg = format!(
                "{what}: {} matches no {shape} declaration of {}",
                describe(r),
                r.file
            );
            self.at(Rule::Undeclared, i, msg);
            return;
        }
        // The checked bracket: the DIMENSION token's index for 2-D operands, else the first.
        let (index, indirect) = match r.dimension {
            Some(d) => (d.index, d.indirect.is_some()),
            None => (r.index, r.indirect.is_some()),
        };
        if !indirect && !a.contains(index) && !b.contains(index) {
            let msg = format!(
                "{what}: {} is outside the declared ranges of {}",
                describe(r),
                r.file
            );
            self.at(Rule::OutOfRange, i, msg);
        }
    }
}

/// The declarations of a program indexed once, so that checking an operand costs a hash lookup
/// and a binary search instead of a scan of every declaration (which made validation quadratic:
/// 20,000 declarations and 20,000 operands took seconds).
#[derive(Default)]
pub(crate) struct DeclIndex {
    files: HashMap<File, FileDecls>,
}

/// One file's declarations by shape.
#[derive(Default)]
struct FileDecls {
    /// `DCL FILE[first..last]`.
    one_d: Ranges,
    /// `DCL FILE[][first..last]`: any first bracket.
    any_first: Ranges,
    /// `DCL FILE[a][first..last]` by `a`.
    by_first: HashMap<i32, Ranges>,
    /// Every `DCL FILE[a][..]`, for operands whose first bracket is indirect.
    all_2d: Ranges,
}

/// Disjoint sorted index ranges, plus whether any declaration (even an empty or reversed one)
/// had this shape: such a declaration still "matches" an operand, which is then out of range.
#[derive(Default)]
struct Ranges {
    declared: bool,
    spans: Vec<(i32, i32)>,
}

impl Ranges {
    fn add(&mut self, first: i32, last: i32) {
        self.declared = true;
        if first <= last {
            self.spans.push((first, last));
        }
    }

    /// Sorts and merges overlapping spans.
    fn finish(&mut self) {
        self.spans.sort_unstable();
        let mut merged: Vec<(i32, i32)> = Vec::with_capacity(self.spans.len());
        for &(f, l) in &self.spans {
            match merged.last_mut() {
                Some(m) if f <= m.1.saturating_add(1) => m.1 = m.1.max(l),
                _ => merged.push((f, l)),
            }
        }
        self.spans = merged;
    }

    fn contains(&self, index: i32) -> bool {
        let n = self.spans.partition_point(|&(f, _)| f <= index);
        n > 0 && self.spans[n - 1].1 >= index
    }
}

impl DeclIndex {
    /// Indexes `decls` in O(n log n).
    pub(crate) fn new(decls: &[Declaration]) -> DeclIndex {
        let mut x = DeclIndex::default();
        for d in decls {
            let f = x.files.entry(d.file).or_default();
            match d.dimension {
                None => f.one_d.add(d.first, d.last),
                Some(DeclDimension::Empty) => f.any_first.add(d.first, d.last),
                Some(DeclDimension::Index(a)) => {
                    f.by_first.entry(a).or_default().add(d.first, d.last);
                    f.all_2d.add(d.first, d.last);
                }
            }
        }
        for f in x.files.values_mut() {
            f.one_d.finish();
            f.any_first.finish();
            f.all_2d.finish();
            f.by_first.values_mut().for_each(Ranges::finish);
        }
        x
    }
}

/// `FILE[i]`, `FILE[ADDR[0].x+3]`, `FILE[a][b]`, as the text form writes them.
fn describe(r: &Register) -> String {
    let bracket = |index: i32, ind: Option<Indirect>| match ind {
        Some(a) => format!("[{}[{}].{}{:+}]", a.file, a.index, comp(a.component), index),
        None => format!("[{index}]"),
    };
    let mut s = format!("{}{}", r.file, bracket(r.index, r.indirect));
    if let Some(d) = r.dimension {
        s += &bracket(d.index, d.indirect);
    }
    s
}

fn comp(c: u8) -> char {
    ['x', 'y', 'z', 'w']
        .get(usize::from(c))
        .copied()
        .unwrap_or('?')
}

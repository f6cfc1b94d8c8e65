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
        let decls: Vec<&Declaration> = self
            .p
            .declarations
            .iter()
            .filter(|d| d.file == r.file)
            .collect();
        let text = describe(r);
        if decls.is_empty() {
            let msg = format!("{what}: {text} is used but {} is not declared", r.file);
            self.at(Rule::Undeclared, i, msg);
            return;
        }
        let matching: Vec<&&Declaration> = decls
            .iter()
            .filter(|d| match (r.dimension, d.dimension) {
                (None, None) => true,
                (Some(_), Some(DeclDimension::Empty)) => true,
                (Some(_), Some(DeclDimension::Index(b))) => r.indirect.is_some() || b == r.index,
                _ => false,
            })
            .collect();
        if matching.is_empty() {
            let shape = if r.dimension.is_some() { "2-D" } else { "1-D" };
            let msg = format!(
                "{what}: {text} matches no {shape} declaration of {}",
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
        if !indirect && !matching.iter().any(|d| (d.first..=d.last).contains(&index)) {
            let msg = format!(
                "{what}: {text} is outside the declared ranges of {}",
                r.file
            );
            self.at(Rule::OutOfRange, i, msg);
        }
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

//! The validator between parsing and everything else: "validate once, then trust".
//!
//! [`validate`] collects every error of a program (it does not stop at the first). Checks:
//! - declarations are well formed (ranges, usage masks, IMMX data), immediates hold 1-4 values,
//!   properties 1-254;
//! - every register used is declared (all files but NULL and IMM, whose index must be below the
//!   number of immediates) and, when not indirect, inside a declared range; indirect address
//!   registers are checked the same way (see `registers.rs`);
//! - operand counts match the opcode table, nothing writes a read-only file, opcodes are supported
//!   and allowed for the stage, values fit their token fields;
//! - ExtDivide is only W or ONE; saturate and MODULATE only on float-result opcodes
//!   ([`allows_saturate`]); texture opcodes have a target and a SAMP sampler as last source;
//!   BGNFOR/ENDFOR count in the LOOP file; no extension token is repeated;
//! - control flow (see `flow.rs`): balanced blocks, loop controls inside loops, labels in range, calls
//!   to a BGNSUB, one END ending the main program with only subroutines after it, and nesting
//!   within [`Limits::max_nesting`].

mod flow;
mod registers;
#[cfg(test)]
mod tests;

use super::ir::*;
use super::opcode::{Flow, OpcodeInfo, OperandType, Support};
use std::fmt;
use thiserror::Error;

/// Tunable limits the validator enforces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest static nesting of IF/IFC, loops (BGNLOOP, BGNFOR, REP) and calls combined; a call
    /// counts one level plus the callee's own depth, so recursion is rejected.
    pub max_nesting: usize,
}

impl Default for Limits {
    /// `max_nesting` 16. Each open IF, loop or call needs one entry of the execution-mask and
    /// return stack that the models and the hardware keep, and `decisions.md` section 4 makes its
    /// depth a documented limit. Mesa 7.9's interpreter allows 32 per kind; 16 combined is more
    /// than twice the deepest nesting the program generators produce (7), none of the corpus
    /// programs nests at all, and it keeps the hardware stack small.
    fn default() -> Limits {
        Limits { max_nesting: 16 }
    }
}

/// Which check an error comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// A malformed declaration or immediate.
    Declaration,
    /// A register of a file that has no declaration (or IMM past the immediates).
    Undeclared,
    /// A direct index outside every declared range of its file.
    OutOfRange,
    /// Operand counts differ from the opcode table.
    OperandCount,
    /// A destination in a read-only file.
    ReadOnly,
    /// The opcode is not allowed for the program's processor.
    Stage,
    /// The opcode parses but is not executed by this project.
    Unsupported,
    /// A value does not fit its token field or its enumeration (swizzles, CC registers, indices).
    FieldRange,
    /// ExtDivide other than W or ONE.
    ExtDivide,
    /// Saturate or MODULATE on an integer or double opcode.
    Saturate,
    /// Texture target or sampler missing or misplaced.
    Texture,
    /// BGNFOR/ENDFOR counter outside the LOOP file.
    LoopRegister,
    /// An extension token repeated on one instruction or operand.
    DuplicateExtension,
    /// IF/ELSE/ENDIF, loop or subroutine blocks that do not match.
    Unbalanced,
    /// BRK, CONT or BREAKC outside a loop.
    LoopControl,
    /// A label past the last instruction, or a required label missing.
    Label,
    /// CAL/CALLNZ whose label is not a BGNSUB.
    CallTarget,
    /// No END in the program.
    MissingEnd,
    /// A second END.
    RepeatedEnd,
    /// Code after END that is not inside BGNSUB ... ENDSUB, or a subroutine before END.
    AfterEnd,
    /// Nesting deeper than [`Limits::max_nesting`], or recursion.
    Nesting,
}

/// One problem in a program.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub struct ValidationError {
    /// The check that failed.
    pub rule: Rule,
    /// Where the offending item came from.
    pub loc: Loc,
    /// Index of the offending instruction, if it is one.
    pub instruction: Option<usize>,
    /// What is wrong, naming the operand and the values involved.
    pub message: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.loc)?;
        if let Some(i) = self.instruction {
            write!(f, "instruction {i}: ")?;
        }
        f.write_str(&self.message)
    }
}

/// True when an opcode may carry saturate and MODULATE: it has a destination and neither produces
/// integers nor reads or writes doubles (`decisions.md` section 2: both are float-result operations).
pub fn allows_saturate(info: &OpcodeInfo) -> bool {
    let int_or_double = |t: OperandType| t.is_integer() || t == OperandType::Double;
    info.num_dst > 0 && !int_or_double(info.dst_type) && info.src_type != OperandType::Double
}

/// Checks a program; returns every error found, in program order per check.
pub fn validate(p: &Program, limits: &Limits) -> Result<(), Vec<ValidationError>> {
    let mut v = Validator {
        p,
        errors: Vec::new(),
        decls: registers::DeclIndex::new(&p.declarations),
    };
    v.declarations();
    v.immediates();
    v.properties();
    for (i, inst) in p.instructions.iter().enumerate() {
        v.instruction(i, inst);
    }
    flow::check(&mut v, limits);
    for d in &p.duplicate_extensions {
        v.error(
            Rule::DuplicateExtension,
            d.loc,
            Some(d.instruction),
            format!("extension token {} appears twice", d.what),
        );
    }
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(v.errors)
    }
}

/// Largest IMMX array one declaration token can carry: Size is 8 bits and the DECLARATION, RANGE,
/// INTERPOLATION, DIMENSION and SEMANTIC tokens take up to 5 of the 255 words.
const MAX_IMMX_ELEMENTS: usize = (255 - 5) / 4;

pub(crate) struct Validator<'a> {
    pub(crate) p: &'a Program,
    pub(crate) errors: Vec<ValidationError>,
    /// The declarations indexed for the register checks.
    pub(crate) decls: registers::DeclIndex,
}

fn fits_i16(v: i32) -> bool {
    i16::try_from(v).is_ok()
}

impl Validator<'_> {
    pub(crate) fn error(
        &mut self,
        rule: Rule,
        loc: Loc,
        instruction: Option<usize>,
        message: String,
    ) {
        self.errors.push(ValidationError {
            rule,
            loc,
            instruction,
            message,
        });
    }

    /// An error about instruction `i`.
    pub(crate) fn at(&mut self, rule: Rule, i: usize, message: String) {
        let loc = self
            .p
            .instructions
            .get(i)
            .map(|x| x.loc)
            .unwrap_or_default();
        self.error(rule, loc, Some(i), message);
    }

    fn declarations(&mut self) {
        for d in &self.p.declarations {
            let name = format!("DCL {}[{}..{}]", d.file, d.first, d.last);
            let bad = |v: &mut Self, rule, what: String| {
                v.error(rule, d.loc, None, format!("{name}: {what}"))
            };
            if d.first < 0 || d.first > d.last || !fits_i16(d.last) {
                bad(
                    self,
                    Rule::Declaration,
                    "the range must satisfy 0 <= first <= last <= 32767".into(),
                );
            }
            if d.usage_mask == 0 || d.usage_mask > 0xF {
                bad(
                    self,
                    Rule::Declaration,
                    format!("usage mask {:#x} is not 1-15", d.usage_mask),
                );
            }
            if matches!(d.file, File::Null | File::Immediate) {
                bad(
                    self,
                    Rule::Declaration,
                    format!("{} registers cannot be declared", d.file),
                );
            }
            if d.semantic.is_some_and(|s| s.index > 0xFFFF) {
                bad(
                    self,
                    Rule::FieldRange,
                    "semantic index does not fit 16 bits".into(),
                );
            }
            if let Some(DeclDimension::Index(i)) = d.dimension {
                if !(0..=i32::from(i16::MAX)).contains(&i) {
                    bad(
                        self,
                        Rule::FieldRange,
                        format!("dimension index {i} is not 0-32767"),
                    );
                }
            }
            let len = (i64::from(d.last) - i64::from(d.first) + 1).max(0) as usize;
            if d.file == File::ImmediateArray {
                if d.array_data.len() != len {
                    bad(
                        self,
                        Rule::Declaration,
                        format!("{} data elements for {len} registers", d.array_data.len()),
                    );
                }
                if d.array_data.len() > MAX_IMMX_ELEMENTS {
                    bad(
                        self,
                        Rule::FieldRange,
                        format!("more than {MAX_IMMX_ELEMENTS} elements do not fit one token"),
                    );
                }
            } else if !d.array_data.is_empty() {
                bad(
                    self,
                    Rule::Declaration,
                    "only IMMX declarations carry data".into(),
                );
            }
        }
    }

    fn properties(&mut self) {
        for prop in &self.p.properties {
            if !(1..=254).contains(&prop.values.len()) {
                let msg = format!(
                    "PROPERTY {} has {} values; 1 to 254 (one token) expected",
                    prop.name.name(),
                    prop.values.len()
                );
                self.error(Rule::Declaration, prop.loc, None, msg);
            }
        }
    }

    fn immediates(&mut self) {
        for (n, imm) in self.p.immediates.iter().enumerate() {
            if !(1..=4).contains(&imm.values.len()) {
                let msg = format!("IMM[{n}] has {} values; 1 to 4 expected", imm.values.len());
                self.error(Rule::Declaration, imm.loc, None, msg);
            }
        }
    }

    fn instruction(&mut self, i: usize, inst: &Instruction) {
        let info = inst.opcode.info();
        let name = info.mnemonic;
        if let Support::Unsupported(why) = info.support {
            self.at(
                Rule::Unsupported,
                i,
                format!("{name} is not supported: {why}"),
            );
        }
        if !info.stages.contains(self.p.processor.stage()) {
            let stage = format!("{:?}", self.p.processor).to_lowercase();
            self.at(
                Rule::Stage,
                i,
                format!("{name} is not allowed in a {stage} program"),
            );
        }
        if inst.dst.len() != usize::from(info.num_dst)
            || inst.src.len() != usize::from(info.num_src)
        {
            self.at(
                Rule::OperandCount,
                i,
                format!(
                    "{name} takes {} destination(s) and {} source(s), found {} and {}",
                    info.num_dst,
                    info.num_src,
                    inst.dst.len(),
                    inst.src.len()
                ),
            );
        }
        if inst.saturate != Saturate::None && !allows_saturate(info) {
            self.at(
                Rule::Saturate,
                i,
                format!("{name} cannot saturate (integer, double or no result)"),
            );
        }
        if inst.cond_update.is_some_and(|c| c > 1) || inst.cond_flow.is_some_and(|c| !cond_ok(&c)) {
            self.at(
                Rule::FieldRange,
                i,
                "condition code register must be 0 or 1, swizzles 0-3".into(),
            );
        }
        if inst.label.is_some_and(|l| l >= 1 << 24) {
            self.at(Rule::FieldRange, i, "label does not fit 24 bits".into());
        }
        for (k, d) in inst.dst.iter().enumerate() {
            let what = format!("dst {k}");
            if d.reg.file.is_read_only() {
                self.at(
                    Rule::ReadOnly,
                    i,
                    format!("{name} writes {}, which is read-only", d.reg.file),
                );
            }
            if d.modulate != Modulate::X1 && !allows_saturate(info) {
                self.at(
                    Rule::Saturate,
                    i,
                    format!("{name} cannot take MODULATE on {what}"),
                );
            }
            if d.write_mask > 0xF || d.cond.is_some_and(|c| !cond_ok(&c)) {
                self.at(
                    Rule::FieldRange,
                    i,
                    format!("{what}: write mask or condition out of range"),
                );
            }
            if d.write_mask & 0xF == 0 {
                // Only a token stream can hold it; text has no spelling for an empty mask, and a
                // destination that writes nothing is a producer's mistake.
                self.at(
                    Rule::FieldRange,
                    i,
                    format!("{what}: write mask is empty (writes no component)"),
                );
            }
            self.register(i, &what, &d.reg);
        }
        for (k, s) in inst.src.iter().enumerate() {
            let what = format!("src {k}");
            if let Some(x) = s.ext_swizzle {
                if !matches!(x.divide, ExtSel::W | ExtSel::One) {
                    self.at(
                        Rule::ExtDivide,
                        i,
                        format!(
                            "{what}: ExtDivide {:?} is not allowed (only W or ONE)",
                            x.divide
                        ),
                    );
                }
            }
            if s.swizzle.iter().any(|&c| c > 3) {
                self.at(
                    Rule::FieldRange,
                    i,
                    format!("{what}: swizzle selector above 3"),
                );
            }
            self.register(i, &what, &s.reg);
        }
        self.texture(i, inst, info);
        if matches!(info.flow(), Some(Flow::BgnFor | Flow::EndFor)) {
            if let Some(d) = inst.dst.first().filter(|d| d.reg.file != File::Loop) {
                let msg = format!("{name} counts in {}, not in the LOOP file", d.reg.file);
                self.at(Rule::LoopRegister, i, msg);
            }
        }
    }

    fn texture(&mut self, i: usize, inst: &Instruction, info: &OpcodeInfo) {
        let name = info.mnemonic;
        if !info.is_texture() {
            if let Some(t) = inst.texture {
                let msg = format!(
                    "{name} is not a texture instruction but has target {}",
                    t.name()
                );
                self.at(Rule::Texture, i, msg);
            }
            return;
        }
        if inst.texture.is_none() {
            self.at(Rule::Texture, i, format!("{name} needs a texture target"));
        }
        if let Some(s) = inst.src.last().filter(|s| s.reg.file != File::Sampler) {
            let msg = format!(
                "{name}'s last source must be a SAMP register, found {}",
                s.reg.file
            );
            self.at(Rule::Texture, i, msg);
        }
    }
}

fn cond_ok(c: &CondTest) -> bool {
    c.index <= 1 && c.swizzle.iter().all(|&s| s <= 3)
}

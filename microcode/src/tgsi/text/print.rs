//! The printer: Mesa 7.9 `tgsi_dump` layout (header, properties, declarations, immediates, then
//! `%3u: ` numbered instructions indented two spaces per nesting level, then nothing after `END`
//! but what the program holds), with exact numbers and the modifier spellings of
//! `docs/text-syntax.md`. Every program prints to text that parses back to the same program.

use super::names;
use super::number::format_f32;
use crate::tgsi::ir::*;
use crate::tgsi::opcode::Flow;
use std::fmt::Write;

/// Deepest nesting level the printer indents (two spaces each); deeper levels print at this one.
/// Four times the validator's default nesting limit, so every valid program indents faithfully.
pub const MAX_INDENT: usize = 64;

/// Printing choices that do not change the program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrintOptions {
    /// `Modern` prints `FRAG`, `V11` prints `FRAG1.1`.
    pub dialect: Dialect,
}

/// Canonical text (Modern dialect).
pub fn print(p: &Program) -> String {
    print_with(p, &PrintOptions::default())
}

/// Text with the given options.
pub fn print_with(p: &Program, opts: &PrintOptions) -> String {
    let mut out = String::new();
    out.push_str(match p.processor {
        Processor::Fragment => "FRAG",
        Processor::Vertex => "VERT",
        Processor::Geometry => "GEOM",
    });
    if opts.dialect == Dialect::V11 {
        out.push_str("1.1");
    }
    out.push('\n');
    for prop in &p.properties {
        property(&mut out, prop);
    }
    for d in &p.declarations {
        declaration(&mut out, d);
    }
    for imm in &p.immediates {
        out.push_str("IMM ");
        out.push_str(imm.ty.name());
        out.push(' ');
        values(&mut out, imm.ty, &imm.values);
        out.push('\n');
    }
    let mut depth = 0usize;
    for (n, inst) in p.instructions.iter().enumerate() {
        let flow = inst.opcode.info().flow();
        if matches!(
            flow,
            Some(
                Flow::Else
                    | Flow::EndIf
                    | Flow::EndLoop
                    | Flow::EndFor
                    | Flow::EndRep
                    | Flow::EndSub
            )
        ) {
            depth = depth.saturating_sub(1);
        }
        // Capped so that the output stays linear in the program's size: a file of 10,000
        // nested IFs (which the validator refuses, but `dump` prints) would otherwise print
        // 100 MB of spaces.
        let _ = write!(out, "{n:3}: {}", "  ".repeat(depth.min(MAX_INDENT)));
        instruction(&mut out, inst);
        out.push('\n');
        if matches!(
            flow,
            Some(
                Flow::If
                    | Flow::Ifc
                    | Flow::Else
                    | Flow::BgnLoop
                    | Flow::BgnFor
                    | Flow::Rep
                    | Flow::BgnSub
            )
        ) {
            depth += 1;
        }
    }
    out
}

fn property(out: &mut String, prop: &Property) {
    out.push_str("PROPERTY ");
    out.push_str(prop.name.name());
    let value_names = names::value_names(prop.name);
    for (k, v) in prop.values.iter().enumerate() {
        out.push_str(if k == 0 { " " } else { ", " });
        match value_names.get(*v as usize) {
            Some(name) => out.push_str(name),
            None => {
                let _ = write!(out, "{v}");
            }
        }
    }
    out.push('\n');
}

fn declaration(out: &mut String, d: &Declaration) {
    let start = out.len();
    out.push_str("DCL ");
    out.push_str(d.file.name());
    match d.dimension {
        Some(DeclDimension::Empty) => out.push_str("[]"),
        Some(DeclDimension::Index(n)) => {
            let _ = write!(out, "[{n}]");
        }
        None => {}
    }
    if d.first == d.last {
        let _ = write!(out, "[{}]", d.first);
    } else {
        let _ = write!(out, "[{}..{}]", d.first, d.last);
    }
    mask(out, d.usage_mask);
    if let Some(s) = d.semantic {
        out.push_str(", ");
        out.push_str(s.name.name());
        if s.index != 0 || s.name == SemanticName::Generic {
            let _ = write!(out, "[{}]", s.index);
        }
    }
    if let Some(m) = d.interpolate {
        out.push_str(", ");
        out.push_str(m.name());
    }
    if !d.array_data.is_empty() {
        out.push_str(" {");
        // Rows after the first line up under the first one.
        let indent = " ".repeat(out.len() - start);
        for (k, row) in d.array_data.iter().enumerate() {
            if k > 0 {
                out.push_str(",\n");
                out.push_str(&indent);
            }
            values(out, ImmType::Float32, row);
        }
        out.push('}');
    }
    out.push('\n');
}

/// `{v, v, v, v}`.
fn values(out: &mut String, ty: ImmType, vals: &[u32]) {
    out.push('{');
    for (k, v) in vals.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        match ty {
            ImmType::Float32 => out.push_str(&format_f32(*v)),
            ImmType::Uint32 => {
                let _ = write!(out, "{v}");
            }
            ImmType::Int32 => {
                let _ = write!(out, "{}", *v as i32);
            }
        }
    }
    out.push('}');
}

/// `.xyz` unless all four components are set.
fn mask(out: &mut String, m: u8) {
    if m & 0xF != 0xF {
        out.push('.');
        for (bit, c) in ['x', 'y', 'z', 'w'].into_iter().enumerate() {
            if m & (1 << bit) != 0 {
                out.push(c);
            }
        }
    }
}

fn swizzle_letter(s: Swz) -> char {
    ['x', 'y', 'z', 'w']
        .get(usize::from(s))
        .copied()
        .unwrap_or('?')
}

/// `.zyxw` unless the identity.
fn swizzle(out: &mut String, s: &[Swz; 4]) {
    if *s != [0, 1, 2, 3] {
        out.push('.');
        out.extend(s.iter().map(|&c| swizzle_letter(c)));
    }
}

fn cond_test(out: &mut String, c: &CondTest) {
    out.push('(');
    out.push_str(c.mask.name());
    if c.index != 0 {
        let _ = write!(out, "{}", c.index);
    }
    swizzle(out, &c.swizzle);
    out.push(')');
}

fn instruction(out: &mut String, inst: &Instruction) {
    if let Some(c) = &inst.cond_flow {
        cond_test(out, c);
        out.push(' ');
    }
    out.push_str(inst.opcode.mnemonic());
    out.push_str(match inst.saturate {
        Saturate::None => "",
        Saturate::ZeroOne => "_SAT",
        Saturate::MinusPlusOne => "_SATNV",
    });
    match inst.cond_update {
        None => {}
        Some(0) => out.push_str(".CC"),
        Some(n) => {
            let _ = write!(out, ".CC{n}");
        }
    }
    out.push_str(match inst.precision {
        Precision::Default => "",
        Precision::Float32 => ".F32",
        Precision::Float16 => ".F16",
        Precision::Fixed12 => ".X12",
    });
    let mut first = true;
    let mut sep = |out: &mut String| {
        out.push_str(if first { " " } else { ", " });
        first = false;
    };
    for d in &inst.dst {
        sep(out);
        register(out, &d.reg);
        mask(out, d.write_mask);
        out.push_str(match d.modulate {
            Modulate::X1 => "",
            Modulate::X2 => "_X2",
            Modulate::X4 => "_X4",
            Modulate::X8 => "_X8",
            Modulate::Half => "_D2",
            Modulate::Quarter => "_D4",
            Modulate::Eighth => "_D8",
        });
        if let Some(c) = &d.cond {
            out.push(' ');
            cond_test(out, c);
        }
    }
    for s in &inst.src {
        sep(out);
        src_operand(out, s);
    }
    if let Some(t) = inst.texture {
        out.push_str(", ");
        out.push_str(t.name());
    }
    if let Some(l) = inst.label {
        let _ = write!(out, " :{l}");
    }
}

/// One bracket: `[3]`, `[ADDR[0].x]`, `[ADDR[0].x+3]`, `[ADDR[0].x-3]`.
fn bracket(out: &mut String, index: i32, indirect: Option<&Indirect>) {
    out.push('[');
    match indirect {
        None => {
            let _ = write!(out, "{index}");
        }
        Some(ind) => {
            let _ = write!(
                out,
                "{}[{}].{}",
                ind.file.name(),
                ind.index,
                swizzle_letter(ind.component)
            );
            if index > 0 {
                let _ = write!(out, "+{index}");
            } else if index < 0 {
                let _ = write!(out, "{index}");
            }
        }
    }
    out.push(']');
}

fn register(out: &mut String, r: &Register) {
    out.push_str(r.file.name());
    bracket(out, r.index, r.indirect.as_ref());
    if let Some(d) = &r.dimension {
        bracket(out, d.index, d.indirect.as_ref());
    }
}

fn ext_sel(s: ExtSel) -> char {
    match s {
        ExtSel::X => 'x',
        ExtSel::Y => 'y',
        ExtSel::Z => 'z',
        ExtSel::W => 'w',
        ExtSel::Zero => '0',
        ExtSel::One => '1',
    }
}

/// The most compact spelling: `-IN[0]`, `|IN[0]|`, `-|IN[0]|`; the parenthesised EXT_MOD forms only
/// for the modifiers that need them, nested in the order of `decisions.md` section 3.
fn src_operand(out: &mut String, s: &SrcOperand) {
    let mut t = String::new();
    if s.negate {
        t.push('-');
    }
    register(&mut t, &s.reg);
    swizzle(&mut t, &s.swizzle);
    let identity = ExtSwizzle::default();
    let divide = s.ext_swizzle.map_or(ExtSel::One, |e| e.divide);
    if let Some(e) = &s.ext_swizzle {
        // A bare `/w` already means "identity extended swizzle", so the braces are only needed
        // for a real selection or when nothing else marks the extension as present.
        let plain = e.select == identity.select && e.negate == identity.negate;
        if !plain || e.divide == ExtSel::One {
            t.push('{');
            for k in 0..4 {
                if k > 0 {
                    t.push(',');
                }
                if e.negate[k] {
                    t.push('-');
                }
                t.push(ext_sel(e.select[k]));
            }
            t.push('}');
        }
    }
    let m = &s.ext_mod;
    if m.complement {
        t = format!("1-({t})");
    }
    if m.bias {
        t = format!("({t})-0.5");
    }
    if m.scale2x {
        t = format!("2*({t})");
    }
    if m.absolute {
        t = format!("|{t}|");
    }
    if m.negate {
        t = if m.absolute {
            format!("-{t}")
        } else {
            format!("-({t})")
        };
    }
    out.push_str(&t);
    if divide != ExtSel::One {
        out.push('/');
        out.push(ext_sel(divide));
    }
}

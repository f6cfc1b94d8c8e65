//! Budgets that keep hostile input from taking the machine, checked before the work they bound:
//! bracket nesting and operator runs (naga's parsers recurse per level), statements and chains
//! of operators without brackets (naga's reading slows with them faster than they grow), locations TGSI cannot number (naga's
//! validator allocates by location), and types the core could never hold (the lowering
//! allocates per element).

use crate::error::{over_budget, Budget};
use crate::TranslateError;
use naga::{Binding, Module, TypeInner};

/// The deepest nesting of brackets (and the longest run of prefix operators) a source may have:
/// far beyond any shader (the TGSI validator allows 16 nested blocks), shallow enough for naga's
/// recursive parsers on the translation thread's stack.
pub const MAX_NESTING: usize = 256;

/// The most structured control-flow merges (`OpSelectionMerge`, `OpLoopMerge`) a SPIR-V module may
/// hold: a bound on its nesting for naga's recursive reader.
pub const MAX_SPIRV_MERGES: usize = 4096;

/// The most statements (`;`, `else`) a source may have: forty times what the largest shader of
/// the public collections writes (about 200), few enough for naga, whose reading slows faster
/// than the count grows, to take about a second.
pub const MAX_TERMS: usize = 8192;

/// The most operators (`+ - * / % & | ^ < > ?`) one statement may chain: far beyond any
/// expression a person writes, few enough for naga's typifier (quadratic in the chain: 32,000
/// terms take 1.5 s, 100,000 take 12 s) to take a tenth of a second.
pub const MAX_CHAIN: usize = 4096;

/// The most registers a type may take (a vec4 each): sixteen times the instructions a
/// translation may have, far beyond the 64 registers of the core.
pub const MAX_TYPE_REGISTERS: u64 = 1 << 16;

/// Refuses source text nested deeper or chained longer than naga should see.
#[cfg_attr(not(any(feature = "wgsl", feature = "glsl")), allow(dead_code))]
pub(crate) fn check_text(src: &str, file: &str) -> Result<(), TranslateError> {
    let bytes = src.as_bytes();
    let (mut depth, mut run, mut terms, mut chain) = (0usize, 0usize, 0usize, 0usize);
    let over = |budget: Budget, what: String, at: usize| {
        over_budget(budget, what, naga::Span::new(at as u32, at as u32 + 1))
            .located_in(file, Some(src))
    };
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        // Comments hold anything: skip them.
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
            continue;
        }
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b';' => terms += 1,
            b'e' if bytes[i..].starts_with(b"else") => terms += 1,
            _ => {}
        }
        match c {
            b';' | b'{' | b'}' => chain = 0,
            b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^' | b'<' | b'>' | b'?' => {
                chain += 1
            }
            _ => {}
        }
        match c {
            b'-' | b'+' | b'!' | b'~' | b'*' | b'&' => run += 1,
            b' ' | b'\t' | b'\r' | b'\n' => {}
            _ => run = 0,
        }
        if depth > MAX_NESTING {
            return Err(over(
                Budget::Nesting,
                format!("brackets nested deeper than {MAX_NESTING}"),
                i,
            ));
        }
        if run > MAX_NESTING {
            return Err(over(
                Budget::Nesting,
                format!("more than {MAX_NESTING} operators in a row"),
                i,
            ));
        }
        if terms > MAX_TERMS {
            return Err(over(
                Budget::Chain,
                format!("more than {MAX_TERMS} statements (`;`, `else`)"),
                i,
            ));
        }
        if chain > MAX_CHAIN {
            return Err(over(
                Budget::Chain,
                format!("more than {MAX_CHAIN} operators chained in one statement"),
                i,
            ));
        }
        i += 1;
    }
    Ok(())
}

/// Where entry point `index` is declared (its name after `fn`), for messages without a span.
pub(crate) fn entry_span(module: &Module, index: usize, source: Option<&str>) -> naga::Span {
    let (Some(src), Some(ep)) = (source, module.entry_points.get(index)) else {
        return naga::Span::default();
    };
    let name = &ep.name;
    let at = src.match_indices(name.as_str()).map(|(i, _)| i).find(|&i| {
        let before = src[..i].trim_end();
        let after = src[i + name.len()..].trim_start();
        (before.ends_with("fn") || before.ends_with("void")) && after.starts_with('(')
    });
    match at {
        Some(i) => naga::Span::new(i as u32, (i + name.len()) as u32),
        None => naga::Span::default(),
    }
}

/// Refuses inputs and outputs at locations TGSI's 16-bit semantic index cannot number, before
/// naga's validator sizes its tables by them.
pub(crate) fn check_locations(
    module: &Module,
    index: usize,
    file: &str,
    source: Option<&str>,
) -> Result<(), TranslateError> {
    let max = crate::lower::MAX_LOCATION;
    let ep = &module.entry_points[index];
    let span = entry_span(module, index, source);
    let mut bindings: Vec<(Option<&Binding>, naga::Handle<naga::Type>)> = Vec::new();
    for a in &ep.function.arguments {
        bindings.push((a.binding.as_ref(), a.ty));
    }
    if let Some(r) = &ep.function.result {
        bindings.push((r.binding.as_ref(), r.ty));
    }
    while let Some((b, ty)) = bindings.pop() {
        match b {
            Some(Binding::Location { location, .. }) if *location > max => {
                return Err(over_budget(
                    Budget::Location,
                    format!("@location({location}) (at most {max})"),
                    span,
                )
                .located_in(file, source));
            }
            None => {
                if let Some(TypeInner::Struct { members, .. }) =
                    module.types.get_handle(ty).ok().map(|t| &t.inner)
                {
                    bindings.extend(members.iter().map(|m| (m.binding.as_ref(), m.ty)));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Registers a value of `ty` takes (saturating), with a vec4 per scalar, vector or column (two for
/// three or four doubles).
pub(crate) fn registers(module: &Module, ty: naga::Handle<naga::Type>) -> u64 {
    // Two doubles to a register.
    let wide = |s: &naga::Scalar, n: u64| if s.width == 8 { n.div_ceil(2) } else { 1 };
    match &module.types[ty].inner {
        TypeInner::Matrix {
            columns,
            rows,
            scalar,
        } => *columns as u64 * wide(scalar, *rows as u64),
        TypeInner::Vector { size, scalar } => wide(scalar, *size as u64),
        TypeInner::Struct { members, .. } => members
            .iter()
            .fold(0u64, |a, m| a.saturating_add(registers(module, m.ty))),
        TypeInner::Array { base, size, .. } => {
            let n = match size {
                naga::ArraySize::Constant(n) => u64::from(n.get()),
                _ => 1,
            };
            n.saturating_mul(registers(module, *base))
        }
        _ => 1,
    }
}

/// Refuses types the core could never hold (before the lowering allocates per element).
pub(crate) fn check_types(
    module: &Module,
    file: &str,
    source: Option<&str>,
    language: crate::Language,
) -> Result<(), TranslateError> {
    for (h, _) in module.types.iter() {
        let n = registers(module, h);
        if n > MAX_TYPE_REGISTERS {
            let span = Some(module.types.get_span(h))
                .filter(|s| s.is_defined())
                .or_else(|| variable_span(module, n))
                .unwrap_or_default();
            let name = crate::lower::names::type_name(module, h, language);
            return Err(over_budget(
                Budget::TypeSize,
                format!("the type `{name}`, {n} registers (at most {MAX_TYPE_REGISTERS}),"),
                span,
            )
            .located_in(file, source));
        }
    }
    Ok(())
}

/// Where a variable (global, or local to any function) of a type of `n` registers or more is
/// declared: the place to name for a type without a span of its own.
fn variable_span(module: &Module, n: u64) -> Option<naga::Span> {
    let big = |ty| registers(module, ty) >= n;
    if let Some((h, _)) = module.global_variables.iter().find(|(_, g)| big(g.ty)) {
        return Some(module.global_variables.get_span(h));
    }
    let functions = module
        .functions
        .iter()
        .map(|(_, f)| f)
        .chain(module.entry_points.iter().map(|e| &e.function));
    for f in functions {
        if let Some((h, _)) = f.local_variables.iter().find(|(_, l)| big(l.ty)) {
            return Some(f.local_variables.get_span(h));
        }
    }
    None
}

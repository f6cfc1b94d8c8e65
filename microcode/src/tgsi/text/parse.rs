//! The statement grammar: header, `DCL`, `IMM`, `PROPERTY` and instructions, one per line.
//! `docs/text-syntax.md` is the grammar in prose; each function names its rule.

use super::error::{fail, LineMap, PResult, ParseError};
use super::instruction;
use super::lexer::{
    end_of_statement, expect, found, index, keyword, number_text, peek_word, sp, uint, word, ws,
};
use super::names;
use super::number::{parse_f32, parse_i32, parse_u32};
use super::operand::mask;
use crate::tgsi::ir::*;

/// Parses a whole program (either dialect).
pub fn parse(src: &str) -> Result<Program, ParseError> {
    let map = LineMap::new(src);
    let mut ctx = Ctx {
        map: &map,
        program: Program::new(Processor::Fragment),
    };
    match ctx.program_rule(src) {
        Ok(_) => Ok(ctx.program),
        Err(nom::Err::Error(e)) | Err(nom::Err::Failure(e)) => Err(map.error(e)),
        Err(nom::Err::Incomplete(_)) => Err(ParseError {
            line: 1,
            col: 1,
            message: "incomplete input".into(),
        }),
    }
}

struct Ctx<'m> {
    map: &'m LineMap<'m>,
    program: Program,
}

impl Ctx<'_> {
    fn loc(&self, at: &str) -> Loc {
        let (line, col) = self.map.locate(at);
        Loc::Text { line, col }
    }

    /// program := header statement*
    fn program_rule<'a>(&mut self, i: &'a str) -> PResult<'a, ()> {
        let (i, _) = ws(i)?;
        let (mut i, processor) = header(i)?;
        self.program.processor = processor;
        loop {
            let (rest, _) = ws(i)?;
            if rest.is_empty() {
                return Ok((rest, ()));
            }
            let w = peek_word(rest).to_ascii_uppercase();
            let (rest, _) = match w.as_str() {
                "DCL" => self.declaration(rest)?,
                "IMM" => self.immediate(rest)?,
                "PROPERTY" => self.property(rest)?,
                _ => self.instruction(rest)?,
            };
            (i, _) = end_of_statement(rest)?;
        }
    }

    /// declaration := `DCL` FILE ([DIM])? [first(..last)?] (.mask)? (, SEMANTIC([n])?)?
    ///                (, INTERPOLATION)? ({ {v,v,v,v}, ... })?
    fn declaration<'a>(&mut self, i: &'a str) -> PResult<'a, ()> {
        let loc = self.loc(i);
        let (i, _) = keyword("DCL")(i)?;
        let (i, _) = sp(i)?;
        let file_at = i;
        let (i, name) = match word(i) {
            Ok(r) => r,
            Err(_) => return fail(i, format!("expected a register file{}", found(i))),
        };
        let Some(file) = File::from_name(name) else {
            return fail(file_at, format!("unknown register file `{name}`"));
        };
        let first_at = i;
        let (i, g1) = decl_bracket(i)?;
        let (mut i, dimension, range_at, range) = if i.starts_with('[') {
            let (rest, g2) = decl_bracket(i)?;
            let dim = match g1 {
                None => DeclDimension::Empty,
                Some((a, b)) if a == b => DeclDimension::Index(a),
                Some(_) => {
                    return fail(
                        first_at,
                        "the first bracket of a 2-D declaration holds one index",
                    )
                }
            };
            (rest, Some(dim), i, g2)
        } else {
            (i, None, first_at, g1)
        };
        let Some((first, last)) = range else {
            return fail(range_at, "expected an index in `[]`");
        };
        let mut decl = Declaration {
            file,
            dimension,
            first,
            last,
            usage_mask: 0xF,
            semantic: None,
            interpolate: None,
            array_data: Vec::new(),
            loc,
        };
        if let Some(rest) = i.strip_prefix('.') {
            (i, decl.usage_mask) = mask(rest)?;
        }
        loop {
            let (rest, _) = sp(i)?;
            let Some(rest) = rest.strip_prefix(',') else {
                break;
            };
            let (at, _) = sp(rest)?;
            let (rest, w) = match word(at) {
                Ok(r) => r,
                Err(_) => {
                    return fail(
                        at,
                        format!("expected a semantic or interpolation{}", found(at)),
                    )
                }
            };
            if let Some(name) = names::semantic(w) {
                if decl.semantic.is_some() || decl.interpolate.is_some() {
                    return fail(at, "the semantic comes once, before the interpolation");
                }
                let (rest, idx) = semantic_index(rest)?;
                decl.semantic = Some(Semantic { name, index: idx });
                i = rest;
            } else if let Some(mode) = names::interpolate(w) {
                if decl.interpolate.is_some() {
                    return fail(at, "the interpolation is given twice");
                }
                decl.interpolate = Some(mode);
                i = rest;
            } else {
                return fail(at, format!("unknown semantic or interpolation `{w}`"));
            }
        }
        let (data_at, _) = sp(i)?;
        if data_at.starts_with('{') {
            let (rest, rows) = array_data(data_at)?;
            let expected = i64::from(last) - i64::from(first) + 1;
            if rows.len() as i64 != expected {
                return fail(
                    data_at,
                    format!(
                        "{}[{first}..{last}] declares {expected} elements, found {} data {}",
                        file.name(),
                        rows.len(),
                        if rows.len() == 1 { "row" } else { "rows" }
                    ),
                );
            }
            decl.array_data = rows;
            i = rest;
        }
        self.program.declarations.push(decl);
        Ok((i, ()))
    }

    /// immediate := `IMM` ([n])? TYPE { value (, value){0,3} }
    fn immediate<'a>(&mut self, i: &'a str) -> PResult<'a, ()> {
        let loc = self.loc(i);
        let (i, _) = keyword("IMM")(i)?;
        let (mut i, _) = sp(i)?;
        if let Some(rest) = i.strip_prefix('[') {
            let (at, _) = sp(rest)?;
            let (rest, n) = match uint(at) {
                Ok(r) => r,
                Err(nom::Err::Error(_)) => {
                    return fail(at, format!("expected an index{}", found(at)))
                }
                Err(e) => return Err(e),
            };
            let count = self.program.immediates.len();
            if n as usize != count {
                return fail(
                    at,
                    format!(
                        "immediate `IMM[{n}]` is out of order: the next immediate is IMM[{count}]"
                    ),
                );
            }
            let (rest, _) = sp(rest)?;
            let (rest, _) = expect(']', rest)?;
            (i, _) = sp(rest)?;
        }
        let (rest, w) = match word(i) {
            Ok(r) => r,
            Err(_) => return fail(i, format!("expected FLT32, UINT32 or INT32{}", found(i))),
        };
        let ty = match w.to_ascii_uppercase().as_str() {
            "FLT32" => ImmType::Float32,
            "UINT32" => ImmType::Uint32,
            "INT32" => ImmType::Int32,
            _ => {
                return fail(
                    i,
                    format!("unknown immediate type `{w}`; expected FLT32, UINT32 or INT32"),
                )
            }
        };
        let (rest, _) = sp(rest)?;
        let (rest, values) = value_list(rest, ty, 1)?;
        self.program.immediates.push(Immediate { ty, values, loc });
        Ok((rest, ()))
    }

    /// property := `PROPERTY` NAME value (, value)*
    fn property<'a>(&mut self, i: &'a str) -> PResult<'a, ()> {
        let loc = self.loc(i);
        let (i, _) = keyword("PROPERTY")(i)?;
        let (name_at, _) = sp(i)?;
        let (mut i, w) = match word(name_at) {
            Ok(r) => r,
            Err(_) => {
                return fail(
                    name_at,
                    format!("expected a property name{}", found(name_at)),
                )
            }
        };
        let Some(name) = names::property(w) else {
            return fail(name_at, format!("unknown property `{w}`"));
        };
        let mut values = Vec::new();
        loop {
            let (at, _) = sp(i)?;
            let (rest, v) = match word(at) {
                Ok(r) => r,
                Err(_) => {
                    return fail(
                        at,
                        format!("expected a value for {}{}", name.name(), found(at)),
                    )
                }
            };
            let value = match parse_u32(v) {
                Ok(n) => n,
                Err(_) if v.starts_with(|c: char| c.is_ascii_digit()) => {
                    return fail(at, format!("invalid number `{v}`"))
                }
                Err(_) => match names::property_value(name, v) {
                    Some(n) => n,
                    None => return fail(at, format!("unknown {} value `{v}`", name.name())),
                },
            };
            values.push(value);
            let (rest, _) = sp(rest)?;
            match rest.strip_prefix(',') {
                Some(r) => i = r,
                None => {
                    i = rest;
                    break;
                }
            }
        }
        self.program.properties.push(Property { name, values, loc });
        Ok((i, ()))
    }

    /// instruction (see `instruction.rs`)
    fn instruction<'a>(&mut self, i: &'a str) -> PResult<'a, ()> {
        let (i, inst) = instruction::instruction(i, self.map)?;
        self.program.instructions.push(inst);
        Ok((i, ()))
    }
}

/// header := (`FRAG` | `VERT` | `GEOM`) (`1.1`)?
fn header(i: &str) -> PResult<'_, Processor> {
    let (rest, w) = match word(i) {
        Ok(r) => r,
        Err(_) => {
            return fail(
                i,
                format!("expected a header (FRAG, VERT or GEOM){}", found(i)),
            )
        }
    };
    let upper = w.to_ascii_uppercase();
    let (name, version) = upper.split_at(upper.len().min(4));
    let processor = match name {
        "FRAG" => Processor::Fragment,
        "VERT" => Processor::Vertex,
        "GEOM" => Processor::Geometry,
        _ => {
            return fail(
                i,
                format!("expected a header (FRAG, VERT or GEOM), found `{w}`"),
            )
        }
    };
    let rest = match version {
        "" => rest,
        "1" if rest.starts_with(".1")
            && !rest[2..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '.') =>
        {
            &rest[2..]
        }
        _ => {
            return fail(
                &i[4..],
                format!(
                    "unsupported header `{}`; expected `{name}` or `{name}1.1`",
                    header_text(i)
                ),
            )
        }
    };
    let (rest, _) = end_of_statement(rest)?;
    Ok((rest, processor))
}

/// The header word with its version, for messages.
fn header_text(i: &str) -> &str {
    let n = i
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_'))
        .unwrap_or(i.len());
    &i[..n]
}

/// One declaration bracket: `[]` (None), `[a]` or `[a..b]`.
fn decl_bracket(i: &str) -> PResult<'_, Option<(i32, i32)>> {
    let (i, _) = expect('[', i)?;
    let (i, _) = sp(i)?;
    if let Some(rest) = i.strip_prefix(']') {
        return Ok((rest, None));
    }
    let (rest, first) = decl_index(i)?;
    let (rest, _) = sp(rest)?;
    let (rest, last) = match rest.strip_prefix("..") {
        Some(r) => {
            let (r, _) = sp(r)?;
            let at = r;
            let (r, last) = decl_index(r)?;
            if last < first {
                return fail(at, format!("range `{first}..{last}` ends before it starts"));
            }
            let (r, _) = sp(r)?;
            (r, last)
        }
        None => (rest, first),
    };
    let (rest, _) = expect(']', rest)?;
    Ok((rest, Some((first, last))))
}

fn decl_index(i: &str) -> PResult<'_, i32> {
    match index(i) {
        Err(nom::Err::Error(_)) => fail(i, format!("expected an index{}", found(i))),
        r => r,
    }
}

/// `[n]` after a semantic name (0 when absent).
fn semantic_index(i: &str) -> PResult<'_, u32> {
    let Some(rest) = i.strip_prefix('[') else {
        return Ok((i, 0));
    };
    let (at, _) = sp(rest)?;
    let (rest, n) = match uint(at) {
        Ok(r) => r,
        Err(nom::Err::Error(_)) => {
            return fail(at, format!("expected a semantic index{}", found(at)))
        }
        Err(e) => return Err(e),
    };
    if n > 0xFFFF {
        return fail(at, format!("semantic index {n} is larger than 65535"));
    }
    let (rest, _) = sp(rest)?;
    let (rest, _) = expect(']', rest)?;
    Ok((rest, n))
}

/// `{ {a, b, c, d}, ... }`: IMMX data, four FLT32 values per row.
fn array_data(i: &str) -> PResult<'_, Vec<[u32; 4]>> {
    let (mut i, _) = expect('{', i)?;
    let mut rows = Vec::new();
    loop {
        let (at, _) = ws(i)?;
        let (rest, v) = value_list(at, ImmType::Float32, 4)?;
        rows.push([v[0], v[1], v[2], v[3]]);
        let (rest, _) = ws(rest)?;
        match rest.strip_prefix(',') {
            Some(r) => i = r,
            None => {
                let (rest, _) = expect('}', rest)?;
                return Ok((rest, rows));
            }
        }
    }
}

/// `{ v, v, ... }` with `min..=4` values of one type.
fn value_list(i: &str, ty: ImmType, min: usize) -> PResult<'_, Vec<u32>> {
    let (mut i, _) = expect('{', i)?;
    let mut values = Vec::new();
    loop {
        let (at, _) = ws(i)?;
        if values.is_empty() && at.starts_with('}') {
            return fail(at, "expected a value: an immediate holds 1 to 4 values");
        }
        let (rest, text) = match number_text(at) {
            Ok(r) => r,
            Err(nom::Err::Error(_)) => return fail(at, format!("expected a number{}", found(at))),
            Err(e) => return Err(e),
        };
        let parsed = match ty {
            ImmType::Float32 => parse_f32(text),
            ImmType::Int32 => parse_i32(text),
            ImmType::Uint32 => parse_u32(text),
        };
        match parsed {
            Ok(v) => values.push(v),
            Err(e) => return fail(at, e.to_string()),
        }
        if values.len() > 4 {
            return fail(at, "too many values: at most 4");
        }
        let (rest, _) = ws(rest)?;
        match rest.strip_prefix(',') {
            Some(r) => i = r,
            None => {
                if values.len() < min {
                    return fail(
                        rest,
                        format!("expected {min} values, found {}", values.len()),
                    );
                }
                let (rest, _) = expect('}', rest)?;
                return Ok((rest, values));
            }
        }
    }
}

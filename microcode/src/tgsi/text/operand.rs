//! Operands: registers (with indirect and 2-D addressing), destinations, condition tests and source
//! operands with every modifier (`decisions.md` section 3).

use super::error::{fail, PResult};
use super::lexer::{expect, found, index, sp, uint, word};
use crate::tgsi::ir::*;

/// Component letter (case-insensitive) to selector.
pub(crate) fn component(c: char) -> Option<Swz> {
    match c.to_ascii_lowercase() {
        'x' => Some(0),
        'y' => Some(1),
        'z' => Some(2),
        'w' => Some(3),
        _ => None,
    }
}

/// The component letters at the start of `i` (possibly none).
fn letters(i: &str) -> (&str, &str) {
    let n = i.find(|c: char| component(c).is_none()).unwrap_or(i.len());
    (&i[n..], &i[..n])
}

/// `FILE` as a register file name.
fn file(i: &str) -> PResult<'_, File> {
    let (rest, name) = match word(i) {
        Ok(r) => r,
        Err(_) => return fail(i, format!("expected a register{}", found(i))),
    };
    match File::from_name(name) {
        Some(f) => Ok((rest, f)),
        None => fail(i, format!("unknown register file `{name}`")),
    }
}

/// The inside of one operand bracket: `3`, `-1`, `ADDR[0].x`, `ADDR[0].x+3`, `ADDR[0].x - 3`.
fn bracket(i: &str) -> PResult<'_, (i32, Option<Indirect>)> {
    let (i, _) = expect('[', i)?;
    let (i, _) = sp(i)?;
    if !i.starts_with(|c: char| c.is_ascii_alphabetic()) {
        let (i, n) = match index(i) {
            Ok(r) => r,
            Err(nom::Err::Error(_)) => return fail(i, format!("expected an index{}", found(i))),
            Err(e) => return Err(e),
        };
        let (i, _) = sp(i)?;
        let (i, _) = expect(']', i)?;
        return Ok((i, (n, None)));
    }
    let (i, f) = file(i)?;
    let (i, _) = expect('[', i)?;
    let (i, _) = sp(i)?;
    let (i, reg) = match index(i) {
        Ok(r) => r,
        Err(nom::Err::Error(_)) => return fail(i, format!("expected an index{}", found(i))),
        Err(e) => return Err(e),
    };
    let (i, _) = sp(i)?;
    let (i, _) = expect(']', i)?;
    let (i, _) = expect('.', i)?;
    let Some(comp) = i.chars().next().and_then(component) else {
        return fail(
            i,
            format!("expected a component letter x, y, z or w{}", found(i)),
        );
    };
    let i = &i[1..];
    let indirect = Indirect {
        file: f,
        index: reg,
        component: comp,
    };
    let (i, _) = sp(i)?;
    let (i, offset) = match i.chars().next() {
        Some(sign @ ('+' | '-')) => {
            let (j, _) = sp(&i[1..])?;
            let (k, n) = match uint(j) {
                Ok(r) => r,
                Err(nom::Err::Error(_)) => {
                    return fail(j, format!("expected an offset{}", found(j)))
                }
                Err(e) => return Err(e),
            };
            let v = if sign == '-' {
                -i64::from(n)
            } else {
                i64::from(n)
            };
            if !(i64::from(i16::MIN)..=i64::from(i16::MAX)).contains(&v) {
                return fail(
                    j,
                    format!("offset `{sign}{n}` is outside the signed 16-bit range"),
                );
            }
            (k, v as i32)
        }
        _ => (i, 0),
    };
    let (i, _) = sp(i)?;
    let (i, _) = expect(']', i)?;
    Ok((i, (offset, Some(indirect))))
}

/// `FILE[i]`, `FILE[ADDR[0].x+3]`, `FILE[a][b]` (the second bracket is the dimension).
pub(crate) fn register(i: &str) -> PResult<'_, Register> {
    let (i, f) = file(i)?;
    let (i, (idx, indirect)) = bracket(i)?;
    let mut reg = Register {
        file: f,
        index: idx,
        indirect,
        dimension: None,
    };
    if i.starts_with('[') {
        let (rest, (d, dind)) = bracket(i)?;
        reg.dimension = Some(Dimension {
            index: d,
            indirect: dind,
        });
        return Ok((rest, reg));
    }
    Ok((i, reg))
}

/// A write or usage mask after its `.`: letters in xyzw order, each at most once.
pub(crate) fn mask(i: &str) -> PResult<'_, u8> {
    let (rest, l) = letters(i);
    if l.is_empty() {
        return fail(i, format!("expected mask letters (x, y, z, w){}", found(i)));
    }
    let mut m = 0u8;
    let mut last: Option<Swz> = None;
    for (k, c) in l.char_indices() {
        let s = component(c).unwrap_or(0);
        if last.is_some_and(|p| s <= p) {
            return fail(
                &i[k..],
                "mask letters must be in xyzw order, each at most once",
            );
        }
        last = Some(s);
        m |= 1 << s;
    }
    Ok((rest, m))
}

/// A swizzle after its `.`: one letter (replicated) or four.
fn swizzle(i: &str) -> PResult<'_, [Swz; 4]> {
    let (rest, l) = letters(i);
    let s: Vec<Swz> = l.chars().filter_map(component).collect();
    match s.len() {
        1 => Ok((rest, [s[0]; 4])),
        4 => Ok((rest, [s[0], s[1], s[2], s[3]])),
        0 => fail(
            i,
            format!("expected swizzle letters (x, y, z, w){}", found(i)),
        ),
        n => fail(i, format!("a swizzle has 1 or 4 letters, found {n}")),
    }
}

/// A condition test in parentheses: `(GT)`, `(GT1)`, `(EQ.x)`, `(NE1.xyzw)`.
pub(crate) fn cond_test(i: &str) -> PResult<'_, CondTest> {
    let (i, _) = expect('(', i)?;
    let (i, _) = sp(i)?;
    let (rest, w) = match word(i) {
        Ok(r) => r,
        Err(_) => return fail(i, format!("expected a condition (GT, EQ, ...){}", found(i))),
    };
    let split = w
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(w.len());
    let (name, digits) = w.split_at(split);
    let Some(mask) = CondMask::ALL
        .iter()
        .copied()
        .find(|m| m.name().eq_ignore_ascii_case(name))
    else {
        return fail(
            i,
            format!("unknown condition `{name}`; expected GT, EQ, LT, GE, LE, NE, TR or FL"),
        );
    };
    let cc_index = if digits.is_empty() {
        0
    } else {
        match digits.parse::<u8>() {
            Ok(v) => v,
            Err(_) => {
                return fail(
                    &i[split..],
                    format!("invalid condition-code register `{digits}`"),
                )
            }
        }
    };
    let (i, swz) = match rest.strip_prefix('.') {
        Some(s) => swizzle(s)?,
        None => (rest, [0, 1, 2, 3]),
    };
    let (i, _) = sp(i)?;
    let (i, _) = expect(')', i)?;
    Ok((
        i,
        CondTest {
            mask,
            index: cc_index,
            swizzle: swz,
        },
    ))
}

/// A destination: register, write mask, MODULATE suffix, condition test.
pub(crate) fn dst_operand(i: &str) -> PResult<'_, DstOperand> {
    let (mut i, reg) = register(i)?;
    let mut d = DstOperand::new(reg);
    if let Some(rest) = i.strip_prefix('.') {
        (i, d.write_mask) = mask(rest)?;
    }
    if i.starts_with('_') {
        let (rest, w) = word(i)?;
        d.modulate = match w.to_ascii_uppercase().as_str() {
            "_X2" => Modulate::X2,
            "_X4" => Modulate::X4,
            "_X8" => Modulate::X8,
            "_D2" => Modulate::Half,
            "_D4" => Modulate::Quarter,
            "_D8" => Modulate::Eighth,
            _ => {
                return fail(
                    i,
                    format!(
                        "unknown destination scale `{w}`; expected _X2, _X4, _X8, _D2, _D4 or _D8"
                    ),
                )
            }
        };
        i = rest;
    }
    let (rest, _) = sp(i)?;
    if rest.starts_with('(') {
        let (rest, c) = cond_test(rest)?;
        d.cond = Some(c);
        i = rest;
    }
    Ok((i, d))
}

/// Source modifier forms, innermost (rank 0) to outermost; each may only wrap lower ranks.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Form {
    Plain = 0,
    Complement = 1,
    Bias = 2,
    Scale = 3,
    Absolute = 4,
    Negate = 5,
}

impl Form {
    fn spelling(self) -> &'static str {
        match self {
            Form::Plain => "a register",
            Form::Complement => "`1-(x)`",
            Form::Bias => "`(x)-0.5`",
            Form::Scale => "`2*(x)`",
            Form::Absolute => "`|x|`",
            Form::Negate => "`-(x)`",
        }
    }
}

const NESTING: &str =
    "source modifiers nest outermost first as -( | 2*( ( 1-( -REG ) ) - 0.5 ) | ), each at most once";

/// A source operand, then an optional `/w` ExtDivide suffix.
pub(crate) fn src_operand(i: &str) -> PResult<'_, SrcOperand> {
    let (i, (mut s, _)) = modified(i, None)?;
    let Some(rest) = i.strip_prefix('/') else {
        return Ok((i, s));
    };
    let divide = match rest.chars().next().map(|c| c.to_ascii_lowercase()) {
        Some('x') => ExtSel::X,
        Some('y') => ExtSel::Y,
        Some('z') => ExtSel::Z,
        Some('w') => ExtSel::W,
        Some('0') => ExtSel::Zero,
        Some('1') => ExtSel::One,
        _ => {
            return fail(
                rest,
                format!("expected a divide component (`/w`){}", found(rest)),
            )
        }
    };
    s.ext_swizzle.get_or_insert_with(ExtSwizzle::default).divide = divide;
    Ok((&rest[1..], s))
}

/// Checks that a form may appear inside `outer` (strictly lower rank).
fn allowed<'a>(at: &'a str, form: Form, outer: Option<Form>) -> PResult<'a, ()> {
    match outer {
        Some(o) if form >= o => fail(
            at,
            format!(
                "{} cannot appear inside {}: {NESTING}",
                form.spelling(),
                o.spelling()
            ),
        ),
        _ => Ok((at, ())),
    }
}

/// Parses one modifier level inside `outer` (the enclosing form, if any), which only lower-ranked
/// forms may appear in.
fn modified(i: &str, outer: Option<Form>) -> PResult<'_, (SrcOperand, Form)> {
    let (i, _) = sp(i)?;
    let start = i;
    let after_minus = i
        .strip_prefix('-')
        .map(|r| sp(r).map(|(r, _)| r))
        .transpose()?;
    if let Some(r) = after_minus {
        if let Some(r) = r.strip_prefix('(') {
            allowed(start, Form::Negate, outer)?;
            let (r, (mut s, _)) = modified(r, Some(Form::Negate))?;
            let (r, _) = sp(r)?;
            let (r, _) = expect(')', r)?;
            s.ext_mod.negate = true;
            return Ok((r, (s, Form::Negate)));
        }
        if let Some(r) = r.strip_prefix('|') {
            allowed(start, Form::Negate, outer)?;
            let (r, (mut s, _)) = modified(r, Some(Form::Absolute))?;
            let (r, _) = sp(r)?;
            let (r, _) = expect('|', r)?;
            s.ext_mod.negate = true;
            s.ext_mod.absolute = true;
            return Ok((r, (s, Form::Negate)));
        }
    }
    if let Some(r) = i.strip_prefix('|') {
        allowed(start, Form::Absolute, outer)?;
        let (r, (mut s, _)) = modified(r, Some(Form::Absolute))?;
        let (r, _) = sp(r)?;
        let (r, _) = expect('|', r)?;
        s.ext_mod.absolute = true;
        return Ok((r, (s, Form::Absolute)));
    }
    if let Some(r) = i.strip_prefix('(') {
        allowed(start, Form::Bias, outer)?;
        let (r, (mut s, _)) = modified(r, Some(Form::Bias))?;
        let (r, _) = sp(r)?;
        let (r, _) = expect(')', r)?;
        let (r, _) = sp(r)?;
        let (r, _) = expect('-', r)?;
        let (r, _) = sp(r)?;
        let Some(r) = r.strip_prefix("0.5") else {
            return fail(
                r,
                format!("expected `0.5` (the bias form is `(x)-0.5`){}", found(r)),
            );
        };
        s.ext_mod.bias = true;
        return Ok((r, (s, Form::Bias)));
    }
    if i.starts_with(|c: char| c.is_ascii_digit()) {
        let (r, lead) = number_lead(i);
        let (form, op) = match lead {
            "1" | "1.0" => (Form::Complement, '-'),
            "2" | "2.0" => (Form::Scale, '*'),
            _ => {
                return fail(
                    i,
                    format!("expected a register or a modifier `1-(x)` / `2*(x)`, found `{lead}`"),
                )
            }
        };
        let (r, _) = sp(r)?;
        let (r, _) = expect(op, r)?;
        let (r, _) = sp(r)?;
        let (r, _) = expect('(', r)?;
        allowed(start, form, outer)?;
        let (r, (mut s, _)) = modified(r, Some(form))?;
        let (r, _) = sp(r)?;
        let (r, _) = expect(')', r)?;
        if form == Form::Complement {
            s.ext_mod.complement = true;
        } else {
            s.ext_mod.scale2x = true;
        }
        return Ok((r, (s, form)));
    }
    let (i, s) = plain(i)?;
    Ok((i, (s, Form::Plain)))
}

/// The digits and dots at the start of `i`.
fn number_lead(i: &str) -> (&str, &str) {
    let n = i
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(i.len());
    (&i[n..], &i[..n])
}

/// `[-]REG[.swizzle][{ext swizzle}]`.
fn plain(i: &str) -> PResult<'_, SrcOperand> {
    let (i, negate) = match i.strip_prefix('-') {
        Some(r) => (sp(r)?.0, true),
        None => (i, false),
    };
    let (mut i, reg) = register(i)?;
    let mut s = SrcOperand::new(reg);
    s.negate = negate;
    if let Some(r) = i.strip_prefix('.') {
        (i, s.swizzle) = swizzle(r)?;
    }
    if i.starts_with('{') {
        let (r, e) = ext_swizzle(i)?;
        s.ext_swizzle = Some(e);
        i = r;
    }
    Ok((i, s))
}

/// `{x,-y,0,1}`: four selectors, each optionally negated.
fn ext_swizzle(i: &str) -> PResult<'_, ExtSwizzle> {
    let (mut i, _) = expect('{', i)?;
    let mut e = ExtSwizzle::default();
    for k in 0..4 {
        if k > 0 {
            let (r, _) = sp(i)?;
            (i, _) = expect(',', r)?;
        }
        let (r, _) = sp(i)?;
        let (r, neg) = match r.strip_prefix('-') {
            Some(r) => (sp(r)?.0, true),
            None => (r, false),
        };
        let sel = match r.chars().next().map(|c| c.to_ascii_lowercase()) {
            Some('x') => ExtSel::X,
            Some('y') => ExtSel::Y,
            Some('z') => ExtSel::Z,
            Some('w') => ExtSel::W,
            Some('0') => ExtSel::Zero,
            Some('1') => ExtSel::One,
            _ => {
                return fail(
                    r,
                    format!(
                        "expected an extended swizzle selector (x, y, z, w, 0 or 1){}",
                        found(r)
                    ),
                )
            }
        };
        e.select[k] = sel;
        e.negate[k] = neg;
        i = &r[1..];
    }
    let (i, _) = sp(i)?;
    if i.starts_with(',') {
        return fail(i, "an extended swizzle has exactly 4 selectors");
    }
    let (i, _) = expect('}', i)?;
    Ok((i, e))
}

//! Text -> instructions: the assembler, the inverse of [`super::disasm`].
//!
//! It reads exactly the syntax [`super::disasm::instr_text`] prints (see that module), so a
//! listing can be read back into the instructions it shows: `instr(&instr_text(&i)) == i` for
//! every instruction whose fields the text shows, which is every field the core reads for that
//! operation. Listings (`tgsi-core compile --listing`, [`super::disasm::listing`]) are read by
//! [`listing`], which skips comments and checks the addresses.

use super::isa::{Cond, DstKind, Instr, Op, Operand, SrcFile, DOP_SECOND, OPS, TARGET_BITS};
use thiserror::Error;

/// Text that is not an instruction, with where.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("line {line}: {message}: `{text}`")]
pub struct AsmError {
    /// 1-based line of the listing (1 for a single instruction).
    pub line: usize,
    /// What is wrong.
    pub message: String,
    /// The offending text.
    pub text: String,
}

fn err(message: impl Into<String>, text: &str) -> AsmError {
    AsmError {
        line: 1,
        message: message.into(),
        text: text.to_string(),
    }
}

/// A write mask, `xy_w` style (a letter per enabled component, `_` for a disabled one).
fn mask(t: &str) -> Result<u8, AsmError> {
    let b = t.as_bytes();
    if b.len() != 4 {
        return Err(err("a mask has four letters", t));
    }
    let mut m = 0;
    for (c, &ch) in b.iter().enumerate() {
        match ch {
            b'_' => {}
            _ if ch == b"xyzw"[c] => m |= 1 << c,
            _ => return Err(err("mask letters are x y z w in order, or _", t)),
        }
    }
    Ok(m)
}

/// One operand: `[-]` then `[|]F<index>.<swizzle>[|]` then `[.neg(mask)]`.
pub fn operand(text: &str) -> Result<Operand, AsmError> {
    let t = text.trim();
    let (all_neg, t) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let (t, neg_mask) = match t.strip_suffix(')').and_then(|r| r.rsplit_once(".neg(")) {
        Some((body, m)) if !all_neg => (body, mask(m)?),
        Some(_) => return Err(err("`-` and `.neg(...)` together", text)),
        None => (t, if all_neg { 0xF } else { 0 }),
    };
    let (abs, t) = match t.strip_prefix('|').and_then(|r| r.strip_suffix('|')) {
        Some(inner) => (true, inner),
        None => (false, t),
    };
    let mut chars = t.chars();
    let file = match chars.next() {
        Some('R') => SrcFile::R,
        Some('K') => SrcFile::K,
        Some('L') => SrcFile::L,
        _ => return Err(err("an operand's file is R, K or L", text)),
    };
    let (index, swz) = chars
        .as_str()
        .split_once('.')
        .ok_or_else(|| err("an operand is FILE<index>.<swizzle>", text))?;
    let index: u8 = index
        .parse()
        .map_err(|_| err("an operand's index is 0 to 255", text))?;
    let sel = swz.as_bytes();
    if sel.len() != 4 {
        return Err(err("a swizzle has four selectors", text));
    }
    let mut s = [0u8; 4];
    for (c, &ch) in sel.iter().enumerate() {
        s[c] = match ch {
            b'x' => 0,
            b'y' => 1,
            b'z' => 2,
            b'w' => 3,
            b'0' => 4,
            b'1' => 5,
            _ => return Err(err("swizzle selectors are x y z w 0 1", text)),
        };
    }
    Ok(Operand {
        file,
        index,
        swz: s,
        neg: neg_mask,
        abs,
    })
}

fn number<T: std::str::FromStr>(t: &str, what: &str) -> Result<T, AsmError> {
    t.trim()
        .parse()
        .map_err(|_| err(format!("{what} is not a number in range"), t))
}

/// One instruction in the disassembler's syntax (no address, no comment).
pub fn instr(text: &str) -> Result<Instr, AsmError> {
    let t = text.trim();
    let (head, mut rest) = t.split_once(' ').unwrap_or((t, ""));
    let mut suffixes = head.split('.');
    let mnemonic = suffixes.next().unwrap_or_default();
    let info = OPS
        .iter()
        .find(|r| r.mnemonic == mnemonic)
        .ok_or_else(|| err(format!("unknown operation `{mnemonic}`"), text))?;
    let mut i = Instr::new(info.op);
    for s in suffixes {
        match s {
            "sat" => i.sat = 1,
            "satnv" => i.sat = 2,
            _ if matches!(i.op, Op::Set | Op::Setp) => {
                i.cond = Cond::ALL
                    .into_iter()
                    .find(|c| c.name() == s)
                    .ok_or_else(|| err(format!("unknown condition `{s}`"), text))?;
            }
            _ => return Err(err(format!("unknown suffix `.{s}`"), text)),
        }
    }
    // The trailing fields, last first: a double opcode's name, SAMP[n], `-> target`.
    if i.op == Op::Dop {
        let (before, name) = rest.rsplit_once(' ').unwrap_or(("", rest));
        let (name, second) = match name.strip_suffix(".1") {
            Some(n) => (n, true),
            None => (name, false),
        };
        let n = match name.strip_prefix('#') {
            Some(n) => number::<u8>(n, "a double opcode's number")?,
            None => crate::tgsi::Opcode::from_mnemonic(name)
                .ok_or_else(|| err(format!("unknown double opcode `{name}`"), text))?
                as u8,
        };
        i.target = u16::from(n) | if second { DOP_SECOND } else { 0 };
        rest = before;
    }
    if matches!(i.op, Op::Movr | Op::Movw) {
        let (before, n) = rest
            .rsplit_once(" offset ")
            .ok_or_else(|| err(format!("{mnemonic} ends with `offset N`"), text))?;
        let n: i32 = number(n, "an offset")?;
        let half = 1i32 << (TARGET_BITS - 1);
        if !(-half..half).contains(&n) {
            return Err(err(format!("an offset is {} to {}", -half, half - 1), text));
        }
        i.set_offset(n);
        rest = before;
    }
    if let Some((before, samp)) = rest.rsplit_once("SAMP[") {
        let n = samp
            .strip_suffix(']')
            .ok_or_else(|| err("SAMP[n] is closed by `]`", text))?;
        i.target = number(n, "a sampler")?;
        rest = before.trim_end();
    }
    if let Some((before, target)) = rest.rsplit_once("->") {
        i.target = number(target, "a branch target")?;
        rest = before.trim_end();
    }
    let mut parts = rest.split(", ").map(str::trim).filter(|p| !p.is_empty());
    let pred_mask = matches!(info.dst, DstKind::Pred)
        || (info.dst == DstKind::None && matches!(i.op, Op::Kilp | Op::If));
    if info.dst == DstKind::Reg {
        let d = parts
            .next()
            .ok_or_else(|| err("a destination register is missing", text))?;
        let (pw, d) = if let Some(d) = d.strip_prefix("(P) ") {
            (1, d)
        } else if let Some(d) = d.strip_prefix("(!P) ") {
            (2, d)
        } else {
            (0, d)
        };
        let (r, m) = d
            .strip_prefix('R')
            .and_then(|d| d.split_once('.'))
            .ok_or_else(|| err("a destination is R<index>.<mask>", d))?;
        i.pw = pw;
        i.dst = number(r, "a destination register")?;
        i.wmask = mask(m)?;
    } else if pred_mask {
        let d = parts
            .next()
            .ok_or_else(|| err("a predicate mask P.<mask> is missing", text))?;
        let m = d
            .strip_prefix("P.")
            .ok_or_else(|| err("a predicate operand is P.<mask>", d))?;
        i.wmask = mask(m)?;
    }
    for k in 0..usize::from(info.sources) {
        let o = parts
            .next()
            .ok_or_else(|| err(format!("{mnemonic} takes {} sources", info.sources), text))?;
        i.src[k] = operand(o)?;
    }
    if let Some(extra) = parts.next() {
        return Err(err(format!("more operands than {mnemonic} takes"), extra));
    }
    Ok(i)
}

/// The instructions of a listing: lines `ADDR: INSTRUCTION [; comment]` in address order from 0;
/// blank lines and `;` comment lines are skipped.
pub fn listing(text: &str) -> Result<Vec<Instr>, AsmError> {
    let mut code = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let at = |e: AsmError| AsmError { line: n + 1, ..e };
        let body = line.split(';').next().unwrap_or_default().trim();
        if body.is_empty() {
            continue;
        }
        let (addr, inst) = body
            .split_once(':')
            .ok_or_else(|| at(err("an instruction line is `ADDR: INSTRUCTION`", line)))?;
        let addr: usize = number(addr, "an address").map_err(at)?;
        if addr != code.len() {
            return Err(at(err(format!("address {} expected", code.len()), line)));
        }
        code.push(instr(inst).map_err(at)?);
    }
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::disasm::instr_text;

    #[test]
    fn reads_what_the_disassembler_prints() {
        // (`disasm`'s own test reads its examples back too.)
        let mut m = Instr::new(Op::Fmad);
        m.sat = 1;
        m.pw = 2;
        m.dst = 7;
        m.wmask = 0b1010;
        m.src[1].neg = 0b0101;
        m.src[2].swz = [4, 5, 4, 5];
        m.src[0].file = SrcFile::K;
        m.src[0].index = 12;
        assert_eq!(
            instr("FMAD.sat (!P) R7._y_w, K12.xyzw, L0.xyzw.neg(x_z_), L0.0101"),
            Ok(m)
        );
        assert_eq!(instr(&instr_text(&m)), Ok(m));
        let mut r = Instr::new(Op::Movr);
        r.set_offset(-3);
        r.src[1].file = SrcFile::R;
        assert_eq!(r.offset(), -3);
        let text = instr_text(&r);
        assert!(text.ends_with(" offset -3"), "{text}");
        assert_eq!(instr(&text), Ok(r));
        assert!(instr("MOVR R0.xyzw, L0.xyzw, R0.xyzw, L0.xyzw offset 512").is_err());
    }

    #[test]
    fn refuses_what_it_cannot_read() {
        for bad in [
            "FMAD R1.xyzw, R0.xyzw, R0.xyzw",
            "FMAD R1.xyz, R0.xyzw, R0.xyzw, R0.xyzw",
            "NOPE R1.xyzw",
            "FMAD R1.xyzw, Q0.xyzw, R0.xyzw, R0.xyzw",
            "FMAD R1.xyzw, R0.xyzq, R0.xyzw, R0.xyzw",
            "FMAD R1.xyzw, R300.xyzw, R0.xyzw, R0.xyzw",
            "FMAD R1.xyzw, R0.xyzw, R0.xyzw, R0.xyzw, R0.xyzw",
            "SET.XX R1.xyzw, R0.xyzw, R0.xyzw",
        ] {
            assert!(instr(bad).is_err(), "{bad}");
        }
        let e = listing("; header\n   0: END\n   2: END\n").unwrap_err();
        assert_eq!(e.line, 3);
    }

    /// Mangled text (characters dropped, repeated or replaced at random) is refused or read,
    /// never a panic.
    #[test]
    fn mangled_text_never_panics() {
        let texts = [
            "FMAD.sat (!P) R7._y_w, K12.xyzw, L0.xyzw.neg(x_z_), L0.0101",
            "SETP.NE P.x___, -|R3.xxxx|, L0.xyzw",
            "MOVR R5.xyzw, K0.xyzw, R4.xxxx, L5.xyzw offset -3",
            "IF P.x___ -> 12",
            "TFET R1.xyzw, R2.xyzw, K3.xxxx SAMP[1]",
            "DOP R1.xyzw, R2.xyzw, R3.xyzw, L0.xyzw DFRACEXP.1",
        ];
        let mut rng = crate::rng::XorShift::new(0x2545_F491_4F6C_DD1D);
        let mut next = move |n: usize| rng.below(n);
        for t in texts {
            assert!(instr(t).is_ok(), "{t}");
        }
        let alphabet: Vec<char> = " ,.-|()_->[]#RKLPxyzw01!?é9".chars().collect();
        for _ in 0..20_000 {
            let mut t: Vec<char> = texts[next(texts.len())].chars().collect();
            for _ in 0..1 + next(4) {
                let at = next(t.len() + 1);
                match next(3) {
                    0 if at < t.len() => {
                        t.remove(at);
                    }
                    1 => t.insert(at, alphabet[next(alphabet.len())]),
                    _ if at < t.len() => t[at] = alphabet[next(alphabet.len())],
                    _ => {}
                }
            }
            let text: String = t.into_iter().collect();
            let _ = instr(&text);
            let _ = listing(&format!("   0: {text}\n"));
        }
    }
}

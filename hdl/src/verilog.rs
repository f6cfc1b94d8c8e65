//! Post-processing of the Verilog rust-hdl emits (not a hardware block).
//!
//! rust-hdl writes one module per instance: a block with sixteen identical shader cores
//! (`cores: Vec<ShaderCore>`) comes out as sixteen copies of every module of the core
//! (`top$cores$0`, `top$cores$0$dec`, ..., `top$cores$15$dec`), which Verilator and yosys then
//! read and compile sixteen times. [`share_identical_instances`] keeps one copy of each module
//! and points the other instances at it, where the copies are identical but for their names.

/// `verilog` with the modules of the instances `FIELD$k` (k >= 1) of a vector field `field`
/// that equal instance 0's modules (once their own names are made instance 0's) removed, and
/// every instantiation of a removed module naming instance 0's instead. Modules that differ
/// stay as they are; the design is unchanged.
pub fn share_identical_instances(verilog: &str, field: &str) -> String {
    let marker = format!("${field}$");
    let modules = split_modules(verilog);
    // Instance 0's modules by name, and every module's canonical form.
    let originals: std::collections::HashMap<String, &str> = modules
        .iter()
        .filter_map(|m| match m {
            Piece::Module { name, text } => Some((name.clone(), *text)),
            Piece::Other(_) => None,
        })
        .collect();
    // An instance is shared only when every one of its modules equals instance 0's (a parent
    // names its children, so one differing child keeps the whole instance).
    let mut differs = std::collections::HashSet::new();
    for m in &modules {
        if let Piece::Module { name, text } = m {
            if let Some(k) = instance_of(name, &marker).filter(|&k| k != 0) {
                let same = originals.get(&canonical(name, &marker, k)).copied()
                    == Some(canonical(text, &marker, k).as_str());
                if !same {
                    differs.insert(k);
                }
            }
        }
    }
    let mut kept = Vec::with_capacity(modules.len());
    let mut dropped: Vec<(String, String)> = Vec::new();
    for m in &modules {
        match m {
            Piece::Module { name, text } => match instance_of(name, &marker) {
                Some(k) if k != 0 && !differs.contains(&k) => {
                    dropped.push((name.clone(), canonical(name, &marker, k)));
                }
                _ => kept.push((*text).to_string()),
            },
            Piece::Other(t) => kept.push((*t).to_string()),
        }
    }
    // Longest names first, so that `x$cores$1$dec` is renamed before `x$cores$1` could be.
    dropped.sort_by_key(|(n, _)| std::cmp::Reverse(n.len()));
    let mut out = String::with_capacity(verilog.len());
    for text in kept {
        let mut t = text;
        if t.contains(&marker) {
            for (from, to) in &dropped {
                t = t.replace(&format!("{from} "), &format!("{to} "));
            }
        }
        out.push_str(&t);
    }
    out
}

enum Piece<'a> {
    Module { name: String, text: &'a str },
    Other(&'a str),
}

/// The text cut into modules (`module NAME(` ... the `endmodule` line) and what lies between.
fn split_modules(v: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = v;
    while let Some(start) = find_line_start(rest, "module ") {
        if start > 0 {
            out.push(Piece::Other(&rest[..start]));
        }
        let body = &rest[start..];
        let Some(end) = find_line_start(body, "endmodule") else {
            out.push(Piece::Other(body));
            return out;
        };
        let end = body[end..].find('\n').map_or(body.len(), |e| end + e + 1);
        let header = &body["module ".len()..];
        let name_end = header
            .find(|c: char| c == '(' || c.is_whitespace() || c == ';')
            .unwrap_or(header.len());
        out.push(Piece::Module {
            name: header[..name_end].to_string(),
            text: &body[..end],
        });
        rest = &body[end..];
    }
    if !rest.is_empty() {
        out.push(Piece::Other(rest));
    }
    out
}

/// The offset of the first line of `text` that starts with `what`.
fn find_line_start(text: &str, what: &str) -> Option<usize> {
    if text.starts_with(what) {
        return Some(0);
    }
    text.match_indices(&format!("\n{what}"))
        .next()
        .map(|(i, _)| i + 1)
}

/// The instance number after the first `marker` in a module name (`top$cores$3$dec`: 3).
fn instance_of(name: &str, marker: &str) -> Option<usize> {
    let at = name.find(marker)? + marker.len();
    let digits: String = name[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let next = name[at + digits.len()..].chars().next();
    if digits.is_empty() || !matches!(next, None | Some('$')) {
        return None;
    }
    digits.parse().ok()
}

/// `text` with every `MARKERk` not followed by another digit written `MARKER0`.
fn canonical(text: &str, marker: &str, k: usize) -> String {
    let from = format!("{marker}{k}");
    let to = format!("{marker}0");
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(&from) {
        let after = &rest[i + from.len()..];
        out.push_str(&rest[..i]);
        if after.starts_with(|c: char| c.is_ascii_digit()) {
            out.push_str(&from);
        } else {
            out.push_str(&to);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "\n\nmodule top(clock);\n    top$cores$0 cores$0(\n        .clock(cores$0$clock)\n    );\n    top$cores$1 cores$1(\n        .clock(cores$1$clock)\n    );\nendmodule // top\n\n\nmodule top$cores$0(clock);\n    top$cores$0$r r(.clock(clock));\nendmodule // top$cores$0\n\n\nmodule top$cores$0$r(clock);\n  reg q;\nendmodule // top$cores$0$r\n\n\nmodule top$cores$1(clock);\n    top$cores$1$r r(.clock(clock));\nendmodule // top$cores$1\n\n\nmodule top$cores$1$r(clock);\n  reg q;\nendmodule // top$cores$1$r\n";

    #[test]
    fn identical_instances_share_one_module() {
        let out = share_identical_instances(TWO, "cores");
        assert!(!out.contains("module top$cores$1"), "{out}");
        assert!(out.contains("top$cores$0 cores$1("), "{out}");
        assert!(out.contains("module top$cores$0$r(clock)"));
        assert_eq!(out.matches("\nmodule ").count(), 3, "{out}");
        // Signals of the instances keep their names.
        assert!(out.contains(".clock(cores$1$clock)"));
    }

    #[test]
    fn instances_that_differ_stay() {
        let differ = TWO.replacen(
            "module top$cores$1$r(clock);\n  reg q;",
            "module top$cores$1$r(clock);\n  reg p;",
            1,
        );
        let out = share_identical_instances(&differ, "cores");
        // The differing leaf stays, and so does its parent (which names it).
        assert!(
            out.contains("module top$cores$1$r(clock);\n  reg p;"),
            "{out}"
        );
        assert!(out.contains("module top$cores$1(clock)"), "{out}");
        assert!(out.contains("top$cores$1 cores$1("), "{out}");
    }

    #[test]
    fn instance_numbers_are_read_whole() {
        assert_eq!(instance_of("top$cores$12$dec", "$cores$"), Some(12));
        assert_eq!(instance_of("top$cores$1", "$cores$"), Some(1));
        assert_eq!(instance_of("top$cores$x", "$cores$"), None);
        assert_eq!(
            canonical("a$cores$1$b a$cores$10", "$cores$", 1),
            "a$cores$0$b a$cores$10"
        );
    }
}

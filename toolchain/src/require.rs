//! What a test does when something it needs is missing (a tool, `../shared/corpus`): under
//! `TGSI_REQUIRE_TOOLS=1` (which `cargo xtask test`, and so CI, sets) it fails, so that a
//! machine without the tools cannot pass having run none of the hardware checks; without it
//! (a plain `cargo test` on a machine without them) it prints a note and the test skips.

use std::fmt::Display;
use std::path::PathBuf;

/// The variable that turns a missing prerequisite into a failure.
pub const REQUIRE_TOOLS_VAR: &str = "TGSI_REQUIRE_TOOLS";

/// True when missing prerequisites must fail (`TGSI_REQUIRE_TOOLS` set to anything but `0` or
/// the empty string).
pub fn prerequisites_required() -> bool {
    std::env::var(REQUIRE_TOOLS_VAR).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// A test's prerequisite `what` is missing: panics when [`prerequisites_required`], else prints
/// a note that the check is skipped. The caller returns (skips) after it.
pub fn missing(what: impl Display) {
    report(prerequisites_required(), what)
}

fn report(required: bool, what: impl Display) {
    if required {
        panic!(
            "{what}\n({REQUIRE_TOOLS_VAR} is set, as `cargo xtask test` and CI set it: a missing \
             tool or corpus fails instead of skipping; `cargo xtask setup` installs the tools, \
             the corpus is `../shared/corpus` beside the workspace)"
        );
    }
    eprintln!("note: {what}; skipping (set {REQUIRE_TOOLS_VAR}=1 to make this a failure)");
}

/// `Some(value)`, or `None` after [`missing`] reported the error.
pub fn or_missing<T, E: Display>(found: Result<T, E>) -> Option<T> {
    match found {
        Ok(v) => Some(v),
        Err(e) => {
            missing(e);
            None
        }
    }
}

/// `../shared/corpus` beside the workspace: Mesa's test programs, which the corpus tests read.
pub fn corpus_dir() -> Result<PathBuf, String> {
    let root = crate::workspace_root().ok_or("the workspace root is not found")?;
    let dir = root.join("..").join("shared").join("corpus");
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(format!("the corpus is not found at {}", dir.display()))
    }
}

/// [`corpus_dir`], or `None` after [`missing`] reported it.
pub fn corpus() -> Option<PathBuf> {
    or_missing(corpus_dir())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_prerequisite_fails_when_required_and_skips_otherwise() {
        let failed = std::panic::catch_unwind(|| report(true, "no verilator"));
        let message = failed.expect_err("required: a failure");
        let text = message
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default();
        assert!(text.starts_with("no verilator\n"), "{text}");
        assert!(text.contains(REQUIRE_TOOLS_VAR), "{text}");
        report(false, "no verilator");
        assert_eq!(or_missing::<u8, String>(Ok(3)), Some(3));
    }
}

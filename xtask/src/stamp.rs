//! The setup stamp: which requirements file the venv was installed from.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Context;
use toolchain::{Tool, ToolchainLayout};

/// The pinned requirements of a workspace.
pub fn requirements_file(root: &Path) -> PathBuf {
    root.join("toolchain").join("requirements.txt")
}

/// The stamp text for a requirements file: a hash of its bytes.
pub fn expected(requirements: &Path) -> anyhow::Result<String> {
    let bytes =
        fs::read(requirements).with_context(|| format!("reading {}", requirements.display()))?;
    Ok(format!("requirements-fnv1a64 {:016x}\n", fnv1a64(&bytes)))
}

/// FNV-1a: stable across Rust versions (unlike `DefaultHasher`), which a stamp on disk needs.
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The state of a toolchain directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// No complete venv: setup never finished there.
    Missing,
    /// Installed from other requirements than the current ones.
    Stale,
    /// Installed from the current requirements, every pinned tool present.
    Ready,
}

/// Compares the stamp of `layout` with `requirements` and checks the pinned tools are there.
pub fn state(layout: &ToolchainLayout, requirements: &Path) -> anyhow::Result<State> {
    let Ok(recorded) = fs::read_to_string(layout.stamp()) else {
        return Ok(State::Missing);
    };
    let lookup = toolchain::Lookup::empty().with_var(toolchain::TOOLCHAIN_DIR_VAR, &layout.dir);
    let tools_present = Tool::PINNED.iter().all(|&tool| lookup.find(tool).is_ok());
    if !tools_present {
        return Ok(State::Missing);
    }
    if recorded == expected(requirements)? {
        Ok(State::Ready)
    } else {
        Ok(State::Stale)
    }
}

/// Records that `layout` now holds the tools of `requirements`.
pub fn write(layout: &ToolchainLayout, requirements: &Path) -> anyhow::Result<()> {
    let text = expected(requirements)?;
    fs::write(layout.stamp(), text).with_context(|| format!("writing {}", layout.stamp().display()))
}

#[cfg(test)]
mod tests {
    use super::fnv1a64;

    #[test]
    fn fnv1a64_matches_published_vectors() {
        // Test vectors of the FNV reference (http://www.isthe.com/chongo/tech/comp/fnv/).
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }
}

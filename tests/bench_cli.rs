//! `tgsi-core bench` runs and reports the core's cost of a pipelined instruction: 16 slots
//! (4 lanes x 4 components) at one per clock.

use std::process::Command;

#[test]
fn bench_reports_clocks_per_class() {
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi-core"))
        .args(["bench", "--seconds", "0.01"])
        .output()
        .expect("tgsi-core runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let slots = microcode::core::isa::SLOTS;
    for class in ["MOV", "ADD", "MAD"] {
        let line = stdout
            .lines()
            .find(|l| l.trim_start().starts_with(class))
            .unwrap_or_else(|| panic!("no {class} line in {stdout}"));
        assert!(
            line.contains(&format!("{slots}.0 clocks (4.0 per fragment)")),
            "{line}"
        );
    }
    // Sampling classes: a trilinear 3D lookup and a cube lookup cost more than a bilinear 2D one,
    // which costs more than one pipelined instruction.
    let clocks = |class: &str| -> f64 {
        let line = stdout
            .lines()
            .find(|l| l.trim_start().starts_with(class))
            .unwrap_or_else(|| panic!("no {class} line in {stdout}"));
        line.trim_start()[class.len()..]
            .split_whitespace()
            .next()
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no clocks in {line}"))
    };
    let tex2d = clocks("TEX 2D");
    assert!(tex2d > f64::from(slots), "{stdout}");
    assert!(clocks("TEX 3D") > tex2d, "{stdout}");
    assert!(clocks("TEX CUBE") > tex2d, "{stdout}");
    // Double arithmetic is the binary64 library's integer sequences: thousands of clocks, the
    // shift-and-add product several times an addition.
    let dadd = clocks("DADD");
    assert!(dadd > 1000.0, "{stdout}");
    assert!(clocks("DMUL") > 2.0 * dadd, "{stdout}");
    assert!(stdout.contains("quads per second"), "{stdout}");
    assert!(
        stdout.contains("ms per 1,000 TGSI instructions"),
        "{stdout}"
    );
}

/// `bench --models` prints one row per shader of issue #21 with four positive rates and the
/// core's clocks per quad (the rings example loops: far more clocks than the one-line shaders).
#[test]
fn bench_models_reports_every_shader() {
    let corpus = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/corpus");
    let out = Command::new(env!("CARGO_BIN_EXE_tgsi-core"))
        .args(["bench", "--models", "--seconds", "0.01", "--corpus", corpus])
        .output()
        .expect("tgsi-core runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rate = |v: &str| -> f64 {
        let (n, scale) = match v.strip_suffix('M') {
            Some(n) => (n, 1e6),
            None => (v.strip_suffix('k').unwrap_or(v), 1e3),
        };
        n.parse::<f64>().map(|x| x * scale).unwrap_or(0.0)
    };
    let mut clocks = std::collections::BTreeMap::new();
    for shader in [
        "frag-dp4",
        "frag-mad",
        "frag-cmp",
        "frag-ex2",
        "frag-lrp",
        "frag-kil",
        "frag-rsq",
        "checker.tgsi",
        "rings.tgsi",
    ] {
        let line = stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(shader))
            .unwrap_or_else(|| panic!("no {shader} row in {stdout}"));
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields.len(), 6, "{line}");
        for f in &fields[1..5] {
            assert!(rate(f) > 0.0, "{line}");
        }
        clocks.insert(shader, fields[5].parse::<f64>().expect("clocks"));
    }
    assert!(
        clocks["rings.tgsi"] > 10.0 * clocks["frag-mad"],
        "{clocks:?}"
    );
}

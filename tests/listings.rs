//! Snapshot tests of the compiler's listings of the bundled examples (`examples/*.tgsi` for the
//! board's core, as `tgsi-core compile FILE -o OUT --listing` prints them): a change in the code
//! the compiler makes for them shows up as a diff against `tests/listings/NAME.lst` to review.
//! After an intended change, write the new snapshots with
//! `UPDATE_LISTINGS=1 cargo test --test listings` and review them with `git diff`.
//!
//! A snapshot is not trusted because the compiler wrote it: each is read back with the assembler
//! (`microcode::core::asm`) into an image whose 16x16 frame, run on the core model, must equal
//! the reference model's frame of the TGSI source pixel for pixel.

use microcode::compile::compile;
use microcode::core::{asm, CoreConfig};
use microcode::tgsi::text;
use sim::render::render_batch;
use sim::run_io::batch::{BatchInputs, BatchOutputs};
use sim::run_io::RunInputs;
use std::collections::BTreeMap;
use std::path::Path;

/// The inputs an example renders with: its texture and, for lit-sphere, the demo's constants.
fn inputs(root: &Path, name: &str) -> RunInputs {
    let mut inputs = RunInputs::default();
    let texture = match name {
        "lit-sphere" => Some("checker-8.png,bilinear"),
        "mirror-ball" => Some("sky-cube-4.png,cube,bilinear"),
        _ => None,
    };
    if let Some(t) = texture {
        let spec = format!("0={}/examples/{t}", root.display());
        sim::run_io::args::apply_textures(&mut inputs, &[spec]).expect("the texture loads");
    }
    if name == "lit-sphere" {
        for (k, v) in tgsi_core::demo::LIT_SPHERE_CONSTANTS.iter().enumerate() {
            inputs.constants.insert((0, k as u32), v.map(f32::to_bits));
        }
    }
    inputs
}

#[test]
fn example_listings_match_their_snapshots_and_render_like_the_reference_model() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let update = std::env::var_os("UPDATE_LISTINGS").is_some();
    let mut names: Vec<String> = std::fs::read_dir(root.join("examples"))
        .expect("examples/")
        .flatten()
        .filter_map(|e| {
            let p = e.path();
            (p.extension()? == "tgsi").then(|| p.file_stem()?.to_str().map(String::from))?
        })
        .collect();
    names.sort();
    assert!(names.len() >= 5, "{names:?}");
    let mut stale = Vec::new();
    for name in &names {
        let src = std::fs::read_to_string(root.join(format!("examples/{name}.tgsi"))).unwrap();
        let program = text::parse(&src).unwrap_or_else(|e| panic!("{name}: {e}"));
        let compiled = compile(&program, &CoreConfig::default()).expect("compiles for the board");
        let listing = compiled.listing(&program);
        let snapshot_path = root.join(format!("tests/listings/{name}.lst"));
        if update {
            std::fs::create_dir_all(snapshot_path.parent().unwrap()).unwrap();
            std::fs::write(&snapshot_path, &listing).unwrap();
        }
        let snapshot = std::fs::read_to_string(&snapshot_path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (write it with UPDATE_LISTINGS=1 cargo test --test listings)",
                snapshot_path.display()
            )
        });
        if snapshot != listing {
            let line = snapshot
                .lines()
                .zip(listing.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(snapshot.lines().count().min(listing.lines().count()));
            stale.push(format!(
                "{name}: the listing differs from {} from line {}:\n  snapshot: {}\n  compiler: {}",
                snapshot_path.display(),
                line + 1,
                snapshot.lines().nth(line).unwrap_or("(end)"),
                listing.lines().nth(line).unwrap_or("(end)"),
            ));
        }
        // The snapshot's own code, assembled, against the reference model.
        let code = asm::listing(&snapshot).unwrap_or_else(|e| panic!("{name}.lst: {e}"));
        let mut image = compiled.image.clone();
        image.code = code;
        let inputs = inputs(root, name);
        let corners = BTreeMap::new();
        let core = sim::core_model::Prepared::new(&image);
        let core_batch =
            |b: &RunInputs, q: &BatchInputs, o: &mut BatchOutputs<_>| core.run_flat(b, q, o);
        let on_core = render_batch(&program, 16, 16, &corners, &inputs, &core_batch, 1)
            .unwrap_or_else(|e| panic!("{name}.lst on the core model: {e}"));
        let reference = sim::reference::Prepared::new(&program).expect("the reference model");
        let ref_batch =
            |b: &RunInputs, q: &BatchInputs, o: &mut BatchOutputs<_>| reference.run_flat(b, q, o);
        let on_reference = render_batch(&program, 16, 16, &corners, &inputs, &ref_batch, 1)
            .unwrap_or_else(|e| panic!("{name} on the reference model: {e}"));
        assert_eq!(on_core.pixels.len(), 256);
        let differing = (0..256)
            .filter(|&n| on_core.pixels[n] != on_reference.pixels[n])
            .count();
        assert_eq!(
            differing, 0,
            "{name}.lst: pixels differ from the reference model"
        );
        assert!(
            on_core.pixels.iter().any(|p| p[..3] != [0, 0, 0]),
            "{name}: a frame with colour"
        );
    }
    assert!(
        stale.is_empty(),
        "{}\n(after an intended compiler change: UPDATE_LISTINGS=1 cargo test --test listings, \
         then review `git diff tests/listings`)",
        stale.join("\n")
    );
}

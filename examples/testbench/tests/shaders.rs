//! The example shader on every engine: the core model is within a few ulp of the reference model
//! (RSQ is an approximation whose error bound both meet, not the same bits), both are close to
//! the same formula in plain Rust, and the core's Verilog (under Verilator) equals the core
//! model bit for bit, cycles included.
use tgsi_core::testbench::{Engine, Quad, Shader};

fn shader() -> Shader {
    Shader::load(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/shaders/normalize.tgsi"
    ))
    .unwrap_or_else(|e| panic!("{e}"))
}

fn quad(k: u32) -> Quad {
    let f = |i: u32| ((k * 7 + i * 13) % 23) as f32 / 4.0 - 2.5;
    Quad::new()
        .input_lanes(
            0,
            std::array::from_fn(|l| {
                let l = l as u32;
                [f(l), f(l + 5), f(l + 11), 1.0]
            }),
        )
        .constant(0, [1.0, 0.8, 0.6, 1.0])
}

#[test]
fn the_core_model_is_within_a_few_ulp_of_the_reference_model() {
    let s = shader();
    for k in 0..50 {
        let q = quad(k);
        let reference = s.run(Engine::Reference, &q).unwrap();
        let core = s.run(Engine::Core, &q).unwrap();
        if let Err(m) = reference.compare_ulps(&core, 4) {
            panic!("quad {k}: {m}");
        }
    }
}

#[test]
fn the_shader_computes_the_normalised_vector_mapped_to_a_colour() {
    let s = shader();
    let tint = [1.0f32, 0.8, 0.6];
    for k in 0..50 {
        let q = quad(k);
        let out = s.run(Engine::Core, &q).unwrap().output(0);
        let inputs = q.inputs().inputs.get(&0).copied().unwrap();
        for (l, lane) in inputs.iter().enumerate() {
            let v = lane.map(f32::from_bits);
            let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
            for c in 0..3 {
                let want = (v[c] / len * 0.5 + 0.5) * tint[c];
                // RSQ is an approximation on the core (decisions.md: relative error bound).
                assert!(
                    (out[l][c] - want).abs() <= 1e-5,
                    "quad {k} lane {l}.{c}: {} vs {want}",
                    out[l][c]
                );
            }
            assert_eq!(out[l][3], 1.0);
        }
    }
}

#[test]
fn the_hardware_equals_the_core_model() {
    let s = shader();
    let q = quad(3);
    let core = s.run(Engine::Core, &q).unwrap();
    let hw = s
        .run(Engine::Verilator, &q)
        .unwrap_or_else(|e| panic!("{e} (the toolchain comes from `cargo xtask setup`)"));
    core.compare_bits(&hw).unwrap_or_else(|m| panic!("{m}"));
    assert_eq!(core.cycles(), hw.cycles());
}

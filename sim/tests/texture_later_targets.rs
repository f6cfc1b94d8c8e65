//! The texture targets after Mesa 7.9's (array layers, depth comparison on arrays and cube maps,
//! cube-map arrays, multisampled) and the system values VERTEXID / INSTANCEID, with
//! hand-computed expectations.

use microcode::tgsi::TextureTarget as T;
use sim::run_io::RunInputs;
use sim::texture::sample::layer_index;
use sim::texture::{Filter, Format, Texture};

fn sample(texture: &Texture, target: T, coord: [f32; 4]) -> [f32; 4] {
    texture
        .sample(target, coord.map(f32::to_bits))
        .map(f32::from_bits)
}

/// A 2x2 texture of three layers; texel (x, y) of layer l holds 100 l + 10 y + x.
fn layers() -> Texture {
    let mut texels = Vec::new();
    for l in 0..3 {
        for y in 0..2 {
            for x in 0..2 {
                let v = (100 * l + 10 * y + x) as f32;
                texels.push([v.to_bits(), 0, 0, 1.0f32.to_bits()]);
            }
        }
    }
    Texture::new(2, 2, 3, Format::Rgba, texels).unwrap()
}

#[test]
fn array_layers_round_and_clamp() {
    assert_eq!(layer_index(0.49, 3), 0);
    assert_eq!(layer_index(0.5, 3), 1);
    assert_eq!(layer_index(1.4, 3), 1);
    assert_eq!(layer_index(-7.0, 3), 0);
    assert_eq!(layer_index(9.0, 3), 2);
    assert_eq!(layer_index(f32::NAN, 3), 0);
    let t = layers();
    // 2D_ARRAY: (u, v) = (0.75, 0.25) is texel (1, 0); layer from z.
    assert_eq!(sample(&t, T::T2DArray, [0.75, 0.25, 1.0, 0.0])[0], 101.0);
    assert_eq!(sample(&t, T::T2DArray, [0.75, 0.75, 1.6, 0.0])[0], 211.0);
    assert_eq!(
        sample(&t, T::T2DArrayMsaa, [0.25, 0.75, 2.0, 0.0])[0],
        210.0
    );
    // 3D reads the same texture as slices (z normalised): layer 2 at z = 5/6.
    assert_eq!(sample(&t, T::T3D, [0.75, 0.75, 0.9, 0.0])[0], 211.0);
    // Bilinear filtering stays inside the layer: halfway between x = 0 and x = 1 of layer 2.
    let b = layers().with_filter(Filter::Bilinear);
    assert_eq!(sample(&b, T::T2DArray, [0.5, 0.25, 2.0, 0.0])[0], 200.5);
}

#[test]
fn one_d_arrays_take_the_layer_from_y() {
    // A 2-wide texture of 3 rows: 1D_ARRAY reads row `layer`.
    let mut texels = Vec::new();
    for l in 0..3 {
        for x in 0..2 {
            texels.push([((10 * l + x) as f32).to_bits(), 0, 0, 0]);
        }
    }
    let t = Texture::new(2, 3, 1, Format::Rgba, texels).unwrap();
    assert_eq!(sample(&t, T::T1DArray, [0.75, 2.2, 0.0, 0.0])[0], 21.0);
    // SHADOW1D_ARRAY: x, layer y, reference z: 20 <= 21 passes, 22 <= 21 does not.
    assert_eq!(
        sample(&t, T::Shadow1DArray, [0.75, 2.0, 20.0, 0.0]),
        [1.0, 1.0, 1.0, 1.0]
    );
    assert_eq!(
        sample(&t, T::Shadow1DArray, [0.75, 2.0, 22.0, 0.0]),
        [0.0, 0.0, 0.0, 1.0]
    );
    // TXF: (x, layer).
    assert_eq!(f32::from_bits(t.fetch(T::T1DArray, [1, 1, 0, 0])[0]), 11.0);
}

#[test]
fn shadow_arrays_and_cube_maps_read_the_reference_from_w() {
    let t = layers();
    // SHADOW2D_ARRAY: texel (1, 1) of layer 1 holds 111; the reference is w.
    assert_eq!(
        sample(&t, T::Shadow2DArray, [0.75, 0.75, 1.0, 111.0])[0],
        1.0
    );
    assert_eq!(
        sample(&t, T::Shadow2DArray, [0.75, 0.75, 1.0, 111.5])[0],
        0.0
    );
    // z is the layer here, not the reference: 100 <= texel 111 (layer 1) passes.
    assert_eq!(
        sample(&t, T::Shadow2DArray, [0.75, 0.75, 1.0, 100.0])[0],
        1.0
    );
    // SHADOWCUBE: face +X (1, 0.5, 0.25) is texel (0, 0) = 1.
    let cube = cube_array(1);
    assert_eq!(sample(&cube, T::ShadowCube, [1.0, 0.5, 0.25, 1.0])[0], 1.0);
    assert_eq!(sample(&cube, T::ShadowCube, [1.0, 0.5, 0.25, 1.5])[0], 0.0);
}

/// Six 2x2 faces of `layers` layers: texel (x, y) of layer l of face f holds
/// 100 l + 10 f + x + 2 y + 1.
fn cube_array(layers: u32) -> Texture {
    let mut texels = Vec::new();
    for face in 0..6 {
        for l in 0..layers {
            for y in 0..2 {
                for x in 0..2 {
                    let v = (100 * l + 10 * face + x + 2 * y + 1) as f32;
                    texels.push([v.to_bits(), 0, 0, 1.0f32.to_bits()]);
                }
            }
        }
    }
    Texture::new_cube_array(2, layers, Format::Rgba, texels).unwrap()
}

#[test]
fn cube_arrays_pick_the_face_then_the_layer_from_w() {
    let t = cube_array(3);
    // +X, s = 0.375 -> 0, t = 0.25 -> 0: 10 * 0 + 1, layer 2 adds 200.
    assert_eq!(sample(&t, T::CubeArray, [1.0, 0.5, 0.25, 2.0])[0], 201.0);
    // -Z (s = 0.25 -> 0, t = 0.375 -> 0): 51 in layer 1.
    assert_eq!(sample(&t, T::CubeArray, [0.5, 0.25, -1.0, 1.0])[0], 151.0);
    // TXQ: the layers are the depth.
    assert_eq!(t.size(), [2, 2, 3, 1]);
    // TXF on CUBE_ARRAY: (x, y, face, layer).
    assert_eq!(
        f32::from_bits(t.fetch(T::CubeArray, [1, 1, 5, 2])[0]),
        254.0
    );
}

#[test]
fn array_fetches_take_the_layer_after_the_coordinates() {
    let t = layers();
    assert_eq!(f32::from_bits(t.fetch(T::T2DArray, [1, 0, 2, 0])[0]), 201.0);
    assert_eq!(t.fetch(T::T2DArray, [1, 0, 3, 0]), [0; 4]);
    assert_eq!(f32::from_bits(t.fetch(T::T2DMsaa, [1, 1, 0, 0])[0]), 11.0);
}

/// `DCL SV[0], VERTEXID` and `DCL SV[1], INSTANCEID` copied to outputs.
const SYSTEM_VALUES: &str = "VERT
DCL IN[0]
DCL OUT[0], POSITION
DCL OUT[1], GENERIC[0]
DCL SV[0], VERTEXID
DCL SV[1], INSTANCEID
  0: MOV OUT[0], SV[0]
  1: MOV OUT[1], SV[1]
  2: END
";

#[test]
fn system_values_default_to_the_lane_and_instance_zero_on_both_models() {
    let p = microcode::tgsi::text::parse(SYSTEM_VALUES).unwrap();
    microcode::tgsi::validate::validate(&p, &Default::default()).unwrap();
    let inputs = RunInputs::default();
    let reference = sim::reference::run(&p, &inputs).unwrap();
    let image = microcode::compile::compile(&p, &microcode::core::CoreConfig::default())
        .unwrap()
        .image;
    let core_inputs = RunInputs {
        inputs: inputs.effective_inputs(&p),
        ..RunInputs::default()
    };
    let core = sim::core_model::run(&image, &core_inputs).unwrap();
    for (engine, out) in [("reference", &reference), ("core", &core)] {
        for lane in 0..4 {
            let o = &out.lanes[lane].outputs;
            assert_eq!(o[&0], [lane as u32, 0, 0, 0], "{engine} lane {lane}");
            assert_eq!(o[&1], [0; 4], "{engine} lane {lane}");
        }
    }
    // A value given for the IN index the core loads VERTEXID through (after IN[0]) wins.
    let at = microcode::tgsi::system::input_index(&p, 0) as u32;
    assert_eq!(at, 1);
    let mut given = RunInputs::default();
    given.inputs.insert(at, [[7, 0, 0, 0]; 4]);
    let out = sim::reference::run(&p, &given).unwrap();
    assert_eq!(out.lanes[2].outputs[&0], [7, 0, 0, 0]);
}

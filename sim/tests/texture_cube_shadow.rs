//! Cube-map face selection and SHADOW comparisons, with hand-computed expectations.

use microcode::tgsi::TextureTarget;
use sim::texture::{select_face, Face, Filter, Format, Texture, Wrap};

fn sample(texture: &Texture, target: TextureTarget, coord: [f32; 4]) -> [f32; 4] {
    texture
        .sample(target, coord.map(f32::to_bits))
        .map(f32::from_bits)
}

/// Six 2x2 faces; texel (x, y) of face f holds 10 f + x + 2 y + 1.
fn cube() -> Texture {
    let mut texels = Vec::new();
    for face in 0..6 {
        for y in 0..2 {
            for x in 0..2 {
                let v = (10 * face + x + 2 * y + 1) as f32;
                texels.push([v.to_bits(), 0, 0, 1.0f32.to_bits()]);
            }
        }
    }
    Texture::new_cube(2, Format::Rgba, texels).unwrap()
}

fn cube_red(t: &Texture, x: f32, y: f32, z: f32) -> f32 {
    sample(t, TextureTarget::Cube, [x, y, z, 1.0])[0]
}

#[test]
fn each_face_and_its_s_t() {
    let t = cube();
    // +X: s = (-z/|x| + 1)/2 = 0.375 -> 0, t = (-y/|x| + 1)/2 = 0.25 -> 0.
    assert_eq!(cube_red(&t, 1.0, 0.5, 0.25), 1.0);
    // -X: s = (z + 1)/2 = 0.625 -> 1, t = (-y + 1)/2 = 0.25 -> 0.
    assert_eq!(cube_red(&t, -1.0, 0.5, 0.25), 12.0);
    // +Y: s = (x + 1)/2 = 0.75 -> 1, t = (z + 1)/2 = 0.625 -> 1.
    assert_eq!(cube_red(&t, 0.5, 1.0, 0.25), 24.0);
    // -Y: s = 0.75 -> 1, t = (-z + 1)/2 = 0.375 -> 0.
    assert_eq!(cube_red(&t, 0.5, -1.0, 0.25), 32.0);
    // +Z: s = (x + 1)/2 = 0.75 -> 1, t = (-y + 1)/2 = 0.375 -> 0.
    assert_eq!(cube_red(&t, 0.5, 0.25, 1.0), 42.0);
    // -Z: s = (-x + 1)/2 = 0.25 -> 0, t = 0.375 -> 0.
    assert_eq!(cube_red(&t, 0.5, 0.25, -1.0), 51.0);
    // The major axis need not be 1: (0, 0, -4) is the centre of -Z; s = t = 0.5 -> texel (1, 1).
    assert_eq!(cube_red(&t, 0.0, 0.0, -4.0), 54.0);
}

#[test]
fn ties_go_x_before_y_before_z() {
    let t = cube();
    // |x| = |y|: +X (s = 0.25, t = 0 -> texel (0, 0)); +Y would give 23.
    assert_eq!(cube_red(&t, 1.0, 1.0, 0.5), 1.0);
    // |y| = |z|: -Y (s = 0.75, t = 0 -> texel (1, 0)); +Z would give 42.
    assert_eq!(cube_red(&t, 0.5, -1.0, 1.0), 32.0);
    // All equal: -X, s = (z + 1)/2 = 0, t = (-y + 1)/2 = 1 -> row 2 wraps to 0.
    assert_eq!(cube_red(&t, -1.0, -1.0, -1.0), 11.0);
    let clamped = cube().with_wrap([Wrap::ClampToEdge; 3]);
    assert_eq!(cube_red(&clamped, -1.0, -1.0, -1.0), 13.0);
    assert_eq!(select_face(2.0, -2.0, 2.0).face, Face::PositiveX);
    assert_eq!(select_face(0.0, 3.0, -3.0).face, Face::PositiveY);
}

#[test]
fn face_coordinates_follow_the_opengl_table() {
    let c = select_face(-2.0, 1.0, 0.5);
    assert_eq!((c.face, c.s, c.t), (Face::NegativeX, 0.625, 0.25));
    let c = select_face(0.5, -2.0, -1.0);
    assert_eq!((c.face, c.s, c.t), (Face::NegativeY, 0.625, 0.75));
    let c = select_face(-1.0, 0.5, -2.0);
    assert_eq!((c.face, c.s, c.t), (Face::NegativeZ, 0.75, 0.375));
    assert_eq!(Face::NegativeZ.index(), 5);
}

#[test]
fn degenerate_directions_address_texel_zero() {
    let t = cube();
    // 0/0 is NaN: +X (x wins the tie, -0 is not < 0), texel (0, 0).
    assert_eq!(cube_red(&t, -0.0, 0.0, 0.0), 1.0);
    // NaN fails every comparison: z is picked, NaN is not < 0 so +Z, and NaN s, t give texel 0.
    assert_eq!(cube_red(&t, f32::NAN, f32::NAN, f32::NAN), 41.0);
}

#[test]
fn cube_on_a_flat_texture_uses_its_image_and_2d_on_a_cube_uses_face_zero() {
    let values: Vec<[f32; 4]> = [1.0, 2.0, 3.0, 4.0]
        .iter()
        .map(|&v| [v, 0.0, 0.0, 1.0])
        .collect();
    let flat = Texture::from_floats(2, 2, 1, Format::Rgba, &values).unwrap();
    // -Y face coordinates s = 0.75, t = 0.375: texel (1, 0).
    assert_eq!(cube_red(&flat, 0.5, -1.0, 0.25), 2.0);
    let c = cube();
    assert_eq!(
        sample(&c, TextureTarget::T2D, [0.75, 0.75, 0.0, 1.0])[0],
        4.0
    );
}

#[test]
fn bilinear_stays_on_the_face() {
    let t = cube().with_filter(Filter::Bilinear);
    // Centre of +Z: s = t = 0.5: the four texels of face 4 averaged: 41..44 -> 42.5.
    assert_eq!(cube_red(&t, 0.0, 0.0, 1.0), 42.5);
}

/// Depth texture with first channels `depths`, one row.
fn depth(depths: &[f32]) -> Texture {
    let texels: Vec<[f32; 4]> = depths.iter().map(|&d| [d, d, d, 1.0]).collect();
    Texture::from_floats(depths.len() as u32, 1, 1, Format::Z, &texels).unwrap()
}

#[test]
fn shadow_compares_r_with_each_texel() {
    let t = depth(&[0.25, 0.75]);
    assert_eq!(
        sample(&t, TextureTarget::Shadow2D, [0.25, 0.0, 0.5, 1.0]),
        [0.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(
        sample(&t, TextureTarget::Shadow2D, [0.75, 0.0, 0.5, 1.0]),
        [1.0, 1.0, 1.0, 1.0]
    );
    // Equal passes (r <= texel).
    assert_eq!(
        sample(&t, TextureTarget::Shadow1D, [0.25, 9.0, 0.25, 1.0]),
        [1.0, 1.0, 1.0, 1.0]
    );
    // NaN fails on either side.
    assert_eq!(
        sample(&t, TextureTarget::Shadow1D, [0.75, 0.0, f32::NAN, 1.0])[0],
        0.0
    );
    let n = depth(&[f32::NAN]);
    assert_eq!(
        sample(&n, TextureTarget::Shadow1D, [0.5, 0.0, 0.0, 1.0])[0],
        0.0
    );
    // ShadowRect: unnormalised, x = 1.
    assert_eq!(
        sample(&t, TextureTarget::ShadowRect, [1.5, 0.0, 0.5, 1.0])[0],
        1.0
    );
    assert_eq!(
        sample(&t, TextureTarget::ShadowRect, [0.5, 0.0, 0.5, 1.0])[0],
        0.0
    );
}

#[test]
fn shadow_filters_the_comparison_results() {
    let t = depth(&[0.25, 0.75]).with_filter(Filter::Bilinear);
    // a = 0.5: f = 0.5 over results (0, 1).
    assert_eq!(
        sample(&t, TextureTarget::Shadow2D, [0.5, 0.0, 0.5, 1.0]),
        [0.5, 0.5, 0.5, 1.0]
    );
    // f = 0.25 (u = 0.375): 0 * 0.75 + 1 * 0.25.
    assert_eq!(
        sample(&t, TextureTarget::Shadow1D, [0.375, 0.0, 0.5, 1.0])[0],
        0.25
    );
    // Filtering the depths first would give 0.375 < 0.5 -> 0; compare first gives 0.25.
    assert_eq!(
        sample(&t, TextureTarget::Shadow1D, [0.375, 0.0, 0.4, 1.0])[0],
        0.25
    );
}

#[test]
fn shadow_reads_subnormal_depths_as_zero() {
    let t = depth(&[f32::from_bits(0x0000_0010)]);
    // r = +2^-149 (flushed to 0) <= texel (flushed to 0).
    let r = f32::from_bits(1);
    assert_eq!(
        sample(&t, TextureTarget::Shadow2D, [0.5, 0.5, r, 1.0])[0],
        1.0
    );
    assert_eq!(
        sample(&t, TextureTarget::Shadow2D, [0.5, 0.5, 1e-30, 1.0])[0],
        0.0
    );
}

//! Nearest and bilinear addressing on tiny textures, with hand-computed expectations.

use microcode::tgsi::TextureTarget;
use sim::texture::{Filter, Format, Texture, Wrap};

/// A texture whose texel `n` (storage order) is `(v, 10 v, 0, 1)` with `v = values[n]`.
fn texture(width: u32, height: u32, depth: u32, values: &[f32]) -> Texture {
    let texels: Vec<[f32; 4]> = values.iter().map(|&v| [v, 10.0 * v, 0.0, 1.0]).collect();
    Texture::from_floats(width, height, depth, Format::Rgba, &texels).unwrap()
}

fn sample(texture: &Texture, target: TextureTarget, coord: [f32; 4]) -> [f32; 4] {
    texture
        .sample(target, coord.map(f32::to_bits))
        .map(f32::from_bits)
}

/// Red channel of a 2-D lookup at (u, v).
fn red2(texture: &Texture, u: f32, v: f32) -> f32 {
    sample(texture, TextureTarget::T2D, [u, v, 0.0, 1.0])[0]
}

/// Red channel of a 1-D lookup at u.
fn red1(texture: &Texture, u: f32) -> f32 {
    sample(texture, TextureTarget::T1D, [u, 0.0, 0.0, 1.0])[0]
}

fn square() -> Texture {
    // t(x, y) = 1 + x + 2y
    texture(2, 2, 1, &[1.0, 2.0, 3.0, 4.0])
}

fn row3() -> Texture {
    texture(3, 1, 1, &[1.0, 2.0, 3.0])
}

const CLAMP: [Wrap; 3] = [Wrap::ClampToEdge; 3];

#[test]
fn nearest_picks_floor_of_u_times_size() {
    let t = square();
    assert_eq!(red2(&t, 0.25, 0.25), 1.0);
    assert_eq!(red2(&t, 0.75, 0.25), 2.0);
    assert_eq!(red2(&t, 0.25, 0.75), 3.0);
    assert_eq!(red2(&t, 0.75, 0.75), 4.0);
    // 0.5 * 2 = 1 exactly: the second texel.
    assert_eq!(red2(&t, 0.5, 0.0), 2.0);
    // All four channels come back, the texel's bits unchanged.
    assert_eq!(
        sample(&t, TextureTarget::T2D, [0.75, 0.75, 0.0, 1.0]),
        [4.0, 40.0, 0.0, 1.0]
    );
}

#[test]
fn nearest_repeat_wraps_negative_and_large_coordinates() {
    let t = row3();
    assert_eq!(red1(&t, 0.5), 2.0); // 1.5 -> 1
    assert_eq!(red1(&t, 0.9), 3.0); // 2.7 -> 2
    assert_eq!(red1(&t, -0.1), 3.0); // -0.3 -> -1 -> 2
    assert_eq!(red1(&t, 1.0), 1.0); // 3 -> 0
    assert_eq!(red1(&t, -1.0), 1.0); // -3 -> 0
    assert_eq!(red1(&t, 2.5), 2.0); // 7.5 -> 7 -> 1
                                    // Beyond int32 the index saturates: 2147483647 mod 3 = 1, -2147483648 mod 3 = 1.
    assert_eq!(red1(&t, 1.0e10), 2.0);
    assert_eq!(red1(&t, -1.0e10), 2.0);
    // On 2 texels: 2147483647 mod 2 = 1, -2147483648 mod 2 = 0.
    let s = square();
    assert_eq!(red2(&s, 1.0e10, 0.0), 2.0);
    assert_eq!(red2(&s, -1.0e10, 0.0), 1.0);
}

#[test]
fn nearest_clamp_to_edge() {
    let t = row3().with_wrap(CLAMP);
    assert_eq!(red1(&t, -0.1), 1.0);
    assert_eq!(red1(&t, -1.0e10), 1.0);
    assert_eq!(red1(&t, 1.0), 3.0);
    assert_eq!(red1(&t, 1.0e10), 3.0);
    assert_eq!(red1(&t, 0.5), 2.0);
}

#[test]
fn non_finite_coordinates_give_index_zero() {
    for wrap in [[Wrap::Repeat; 3], CLAMP] {
        let t = row3().with_wrap(wrap);
        for u in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            assert_eq!(red1(&t, u), 1.0, "u = {u}, {wrap:?}");
        }
        let s = square().with_wrap(wrap);
        assert_eq!(red2(&s, 0.75, f32::NAN), 2.0);
        assert_eq!(red2(&s, f32::INFINITY, 0.75), 3.0);
        let b = row3().with_wrap(wrap).with_filter(Filter::Bilinear);
        for u in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            assert_eq!(red1(&b, u), 1.0, "bilinear u = {u}, {wrap:?}");
        }
    }
}

#[test]
fn subnormal_coordinates_count_as_zero() {
    // -2^-149 * 3 is a tiny negative number whose floor would be -1 (texel 2, value 3) without
    // the flush; read as -0 it addresses texel 0.
    let t = row3();
    assert_eq!(red1(&t, f32::from_bits(0x8000_0001)), 1.0);
}

#[test]
fn bilinear_1d_hand_values() {
    let t = row3().with_filter(Filter::Bilinear);
    assert_eq!(red1(&t, 0.5), 2.0); // a = 1.0, f = 0
    assert_eq!(red1(&t, 0.25), 1.25); // a = 0.25: 1 * 0.75 + 2 * 0.25
    assert_eq!(red1(&t, 0.0), 2.0); // a = -0.5: texels 2 and 0, f = 0.5: 1.5 + 0.5
    assert_eq!(red1(&t, 1.0), 2.0); // a = 2.5: texels 2 and 0 (3 wrapped), f = 0.5
    let c = row3().with_filter(Filter::Bilinear).with_wrap(CLAMP);
    assert_eq!(red1(&c, 0.0), 1.0); // texels 0 and 0
    assert_eq!(red1(&c, 1.0), 3.0); // texels 2 and 2
    assert_eq!(red1(&c, -5.0), 1.0);
}

#[test]
fn bilinear_2d_hand_values() {
    let t = square().with_filter(Filter::Bilinear);
    // Centre: (1*.5 + 2*.5)*.5 + (3*.5 + 4*.5)*.5 = 2.5; second channel 10x; alpha stays 1.
    assert_eq!(
        sample(&t, TextureTarget::T2D, [0.5, 0.5, 0.0, 1.0]),
        [2.5, 25.0, 0.0, 1.0]
    );
    // Texel centre: f = g = 0.
    assert_eq!(red2(&t, 0.25, 0.25), 1.0);
    // f = 0.25, g = 0.75: (1*.75 + 2*.25)*.25 + (3*.75 + 4*.25)*.75 = 0.3125 + 2.4375.
    assert_eq!(red2(&t, 0.375, 0.625), 2.75);
    // Repeat at the corner: i = j = -1 wraps to 1, i + 1 = 0.
    assert_eq!(red2(&t, 0.0, 0.0), 2.5);
    let c = square().with_filter(Filter::Bilinear).with_wrap(CLAMP);
    assert_eq!(red2(&c, 0.0, 0.0), 1.0);
    assert_eq!(red2(&c, 1.0, 1.0), 4.0);
    // Clamp on s only, repeat on t: s at the right edge (texel 1), t wraps between rows 1 and 0.
    let m = square().with_filter(Filter::Bilinear).with_wrap([
        Wrap::ClampToEdge,
        Wrap::Repeat,
        Wrap::Repeat,
    ]);
    // (4*.5 + 4*.5)*.5 + (2*.5 + 2*.5)*.5 = 3
    assert_eq!(red2(&m, 1.0, 0.0), 3.0);
}

#[test]
fn bilinear_rounds_once_per_operation_left_to_right() {
    let (a, b) = (0.024f32, 0.7f32);
    let t = texture(2, 1, 1, &[a, b]).with_filter(Filter::Bilinear);
    // u = 0.375: a = 0.25, f = 0.25.
    let expected = a * 0.75 + b * 0.25;
    assert_eq!(red1(&t, 0.375).to_bits(), expected.to_bits());
    // The fused evaluation rounds differently for these operands, so the test can tell them apart.
    let fused = a.mul_add(0.75, b * 0.25);
    assert_ne!(fused.to_bits(), expected.to_bits());
    // A weight with many significant bits: u = 0.3 gives a = 0.6 - 0.5 (rounded), f = a.
    let u = 0.3f32;
    let scaled = u * 2.0 - 0.5;
    let f = scaled - scaled.floor();
    let expected = a * (1.0 - f) + b * f;
    assert_eq!(red1(&t, u).to_bits(), expected.to_bits());
}

#[test]
fn bilinear_flushes_subnormal_texels_and_products() {
    // A subnormal texel reads as zero: 0 * 0.5 + 2 * 0.5 = 1.
    let tiny = f32::from_bits(0x0000_0100);
    let t = texture(2, 1, 1, &[tiny, 2.0]).with_filter(Filter::Bilinear);
    assert_eq!(red1(&t, 0.5).to_bits(), 1.0f32.to_bits());
    // 2^-126 * 0.5 is subnormal and flushes: both halves become 0.
    let min = f32::from_bits(0x0080_0000);
    let t = texture(2, 1, 1, &[min, min]).with_filter(Filter::Bilinear);
    assert_eq!(red1(&t, 0.5).to_bits(), 0);
    // Nearest is a move and keeps the subnormal's bits.
    let n = texture(2, 1, 1, &[tiny, 2.0]);
    assert_eq!(red1(&n, 0.25).to_bits(), tiny.to_bits());
}

#[test]
fn bilinear_nan_texels_give_the_canonical_nan() {
    let nan = f32::from_bits(0x7FA0_0001);
    let t = texture(2, 1, 1, &[nan, 2.0]).with_filter(Filter::Bilinear);
    assert_eq!(red1(&t, 0.5).to_bits(), 0x7FC0_0000);
}

#[test]
fn rect_uses_unnormalised_coordinates() {
    let t = row3();
    let rect = |t: &Texture, u: f32| sample(t, TextureTarget::Rect, [u, 0.0, 0.0, 1.0])[0];
    assert_eq!(rect(&t, 2.5), 3.0);
    assert_eq!(rect(&t, 0.9), 1.0);
    assert_eq!(rect(&t, 3.5), 1.0); // 3 wraps to 0
    assert_eq!(rect(&t, -0.5), 3.0); // -1 wraps to 2
    let c = row3().with_wrap(CLAMP);
    assert_eq!(rect(&c, 3.5), 3.0);
    let b = row3().with_filter(Filter::Bilinear);
    assert_eq!(rect(&b, 1.0), 1.5); // a = 0.5
    assert_eq!(rect(&b, 1.75), 2.25); // a = 1.25: 2*.75 + 3*.25
    let s = square();
    assert_eq!(
        sample(&s, TextureTarget::Rect, [1.5, 1.5, 0.0, 1.0])[0],
        4.0
    );
}

#[test]
fn three_d_slices_are_stacked() {
    // 1x1x4: slice z holds z + 1.
    let t = texture(1, 1, 4, &[1.0, 2.0, 3.0, 4.0]);
    let red3 = |t: &Texture, w: f32| sample(t, TextureTarget::T3D, [0.5, 0.5, w, 1.0])[0];
    assert_eq!(red3(&t, 0.6), 3.0); // 2.4 -> 2
    assert_eq!(red3(&t, 0.1), 1.0);
    assert_eq!(red3(&t, -0.1), 4.0); // repeat
                                     // A 2-D lookup reads slice 0.
    assert_eq!(red2(&t, 0.5, 0.5), 1.0);
    let b = texture(1, 1, 4, &[1.0, 2.0, 3.0, 4.0]).with_filter(Filter::Bilinear);
    assert_eq!(red3(&b, 0.5), 2.5); // a = 1.5
                                    // 2x2x2, t = 1 + x + 2y + 4z: the centre averages all eight: 2.5*.5 + 6.5*.5.
    let values: Vec<f32> = (0..8).map(|n| 1.0 + n as f32).collect();
    let cube = texture(2, 2, 2, &values).with_filter(Filter::Bilinear);
    assert_eq!(
        sample(&cube, TextureTarget::T3D, [0.5, 0.5, 0.5, 1.0])[0],
        4.5
    );
    // Nearest picks (1, 0, 1): 1 + 1 + 4.
    let nearest = texture(2, 2, 2, &values);
    assert_eq!(
        sample(&nearest, TextureTarget::T3D, [0.75, 0.25, 0.75, 1.0])[0],
        6.0
    );
}

#[test]
fn one_d_lookups_read_row_zero() {
    let t = square();
    assert_eq!(
        sample(&t, TextureTarget::T1D, [0.75, 0.75, 0.0, 1.0])[0],
        2.0
    );
}

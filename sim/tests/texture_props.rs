//! Properties of sampling over arbitrary coordinates and shapes.

use microcode::tgsi::TextureTarget;
use proptest::prelude::*;
use sim::texture::{Filter, Format, Texture, Wrap};

const TARGETS: [TextureTarget; 18] = TextureTarget::ALL;

fn texture(width: u32, height: u32, depth: u32, cube: bool) -> Texture {
    let faces = if cube { 6 } else { 1 };
    let count = (width * height * depth * faces) as usize;
    let texels: Vec<[u32; 4]> = (0..count)
        .map(|n| [(n as f32).to_bits(), 0, 0, 1.0f32.to_bits()])
        .collect();
    if cube {
        Texture::new_cube(width, Format::Rgba, texels).unwrap()
    } else {
        Texture::new(width, height, depth, Format::Rgba, texels).unwrap()
    }
}

fn wrap_mode(clamp: bool) -> Wrap {
    if clamp {
        Wrap::ClampToEdge
    } else {
        Wrap::Repeat
    }
}

proptest! {
    /// Any coordinate bits on any target: nearest returns a stored texel (or a shadow result).
    #[test]
    fn nearest_always_returns_a_texel(
        w in 1u32..5, h in 1u32..5, d in 1u32..4, cube in any::<bool>(),
        clamp in any::<[bool; 3]>(), target in 0usize..18, coord in any::<[u32; 4]>(),
    ) {
        let (h, d) = if cube { (w, 1) } else { (h, d) };
        let t = texture(w, h, d, cube).with_wrap(clamp.map(wrap_mode));
        let target = TARGETS[target];
        let result = t.sample(target, coord);
        let shadow = matches!(
            target,
            TextureTarget::Shadow1D
                | TextureTarget::Shadow2D
                | TextureTarget::ShadowRect
                | TextureTarget::Shadow1DArray
                | TextureTarget::Shadow2DArray
                | TextureTarget::ShadowCube
                | TextureTarget::ShadowCubeArray
        );
        if shadow {
            prop_assert!(result[0] == 0 || result[0] == 1.0f32.to_bits());
            prop_assert_eq!(result[3], 1.0f32.to_bits());
        } else {
            prop_assert!(t.texels().contains(&result), "{:?}", result);
        }
    }

    /// Bilinear filtering of texels valued 0..count-1 at finite coordinates of moderate size is
    /// never NaN and stays within [0, count - 1].
    #[test]
    fn bilinear_stays_within_the_texel_range(
        w in 1u32..5, h in 1u32..5, clamp in any::<[bool; 3]>(),
        u in -1.0e6f32..1.0e6, v in -1.0e6f32..1.0e6,
    ) {
        let t = texture(w, h, 1, false)
            .with_wrap(clamp.map(wrap_mode))
            .with_filter(Filter::Bilinear);
        let r = f32::from_bits(t.sample(TextureTarget::T2D, [u.to_bits(), v.to_bits(), 0, 0])[0]);
        prop_assert!(r >= 0.0 && r <= (w * h - 1) as f32, "{}", r);
    }

    /// Repeat is periodic: shifting a normalised coordinate by whole periods picks the same texel
    /// (the coordinates are dyadic, so every product is exact).
    #[test]
    fn repeat_is_periodic(log_w in 0u32..4, n in -1000i32..1000, k in -50i32..50) {
        let w = 1 << log_w;
        let t = texture(w, 1, 1, false);
        let u = n as f32 / 64.0;
        let shifted = u + k as f32;
        let a = t.sample(TextureTarget::T1D, [u.to_bits(), 0, 0, 0]);
        let b = t.sample(TextureTarget::T1D, [shifted.to_bits(), 0, 0, 0]);
        prop_assert_eq!(a, b);
    }

    /// TXF never panics and returns a texel or zero.
    #[test]
    fn fetch_is_total(target in 0usize..18, coord in any::<[i32; 4]>()) {
        let t = texture(2, 3, 2, false);
        let r = t.fetch(TARGETS[target], coord);
        prop_assert!(r == [0; 4] || t.texels().contains(&r));
    }
}

/// Host IEEE arithmetic with the section-2 rules applied around it: the oracle the texture unit's
/// float helpers (built on `microcode::arith`) must match.
mod host {
    fn operand(bits: u32) -> f32 {
        if bits & 0x7F80_0000 == 0 {
            f32::from_bits(bits & 0x8000_0000)
        } else {
            f32::from_bits(bits)
        }
    }

    pub fn rule(a: u32, b: u32, op: fn(f32, f32) -> f32) -> u32 {
        let r = op(operand(a), operand(b));
        if r.is_nan() {
            0x7FC0_0000
        } else if r.is_subnormal() {
            r.to_bits() & 0x8000_0000
        } else {
            r.to_bits()
        }
    }
}

/// Bit patterns weighted toward the edges: subnormals, tiny and huge normals, zeros, infinities
/// and NaNs, with either sign.
fn edge_bits() -> impl Strategy<Value = u32> {
    let magnitude = prop_oneof![
        any::<u32>(),
        0u32..0x0080_0000,
        0x0080_0000u32..0x0180_0000,
        0x7E80_0000u32..0x7F80_0000,
        0x3F00_0000u32..0x4000_0000,
        Just(0u32),
        Just(0x7F80_0000u32),
        0x7F80_0001u32..0x8000_0000,
    ];
    (magnitude, any::<bool>())
        .prop_map(|(m, neg)| (m & 0x7FFF_FFFF) | if neg { 0x8000_0000 } else { 0 })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]
    #[test]
    fn float_helpers_match_host_ieee_with_the_rules(a in edge_bits(), b in edge_bits()) {
        use sim::texture::float;
        let (x, y) = (f32::from_bits(a), f32::from_bits(b));
        prop_assert_eq!(float::add(x, y).to_bits(), host::rule(a, b, |p, q| p + q));
        prop_assert_eq!(float::sub(x, y).to_bits(), host::rule(a, b, |p, q| p - q));
        prop_assert_eq!(float::mul(x, y).to_bits(), host::rule(a, b, |p, q| p * q));
        prop_assert_eq!(float::div(x, y).to_bits(), host::rule(a, b, |p, q| p / q));
        prop_assert_eq!(float::floor(x).to_bits(), host::rule(a, 0, |p, _| p.floor()));
        let le = host::rule(a, b, |p, q| if p <= q { 1.0 } else { 0.0 }) == 1.0f32.to_bits();
        prop_assert_eq!(float::le(x, y), le);
        let floored = f32::from_bits(host::rule(a, 0, |p, _| p.floor()));
        prop_assert_eq!(float::floor_to_int(x), floored as i32);
    }
}
